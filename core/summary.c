// SPDX-License-Identifier: GPL-2.0
/*
 * The summary of a function, what its callers see of it: the costs
 * they inherit, the locks it leaves held or gives up, the IRQ and
 * preemption state it returns with, and what it returns.  Built from
 * the recording pass's costs and the states at its returns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "expr.h"

#define MAX_ACQ (MAX_HELD * 2)
#define MAX_SUM_REL (MAX_REL * 4)
#define MAX_SUM_BRK 16
#define TRIVIAL_LOOP_BOUND 4	/* a loop of more rounds is work, however cheap each */

/*
 * Which of a function's costs it keeps when it has more than MAX_COSTS,
 * and which way to one site stands for all: not through a function
 * that rarely runs (hog_cost.cold) first, then not only past a last put
 * (hog_cost.lastput), then sleeping (the checker's rank), then those the
 * catalogue names, then with IRQs off, then the shortest chains.  A
 * cost reached both ways is so not cold, and not only a release.
 */
#define COLD_RANK 100000
#define LASTPUT_RANK 50000

static int cost_rank(const struct hog_cost *c)
{
	int cold = (c->cold ? COLD_RANK : 0) + (c->lastput || c->lastput_here ? LASTPUT_RANK : 0);

	return hog_checker(c->kind)->rank + c->listed * 4 + c->irqs_off * 2 - c->nchain - cold;
}

static int same_site(const struct hog_cost *a, const struct hog_cost *b)
{
	const struct hog_step *la = &a->chain[a->nchain - 1];
	const struct hog_step *lb = &b->chain[b->nchain - 1];

	return a->kind == b->kind && a->cls == b->cls && a->callee == b->callee &&
	       la->func == lb->func;
}

/*
 * One cost for the callers: one site, under a condition on one
 * argument.  Two fields that field_conds() left are two costs.
 */
static int same_cost(const struct hog_cost *a, const struct hog_cost *b)
{
	return same_site(a, b) && a->when.arg == b->when.arg && a->when.field == b->when.field;
}

/* The values 0..63 a condition op/val takes in, as a set ("i"), or 0 if it is not one. */
static long long when_set(char op, long long val)
{
	if (op == 'i')
		return val;
	if (op == '=' && val >= 0 && val <= 63)
		return 1LL << val;
	return 0;
}

/* Does w allow only values other than zero ('>' K >= 0, '<' K <= 0, '&' not zero)? */
static int when_nonzero(const struct hog_when *w)
{
	return !w->field && ((w->op == '>' && w->val >= 0) || (w->op == '<' && w->val <= 0) ||
			     (w->op == '&' && w->val == PC_NONZERO));
}

/*
 * Two ways to one site under different tests of one argument ("if
 * (atomic)" and its else, or __vma_reservation_common()'s modes): a
 * caller that rules out one still reaches the other, so the cost kept
 * holds when either does.  Where one condition cannot say "either",
 * it holds whatever the argument.
 */
static void join_when(struct hog_cost *keep, const struct hog_cost *c)
{
	struct hog_when *k = &keep->when;
	const struct hog_when *w = &c->when;
	long long a = when_set(k->op, k->val), b = when_set(w->op, w->val);

	if (k->arg < 0)
		return;
	/* a way that keeps the cost for values it cannot read keeps it */
	if (k->inferred < w->inferred)
		k->inferred = w->inferred;
	if (k->op == w->op && k->val == w->val)
		return;
	if (a && b) {
		k->op = 'i';
		k->val = a | b;
	} else if (k->op != w->op && when_nonzero(k) && when_nonzero(w)) {
		/* delta > 0 on one way, delta < 0 on the other: not zero */
		k->op = '&';
		k->val = PC_NONZERO;
	} else if ((k->op == 'x' && b) || (w->op == 'x' && a)) {
		/* not in X, or in S: not in X but S */
		k->val = (k->op == 'x' ? k->val : w->val) & ~(k->op == 'x' ? b : a);
		k->op = 'x';
	} else if (k->op == w->op && (k->op == '&' || k->op == '~' || k->op == 'x' ||
				      k->op == '<' || k->op == '>') && !k->field) {
		if (k->op == '&')
			k->val |= w->val;
		else if (k->op == '~' || k->op == 'x')
			k->val &= w->val;
		else if ((k->op == '<') == (w->val > k->val))
			k->val = w->val;
	} else {
		k->arg = -1;
	}
	if (k->arg < 0 || ((k->op == '~' || k->op == 'x') && !k->val)) {
		k->arg = -1;
		k->op = 0;
		k->val = 0;
		k->field = NULL;
	}
}

/*
 * A field condition (fieldcond.c) stays only on a cost that no other
 * way reaches under no condition, a parameter's, or the same field's
 * other value: the cost is then the callers' whatever the field, and
 * is one cost, as it was before field conditions, not one more for
 * the summary to keep.  Two different fields (two helpers' results)
 * stay, as two costs.
 */
static void field_conds(struct fs *fs)
{
	int i, j;

	for (i = 0; i < fs->costs.n; i++) {
		struct hog_cost *c = fs->costs.v[i];

		for (j = 0; c->when.field && j < fs->costs.n; j++) {
			const struct hog_cost *d = fs->costs.v[j];

			if (j != i && same_site(c, d) && !(d->when.field && d->when.field != c->when.field) &&
			    (d->when.field != c->when.field || d->when.arg != c->when.arg ||
			     d->when.op != c->when.op)) {
				c->when.arg = -1;
				c->when.op = 0;
				c->when.field = NULL;
			}
		}
	}
}

static int same_when(const struct hog_when *a, const struct hog_when *b)
{
	return a->arg == b->arg && a->op == b->op && a->val == b->val && a->field == b->field;
}

/* One more way for k, unless one with the same test is there: it decides alike. */
static void push_way(struct hog_cost *k, const struct hog_when *w, int nchain,
		     struct hog_step *chain, const char *cold)
{
	struct hog_way *v;
	int i;

	for (i = 0; i < k->nways; i++)
		if (same_when(&k->ways[i].when, w))
			return;
	v = &k->ways[k->nways++];
	v->when = *w;
	v->nchain = nchain;
	v->chain = chain;
	v->cold = cold;
}

/*
 * Before c joins k (same_cost(): a test of the same argument): keep
 * each way's own test and chain, so that a caller is shown a way it
 * takes (region_chg()'s, not region_add()'s, for
 * vma_needs_reservation()).  A k whose joined test says nothing still
 * has its ways, and a c with no test is one more, always open.  Past
 * HOG_MAX_WAYS only the joined test is kept, and it stands for them
 * all as one way if another joins later.
 */
static void add_ways(struct fs *fs, struct hog_cost *k, const struct hog_cost *c)
{
	const struct hog_way *old;
	int i;

	/* no test and no ways: the cost holds whatever the arguments */
	if (k->when.arg < 0 && !k->nways)
		return;
	if (!k->nways && !c->nways && same_when(&k->when, &c->when))
		return;
	if ((k->nways ? k->nways : 1) + (c->nways ? c->nways : 1) > HOG_MAX_WAYS) {
		k->nways = 0;
		k->ways = NULL;
		return;
	}
	/* a fresh array: k's may be a callee's, sized for its own ways */
	old = k->ways;
	k->ways = eng_alloc(fs, sizeof(*k->ways) * HOG_MAX_WAYS);
	if (k->nways)
		memcpy(k->ways, old, sizeof(*k->ways) * k->nways);
	else
		push_way(k, &k->when, k->nchain, k->chain, k->cold);
	if (!c->nways)
		push_way(k, &c->when, c->nchain, c->chain, c->cold);
	for (i = 0; i < c->nways; i++)
		push_way(k, &c->ways[i].when, c->ways[i].nchain, c->ways[i].chain,
			 c->ways[i].cold);
}

static int cost_cmp(const void *x, const void *y)
{
	const struct hog_cost *a = *(const struct hog_cost *const *)x;
	const struct hog_cost *b = *(const struct hog_cost *const *)y;

	return cost_rank(b) - cost_rank(a);
}

/* One cost per (kind, class, callee, site function), best first. */
static void keep_costs(struct fs *fs)
{
	struct hog_summary *s = fs->s;
	struct hog_vec keep = { 0 };
	int i, j;

	field_conds(fs);
	qsort(fs->costs.v, fs->costs.n, sizeof(void *), cost_cmp);
	for (i = 0; i < fs->costs.n; i++) {
		struct hog_cost *c = fs->costs.v[i];

		for (j = 0; j < keep.n; j++)
			if (same_cost(keep.v[j], c))
				break;
		if (j < keep.n) {
			add_ways(fs, keep.v[j], c);
			join_when(keep.v[j], c);
		}
		/* a loop nested on one way and not on another is not folded */
		if (j < keep.n && !c->nest.func)
			((struct hog_cost *)keep.v[j])->nest.func = NULL;
		/* nor is a cost behind a static key that another way reaches without it */
		if (j < keep.n && c->offkey != ((struct hog_cost *)keep.v[j])->offkey)
			((struct hog_cost *)keep.v[j])->offkey = 0;
		if (j == keep.n && keep.n == MAX_COSTS)
			fs->limits |= HOG_LIMIT_COSTS;
		else if (j == keep.n)
			hog_vec_push(&keep, c);
	}
	s->ncost = keep.n;
	s->cost = hog_alloc(fs->c->arena, sizeof(*s->cost) * (keep.n ? keep.n : 1));
	for (i = 0; i < keep.n; i++) {
		s->cost[i] = *(struct hog_cost *)keep.v[i];
		/* a recursive group's rounds settle on its costs, not on their ways */
		if (fs->c->recursive) {
			s->cost[i].nways = 0;
			s->cost[i].ways = NULL;
		}
		eng_keep_cost(fs, &s->cost[i]);
	}
	hog_vec_free(&keep);
}

/* The held lock's name for the caller: through the returned pointer, or a portable one. */
static const char *exit_name(struct fs *fs, const struct exitrec *x, const struct held *h)
{
	const char *e = h->expr;

	if (e && x->retaddr && hog_expr_has_prefix(e, x->retaddr) &&
	    !hog_expr_portable(x->retaddr)) {
		char *t = hog_xasprintf("$R%s", e + strlen(x->retaddr));

		e = hog_intern(fs->c->strs, t);
		free(t);
	}
	if (e && hog_expr_portable(e))
		return e;
	/*
	 * A lock known here only by a local (pte_lockptr()'s result) that
	 * the function stored through a parameter before it returned
	 * (*ptlp = ptl): the caller knows it by what it passed.
	 */
	if (h->alias && hog_expr_portable(h->alias))
		return h->alias;
	return NULL;
}

static void add_acq(struct hog_lockfx *acq, int *nacq, const char *e, const struct held *h)
{
	int k;

	const char *alias = h->alias && hog_expr_portable(h->alias) ? h->alias : NULL;

	for (k = 0; k < *nacq; k++)
		if (acq[k].expr == e && acq[k].cls == h->cls) {
			/* returns that name it through different fields: neither */
			if (acq[k].alias != alias)
				acq[k].alias = NULL;
			/* an irqsave on some return: the caller's restore may undo it */
			acq[k].irqsave |= h->irqprev >= 0;
			return;
		}
	if (*nacq == MAX_ACQ)
		return;
	memset(&acq[*nacq], 0, sizeof(acq[0]));
	acq[*nacq].expr = e;
	acq[*nacq].alias = alias;
	acq[*nacq].cls = h->cls;
	acq[*nacq].kind = h->kind;
	acq[*nacq].sleeping = h->sleeping;
	acq[*nacq].irqsave = h->irqprev >= 0;
	(*nacq)++;
}

/* One more lock whose irqsave a return undoes; 0 if there are too many */
static int add_irq_lock(struct hog_summary *s, const char *lock)
{
	int i;

	for (i = 0; i < s->nirq_lock; i++)
		if (s->irq_lock[i] == lock)
			return 1;
	if (!lock || s->nirq_lock == HOG_MAX_IRQ_LOCKS)
		return 0;
	s->irq_lock[s->nirq_lock++] = lock;
	return 1;
}

/* IRQ, preemption and fault state at the returns; locks held and given up there. */
static void exit_states(struct fs *fs, struct hog_lockfx *acq, int *nacq,
			const char **rel, int *nrel)
{
	struct hog_summary *s = fs->s;
	int i, j;

	s->irq_exit = -1;
	s->preempt_delta = 0;
	for (i = 0; i < fs->exits.n; i++) {
		const struct exitrec *x = fs->exits.v[i];

		if (s->irq_exit == -1)
			s->irq_exit = x->t.irq;
		if (s->irq_exit != x->t.irq ||
		    (x->t.irq == HOG_IRQ_ASLOCK && !add_irq_lock(s, x->t.irq_lock)))
			s->irq_exit = HOG_IRQ_CALLER;
		if (i == 0 || x->t.preempt < s->preempt_delta)
			s->preempt_delta = x->t.preempt;
		if (i == 0 || x->t.pf < s->pf_delta)
			s->pf_delta = x->t.pf;
		for (j = 0; j < x->t.nrel; j++)
			add_unique(rel, nrel, MAX_SUM_REL, x->t.rel[j]);
		for (j = 0; j < x->t.nheld; j++)
			if (!x->t.held[j].entry)
				add_acq(acq, nacq, exit_name(fs, x, &x->t.held[j]), &x->t.held[j]);
	}
	if (s->irq_exit < 0)
		s->irq_exit = HOG_IRQ_CALLER;
	if (s->irq_exit != HOG_IRQ_ASLOCK)
		s->nirq_lock = 0;
}

/*
 * A lock counts as taken for the caller only if every return holds
 * it (cond 0), or, for a trylock wrapper, exactly the returns of
 * non-zero (cond 1), or, for a wrapper that returns 0 when it took the
 * lock and an error when it did not (a per-CPU busy counter before a
 * raw spinlock), exactly the returns of zero (cond 2).  "Held on some path" would leak a lock into every
 * caller whenever the paths are correlated through memory we do not
 * follow.  Returns 0 for a lock that is neither.
 */
static int acq_taken(struct fs *fs, struct hog_lockfx *a)
{
	int held_nz = 0, held_z = 0, free_nz = 0, free_z = 0, held_other = 0, free_other = 0;
	int i, j;

	a->irqoff = 1;
	for (i = 0; i < fs->exits.n; i++) {
		const struct exitrec *x = fs->exits.v[i];
		int held = 0;

		for (j = 0; j < x->t.nheld; j++)
			if (x->t.held[j].cls == a->cls)
				held = 1;
		if (held && x->t.irq != HOG_IRQ_OFF)
			a->irqoff = 0;
		if (x->retkind == FK_NONZERO)
			held ? held_nz++ : free_nz++;
		else if (x->retkind == FK_ZERO)
			held ? held_z++ : free_z++;
		else
			held ? held_other++ : free_other++;
	}
	a->cond = 0;
	if (!free_nz && !free_z && !free_other)
		return 1;
	if (held_other || free_other)
		return 0;
	a->cond = 1;
	if (held_nz && free_z && !held_z && !free_nz)
		return 1;
	a->cond = 2;
	return held_z && free_nz && !held_nz && !free_z;
}

/*
 * What the annotations say the function does to its caller's locks,
 * where the walk did not see it (the lock taken or given up in a callee
 * of another unit, or through a pointer): __acquires(l) returns with l
 * held, __cond_acquires(l) exactly on the non-zero returns, __releases(l)
 * gives up an entry lock.  What the walk inferred stays as it is.
 */
static void annot_effects(struct fs *fs, struct hog_lockfx *acq, int *nacq,
			  const char **rel, int *nrel)
{
	int i, k;

	for (i = 0; i < fs->f->nannots; i++) {
		const struct hog_annot *a = &fs->f->annots[i];
		struct hog_val v = { .kind = HV_ADDR, .addr = a->expr };
		const char *e = val_addr(fs, &v);
		const char *kind = hog_rules_lock_kind(fs->c->rules, a->type);

		if (!e || !kind || !hog_expr_portable(e))
			continue;
		if (a->kind == HA_RELEASES) {
			add_unique(rel, nrel, MAX_SUM_REL, e);
			continue;
		}
		if (a->kind != HA_ACQUIRES && a->kind != HA_COND_ACQUIRES)
			continue;
		for (k = 0; k < *nacq; k++)
			if (acq[k].expr == e)
				break;
		if (k < *nacq || *nacq == MAX_ACQ)
			continue;
		memset(&acq[k], 0, sizeof(acq[k]));
		acq[k].expr = e;
		acq[k].cls = hog_expr_class(fs->c->strs, e);
		acq[k].kind = hog_intern(fs->c->strs, kind);
		acq[k].sleeping = hog_lock_kind_sleeps(kind);
		acq[k].cond = a->kind == HA_COND_ACQUIRES;
		(*nacq)++;
	}
}

static void lock_effects(struct fs *fs)
{
	struct hog_summary *s = fs->s;
	struct hog_lockfx acq[MAX_ACQ];
	const char *rel[MAX_SUM_REL], *brk[MAX_SUM_BRK];
	int i, j, nacq = 0, nrel = 0, kept = 0, nb = 0;

	exit_states(fs, acq, &nacq, rel, &nrel);
	for (i = 0; i < nacq; i++)
		if (acq_taken(fs, &acq[i]))
			acq[kept++] = acq[i];
	annot_effects(fs, acq, &kept, rel, &nrel);
	s->nacq = kept;
	s->acq = hog_alloc(fs->c->arena, sizeof(*s->acq) * (kept ? kept : 1));
	memcpy(s->acq, acq, sizeof(*acq) * kept);
	s->nrel = nrel;
	s->rel = hog_alloc(fs->c->arena, sizeof(char *) * (nrel ? nrel : 1));
	memcpy(s->rel, rel, sizeof(char *) * nrel);
	/* entry locks given up and taken back: a lock break */
	for (i = 0; i < fs->everrel.n && nb < MAX_SUM_BRK; i++) {
		for (j = 0; j < nrel; j++)
			if (rel[j] == fs->everrel.v[i])
				break;
		if (j == nrel)
			brk[nb++] = fs->everrel.v[i];
	}
	s->nbrk = nb;
	s->brk = hog_alloc(fs->c->arena, sizeof(char *) * (nb ? nb : 1));
	memcpy(s->brk, brk, sizeof(char *) * nb);
}

/* Every return a test of the same bits of one parameter: ret_mparam, ret_mask */
static void ret_mask(struct fs *fs)
{
	struct hog_summary *s = fs->s;
	int i;

	s->ret_mask = 0;
	for (i = 0; i < fs->exits.n; i++) {
		const struct exitrec *x = fs->exits.v[i];

		if (x->retkind != FK_PMASK || (i && (x->retparam != s->ret_mparam ||
						    x->retmask != s->ret_mask))) {
			s->ret_mask = 0;
			return;
		}
		s->ret_mparam = x->retparam;
		s->ret_mask = x->retmask;
	}
}

/* Every return the same static key's state: do_memsw_account() (statickey.c). */
static void ret_key(struct fs *fs)
{
	struct hog_summary *s = fs->s;
	int i, key = -1;

	for (i = 0; i < fs->exits.n; i++) {
		const struct exitrec *x = fs->exits.v[i];

		if (x->retkind != FK_KEY || (key >= 0 && x->retkey != key))
			return;
		key = x->retkey;
	}
	s->ret_key = key + 1;
}

/* The returned address when every non-NULL return agrees; "return false;" stubs. */
static void return_value(struct fs *fs)
{
	struct hog_summary *s = fs->s;
	const char *ra = NULL;
	int i, agree = fs->exits.n > 0, z = 0, nz = 0, other = 0;

	for (i = 0; i < fs->exits.n; i++) {
		const struct exitrec *x = fs->exits.v[i];

		if (x->retkind == FK_ZERO)
			z++;
		else if (x->retkind == FK_NONZERO && !x->retaddr)
			nz++;
		else
			other++;
		if (x->retkind == FK_ZERO || !agree)
			continue;
		if (!x->retaddr || !hog_expr_portable(x->retaddr) || (ra && ra != x->retaddr))
			agree = 0;
		else
			ra = x->retaddr;
	}
	if (agree && ra)
		s->ret_addr = ra;
	ret_mask(fs);
	ret_key(fs);
	/* __seqprop_preemptible() and the like decide branches */
	if (z && !nz && !other)
		s->ret_zero = 1;
	else if (nz && !z && !other)
		s->ret_zero = 2;
}

void finish_summary(struct fs *fs)
{
	struct hog_summary *s = fs->s;
	int i;

	keep_costs(fs);
	lock_effects(fs);
	return_value(fs);
	s->natomic = fs->atomics.n;
	s->atomic = hog_alloc(fs->c->arena, sizeof(char *) * (s->natomic ? s->natomic : 1));
	memcpy(s->atomic, fs->atomics.v, sizeof(char *) * s->natomic);
	/*
	 * Trivial: straight-line work on a few fields.  A loop of more than
	 * a handful of rounds is not, however cheap each round looks
	 * (__free_one_page() merging buddies up to MAX_ORDER).
	 */
	for (i = 0; i < fs->f->nblocks; i++)
		s->irq_break |= fs->bi[i].f.irq_enable;
	s->trivial = !fs->nontrivial && !fs->icalls;
	for (i = 0; i < fs->f->nloops && s->trivial; i++)
		if (fs->f->loops[i].bound < 0 || fs->f->loops[i].bound > TRIVIAL_LOOP_BOUND)
			s->trivial = 0;
}
