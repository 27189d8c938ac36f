// SPDX-License-Identifier: GPL-2.0
/*
 * Long data-dependent loops under a lock: a loop whose trip count the
 * code does not bound (or bounds above the catalogue's max-bound) and
 * whose body makes at least min-calls non-trivial calls (rules/README.md,
 * "loop").  The bound is the frontend's, caps the rules give included
 * ("bound"); a known one above max-bound is said in the finding.  A walk
 * over a container that grows with the machine or the workload (shape
 * HL_SCALES, "scales" in the rules) is long whatever its body does.
 * Parent walks and retry loops are not counted: the first are
 * check_call's hierarchy walks, the second run once in practice.  Of
 * nested qualifying loops only the outermost is reported, unless the
 * inner one is a walk over a growing container under a lock the outer
 * one's header does not hold.
 */
#include <stdlib.h>
#include "checker.h"

#define MAX_LOOP_BREAKS 16
/*
 * A bound is said in the finding only below this: above it, it is the
 * counter type's range (max_loop_iterations gives 2^31 - 1 for an int),
 * not a cap the code implies.
 */
#define LOOP_BOUND_SAID (1LL << 24)

/*
 * "for (i = 0; i < objects; i++)": long only for callers passing more
 * than the catalogue's max-bound (kfree()'s slab_free(..., 1) runs
 * memcg_slab_free_hook()'s loop once).  Inferred: a caller passing a
 * value the analysis cannot read keeps the loop.
 */
static void bound_by_param(struct fs *fs, const struct hog_loop *l, struct hog_cost *c)
{
	long long max = eng_rules(fs)->loop.max_bound;

	if (l->bound_param < 0 || (l->bound >= 0 && l->bound <= max))
		return;
	c->when.arg = l->bound_param;
	c->when.op = '>';
	c->when.val = max;
	/* 1 << (n - k) > max exactly when n > k + floor(log2(max)) */
	c->count_shift = l->bound_shift;
	if (l->bound_shift >= 0)
		for (c->when.val = 0; (2LL << c->when.val) <= max; c->when.val++)
			;
	if (l->bound_shift > 0)
		c->when.val += l->bound_shift;
	c->when.inferred = 1;
}

static int loop_unbounded(struct fs *fs, const struct hog_loop *l)
{
	const struct hog_loop_policy *p = &eng_rules(fs)->loop;

	/* a walk over a growing container that stops after a few is short too */
	if (l->bound >= 0 && l->bound <= p->max_bound)
		return 0;
	if (l->shape == HL_SCALES)
		return 1;
	if (l->shape == HL_PARENT_WALK || l->shape == HL_RETRY)
		return 0;
	if (l->shape == HL_PTRCHASE && !p->listwalk)
		return 0;
	return 1;
}

/* Non-trivial calls in the body; *name, *line: the weightiest (first of equals). */
static int loop_heavy(struct fs *fs, const struct hog_loop *l, const char **name, int *line)
{
	struct eng_block b;
	int i, n = 0, w = -1;

	*name = NULL;
	*line = 0;
	for (i = 0; i < l->nblocks; i++) {
		eng_block(fs, l->blocks[i], &b);
		n += b.heavy;
		if (b.heavy_name && (b.heavy_weight > w ||
				     (b.heavy_weight == w && b.heavy_line < *line))) {
			*name = b.heavy_name;
			*line = b.heavy_line;
			w = b.heavy_weight;
		}
	}
	return n;
}

static int loop_qualifies(struct fs *fs, const struct hog_loop *l)
{
	int min = eng_rules(fs)->loop.min_calls, line;
	const char *n;

	if (!loop_unbounded(fs, l) || min <= 0)
		return 0;
	return l->shape == HL_SCALES || loop_heavy(fs, l, &n, &line) >= min;
}

/*
 * Inside a qualifying loop: the outer one is the finding, unless the
 * inner one is a walk over a container that grows and runs under a
 * lock the outer one's header does not hold (for_each_hstate() {
 * spin_lock(); list_for_each_entry(activelist) ...; spin_unlock(); }):
 * the outer is judged on its entry states, where that lock is not
 * held, so the walk is reported too.  Other inner loops under a lock
 * taken in the outer body (a page table's ptes under its ptl, one
 * range at a time) stay folded into the outer one, as before.
 */
static int inside_qualifying(struct fs *fs, const struct hog_loop *l)
{
	const struct hog_func *f = eng_func(fs);
	int j;

	for (j = 0; j < f->nloops; j++)
		if (&f->loops[j] != l && f->loops[j].nblocks > l->nblocks &&
		    hog_loop_has(&f->loops[j], l->header) && loop_qualifies(fs, &f->loops[j]) &&
		    !(l->shape == HL_SCALES && eng_loop_holds_more(fs, l, &f->loops[j])))
			return 1;
	return 0;
}

/* The callees' loops the body reaches: the first one's function, and how many. */
static int loops_in(struct fs *fs, const struct hog_loop *l, const char **first)
{
	struct eng_block b;
	int i, n = 0;

	*first = NULL;
	for (i = 0; i < l->nblocks; i++) {
		eng_block(fs, l->blocks[i], &b);
		if (b.loop_in && !*first)
			*first = b.loop_in;
		n += b.nloops_in;
	}
	return n;
}

/* ", around the loop in gup_p4d_range() and 4 more" (malloc'ed), or "" */
static char *nest_words(struct fs *fs, const struct hog_loop *l)
{
	const char *first;
	int n = loops_in(fs, l, &first);

	if (!n)
		return hog_xstrdup("");
	if (n == 1)
		return hog_xasprintf(", around the loop in %s()", first);
	return hog_xasprintf(", around the loop in %s() and %d more", first, n - 1);
}

/* What makes the loop long, and the heaviest call it makes (malloc'ed). */
static char *loop_reason(struct fs *fs, const struct hog_loop *l, const char *heavy)
{
	char *what, *r, *nest = nest_words(fs, l);

	if (l->shape == HL_SCALES && l->bound >= 0 && l->bound < LOOP_BOUND_SAID)
		what = hog_xasprintf("walk over a container that grows with the machine or the workload, up to %lld iterations",
				     l->bound);
	else if (l->shape == HL_SCALES)
		what = hog_xasprintf("walk over a container that grows with the machine or the workload");
	else if (l->bound >= 0 && l->bound < LOOP_BOUND_SAID)
		what = hog_xasprintf("loop of up to %lld iterations", l->bound);
	else
		what = hog_xasprintf("loop with a data-dependent trip count");
	if (heavy)
		r = hog_xasprintf("%s calling %s() on every iteration%s", what, heavy, nest);
	else
		r = hog_xasprintf("%s%s", what, nest);
	free(what);
	free(nest);
	return r;
}

static struct hog_cost *loop_cost(struct fs *fs, const struct hog_loop *l)
{
	const char *heavy, *inner, *brk[MAX_LOOP_BREAKS];
	struct hog_cost *c;
	struct eng_block b;
	char *reason;
	int j, line, nbrk;

	loop_heavy(fs, l, &heavy, &line);
	nbrk = eng_loop_breaks(fs, l, brk, MAX_LOOP_BREAKS);
	reason = loop_reason(fs, l, heavy);
	c = eng_cost_new(fs, HK_LOOP, eng_intern(fs, HOG_CLS_LOOP), eng_intern(fs, reason),
			 heavy, 0, l->line, l->col, NULL);
	free(reason);
	bound_by_param(fs, l, c);
	c->scales = l->shape == HL_SCALES;
	/* a nest's count is the product of its loops': not known here */
	if (l->bound > 0 && l->bound < LOOP_BOUND_SAID && !loops_in(fs, l, &inner))
		c->bound = l->bound;
	c->brk = eng_alloc(fs, sizeof(char *) * (nbrk ? nbrk : 1));
	for (j = 0; j < nbrk; j++)
		c->brk[j] = brk[j];
	c->nbreak = nbrk;
	/* IRQs let in once per iteration break an IRQs-off stretch */
	for (j = 0; j < l->nblocks; j++) {
		eng_block(fs, l->blocks[j], &b);
		if (b.irq_on)
			c->irq_on = 1;
	}
	return c;
}

static void loop_done(struct fs *fs)
{
	const struct hog_func *f = eng_func(fs);
	int i;

	for (i = 0; i < f->nloops; i++) {
		const struct hog_loop *l = &f->loops[i];

		if (!loop_qualifies(fs, l))
			continue;
		eng_nontrivial(fs);
		if (!inside_qualifying(fs, l))
			eng_loop_cost(fs, l, loop_cost(fs, l));
	}
}

static void loop_message(struct hog_buf *b, const struct hog_finding *f,
			 const struct hog_path *p)
{
	const char *what = p->bound ? "long loop" : "unbounded loop";

	if (f->callee)
		hog_buf_printf(b, "%s in %s() calling %s() runs ", what, f->site_func, f->callee);
	else
		hog_buf_printf(b, "%s in %s() runs ", what, f->site_func);
}

const struct hog_checker check_loop = {
	.name = "loop",
	.flags = HOG_CK_AT_SITE,
	.done = loop_done,
	.message = loop_message,
};
