/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules catalogue (the files in rules/, format in rules/README.md): what
 * the names in a program mean.  Every engine reads it: the core when it
 * interprets calls, the cocci generator, the clang frontend.
 */
#ifndef HOG_RULES_H
#define HOG_RULES_H

#include "util.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hog_rule_kind {
	HR_LOCK,	/* lock primitive: acquire, release, trylock */
	HR_IRQ,		/* interrupts off/on, save/restore */
	HR_PREEMPT,	/* preemption off/on */
	HR_COST,	/* costly callee */
	HR_LOCKBREAK,	/* gives a held lock up: cond_resched_lock(), ... */
	HR_PASSTHROUGH,	/* returns its argument's lock: spinlock_check() */
	HR_ATOMIC,	/* atomic read-modify-write on an argument */
	HR_CHEAP,	/* an external function that does little: find_next_bit() */
	HR_PAGEFAULT,	/* page faults off/on: copies from user space then do not sleep */
	HR_NKINDS
};

enum hog_lock_op { HOP_ACQUIRE, HOP_RELEASE, HOP_TRYLOCK };
enum hog_irq_op { HIRQ_NONE, HIRQ_SAVE, HIRQ_RESTORE, HIRQ_DISABLE, HIRQ_ENABLE };
enum hog_try_cond { HTRY_NONZERO, HTRY_NONNULL, HTRY_ZERO };
enum hog_break_op { HBRK_BREAK, HBRK_TEST };

/* A condition on a constant argument: arg & mask != 0, or arg == value. */
struct hog_when {
	int arg;		/* -1: always */
	char op;		/* '&' or '=' */
	long long val;
	/*
	 * Inferred from a test the cost sits behind, not declared by a
	 * rule: a caller passing a value the analysis cannot read keeps
	 * the cost (a rule's gfp condition drops it).  2: a test of bits
	 * learnt through a helper's result or a ! (fact.soft): the locks
	 * held here see the cost too, as for a whole value's test.
	 */
	int inferred;
	/*
	 * Steps from the parameter to a field of it, op 'n' (the field is
	 * non-zero) or 'z' (zero): "if (store->file)" (core/fieldcond.c).
	 * Interned; NULL for a condition on the argument itself.
	 */
	const char *field;
};

struct hog_rule {
	enum hog_rule_kind kind;
	const char *name;	/* interned */
	const char *file;
	int line;
	struct hog_rule *next;	/* other rules for the same name */

	int op;			/* hog_lock_op, hog_irq_op, preempt +1/-1, hog_break_op */
	int arg;		/* the lock (or atomic target) argument, -1 none */
	int flags;		/* irq flags: -1 none, -2 return value, else argument */
	enum hog_irq_op irq;	/* for locks: irqsave/irqrestore/irq forms */
	enum hog_try_cond cond;	/* trylock success */
	const char *lock_kind;	/* spin, raw_spin, read, write, local, bit, mutex, rwsem */
	int sleeping;		/* the lock is a sleeping lock (mutex, rwsem) */
	int bit_arg;		/* bit_spin_lock: the bit number, -1 none */
	const char *cls;	/* cost class */
	int release_defers;	/* cost release=defer: the last put only queues the release */
	int preempt_held;	/* cost preempt=N: called with N preemption levels off, by contract */
	int bh_off;		/* lock bh=disable: taking it masks softirqs (spin_lock_bh()) */
	int unless_intr;	/* cost unless=in-interrupt: not costly where in_interrupt() is true */
	const char *reason;
	struct hog_when when;
	/* kernel versions it applies to: since <= v < until; 0 no limit */
	unsigned since, until;
};

/*
 * A kernel version as LINUX_VERSION_CODE gives it, KERNEL_VERSION(a, b, c)
 * with the sublevel capped at 255; 0 is "unknown" (core/kversion.c).
 */
#define HOG_KVERSION(a, b, c) (((unsigned)(a) << 16) + ((unsigned)(b) << 8) + \
			       ((c) > 255 ? 255u : (unsigned)(c)))
/* "6.12", "6.12.117", "6.1.0-28-amd64": 0, or -1 if it is not a version */
int hog_kversion_parse(const char *s, unsigned *out);
/* "6.12.117", "6.12" (sublevel 0) or "unknown" */
void hog_kversion_text(unsigned v, char *buf, size_t n);
/* The version a tree's top Makefile builds (make -s kernelversion): 0 or -1. */
int hog_kversion_of_tree(const char *dir, unsigned *out);
/* cost preempt=N: at most this many levels (the preemption depth is clamped at 8) */
#define MAX_PREEMPT_HELD 4

/* Cost classes the core knows how to rank; rules may add others. */
#define HOG_CLS_HIER	"hier-atomic"
#define HOG_CLS_REF	"refcount-release"
#define HOG_CLS_FLUSH	"tree-flush"
#define HOG_CLS_SLEEP	"sleep"
#define HOG_CLS_FAULT	"fault"		/* sleeps only by faulting on user memory */
#define HOG_CLS_LOOP	"unbounded-loop"
#define HOG_CLS_GATOM	"global-atomic"

struct hog_loop_policy {
	long long max_bound;	/* a loop bounded by at most this is cheap */
	int listwalk;		/* report pointer-chasing walks: 0 no, 1 yes */
	int min_calls;		/* non-trivial calls a loop body needs to count */
	int max_chain;		/* longest call chain followed */
	int nest_fold;		/* a loop run inside an outer loop's finding is a note: 1, or 0 */
	long long note_bound;	/* a loop the code bounds by at most this is a note; 0 off */
	int irqs_on_note;	/* a data-dependent loop with IRQs on under a spinning lock is a note */
};

/*
 * How findings are ranked (core/prog.c): a base score per cost class,
 * then adjustments for the context.  Policy, so the catalogue sets it
 * ("rank" lines, rules/README.md); these are the defaults.
 */
#define HOG_RANK_MAX_CLASSES 32
struct hog_rank_policy {
	int nbase;
	struct {
		const char *cls;	/* interned */
		int score;
	} base[HOG_RANK_MAX_CLASSES];
	int other;		/* a class not listed */
	int irqs_off;		/* IRQs off at the cost */
	int sleeping_lock;	/* the lock named is a sleeping one */
	int preempt;		/* preemption off, no lock */
	int spinning_lock;	/* a spinning lock held (not IRQs or preemption alone) */
	int listed;		/* the catalogue names the cost */
	int max_paths;		/* one point per way to it, up to this many */
	int per_step;		/* per call between the holder and the cost */
	int batched;		/* only once per per-CPU batch */
	int unsure;		/* a sleep that is a warning: its lock may be gone */
};

/*
 * What a frontend matches in the program's types and code rather than in
 * call names (rules/README.md, "Types, hierarchies, per-CPU asm"): exact
 * names, each list in file order, interned.
 */
struct hog_frontend_rules {
	struct hog_vec lock_tags;	/* lock-type struct: "spinlock", "mutex" */
	struct hog_vec lock_typedefs;	/* lock-type typedef: "rwlock_t" */
	struct hog_vec parent_fields;	/* parent-field: "page_counter.parent" */
	struct hog_vec parent_calls;	/* parent-call: "parent_mem_cgroup" */
	struct hog_vec percpu_arch;	/* percpu-asm: architecture of each prefix */
	struct hog_vec percpu_prefix;	/* percpu-asm: "%gs:" */
	struct hog_vec bound_names;	/* bound: "folio_batch_count", "per_cpu_pages.batch" */
	struct hog_vec bound_max;	/* bound: its cap, as (void *)(intptr_t); -1 none */
	struct hog_vec bound_min;	/* bound: a field's floor, the same; INTPTR_MIN none */
	struct hog_vec iter_names;	/* iterator: "__next_node", "find_next_bit" */
	struct hog_vec iter_arg;	/* iterator: arg * 2 + step, as (void *)(intptr_t) */
	struct hog_vec scales;		/* scales: "nr_cpu_ids", "task_struct.tasks" */
	struct hog_vec kind_types;	/* lock-kind: a lock-type name, "spinlock" */
	struct hog_vec kind_kinds;	/* lock-kind: its kind, "spin" */
};

/* "rare call=NAME arg=N": the function passed as argument arg is rare */
struct hog_rare_call {
	const char *call;	/* interned callee */
	int arg;
	const char *word;	/* interned "call=NAME arg=N", as notes cite it */
};

/*
 * The context a registered callback runs in: softirq (BHs off), hard
 * IRQ (IRQs off, in_hardirq()), or IRQs off where in_hardirq() may be
 * either (an IPI callback also runs on the calling CPU, under
 * local_irq_save(), in the caller's context).
 */
enum hog_ctx_kind { HOG_IN_SOFTIRQ, HOG_IN_HARDIRQ, HOG_IN_IRQS_OFF };

/* "softirq", "hardirq", "irqs-off": the rules' word, and a held context's kind */
const char *hog_ctx_kind_name(enum hog_ctx_kind k);

/*
 * "context": a registration that makes a function run in an atomic
 * context that is no lock (rules/README.md).  Exactly one of call and
 * field is set.
 */
struct hog_ctx_rule {
	const char *call;	/* interned callee taking the function as argument arg */
	int arg;
	const char *field;	/* interned lock-class spelling "TAG.FIELD" it is stored to */
	enum hog_ctx_kind kind;
	/*
	 * per-call: each call runs the function (on_each_cpu()), so it
	 * runs only as often as its registrations do (prog.c, mark_rare())
	 */
	int per_call;
	const char *label;	/* interned, as findings show it: "timer callback (softirq)" */
};

/*
 * "context-mode": an init call that decides the context a registered
 * callback runs in from a mode argument.  A callback registered for
 * the object passed as argument obj (stored to its field, or in this
 * very call) runs in ctx when the constant mode argument has a bit of
 * mask set: hrtimer_init(timer, clock, HRTIMER_MODE_REL_SOFT) makes
 * timer->function a softirq callback, not a hard IRQ one.
 */
struct hog_ctx_mode {
	const char *call;	/* interned */
	int obj, mode;
	long long mask;
	struct hog_ctx_rule ctx;	/* the context it gives, never looked up by name */
};

/*
 * "context-test": a function whose result, tested against zero, tells
 * the code which context it runs in (rules/README.md).  A zero result,
 * masked as the code masks it (preempt_count() & SOFTIRQ_OFFSET), rules
 * out each context whose bit the mask keeps; irqs_off: the result is
 * non-zero iff IRQs are off, given the flags a source returned; source:
 * returns the current IRQ flags.
 */
struct hog_ctx_test {
	const char *name;	/* interned */
	long long softirq;	/* the bit a softirq callback runs with, 0 none */
	long long hardirq;	/* the bit a hard IRQ callback runs with */
	long long atomic;	/* the bits a spinning lock or preempt_disable() adds */
	int irqs_off;
	int source;
};

/*
 * "static-key": the state a static key is taken to be in on the systems
 * the scan is for (cgroup v2's memory_cgrp_subsys_on_dfl_key on).  A
 * cost only past a test of the other state is a note that says why.
 */
struct hog_static_key {
	const char *name;	/* interned: the key's global, or "unset-field"'s STRUCT.FIELD */
	int on;
	int field;		/* "unset-field": a pointer field NULL on those systems; 2 "not-root" */
	const char *note;	/* the note's printf format, its one %s the key */
};

struct hog_rules {
	struct hog_strtab *strs;
	int own_strs;
	struct hog_arena arena;
	struct hog_map *byname;	/* interned name -> first struct hog_rule */
	struct hog_vec all;	/* every rule in file order */
	struct hog_vec strip;	/* interned field names dropped from lock identities */
	struct hog_frontend_rules fe;
	struct hog_loop_policy loop;
	struct hog_rank_policy rank;
	struct hog_vec release_words;	/* "release-by-name": interned words */
	struct hog_vec boot_funcs;	/* "boot-phase": interned function names */
	struct hog_vec current_funcs;	/* "current-task": interned function names */
	struct hog_vec quiesced_funcs;	/* "checks-off": interned function names */
	struct hog_vec diag_funcs;	/* "diagnostic": interned function names */
	struct hog_vec anyctx_funcs;	/* "any-context": interned function names */
	struct hog_vec rare_funcs;	/* "rare": interned function names */
	struct hog_vec rare_calls;	/* "rare call=": struct hog_rare_call * */
	struct hog_vec notroot_names;	/* "not-root": interned NAME or STRUCT.FIELD */
	struct hog_vec notroot_args;	/* ... arg=N, as (void *)(intptr_t) */
	struct hog_vec notroot_fields;	/* ... parent=STRUCT.FIELD, interned, or NULL */
	struct hog_vec lastput_funcs;	/* "last-put": interned function names */
	struct hog_vec cb_funcs;	/* "callback-break": interned function names */
	struct hog_vec cb_irqs;		/* ... irqs=on: 1, as (void *)(intptr_t) */
	struct hog_vec cb_locks;	/* ... lock=EXPR (in the function's terms), NULL none */
	struct hog_vec rel_funcs;	/* "callback-release": interned function names */
	struct hog_vec rel_locks;	/* ... lock=EXPR, in the function's terms */
	struct hog_vec ref_gets;	/* "ref-get": interned function names */
	struct hog_vec ref_puts;	/* ... put=NAME[,NAME]: each put, interned */
	struct hog_vec ref_put_rule;	/* ... the ref_gets index of each, as (void *)(intptr_t) */
	struct hog_vec ref_info;	/* ... arg * 2 + try, as (void *)(intptr_t) */
	struct hog_vec ctx_rules;	/* "context": struct hog_ctx_rule * */
	struct hog_vec ctx_modes;	/* "context-mode": struct hog_ctx_mode * */
	struct hog_vec ctx_tests;	/* "context-test": struct hog_ctx_test * */
	struct hog_vec static_keys;	/* "static-key", "unset-field": struct hog_static_key * */
	struct hog_vec branch_funcs;	/* "static-branch": interned function names */
	struct hog_vec rel_fields;	/* "ref-release": interned STRUCT.FIELD */
	struct hog_vec rel_reasons;	/* ... its reason, interned */
	int nfiles;
	unsigned long long digest;	/* of the text, for cache keys */
	/*
	 * The kernel version the catalogue is read for (0: unknown): a
	 * rule whose since=/until= excludes it is not loaded.  Rules left
	 * out are kept in outside, by name, to check ranges against.
	 */
	unsigned kversion;
	struct hog_map *outside;
	int noutside;
};

struct hog_rules *hog_rules_new(struct hog_strtab *strs);
/*
 * Parses one rules file into r.  On error returns -1 and sets *err to
 * "FILE:LINE: message" (malloc'ed); r keeps what was read before.
 */
int hog_rules_load(struct hog_rules *r, const char *path, char **err);
int hog_rules_parse(struct hog_rules *r, const char *path, const char *text,
		    size_t len, char **err);
void hog_rules_free(struct hog_rules *r);
/*
 * The kernel version to read the catalogue for, before any file is
 * parsed (0: unknown, every rule applies; of two rules for one name and
 * kind with disjoint versions, the first listed).  -1 once a file is read.
 */
int hog_rules_set_kversion(struct hog_rules *r, unsigned v);
/* Does the rule apply to the catalogue's version? */
int hog_rule_applies(const struct hog_rules *r, const struct hog_rule *x);

/* First rule of the given kind for an interned name, or NULL. */
const struct hog_rule *hog_rules_find(const struct hog_rules *r,
				      const char *name, enum hog_rule_kind kind);
int hog_rules_is_strip(const struct hog_rules *r, const char *field);
/* The base score of a cost class. */
int hog_rules_rank_base(const struct hog_rules *r, const char *cls);
/* Is name one of the "checks-off" functions (resume_target_kernel, panic)? */
int hog_rules_is_quiesced(const struct hog_rules *r, const char *name);
/* Is name one of the "diagnostic" functions (free_debug_processing, validate_slab_node)? */
int hog_rules_is_diagnostic(const struct hog_rules *r, const char *name);
/* The k-th "rare call=" rule for callee, NULL past the last */
const struct hog_rare_call *hog_rules_rare_call(const struct hog_rules *r, const char *callee, int k);
/* Is name one of the "any-context" frees (kfree, kmem_cache_free)? */
int hog_rules_is_anyctx(const struct hog_rules *r, const char *name);
/* Is name one of the "rare" entry points (kmem_cache_destroy, list_lru_destroy)? */
int hog_rules_is_rare(const struct hog_rules *r, const char *name);
/*
 * The argument a function of that name, or stored in that STRUCT.FIELD,
 * is never handed the root of its hierarchy in ("not-root"); -1 none.
 * *parent: the field that points to the parent of what it is handed,
 * NULL if the rule names none.
 */
int hog_rules_not_root(const struct hog_rules *r, const char *name, const char **parent);
/* The static key (an index, as hog_rules_static_key()) whose note a not-root rule gives; -1 none. */
int hog_rules_not_root_key(const struct hog_rules *r, const char *name);
/* Does name's non-zero result say the count dropped to zero (atomic_dec_and_test)? */
int hog_rules_is_last_put(const struct hog_rules *r, const char *name);
/* Is name one of the "current-task" functions (get_current)? */
int hog_rules_is_current(const struct hog_rules *r, const char *name);
/*
 * A "callback-break" contract for function name: an indirect call in it
 * may drop and retake a lock: *lock (an address in the function's terms,
 * its caller's lock) or, NULL, the innermost spinning lock held there.
 * Returns 1 and sets *irqs_on (IRQs let in with the lock) if there is one.
 */
int hog_rules_callback_break(const struct hog_rules *r, const char *name, int *irqs_on,
			     const char **lock);
/*
 * A "callback-release" contract: the callback function name calls
 * through a pointer gives up the lock (kref_put_lock()'s release is
 * called with the lock held and drops it).  The lock in name's terms,
 * or NULL if there is no such rule.
 */
const char *hog_rules_callback_release(const struct hog_rules *r, const char *name);
/*
 * "ref-get NAME put=PUT[,PUT] arg=N [try]": NAME takes a reference on
 * its argument N (on a non-zero return, with try) that a PUT of the
 * same argument gives back.  The rule's index, or -1; arg and try set.
 */
int hog_rules_ref_get(const struct hog_rules *r, const char *name, int *arg, int *is_try);
/* Is name one of the puts of ref-get rule i? */
int hog_rules_ref_put_of(const struct hog_rules *r, int i, const char *name);
/* Is name a put of any ref-get rule?  Its argument, or -1. */
int hog_rules_ref_put(const struct hog_rules *r, const char *name);
/*
 * The "context" rule for a call of name (call=) or for a store to a
 * field whose lock-class spelling is cls ("hrtimer.function", field=);
 * NULL if none.  Any string, interned or not.
 */
const struct hog_ctx_rule *hog_rules_ctx_call(const struct hog_rules *r, const char *name);
const struct hog_ctx_rule *hog_rules_ctx_field(const struct hog_rules *r, const char *cls);
/*
 * Does a store of a function to the field cls register it: a "context"
 * field= rule, or a "rare" STRUCT.FIELD (a sysfs .store)?  The frontends
 * write such stores and initializers; NULL is no field.
 */
int hog_rules_callback_field(const struct hog_rules *r, const char *cls);
/* The "context-mode" rule for an init call's name, NULL if none. */
const struct hog_ctx_mode *hog_rules_ctx_mode(const struct hog_rules *r, const char *name);
/* The "context-test" rule of name: its index, or -1; and the rule at an index. */
int hog_rules_ctx_test(const struct hog_rules *r, const char *name);
const struct hog_ctx_test *hog_rules_ctx_test_at(const struct hog_rules *r, int i);
/* The static-key rule for the global NAME: its index, -1 if none. */
int hog_rules_static_key(const struct hog_rules *r, const char *name);
const struct hog_static_key *hog_rules_static_key_at(const struct hog_rules *r, int i);
/* The unset-field rule for STRUCT.FIELD, an index among the static keys; -1 if none. */
int hog_rules_unset_field(const struct hog_rules *r, const char *name);
/* Returns its argument 0 key's state XOR its constant argument 1 (rules: static-branch). */
int hog_rules_is_static_branch(const struct hog_rules *r, const char *name);
/* Is name one of the "boot-phase" functions? */
int hog_rules_is_boot(const struct hog_rules *r, const char *name);
/*
 * "ref-release": the reason for a put of the reference at STRUCT.FIELD
 * whose release only wakes a waiter or queues work; NULL if none.
 */
const char *hog_rules_ref_release(const struct hog_rules *r, const char *field);
/* Whether reason is a "ref-release" rule's: a put whose release defers. */
int hog_rules_release_reason(const struct hog_rules *r, const char *reason);
/* Does a name contain one of the "release-by-name" words? */
int hog_rules_release_by_name(const struct hog_rules *r, const char *name);

const char *hog_rule_kind_name(enum hog_rule_kind k);

/*
 * The frontend's lookups, by exact name (any string, interned or not).
 * is_typedef: name is a typedef name, else a struct tag.
 */
int hog_rules_is_lock_type(const struct hog_rules *r, int is_typedef, const char *name);
/*
 * The kind (spin, mutex, ...) of a lock named only by its type, as in an
 * annotation (rules: lock-kind); NULL if the rules do not say.
 */
const char *hog_rules_lock_kind(const struct hog_rules *r, const char *type);
/* Is a lock of that kind a sleeping one (mutex, rwsem)? */
int hog_lock_kind_sleeps(const char *kind);
int hog_rules_is_parent_field(const struct hog_rules *r, const char *tag, const char *field);
/* The same for a field's class "TAG.FIELD" (NULL: no). */
int hog_rules_is_parent_class(const struct hog_rules *r, const char *cls);
int hog_rules_is_parent_call(const struct hog_rules *r, const char *func);
/*
 * The cap a "bound" rule gives a call's result or a field's value: the
 * function's name (tag NULL) or TAG.FIELD; -1 when none.
 */
long long hog_rules_bound(const struct hog_rules *r, const char *tag, const char *name);
/* The least field cls ("TAG.FIELD") holds, a "bound ... min=N" rule: 1 and *min, or 0 when none. */
int hog_rules_bound_min(const struct hog_rules *r, const char *cls, long long *min);
/* Does a "scales" rule name this function, global (tag NULL) or TAG.FIELD? */
int hog_rules_scales(const struct hog_rules *r, const char *tag, const char *name);
/*
 * iterator NAME arg=N step=S: NAME returns at least its argument N plus
 * S (0 or 1), or the size it was given.  The argument's index, or -1.
 */
int hog_rules_iterator(const struct hog_rules *r, const char *name, int *step);
/* Whether an inline asm template reads per-CPU data on arch ("x86_64"). */
int hog_rules_asm_is_percpu(const struct hog_rules *r, const char *arch, const char *tmpl);
/* Whether it is a locked RMW (lock prefix, xchg) on shared data, not this CPU's. */
int hog_rules_asm_is_atomic(const struct hog_rules *r, const char *arch, const char *tmpl);

#ifdef __cplusplus
}
#endif
#endif
