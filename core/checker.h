/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checkers: one per finding kind, beside the engine, in the manner of
 * smatch's check_*.c.  The engine walks each function's CFG to a fixed
 * point of lock state, then makes one recording pass over it; during
 * that pass it calls the checkers' hooks, and a checker that sees a
 * cost makes one (eng_cost_new) and records it (eng_cost_at).  The
 * engine does the rest for every kind alike: which lock a finding
 * names, carrying the cost to callers through the summary, grouping,
 * ranking, fingerprints and output.
 *
 * A new kind is a new check_NAME.c defining a struct hog_checker, and
 * one line in the table in checkers.c (or hog_checker_register() at
 * run time, as tests/unit/test_checker.c does).
 */
#ifndef HOG_CHECKER_H
#define HOG_CHECKER_H

#include "analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fs;	/* one function under analysis */
struct tset;	/* the lock states at a program point */

/* A call as the engine sees it: the IR event and its arguments' addresses. */
struct callv {
	const struct hog_event *ev;
	const char *addr[16];	/* argument addresses in our terms, NULL unknown */
	int nargs;
};

#define HOG_CK_SLEEPS	1	/* the cost sleeps: an error, never blamed on a sleeping lock */
#define HOG_CK_AT_SITE	2	/* named by the function holding it, not by a callee (loops) */

struct hog_checker {
	const char *name;	/* the kind's name: JSON "kind", -Wlockhog-NAME */
	unsigned flags;		/* HOG_CK_* */
	int rank;		/* preference among a function's costs when it keeps some */
	/* before each call, with the states before it */
	void (*call)(struct fs *fs, const struct tset *set, const struct callv *cv);
	/* an atomic RMW on address a (NULL unknown), via callee via (NULL: inline) */
	void (*atomic)(struct fs *fs, const struct tset *set, const char *a,
		       const char *via, int line, int col);
	/* after the recording pass, before the summary is finished */
	void (*done)(struct fs *fs);
	/* "page_counter_uncharge() reached " – the words before the context */
	void (*message)(struct hog_buf *b, const struct hog_finding *f,
			const struct hog_path *p);
};

#define HOG_MAX_KINDS 16

int hog_nkinds(void);
/* The checker of a kind; NULL for an unknown kind. */
const struct hog_checker *hog_checker(enum hog_kind k);
/* Adds a checker after the built-in ones; returns its kind, -1 if full. */
int hog_checker_register(const struct hog_checker *c);
/* HOG_CK_AT_SITE: a loop's finding is named by its function, not a callee. */
int hog_kind_at_site(enum hog_kind k);
int hog_kind_sleeps(enum hog_kind k);
/* A cost class that sleeps (sleep, fault): check_sleep's, not check_call's. */
int hog_cls_sleeps(const char *cls);
/* The kind called name ("call"), -1 if none. */
int hog_kind_by_name(const char *name);

/* ---- what the engine offers checkers ---- */

const struct hog_func *eng_func(struct fs *fs);
const struct hog_rules *eng_rules(struct fs *fs);
const char *eng_intern(struct fs *fs, const char *s);
/*
 * Zeroed memory for the walk of one function, freed with it when the
 * caller gives a scratch arena (hog_flow_ctx.scratch): eng_keep() what
 * the summary or a raw keeps.
 */
void *eng_alloc(struct fs *fs, size_t size);
/* A copy of n bytes where summaries and raws live (eng_alloc()'s die with the analysis). */
void *eng_keep(struct fs *fs, const void *p, size_t n);
/* The arrays of a cost the summary keeps, copied there. */
void eng_keep_cost(struct fs *fs, struct hog_cost *c);
const struct hog_rule *eng_rule(struct fs *fs, const char *name, enum hog_rule_kind k);
const char *eng_arg_addr(const struct callv *cv, int i);
/*
 * Does a condition on a callee's argument hold at this call?  1 yes,
 * 0 no, -1 only our caller can tell: then *out is the condition on our
 * own parameter.  HOG_WHEN_RULED: no, by a rule's contract on what we
 * were handed (rules: not-root), so a note that names the rule.
 */
#define HOG_WHEN_RULED 2
int eng_when(struct fs *fs, const struct callv *cv, const struct hog_when *w,
	     struct hog_when *out);
/* Does it hold for the constant cst?  1 or 0. */
int eng_when_const(long long cst, const struct hog_when *w);
/* For f's variable var, a phi of constants: 1 for some of them, 0 none, -1 not constants. */
int eng_when_phi(const struct hog_func *f, int var, const struct hog_when *w);
/* For (param & keep) | set: 1 or 0, or -1 with out->arg = param if param decides it. */
int eng_when_masked(int param, long long keep, long long set, const struct hog_when *w,
		    struct hog_when *out);

/* A cost at line:col of this function; tail: the callee's cost it extends. */
struct hog_cost *eng_cost_new(struct fs *fs, enum hog_kind kind, const char *cls,
			      const char *reason, const char *callee, int listed,
			      int line, int col, const struct hog_cost *tail);
/* Records c against the states set: findings for the paths that hold a lock, and the summary. */
void eng_cost_at(struct fs *fs, const struct tset *set, struct hog_cost *c);
/*
 * A cost the rules catalogue lists for the callee (a "cost" line), as a
 * finding of kind k here, or for the callers if its condition on the
 * arguments is theirs to decide.
 */
void eng_rule_cost(struct fs *fs, const struct tset *set, const struct callv *cv,
		   enum hog_kind k, const struct hog_rule *cr);
/* A cost only the callers can decide (c->when set): the summary alone. */
void eng_cost_for_callers(struct fs *fs, struct hog_cost *c);
/* A cost calling this function is, whatever its body: hier-atomic walks. */
void eng_set_self(struct fs *fs, struct hog_cost *c);
int eng_has_self(struct fs *fs);
/* An atomic target reached through a parameter or the return value, for callers. */
void eng_atomic_for_callers(struct fs *fs, const char *a);
/* Costly work this function does that is not a finding (loops): not trivial. */
void eng_nontrivial(struct fs *fs);

/* What the recording pass learnt about block b of eng_func(). */
struct eng_block {
	int atomic;		/* an atomic RMW happens here */
	int atomic_hot;		/* ... on a path not behind a per-CPU threshold */
	int irq_on;		/* IRQs are turned on or restored here */
	int irq_enable;		/* ... turned on: enabled, or restored to on */
	int heavy;		/* non-trivial calls */
	const char *heavy_name;	/* the weightiest of them */
	int heavy_line;
	int heavy_weight;
	/* callees' loops reached here under no lock of their own: the first one's function, how many */
	const char *loop_in;
	int nloops_in;
};
void eng_block(struct fs *fs, int b, struct eng_block *out);
/* Locks given up somewhere inside loop l (portable names, or held at its header). */
int eng_loop_breaks(struct fs *fs, const struct hog_loop *l, const char **brk, int max);
/* Is a lock held at loop a's header that none of the states at loop b's holds? */
int eng_loop_holds_more(struct fs *fs, const struct hog_loop *a, const struct hog_loop *b);
/* Records c against the states on entry to loop l, not those coming round. */
void eng_loop_cost(struct fs *fs, const struct hog_loop *l, struct hog_cost *c);

#ifdef __cplusplus
}
#endif
#endif
