// SPDX-License-Identifier: GPL-2.0
/*
 * The engine: one function's CFG walked to a fixed point of lock state
 * (engine.h), then one recording pass over it that calls the checkers
 * (checker.h) and gathers what the summary says to the callers.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "expr.h"

/*
 * What the path knows of a returned pointer it tested: "return sighand;"
 * after "if (sighand == NULL) break;" (the plugin lowers the test to
 * v = !sighand on the loaded pointer) returns zero on the way that
 * took the test and non-zero on the other, so that a lock taken only on
 * the second (__lock_task_sighand()) is taken iff it returns non-NULL.
 */
static int tested_ret(struct fs *fs, const struct tup *t, const struct hog_val *v)
{
	int b, i, var;

	if (v->kind != HV_ADDR)
		return FK_NONE;
	/* a call's result, returned by its name ("&v18") and tested as itself */
	var = hog_expr_var(v->addr);
	if (var >= 0 && strpbrk(v->addr + 1, "/^#["))
		var = -1;
	for (b = 0; b < fs->f->nblocks; b++)
		for (i = 0; i < fs->f->blocks[b].nev; i++) {
			const struct hog_event *e = &fs->f->blocks[b].ev[i];
			const struct hog_val *a = &e->args[0];
			const struct fact *f;

			if (e->kind != HE_ASSIGN || !e->callee || e->dst < 0 || e->nargs != 1)
				continue;
			if (!(a->kind == HV_ADDR && !strcmp(a->addr, v->addr)) &&
			    !(a->kind == HV_VAR && var >= 0 && a->var == var))
				continue;
			f = fact_get(t, e->dst);
			if (!f || (f->kind != FK_ZERO && f->kind != FK_NONZERO))
				continue;
			if (!strcmp(e->callee, "!"))
				return f->kind == FK_ZERO ? FK_NONZERO : FK_ZERO;
			if (!strcmp(e->callee, "!!"))
				return f->kind;
		}
	return FK_NONE;
}

/* What a return hands back: a phi of one address is that address */
static const struct hog_val *ret_value(struct fs *fs, const struct hog_val *v)
{
	const struct hog_val *one;

	if (v->kind != HV_VAR || v->var < 0 || v->var >= fs->f->nvars || fs->bind[v->var] ||
	    !(one = phi_same_addr(fs->f, v->var)))
		return v;
	return one;
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
			if (x->retkind == FK_PMASK) {
				const struct hog_val *v = &e->args[0];
				int var = v->kind == HV_VAR ? v->var : hog_expr_var(v->addr);

				x->retparam = irq;
				x->retmask = fact_get(&set->t[i], var)->mask;
			}
			if (x->retkind == FK_KEY)
				x->retkey = irq;
			if (x->retkind == FK_NONE)
				x->retkind = tested_ret(fs, &set->t[i], &e->args[0]);
			x->retaddr = val_addr(fs, ret_value(fs, &e->args[0]));
			/* a guard constructor returns the lock it stored in its class */
			if (x->retaddr && x->retaddr == set->t[i].store_from)
				x->retaddr = set->t[i].store_to;
		}
		hog_vec_push(&fs->exits, x);
	}
}

/*
 * A callback contract (rules: callback-break): the function's indirect
 * call may drop and retake the innermost spinning lock held at it
 * (list_lru's isolate callback, which says so by returning LRU_RETRY).
 * Like cond_resched_lock(), the call gives the lock up: a loop around
 * it is not a section under that lock, and a lock of our caller's is
 * broken for them too.  irqs=on: IRQs come in with the lock.
 */
static void callback_break(struct fs *fs, const struct tset *set)
{
	const char *lock;
	int i, j, irqs;

	if (!hog_rules_callback_break(fs->c->rules, fs->f->name, &irqs, &lock))
		return;
	if (irqs)
		fs->bi[fs->cur_block].f.irq_on = 1;
	if (lock) {
		/* the caller's lock, named by the rule: given up for them too */
		note_release(fs, lock, hog_expr_class(fs->c->strs, lock));
		add_everrel(fs, lock);
		return;
	}
	for (i = 0; i < set->n; i++)
		for (j = set->t[i].nheld - 1; j >= 0; j--) {
			const struct held *h = &set->t[i].held[j];

			if (h->sleeping)
				continue;
			note_release(fs, h->expr, h->cls);
			if (h->expr && hog_expr_portable(h->expr))
				add_everrel(fs, h->expr);
			break;
		}
}

/*
 * A callback contract (rules: callback-release): the function's
 * indirect call gives up a lock it holds there (kref_put_lock() calls
 * release() with the lock taken by refcount_dec_and_lock(), and the
 * release function drops it).
 */
static void callback_release(struct fs *fs, struct tset *set)
{
	const char *lock = hog_rules_callback_release(fs->c->rules, fs->f->name);
	int i;

	for (i = 0; lock && i < set->n; i++)
		release_lock(fs, &set->t[i], lock);
}

/*
 * After a call to a function the rules name rare (WARN()'s report, a
 * debug dump, a teardown), the path is an error or teardown path.  Not
 * after any call marked __cold: printk() is, and pr_info() opens many a
 * normal path.
 */
static void cold_call(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	int i;

	if (!e->callee || !hog_rules_is_rare(fs->c->rules, e->callee))
		return;
	for (i = 0; i < set->n; i++)
		if (!set->t[i].cold)
			set->t[i].cold = e->callee;
}

/* A variable defined again (the next round of a loop) names another object. */
static void forget_dst(struct tset *set, int var)
{
	int i;

	for (i = 0; var >= 0 && i < set->n; i++)
		ref_forget_var(&set->t[i], var);
}

static void transfer(struct fs *fs, int bno, struct tset *set)
{
	const struct hog_block *b = &fs->f->blocks[bno];
	int i;

	fs->cur_block = bno;
	for (i = 0; i < b->nev && set->n; i++) {
		const struct hog_event *e = &b->ev[i];
		struct callv cv;

		forget_dst(set, e->dst);
		if (fs->nload && (e->kind == HE_CALL || e->kind == HE_ICALL ||
				  e->kind == HE_STORE || e->kind == HE_ATOMIC))
			load_forget_signs(fs, set);
		switch (e->kind) {
		case HE_CALL:
			call_prepare(fs, e, &cv);
			if (fs->recording)
				call_costs(fs, set, &cv);
			ref_put_done(fs, set, &cv);
			apply_call(fs, set, &cv);
			ref_get_split(fs, set, &cv);
			ctx_test_call(fs, set, e);
			static_key_call(fs, set, e);
			cold_call(fs, set, e);
			last_put_call(fs, set, e);
			break;
		case HE_ICALL:
			if (fs->recording) {
				fs->icalls++;
				callback_break(fs, set);
			}
			callback_release(fs, set);
			break;
		case HE_ATOMIC:
			if (fs->recording)
				atomic_event(fs, set, e->nargs ? val_addr(fs, &e->args[0]) : NULL,
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
		case HE_HELD:
			apply_held(fs, set, e);
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
/* The variable a value is, or -1. */
static int val_var(const struct hog_val *v)
{
	if (v->kind == HV_VAR)
		return v->var;
	return v->kind == HV_ADDR && !strpbrk(v->addr + 1, "/^#[") ? hog_expr_var(v->addr) : -1;
}

/* A sign test's way out: 0 if the path cannot take it, else its fact made. */
static int sign_edge(struct tup *t, const struct hog_block *b, int si)
{
	const struct fact *f = fact_get(t, b->cond_var);
	int kind = f ? f->kind : FK_NONE;
	int pos = (b->cond == HC_GTZ) == (si == 0);

	if (pos && (kind == FK_ZERO || kind == FK_NEG || kind == FK_NONPOS))
		return 0;
	if (!pos && kind == FK_POS)
		return 0;
	if (b->succ[0] != b->succ[1] && pos && kind != FK_PARAM)
		fact_set(t, b->cond_var, FK_POS, 0);
	return 1;
}

/*
 * if (spool->min_hpages != -1) on a field whose rule says it is never
 * below -1: past the test it is at least 0, so -spool->min_hpages is
 * never positive.  Only a value no test said more of.
 */
static void floor_edge(struct fs *fs, struct tup *t, const struct hog_block *b)
{
	const struct fact *f = fact_get(t, b->cond_var);
	long long min;
	int k;

	if (!var_floor(fs, b->cond_var, &min) || b->cond_val != min || b->cond_hi < min ||
	    b->cond_hi == LLONG_MAX || (f && (f->ncst || (f->kind != FK_NONE && f->kind != FK_SMALL))))
		return;
	k = floor_kind(b->cond_hi + 1);
	if (k == FK_NONE || (f && f->kind == k))
		return;
	fact_set(t, b->cond_var, k, 0);
	load_edge(fs, t, b->cond_var);
}

/* The values lo..hi as a set of 0..63, or 0 when some is outside. */
static long long value_set(long long lo, long long hi)
{
	if (lo < 0 || hi > 63 || hi < lo)
		return 0;
	return (long long)((hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) & ~((1ULL << lo) - 1));
}

/*
 * switch (mode) on a parameter, or "mode == K": the path's condition is
 * the set of values the way takes, so that a callee's costs hold only
 * for the modes that reach them (__vma_reservation_common()'s
 * region_del() for VMA_ADD_RESV and VMA_DEL_RESV, not VMA_NEEDS_RESV).
 * A later test of the same parameter narrows the set; the first test of
 * a parameter on the path wins otherwise, as for bits tests.
 */
static void eqk_param(struct tup *t, const struct fact *f, long long set, int in)
{
	if (!set || !f || f->kind != FK_PARAM)
		return;
	if (t->pc_param == f->irq && t->pc_op == 'i') {
		t->pc_mask = in ? t->pc_mask & set : t->pc_mask & ~set;
		return;
	}
	if (t->pc_param == f->irq && t->pc_op == 'x') {
		/* values past 63 stay "none of these" until a test takes them in */
		if (in) {
			t->pc_op = 'i';
			t->pc_mask = set & ~t->pc_mask;
		} else {
			t->pc_mask |= set;
		}
		return;
	}
	if (t->pc_param >= 0)
		return;
	t->pc_param = f->irq;
	t->pc_op = in ? 'i' : 'x';
	t->pc_mask = set;
	t->pc_soft = 0;
}

/*
 * if (mode == M_FREE): 0 if the constants the path's value may be say it
 * cannot take this way; the way taken narrows them.
 */
static int eqk_edge(struct fs *fs, struct tup *t, const struct hog_block *b, int si)
{
	if (b->succ[0] == b->succ[1])
		return 1;
	eqk_param(t, fact_get(t, b->cond_var), value_set(b->cond_val, b->cond_hi), si == 0);
	if (!fact_cst_range(t, b->cond_var, b->cond_val, b->cond_hi, si == 0))
		return 0;
	if (si == 1)
		floor_edge(fs, t, b);
	return 1;
}

/* A phi of an HC_EQK variable keeps the constant it is given. */
static void phi_cst(struct fs *fs, struct tup *t, const struct tup *before,
		    const struct hog_phi *p, const struct hog_val *v)
{
	const struct fact *f;

	if (!fs->eqvar[p->dst])
		return;
	if (v->kind == HV_CONST) {
		fact_set_cst(t, p->dst, v->cst);
		return;
	}
	f = v->kind == HV_VAR ? fact_get(before, v->var) : NULL;
	if (f && f->ncst)
		fact_copy(t, p->dst, f);
}

/*
 * Does a test of a parameter (kind FK_PMASK: its bits; FK_PARAM: the
 * whole value against zero) become the path's condition?  The first one
 * does; a bits test also replaces an earlier test of a whole value
 * ("if (!nr) return;" before "if (flags & FGP_LOCK)"), which says less
 * about what the flags decide.
 */
static int pc_takes(const struct tup *t, int kind)
{
	if (t->pc_param < 0)
		return 1;
	return kind == FK_PMASK && t->pc_mask == PC_NONZERO;
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
			int bits_nz = kind == FK_PNOT ? !want_nz : want_nz;

			if ((kind == FK_PMASK || kind == FK_PARAM || kind == FK_PNOT) &&
			    pc_takes(&t, kind == FK_PNOT ? FK_PMASK : kind)) {
				t.pc_param = f->irq;
				t.pc_mask = kind == FK_PARAM ? PC_NONZERO : f->mask;
				t.pc_op = bits_nz ? '&' : '~';
				t.pc_soft = kind != FK_PARAM && f->soft;
			}
			if (kind == FK_CTX && !ctx_test_edge(fs, &t, f, want_nz))
				continue;
			if (kind == FK_KEY)
				static_key_edge(fs, &t, f, want_nz);
			unset_field_edge(fs, &t, b->cond_var, want_nz);
			if (kind == FK_POR)
				kind = f->mask ? FK_NONZERO : FK_NONE;
			if (kind == FK_FLAGS || kind == FK_PMASK || kind == FK_PARAM || kind == FK_PKEEP ||
			    kind == FK_CTX || kind == FK_PNOT || kind == FK_KEY)
				kind = FK_NONE;
			if (want_nz && kind == FK_ZERO)
				continue;
			if (!want_nz && (kind == FK_NONZERO || kind == FK_POS || kind == FK_NEG))
				continue;
			if (b->succ[0] != b->succ[1]) {
				fact_set(&t, b->cond_var, !want_nz ? FK_ZERO :
					 kind == FK_SMALL || kind == FK_POS ? FK_POS :
					 kind == FK_NEG || kind == FK_NONPOS ? FK_NEG : FK_NONZERO, 0);
				load_edge(fs, &t, b->cond_var);
			}
			if (!want_nz && b->succ[0] != b->succ[1])
				drop_cookie_locks(fs, &t, b->cond_var);
			if (want_nz && b->succ[0] != b->succ[1])
				drop_cookie_locks_not(fs, &t, b->cond_var);
		}
		if ((b->cond == HC_GTZ || b->cond == HC_LEZ) && si < 2 &&
		    !sign_edge(&t, b, si))
			continue;
		if (b->cond == HC_EQK && si < 2 && !eqk_edge(fs, &t, b, si))
			continue;
		/* phis read the values as they leave this block */
		{
			struct tup before = t;

			for (j = 0; j < s->nphi; j++) {
				const struct hog_phi *p = &s->phi[j];

				ref_forget_var(&t, p->dst);
				for (k = 0; k < p->n; k++)
					if (p->pred[k] == bno) {
						int irq, kind = val_fact(fs, &before, &p->val[k], &irq);

						if (kind == FK_POR || kind == FK_PMASK || kind == FK_PKEEP ||
						    kind == FK_PNOT)
							fact_copy(&t, p->dst, fact_get(&before,
								  val_var(&p->val[k])));
						else
							fact_set(&t, p->dst, kind, irq);
						phi_cst(fs, &t, &before, p, &p->val[k]);
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


/* ---------- what checkers may ask ---------- */

const struct hog_func *eng_func(struct fs *fs)
{
	return fs->f;
}

const struct hog_rules *eng_rules(struct fs *fs)
{
	return fs->c->rules;
}

const char *eng_intern(struct fs *fs, const char *s)
{
	return hog_intern(fs->c->strs, s);
}

void *eng_alloc(struct fs *fs, size_t size)
{
	return hog_alloc(fs->c->scratch ? fs->c->scratch : fs->c->arena, size);
}

/* n bytes at p copied where summaries and raws live; NULL for none */
void *eng_keep(struct fs *fs, const void *p, size_t n)
{
	void *q;

	if (!p || !n || !fs->c->scratch)
		return (void *)p;
	q = hog_alloc(fs->c->arena, n);
	memcpy(q, p, n);
	return q;
}

const struct hog_rule *eng_rule(struct fs *fs, const char *name, enum hog_rule_kind k)
{
	return rule_of(fs, name, k);
}

void eng_block(struct fs *fs, int b, struct eng_block *out)
{
	*out = fs->bi[b].f;
}

/* ---------- loops ---------- */

static int released_in(struct fs *fs, const struct hog_loop *l, const struct held *h)
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

/* Does block b test what a lockbreak op=test call (need_resched()) returned, in b? */
static int tests_lockbreak(struct fs *fs, const struct hog_block *b)
{
	int v = b->cond_var, i;

	if ((b->cond != HC_NEZ && b->cond != HC_EQZ) || v < 0)
		return 0;
	for (i = b->nev - 1; i >= 0; i--) {
		const struct hog_event *e = &b->ev[i];
		const struct hog_rule *r;

		if (e->dst != v)
			continue;
		/* through one copy or ! of the result */
		if (e->kind == HE_ASSIGN && e->nargs == 1 && e->args[0].kind == HV_VAR) {
			v = e->args[0].var;
			continue;
		}
		r = e->kind == HE_CALL ? rule_of(fs, e->callee, HR_LOCKBREAK) : NULL;
		return r && r->op == HBRK_TEST;
	}
	return 0;
}

/*
 * "if (need_resched()) { spin_unlock(&l); cond_resched(); goto again; }"
 * (evict_inodes()): an exit on a lockbreak test into a block that gives
 * h up.  The section ends whenever the scheduler wants the CPU, as
 * cond_resched_lock() would end it inside the loop.
 */
static int released_on_break(struct fs *fs, const struct hog_loop *l, const struct held *h)
{
	int i, j, k;

	for (i = 0; i < l->nblocks; i++) {
		const struct hog_block *b = &fs->f->blocks[l->blocks[i]];

		if (b->nsucc != 2 || !tests_lockbreak(fs, b))
			continue;
		for (j = 0; j < b->nsucc; j++) {
			int x = b->succ[j], steps;

			/* straight on from the exit, to the unlock after the loop */
			for (steps = 0; steps < 4 && x >= 0 && !hog_loop_has(l, x); steps++) {
				const struct binfo *bx = &fs->bi[x];

				for (k = 0; k < bx->released.n; k++)
					if (held_is(h, bx->released.v[k]))
						return 1;
				x = fs->f->blocks[x].nsucc == 1 ? fs->f->blocks[x].succ[0] : -1;
			}
		}
	}
	return 0;
}

int eng_loop_breaks(struct fs *fs, const struct hog_loop *l, const char **brk, int max)
{
	const struct tset *hin = &fs->in[l->header];
	int j, k, n = 0;

	for (j = 0; j < hin->n; j++)
		for (k = 0; k < hin->t[j].nheld && n < max; k++) {
			const struct held *h = &hin->t[j].held[k];

			if ((released_in(fs, l, h) || released_on_break(fs, l, h)) && h->expr)
				brk[n++] = h->expr;
		}
	for (j = 0; j < l->nblocks; j++) {
		const struct binfo *b = &fs->bi[l->blocks[j]];

		for (k = 0; k < b->released.n && n < max; k++)
			if (hog_expr_portable(b->released.v[k]))
				brk[n++] = b->released.v[k];
	}
	return n;
}

static int set_holds(const struct tset *set, const char *e)
{
	int j, k;

	for (j = 0; j < set->n; j++)
		for (k = 0; k < set->t[j].nheld; k++)
			if (held_is(&set->t[j].held[k], e))
				return 1;
	return 0;
}

int eng_loop_holds_more(struct fs *fs, const struct hog_loop *a, const struct hog_loop *b)
{
	const struct tset *ha = &fs->in[a->header], *hb = &fs->in[b->header];
	int j, k;

	for (j = 0; j < ha->n; j++)
		for (k = 0; k < ha->t[j].nheld; k++)
			if (ha->t[j].held[k].expr && !set_holds(hb, ha->t[j].held[k].expr))
				return 1;
	return 0;
}

/* The states on the edges into the loop's header from outside it. */
static void loop_entry(struct fs *fs, const struct hog_loop *l, struct tset *entry)
{
	const struct hog_block *h = &fs->f->blocks[l->header];
	int j, k, save = fs->recording;

	for (j = 0; j < h->npred; j++) {
		int p = h->pred[j];
		struct tset o = { 0 };

		if (hog_loop_has(l, p))
			continue;
		tset_copy(&o, &fs->in[p]);
		fs->recording = 0;
		transfer(fs, p, &o);
		fs->recording = save;
		for (k = 0; k < fs->f->blocks[p].nsucc; k++)
			if (fs->f->blocks[p].succ[k] == l->header)
				edge(fs, p, k, &o, entry);
		tset_free(&o);
	}
	if (!entry->n)
		tset_copy(entry, &fs->in[l->header]);
}

static int nraws(struct fs *fs)
{
	return fs->c->raws ? fs->c->raws->n : 0;
}

void eng_loop_cost(struct fs *fs, const struct hog_loop *l, struct hog_cost *c)
{
	struct loop_rec *lr = &fs->lrec[l - fs->f->loops];
	struct tset entry = { 0 };
	int ncost = fs->costs.n;

	loop_entry(fs, l, &entry);
	fs->cur_block = l->header;
	lr->raw0 = nraws(fs);
	eng_cost_at(fs, &entry, c);
	eng_loop_when(fs, l, c);
	when_from_field(fs, c);
	lr->raw1 = nraws(fs);
	lr->c = c;
	lr->in_summary = fs->costs.n > ncost;
	tset_free(&entry);
}

/* Did the loop's own finding name the lock this raw finding names? */
static int same_section(struct fs *fs, const struct hog_raw *r, const struct loop_rec *lr)
{
	int i;

	for (i = lr->raw0; i < lr->raw1; i++) {
		const struct hog_raw *o = fs->c->raws->v[i];

		if (o->path.lock.name == r->path.lock.name)
			return 1;
	}
	return 0;
}

/*
 * The outermost reported loop whose body holds block b and whose own
 * finding is under r's lock (r NULL: the outermost whose cost reached
 * the summary whole, no lock given up on the way round); -1 none.
 */
static int outer_loop(struct fs *fs, int b, const struct hog_raw *r)
{
	const struct hog_func *f = fs->f;
	int i, best = -1;

	for (i = 0; i < f->nloops; i++) {
		const struct loop_rec *lr = &fs->lrec[i];

		if (!lr->c || !hog_loop_has(&f->loops[i], b))
			continue;
		if (r ? !same_section(fs, r, lr) : (!lr->in_summary || lr->c->nbreak))
			continue;
		if (best < 0 || f->loops[i].nblocks > f->loops[best].nblocks)
			best = i;
	}
	return best;
}

static const struct hog_step *site_of(const struct hog_path *p)
{
	return &p->chain[p->nchain - 1];
}

/* The same callee loop reached under the same lock: the nest's, wherever the call. */
static int same_inner(const struct hog_raw *a, const struct hog_raw *b)
{
	const struct hog_step *sa = site_of(&a->path), *sb = site_of(&b->path);

	return sa->func == sb->func && sa->line == sb->line &&
	       a->path.lock.name == b->path.lock.name;
}

/* b is the same callee loop as a, and folded */
static int same_cost_site(const struct hog_cost *a, const struct hog_cost *b)
{
	const struct hog_step *sa = &a->chain[a->nchain - 1], *sb = &b->chain[b->nchain - 1];

	return b->nest.func && sa->func == sb->func && sa->line == sb->line;
}

/* Folds the raws made at candidate n into loops of ours; returns how many. */
static int fold_raws(struct fs *fs, const struct nest_cand *n)
{
	int j, l, k = 0;

	for (j = n->raw0; j < n->raw1; j++) {
		struct hog_raw *r = fs->c->raws->v[j];

		if ((l = outer_loop(fs, n->block, r)) >= 0) {
			r->path.nest = fs->lrec[l].c->chain[0];
			k++;
		}
	}
	return k;
}

/* A raw reached outside our loop that another call runs inside it: folded too. */
static void fold_alike(struct fs *fs, struct hog_raw *r)
{
	int i, j;

	for (i = 0; i < fs->nested.n && !r->path.nest.func; i++) {
		const struct nest_cand *n = fs->nested.v[i];

		for (j = n->raw0; j < n->raw1; j++) {
			const struct hog_raw *o = fs->c->raws->v[j];

			if (o != r && o->path.nest.func && same_inner(o, r)) {
				r->path.nest = o->path.nest;
				break;
			}
		}
	}
}

/*
 * One loop nest, one finding: a callee's loop reached from the body of
 * a loop of ours that is itself a finding under the same lock is folded
 * into ours (its raws and its summary cost say so; prog.c makes it a
 * note).  Under a lock taken inside our loop's body, the outermost loop
 * that runs under it is the one; a lock our loop gives up on the way
 * round leaves the callee's loop a section of its own.  The same callee
 * loop reached also outside the loop, under the same lock, is folded
 * all the same: the outer loop's finding runs it, and more often.
 */
static void fold_nests(struct fs *fs)
{
	int i, j, l;

	for (i = 0; i < fs->nested.n; i++) {
		struct nest_cand *n = fs->nested.v[i];

		fold_raws(fs, n);
		if ((l = outer_loop(fs, n->block, NULL)) >= 0)
			n->c->nest = fs->lrec[l].c->chain[0];
	}
	for (i = 0; i < fs->nested.n; i++) {
		struct nest_cand *n = fs->nested.v[i];

		for (j = n->raw0; j < n->raw1; j++)
			fold_alike(fs, fs->c->raws->v[j]);
		for (j = 0; j < fs->nested.n && !n->c->nest.func; j++)
			if (same_cost_site(n->c, ((struct nest_cand *)fs->nested.v[j])->c))
				n->c->nest = ((struct nest_cand *)fs->nested.v[j])->c->nest;
	}
}

/* ---------- the walk ---------- */

/* Reverse post order of the blocks reachable from the entry. */
static int *block_order(const struct hog_func *f, int *norder)
{
	int *order = hog_xmalloc(sizeof(int) * f->nblocks), i;
	char *seen = hog_xcalloc(f->nblocks, 1);

	*norder = 0;
	rpo_visit(f, 0, seen, order, norder);
	for (i = 0; i < *norder / 2; i++) {
		int t = order[i];

		order[i] = order[*norder - 1 - i];
		order[*norder - 1 - i] = t;
	}
	free(seen);
	return order;
}

/* Moves block b's out-states along its edges; marks the successors that changed. */
static int propagate(struct fs *fs, int b, char *dirty)
{
	const struct hog_block *bb = &fs->f->blocks[b];
	struct tset out = { 0 };
	int j, changed = 0;

	tset_copy(&out, &fs->in[b]);
	transfer(fs, b, &out);
	for (j = 0; j < bb->nsucc; j++) {
		int sb = bb->succ[j];
		struct tset nin = { 0 };

		tset_copy(&nin, &fs->in[sb]);
		edge(fs, b, j, &out, &nin);
		tset_compact(&nin, fs->collapse);
		if (!tset_eq(&nin, &fs->in[sb])) {
			tset_free(&fs->in[sb]);
			fs->in[sb] = nin;
			dirty[sb] = 1;
			changed = 1;
		} else {
			tset_free(&nin);
		}
	}
	tset_free(&out);
	return changed;
}

/*
 * Iterates to a fixed point; past WIDEN_PASS the states at each block
 * collapse to one, and past MAX_PASSES the function is given up (-1).
 */
static int fixed_point(struct fs *fs, const int *order, int norder)
{
	char *dirty = hog_xcalloc(fs->f->nblocks, 1);
	int pass, i, changed, ret = 0;

	dirty[0] = 1;
	for (pass = 0, changed = 1; changed; pass++) {
		if (pass == WIDEN_PASS)
			fs->collapse = 1;
		if (pass == MAX_PASSES) {
			ret = -1;
			fs->limits |= HOG_LIMIT_PASSES;
			break;
		}
		changed = 0;
		for (i = 0; i < norder; i++) {
			int b = order[i];

			if (!dirty[b])
				continue;
			dirty[b] = 0;
			changed |= propagate(fs, b, dirty);
		}
	}
	free(dirty);
	return ret;
}

/* Cooper, Harvey and Kennedy's iteration on the reverse post order. */
static int dom_meet(const int *idom, const int *rpo, int a, int b)
{
	while (a != b) {
		while (rpo[a] > rpo[b])
			a = idom[a];
		while (rpo[b] > rpo[a])
			b = idom[b];
	}
	return a;
}

static int *dominators(const struct hog_func *f, const int *order, int norder)
{
	int *idom = hog_xmalloc(sizeof(int) * f->nblocks);
	int *rpo = hog_xmalloc(sizeof(int) * f->nblocks);
	int i, j, changed = 1;

	for (i = 0; i < f->nblocks; i++)
		idom[i] = rpo[i] = -1;
	for (i = 0; i < norder; i++)
		rpo[order[i]] = i;
	idom[order[0]] = order[0];
	while (changed) {
		changed = 0;
		for (i = 1; i < norder; i++) {
			const struct hog_block *b = &f->blocks[order[i]];
			int d = -1;

			for (j = 0; j < b->npred; j++) {
				int p = b->pred[j];

				if (rpo[p] < 0 || idom[p] < 0)
					continue;
				d = d < 0 ? p : dom_meet(idom, rpo, p, d);
			}
			if (d >= 0 && idom[order[i]] != d) {
				idom[order[i]] = d;
				changed = 1;
			}
		}
	}
	idom[order[0]] = -1;
	free(rpo);
	return idom;
}

/*
 * A parameter's sign tested (nr_pages > 0 in memcg_account_kmem()): the
 * way out where it is positive costs only callers passing a positive
 * value ('>' 0), the other only those passing one below 1 ('<' 1).
 */
static void note_sign_conds(struct fs *fs, int bno, const struct tset *out)
{
	const struct hog_block *b = &fs->f->blocks[bno];
	struct econd e = { 1, -1, '>', 0 };
	int i;

	for (i = 0; i < out->n && e.state > 0; i++) {
		const struct fact *f = fact_get(&out->t[i], b->cond_var);

		if (!f || f->kind != FK_PARAM || (i && f->irq != e.param))
			e.state = -1;
		else
			e.param = f->irq;
	}
	fs->econd[2 * bno + (b->cond == HC_GTZ ? 0 : 1)] = e;
	e.op = '<';
	e.mask = 1;
	fs->econd[2 * bno + (b->cond == HC_GTZ ? 1 : 0)] = e;
}

/*
 * After the final pass's transfer of a test block: what each way out says
 * about a parameter, if every state leaving it agrees (fgp_flags &
 * FGP_STABLE on all of them).
 */
static void note_edge_conds(struct fs *fs, int bno, const struct tset *out)
{
	const struct hog_block *b = &fs->f->blocks[bno];
	struct econd e = { 1, -1, 0, 0 };
	int i;

	if ((b->cond == HC_GTZ || b->cond == HC_LEZ) && b->nsucc == 2 &&
	    b->succ[0] != b->succ[1] && out->n) {
		note_sign_conds(fs, bno, out);
		return;
	}
	if ((b->cond != HC_NEZ && b->cond != HC_EQZ) || b->nsucc != 2 ||
	    b->succ[0] == b->succ[1] || !out->n)
		return;
	for (i = 0; i < out->n && e.state > 0; i++) {
		const struct fact *f = fact_get(&out->t[i], b->cond_var);

		long long mask = f && f->kind == FK_PARAM ? PC_NONZERO : f ? f->mask : 0;

		if (!f || (f->kind != FK_PMASK && f->kind != FK_PARAM) ||
		    (i && (f->irq != e.param || mask != e.mask)))
			e.state = -1;
		else
			e.param = f->irq, e.mask = mask;
	}
	e.op = b->cond == HC_NEZ ? '&' : '~';
	fs->econd[2 * bno] = e;
	e.op = e.op == '&' ? '~' : '&';
	fs->econd[2 * bno + 1] = e;
}

/* The final pass: costs, findings and exits recorded on the fixed point. */
static void record(struct fs *fs, const int *order, int norder)
{
	int i, k;

	fs->recording = 1;
	memset(fs->bind, 0, sizeof(*fs->bind) * (fs->f->nvars + 1));
	for (i = 0; i < norder; i++) {
		struct tset out = { 0 };

		tset_copy(&out, &fs->in[order[i]]);
		transfer(fs, order[i], &out);
		note_edge_conds(fs, order[i], &out);
		tset_free(&out);
	}
	for (k = 0; k < hog_nkinds(); k++)
		if (hog_checker(k)->done)
			hog_checker(k)->done(fs);
	fold_nests(fs);
}

/*
 * The variables HC_EQK branches test, and the phis that feed them
 * through other phis: only these carry constants (engine.h, struct fact).
 */
static char *find_eqvars(const struct hog_func *f)
{
	char *m = hog_xcalloc(f->nvars + 1, 1);
	int b, j, k, more = 1;

	for (b = 0; b < f->nblocks; b++)
		if (f->blocks[b].cond == HC_EQK)
			m[f->blocks[b].cond_var] = 1;
	while (more) {
		more = 0;
		for (b = 0; b < f->nblocks; b++)
			for (j = 0; j < f->blocks[b].nphi; j++) {
				const struct hog_phi *p = &f->blocks[b].phi[j];

				for (k = 0; m[p->dst] && k < p->n; k++)
					if (p->val[k].kind == HV_VAR && !m[p->val[k].var]) {
						m[p->val[k].var] = 1;
						more = 1;
					}
			}
	}
	return m;
}

static void fs_free(struct fs *fs)
{
	int i;

	for (i = 0; i < fs->f->nblocks; i++) {
		tset_free(&fs->in[i]);
		hog_vec_free(&fs->bi[i].released);
	}
	for (i = 0; i < fs->exits.n; i++)
		free(fs->exits.v[i]);
	hog_vec_free(&fs->exits);
	hog_vec_free(&fs->costs);
	hog_vec_free(&fs->everrel);
	hog_vec_free(&fs->atomics);
	hog_vec_free(&fs->nested);
	free(fs->lrec);
	free(fs->in);
	free(fs->bind);
	free(fs->bi);
	free(fs->idom);
	free(fs->econd);
	free(fs->eqvar);
	free(fs->unset);
	free(fs->notname);
	free(fs->phiname);
	free(fs->loadtie);
	free(fs->negop);
	free(fs->fcond);
	free(fs->rflag);
}

int hog_flow_function(struct hog_flow_ctx *c, const struct hog_func *f,
		      struct hog_summary *s)
{
	struct fs fs = { .c = c, .f = f, .s = s };
	struct tup init = { .irq = HOG_IRQ_CALLER, .pc_param = -1 };
	int *order, norder, ret;

	s->fn = f;
	if (f->nblocks < 1)
		return -1;
	fs.in = hog_xcalloc(f->nblocks, sizeof(*fs.in));
	fs.bind = hog_xcalloc(f->nvars + 1, sizeof(*fs.bind));
	fs.bi = hog_xcalloc(f->nblocks, sizeof(*fs.bi));
	fs.lrec = hog_xcalloc(f->nloops + 1, sizeof(*fs.lrec));
	order = block_order(f, &norder);
	fs.idom = dominators(f, order, norder);
	fs.econd = hog_xcalloc(2 * f->nblocks, sizeof(*fs.econd));
	fs.eqvar = find_eqvars(f);
	fs.unset = unset_vars(c->rules, f);
	state_limits(&fs.limits);
	seed_entry(&fs, &init);
	tset_add(&fs.in[0], &init);
	find_named_phis(&fs);
	find_cookies(&fs);
	find_result_flags(&fs);
	find_loads(&fs);
	find_field_tests(&fs);
	find_pmaps(&fs);
	ret = fixed_point(&fs, order, norder);
	record(&fs, order, norder);
	finish_summary(&fs);
	s->limits = fs.limits;
	find_pure(&fs);
	state_limits(NULL);
	fs_free(&fs);
	free(order);
	return ret;
}
