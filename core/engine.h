/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's state, shared by its files (state.c, values.c, locks.c,
 * cost.c, summary.c, engine.c) and private to them: checkers see only
 * checker.h.
 *
 * The state at a program point is a small set of tuples, one per group
 * of paths that differ in what matters: the locks held, whether IRQs
 * are off, the preemption depth, the entry locks given up, and a few
 * facts about variables (zero or not, saved IRQ state).  Keeping the
 * paths apart is what makes trylock work: after
 *
 *	if (!spin_trylock_irqsave(&l, flags)) return;
 *
 * the macro's "? 1 : (restore, 0)" meets in a phi, and only the facts
 * on that phi tell the path that holds the lock from the one that
 * returned.  Past MAX_TUPLES the tuples are merged, keeping only what
 * all of them agree on, so the analysis errs towards silence.
 */
#ifndef HOG_ENGINE_H
#define HOG_ENGINE_H

#include "flow.h"
#include "checker.h"

/*
 * The bounds that keep the state small.  Each one that cuts something
 * off sets a HOG_LIMIT_* bit (analysis.h), so reports say so.  The
 * kernel's deepest nesting of spinning locks is 4-5 (mm: mmap_lock,
 * ptl, lru_lock, zone->lock), and a function rarely tracks more than a
 * few flag words; past MAX_TUPLES path groups the cost of keeping paths
 * apart outweighs what it buys.
 */
#define MAX_HELD 8	/* locks held at once (HOG_LIMIT_HELD: the outermost dropped) */
#define MAX_OWN 2	/* references a path took and has not given back (rules: ref-get) */
#define MAX_FACTS 24	/* variable facts per tuple (HOG_LIMIT_FACTS: the oldest dropped) */
#define MAX_REL 8	/* entry locks given up, per tuple */
#define MAX_CSTS 4	/* constants a tested variable may be, per tuple (more: unknown) */
#define MAX_TUPLES 8	/* path groups per block before they merge */
#define MAX_COSTS 64	/* costs a summary keeps (HOG_LIMIT_COSTS: the lowest ranked dropped) */
#define MAX_PASSES 60	/* dataflow passes before the function is given up (HOG_LIMIT_PASSES) */
#define WIDEN_PASS 12	/* past this pass each block's tuples collapse to one */

/*
 * What a variable is known to be on a path: zero, non-zero, saved IRQ
 * flags, a parameter (FK_PARAM), its bits (FK_PMASK: param & mask) or the
 * parameter with bits forced on (FK_POR: param | mask, as fgp_flags |=
 * FGP_LOCK before a retry), or the parameter but for some bits (FK_PKEEP:
 * where a retry's FK_POR met the first pass's FK_PARAM).
 */
/*
 * Signs, of the value's bits in its own width: FK_SMALL its top bit is
 * clear (an unsigned x >> k), FK_POS that and not zero (so > 0 signed or
 * not), FK_NEG its top bit set (< 0 as a signed integer: -nr_pages of a
 * FK_POS one), FK_NONPOS zero or that (the negation of a count, "negu").
 */
/* FK_PNOT: !(param & mask), non-zero when none of the bits is set (lockhog-check's "!!" is two "!") */
enum { FK_NONE, FK_ZERO, FK_NONZERO, FK_FLAGS, FK_PMASK, FK_PARAM, FK_POR, FK_PKEEP,
       FK_SMALL, FK_POS, FK_NEG, FK_NONPOS, FK_CTX, FK_PNOT, FK_KEY };

/*
 * FK_CTX: a context test's result (rules: context-test), masked by
 * fact.mask; fact.irq is the rule's index times 2, plus 1 if negated.
 */
#define CTX_FACT(rule, neg) ((rule) * 2 + (neg))

/*
 * FK_KEY: a static key's state (rules: static-key), XOR neg: fact.irq is
 * the rule's index times 2, plus neg (statickey.c).
 */
#define KEY_FACT(rule, neg) ((rule) * 2 + (neg))

struct held {
	const char *expr;	/* normalised, NULL if unknown */
	const char *alias;	/* the same lock read through a field it was stored in */
	int irqprev;		/* IRQ state before an irqsave taking it, -1 if none */
	const char *cls;
	const char *kind;
	int sleeping;
	int line;
	/*
	 * A release of another lock of its class, under a name the analysis
	 * cannot prove different (tmp_wb->list_lock after wb->list_lock was
	 * taken): it may have been this one.  Findings are not blamed on it.
	 */
	int maybe_released;
	/*
	 * Held on entry, or from a lockdep_assert_held(), by the function's
	 * own word (an annotation): the caller took it.  Never "acquired" in
	 * the summary; given up, it is an entry lock given up.
	 */
	int entry;
	int ctx;	/* not a lock: the callback context fs->c->entry (rules: context) */
	/*
	 * Taken by a cleanup.h guard's constructor, class_NAME_constructor():
	 * its name, interned, and the call that took it (two guards of one
	 * class nest); class_NAME_destructor() gives it up.
	 */
	const char *guard;
	const struct hog_event *guard_at;
	/*
	 * Softirqs are masked while it is held (rules: lock bh=disable), or
	 * it is a softirq or hard IRQ context: in_interrupt() is true.
	 */
	int bh;
};

struct fact {
	int var;
	int kind;
	int irq;		/* FK_FLAGS: the IRQ state saved; FK_PMASK: the parameter */
	long long mask;		/* FK_PMASK: var = parameter & mask */
	/*
	 * FK_PMASK, FK_PNOT: learnt through a helper's result or a !, not
	 * written as "x & MASK" here: a caller whose value is not known
	 * keeps the costs behind its test (values.c, eng_when()).
	 */
	int soft;
	/*
	 * The constants the value may be (ncst > 0), for a variable an
	 * HC_EQK branch tests (a phi of M_PARTIAL, M_FREE, ...): kept only
	 * for those, so that other constants do not split the paths.  Paths
	 * merged keep the union: {M_PARTIAL, M_FULL} where the lock is held.
	 */
	int ncst;
	long long cst[MAX_CSTS];
};

/*
 * A reference this function took on a path (rules: ref-get), on the
 * object key names; var: the variable key was read from, so that its
 * next definition (the next round of a loop) forgets it; -1 none.
 */
struct own {
	const char *key;
	int var;
	int rule;
};

struct tup {
	int nheld;
	struct held held[MAX_HELD];
	int irq;
	const char *irq_lock;	/* HOG_IRQ_ASLOCK: restored as before this lock's irqsave */
	int preempt;
	int pf;			/* page faults disabled depth */
	int nrel;
	const char *rel[MAX_REL];
	int nfact;
	struct fact fact[MAX_FACTS];
	const char *store_from, *store_to;	/* the last lock pointer stored */
	/*
	 * The first test of a parameter's bits on this path (fgp_flags &
	 * FGP_LOCK): costs past it apply only when callers pass such bits.
	 */
	int pc_param;
	char pc_op;		/* '&': bits set, '~': bits clear; 'i', 'x': in, not in the set pc_mask */
	long long pc_mask;
	int pc_soft;		/* the test's fact was soft (fact.soft) */
	int batched;		/* past a per-CPU threshold test on this path */
	int ctxclear;		/* HOG_CTX_*: contexts a context test on this path ruled out */
	int offkey;		/* 1 + the static-key rule whose other state this path needs, 0 none */
	/*
	 * The first function the rules name rare (WARN()'s report, a
	 * teardown) this path called, NULL none: what follows on it is an
	 * error or teardown path too.
	 */
	const char *cold;
	/*
	 * The dec-and-test (rules: last-put) this path went past with a
	 * non-zero result, NULL none: what follows is the release.
	 */
	const char *lastput;
	int nown;
	struct own own[MAX_OWN];
	/* per-path record of the value returned, for trylock summaries */
};

struct tset {
	int n;
	struct tup *t;
};

/* What the final pass learns about each block. */
struct binfo {
	struct eng_block f;		/* what checkers may ask (checker.h) */
	struct hog_vec released;	/* lock exprs/classes given up here (interned) */
};

struct exitrec {
	struct tup t;
	int retkind;		/* FK_* of the returned value */
	int retkey;		/* FK_KEY: its fact.irq */
	const char *retaddr;
	int retparam;		/* FK_PMASK: the parameter whose bits it is, */
	long long retmask;	/* and which of them */
};

#define MAX_COOKIES 8	/* lock pointers that double as "is it held" flags (HOG_LIMIT_TRACK) */

/*
 * A variable computed from a parameter's bits: (param & and) | or; or,
 * with neg set, the parameter negated (-nr_pages of an argument).
 */
struct pmap {
	int var, param;
	long long and, or;
	int neg;
};

#define MAX_PMAP 32	/* variables computed from a parameter's bits (HOG_LIMIT_TRACK) */
#define MAX_ATOMICS 8	/* atomic targets a summary passes to callers */
#define HOG_CURRENT_EXPR "@current#^"	/* what a "current-task" call returns */
#define MAX_NAMED 8	/* locals named only by their source name (HOG_LIMIT_TRACK) */
#define MAX_LOADS 8	/* fields a test reads again ("load", HOG_LIMIT_TRACK) */

/*
 * What taking one edge of a block's test says about a parameter, on
 * every path the final pass saw through it: the edge is taken only when
 * (param & mask) != 0 (op '&') or == 0 (op '~'), or param > mask (op
 * '>') or param < mask (op '<': a sign test), or param is one of the
 * values 0..63 whose bits mask sets (op 'i': a switch's case, an
 * "== K" test) or none of them (op 'x').
 */
/*
 * The mask of a test of a parameter's whole value against zero (if (on),
 * if (!nonblock)): "param & PC_NONZERO" is non-zero iff param is.
 */
#define PC_NONZERO (-1LL)

struct econd {
	int state;		/* 0 not seen, 1 known, -1 not about a parameter */
	int param;
	char op;
	long long mask;
};

/* A test of a field read ("load"): the field, and whether the way out finds it non-zero. */
struct fcond {
	const char *addr;	/* NULL: no field test */
	int nonzero;
	/*
	 * A predicate's result (fieldcond.c, pred_field()): the block and
	 * event of the call, from where a write may change what the test
	 * found; def_b -1 for a load, read just before its test.
	 */
	int def_b, def_i;
};

/*
 * One loop nest, one finding: a callee's loop cost carried at a call in
 * block `block` (inside a loop of ours or not), with the raw findings it made here ([raw0, raw1) of
 * the context's raws); resolved against the reported loops once the
 * checkers are done (engine.c, fold_nests()).
 */
struct nest_cand {
	struct hog_cost *c;
	int block, raw0, raw1;
};

/* A loop a checker reported (eng_loop_cost): its cost and its raws. */
struct loop_rec {
	struct hog_cost *c;	/* NULL: not reported */
	int in_summary;		/* the cost reached the summary */
	int raw0, raw1;
};

struct fs {
	struct pmap pmap[MAX_PMAP];
	int npmap;
	struct hog_flow_ctx *c;
	struct {
		const char *name, *cls;
	} cookie[MAX_COOKIES];
	int ncookie;
	/*
	 * %parent: the one address its phi holds; or, addr NULL, a phi of
	 * several pointers (rq = move_queued_task(rq, ...) on one way)
	 */
	struct {
		const char *name, *addr;
		const struct hog_phi *phi;
	} named[MAX_NAMED];
	int nnamed;
	const struct hog_func *f;
	struct hog_summary *s;
	struct tset *in;
	const char **bind;	/* var -> address */
	struct binfo *bi;
	int recording;
	int collapse;
	int cur_block;
	int *idom;		/* immediate dominator of each block, -1 none */
	struct econd *econd;	/* [2 * block + successor] */
	struct fcond *fcond;	/* [2 * block + successor], NULL if no field is tested */
	struct hog_vec exits;	/* struct exitrec * */
	struct hog_vec costs;	/* struct hog_cost * (summary, before dedupe) */
	struct hog_vec everrel;	/* entry locks given up anywhere */
	struct hog_vec atomics;	/* portable atomic targets */
	int nontrivial;
	int icalls;
	struct hog_vec nested;	/* struct nest_cand *: loop costs carried at calls in loops */
	struct loop_rec *lrec;	/* [f->nloops]: what each reported loop recorded */
	unsigned limits;	/* HOG_LIMIT_* hit while analysing f */
	const char **notname;	/* [var]: var = !p, p's source name (values.c, cookies) */
	const char **phiname;	/* [var]: an unnamed phi of one named pointer (cookies) */
	char *eqvar;		/* [var]: tested against a constant (HC_EQK), or a phi feeding one */
	char *unset;		/* [var]: 1 + the unset-field rule it is loaded from; NULL none */
	const char *load[MAX_LOADS];	/* fields tested ("load"), each a variable past f's */
	int nload;
	int *loadtie;		/* [var]: the field's variable it was loaded as; 0 none */
	char *negop;		/* [var]: 1 negated only, 2 tested (values.c, neg_load()) */
	struct vfloor {
		int var;	/* loaded from a field with a "bound ... min=" rule */
		long long min;
	} floor[MAX_LOADS];
	int nfloor;
	int *rflag;		/* [var]: 1 + the rlock it is the "is it held" flag of; NULL none */
	const char *rlock[MAX_COOKIES];
	int nrlock;
	const char *ret_load;	/* the loaded pointer f returns (values.c) */
	int ret_load_done;	/* ret_load has been looked for */
};


/* values.c: the field a "load" event reads; NULL for any other event */
const char *load_addr(const struct hog_event *e);

/* fieldcond.c: costs behind a test of a parameter's field */
void find_field_tests(struct fs *fs);
void find_pure(struct fs *fs);
const struct econd *eng_way_test(struct fs *fs, int from, int to);
int when_from_field(struct fs *fs, struct hog_cost *c);
int field_when(struct fs *fs, const struct callv *cv, const struct hog_when *w,
	       struct hog_when *out);

/* ctxtest.c: context tests (rules: context-test) */
void ctx_test_call(struct fs *fs, struct tset *set, const struct hog_event *e);
int ctx_test_assign(struct fs *fs, struct tset *set, const struct hog_event *e);
int ctx_test_edge(struct fs *fs, struct tup *t, const struct fact *f, int want_nz);
int ctx_excluded(const struct fs *fs, const struct tup *t, int ctxclear);
void static_key_call(struct fs *fs, struct tset *set, const struct hog_event *e);
void static_key_fact(struct tup *t, int var, int key);
void static_key_edge(struct fs *fs, struct tup *t, const struct fact *f, int want_nz);
char *unset_vars(const struct hog_rules *r, const struct hog_func *f);
void unset_field_edge(struct fs *fs, struct tup *t, int var, int want_nz);
void find_loads(struct fs *fs);
int load_assign(struct fs *fs, struct tset *set, const struct hog_event *e);
void load_edge(struct fs *fs, struct tup *t, int var);
int var_floor(const struct fs *fs, int var, long long *min);
void load_forget_signs(struct fs *fs, struct tset *set);
int floor_kind(long long min);

/* state.c: the lattice */
void state_limits(unsigned *limits);
const struct fact *fact_get(const struct tup *t, int var);
void fact_set(struct tup *t, int var, int kind, int irq);
void fact_set_mask(struct tup *t, int var, int param, long long mask);
void fact_set_or(struct tup *t, int var, int param, long long mask);
void fact_copy(struct tup *t, int var, const struct fact *f);
void fact_set_cst(struct tup *t, int var, long long cst);
int fact_cst_range(struct tup *t, int var, long long lo, long long hi, int inside);
int held_is(const struct held *h, const char *e);
int rel_has(const struct tup *t, const char *e);
void tset_free(struct tset *s);
void tset_copy(struct tset *d, const struct tset *s);
void tset_add(struct tset *s, const struct tup *t);
void tset_compact(struct tset *s, int collapse);
int tset_eq(const struct tset *a, const struct tset *b);

/* values.c: what SSA values denote */
const char *var_name(const struct hog_func *f, int v);
const char *val_addr(struct fs *fs, const struct hog_val *v);
const struct hog_val *phi_same_addr(const struct hog_func *f, int var);
int val_fact(struct fs *fs, const struct tup *t, const struct hog_val *v, int *irq);
void call_prepare(struct fs *fs, const struct hog_event *e, struct callv *cv);
int irq_from_flags(const struct tup *t, const struct callv *cv, int arg);
int eng_when_sign(struct fs *fs, const struct tset *set, const struct callv *cv,
		  const struct hog_when *w);
void find_pmaps(struct fs *fs);
void find_cookies(struct fs *fs);
void drop_held(struct tup *t, int j);
/* resultflag.c */
void find_result_flags(struct fs *fs);
void drop_result_flag(struct fs *fs, struct tup *t, int var);
void find_named_phis(struct fs *fs);
const char *phi_alt_held(struct fs *fs, const struct tup *t, const char *expr);
void drop_cookie_locks(struct fs *fs, struct tup *t, int var);
void drop_cookie_locks_not(struct fs *fs, struct tup *t, int var);

/* refs.c: references taken and given back on a path (rules: ref-get) */
void ref_get_split(struct fs *fs, struct tset *set, const struct callv *cv);
int ref_put_arg(struct fs *fs, const struct callv *cv);
int ref_owned(struct fs *fs, const struct tup *t, const struct callv *cv, int arg);
void ref_put_done(struct fs *fs, struct tset *set, const struct callv *cv);
void ref_forget_var(struct tup *t, int var);
void last_put_call(struct fs *fs, struct tset *set, const struct hog_event *e);
int own_eq(const struct tup *a, const struct tup *b);
void own_meet(struct tup *a, const struct tup *b);

/* cost.c: what a loop needs of the parameters to go round */
void eng_loop_when(struct fs *fs, const struct hog_loop *l, struct hog_cost *c);

/* locks.c: the transfer of calls, stores and assignments */
const struct hog_rule *rule_of(struct fs *fs, const char *name, enum hog_rule_kind k);
int has_any_rule(struct fs *fs, const char *name);
const struct hog_summary *summary_of(struct fs *fs, const char *callee);
int loose_name(const char *e);
/* An entry lock given up somewhere (a break if it is taken back). */
void add_everrel(struct fs *fs, const char *e);
void note_release(struct fs *fs, const char *expr, const char *cls);
void apply_call(struct fs *fs, struct tset *set, const struct callv *cv);
void apply_store(struct fs *fs, struct tset *set, const struct hog_event *e);
void apply_assign(struct fs *fs, struct tset *set, const struct hog_event *e);
/* An annotation's lock, held from here on (entry, or a lockdep_assert_held()). */
void hold_assumed(struct fs *fs, struct tup *t, const char *expr, const char *type, int line);
void apply_held(struct fs *fs, struct tset *set, const struct hog_event *e);
void release_lock(struct fs *fs, struct tup *t, const char *expr);
void seed_entry(struct fs *fs, struct tup *t);

/* cost.c: costs recorded, findings emitted, callees' costs carried */
void call_costs(struct fs *fs, const struct tset *set, const struct callv *cv);
void atomic_event(struct fs *fs, const struct tset *set, const char *a,
		  const char *via, int line, int col);

/* Appends e to v[0..*n) unless there, while *n < max (interned: by pointer). */
void add_unique(const char **v, int *n, int max, const char *e);

/* summary.c */
void finish_summary(struct fs *fs);

#endif
