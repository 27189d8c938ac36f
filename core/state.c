// SPDX-License-Identifier: GPL-2.0
/*
 * The lattice: tuples of lock state and the sets of them the engine
 * keeps at each block (engine.h says why sets).
 */
#include <stdlib.h>
#include <string.h>
#include "engine.h"

/*
 * fact_set() sees only a tuple; the function being analysed is one at a
 * time (the plugin and the command are single-threaded), so its limits
 * are reached through here.
 */
static unsigned *cur_limits;

void state_limits(unsigned *limits)
{
	cur_limits = limits;
}

static int fact_find(const struct tup *t, int var)
{
	int i;

	for (i = 0; i < t->nfact; i++)
		if (t->fact[i].var == var)
			return i;
	return -1;
}

const struct fact *fact_get(const struct tup *t, int var)
{
	int i = var < 0 ? -1 : fact_find(t, var);

	return i < 0 ? NULL : &t->fact[i];
}

void fact_set(struct tup *t, int var, int kind, int irq)
{
	int i, j;

	if (var < 0)
		return;
	i = fact_find(t, var);
	if (kind == FK_NONE) {
		if (i >= 0) {
			memmove(&t->fact[i], &t->fact[i + 1],
				(t->nfact - i - 1) * sizeof(t->fact[0]));
			t->nfact--;
		}
		return;
	}
	if (i < 0) {
		if (t->nfact == MAX_FACTS) {
			if (cur_limits)
				*cur_limits |= HOG_LIMIT_FACTS;
			/* forget the oldest variable, lowest number */
			memmove(&t->fact[0], &t->fact[1], (MAX_FACTS - 1) * sizeof(t->fact[0]));
			t->nfact--;
		}
		/* keep sorted by var so that equal states compare equal */
		for (j = 0; j < t->nfact && t->fact[j].var < var; j++)
			;
		memmove(&t->fact[j + 1], &t->fact[j], (t->nfact - j) * sizeof(t->fact[0]));
		t->nfact++;
		i = j;
	}
	t->fact[i].var = var;
	t->fact[i].kind = kind;
	t->fact[i].irq = irq;
	t->fact[i].mask = 0;
	t->fact[i].ncst = 0;
}

/* var is the constant cst (its kind follows: zero or not) */
void fact_set_cst(struct tup *t, int var, long long cst)
{
	const struct fact *f = fact_get(t, var);
	int i;

	if (!f || (cst ? f->kind == FK_ZERO : f->kind != FK_ZERO))
		fact_set(t, var, cst ? FK_NONZERO : FK_ZERO, 0);
	i = fact_find(t, var);
	if (i < 0)
		return;
	t->fact[i].ncst = 1;
	t->fact[i].cst[0] = cst;
}

/* 1 if f allows the value cst (nothing known allows all) */
static int fact_may_be(const struct fact *f, long long cst)
{
	int i;

	if (!f || !f->ncst)
		return 1;
	for (i = 0; i < f->ncst; i++)
		if (f->cst[i] == cst)
			return 1;
	return 0;
}

/*
 * On a way where var is (inside) or is not (!inside) within [lo, hi]:
 * the constants it may be are narrowed; 0 if none is left, the way
 * cannot be taken.  Unknown, a range of a few values becomes known.
 */
int fact_cst_range(struct tup *t, int var, long long lo, long long hi, int inside)
{
	int i = fact_find(t, var), j, n = 0;
	struct fact *f;

	if (i < 0 || !t->fact[i].ncst) {
		/* a set never mixes zero with others: the fact's kind says which */
		if (!inside || lo > hi || hi - lo >= MAX_CSTS || (lo <= 0 && hi >= 0 && lo < hi))
			return 1;
		fact_set_cst(t, var, lo);
		i = fact_find(t, var);
		for (j = 1; i >= 0 && j <= hi - lo; j++)
			t->fact[i].cst[t->fact[i].ncst++] = lo + j;
		return 1;
	}
	f = &t->fact[i];
	for (j = 0; j < f->ncst; j++)
		if ((f->cst[j] >= lo && f->cst[j] <= hi) == !!inside)
			f->cst[n++] = f->cst[j];
	f->ncst = n;
	return n > 0;
}

static int cst_eq(const struct fact *a, const struct fact *b)
{
	int i;

	if (a->ncst != b->ncst)
		return 0;
	for (i = 0; i < a->ncst; i++)
		if (!fact_may_be(b, a->cst[i]))
			return 0;
	return 1;
}

/* g may also be what f may be: the union, or unknown past MAX_CSTS */
static void cst_union(struct fact *g, const struct fact *f)
{
	int i;

	if (!f->ncst || !g->ncst) {
		g->ncst = 0;
		return;
	}
	for (i = 0; i < f->ncst; i++) {
		if (fact_may_be(g, f->cst[i]))
			continue;
		if (g->ncst == MAX_CSTS) {
			g->ncst = 0;
			return;
		}
		g->cst[g->ncst++] = f->cst[i];
	}
}

/* var gets what f says of another variable, its mask too (NULL: nothing) */
void fact_copy(struct tup *t, int var, const struct fact *f)
{
	int i;

	fact_set(t, var, f ? f->kind : FK_NONE, f ? f->irq : 0);
	i = f ? fact_find(t, var) : -1;
	if (i >= 0) {
		t->fact[i].mask = f->mask;
		t->fact[i].soft = f->soft;
		t->fact[i].ncst = f->ncst;
		memcpy(t->fact[i].cst, f->cst, sizeof(f->cst));
	}
}

void fact_set_mask(struct tup *t, int var, int param, long long mask)
{
	struct fact f = { .var = var, .kind = FK_PMASK, .irq = param, .mask = mask };

	fact_copy(t, var, &f);
}

void fact_set_or(struct tup *t, int var, int param, long long mask)
{
	struct fact f = { .var = var, .kind = FK_POR, .irq = param, .mask = mask };

	fact_copy(t, var, &f);
}

static int held_eq(const struct held *a, const struct held *b)
{
	return a->expr == b->expr && a->cls == b->cls && a->kind == b->kind &&
	       a->alias == b->alias && a->irqprev == b->irqprev &&
	       a->maybe_released == b->maybe_released && a->entry == b->entry && a->bh == b->bh &&
	       a->guard == b->guard && a->guard_at == b->guard_at;
}

/* Does the held lock go by this name? */
int held_is(const struct held *h, const char *e)
{
	return e && (h->expr == e || h->alias == e);
}

/* Equal but for facts on variables (and the last lock pointer stored). */
static int same_locks(const struct tup *a, const struct tup *b)
{
	int i;

	if (a->nheld != b->nheld || a->irq != b->irq || a->irq_lock != b->irq_lock ||
	    a->preempt != b->preempt ||
	    a->pf != b->pf || a->nrel != b->nrel || a->pc_param != b->pc_param ||
	    a->pc_op != b->pc_op || a->pc_mask != b->pc_mask || a->pc_soft != b->pc_soft ||
	    a->batched != b->batched || a->offkey != b->offkey || !a->cold != !b->cold ||
	    !a->lastput != !b->lastput ||
	    a->ctxclear != b->ctxclear || !own_eq(a, b))
		return 0;
	for (i = 0; i < a->nheld; i++)
		if (!held_eq(&a->held[i], &b->held[i]))
			return 0;
	for (i = 0; i < a->nrel; i++)
		if (a->rel[i] != b->rel[i])
			return 0;
	return 1;
}

static int tup_eq(const struct tup *a, const struct tup *b)
{
	int i;

	if (!same_locks(a, b) || a->nfact != b->nfact || a->store_from != b->store_from ||
	    a->store_to != b->store_to)
		return 0;
	for (i = 0; i < a->nfact; i++)
		if (a->fact[i].var != b->fact[i].var || a->fact[i].kind != b->fact[i].kind ||
		    a->fact[i].irq != b->fact[i].irq || a->fact[i].mask != b->fact[i].mask ||
		    a->fact[i].soft != b->fact[i].soft || !cst_eq(&a->fact[i], &b->fact[i]))
			return 0;
	return 1;
}

/* The parameter's value but for the bits in the mask returned, or -1. */
static long long param_but(const struct fact *f)
{
	if (f->kind == FK_PARAM)
		return 0;
	return f->kind == FK_POR || f->kind == FK_PKEEP ? f->mask : -1;
}

static void facts_meet(struct tup *a, const struct tup *b)
{
	int i, n = 0;

	for (i = 0; i < a->nfact; i++) {
		const struct fact *f = fact_get(b, a->fact[i].var);
		struct fact *g = &a->fact[i];

		if (f && f->kind == g->kind && f->irq == g->irq && f->mask == g->mask) {
			cst_union(g, f);
			g->soft |= f->soft;
			a->fact[n++] = *g;
		} else if (f && f->irq == g->irq && param_but(f) >= 0 && param_but(g) >= 0) {
			/* a retry with flags |= X met the first try: the other bits still are */
			g->mask = param_but(f) | param_but(g);
			g->kind = FK_PKEEP;
			a->fact[n++] = *g;
		}
	}
	a->nfact = n;
}

int rel_has(const struct tup *t, const char *e)
{
	int i;

	for (i = 0; i < t->nrel; i++)
		if (t->rel[i] == e)
			return 1;
	return 0;
}

/* Everything two tuples agree on. */
static void tup_meet(struct tup *a, const struct tup *b)
{
	int i, j, n = 0;

	for (i = 0; i < a->nheld; i++)
		for (j = 0; j < b->nheld; j++)
			if (held_eq(&a->held[i], &b->held[j])) {
				a->held[n++] = a->held[i];
				break;
			}
	a->nheld = n;
	if (a->irq != b->irq || a->irq_lock != b->irq_lock) {
		a->irq = HOG_IRQ_CALLER;
		a->irq_lock = NULL;
	}
	if (b->preempt < a->preempt)
		a->preempt = b->preempt;
	/* faults count as disabled only where every path disabled them */
	if (b->pf < a->pf)
		a->pf = b->pf;
	/* an entry lock counts as given up if any path gave it up */
	for (i = 0; i < b->nrel && a->nrel < MAX_REL; i++)
		if (!rel_has(a, b->rel[i]))
			a->rel[a->nrel++] = b->rel[i];
	facts_meet(a, b);
	own_meet(a, b);
	if (a->store_from != b->store_from || a->store_to != b->store_to)
		a->store_from = a->store_to = NULL;
	if (a->pc_param != b->pc_param || a->pc_op != b->pc_op || a->pc_mask != b->pc_mask)
		a->pc_param = -1;
	a->pc_soft |= b->pc_soft;
	if (!b->batched)
		a->batched = 0;
	/* an error path only where every path is one */
	if (!b->cold)
		a->cold = NULL;
	if (!b->lastput)
		a->lastput = NULL;
	if (a->offkey != b->offkey)
		a->offkey = 0;
	/* a context is ruled out where every path ruled it out */
	a->ctxclear &= b->ctxclear;
}

void tset_free(struct tset *s)
{
	free(s->t);
	s->t = NULL;
	s->n = 0;
}

void tset_copy(struct tset *d, const struct tset *s)
{
	d->n = s->n;
	d->t = s->n ? hog_xmalloc(sizeof(struct tup) * s->n) : NULL;
	if (s->n)
		memcpy(d->t, s->t, sizeof(struct tup) * s->n);
}

void tset_add(struct tset *s, const struct tup *t)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (tup_eq(&s->t[i], t))
			return;
	s->t = hog_xrealloc(s->t, sizeof(struct tup) * (s->n + 1));
	s->t[s->n] = *t;
	if (t->irq != HOG_IRQ_ASLOCK)
		s->t[s->n].irq_lock = NULL;
	s->n++;
}

void tset_compact(struct tset *s, int collapse)
{
	int i, j;

	if (s->n <= 1)
		return;
	if (collapse) {
		for (i = 1; i < s->n; i++)
			tup_meet(&s->t[0], &s->t[i]);
		s->n = 1;
		return;
	}
	if (s->n <= MAX_TUPLES)
		return;
	/* first merge paths that only differ in facts */
	for (i = 0; i < s->n; i++)
		for (j = i + 1; j < s->n; j++)
			if (same_locks(&s->t[i], &s->t[j])) {
				facts_meet(&s->t[i], &s->t[j]);
				s->t[j] = s->t[--s->n];
				j--;
			}
	if (s->n > MAX_TUPLES) {
		for (i = 1; i < s->n; i++)
			tup_meet(&s->t[0], &s->t[i]);
		s->n = 1;
	}
}

int tset_eq(const struct tset *a, const struct tset *b)
{
	int i, j;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		for (j = 0; j < b->n; j++)
			if (tup_eq(&a->t[i], &b->t[j]))
				break;
		if (j == b->n)
			return 0;
	}
	return 1;
}

