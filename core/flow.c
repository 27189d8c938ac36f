// SPDX-License-Identifier: GPL-2.0
/*
 * Lock state over one function's CFG.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flow.h"
#include "expr.h"

#define MAX_HELD 8
#define MAX_FACTS 24
#define MAX_REL 8
#define MAX_TUPLES 8
#define MAX_COSTS 64
#define MAX_PASSES 60
#define WIDEN_PASS 12

enum { FK_NONE, FK_ZERO, FK_NONZERO, FK_FLAGS, FK_PMASK, FK_PARAM };

struct held {
	const char *expr;	/* normalised, NULL if unknown */
	const char *alias;	/* the same lock read through a field it was stored in */
	int irqprev;		/* IRQ state before an irqsave taking it, -1 if none */
	const char *cls;
	const char *kind;
	int sleeping;
	int line;
};

struct fact {
	int var;
	int kind;
	int irq;		/* FK_FLAGS: the IRQ state saved; FK_PMASK: the parameter */
	long long mask;		/* FK_PMASK: var = parameter & mask */
};

struct tup {
	int nheld;
	struct held held[MAX_HELD];
	int irq;
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
	char pc_op;		/* '&': bits set, '~': bits clear */
	long long pc_mask;
	int batched;		/* past a per-CPU threshold test on this path */
	/* per-path record of the value returned, for trylock summaries */
};

struct tset {
	int n;
	struct tup *t;
};

/* What the final pass learns about each block. */
struct binfo {
	int atomic;		/* an atomic RMW happens here */
	int atomic_hot;		/* ... on a path not behind a per-CPU threshold */
	int irq_on;		/* IRQs are turned on or restored here */
	int heavy;		/* non-trivial calls */
	const char *heavy_name;	/* the weightiest of them */
	int heavy_line;
	int heavy_weight;
	struct hog_vec released;	/* lock exprs/classes given up here (interned) */
};

struct exitrec {
	struct tup t;
	int retkind;		/* FK_* of the returned value */
	const char *retaddr;
};

#define MAX_COOKIES 8

/* A variable computed from a parameter's bits: (param & and) | or. */
struct pmap {
	int var, param;
	long long and, or;
};

#define MAX_PMAP 32

struct fs {
	struct pmap pmap[MAX_PMAP];
	int npmap;
	struct hog_flow_ctx *c;
	struct {
		const char *name, *cls;
	} cookie[MAX_COOKIES];
	int ncookie;
	const struct hog_func *f;
	struct hog_summary *s;
	struct tset *in;
	const char **bind;	/* var -> address */
	struct binfo *bi;
	int recording;
	int collapse;
	int cur_block;
	struct hog_vec exits;	/* struct exitrec * */
	struct hog_vec costs;	/* struct hog_cost * (summary, before dedupe) */
	struct hog_vec everrel;	/* entry locks given up anywhere */
	struct hog_vec atomics;	/* portable atomic targets */
	int nontrivial;
	int icalls;
	unsigned limits;	/* HOG_LIMIT_* hit while analysing f */
};

/*
 * fact_set() sees only a tuple; the function being analysed is one at a
 * time (the plugin and the command are single-threaded), so its limits
 * are reached through here.
 */
static unsigned *cur_limits;

static const char *var_name(const struct hog_func *f, int v);
struct fs;
static const struct pmap *pmap_get(struct fs *fs, int var);

/* ---------- tuples ---------- */

static int fact_find(const struct tup *t, int var)
{
	int i;

	for (i = 0; i < t->nfact; i++)
		if (t->fact[i].var == var)
			return i;
	return -1;
}

static const struct fact *fact_get(const struct tup *t, int var)
{
	int i = var < 0 ? -1 : fact_find(t, var);

	return i < 0 ? NULL : &t->fact[i];
}

static void fact_set(struct tup *t, int var, int kind, int irq)
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
}

static void fact_set_mask(struct tup *t, int var, int param, long long mask)
{
	int i;

	fact_set(t, var, FK_PMASK, param);
	i = fact_find(t, var);
	if (i >= 0)
		t->fact[i].mask = mask;
}

static int held_eq(const struct held *a, const struct held *b)
{
	return a->expr == b->expr && a->cls == b->cls && a->kind == b->kind &&
	       a->alias == b->alias && a->irqprev == b->irqprev;
}

/* Does the held lock go by this name? */
static int held_is(const struct held *h, const char *e)
{
	return e && (h->expr == e || h->alias == e);
}

static int tup_eq(const struct tup *a, const struct tup *b)
{
	int i;

	if (a->nheld != b->nheld || a->irq != b->irq || a->preempt != b->preempt ||
	    a->pf != b->pf ||
	    a->nrel != b->nrel || a->nfact != b->nfact || a->store_from != b->store_from ||
	    a->store_to != b->store_to || a->pc_param != b->pc_param || a->pc_op != b->pc_op ||
	    a->pc_mask != b->pc_mask || a->batched != b->batched)
		return 0;
	for (i = 0; i < a->nheld; i++)
		if (!held_eq(&a->held[i], &b->held[i]))
			return 0;
	for (i = 0; i < a->nrel; i++)
		if (a->rel[i] != b->rel[i])
			return 0;
	for (i = 0; i < a->nfact; i++)
		if (a->fact[i].var != b->fact[i].var || a->fact[i].kind != b->fact[i].kind ||
		    a->fact[i].irq != b->fact[i].irq || a->fact[i].mask != b->fact[i].mask)
			return 0;
	return 1;
}

static int same_locks(const struct tup *a, const struct tup *b)
{
	int i;

	if (a->nheld != b->nheld || a->irq != b->irq || a->preempt != b->preempt ||
	    a->pf != b->pf || a->nrel != b->nrel || a->pc_param != b->pc_param ||
	    a->pc_op != b->pc_op || a->pc_mask != b->pc_mask || a->batched != b->batched)
		return 0;
	for (i = 0; i < a->nheld; i++)
		if (!held_eq(&a->held[i], &b->held[i]))
			return 0;
	for (i = 0; i < a->nrel; i++)
		if (a->rel[i] != b->rel[i])
			return 0;
	return 1;
}

static void facts_meet(struct tup *a, const struct tup *b)
{
	int i, n = 0;

	for (i = 0; i < a->nfact; i++) {
		const struct fact *f = fact_get(b, a->fact[i].var);

		if (f && f->kind == a->fact[i].kind && f->irq == a->fact[i].irq &&
		    f->mask == a->fact[i].mask)
			a->fact[n++] = a->fact[i];
	}
	a->nfact = n;
}

static int rel_has(const struct tup *t, const char *e)
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
	if (a->irq != b->irq)
		a->irq = HOG_IRQ_CALLER;
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
	if (a->store_from != b->store_from || a->store_to != b->store_to)
		a->store_from = a->store_to = NULL;
	if (a->pc_param != b->pc_param || a->pc_op != b->pc_op || a->pc_mask != b->pc_mask)
		a->pc_param = -1;
	if (!b->batched)
		a->batched = 0;
}

static void tset_free(struct tset *s)
{
	free(s->t);
	s->t = NULL;
	s->n = 0;
}

static void tset_copy(struct tset *d, const struct tset *s)
{
	d->n = s->n;
	d->t = s->n ? hog_xmalloc(sizeof(struct tup) * s->n) : NULL;
	if (s->n)
		memcpy(d->t, s->t, sizeof(struct tup) * s->n);
}

static void tset_add(struct tset *s, const struct tup *t)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (tup_eq(&s->t[i], t))
			return;
	s->t = hog_xrealloc(s->t, sizeof(struct tup) * (s->n + 1));
	s->t[s->n++] = *t;
}

static void tset_compact(struct tset *s, int collapse)
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

static int tset_eq(const struct tset *a, const struct tset *b)
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

/* ---------- values ---------- */

static const char *bind_root(struct fs *fs, const char *e)
{
	int v = hog_expr_var(e);

	if (v >= 0 && v < fs->f->nvars && fs->bind[v])
		return hog_expr_rebase_var(fs->c->strs, e, v, fs->bind[v]);
	return e;
}

/* The address a value denotes, normalised; NULL if it is not one. */
static const char *val_addr(struct fs *fs, const struct hog_val *v)
{
	if (v->kind == HV_ADDR)
		return hog_expr_norm(fs->c->strs, fs->c->rules, bind_root(fs, v->addr));
	if (v->kind == HV_VAR && v->var >= 0 && v->var < fs->f->nvars) {
		char b[32];

		if (fs->bind[v->var])
			return fs->bind[v->var];
		/* the variable itself names the object: ptl = huge_pte_lock(...) */
		snprintf(b, sizeof(b), "v%d", v->var);
		return hog_intern(fs->c->strs, b);
	}
	return NULL;
}

static int val_fact(struct fs *fs, const struct tup *t, const struct hog_val *v, int *irq)
{
	const struct fact *f;

	*irq = 0;
	switch (v->kind) {
	case HV_CONST:
		return v->cst ? FK_NONZERO : FK_ZERO;
	case HV_VAR:
		f = fact_get(t, v->var);
		if (!f)
			return FK_NONE;
		*irq = f->irq;
		return f->kind;
	case HV_ADDR: {
		const char *e = v->addr;
		int var = hog_expr_var(e);

		if (var >= 0 && !strpbrk(e + 1, "/^#[")) {
			f = fact_get(t, var);
			if (!f)
				return FK_NONE;
			*irq = f->irq;
			return f->kind;
		}
		/* a parameter's value, carried through phis for its flag tests */
		if (e[0] == '$' && hog_expr_param(e) >= 0 && !strpbrk(e + 1, "/^#[")) {
			*irq = hog_expr_param(e);
			return FK_PARAM;
		}
		if (e[0] == '@' || strchr(e, '/'))
			return FK_NONZERO;
		return FK_NONE;
	}
	default:
		return FK_NONE;
	}
	(void)fs;
}

/* ---------- lock operations on a tuple ---------- */

static void add_everrel(struct fs *fs, const char *e)
{
	int i;

	for (i = 0; i < fs->everrel.n; i++)
		if (fs->everrel.v[i] == e)
			return;
	hog_vec_push(&fs->everrel, (void *)e);
}

static void acquire(struct fs *fs, struct tup *t, const char *expr, const char *cls,
		    const char *kind, int sleeping, int line)
{
	struct held *h;
	int i;

	/* taking back an entry lock */
	for (i = 0; expr && i < t->nrel; i++)
		if (t->rel[i] == expr) {
			t->rel[i] = t->rel[--t->nrel];
			return;
		}
	if (t->nheld == MAX_HELD) {
		fs->limits |= HOG_LIMIT_HELD;
		memmove(&t->held[0], &t->held[1], (MAX_HELD - 1) * sizeof(t->held[0]));
		t->nheld--;
	}
	h = &t->held[t->nheld++];
	h->expr = expr;
	h->alias = expr && t->store_to == expr ? t->store_from : NULL;
	h->irqprev = -1;
	h->cls = cls ? cls : hog_expr_class(fs->c->strs, expr);
	h->kind = kind;
	h->sleeping = sleeping;
	h->line = line;
}

/*
 * Two names for locks of one class are the same lock unless both are
 * tied to parameters or globals: dst->lock and src->lock in
 * hand-over-hand locking are two locks, %locked->lru_lock and the
 * lruvec that a helper returned are one.
 */
static int loose_name(const char *e)
{
	return !e || !hog_expr_portable(e);
}

static void note_release(struct fs *fs, const char *expr, const char *cls)
{
	struct binfo *b;

	if (!fs->recording)
		return;
	b = &fs->bi[fs->cur_block];
	if (expr)
		hog_vec_push(&b->released, (void *)expr);
	if (cls && loose_name(expr))
		hog_vec_push(&b->released, (void *)cls);
}

static void release(struct fs *fs, struct tup *t, const char *expr, const char *cls,
		    const char *kind)
{
	int i, hit = -1;

	if (!cls && expr)
		cls = hog_expr_class(fs->c->strs, expr);
	note_release(fs, expr, cls);
	for (i = t->nheld - 1; i >= 0 && expr; i--)
		if (held_is(&t->held[i], expr)) {
			hit = i;
			break;
		}
	for (i = t->nheld - 1; i >= 0 && hit < 0 && cls; i--)
		if (t->held[i].cls == cls &&
		    (loose_name(expr) || loose_name(t->held[i].expr))) {
			hit = i;
			break;
		}
	/* an unknown lock of the same kind: the innermost one */
	if (hit < 0 && (!expr || !hog_expr_portable(expr)) && !cls)
		for (i = t->nheld - 1; i >= 0; i--)
			if (t->held[i].kind == kind) {
				hit = i;
				break;
			}
	if (hit >= 0) {
		memmove(&t->held[hit], &t->held[hit + 1],
			(t->nheld - hit - 1) * sizeof(t->held[0]));
		t->nheld--;
		return;
	}
	if (expr && hog_expr_portable(expr) && !rel_has(t, expr) && t->nrel < MAX_REL) {
		t->rel[t->nrel++] = expr;
		if (fs->recording)
			add_everrel(fs, expr);
	}
}

/* ---------- rules and summaries applied to a call ---------- */

struct callv {
	const struct hog_event *ev;
	const char *addr[16];	/* argument addresses in our terms */
	int nargs;
};

static void call_prepare(struct fs *fs, const struct hog_event *e, struct callv *cv)
{
	int i;

	cv->ev = e;
	cv->nargs = e->nargs < 16 ? e->nargs : 16;
	for (i = 0; i < cv->nargs; i++)
		cv->addr[i] = val_addr(fs, &e->args[i]);
}

static const char *arg_addr(const struct callv *cv, int i)
{
	return i >= 0 && i < cv->nargs ? cv->addr[i] : NULL;
}

static const struct hog_val *arg_val(const struct callv *cv, int i)
{
	return i >= 0 && i < cv->ev->nargs ? &cv->ev->args[i] : NULL;
}

/*
 * Does a condition on a callee's argument hold at this call?  1 yes,
 * 0 no, -1 only our caller can tell: then *out is the condition on our
 * own parameter (gfp | __GFP_ZERO still sleeps as gfp does).
 */
static int when_eval(struct fs *fs, const struct callv *cv, const struct hog_when *w,
		     struct hog_when *out)
{
	const struct hog_val *v;
	const struct pmap *pm = NULL;
	long long m;

	out->arg = -1;
	if (w->arg < 0)
		return 1;
	v = arg_val(cv, w->arg);
	if (!v)
		return 0;
	if (v->kind == HV_CONST) {
		if (w->op == '&')
			return (v->cst & w->val) != 0;
		if (w->op == '~')
			return (v->cst & w->val) == 0;
		return v->cst == w->val;
	}
	if (v->kind == HV_ADDR && hog_expr_param(v->addr) >= 0 &&
	    !strpbrk(v->addr + 1, "/^#[")) {
		*out = *w;
		out->arg = hog_expr_param(v->addr);
		return -1;
	}
	if (v->kind == HV_VAR)
		pm = pmap_get(fs, v->var);
	if (!pm || w->op == '=')
		return -1;
	/* value = (param & and) | or */
	if (pm->or & w->val)
		return w->op == '&';
	m = w->val & pm->and;
	if (!m)
		return w->op == '~';
	*out = *w;
	out->arg = pm->param;
	out->val = m;
	return -1;
}

static int irq_from_flags(struct fs *fs, const struct tup *t, const struct callv *cv, int arg)
{
	const struct hog_val *v = arg_val(cv, arg);
	const struct fact *f;

	if (!v)
		return HOG_IRQ_CALLER;
	if (v->kind == HV_VAR) {
		f = fact_get(t, v->var);
		if (f && f->kind == FK_FLAGS)
			return f->irq;
	}
	if (v->kind == HV_ADDR && hog_expr_param(v->addr) >= 0 &&
	    !strpbrk(v->addr + 1, "/^#["))
		return HOG_IRQ_PARAM + hog_expr_param(v->addr);
	(void)fs;
	return HOG_IRQ_CALLER;
}

static const struct hog_rule *rule_of(struct fs *fs, const char *name, enum hog_rule_kind k)
{
	return hog_rules_find(fs->c->rules, name, k);
}

static int has_any_rule(struct fs *fs, const char *name)
{
	return name && hog_map_get(fs->c->rules->byname, name) != NULL;
}

static const struct hog_summary *summary_of(struct fs *fs, const char *callee)
{
	if (!callee || !fs->c->lookup)
		return NULL;
	return fs->c->lookup(fs->c->lookup_ctx, fs->f, callee);
}

/*
 * A function we know nothing about whose name says it unlocks
 * (wbc_attach_and_unlock_inode, unlock_page_lruvec in another
 * directory) releases the innermost held lock reached through one of
 * its arguments.  Kernel naming is reliable enough for this, and
 * keeping such a lock would blame everything after the call on it.
 */
static int unlock_name(const char *n)
{
	return n && strstr(n, "unlock") != NULL;
}

static void unlock_by_name(struct fs *fs, struct tup *t, const struct callv *cv)
{
	int i, k;

	for (i = t->nheld - 1; i >= 0; i--) {
		const char *e = t->held[i].expr;

		for (k = 0; e && k < cv->nargs; k++)
			if (cv->addr[k] && hog_expr_has_prefix(e, cv->addr[k])) {
				release(fs, t, e, t->held[i].cls, t->held[i].kind);
				return;
			}
	}
}

/*
 * Applies a call to every tuple of the set; trylocks split a tuple in
 * two, one per outcome.
 */
/* Depths are bounded so that a loop that only ever disables still converges. */
static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void note_irq_on(struct fs *fs)
{
	if (fs->recording)
		fs->bi[fs->cur_block].irq_on = 1;
}

static void apply_call(struct fs *fs, struct tset *set, const struct callv *cv)
{
	const struct hog_event *e = cv->ev;
	const struct hog_rule *lk = rule_of(fs, e->callee, HR_LOCK);
	const struct hog_rule *iq = rule_of(fs, e->callee, HR_IRQ);
	const struct hog_rule *pr = rule_of(fs, e->callee, HR_PREEMPT);
	const struct hog_rule *pt = rule_of(fs, e->callee, HR_PASSTHROUGH);
	const struct hog_rule *pf = rule_of(fs, e->callee, HR_PAGEFAULT);
	const struct hog_summary *s = NULL;
	struct tset out = { 0 };
	int i, k;

	if (pt && e->dst >= 0 && arg_addr(cv, pt->arg))
		fs->bind[e->dst] = arg_addr(cv, pt->arg);
	if (!has_any_rule(fs, e->callee))
		s = summary_of(fs, e->callee);
	if (s && s->ret_addr && e->dst >= 0 && !fs->bind[e->dst]) {
		const char *r = hog_expr_subst(fs->c->strs, fs->c->rules, s->ret_addr,
					       cv->addr, cv->nargs, NULL);

		/*
		 * A named variable (zone = page_zone(page)) names the object
		 * better than the expansion does, unless the expansion ties it
		 * to our parameters, which summaries need.
		 */
		if (r && (r[0] == '$' || !var_name(fs->f, e->dst) || !*var_name(fs->f, e->dst)))
			fs->bind[e->dst] = r;
	}

	for (i = 0; i < set->n; i++) {
		struct tup t = set->t[i];
		int irq_before = t.irq, nheld_before = t.nheld;

		if (iq) {
			switch (iq->op) {
			case HIRQ_SAVE:
				if (iq->flags == -2)
					fact_set(&t, e->dst, FK_FLAGS, t.irq);
				t.irq = HOG_IRQ_OFF;
				break;
			case HIRQ_RESTORE:
				t.irq = irq_from_flags(fs, &t, cv, iq->flags);
				note_irq_on(fs);
				break;
			case HIRQ_DISABLE:
				t.irq = HOG_IRQ_OFF;
				break;
			case HIRQ_ENABLE:
				t.irq = HOG_IRQ_ON;
				note_irq_on(fs);
				break;
			default:
				break;
			}
		}
		if (pr) {
			struct hog_when cond;

			if (when_eval(fs, cv, &pr->when, &cond) == 1) {
				t.preempt = clamp(t.preempt + pr->op, -4, 8);
			}
		}
		if (pf) {
			t.pf = clamp(t.pf + pf->op, -4, 4);
		}
		if (lk) {
			const char *a = arg_addr(cv, lk->arg);

			if (lk->op == HOP_RELEASE) {
				release(fs, &t, a, NULL, lk->lock_kind);
				if (lk->irq == HIRQ_RESTORE)
					t.irq = irq_from_flags(fs, &t, cv, lk->flags);
				else if (lk->irq == HIRQ_ENABLE)
					t.irq = HOG_IRQ_ON;
				if (lk->irq == HIRQ_RESTORE || lk->irq == HIRQ_ENABLE)
					note_irq_on(fs);
			} else {
				struct tup fail = t;

				if (lk->irq == HIRQ_SAVE) {
					if (lk->flags == -2 && lk->op == HOP_ACQUIRE)
						fact_set(&t, e->dst, FK_FLAGS, t.irq);
					t.irq = HOG_IRQ_OFF;
				} else if (lk->irq == HIRQ_DISABLE) {
					t.irq = HOG_IRQ_OFF;
				}
				acquire(fs, &t, a, NULL, lk->lock_kind, lk->sleeping, e->line);
				if (lk->op == HOP_TRYLOCK) {
					/* result unused: nobody can know, assume it failed */
					if (e->dst < 0) {
						tset_add(&out, &fail);
						continue;
					}
					int ok = lk->cond == HTRY_ZERO ? FK_ZERO : FK_NONZERO;

					fact_set(&t, e->dst, ok, 0);
					fact_set(&fail, e->dst, ok == FK_ZERO ? FK_NONZERO : FK_ZERO, 0);
					tset_add(&out, &fail);
				}
			}
		}
		if (!s && !lk && !iq && !pr && !pf && unlock_name(e->callee) &&
		    !has_any_rule(fs, e->callee))
			unlock_by_name(fs, &t, cv);
		if (s && !lk && !iq && !pr && !pf) {
			struct tup fail;
			const char *ret = NULL;
			int try = 0;

			for (k = 0; k < s->nacq; k++)
				if (s->acq[k].cond && e->dst >= 0)
					try = 1;
			if (e->dst >= 0) {
				char vb[32];

				snprintf(vb, sizeof(vb), "v%d", e->dst);
				ret = fs->bind[e->dst] ? fs->bind[e->dst] :
					hog_intern(fs->c->strs, vb);
			}
			for (k = 0; k < s->nrel; k++) {
				const char *a = hog_expr_subst(fs->c->strs, fs->c->rules,
							       s->rel[k], cv->addr,
							       cv->nargs, ret);

				release(fs, &t, a, a ? NULL :
					hog_expr_class(fs->c->strs, s->rel[k]), NULL);
			}
			fail = t;
			for (k = 0; k < s->nacq; k++) {
				const struct hog_lockfx *x = &s->acq[k];
				const char *a = hog_expr_subst(fs->c->strs, fs->c->rules,
							       x->expr, cv->addr,
							       cv->nargs, ret);

				acquire(fs, &t, a, x->cls, x->kind, x->sleeping, e->line);
				if (!(x->cond && e->dst >= 0))
					acquire(fs, &fail, a, x->cls, x->kind, x->sleeping,
						e->line);
				/* it returned the object whose lock it took: not NULL */
				if (x->expr && hog_expr_is_ret(x->expr) && !x->cond)
					fact_set(&t, e->dst, FK_NONZERO, 0);
			}
			if (s->irq_exit == HOG_IRQ_ON || s->irq_exit >= HOG_IRQ_PARAM)
				note_irq_on(fs);
			if (s->irq_exit == HOG_IRQ_OFF || s->irq_exit == HOG_IRQ_ON)
				t.irq = s->irq_exit;
			else if (s->irq_exit >= HOG_IRQ_PARAM)
				t.irq = irq_from_flags(fs, &t, cv, s->irq_exit - HOG_IRQ_PARAM);
			t.preempt = clamp(t.preempt + s->preempt_delta, -4, 8);
			t.pf = clamp(t.pf + s->pf_delta, -4, 4);
			if (s->ret_zero && e->dst >= 0 && !try)
				fact_set(&t, e->dst, s->ret_zero == 1 ? FK_ZERO : FK_NONZERO, 0);
			if (try) {
				fail.irq = t.irq;
				fail.preempt = t.preempt;
				fact_set(&t, e->dst, FK_NONZERO, 0);
				fact_set(&fail, e->dst, FK_ZERO, 0);
				tset_add(&out, &fail);
			}
		}
		/* remember what an irqsave lock turned off, for drop_cookie_locks() */
		if (irq_before != HOG_IRQ_OFF && t.irq == HOG_IRQ_OFF && t.nheld > nheld_before &&
		    t.nheld > 0)
			t.held[t.nheld - 1].irqprev = irq_before;
		tset_add(&out, &t);
	}
	tset_free(set);
	*set = out;
}

/* ---------- costs ---------- */

static struct hog_step step_at(struct fs *fs, int line, int col)
{
	struct hog_step st = { fs->f->name, fs->f->file, line, col };

	return st;
}

static struct hog_cost *cost_new(struct fs *fs, enum hog_kind kind, const char *cls,
				 const char *reason, const char *callee, int listed,
				 int line, int col, const struct hog_cost *tail)
{
	struct hog_cost *c = hog_alloc(fs->c->arena, sizeof(*c));
	int n = 1 + (tail ? tail->nchain : 0);

	c->kind = kind;
	c->cls = cls;
	c->reason = reason;
	c->callee = callee;
	c->listed = listed;
	c->nchain = n;
	c->chain = hog_alloc(fs->c->arena, sizeof(*c->chain) * n);
	c->chain[0] = step_at(fs, line, col);
	if (tail) {
		memcpy(c->chain + 1, tail->chain, sizeof(*c->chain) * tail->nchain);
		c->irqs_off = tail->irqs_off;
		c->irq_on = tail->irq_on;
		c->batched = tail->batched;
		c->inner = tail->inner;
	}
	c->when.arg = -1;
	return c;
}

static void add_unique(const char **v, int *n, int max, const char *e)
{
	int i;

	for (i = 0; i < *n; i++)
		if (v[i] == e)
			return;
	if (*n < max)
		v[(*n)++] = e;
}

static const char **map_exprs(struct fs *fs, const char *const *in, int n,
			      const struct callv *cv, int *nout)
{
	const char **o = n ? hog_alloc(fs->c->arena, sizeof(char *) * n) : NULL;
	int i, k = 0;

	for (i = 0; i < n; i++) {
		const char *a = cv ? hog_expr_subst(fs->c->strs, fs->c->rules, in[i],
						    cv->addr, cv->nargs, NULL) : in[i];

		if (a)
			add_unique(o, &k, n, a);
	}
	*nout = k;
	return o;
}

static int class_in(struct fs *fs, const struct held *h, const char *const *rel, int nrel)
{
	int i;

	for (i = 0; i < nrel; i++) {
		if (held_is(h, rel[i]))
			return 1;
		if (h->cls && h->cls == hog_expr_class(fs->c->strs, rel[i]) &&
		    (loose_name(h->expr) || loose_name(rel[i])))
			return 1;
	}
	return 0;
}

static char *held_name(struct fs *fs, const struct held *h)
{
	if (h->expr)
		return hog_expr_display(h->expr, (const char *const *)fs->f->params,
					fs->f->nparams, (const char *const *)fs->f->vnames,
					fs->f->vnames ? fs->f->nvnames : 0);
	if (h->cls)
		return hog_xstrdup(h->cls);
	return hog_xstrdup("?");
}

/*
 * Which lock a finding names: the innermost spinning lock the cost does
 * not give up, then IRQs off, then preemption off, then a sleeping lock
 * (only for work that does not itself sleep).  Returns 0 for none.
 */
static int pick_lock(struct fs *fs, const struct tup *t, const struct hog_cost *c,
		     const char *const *rel, int nrel, const char *const *brk, int nbrk,
		     struct hog_lockref *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	for (i = t->nheld - 1; i >= 0; i--) {
		const struct held *h = &t->held[i];
		char *n;

		if (h->sleeping || class_in(fs, h, rel, nrel) || class_in(fs, h, brk, nbrk))
			continue;
		n = held_name(fs, h);
		out->name = hog_intern(fs->c->strs, n);
		free(n);
		out->cls = h->cls;
		out->kind = h->kind;
		out->line = h->line;
		return 1;
	}
	if (t->irq == HOG_IRQ_OFF) {
		out->name = hog_intern(fs->c->strs, "IRQs off");
		out->kind = hog_intern(fs->c->strs, "irq");
		return 1;
	}
	if (t->preempt > 0) {
		out->name = hog_intern(fs->c->strs, "preemption off");
		out->kind = hog_intern(fs->c->strs, "preempt");
		return 1;
	}
	if (c->kind == HK_SLEEP)
		return 0;
	for (i = t->nheld - 1; i >= 0; i--) {
		const struct held *h = &t->held[i];
		char *n;

		if (!h->sleeping || class_in(fs, h, rel, nrel) || class_in(fs, h, brk, nbrk))
			continue;
		n = held_name(fs, h);
		out->name = hog_intern(fs->c->strs, n);
		free(n);
		out->cls = h->cls;
		out->kind = h->kind;
		out->sleeping = 1;
		out->line = h->line;
		return 1;
	}
	return 0;
}

static void emit_raw(struct fs *fs, const struct tup *t, const struct hog_cost *c,
		     const char *const *rel, int nrel)
{
	struct hog_raw *r;
	struct hog_lockref lock;
	struct tup tt;

	if (!fs->c->raws)
		return;
	if (t->pf > 0 && c->cls && !strcmp(c->cls, HOG_CLS_FAULT))
		return;		/* faults off: the copy fails instead of sleeping */
	if (c->irq_on && t->irq == HOG_IRQ_OFF) {
		/* the callee turned IRQs back on before the cost */
		tt = *t;
		tt.irq = HOG_IRQ_ON;
		t = &tt;
	}
	if (!pick_lock(fs, t, c, rel, nrel, c->brk, c->nbreak, &lock))
		return;
	r = hog_alloc(fs->c->arena, sizeof(*r));
	r->kind = c->kind;
	r->cls = c->cls;
	r->reason = c->reason;
	r->callee = c->callee;
	r->listed = c->listed;
	r->batched = c->batched || t->batched;
	r->inner = c->inner;
	r->path.holder = fs->f->name;
	r->path.file = c->chain[0].file;
	r->path.line = c->chain[0].line;
	r->path.col = c->chain[0].col;
	r->path.nchain = c->nchain;
	r->path.chain = c->chain;
	r->path.irqs_off = t->irq == HOG_IRQ_OFF || c->irqs_off;
	r->path.lock = lock;
	hog_vec_push(fs->c->raws, r);
}

/* The innermost lock of ours held at the cost, for callers' messages. */
static const char *inner_name(struct fs *fs, const struct tset *set)
{
	int i, j;

	for (i = 0; i < set->n; i++)
		for (j = set->t[i].nheld - 1; j >= 0; j--)
			if (!set->t[i].held[j].sleeping) {
				char *n = held_name(fs, &set->t[i].held[j]);
				const char *r = hog_intern(fs->c->strs, n);

				free(n);
				return r;
			}
	return NULL;
}

/*
 * Records a cost at this point: into the summary (for our callers) and,
 * for each path that holds something, as a raw finding.
 */
static void record_cost(struct fs *fs, const struct tset *set, struct hog_cost *c)
{
	int i, j, anyoff = 1;

	if (c->nchain > fs->c->rules->loop.max_chain + 1)
		return;
	/*
	 * Every path here tested bits of the same parameter: the cost is
	 * the callers' only if they pass such bits.  Paths that tested
	 * different bits set join as "any of them".
	 */
	if (c->when.arg < 0 && set->n) {
		int same = set->t[0].pc_param >= 0;
		long long mask = set->t[0].pc_mask;

		for (i = 1; i < set->n && same; i++) {
			if (set->t[i].pc_param != set->t[0].pc_param ||
			    set->t[i].pc_op != set->t[0].pc_op)
				same = 0;
			else if (set->t[i].pc_mask != mask && set->t[0].pc_op == '&')
				mask |= set->t[i].pc_mask;
			else if (set->t[i].pc_mask != mask)
				same = 0;
		}
		if (same) {
			c->when.arg = set->t[0].pc_param;
			c->when.op = set->t[0].pc_op;
			c->when.val = mask;
		}
	}
	if (c->cls && !strcmp(c->cls, HOG_CLS_FAULT)) {
		int allpf = set->n > 0;

		for (i = 0; i < set->n; i++)
			if (set->t[i].pf <= 0)
				allpf = 0;
		if (allpf)
			return;
	}
	for (i = 0; i < set->n; i++) {
		const struct tup *t = &set->t[i];

		emit_raw(fs, t, c, c->rel, c->nrel);
		if (t->irq != HOG_IRQ_OFF)
			anyoff = 0;
	}
	/* for callers: entry locks any path gave up before the cost */
	{
		const char *rel[MAX_REL * 2];
		int nrel = 0;

		for (j = 0; j < c->nrel; j++)
			if (hog_expr_portable(c->rel[j]))
				add_unique(rel, &nrel, MAX_REL * 2, c->rel[j]);
		for (i = 0; i < set->n; i++)
			for (j = 0; j < set->t[i].nrel; j++)
				add_unique(rel, &nrel, MAX_REL * 2, set->t[i].rel[j]);
		c->rel = hog_alloc(fs->c->arena, sizeof(char *) * (nrel ? nrel : 1));
		memcpy(c->rel, rel, sizeof(char *) * nrel);
		c->nrel = nrel;
	}
	if (set->n && anyoff && !c->irq_on)
		c->irqs_off = 1;
	{
		int allb = set->n > 0;

		for (i = 0; i < set->n; i++)
			if (!set->t[i].batched)
				allb = 0;
		if (allb)
			c->batched = 1;
	}
	/*
	 * IRQs turned on, or restored from the caller's flags, on some
	 * path before the cost: the caller's "IRQs off" does not hold there.
	 */
	for (i = 0; i < set->n; i++)
		if (set->t[i].irq == HOG_IRQ_ON || set->t[i].irq >= HOG_IRQ_PARAM)
			c->irq_on = 1;
	if (!c->inner)
		c->inner = inner_name(fs, set);
	{
		int k = 0;

		for (j = 0; j < c->nbreak; j++)
			if (hog_expr_portable(c->brk[j]))
				c->brk[k++] = c->brk[j];
		c->nbreak = k;
	}
	hog_vec_push(&fs->costs, c);
}

/*
 * How much a call weighs in a loop body, to name the heaviest one:
 * 0 trivial, 1 unknown, 2 non-trivial, more the more costs it carries.
 */
static int call_weight(struct fs *fs, const char *callee)
{
	const struct hog_summary *s;
	int i, w;

	if (!callee)
		return 0;
	if (rule_of(fs, callee, HR_COST))
		return 3;
	if (has_any_rule(fs, callee))
		return 0;
	s = summary_of(fs, callee);
	if (!s)
		return 1;
	if (s->trivial)
		return 0;
	w = 2 + (s->self ? 4 : 0);
	for (i = 0; i < s->ncost; i++)
		w += s->cost[i].kind == HK_LOOP ? 2 : 1;
	return w;
}

static int is_trivial_call(struct fs *fs, const char *callee)
{
	return call_weight(fs, callee) == 0;
}

static void add_atomic(struct fs *fs, const char *e)
{
	int i;

	for (i = 0; i < fs->atomics.n; i++)
		if (fs->atomics.v[i] == e)
			return;
	if (fs->atomics.n < 8)
		hog_vec_push(&fs->atomics, (void *)e);
}

static void atomic_target(struct fs *fs, const struct tset *set, const char *a,
			  const char *via, int line, int col)
{
	struct hog_cost *c;
	char *disp, *reason;
	int i;

	fs->bi[fs->cur_block].atomic = 1;
	for (i = 0; i < set->n; i++)
		if (!set->t[i].batched)
			fs->bi[fs->cur_block].atomic_hot = 1;
	fs->s->has_atomic = 1;
	if (!a)
		return;
	if (hog_expr_param(a) >= 0 || hog_expr_is_ret(a)) {
		add_atomic(fs, a);
		return;
	}
	if (!hog_expr_is_global(a))
		return;
	disp = hog_expr_display(a, NULL, 0, NULL, 0);
	reason = hog_xasprintf("atomic read-modify-write on the global %s: one cache line bounced between all CPUs",
			       disp);
	c = cost_new(fs, HK_ATOMIC, hog_intern(fs->c->strs, HOG_CLS_GATOM),
		     hog_intern(fs->c->strs, reason), via, 0, line, col, NULL);
	free(disp);
	free(reason);
	record_cost(fs, set, c);
}

/* Costs of a call, recorded against the set of states before it. */
static void call_costs(struct fs *fs, const struct tset *set, const struct callv *cv)
{
	const struct hog_event *e = cv->ev;
	const struct hog_rule *cr = rule_of(fs, e->callee, HR_COST);
	const struct hog_rule *ar = rule_of(fs, e->callee, HR_ATOMIC);
	const struct hog_rule *br = rule_of(fs, e->callee, HR_LOCKBREAK);
	const struct hog_summary *s;
	struct binfo *bi = &fs->bi[fs->cur_block];
	struct hog_when cond;
	int i;

	if (!is_trivial_call(fs, e->callee)) {
		int w = call_weight(fs, e->callee);

		bi->heavy++;
		if (!bi->heavy_name || w > bi->heavy_weight) {
			bi->heavy_name = e->callee;
			bi->heavy_line = e->line;
			bi->heavy_weight = w;
		}
		fs->nontrivial++;
	}
	if (br && br->op == HBRK_BREAK) {
		const char *a = arg_addr(cv, br->arg);

		note_release(fs, a, a ? hog_expr_class(fs->c->strs, a) : NULL);
	}
	if (ar)
		atomic_target(fs, set, arg_addr(cv, ar->arg), e->callee, e->line, e->col);
	if (cr) {
		int ok = when_eval(fs, cv, &cr->when, &cond);

		if (ok == 1 || cond.arg >= 0) {
			struct hog_cost *c;

			c = cost_new(fs, !strcmp(cr->cls, HOG_CLS_SLEEP) || !strcmp(cr->cls, HOG_CLS_FAULT) ?
				     HK_SLEEP : HK_CALL,
				     cr->cls, cr->reason, e->callee, 1, e->line, e->col, NULL);
			if (ok != 1) {
				c->when = cond;
				/* only our callers can tell: no finding here */
				hog_vec_push(&fs->costs, c);
			} else {
				record_cost(fs, set, c);
			}
		}
	}
	if (has_any_rule(fs, e->callee))
		return;
	s = summary_of(fs, e->callee);
	if (!s)
		return;
	if (s->has_atomic) {
		bi->atomic = 1;
		for (i = 0; i < set->n; i++)
			if (!set->t[i].batched)
				bi->atomic_hot = 1;
	}
	for (i = 0; i < s->natomic; i++) {
		const char *a = hog_expr_subst(fs->c->strs, fs->c->rules, s->atomic[i],
					       cv->addr, cv->nargs, NULL);

		atomic_target(fs, set, a, e->callee, e->line, e->col);
	}
	if (s->self) {
		struct hog_cost *c = cost_new(fs, s->self->kind, s->self->cls,
					      s->self->reason, e->callee, 0, e->line,
					      e->col, NULL);

		c->batched = s->self->batched;
		record_cost(fs, set, c);
	}
	for (i = 0; i < s->ncost; i++) {
		const struct hog_cost *t = &s->cost[i];
		struct hog_cost *c;
		int ok = when_eval(fs, cv, &t->when, &cond);

		if (ok == 0 || (ok < 0 && cond.arg < 0))
			continue;
		c = cost_new(fs, t->kind, t->cls, t->reason, t->callee, t->listed,
			     e->line, e->col, t);
		c->rel = map_exprs(fs, t->rel, t->nrel, cv, &c->nrel);
		c->brk = (const char **)map_exprs(fs, t->brk, t->nbreak, cv, &c->nbreak);
		if (ok != 1) {
			c->when = cond;
			hog_vec_push(&fs->costs, c);
			continue;
		}
		record_cost(fs, set, c);
	}
	for (i = 0; i < s->nbrk; i++) {
		const char *a = hog_expr_subst(fs->c->strs, fs->c->rules, s->brk[i],
					       cv->addr, cv->nargs, NULL);

		note_release(fs, a, a ? hog_expr_class(fs->c->strs, a) : NULL);
	}
}

/* ---------- transfer ---------- */

/* ---------- transfer ---------- */

/*
 * *(ptlp) = __ptl in pte_offset_map_lock(): later the lock is named
 * through the field (vmf->ptl), and must still be the same lock.  The
 * last store on each path is kept, and a lock held under one name also
 * answers to the other.
 */
static void apply_store(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	const char *dst, *val;
	int i, j;

	if (e->nargs < 2)
		return;
	dst = val_addr(fs, &e->args[0]);
	val = val_addr(fs, &e->args[1]);
	if (!dst || !val)
		return;
	dst = hog_expr_append(fs->c->strs, dst, "^");
	for (i = 0; i < set->n; i++) {
		struct tup *t = &set->t[i];

		t->store_from = dst;
		t->store_to = val;
		for (j = 0; j < t->nheld; j++)
			if (t->held[j].expr == val)
				t->held[j].alias = dst;
	}
}

static void apply_assign(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	int i;

	if (e->dst < 0 || e->nargs < 1)
		return;
	if (e->args[0].kind == HV_ADDR || e->args[0].kind == HV_VAR) {
		const char *a = val_addr(fs, &e->args[0]);

		if (a && !fs->bind[e->dst])
			fs->bind[e->dst] = a;
	}
	if (e->callee && !strcmp(e->callee, "|")) {
		const struct hog_val *m = e->nargs > 1 ? &e->args[1] : NULL;

		for (i = 0; i < set->n; i++)
			fact_set(&set->t[i], e->dst, m && m->kind == HV_CONST && m->cst ?
				 FK_NONZERO : FK_NONE, 0);
		return;
	}
	if (e->callee && !strcmp(e->callee, "&")) {
		const struct hog_val *a = &e->args[0], *m = e->nargs > 1 ? &e->args[1] : NULL;

		for (i = 0; i < set->n; i++) {
			int irq, k = val_fact(fs, &set->t[i], a, &irq);

			if (k == FK_PARAM && m && m->kind == HV_CONST)
				fact_set_mask(&set->t[i], e->dst, irq, m->cst);
			else
				fact_set(&set->t[i], e->dst, FK_NONE, 0);
		}
		return;
	}
	for (i = 0; i < set->n; i++) {
		struct tup *t = &set->t[i];
		int irq, k = val_fact(fs, t, &e->args[0], &irq);

		if (k == FK_PMASK || (k == FK_PARAM && e->callee))
			k = FK_NONE;
		if (e->callee && !strcmp(e->callee, "!")) {
			if (k == FK_ZERO)
				k = FK_NONZERO;
			else if (k == FK_NONZERO || k == FK_FLAGS)
				k = FK_ZERO;
			else
				k = FK_NONE;
		} else if (e->callee && !strcmp(e->callee, "!!") && k == FK_FLAGS) {
			k = FK_NONE;
		}
		fact_set(t, e->dst, k, irq);
	}
}

static void record_exit(struct fs *fs, const struct tset *set, const struct hog_event *e)
{
	int i;

	for (i = 0; i < set->n; i++) {
		struct exitrec *x = hog_xcalloc(1, sizeof(*x));
		int irq;

		x->t = set->t[i];
		if (e && e->nargs > 0) {
			x->retkind = val_fact(fs, &set->t[i], &e->args[0], &irq);
			x->retaddr = val_addr(fs, &e->args[0]);
		}
		hog_vec_push(&fs->exits, x);
	}
}

static void transfer(struct fs *fs, int bno, struct tset *set)
{
	const struct hog_block *b = &fs->f->blocks[bno];
	int i;

	fs->cur_block = bno;
	for (i = 0; i < b->nev && set->n; i++) {
		const struct hog_event *e = &b->ev[i];
		struct callv cv;

		switch (e->kind) {
		case HE_CALL:
			call_prepare(fs, e, &cv);
			if (fs->recording)
				call_costs(fs, set, &cv);
			apply_call(fs, set, &cv);
			break;
		case HE_ICALL:
			if (fs->recording)
				fs->icalls++;
			break;
		case HE_ATOMIC:
			if (fs->recording)
				atomic_target(fs, set, e->nargs ? val_addr(fs, &e->args[0]) : NULL,
					      NULL, e->line, e->col);
			break;
		case HE_ASSIGN:
			apply_assign(fs, set, e);
			break;
		case HE_RETURN:
			if (fs->recording)
				record_exit(fs, set, e);
			break;
		case HE_STORE:
			apply_store(fs, set, e);
			break;
		}
		tset_compact(set, 0);
	}
}

/* Moves the states at the end of b along the edge to succ number si. */
/*
 * "if (locked) unlock_page_lruvec_irqrestore(locked, flags);": a pointer
 * that is handed to an unlock doubles as the "is it held" flag.  Where
 * the function finds it NULL, it does not hold that lock, however the
 * paths met before.  Matched by the variable's source name, since the
 * test and the unlock see different SSA versions of it.
 */
static const char *var_name(const struct hog_func *f, int v)
{
	return f->vnames && v >= 0 && v < f->nvnames ? f->vnames[v] : NULL;
}

static void note_cookie(struct fs *fs, const struct hog_val *v, const char *released)
{
	const char *name = NULL, *cls;

	if (!v || !released)
		return;
	if (v->kind == HV_VAR)
		name = var_name(fs->f, v->var);
	else if (v->kind == HV_ADDR && v->addr[0] == '%' && !strpbrk(v->addr + 1, "/^#["))
		name = hog_intern(fs->c->strs, v->addr + 1);
	cls = hog_expr_class(fs->c->strs, released);
	if (!name || !*name || !cls)
		return;
	if (fs->ncookie == MAX_COOKIES) {
		fs->limits |= HOG_LIMIT_TRACK;
		return;
	}
	fs->cookie[fs->ncookie].name = name;
	fs->cookie[fs->ncookie].cls = cls;
	fs->ncookie++;
}

static const struct pmap *pmap_get(struct fs *fs, int var)
{
	int i;

	for (i = 0; i < fs->npmap; i++)
		if (fs->pmap[i].var == var)
			return &fs->pmap[i];
	return NULL;
}

/* gfp | __GFP_ZERO, flags & ~X: SSA makes this a flow-insensitive fact */
static void find_pmaps(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	int b, i;

	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];
			const struct hog_val *a, *m;
			struct pmap p = { .and = -1, .or = 0 };
			const struct pmap *from;

			if (e->kind != HE_ASSIGN || !e->callee || e->nargs < 2 || e->dst < 0 ||
			    (strcmp(e->callee, "|") && strcmp(e->callee, "&")))
				continue;
			if (fs->npmap == MAX_PMAP) {
				fs->limits |= HOG_LIMIT_TRACK;
				continue;
			}
			a = &e->args[0];
			m = &e->args[1];
			if (m->kind != HV_CONST)
				continue;
			if (a->kind == HV_ADDR && hog_expr_param(a->addr) >= 0 &&
			    !strpbrk(a->addr + 1, "/^#[")) {
				p.param = hog_expr_param(a->addr);
			} else if (a->kind == HV_VAR && (from = pmap_get(fs, a->var))) {
				p = *from;
			} else {
				continue;
			}
			if (e->callee[0] == '|') {
				p.or |= m->cst;
			} else {
				p.and &= m->cst;
				p.or &= m->cst;
			}
			p.var = e->dst;
			fs->pmap[fs->npmap++] = p;
		}
}

static void find_cookies(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	int b, i, k;

	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];
			const struct hog_rule *lk;
			const struct hog_summary *s;

			if (e->kind != HE_CALL)
				continue;
			lk = rule_of(fs, e->callee, HR_LOCK);
			if (lk && lk->op == HOP_RELEASE && lk->arg < e->nargs) {
				struct callv cv;

				call_prepare(fs, e, &cv);
				note_cookie(fs, &e->args[lk->arg], arg_addr(&cv, lk->arg));
				continue;
			}
			if (has_any_rule(fs, e->callee))
				continue;
			s = summary_of(fs, e->callee);
			for (k = 0; s && k < s->nrel; k++) {
				int p = hog_expr_param(s->rel[k]);

				if (p >= 0 && p < e->nargs)
					note_cookie(fs, &e->args[p], s->rel[k]);
			}
		}
}

static void drop_cookie_locks(struct fs *fs, struct tup *t, int var)
{
	const char *name = var_name(fs->f, var);
	int i, j;

	if (!name || !*name)
		return;
	for (i = 0; i < fs->ncookie; i++) {
		if (fs->cookie[i].name != name)
			continue;
		for (j = t->nheld - 1; j >= 0; j--)
			if (t->held[j].cls == fs->cookie[i].cls) {
				if (t->held[j].irqprev >= 0)
					t->irq = t->held[j].irqprev;
				memmove(&t->held[j], &t->held[j + 1],
					(t->nheld - j - 1) * sizeof(t->held[0]));
				t->nheld--;
			}
	}
}

static void edge(struct fs *fs, int bno, int si, const struct tset *out, struct tset *dst)
{
	const struct hog_block *b = &fs->f->blocks[bno];
	const struct hog_block *s = &fs->f->blocks[b->succ[si]];
	int i, j, k;

	for (i = 0; i < out->n; i++) {
		struct tup t = out->t[i];

		if ((b->cond == HC_BATCH0 && si == 0) || (b->cond == HC_BATCH1 && si == 1))
			t.batched = 1;
		if ((b->cond == HC_NEZ || b->cond == HC_EQZ) && si < 2) {
			const struct fact *f = fact_get(&t, b->cond_var);
			int want_nz = (b->cond == HC_NEZ) == (si == 0);
			int kind = f ? f->kind : FK_NONE;

			if (kind == FK_PMASK && t.pc_param < 0) {
				t.pc_param = f->irq;
				t.pc_mask = f->mask;
				t.pc_op = want_nz ? '&' : '~';
			}
			if (kind == FK_FLAGS || kind == FK_PMASK || kind == FK_PARAM)
				kind = FK_NONE;
			if (want_nz && kind == FK_ZERO)
				continue;
			if (!want_nz && kind == FK_NONZERO)
				continue;
			if (b->succ[0] != b->succ[1])
				fact_set(&t, b->cond_var, want_nz ? FK_NONZERO : FK_ZERO, 0);
			if (!want_nz && b->succ[0] != b->succ[1])
				drop_cookie_locks(fs, &t, b->cond_var);
		}
		/* phis read the values as they leave this block */
		{
			struct tup before = t;

			for (j = 0; j < s->nphi; j++) {
				const struct hog_phi *p = &s->phi[j];

				for (k = 0; k < p->n; k++)
					if (p->pred[k] == bno) {
						int irq, kind = val_fact(fs, &before, &p->val[k], &irq);

						fact_set(&t, p->dst, kind, irq);
						break;
					}
			}
		}
		tset_add(dst, &t);
	}
}

static void rpo_visit(const struct hog_func *f, int b, char *seen, int *order, int *n)
{
	/* iterative DFS: deep CFGs must not blow the compiler's stack */
	int *stack = hog_xmalloc(sizeof(int) * 2 * (f->nblocks + 1));
	int sp = 0;

	stack[sp++] = b;
	stack[sp++] = 0;
	seen[b] = 1;
	while (sp) {
		int cur = stack[sp - 2], *next = &stack[sp - 1];
		const struct hog_block *bb = &f->blocks[cur];

		if (*next < bb->nsucc) {
			int s = bb->succ[(*next)++];

			if (!seen[s]) {
				seen[s] = 1;
				stack[sp++] = s;
				stack[sp++] = 0;
			}
		} else {
			order[(*n)++] = cur;
			sp -= 2;
		}
	}
	free(stack);
}

/* ---------- loops ---------- */

static int loop_has(const struct hog_loop *l, int b)
{
	int i;

	for (i = 0; i < l->nblocks; i++)
		if (l->blocks[i] == b)
			return 1;
	return 0;
}

static int loop_unbounded(struct fs *fs, const struct hog_loop *l)
{
	const struct hog_loop_policy *p = &fs->c->rules->loop;

	if (l->bound >= 0 && l->bound <= p->max_bound)
		return 0;
	if (l->shape == HL_PARENT_WALK || l->shape == HL_RETRY)
		return 0;
	if (l->shape == HL_PTRCHASE && !p->listwalk)
		return 0;
	return 1;
}

static int loop_heavy(struct fs *fs, const struct hog_loop *l, const char **name, int *line)
{
	int i, n = 0, w = -1;

	*name = NULL;
	*line = 0;
	for (i = 0; i < l->nblocks; i++) {
		const struct binfo *b = &fs->bi[l->blocks[i]];

		n += b->heavy;
		if (b->heavy_name && (b->heavy_weight > w ||
				      (b->heavy_weight == w && b->heavy_line < *line))) {
			*name = b->heavy_name;
			*line = b->heavy_line;
			w = b->heavy_weight;
		}
	}
	return n;
}

static int loop_qualifies(struct fs *fs, const struct hog_loop *l)
{
	const char *n;
	int line;

	return loop_unbounded(fs, l) &&
	       loop_heavy(fs, l, &n, &line) >= fs->c->rules->loop.min_calls &&
	       fs->c->rules->loop.min_calls > 0;
}

static int loop_breaks(struct fs *fs, const struct hog_loop *l, const struct held *h)
{
	int i, j;

	for (i = 0; i < l->nblocks; i++) {
		const struct binfo *b = &fs->bi[l->blocks[i]];

		for (j = 0; j < b->released.n; j++) {
			const char *r = b->released.v[j];

			if (held_is(h, r) || (h->cls && r == h->cls && loose_name(h->expr)))
				return 1;
		}
	}
	return 0;
}

static void analyse_loops(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	int i, j, k;

	for (i = 0; i < f->nloops; i++) {
		const struct hog_loop *l = &f->loops[i];

		if (l->shape == HL_PARENT_WALK && !fs->s->self) {
			int hot = 0;

			for (j = 0; j < l->nblocks; j++)
				hot |= fs->bi[l->blocks[j]].atomic_hot;
			for (j = 0; j < l->nblocks; j++)
				if (fs->bi[l->blocks[j]].atomic)
					break;
			if (j < l->nblocks) {
				struct hog_cost *c = hog_alloc(fs->c->arena, sizeof(*c));

				/* the atomics only run past a per-CPU threshold */
				c->batched = !hot;

				c->kind = HK_CALL;
				c->cls = hog_intern(fs->c->strs, HOG_CLS_HIER);
				c->reason = hog_intern(fs->c->strs,
					"walks up the ->parent chain doing an atomic read-modify-write at every level");
				c->when.arg = -1;
				fs->s->self = c;
			}
		}
	}
	for (i = 0; i < f->nloops; i++) {
		const struct hog_loop *l = &f->loops[i];
		const struct tset *hin = &fs->in[l->header];
		const char *heavy, *brk[16];
		int line, nbrk = 0, outer = 0;
		struct hog_cost *c;
		char *reason;

		if (!loop_qualifies(fs, l))
			continue;
		fs->nontrivial++;
		/* report the outermost of nested qualifying loops only */
		for (j = 0; j < f->nloops && !outer; j++)
			if (j != i && f->loops[j].nblocks > l->nblocks &&
			    loop_has(&f->loops[j], l->header) && loop_qualifies(fs, &f->loops[j]))
				outer = 1;
		if (outer)
			continue;
		loop_heavy(fs, l, &heavy, &line);
		/* locks given up somewhere inside the loop */
		for (j = 0; j < hin->n; j++)
			for (k = 0; k < hin->t[j].nheld && nbrk < 16; k++) {
				const struct held *h = &hin->t[j].held[k];

				if (loop_breaks(fs, l, h) && h->expr)
					brk[nbrk++] = h->expr;
			}
		for (j = 0; j < l->nblocks; j++) {
			const struct binfo *b = &fs->bi[l->blocks[j]];

			for (k = 0; k < b->released.n && nbrk < 16; k++)
				if (hog_expr_portable(b->released.v[k]))
					brk[nbrk++] = b->released.v[k];
		}
		reason = hog_xasprintf("loop with a data-dependent trip count calling %s() on every iteration",
				       heavy ? heavy : "?");
		c = cost_new(fs, HK_LOOP, hog_intern(fs->c->strs, HOG_CLS_LOOP),
			     hog_intern(fs->c->strs, reason), heavy, 0, l->line, l->col, NULL);
		free(reason);
		c->brk = hog_alloc(fs->c->arena, sizeof(char *) * (nbrk ? nbrk : 1));
		memcpy(c->brk, brk, sizeof(char *) * nbrk);
		c->nbreak = nbrk;
		/* IRQs let in once per iteration break an IRQs-off stretch */
		for (j = 0; j < l->nblocks; j++)
			if (fs->bi[l->blocks[j]].irq_on)
				c->irq_on = 1;
		/* the states on entry to the loop, not those coming round */
		{
			struct tset entry = { 0 };

			for (j = 0; j < f->blocks[l->header].npred; j++) {
				int p = f->blocks[l->header].pred[j];
				struct tset o = { 0 };

				if (loop_has(l, p))
					continue;
				tset_copy(&o, &fs->in[p]);
				fs->cur_block = p;
				{
					int save = fs->recording;

					fs->recording = 0;
					transfer(fs, p, &o);
					fs->recording = save;
				}
				for (k = 0; k < f->blocks[p].nsucc; k++)
					if (f->blocks[p].succ[k] == l->header)
						edge(fs, p, k, &o, &entry);
				tset_free(&o);
			}
			if (!entry.n)
				tset_copy(&entry, hin);
			fs->cur_block = l->header;
			record_cost(fs, &entry, c);
			tset_free(&entry);
		}
	}
}

/* ---------- summary ---------- */

static int cost_rank(const struct hog_cost *c)
{
	return (c->kind == HK_SLEEP) * 8 + c->listed * 4 + c->irqs_off * 2 -
	       c->nchain;
}

static int same_cost(const struct hog_cost *a, const struct hog_cost *b)
{
	const struct hog_step *la = &a->chain[a->nchain - 1];
	const struct hog_step *lb = &b->chain[b->nchain - 1];

	return a->kind == b->kind && a->cls == b->cls && a->callee == b->callee &&
	       la->func == lb->func && a->when.arg == b->when.arg;
}

static int cost_cmp(const void *x, const void *y)
{
	const struct hog_cost *a = *(const struct hog_cost *const *)x;
	const struct hog_cost *b = *(const struct hog_cost *const *)y;

	return cost_rank(b) - cost_rank(a);
}

static void finish_summary(struct fs *fs)
{
	struct hog_summary *s = fs->s;
	struct hog_vec keep = { 0 };
	int i, j, k, nexit = fs->exits.n;
	struct hog_lockfx acq[MAX_HELD * 2];
	int nacq = 0;
	const char *rel[MAX_REL * 4];
	int nrel = 0;

	/* costs: one per (kind, class, callee, site function), best first */
	qsort(fs->costs.v, fs->costs.n, sizeof(void *), cost_cmp);
	for (i = 0; i < fs->costs.n; i++) {
		struct hog_cost *c = fs->costs.v[i];

		for (j = 0; j < keep.n; j++)
			if (same_cost(keep.v[j], c))
				break;
		if (j == keep.n && keep.n == MAX_COSTS)
			fs->limits |= HOG_LIMIT_COSTS;
		else if (j == keep.n)
			hog_vec_push(&keep, c);
	}
	s->ncost = keep.n;
	s->cost = hog_alloc(fs->c->arena, sizeof(*s->cost) * (keep.n ? keep.n : 1));
	for (i = 0; i < keep.n; i++)
		s->cost[i] = *(struct hog_cost *)keep.v[i];
	hog_vec_free(&keep);

	/* lock effects from the states at the returns */
	s->irq_exit = -1;
	s->preempt_delta = 0;
	for (i = 0; i < nexit; i++) {
		const struct exitrec *x = fs->exits.v[i];
		int irq = x->t.irq;

		if (s->irq_exit == -1)
			s->irq_exit = irq;
		else if (s->irq_exit != irq)
			s->irq_exit = HOG_IRQ_CALLER;
		if (i == 0 || x->t.preempt < s->preempt_delta)
			s->preempt_delta = x->t.preempt;
		if (i == 0 || x->t.pf < s->pf_delta)
			s->pf_delta = x->t.pf;
		for (j = 0; j < x->t.nrel; j++) {
			for (k = 0; k < nrel; k++)
				if (rel[k] == x->t.rel[j])
					break;
			if (k == nrel && nrel < MAX_REL * 4)
				rel[nrel++] = x->t.rel[j];
		}
		for (j = 0; j < x->t.nheld; j++) {
			const struct held *h = &x->t.held[j];
			const char *e = h->expr;

			/* a lock reached through the returned pointer */
			if (e && x->retaddr && hog_expr_has_prefix(e, x->retaddr) &&
			    !hog_expr_portable(x->retaddr)) {
				char *t = hog_xasprintf("$R%s", e + strlen(x->retaddr));

				e = hog_intern(fs->c->strs, t);
				free(t);
			}
			if (e && !hog_expr_portable(e))
				e = NULL;
			for (k = 0; k < nacq; k++)
				if (acq[k].expr == e && acq[k].cls == h->cls)
					break;
			if (k == nacq && nacq < MAX_HELD * 2) {
				acq[nacq].expr = e;
				acq[nacq].cls = h->cls;
				acq[nacq].kind = h->kind;
				acq[nacq].sleeping = h->sleeping;
				acq[nacq].cond = 0;
				nacq++;
			}
		}
	}
	if (s->irq_exit < 0)
		s->irq_exit = HOG_IRQ_CALLER;
	/*
	 * A lock counts as taken for the caller only if every return holds
	 * it, or, for a trylock wrapper, exactly the returns of non-zero.
	 * "Held on some path" would leak a lock into every caller whenever
	 * the paths are correlated through memory we do not follow.
	 */
	{
		int kept = 0;

		for (k = 0; k < nacq; k++) {
			int held_nz = 0, held_z = 0, free_nz = 0, free_z = 0;
			int held_other = 0, free_other = 0;

			for (i = 0; i < nexit; i++) {
				const struct exitrec *x = fs->exits.v[i];
				int held = 0;

				for (j = 0; j < x->t.nheld; j++)
					if (x->t.held[j].cls == acq[k].cls)
						held = 1;
				if (x->retkind == FK_NONZERO)
					held ? held_nz++ : free_nz++;
				else if (x->retkind == FK_ZERO)
					held ? held_z++ : free_z++;
				else
					held ? held_other++ : free_other++;
			}
			if (!free_nz && !free_z && !free_other) {
				acq[k].cond = 0;
			} else if (held_nz && free_z && !held_z && !free_nz && !held_other &&
				   !free_other) {
				acq[k].cond = 1;
			} else {
				continue;
			}
			acq[kept++] = acq[k];
		}
		nacq = kept;
	}
	s->nacq = nacq;
	s->acq = hog_alloc(fs->c->arena, sizeof(*s->acq) * (nacq ? nacq : 1));
	memcpy(s->acq, acq, sizeof(*acq) * nacq);
	s->nrel = nrel;
	s->rel = hog_alloc(fs->c->arena, sizeof(char *) * (nrel ? nrel : 1));
	memcpy(s->rel, rel, sizeof(char *) * nrel);
	/* entry locks given up and taken back: a lock break */
	{
		const char *brk[16];
		int nb = 0;

		for (i = 0; i < fs->everrel.n && nb < 16; i++) {
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
	/* the returned address, when every return agrees */
	{
		const char *ra = NULL;
		int agree = nexit > 0;

		for (i = 0; i < nexit; i++) {
			const struct exitrec *x = fs->exits.v[i];

			if (x->retkind == FK_ZERO)
				continue;
			if (!x->retaddr || !hog_expr_portable(x->retaddr) ||
			    (ra && ra != x->retaddr)) {
				agree = 0;
				break;
			}
			ra = x->retaddr;
		}
		if (agree && ra)
			s->ret_addr = ra;
	}
	/* "return false;" stubs like __seqprop_preemptible() decide branches */
	{
		int z = 0, nz = 0, other = 0;

		for (i = 0; i < nexit; i++) {
			const struct exitrec *x = fs->exits.v[i];

			if (x->retkind == FK_ZERO)
				z++;
			else if (x->retkind == FK_NONZERO && !x->retaddr)
				nz++;
			else
				other++;
		}
		if (z && !nz && !other)
			s->ret_zero = 1;
		else if (nz && !z && !other)
			s->ret_zero = 2;
	}
	s->natomic = fs->atomics.n;
	s->atomic = hog_alloc(fs->c->arena, sizeof(char *) * (s->natomic ? s->natomic : 1));
	memcpy(s->atomic, fs->atomics.v, sizeof(char *) * s->natomic);
	/*
	 * Trivial: straight-line work on a few fields.  A loop of more than
	 * a handful of rounds is not, however cheap each round looks
	 * (__free_one_page() merging buddies up to MAX_ORDER).
	 */
	s->trivial = !fs->nontrivial && !fs->icalls;
	for (i = 0; i < fs->f->nloops && s->trivial; i++)
		if (fs->f->loops[i].bound < 0 || fs->f->loops[i].bound > 4)
			s->trivial = 0;
}

int hog_flow_function(struct hog_flow_ctx *c, const struct hog_func *f,
		      struct hog_summary *s)
{
	struct fs fs = { 0 };
	int *order, norder = 0, i, j, pass, changed, ret = 0;
	char *seen, *dirty;

	s->fn = f;
	fs.c = c;
	fs.f = f;
	fs.s = s;
	if (f->nblocks < 1)
		return -1;
	fs.in = hog_xcalloc(f->nblocks, sizeof(*fs.in));
	fs.bind = hog_xcalloc(f->nvars + 1, sizeof(*fs.bind));
	fs.bi = hog_xcalloc(f->nblocks, sizeof(*fs.bi));
	order = hog_xmalloc(sizeof(int) * f->nblocks);
	seen = hog_xcalloc(f->nblocks, 1);
	dirty = hog_xcalloc(f->nblocks, 1);
	rpo_visit(f, 0, seen, order, &norder);
	/* reverse post order */
	for (i = 0; i < norder / 2; i++) {
		int t = order[i];

		order[i] = order[norder - 1 - i];
		order[norder - 1 - i] = t;
	}
	{
		struct tup init;

		memset(&init, 0, sizeof(init));
		init.irq = HOG_IRQ_CALLER;
		init.pc_param = -1;
		tset_add(&fs.in[0], &init);
	}
	cur_limits = &fs.limits;
	find_cookies(&fs);
	find_pmaps(&fs);
	dirty[0] = 1;
	for (pass = 0, changed = 1; changed; pass++) {
		if (pass == WIDEN_PASS)
			fs.collapse = 1;
		if (pass == MAX_PASSES) {
			ret = -1;
			fs.limits |= HOG_LIMIT_PASSES;
			break;
		}
		changed = 0;
		for (i = 0; i < norder; i++) {
			int b = order[i];
			struct tset out = { 0 };

			if (!dirty[b])
				continue;
			dirty[b] = 0;
			tset_copy(&out, &fs.in[b]);
			transfer(&fs, b, &out);
			for (j = 0; j < f->blocks[b].nsucc; j++) {
				int sb = f->blocks[b].succ[j];
				struct tset nin = { 0 };

				tset_copy(&nin, &fs.in[sb]);
				edge(&fs, b, j, &out, &nin);
				tset_compact(&nin, fs.collapse);
				if (!tset_eq(&nin, &fs.in[sb])) {
					tset_free(&fs.in[sb]);
					fs.in[sb] = nin;
					dirty[sb] = 1;
					changed = 1;
				} else {
					tset_free(&nin);
				}
			}
			tset_free(&out);
		}
	}
	/* final pass: record costs, findings and exits on the fixed point */
	fs.recording = 1;
	memset(fs.bind, 0, sizeof(*fs.bind) * (f->nvars + 1));
	for (i = 0; i < norder; i++) {
		struct tset out = { 0 };

		tset_copy(&out, &fs.in[order[i]]);
		transfer(&fs, order[i], &out);
		tset_free(&out);
	}
	analyse_loops(&fs);
	finish_summary(&fs);
	s->limits = fs.limits;
	cur_limits = NULL;

	for (i = 0; i < f->nblocks; i++) {
		tset_free(&fs.in[i]);
		hog_vec_free(&fs.bi[i].released);
	}
	for (i = 0; i < fs.exits.n; i++)
		free(fs.exits.v[i]);
	hog_vec_free(&fs.exits);
	hog_vec_free(&fs.costs);
	hog_vec_free(&fs.everrel);
	hog_vec_free(&fs.atomics);
	free(fs.in);
	free(fs.bind);
	free(fs.bi);
	free(order);
	free(seen);
	free(dirty);
	return ret;
}
