/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analysis: lock state over each function's CFG, summaries composed
 * bottom-up over the call graph, and findings where costly work runs
 * with a lock held, IRQs off or preemption off.
 */
#ifndef HOG_ANALYSIS_H
#define HOG_ANALYSIS_H

#include "ir.h"
#include "rules.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hog_kind {
	HK_CALL,	/* a costly callee */
	HK_LOOP,	/* a long data-dependent loop */
	HK_SLEEP,	/* a call that may sleep */
	HK_ATOMIC,	/* an atomic RMW on one global cache line */
};

enum hog_sev { HS_NOTE, HS_WARNING, HS_ERROR };

/* One step of a call chain: a function and the line in it. */
struct hog_step {
	const char *func;
	const char *file;
	int line, col;
};

/*
 * One of several ways to a cost, under different tests of one
 * argument, that a summary joined into one condition (keep_costs()):
 * its own test and chain.
 */
struct hog_way {
	struct hog_when when;
	int nchain;
	struct hog_step *chain;
	const char *cold;	/* as hog_cost's, for this way */
};

#define HOG_MAX_WAYS 8

/*
 * A cost a function incurs, as its callers see it.  chain[0] is this
 * function at the call (or loop) that leads to the cost; the last step
 * is the function holding the costly call or loop, at its line.
 */
struct hog_cost {
	enum hog_kind kind;
	const char *cls;
	const char *reason;
	const char *callee;	/* costly callee; for loops the heaviest call in the body */
	int listed;		/* named by the rules catalogue */
	int nchain;
	struct hog_step *chain;
	int nrel;		/* locks held on entry given up before the cost */
	const char **rel;
	int nbreak;		/* loops: locks given up inside the loop */
	const char **brk;
	int irqs_off;		/* IRQs are off at the cost, inside the chain */
	int irq_on;		/* IRQs were turned back on inside the chain */
	int batched;		/* only past a per-CPU threshold: once every so many calls */
	int offkey;		/* 1 + the static-key rule whose other state every path needs, 0 none */
	/*
	 * Levels of preemption off that the cost expects from its callers
	 * (schedule_preempt_disabled()'s contract): not an atomic context
	 * for it.  What the chain disabled itself is taken off on the way up.
	 */
	int preempt_ok;
	const char *inner;	/* a lock taken inside the chain and held at the cost */
	struct hog_when when;	/* applies only if this holds for the arguments */
	int count_shift;	/* loops: -1, or when.arg counts 1 << (it - count_shift) */
	/*
	 * Loops: the outer loop (its function and line) whose body reaches
	 * this one under the same locks; that loop is the finding, this one
	 * is folded into it.  func NULL: not nested.
	 */
	struct hog_step nest;
	/*
	 * Loops: the trip count the code implies (its own bound, or a cap
	 * from the rules), when no callee loop is folded into it; 0 none.
	 */
	long long bound;
	int scales;		/* loops: a walk over a container that grows (rules: scales) */
	/*
	 * HOG_CTX_*: contexts a test on the way ruled out (rules:
	 * context-test): a caller in one of them never reaches the cost.
	 */
	int ctxclear;
	/*
	 * The first function marked cold (__cold: printk, WARN's slow
	 * path, panic, dump_stack) the chain calls into, NULL none: an
	 * error or debugging path the programmer says rarely runs.
	 */
	const char *cold;
	/*
	 * The dec-and-test (rules: last-put) whose non-zero result the way
	 * went past, NULL none: the cost is a release, and runs only if
	 * that put dropped the last reference.  lastput_here: the test is
	 * in this function, whose own locks it does not excuse (a holder
	 * that tests the count itself means to get there); lastput: in a
	 * callee, a put the holder calls.
	 */
	const char *lastput_here;
	const char *lastput;
	/*
	 * Not costly where in_interrupt() is true (rules: cost
	 * unless=in-interrupt: vfree() defers the free there): a caller
	 * that has softirqs masked on every path drops it.
	 */
	int unless_intr;
	/*
	 * The ways `when` joins, `chain` the first one's; 0 for one way
	 * (or more than HOG_MAX_WAYS: then `when` alone decides).  A caller
	 * whose arguments rule out that way is shown the chain of one they
	 * leave open, and drops the cost when they rule out every way.
	 */
	int nways;
	struct hog_way *ways;
};

/*
 * What a context test's zero result rules out: a softirq callback, a
 * hard IRQ callback, a spinning lock or preemption off, IRQs off.
 */
#define HOG_CTX_NOT_SOFTIRQ 1
#define HOG_CTX_NOT_HARDIRQ 2
#define HOG_CTX_NOT_ATOMIC 4
#define HOG_CTX_IRQS_ON 8

/* A lock a function leaves held (acquires) for its caller. */
struct hog_lockfx {
	const char *expr;	/* in the function's terms: $N..., @g..., $R... */
	const char *cls;
	const char *kind;
	int sleeping;
	int irqsave;		/* taken with an irqsave: its release may restore IRQs */
	int cond;		/* 0 always; 1 iff it returns non-zero; 2 iff zero */
	int irqoff;		/* every return that holds it has IRQs off */
	/*
	 * The field it was stored in, as every return that holds it
	 * knows it (q->lock_ptr = &hb->lock in futex_q_lock()): the
	 * caller's spin_unlock(q.lock_ptr) gives it up.  NULL if none.
	 */
	const char *alias;
};

#define HOG_MAX_IRQ_LOCKS 4

struct hog_summary {
	const struct hog_func *fn;
	int nacq;
	struct hog_lockfx *acq;
	int nrel;
	const char **rel;	/* entry locks it gives up */
	int nbrk;
	const char **brk;	/* entry locks it gives up and takes again */
	int irq_exit;		/* HOG_IRQ_* or HOG_IRQ_PARAM + n */
	/*
	 * HOG_IRQ_ASLOCK: the locks one of whose irqsaves each return
	 * undoes (iocg_unlock() restores the flags of the lock its bool
	 * chose): the caller knows which one it holds.
	 */
	int nirq_lock;
	const char *irq_lock[HOG_MAX_IRQ_LOCKS];
	int preempt_delta;
	int pf_delta;		/* page faults disabled on return (kmap_atomic) */
	const char *ret_addr;	/* returns this address, in its terms */
	int ret_zero;		/* always returns 0 (1) or never (2): static inline stubs */
	/*
	 * Non-zero exactly when parameter ret_mparam has a bit of ret_mask
	 * set (gfpflags_allow_blocking(): !!(gfp & __GFP_DIRECT_RECLAIM)):
	 * a caller's test of the result is a test of its argument's bits.
	 * ret_mask 0: none.
	 */
	int ret_mparam;
	long long ret_mask;
	int ret_key;		/* 1 + the FK_KEY fact every return is (statickey.c), 0 none */
	int natomic;
	const char **atomic;	/* atomic RMW targets reachable through its parameters */
	int has_atomic;		/* any atomic RMW at all */
	int ncost;
	struct hog_cost *cost;
	struct hog_cost *self;	/* a cost the function is, inferred (hier-atomic) */
	int trivial;		/* no unbounded loops, no non-trivial calls */
	int pure;		/* only reads: a test of its result is a field (fieldcond.c) */
	int irq_break;		/* IRQs turned on somewhere inside (enabled, or restored to on) */
	unsigned limits;	/* HOG_LIMIT_*: where the analysis of it was cut short */
};

/*
 * The analysis keeps its state bounded.  Where a bound cuts something
 * off, the function says so, and so does every report that goes through
 * it: a result from a truncated state is marked, never passed off as whole.
 */
enum hog_limit {
	HOG_LIMIT_PASSES = 1,	/* the dataflow did not settle in its passes */
	HOG_LIMIT_COSTS = 2,	/* more costs than a summary keeps: the lowest ranked dropped */
	HOG_LIMIT_HELD = 4,	/* more locks held at once than tracked: the outermost dropped */
	HOG_LIMIT_FACTS = 8,	/* more variable facts than tracked: the oldest dropped */
	HOG_LIMIT_ROUNDS = 16,	/* a recursive call group did not reach a fixed point */
	HOG_LIMIT_TRACK = 32,	/* more trylock cookies or flag masks than tracked */
};

/*
 * The limits after which the lock state on a way is not sure: a summary
 * short of its fixed point or its dataflow, or correlations forgotten
 * (facts, trylock results), may leave a lock "held" on paths the code
 * never takes.  A sleep on such a way is a warning, not an error.
 * Dropped costs and the outermost of too many locks leave what is kept
 * right.
 */
#define HOG_LIMIT_UNSURE (HOG_LIMIT_PASSES | HOG_LIMIT_ROUNDS | HOG_LIMIT_FACTS | HOG_LIMIT_TRACK)
/* "costs cut at 64, ..." for the limits set in mask (malloc'ed) */
char *hog_limit_text(unsigned mask);

#define HOG_IRQ_CALLER 0
#define HOG_IRQ_OFF 1
#define HOG_IRQ_ON 2
/*
 * Restored from flags the analysis cannot see (saved in memory:
 * rf->flags), to what the state was before the irqsave that took the
 * lock irq_lock: the caller finds that lock held and knows.
 */
#define HOG_IRQ_ASLOCK 3
#define HOG_IRQ_PARAM 16

/* A lock held at the place a finding points to. */
struct hog_lockref {
	const char *name;	/* "zone->lock", "IRQs off", "preemption off" */
	const char *cls;	/* "zone.lock"; NULL for IRQs and preemption */
	const char *kind;	/* spin, local, ..., irq, preempt */
	int sleeping;
	int line;		/* where it was taken */
	/*
	 * A lock of its class the chain gives up under a name the analysis
	 * cannot prove different (e4b->bd_sb's group lock after
	 * ac->ac_sb's was taken): it may be this one.  NULL if none.
	 */
	const char *maybe_rel;
	/*
	 * Held on entry by the holder's annotation (__must_hold,
	 * lockdep_assert_held()), not taken by it: the caller took it.
	 */
	int entry;
	/*
	 * The lock is one global variable (or a field of one), not per
	 * object, per CPU or per bucket: every CPU that takes it takes
	 * the same cache line.
	 */
	int global;
	/*
	 * Not a lock: the atomic context the holder runs in as a registered
	 * callback (rules: context), and where it is registered (func NULL
	 * for a lock).
	 */
	struct hog_step reg;
	int reg_var;		/* reg.func names the variable whose initializer registers it */
};

/* One way a lock holder reaches the costly site. */
struct hog_path {
	const char *holder;
	const char *file;	/* of the holder's call or loop */
	int line, col;
	int nchain;
	struct hog_step *chain;
	int irqs_off;
	struct hog_lockref lock;
	char fingerprint[17];	/* of this way to the site: holder and lock */
	unsigned limits;	/* HOG_LIMIT_* of the functions on this way */
	struct hog_step nest;	/* loops: the outer loop this way runs it in (hog_cost.nest) */
	long long bound;	/* loops: hog_cost.bound */
	int scales;		/* loops: hog_cost.scales */
	const char *cold;	/* hog_cost.cold */
	const char *lastput;	/* hog_cost.lastput */
	int batched;		/* past a per-CPU threshold on this way (hog_raw.batched) */
	const char *reason;	/* the cost's reason on this way (a caller's count may bound it) */
	/*
	 * Loops at the holder's own site: the trip count is the holder's
	 * parameter count_param ("when argN > max-bound"), -1 none; count_fn
	 * is the holder's IR, for its callers' arguments (prog.c).
	 */
	int count_param;
	int count_shift;	/* -1, or the count is 1 << (that parameter - count_shift) */
	const struct hog_func *count_fn;
	/*
	 * Every call of the holder comes from this rare entry, NULL if
	 * some call may come from elsewhere (prog.c, mark_rare()); rare_by
	 * says why it is one: NULL for a function marked cold, else the
	 * rule's word (the name, or the STRUCT.FIELD it is registered in).
	 */
	const char *rare;
	const char *rare_by;
	/*
	 * Nothing in this build calls the holder, and why (prog.c,
	 * mark_unbuilt()); NULL if something may.
	 */
	const char *unbuilt;
	/*
	 * The cost runs only when the holder's parameter meets when
	 * (when.arg >= 0, not a field's test; when_fn the holder's IR),
	 * and also when2 if when2.arg >= 0 (the holder's own test on the
	 * way): its callers' arguments decide the way (prog.c,
	 * decide_ways()).  when_above: the condition came from a callee,
	 * and the way is no finding unless a caller is seen to meet it.
	 * when_out: why the callers rule the way out, NULL while they do
	 * not.
	 */
	struct hog_when when, when2;
	const struct hog_func *when_fn;
	int when_above;
	const char *when_out;
};

struct hog_finding {
	enum hog_kind kind;
	enum hog_sev sev;
	const char *cls;
	const char *reason;
	const char *callee;
	const char *site_func;	/* function holding the costly call or loop */
	const char *site_file;
	int site_line, site_col;
	int listed;
	int irqs_off;
	int score;
	int batched;		/* every way to it is past a per-CPU threshold */
	/*
	 * 1 + the static-key rule whose other state every way not under a
	 * sleeping lock needs; 0 none, -1 no such way
	 */
	int offkey;
	char fingerprint[17];
	int npaths;		/* paths[0] is the primary one */
	int cpaths;		/* room in paths */
	struct hog_path *paths;
	const char *inner;
	unsigned limits;	/* HOG_LIMIT_* of the functions on any of its paths */
	const char *demoted;	/* why a rule made it a note, NULL if none did */
};

struct hog_prog;

struct hog_prog *hog_prog_new(struct hog_strtab *strs, const struct hog_rules *rules);
void hog_prog_free(struct hog_prog *p);
/* The program takes ownership of the module. */
void hog_prog_add_module(struct hog_prog *p, struct hog_module *m);
/* Summaries bottom-up, then findings grouped, ranked and fingerprinted. */
/*
 * The kernel tree the objects were built in and the directories read
 * (core/unbuilt.c): a holder only unbuilt units call makes a note.
 */
void hog_prog_set_tree(struct hog_prog *p, const char *tree, const char *const *roots,
		       int nroots);
void hog_prog_solve(struct hog_prog *p);

int hog_prog_nfindings(const struct hog_prog *p);
const struct hog_finding *hog_prog_finding(const struct hog_prog *p, int i);
const struct hog_summary *hog_prog_summary(const struct hog_prog *p,
					   const char *tu, const char *name);
int hog_prog_nfuncs(const struct hog_prog *p);
/* Functions the analysis gave up on (too many states), for notes. */
/* Functions whose analysis hit a limit (enum hog_limit), in a stable order. */
int hog_prog_nincomplete(const struct hog_prog *p);
const struct hog_summary *hog_prog_incomplete(const struct hog_prog *p, int i);
/* The limits the analysis of the function called name hit (0: none). */
unsigned hog_prog_limits(const struct hog_prog *p, const char *name);

const char *hog_kind_name(enum hog_kind k);
const char *hog_sev_name(enum hog_sev s);
/* The severity a name says ("note", "warning", "error"), or -1. */
int hog_sev_parse(const char *name);
/* The chain as names: holder, ..., callee (loops end at the looping function). */
int hog_path_names(const struct hog_finding *f, const struct hog_path *p,
		   const char **out, int max);

/* Low level, for unit tests: analyse one function against a summary lookup. */
typedef const struct hog_summary *(*hog_lookup_fn)(void *ctx, const struct hog_func *caller,
						    const char *callee);

#ifdef __cplusplus
}
#endif
#endif
