// SPDX-License-Identifier: GPL-2.0
/*
 * The transfer of lock state across calls, stores and assignments: the
 * rules for the primitives, and the callee's summary for everything
 * else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "expr.h"

void add_everrel(struct fs *fs, const char *e)
{
	int i;

	for (i = 0; i < fs->everrel.n; i++)
		if (fs->everrel.v[i] == e)
			return;
	hog_vec_push(&fs->everrel, (void *)e);
}

/* Returns the held lock, NULL for an entry lock taken back. */
static struct held *acquire(struct fs *fs, struct tup *t, const char *expr, const char *cls,
			    const char *kind, int sleeping, int line)
{
	struct held *h;
	int i;

	/* taking back an entry lock */
	for (i = 0; expr && i < t->nrel; i++)
		if (t->rel[i] == expr) {
			t->rel[i] = t->rel[--t->nrel];
			return NULL;
		}
	/*
	 * Taking a spinning lock again that this path already holds would
	 * deadlock (read locks nest): the path is one the analysis cannot rule out (a loop
	 * back with a correlated mode variable), and stacking a second copy
	 * only makes it look longer.
	 */
	for (i = 0; expr && i < t->nheld; i++)
		if (t->held[i].expr == expr && !t->held[i].sleeping && !sleeping &&
		    !(kind && !strcmp(kind, "read")))
			return &t->held[i];
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
	h->maybe_released = 0;
	h->entry = 0;
	h->ctx = 0;
	h->bh = 0;
	h->guard = NULL;
	h->guard_at = NULL;
	return h;
}

/*
 * Two names for locks of one class are the same lock unless both are
 * tied to parameters or globals: dst->lock and src->lock in
 * hand-over-hand locking are two locks, %locked->lru_lock and the
 * lruvec that a helper returned are one.
 */
int loose_name(const char *e)
{
	return !e || !hog_expr_portable(e);
}

void note_release(struct fs *fs, const char *expr, const char *cls)
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

/* The held lock a release of expr (class cls, kind) gives up; -1 none. */
static int held_find(const struct tup *t, const char *expr, const char *cls, const char *kind)
{
	int i, hit = -1;

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
	return hit;
}

/* Do two expressions start from the same object ($1/... and $1/...)? */
static int same_root(const char *a, const char *b)
{
	size_t la = strcspn(a, "/^#["), lb = strcspn(b, "/^#[");

	return la == lb && !strncmp(a, b, la);
}

/*
 * A release that matched nothing held: a held lock of its class reached
 * from the same object may be the one (tmp_wb->list_lock, taken through
 * inode->i_wb, released as wb->list_lock).  Locks off two different
 * parameters or globals are two locks (hand-over-hand: src, dst).
 */
static void maybe_released(struct tup *t, const char *expr, const char *cls)
{
	int i;

	for (i = 0; cls && expr && i < t->nheld; i++) {
		struct held *h = &t->held[i];

		if (h->cls == cls && h->expr && h->expr != expr && !h->sleeping &&
		    same_root(h->expr, expr))
			h->maybe_released = 1;
	}
}

/*
 * Gives up a lock: one held, or else an entry lock of the caller's.
 * Returns the IRQ state before the irqsave that took it (-1 none
 * known), or -2 when it was not held here.
 */
static int release(struct fs *fs, struct tup *t, const char *expr, const char *cls,
		   const char *kind)
{
	int hit, prev;

	if (!cls && expr)
		cls = hog_expr_class(fs->c->strs, expr);
	hit = held_find(t, expr, cls, kind);
	if (hit < 0 && expr && expr[0] == '%') {
		const char *alt = phi_alt_held(fs, t, expr);

		if (alt) {
			expr = alt;
			cls = hog_expr_class(fs->c->strs, alt);
			hit = held_find(t, expr, cls, kind);
		}
	}
	note_release(fs, expr, cls);
	if (hit >= 0) {
		int entry = t->held[hit].entry;
		const char *hexpr = t->held[hit].expr;

		prev = t->held[hit].irqprev;
		memmove(&t->held[hit], &t->held[hit + 1],
			(t->nheld - hit - 1) * sizeof(t->held[0]));
		t->nheld--;
		if (!entry)
			return prev;
		/* the caller's lock, held by annotation: given up as an entry lock */
		expr = hexpr;
	}
	if (expr && hog_expr_portable(expr) && !rel_has(t, expr) && t->nrel < MAX_REL) {
		t->rel[t->nrel++] = expr;
		if (fs->recording)
			add_everrel(fs, expr);
	}
	if (hit < 0)
		maybe_released(t, expr, cls);
	return -2;
}

/* A lock given up by contract (rules: callback-release), as an unlock would */
void release_lock(struct fs *fs, struct tup *t, const char *expr)
{
	release(fs, t, expr, NULL, NULL);
}

/*
 * The annotation's lock held from here: the caller's, so not taken
 * here (entry).  A lock already held, or given up earlier on this path
 * (the assert then contradicts the code, which wins), is left alone; a
 * type the rules give no kind is not guessed at.
 */
void hold_assumed(struct fs *fs, struct tup *t, const char *expr, const char *type, int line)
{
	const char *kind = hog_rules_lock_kind(fs->c->rules, type);
	struct held *h;
	int i;

	if (!expr || !kind || rel_has(t, expr))
		return;
	for (i = 0; i < t->nheld; i++)
		if (held_is(&t->held[i], expr))
			return;
	h = acquire(fs, t, expr, NULL, hog_intern(fs->c->strs, kind),
		    hog_lock_kind_sleeps(kind), line);
	if (h)
		h->entry = 1;
}

static const char *annot_expr(struct fs *fs, const char *addr)
{
	struct hog_val v = { .kind = HV_ADDR, .addr = addr };

	return val_addr(fs, &v);
}

/* lockdep_assert_held(l) */
void apply_held(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	const char *a = e->nargs > 0 ? val_addr(fs, &e->args[0]) : NULL;
	int i;

	for (i = 0; a && i < set->n; i++)
		hold_assumed(fs, &set->t[i], a, e->callee, e->line);
}

/*
 * A registered callback (rules: context) runs in its atomic context from
 * entry to exit: held like an entry lock that has no address, so no
 * release in the function can end it, named by the rule's label.  Its
 * kind, "hardirq", "softirq" or "irqs-off", is no lock primitive's.
 */
static void seed_context(struct fs *fs, struct tup *t)
{
	const struct hog_ctx_rule *r = fs->c->entry ? fs->c->entry->rule : NULL;
	struct held *h;

	if (!r)
		return;
	h = acquire(fs, t, NULL, r->label,
		    hog_intern(fs->c->strs, hog_ctx_kind_name(r->kind)), 0, 0);
	if (h) {
		h->entry = 1;
		h->ctx = 1;
		h->bh = 1;
	}
}

/* __must_hold(l) and __releases(l): the caller holds l when it calls */
void seed_entry(struct fs *fs, struct tup *t)
{
	int i;

	seed_context(fs, t);

	for (i = 0; i < fs->f->nannots; i++) {
		const struct hog_annot *a = &fs->f->annots[i];

		if (a->kind == HA_MUST_HOLD || a->kind == HA_RELEASES)
			hold_assumed(fs, t, annot_expr(fs, a->expr), a->type, a->line);
	}
}

/*
 * IRQs restored from flags the analysis cannot see: to the state before
 * the irqsave that took the lock, if that happened here; for an entry
 * lock, as the caller's irqsave of it left them (HOG_IRQ_ASLOCK).
 */
static void restore_as_lock(struct tup *t, int prev, const char *lock)
{
	t->irq_lock = NULL;
	if (prev >= 0) {
		t->irq = prev;
	} else if (prev == -2 && lock && hog_expr_portable(lock)) {
		t->irq = HOG_IRQ_ASLOCK;
		t->irq_lock = lock;
	} else {
		t->irq = HOG_IRQ_CALLER;
	}
}


const struct hog_rule *rule_of(struct fs *fs, const char *name, enum hog_rule_kind k)
{
	return hog_rules_find(fs->c->rules, name, k);
}

int has_any_rule(struct fs *fs, const char *name)
{
	return name && hog_map_get(fs->c->rules->byname, name) != NULL;
}

const struct hog_summary *summary_of(struct fs *fs, const char *callee)
{
	if (!callee || !fs->c->lookup)
		return NULL;
	return fs->c->lookup(fs->c->lookup_ctx, fs->f, callee);
}

/*
 * A function we know nothing about, whose name the catalogue says
 * unlocks ("release-by-name": wbc_attach_and_unlock_inode,
 * unlock_page_lruvec in another directory), releases the innermost held
 * lock reached through one of its arguments: keeping such a lock would
 * blame everything after the call on it.
 */
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

/* Depths are bounded so that a loop that only ever disables still converges. */
static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* IRQs restored here (enable: known to be turned on) */
static void note_irq_on(struct fs *fs, int enable)
{
	if (!fs->recording)
		return;
	fs->bi[fs->cur_block].f.irq_on = 1;
	if (enable)
		fs->bi[fs->cur_block].f.irq_enable = 1;
}

/* The rules that say what a call does to the lock state. */
struct callrules {
	const struct hog_rule *lk, *iq, *pr, *pf;
	const struct hog_summary *s;	/* no rule: the callee's summary */
	const char *ret;		/* the returned value, in our terms */
	int try;			/* a trylock wrapper whose result is used: the cond of t's locks */
};

static void irq_rule(struct fs *fs, struct tup *t, const struct callv *cv,
		     const struct hog_rule *iq)
{
	switch (iq->op) {
	case HIRQ_SAVE:
		if (iq->flags == -2)
			fact_set(t, cv->ev->dst, FK_FLAGS, t->irq);
		t->irq = HOG_IRQ_OFF;
		break;
	case HIRQ_RESTORE:
		t->irq = irq_from_flags(t, cv, iq->flags);
		t->irq_lock = NULL;
		if (t->irq < 0)
			t->irq = HOG_IRQ_CALLER;
		note_irq_on(fs, t->irq == HOG_IRQ_ON);
		break;
	case HIRQ_DISABLE:
		t->irq = HOG_IRQ_OFF;
		break;
	case HIRQ_ENABLE:
		t->irq = HOG_IRQ_ON;
		note_irq_on(fs, 1);
		break;
	default:
		break;
	}
}

static void unlock_rule(struct fs *fs, struct tup *t, const struct callv *cv,
			const struct hog_rule *lk)
{
	const char *a = eng_arg_addr(cv, lk->arg);
	int prev = release(fs, t, a, NULL, lk->lock_kind);

	if (lk->irq == HIRQ_RESTORE) {
		t->irq = irq_from_flags(t, cv, lk->flags);
		t->irq_lock = NULL;
		if (t->irq < 0)
			restore_as_lock(t, prev, a);
	} else if (lk->irq == HIRQ_ENABLE) {
		t->irq = HOG_IRQ_ON;
		t->irq_lock = NULL;
	}
	if (lk->irq == HIRQ_RESTORE || lk->irq == HIRQ_ENABLE)
		note_irq_on(fs, t->irq == HOG_IRQ_ON);
}

/*
 * Acquire or trylock by rule.  Returns 1 if it put the failed outcome
 * of a trylock into out, and t is not to be added (its result unused:
 * nobody can know, assume it failed).
 */
static int lock_rule(struct fs *fs, struct tup *t, const struct callv *cv,
		     const struct hog_rule *lk, struct tset *out)
{
	const struct hog_event *e = cv->ev;
	struct tup fail = *t;
	struct held *h;
	int ok;

	if (lk->irq == HIRQ_SAVE) {
		if (lk->flags == -2 && lk->op == HOP_ACQUIRE)
			fact_set(t, e->dst, FK_FLAGS, t->irq);
		t->irq = HOG_IRQ_OFF;
	} else if (lk->irq == HIRQ_DISABLE) {
		t->irq = HOG_IRQ_OFF;
	}
	h = acquire(fs, t, eng_arg_addr(cv, lk->arg), NULL, lk->lock_kind, lk->sleeping, e->line);
	if (h && lk->bh_off)
		h->bh = 1;
	if (lk->op != HOP_TRYLOCK)
		return 0;
	if (e->dst < 0) {
		tset_add(out, &fail);
		return 1;
	}
	ok = lk->cond == HTRY_ZERO ? FK_ZERO : FK_NONZERO;
	fact_set(t, e->dst, ok, 0);
	fact_set(&fail, e->dst, ok == FK_ZERO ? FK_NONZERO : FK_ZERO, 0);
	tset_add(out, &fail);
	return 0;
}

/* The field the callee stored the lock it took in, in our terms: a second name for it. */
static void held_alias(struct fs *fs, struct held *h, const struct hog_lockfx *x,
		       const struct callv *cv, const struct callrules *r)
{
	if (!h || !x->alias)
		return;
	h->alias = hog_expr_subst(fs->c->strs, fs->c->rules, x->alias, cv->addr, cv->nargs,
				  r->ret);
}

/*
 * The IRQ state a callee's restore leaves, when it undoes the irqsave
 * of one of its locks: what the irqsave of those we held saved, if
 * they agree; -2 if we held none, -4 if we cannot tell (they disagree,
 * or a lock has no name here).
 */
static int aslock_of(const char *const *il, const int *prev, int n)
{
	int j, v = -2;

	for (j = 0; j < n; j++) {
		if (!il[j])
			return -4;
		if (prev[j] == -2)
			continue;
		if (v != -2 && v != prev[j])
			return -4;
		v = prev[j];
	}
	return v;
}

/*
 * Locks the callee gives up and takes, in our terms; fail: a trylock's
 * other outcome.  *aslock: aslock_of() the locks whose irqsave its
 * restore undoes; *asname: the one such lock in our terms, if it names
 * one only (NULL if it has no name here), else NULL.
 */
static void summary_locks(struct fs *fs, struct tup *t, struct tup *fail,
			  const struct callv *cv, const struct callrules *r, int *aslock,
			  const char **asname)
{
	const struct hog_summary *s = r->s;
	int k, j, irq_before = t->irq;
	const char *il[HOG_MAX_IRQ_LOCKS];
	int prev[HOG_MAX_IRQ_LOCKS];

	for (j = 0; j < s->nirq_lock; j++) {
		il[j] = hog_expr_subst(fs->c->strs, fs->c->rules, s->irq_lock[j], cv->addr,
				       cv->nargs, r->ret);
		prev[j] = -3;
	}
	for (k = 0; k < s->nrel; k++) {
		const char *a = hog_expr_subst(fs->c->strs, fs->c->rules, s->rel[k],
					       cv->addr, cv->nargs, r->ret);

		int p = release(fs, t, a, a ? NULL : hog_expr_class(fs->c->strs, s->rel[k]),
				NULL);

		for (j = 0; j < s->nirq_lock; j++)
			if (il[j] && a == il[j])
				prev[j] = p;
	}
	/* a lock whose irqsave it undoes was not one it released: look it up */
	for (j = 0; j < s->nirq_lock; j++)
		if (il[j] && prev[j] == -3) {
			int h = held_find(t, il[j], hog_expr_class(fs->c->strs, il[j]), NULL);

			prev[j] = h >= 0 ? t->held[h].irqprev : -2;
		}
	*aslock = aslock_of(il, prev, s->nirq_lock);
	*asname = s->nirq_lock == 1 ? il[0] : NULL;
	*fail = *t;
	for (k = 0; k < s->nacq; k++) {
		const struct hog_lockfx *x = &s->acq[k];
		const char *a = hog_expr_subst(fs->c->strs, fs->c->rules, x->expr,
					       cv->addr, cv->nargs, r->ret);
		/* t is the result r->try says took its locks; one of the other kind is fail's */
		int in_t = !x->cond || cv->ev->dst < 0 || x->cond == r->try;
		int in_fail = !x->cond || cv->ev->dst < 0 || x->cond != r->try;
		struct held *h = in_t ? acquire(fs, t, a, x->cls, x->kind, x->sleeping,
						cv->ev->line) : NULL;

		/* what its irqsave saved: the state at our call */
		if (h && x->irqsave)
			h->irqprev = irq_before;
		held_alias(fs, h, x, cv, r);
		if (in_fail) {
			h = acquire(fs, fail, a, x->cls, x->kind, x->sleeping, cv->ev->line);
			if (h && x->irqsave)
				h->irqprev = irq_before;
			held_alias(fs, h, x, cv, r);
		}
		/* it returned the object whose lock it took: not NULL */
		if (x->expr && hog_expr_is_ret(x->expr) && !x->cond)
			fact_set(t, cv->ev->dst, FK_NONZERO, 0);
	}
}

/*
 * Does the callee take a lock on only some of its returns, with IRQs
 * off on those (an irqsave, or local_irq_save() before the lock)?
 */
static int cond_irqoff(const struct hog_summary *s, int try)
{
	int k;

	for (k = 0; k < s->nacq; k++)
		if (s->acq[k].cond == try && s->acq[k].irqoff)
			return 1;
	return 0;
}

/*
 * if (gfpflags_allow_blocking(gfp)): the result is our argument's bits,
 * so the test is one of the argument, as "gfp & X" would be here.
 */
static void ret_mask_fact(struct fs *fs, struct tup *t, const struct callv *cv,
			  const struct hog_summary *s)
{
	const struct hog_val *a = s->ret_mparam < cv->ev->nargs ? &cv->ev->args[s->ret_mparam] : NULL;
	const struct fact *f = a && a->kind == HV_VAR ? fact_get(t, a->var) : NULL;
	int irq, k = a ? val_fact(fs, t, a, &irq) : FK_NONE, dst = cv->ev->dst;
	struct fact nf = { .var = dst, .kind = FK_PMASK, .irq = irq, .mask = s->ret_mask, .soft = 1 };

	if (a && a->kind == HV_CONST)
		fact_set(t, dst, a->cst & s->ret_mask ? FK_NONZERO : FK_ZERO, 0);
	else if (k == FK_POR && f && (f->mask & s->ret_mask))
		fact_set(t, dst, FK_NONZERO, 0);
	else if (k == FK_PMASK && f && !(f->mask & s->ret_mask))
		fact_set(t, dst, FK_ZERO, 0);
	else if (k == FK_PARAM || k == FK_POR || k == FK_PKEEP || (k == FK_PMASK && f)) {
		/* (flags & A) tested for B: the bits of both */
		if (k == FK_PMASK)
			nf.mask &= f->mask;
		fact_copy(t, dst, &nf);
	}
}

/* A call with no rule, through its summary. */
static void summary_call(struct fs *fs, struct tup *t, const struct callv *cv,
			 const struct callrules *r, struct tset *out)
{
	const struct hog_summary *s = r->s;
	int dst = cv->ev->dst, aslock;
	const char *asname;
	struct tup fail;

	summary_locks(fs, t, &fail, cv, r, &aslock, &asname);
	if (s->irq_exit == HOG_IRQ_ON || s->irq_exit >= HOG_IRQ_PARAM ||
	    s->irq_exit == HOG_IRQ_ASLOCK || s->irq_break)
		note_irq_on(fs, s->irq_exit == HOG_IRQ_ON || s->irq_break);
	if (s->irq_exit == HOG_IRQ_OFF || s->irq_exit == HOG_IRQ_ON) {
		t->irq = s->irq_exit;
	} else if (s->irq_exit >= HOG_IRQ_PARAM) {
		t->irq = irq_from_flags(t, cv, s->irq_exit - HOG_IRQ_PARAM);
		if (t->irq < 0)
			t->irq = HOG_IRQ_CALLER;
	} else if (s->irq_exit == HOG_IRQ_ASLOCK && (s->nirq_lock == 1 || aslock > -2)) {
		/* of several locks, known only from one we held (else as before the call) */
		restore_as_lock(t, aslock, asname);
	}
	t->preempt = clamp(t->preempt + s->preempt_delta, -4, 8);
	t->pf = clamp(t->pf + s->pf_delta, -4, 4);
	if (s->ret_zero && dst >= 0 && !r->try)
		fact_set(t, dst, s->ret_zero == 1 ? FK_ZERO : FK_NONZERO, 0);
	if (s->ret_mask && dst >= 0 && !r->try)
		ret_mask_fact(fs, t, cv, s);
	if (s->ret_key && dst >= 0 && !r->try)
		static_key_fact(t, dst, s->ret_key - 1);
	if (r->try) {
		/* try 2: the lock is taken on the zero return, an error means not */
		fail.irq = t->irq;
		fail.preempt = t->preempt;
		fact_set(t, dst, r->try == 2 ? FK_ZERO : FK_NONZERO, 0);
		fact_set(&fail, dst, r->try == 2 ? FK_NONZERO : FK_ZERO, 0);
		/* the returns that took it have IRQs off, the others maybe not */
		if (s->irq_exit == HOG_IRQ_CALLER && cond_irqoff(s, r->try))
			t->irq = HOG_IRQ_OFF;
		tset_add(out, &fail);
	}
}

/* No rule and no summary, but a name that says it unlocks. */
static int released_by_pattern(struct fs *fs, const struct callrules *r, const char *callee)
{
	return !r->s && !r->lk && !r->iq && !r->pr && !r->pf && hog_rules_release_by_name(fs->c->rules, callee) &&
	       !has_any_rule(fs, callee);
}

/*
 * cleanup.h's lock guards of a class with no rule (DEFINE_LOCK_GUARD_1(
 * task_rq_lock, ...), double_rq_lock): the constructor returns the
 * guard by value and the destructor finds its locks through that
 * memory, which the IR does not follow, so a release would match
 * nothing and the lock would stay held to the end of the caller (6.12's
 * sched_rr_get_interval(), then copy_to_user() "with runqueues held").
 * The constructor's locks are tagged with its class and its call; the
 * destructor, which both frontends place at the guard's own line and
 * column, gives up the group its constructor took there, and IRQs go
 * back to what the first of them saved.
 */
static const char *guard_name(struct fs *fs, const char *callee, const char *part)
{
	size_t n = callee ? strlen(callee) : 0, m = strlen(part);
	char *k;
	const char *r;

	if (n <= 6 + m || strncmp(callee, "class_", 6) || strcmp(callee + n - m, part))
		return NULL;
	k = hog_xasprintf("%.*s", (int)(n - m), callee);
	r = hog_intern(fs->c->strs, k);
	free(k);
	return r;
}

/* The constructor's locks: tagged with its class and call. */
static void guard_tag(struct fs *fs, struct tup *t, const struct callv *cv, int nheld_before)
{
	const char *g = guard_name(fs, cv->ev->callee, "_constructor");
	int i;

	for (i = nheld_before; g && i < t->nheld; i++) {
		t->held[i].guard = g;
		t->held[i].guard_at = cv->ev;
	}
}

/* The summary of a destructor that undoes something: a lock, IRQs, preemption. */
static int gives_up(const struct hog_summary *s)
{
	return s->nrel || s->nirq_lock || s->preempt_delta < 0 || s->irq_exit != HOG_IRQ_CALLER ||
	       s->irq_break;
}

static int same_place(const struct hog_event *a, const struct hog_event *b)
{
	return a->line == b->line && a->col == b->col;
}

/*
 * The destructor, in place of its summary: 1 if a guard of its class
 * is held.  It gives up the innermost group its own guard's constructor
 * took; with none left (lockhog-check may call one destructor twice on
 * a way out of nested scopes) it gives up nothing, since the group held
 * is an outer guard's.  A destructor that gives nothing up (a class
 * whose destructor only frees) keeps its summary.
 */
static int guard_release(struct fs *fs, struct tup *t, const struct callv *cv,
			 const struct hog_summary *s)
{
	const char *g = guard_name(fs, cv->ev->callee, "_destructor");
	const struct hog_event *at;
	int i, any = 0, irq = -1;

	for (i = 0; g && gives_up(s) && i < t->nheld; i++)
		any |= t->held[i].guard == g;
	if (!any)
		return 0;
	for (i = t->nheld - 1; i >= 0; i--)
		if (t->held[i].guard == g && same_place(t->held[i].guard_at, cv->ev))
			break;
	for (at = i >= 0 ? t->held[i].guard_at : NULL; i >= 0 && t->held[i].guard_at == at; i--) {
		if (t->held[i].irqprev >= 0)
			irq = t->held[i].irqprev;
		memmove(&t->held[i], &t->held[i + 1], (t->nheld - i - 1) * sizeof(t->held[0]));
		t->nheld--;
	}
	if (irq >= 0)
		t->irq = irq;
	/* what its summary does besides the locks: preempt_enable(), pagefault_enable() */
	t->preempt = clamp(t->preempt + s->preempt_delta, -4, 8);
	t->pf = clamp(t->pf + s->pf_delta, -4, 4);
	return 1;
}

/* One tuple through the call: into out, one or two of them. */
static void call_tuple(struct fs *fs, struct tup t, const struct callv *cv,
		       const struct callrules *r, struct tset *out)
{
	int irq_before = t.irq, nheld_before = t.nheld;
	struct hog_when cond;

	if (r->iq)
		irq_rule(fs, &t, cv, r->iq);
	if (r->pr && eng_when(fs, cv, &r->pr->when, &cond) == 1)
		t.preempt = clamp(t.preempt + r->pr->op, -4, 8);
	if (r->pf)
		t.pf = clamp(t.pf + r->pf->op, -4, 4);
	if (r->lk && r->lk->op == HOP_RELEASE)
		unlock_rule(fs, &t, cv, r->lk);
	else if (r->lk && lock_rule(fs, &t, cv, r->lk, out))
		return;
	if (released_by_pattern(fs, r, cv->ev->callee))
		unlock_by_name(fs, &t, cv);
	if (r->s && !r->lk && !r->iq && !r->pr && !r->pf) {
		if (!guard_release(fs, &t, cv, r->s))
			summary_call(fs, &t, cv, r, out);
		guard_tag(fs, &t, cv, nheld_before);
	}
	/* remember what an irqsave lock turned off, for drop_cookie_locks() */
	if (irq_before != HOG_IRQ_OFF && t.irq == HOG_IRQ_OFF && t.nheld > nheld_before &&
	    t.nheld > 0)
		t.held[t.nheld - 1].irqprev = irq_before;
	tset_add(out, &t);
}

/* Does the callee leave held a lock of the object it returns? */
static int returns_its_lock(const struct hog_summary *s)
{
	int k;

	for (k = 0; k < s->nacq; k++)
		if (s->acq[k].expr && (hog_expr_is_ret(s->acq[k].expr) ||
				       hog_expr_has_prefix(s->acq[k].expr, s->ret_addr)))
			return 1;
	return 0;
}

/* The address the call returns, bound to its result: page_zone(page), ... */
static void bind_result(struct fs *fs, const struct callv *cv, const struct hog_summary *s)
{
	const struct hog_event *e = cv->ev;
	const struct hog_rule *pt = rule_of(fs, e->callee, HR_PASSTHROUGH);
	const char *r;

	/*
	 * current: the running task, one object wherever it is read, so
	 * current->sighand->siglock taken in get_signal() is the lock
	 * do_signal_stop() gives up.  A per-CPU value ('#'), not a global's
	 * own memory: atomics on its fields are not on a shared line.
	 */
	if (e->dst >= 0 && hog_rules_is_current(fs->c->rules, e->callee)) {
		fs->bind[e->dst] = hog_intern(fs->c->strs, HOG_CURRENT_EXPR);
		return;
	}
	if (pt && e->dst >= 0 && eng_arg_addr(cv, pt->arg))
		fs->bind[e->dst] = eng_arg_addr(cv, pt->arg);
	if (!s || !s->ret_addr || e->dst < 0 || fs->bind[e->dst])
		return;
	r = hog_expr_subst(fs->c->strs, fs->c->rules, s->ret_addr, cv->addr, cv->nargs, NULL);
	/*
	 * A named variable (zone = page_zone(page)) names the object
	 * better than the expansion does, unless the expansion ties it
	 * to our parameters, which summaries need, or the callee returns
	 * the object whose lock it leaves held (rq = task_rq_lock(p, &rf)):
	 * the unlock that follows names the lock through the variable, and
	 * must find it.
	 */
	if (r && (r[0] == '$' || !var_name(fs->f, e->dst) || !*var_name(fs->f, e->dst) ||
		  returns_its_lock(s)))
		fs->bind[e->dst] = r;
}

/*
 * Applies a call to every tuple of the set; trylocks split a tuple in
 * two, one per outcome.
 */
void apply_call(struct fs *fs, struct tset *set, const struct callv *cv)
{
	const struct hog_event *e = cv->ev;
	struct callrules r = {
		.lk = rule_of(fs, e->callee, HR_LOCK),
		.iq = rule_of(fs, e->callee, HR_IRQ),
		.pr = rule_of(fs, e->callee, HR_PREEMPT),
		.pf = rule_of(fs, e->callee, HR_PAGEFAULT),
	};
	struct tset out = { 0 };
	int i, k;

	if (!has_any_rule(fs, e->callee))
		r.s = summary_of(fs, e->callee);
	bind_result(fs, cv, r.s);
	for (k = 0; r.s && k < r.s->nacq; k++)
		if (r.s->acq[k].cond && e->dst >= 0 && !r.try)
			r.try = r.s->acq[k].cond;
	if (r.s && e->dst >= 0) {
		char vb[32];

		snprintf(vb, sizeof(vb), "v%d", e->dst);
		r.ret = fs->bind[e->dst] ? fs->bind[e->dst] : hog_intern(fs->c->strs, vb);
	}
	for (i = 0; i < set->n; i++)
		call_tuple(fs, set->t[i], cv, &r, &out);
	tset_free(set);
	*set = out;
}

/* ---------- transfer ---------- */

/*
 * The name h answers to besides its own after v is stored where dst
 * loads it from: dst itself for the lock's address, dst/member for a
 * struct whose member the lock is (*krcp = krc_this_cpu_lock()).
 */
static const char *store_alias(struct fs *fs, const struct held *h, const char *v,
			       const char *dst)
{
	size_t n = strlen(v);

	if (h->expr == v)
		return dst;
	if (h->expr && !strncmp(h->expr, v, n) && h->expr[n] == '/' &&
	    !strchr(h->expr + n + 1, '/') && !strchr(h->expr + n + 1, '^'))
		return hog_expr_append(fs->c->strs, dst, h->expr + n);
	return h->alias;
}

/*
 * *(ptlp) = __ptl in pte_offset_map_lock(): later the lock is named
 * through the field (vmf->ptl), and must still be the same lock.  The
 * last store on each path is kept, and a lock held under one name also
 * answers to the other.
 */
void apply_store(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	const char *dst, *val;
	int i, j;

	if (e->nargs < 2)
		return;
	dst = val_addr(fs, &e->args[0]);
	val = val_addr(fs, &e->args[1]);
	if (!dst || !val)
		return;
	/* a callback registered (rules: context, rare), no lock pointer stored */
	if (hog_rules_callback_field(fs->c->rules, hog_expr_class(fs->c->strs, dst)))
		return;
	dst = hog_expr_append(fs->c->strs, dst, "^");
	for (i = 0; i < set->n; i++) {
		struct tup *t = &set->t[i];

		/* a copy of what the last store put in memory: a guard class copied */
		const char *v = val == t->store_from ? t->store_to : val;

		t->store_from = dst;
		t->store_to = v;
		for (j = 0; j < t->nheld; j++)
			t->held[j].alias = store_alias(fs, &t->held[j], v, dst);
	}
}

/*
 * The value copies and sign steps a frontend lowers: "=" (a parameter
 * about to be tested, a same-width conversion), "neg", "negu" (the
 * negation of an unsigned count) and "u>>".  1 if
 * e was one of them.
 */
static int sign_assign(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	int i, irq, k;

	if (strcmp(e->callee, "=") && strcmp(e->callee, "neg") && strcmp(e->callee, "negu") &&
	    strcmp(e->callee, "u>>"))
		return 0;
	for (i = 0; i < set->n; i++) {
		struct tup *t = &set->t[i];

		k = val_fact(fs, t, &e->args[0], &irq);
		if (!strcmp(e->callee, "negu"))
			/* -count: a count is taken to be below 2^31, so never positive */
			k = k == FK_POS || k == FK_NONZERO ? FK_NEG : k == FK_ZERO ? FK_ZERO : FK_NONPOS;
		else if (e->callee[0] == 'n')
			/* -x of 0 < x < 2^(w-1) is negative, of 0 <= x never positive; of a negative x, not known */
			k = k == FK_POS ? FK_NEG : k == FK_ZERO ? FK_ZERO :
			    k == FK_SMALL ? FK_NONPOS : FK_NONE;
		else if (e->callee[0] == 'u')
			k = FK_SMALL;
		if (k == FK_PMASK || k == FK_POR || k == FK_PKEEP || k == FK_PNOT)
			fact_copy(t, e->dst, e->args[0].kind == HV_VAR ?
				  fact_get(t, e->args[0].var) : NULL);
		else
			fact_set(t, e->dst, k, irq);
	}
	return 1;
}

static void assign_facts(struct fs *fs, struct tset *set, const struct hog_event *e)
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
		int on = m && m->kind == HV_CONST && m->cst;

		for (i = 0; i < set->n; i++) {
			int irq, k = val_fact(fs, &set->t[i], &e->args[0], &irq);
			const struct fact *f = e->args[0].kind == HV_VAR ?
					       fact_get(&set->t[i], e->args[0].var) : NULL;

			/* flags |= FGP_LOCK: still the parameter's other bits */
			if (on && k == FK_PARAM)
				fact_set_or(&set->t[i], e->dst, irq, m->cst);
			else if (on && k == FK_POR && f)
				fact_set_or(&set->t[i], e->dst, irq, f->mask | m->cst);
			/*
			 * A retry's flags |= X met the first try (PKEEP), then
			 * |= Y again: the bits outside both are still the
			 * parameter's, which is all its later tests need.
			 */
			else if (on && k == FK_PKEEP && f)
				fact_copy(&set->t[i], e->dst, &(struct fact){ .var = e->dst,
					  .kind = FK_PKEEP, .irq = irq, .mask = f->mask | m->cst });
			else
				fact_set(&set->t[i], e->dst, on ? FK_NONZERO : FK_NONE, 0);
		}
		return;
	}
	if (e->callee && !strcmp(e->callee, "&")) {
		const struct hog_val *a = &e->args[0], *m = e->nargs > 1 ? &e->args[1] : NULL;

		for (i = 0; i < set->n; i++) {
			int irq, k = val_fact(fs, &set->t[i], a, &irq);

			const struct fact *f = a->kind == HV_VAR ? fact_get(&set->t[i], a->var) : NULL;

			if (k == FK_PARAM && m && m->kind == HV_CONST)
				fact_set_mask(&set->t[i], e->dst, irq, m->cst);
			else if (k == FK_POR && f && m && m->kind == HV_CONST && (f->mask & m->cst))
				fact_set(&set->t[i], e->dst, FK_NONZERO, 0);
			else if ((k == FK_POR || k == FK_PKEEP) && f && m && m->kind == HV_CONST &&
				 !(f->mask & m->cst))
				fact_set_mask(&set->t[i], e->dst, irq, m->cst);
			else
				fact_set(&set->t[i], e->dst, FK_NONE, 0);
		}
		return;
	}
	if (e->callee && sign_assign(fs, set, e))
		return;
	for (i = 0; i < set->n; i++) {
		struct tup *t = &set->t[i];
		int irq, k = val_fact(fs, t, &e->args[0], &irq);

		/* !!(gfp & X), or a copy: non-zero exactly when the bits are; ! turns it round */
		if ((k == FK_PMASK || k == FK_PNOT) && e->args[0].kind == HV_VAR &&
		    (!e->callee || !strcmp(e->callee, "!!") || !strcmp(e->callee, "!"))) {
			struct fact nf = *fact_get(t, e->args[0].var);

			if (e->callee && !strcmp(e->callee, "!"))
				nf.kind = k == FK_PMASK ? FK_PNOT : FK_PMASK;
			nf.soft |= e->callee != NULL;
			nf.var = e->dst;
			fact_copy(t, e->dst, &nf);
			continue;
		}
		/*
		 * !!param, !param ("ret && slow_ms" as GCC folds it): a test of
		 * its whole value, all its bits (PC_NONZERO)
		 */
		if (k == FK_PARAM && e->callee &&
		    (!strcmp(e->callee, "!!") || !strcmp(e->callee, "!"))) {
			struct fact nf = { .var = e->dst, .irq = irq, .mask = PC_NONZERO, .soft = 1,
					   .kind = strcmp(e->callee, "!") ? FK_PMASK : FK_PNOT };

			fact_copy(t, e->dst, &nf);
			continue;
		}
		if (k == FK_PMASK || k == FK_POR || k == FK_PKEEP || k == FK_PNOT ||
		    (k == FK_PARAM && e->callee))
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

void apply_assign(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	if (load_assign(fs, set, e))
		return;
	assign_facts(fs, set, e);
	/* a context test's result, masked or negated: what its tests rule out */
	ctx_test_assign(fs, set, e);
}
