// SPDX-License-Identifier: GPL-2.0
/*
 * Costs: made by the checkers, recorded here against the lock states
 * at the point they happen.  A cost becomes a raw finding for each path
 * that holds something, and enters the summary so that the callers see
 * it at their call; the costs a callee's summary carries are recorded
 * at each call to it the same way, whatever their kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "expr.h"

static struct hog_step step_at(struct fs *fs, int line, int col)
{
	struct hog_step st = { fs->f->name, fs->f->file, line, col };

	return st;
}

struct hog_cost *eng_cost_new(struct fs *fs, enum hog_kind kind, const char *cls,
				 const char *reason, const char *callee, int listed,
				 int line, int col, const struct hog_cost *tail)
{
	struct hog_cost *c = eng_alloc(fs, sizeof(*c));
	int n = 1 + (tail ? tail->nchain : 0);

	c->kind = kind;
	c->cls = cls;
	c->reason = reason;
	c->callee = callee;
	c->listed = listed;
	c->nchain = n;
	c->chain = eng_alloc(fs, sizeof(*c->chain) * n);
	c->chain[0] = step_at(fs, line, col);
	if (tail) {
		memcpy(c->chain + 1, tail->chain, sizeof(*c->chain) * tail->nchain);
		c->irqs_off = tail->irqs_off;
		c->irq_on = tail->irq_on;
		c->batched = tail->batched;
		c->offkey = tail->offkey;
		c->ctxclear = tail->ctxclear;
		c->inner = tail->inner;
		c->preempt_ok = tail->preempt_ok;
		c->nest = tail->nest;
		c->bound = tail->bound;
		c->scales = tail->scales;
		c->cold = tail->cold;
		c->lastput = tail->lastput ? tail->lastput : tail->lastput_here;
		c->unless_intr = tail->unless_intr;
	}
	c->when.arg = -1;
	c->count_shift = -1;
	return c;
}

void add_unique(const char **v, int *n, int max, const char *e)
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
	const char **o = n ? eng_alloc(fs, sizeof(char *) * n) : NULL;
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

/* The innermost held lock of that kind (sleeping or not) the cost does not give up; -1 none. */
static int innermost(struct fs *fs, const struct tup *t, int sleeping, const char *const *rel,
		     int nrel, const char *const *brk, int nbrk)
{
	int i;

	for (i = t->nheld - 1; i >= 0; i--) {
		const struct held *h = &t->held[i];

		if (h->sleeping != sleeping || h->maybe_released || class_in(fs, h, rel, nrel) ||
		    class_in(fs, h, brk, nbrk))
			continue;
		return i;
	}
	return -1;
}

/* A lock of h's class, not h, that rel or brk gives up: its display name, or NULL. */
static const char *same_class_given_up(struct fs *fs, const struct held *h,
				       const char *const *rel, int nrel,
				       const char *const *brk, int nbrk)
{
	const char *e = NULL;
	char *n;
	int i;

	for (i = 0; i < nrel + nbrk && !e && h->cls; i++) {
		const char *r = i < nrel ? rel[i] : brk[i - nrel];

		if (r && !held_is(h, r) && hog_expr_class(fs->c->strs, r) == h->cls)
			e = r;
	}
	if (!e)
		return NULL;
	n = hog_expr_display(e, (const char *const *)fs->f->params, fs->f->nparams,
			     (const char *const *)fs->f->vnames, fs->f->vnames ? fs->f->nvnames : 0);
	e = hog_intern(fs->c->strs, n);
	free(n);
	return e;
}

static void name_held(struct fs *fs, const struct held *h, struct hog_lockref *out)
{
	char *n = held_name(fs, h);

	out->name = hog_intern(fs->c->strs, n);
	free(n);
	out->cls = h->cls;
	out->kind = h->kind;
	out->sleeping = h->sleeping;
	out->line = h->line;
	/* a callback's context is held on entry by its registration, no annotation */
	out->entry = h->entry && !h->ctx;
	out->global = !h->ctx && hog_expr_is_global(h->expr) && !strchr(h->expr, '[');
	if (h->ctx && fs->c->entry) {
		out->reg = fs->c->entry->reg;
		out->reg_var = fs->c->entry->reg_var;
	}
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
	if ((i = innermost(fs, t, 0, rel, nrel, brk, nbrk)) >= 0) {
		name_held(fs, &t->held[i], out);
		out->maybe_rel = same_class_given_up(fs, &t->held[i], rel, nrel, brk, nbrk);
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
	if (hog_kind_sleeps(c->kind))
		return 0;
	if ((i = innermost(fs, t, 1, rel, nrel, brk, nbrk)) >= 0) {
		name_held(fs, &t->held[i], out);
		return 1;
	}
	return 0;
}

/*
 * Does this path's test of a parameter's bits rule out condition w on
 * the same parameter?  "if (!(gfp & __GFP_DIRECT_RECLAIM)) kmalloc(gfp)":
 * every bit w needs set, the path saw clear, or the other way round.
 */
static int path_excludes(const struct tup *t, const struct hog_when *w)
{
	if (t->pc_param < 0 || t->pc_param != w->arg || w->field)
		return 0;
	if (w->op == '&' && t->pc_op == '~')
		return (w->val & ~t->pc_mask) == 0;
	if (w->op == '~' && t->pc_op == '&')
		return (t->pc_mask & ~w->val) == 0;
	return 0;
}

static void emit_raw(struct fs *fs, const struct tup *t, const struct hog_cost *c,
		     const char *const *rel, int nrel, int above)
{
	struct hog_raw *r;
	struct hog_lockref lock;
	struct tup tt;

	if (!fs->c->raws)
		return;
	if (t->pf > 0 && c->cls && !strcmp(c->cls, HOG_CLS_FAULT))
		return;		/* faults off: the copy fails instead of sleeping */
	/*
	 * A context test on the way rules this path's context out; one that
	 * IRQs are on says nothing of ours past a callee that turned them on.
	 */
	if (ctx_excluded(fs, t, c->irq_on ? c->ctxclear & ~HOG_CTX_IRQS_ON : c->ctxclear))
		return;
	if ((c->irq_on && t->irq == HOG_IRQ_OFF) || (c->preempt_ok && t->preempt > 0)) {
		tt = *t;
		/* the callee turned IRQs back on before the cost */
		if (c->irq_on && t->irq == HOG_IRQ_OFF)
			tt.irq = HOG_IRQ_ON;
		/* preemption off by the cost's contract is not an atomic context for it */
		tt.preempt = t->preempt > c->preempt_ok ? t->preempt - c->preempt_ok : 0;
		t = &tt;
	}
	if (above && path_excludes(t, &c->when))
		return;		/* the holder tested its parameter the other way */
	if (!pick_lock(fs, t, c, rel, nrel, c->brk, c->nbreak, &lock))
		return;
	r = hog_alloc(fs->c->arena, sizeof(*r));
	r->kind = c->kind;
	r->cls = c->cls;
	r->reason = c->reason;
	r->callee = c->callee;
	r->listed = c->listed;
	r->batched = c->batched || t->batched;
	r->offkey = c->offkey ? c->offkey : t->offkey;
	r->inner = c->inner;
	r->path.holder = fs->f->name;
	r->path.file = c->chain[0].file;
	r->path.line = c->chain[0].line;
	r->path.col = c->chain[0].col;
	r->path.nchain = c->nchain;
	r->path.chain = eng_keep(fs, c->chain, sizeof(*c->chain) * c->nchain);
	/* a hard IRQ or IRQs-off callback runs with IRQs off throughout */
	r->path.irqs_off = t->irq == HOG_IRQ_OFF || c->irqs_off ||
			   (fs->c->entry && fs->c->entry->rule->kind != HOG_IN_SOFTIRQ);
	r->path.lock = lock;
	r->path.nest = c->nest;
	r->path.bound = c->bound;
	r->path.scales = c->scales;
	r->path.cold = c->cold ? c->cold : t->cold;
	r->path.lastput = c->lastput;
	r->path.batched = r->batched;
	r->path.count_param = -1;
	r->path.count_shift = -1;
	r->path.count_fn = NULL;
	r->path.when.arg = -1;
	r->path.when2.arg = -1;
	if (c->when.arg >= 0 && !c->when.field) {
		r->path.when = c->when;
		r->path.when_fn = fs->f;
		r->path.when_above = above;
	}
	if (above && t->pc_param >= 0) {
		r->path.when2.arg = t->pc_param;
		r->path.when2.op = t->pc_op;
		r->path.when2.val = t->pc_mask;
		r->path.when2.inferred = 1;
	}
	if (c->kind == HK_LOOP && c->when.inferred && c->when.op == '>' && c->when.arg >= 0) {
		r->path.count_param = c->when.arg;
		r->path.count_shift = c->count_shift;
		r->path.count_fn = fs->f;
	}
	hog_vec_push(fs->c->raws, r);
}

/* The innermost lock of ours held at the cost, for callers' messages. */
static const char *inner_name(struct fs *fs, const struct tset *set)
{
	int i, j;

	for (i = 0; i < set->n; i++)
		for (j = set->t[i].nheld - 1; j >= 0; j--)
			if (!set->t[i].held[j].sleeping && !set->t[i].held[j].entry) {
				char *n = held_name(fs, &set->t[i].held[j]);
				const char *r = hog_intern(fs->c->strs, n);

				free(n);
				return r;
			}
	return NULL;
}

/*
 * Every path here tested bits of the same parameter: the cost is the
 * callers' only if they pass such bits.  Paths that tested different
 * bits set join as "any of them".
 */
static void when_from_paths(struct hog_cost *c, const struct tset *set)
{
	long long mask;
	int i, same, soft;

	if (c->when.arg >= 0 || !set->n)
		return;
	same = set->t[0].pc_param >= 0;
	soft = set->t[0].pc_soft;
	mask = set->t[0].pc_mask;
	for (i = 1; i < set->n && same; i++) {
		if (set->t[i].pc_param != set->t[0].pc_param ||
		    set->t[i].pc_op != set->t[0].pc_op)
			same = 0;
		else if (set->t[i].pc_mask != mask && (set->t[0].pc_op == '&' || set->t[0].pc_op == 'i'))
			mask |= set->t[i].pc_mask;
		else if (set->t[i].pc_mask != mask && set->t[0].pc_op == 'x')
			mask &= set->t[i].pc_mask;
		else if (set->t[i].pc_mask != mask)
			same = 0;
		soft |= set->t[i].pc_soft;
	}
	if (same) {
		c->when.arg = set->t[0].pc_param;
		c->when.op = set->t[0].pc_op;
		c->when.val = mask;
		/*
		 * A test of the whole value: callers pass counts and
		 * results as often as constants, and one whose value the
		 * analysis cannot read keeps the cost.
		 */
		c->when.inferred = soft ? 2 : mask == PC_NONZERO || c->when.op == 'i' ||
				   c->when.op == 'x';
	}
}

/* Which of b's two ways leads to block to: 0 or 1, -1 if neither alone does. */
static int succ_index(const struct hog_block *b, int to)
{
	if (b->nsucc != 2 || b->succ[0] == b->succ[1])
		return b->nsucc == 1 && b->succ[0] == to ? 0 : -1;
	return b->succ[0] == to ? 0 : b->succ[1] == to ? 1 : -1;
}

/* The test of a parameter's bits on the edge from -> to, NULL if none. */
static const struct econd *edge_test(struct fs *fs, int from, int to)
{
	int si = succ_index(&fs->f->blocks[from], to);

	return si >= 0 && fs->econd[2 * from + si].state > 0 ? &fs->econd[2 * from + si] : NULL;
}

/*
 * The tests of parameter bits every way to block `from` passes, nearest
 * first: those on the edges into it and into its dominators that are
 * their only way in, up to (not past) block `stop`, and inside loop l
 * if one is given.  At most max of them in e[]; returns how many.
 */
static int dom_tests(struct fs *fs, int from, int stop, const struct hog_loop *l,
		     const struct econd **e, int max)
{
	const struct hog_func *f = fs->f;
	int b, n = 0, steps = 0;

	for (b = from; n < max && b != stop && b > 0 && steps++ < f->nblocks; b = fs->idom[b]) {
		const struct econd *ec;

		if (l && !hog_loop_has(l, b))
			break;
		if (f->blocks[b].npred == 1 && (ec = edge_test(fs, f->blocks[b].pred[0], b)))
			e[n++] = ec;
	}
	return n;
}

/*
 * The nearest test of a parameter's bits on the one way from block from
 * to block to: the edge's own, else one every way to from passes.
 * NULL if none.
 */
const struct econd *eng_way_test(struct fs *fs, int from, int to)
{
	const struct econd *e;

	if (!fs->econd)
		return NULL;
	if ((e = edge_test(fs, from, to)))
		return e;
	return fs->idom && dom_tests(fs, from, -1, NULL, &e, 1) ? e : NULL;
}

/*
 * No path condition: the nearest test of a parameter's bits whose one
 * way out is the only way to the cost (fgp_flags & FGP_STABLE before
 * folio_wait_stable()), however the paths differed before it.  The
 * cost applies only when callers pass such bits; any such test is a
 * condition every path to the cost met, and the nearest is the one that
 * guards it.
 */
static void when_from_dominators(struct fs *fs, struct hog_cost *c)
{
	const struct econd *e;

	if (c->when.arg >= 0 || !fs->idom || fs->cur_block < 0 ||
	    !dom_tests(fs, fs->cur_block, -1, NULL, &e, 1))
		return;
	c->when.arg = e->param;
	c->when.op = e->op;
	c->when.val = e->mask;
	c->when.inferred = 1;
}

/*
 * The tests of parameter bits every way round through the edge q -> to
 * of loop l passes: the edge's own, then dom_tests() up to the header.
 */
static int round_tests(struct fs *fs, const struct hog_loop *l, int q, int to,
		       const struct econd **e, int max)
{
	int n = !!(e[0] = edge_test(fs, q, to));

	return n + dom_tests(fs, q, l->header, l, e + n, max - n);
}

#define MAX_ROUND_TESTS 16

/*
 * "if (!delta) return 0; ... if (delta > 0) gather_surplus_pages()"
 * (hugetlb_acct_memory()): the paths' test of the whole value says only
 * that it is not zero, the sign test every way to the cost passes says
 * which side.  The cost is then the callers' only for a positive value
 * ('>' 0), or a negative one ('<' 0), so a caller passing
 * -spool->min_hpages, never positive, does not reach it.  Not for a
 * loop, whose '>' says what its count follows.
 */
static void when_signed(struct fs *fs, struct hog_cost *c)
{
	const struct econd *e[MAX_ROUND_TESTS];
	int i, n;

	if (c->kind == HK_LOOP || c->when.arg < 0 || c->when.field || c->when.op != '&' ||
	    c->when.val != PC_NONZERO || !fs->idom || fs->cur_block < 0)
		return;
	n = dom_tests(fs, fs->cur_block, -1, NULL, e, MAX_ROUND_TESTS);
	for (i = 0; i < n; i++)
		if (e[i]->param == c->when.arg && (e[i]->op == '>' || e[i]->op == '<')) {
			/* '>' 0 stays; '<' 1 and not zero is '<' 0 */
			c->when.op = e[i]->op;
			c->when.val = 0;
			c->when.inferred = 1;
			return;
		}
}

/*
 * What one way round needs of parameter arg: the bits that must be
 * clear ('~', all of them) or the bits one of which must be set ('&').
 */
static void round_needs(const struct econd **e, int n, int arg, long long *clear, long long *set)
{
	int i;

	*clear = 0;
	*set = 0;
	for (i = 0; i < n; i++) {
		if (e[i]->param != arg)
			continue;
		if (e[i]->op == '~')
			*clear |= e[i]->mask;
		else if (e[i]->op == '&' && !*set)
			*set = e[i]->mask;
	}
}

/* No events but stores of constants or of unknown values (docs/ir.md, w): no work. */
static int only_field_stores(const struct hog_block *b)
{
	int i;

	for (i = 0; i < b->nev; i++)
		if (b->ev[i].kind != HE_STORE || b->ev[i].nargs < 2 ||
		    b->ev[i].args[1].kind == HV_ADDR)
			return 0;
	return 1;
}

/*
 * A loop goes round only on the ways that reach a back edge.  When every
 * such way tests the same parameter's bits the same way (rpm_suspend()'s
 * "goto repeat"s all run only when !(rpmflags & RPM_ASYNC)), the loop's
 * cost needs those bits: a caller passing RPM_ASYNC has no loop.  A back
 * edge from an empty block that only joins the others is read through
 * to the edges into it.
 */
void eng_loop_when(struct fs *fs, const struct hog_loop *l, struct hog_cost *c)
{
	const struct hog_func *f = fs->f;
	const struct hog_block *h = &f->blocks[l->header];
	const struct econd *e[MAX_ROUND_TESTS];
	long long clear = -1, set = 0, cl, st;
	int arg = -1, j, k, nway = 0;

	if (c->when.arg >= 0 || !fs->idom)
		return;
	for (j = 0; j < h->npred; j++) {
		int p = h->pred[j];
		const struct hog_block *pb = &f->blocks[p];
		int joins = only_field_stores(pb) && pb->nphi == 0 && pb->nsucc == 1 &&
			    p != l->header;

		if (!hog_loop_has(l, p))
			continue;
		for (k = 0; k < (joins ? pb->npred : 1); k++) {
			int q = joins ? pb->pred[k] : p, to = joins ? p : l->header, n;

			if (!hog_loop_has(l, q))
				return;
			n = round_tests(fs, l, q, to, e, MAX_ROUND_TESTS);
			if (!n)
				return;
			if (arg < 0)
				arg = e[0]->param;
			round_needs(e, n, arg, &cl, &st);
			clear &= cl;
			set = st && (nway == 0 || set) ? set | st : 0;
			nway++;
		}
	}
	if (!nway || arg < 0 || (!clear && !set))
		return;
	c->when.arg = arg;
	c->when.op = clear ? '~' : '&';
	c->when.val = clear ? clear : set;
	c->when.inferred = 1;
}

/* A fault on user memory with page faults off on every path fails instead of sleeping. */
static int faults_off(const struct hog_cost *c, const struct tset *set)
{
	int i;

	if (!c->cls || strcmp(c->cls, HOG_CLS_FAULT) || !set->n)
		return 0;
	for (i = 0; i < set->n; i++)
		if (set->t[i].pf <= 0)
			return 0;
	return 1;
}

/*
 * For callers: the preemption the cost expects, less what every path
 * here turned off, and more what every path here turned back on
 * (__percpu_down_read()'s preempt_enable() before it waits: the
 * caller's preempt_disable() is not an atomic context for the wait).
 */
static void contract_up(const struct tset *set, struct hog_cost *c)
{
	int i, least, most;

	if (!set->n)
		return;
	least = most = set->t[0].preempt;
	for (i = 1; i < set->n; i++) {
		if (set->t[i].preempt < least)
			least = set->t[i].preempt;
		if (set->t[i].preempt > most)
			most = set->t[i].preempt;
	}
	if (least > 0)
		c->preempt_ok = least >= c->preempt_ok ? 0 : c->preempt_ok - least;
	else if (most < 0)
		c->preempt_ok -= most;
}

/* For callers: entry locks any path gave up before the cost. */
static void given_up(struct fs *fs, const struct tset *set, struct hog_cost *c)
{
	const char *rel[MAX_REL * 2];
	int i, j, nrel = 0;

	for (j = 0; j < c->nrel; j++)
		if (hog_expr_portable(c->rel[j]))
			add_unique(rel, &nrel, MAX_REL * 2, c->rel[j]);
	for (i = 0; i < set->n; i++)
		for (j = 0; j < set->t[i].nrel; j++)
			add_unique(rel, &nrel, MAX_REL * 2, set->t[i].rel[j]);
	c->rel = eng_alloc(fs, sizeof(char *) * (nrel ? nrel : 1));
	memcpy(c->rel, rel, sizeof(char *) * nrel);
	c->nrel = nrel;
}

/* What every path, or some path, to the cost says about IRQs and batching. */
/* The call that rarely runs every state passed, NULL if some did not. */
static const char *set_cold(const struct tset *set)
{
	int i;

	for (i = 0; i < set->n; i++)
		if (!set->t[i].cold)
			return NULL;
	return set->n ? set->t[0].cold : NULL;
}

/*
 * in_interrupt() is true on every path: a lock that masks softirqs is
 * held (spin_lock_bh()), or the function runs as a softirq or hard IRQ
 * callback.
 */
static int set_in_interrupt(const struct tset *set)
{
	int i, j;

	for (i = 0; i < set->n; i++) {
		for (j = 0; j < set->t[i].nheld; j++)
			if (set->t[i].held[j].bh)
				break;
		if (j == set->t[i].nheld)
			return 0;
	}
	return set->n > 0;
}

/* The dec-and-test every state went past with a non-zero result, NULL if some did not. */
static const char *set_lastput(const struct tset *set)
{
	int i;

	for (i = 0; i < set->n; i++)
		if (!set->t[i].lastput)
			return NULL;
	return set->n ? set->t[0].lastput : NULL;
}

static void path_flags(const struct tset *set, struct hog_cost *c)
{
	int i, alloff = set->n > 0, allbatched = set->n > 0, clear = ~0;
	int key = set->n > 0 ? set->t[0].offkey : 0;

	for (i = 0; i < set->n; i++) {
		const struct tup *t = &set->t[i];

		clear &= t->ctxclear;
		if (t->offkey != key)
			key = 0;
		if (t->irq != HOG_IRQ_OFF)
			alloff = 0;
		if (!t->batched)
			allbatched = 0;
		/*
		 * IRQs turned on, or restored from the caller's flags, on some
		 * path before the cost: the caller's "IRQs off" does not hold there.
		 */
		if (t->irq == HOG_IRQ_ON || t->irq >= HOG_IRQ_PARAM || t->irq == HOG_IRQ_ASLOCK)
			c->irq_on = 1;
	}
	if (alloff && !c->irq_on)
		c->irqs_off = 1;
	if (allbatched)
		c->batched = 1;
	/* past a call that rarely runs on every path: an error path */
	if (!c->cold)
		c->cold = set_cold(set);
	/* past the last put on every path: the release, for our callers */
	if (!c->lastput_here)
		c->lastput_here = set_lastput(set);
	if (!c->offkey)
		c->offkey = key;
	if (set->n)
		c->ctxclear |= clear;
}

/* The shortest chain to c: its own, or one of its other ways. */
static int shortest_chain(const struct hog_cost *c)
{
	int n = c->nchain, i;

	for (i = 0; i < c->nways; i++)
		if (c->ways[i].nchain < n)
			n = c->ways[i].nchain;
	return n;
}

/* Is a chain of n steps deeper than the analysis follows (rules: loop chain=)? */
static int too_deep(struct fs *fs, int n)
{
	return n > fs->c->rules->loop.max_chain + 1;
}

/*
 * A test found on the way here, where the call had none, holds for
 * each way the call always took; a way with a test of its own cannot
 * say both, so then the ways go, and the test decides alone, as it did
 * before ways.
 */
static void test_on_ways(struct hog_cost *c)
{
	int i;

	for (i = 0; i < c->nways; i++)
		if (c->ways[i].when.arg >= 0) {
			c->nways = 0;
			c->ways = NULL;
			return;
		}
	for (i = 0; i < c->nways; i++)
		c->ways[i].when = c->when;
}

/*
 * Records a cost at this point: into the summary (for our callers) and,
 * for each path that holds something, as a raw finding.
 */
void eng_cost_at(struct fs *fs, const struct tset *set, struct hog_cost *c)
{
	int i, k, tested = c->when.arg >= 0;

	if (too_deep(fs, shortest_chain(c)))
		return;
	when_from_paths(c, set);
	when_from_dominators(fs, c);
	when_signed(fs, c);
	/* a loop's own condition (eng_loop_when()) comes first: eng_loop_cost() */
	if (c->kind != HK_LOOP && when_from_field(fs, c) && !c->offkey)
		c->offkey = fs->c->notroot->key;
	if (!tested && c->when.arg >= 0)
		test_on_ways(c);
	if (faults_off(c, set))
		return;
	for (i = 0; i < set->n; i++)
		emit_raw(fs, &set->t[i], c, c->rel, c->nrel, 0);
	contract_up(set, c);
	given_up(fs, set, c);
	path_flags(set, c);
	if (!c->inner)
		c->inner = inner_name(fs, set);
	for (i = 0, k = 0; i < c->nbreak; i++)
		if (hog_expr_portable(c->brk[i]))
			c->brk[k++] = c->brk[i];
	c->nbreak = k;
	hog_vec_push(&fs->costs, c);
}

void eng_cost_for_callers(struct fs *fs, struct hog_cost *c)
{
	hog_vec_push(&fs->costs, c);
}

/*
 * A cost whose condition only our callers can decide (on our own
 * parameter's bits or value), reached with locks held here: the summary
 * carries it to the callers, and each path that holds something makes
 * a raw finding that stands only if some caller passes a value meeting
 * the condition (prog.c, decide_ways()): holder(d, 0) calling a helper
 * that sleeps unless flags & ASYNC, under the holder's own lock.
 */
static void cost_decided_above(struct fs *fs, const struct tset *set, struct hog_cost *c)
{
	int i;

	if (!too_deep(fs, shortest_chain(c)) && !faults_off(c, set))
		for (i = 0; i < set->n; i++)
			emit_raw(fs, &set->t[i], c, c->rel, c->nrel, 1);
	eng_cost_for_callers(fs, c);
}

/*
 * How much a call weighs in a loop body, to name the heaviest one:
 * 0 trivial, 1 unknown, 2 non-trivial, more by the class of the worst
 * cost it carries (its rank base: a tree flush or an unbounded loop
 * outweighs a seqcount read; sleeping classes not) and then by how many
 * it carries.
 */
#define WEIGHT_CLASS 64		/* one point of rank base outweighs this many costs */

/*
 * A sleeping class adds nothing: a loop's cond_resched() or kmalloc() is
 * its resched point or its allocation, not the work that makes it long
 * (and a sleep under a spinning lock is check_sleep's error anyway).
 */
static int class_weight(struct fs *fs, const char *cls)
{
	int base = hog_rules_rank_base(fs->c->rules, cls);

	if (hog_cls_sleeps(cls) || base <= 0)
		return 0;
	return WEIGHT_CLASS * base;
}

static int cost_weight(struct fs *fs, const struct hog_cost *c)
{
	return 2 + class_weight(fs, c->cls);
}

/*
 * Rarely runs: marked __cold (printk, dev_err, panic, __init), or a
 * rare entry of the rules (WARN()'s __warn_printk, a teardown), which
 * rarely runs whoever calls it.
 */
static int is_cold(struct fs *fs, const char *callee, const struct hog_summary *s)
{
	return (s && s->fn && (s->fn->flags & HOG_FN_COLD)) ||
	       (callee && hog_rules_is_rare(fs->c->rules, callee));
}

/*
 * How much a call weighs in a loop's body: 0 for one that is trivial,
 * or cold (an error report in the body does not make the loop long).
 */
static int call_weight(struct fs *fs, const char *callee)
{
	const struct hog_rule *cr = rule_of(fs, callee, HR_COST);
	const struct hog_summary *s;
	int i, w, worst = 0;

	if (!callee)
		return 0;
	if (cr)
		return 3 + class_weight(fs, cr->cls);
	if (has_any_rule(fs, callee))
		return 0;
	s = summary_of(fs, callee);
	if (!s)
		return 1;
	if (s->trivial || is_cold(fs, callee, s))
		return 0;
	w = 2 + (s->self ? 4 : 0);
	if (s->self)
		worst = cost_weight(fs, s->self);
	for (i = 0; i < s->ncost; i++) {
		w += s->cost[i].kind == HK_LOOP ? 2 : 1;
		if (cost_weight(fs, &s->cost[i]) > worst)
			worst = cost_weight(fs, &s->cost[i]);
	}
	return w + worst;
}

static int is_trivial_call(struct fs *fs, const char *callee)
{
	return call_weight(fs, callee) == 0;
}

void eng_set_self(struct fs *fs, struct hog_cost *c)
{
	fs->s->self = eng_keep(fs, c, sizeof(*c));
	eng_keep_cost(fs, fs->s->self);
}

/* A cost the summary keeps: its arrays out of the scratch arena. */
void eng_keep_cost(struct fs *fs, struct hog_cost *c)
{
	int i;

	c->chain = eng_keep(fs, c->chain, sizeof(*c->chain) * c->nchain);
	c->rel = eng_keep(fs, c->rel, sizeof(*c->rel) * c->nrel);
	c->brk = eng_keep(fs, c->brk, sizeof(*c->brk) * c->nbreak);
	c->ways = eng_keep(fs, c->ways, sizeof(*c->ways) * c->nways);
	for (i = 0; i < c->nways; i++)
		c->ways[i].chain = eng_keep(fs, c->ways[i].chain,
					    sizeof(*c->ways[i].chain) * c->ways[i].nchain);
}

int eng_has_self(struct fs *fs)
{
	return fs->s->self != NULL;
}

void eng_atomic_for_callers(struct fs *fs, const char *a)
{
	int i;

	for (i = 0; i < fs->atomics.n; i++)
		if (fs->atomics.v[i] == a)
			return;
	if (fs->atomics.n < MAX_ATOMICS)
		hog_vec_push(&fs->atomics, (void *)a);
}

void eng_nontrivial(struct fs *fs)
{
	fs->nontrivial++;
}

static void mark_atomic(struct fs *fs, const struct tset *set)
{
	struct binfo *bi = &fs->bi[fs->cur_block];
	int i;

	bi->f.atomic = 1;
	for (i = 0; i < set->n; i++)
		if (!set->t[i].batched)
			bi->f.atomic_hot = 1;
}

/* An atomic RMW on a (NULL: unknown): the block remembers it, the checkers judge it. */
void atomic_event(struct fs *fs, const struct tset *set, const char *a,
		  const char *via, int line, int col)
{
	int k;

	mark_atomic(fs, set);
	fs->s->has_atomic = 1;
	for (k = 0; k < hog_nkinds(); k++)
		if (hog_checker(k)->atomic)
			hog_checker(k)->atomic(fs, set, a, via, line, col);
}

/* The heaviest non-trivial call of the block names a loop's cost. */
static void note_heavy(struct fs *fs, const struct hog_event *e)
{
	struct binfo *bi = &fs->bi[fs->cur_block];
	int w;

	if (is_trivial_call(fs, e->callee))
		return;
	w = call_weight(fs, e->callee);
	bi->f.heavy++;
	if (!bi->f.heavy_name || w > bi->f.heavy_weight) {
		bi->f.heavy_name = e->callee;
		bi->f.heavy_line = e->line;
		bi->f.heavy_weight = w;
	}
	fs->nontrivial++;
}

static int nraws(struct fs *fs)
{
	return fs->c->raws ? fs->c->raws->n : 0;
}

/*
 * A callee's loop, carried to this call: recorded, and remembered with
 * the raws it made here so that fold_nests() (engine.c) can fold it
 * into a loop of ours around the call.
 */
static void loop_cost_at(struct fs *fs, const struct tset *set, struct hog_cost *c)
{
	struct binfo *bi = &fs->bi[fs->cur_block];
	struct nest_cand *n;
	int r0 = nraws(fs), own_lock = c->inner != NULL;

	eng_cost_at(fs, set, c);
	/* the words of our loop name the callee loops that run in its section */
	if (!own_lock && !bi->f.loop_in)
		bi->f.loop_in = c->chain[c->nchain - 1].func;
	if (!own_lock)
		bi->f.nloops_in++;
	n = eng_alloc(fs, sizeof(*n));
	n->c = c;
	n->block = fs->cur_block;
	n->raw0 = r0;
	n->raw1 = nraws(fs);
	hog_vec_push(&fs->nested, n);
}

/*
 * A test of our parameter's whole value against zero (if (!on)), or of
 * bits a helper's result or a ! told us of (if (pte_devmap(pte))): like
 * a sign, the locks held here see the cost, and callers passing a
 * constant decide it for theirs.
 */
static int whole_value(const struct hog_when *w)
{
	return w->arg >= 0 && (w->op == '&' || w->op == '~') &&
	       ((w->val == PC_NONZERO && w->inferred) || w->inferred == 2);
}

static int sign_op(char op)
{
	return op == '>' || op == '<';
}

/*
 * A callee's loop that runs as many rounds as its parameter says, passed
 * a constant above max-bound (the 96 bytes get_random_u16() asks of
 * _get_random_bytes()): that many rounds at most, a bound of its own.
 */
#define PASSED_COUNT_SAID (1LL << 24)	/* as check_loop.c's LOOP_BOUND_SAID */

static void passed_count(struct fs *fs, const struct callv *cv, const struct hog_cost *t,
			 struct hog_cost *c)
{
	static const char unknown[] = "loop with a data-dependent trip count";
	const struct hog_event *e = cv->ev;
	char *r;
	long long n;

	/* bound_by_param()'s "argN > max-bound", not a sign test ("> 0") */
	if (t->kind != HK_LOOP || t->when.arg < 0 || t->when.op != '>' || t->when.inferred != 1 ||
	    t->when.val <= 0 || t->when.arg >= e->nargs || e->args[t->when.arg].kind != HV_CONST)
		return;
	n = e->args[t->when.arg].cst;
	if (n < 0)
		return;
	if (t->count_shift >= 0)
		n = n - t->count_shift < 62 ? (n <= t->count_shift ? 1 : 1LL << (n - t->count_shift)) : -1;
	/* INT_MAX for "all of them" (sgl_free_order()) says no more than an unknown count */
	if (n <= 0 || n >= PASSED_COUNT_SAID || (c->bound > 0 && n >= c->bound))
		return;
	c->bound = n;
	/* say the count, unless the reason names a nest */
	if (!c->reason || strncmp(c->reason, unknown, sizeof(unknown) - 1) || strstr(c->reason, ", around"))
		return;
	r = hog_xasprintf("loop of up to %lld iterations%s", n, c->reason + sizeof(unknown) - 1);
	c->reason = eng_intern(fs, r);
	free(r);
}

/*
 * Does condition w of a callee's cost hold at this call?  1 yes, 0 no,
 * -1 only our caller can tell (*cond on our parameter, or arg -1 for a
 * value we cannot read).  *ruled: no, but only by a rule's contract (a
 * note names it), which is returned as yes.
 */
static int when_here(struct fs *fs, const struct tset *set, const struct callv *cv,
		     const struct hog_when *w, struct hog_when *cond, int *ruled)
{
	int ok = eng_when(fs, cv, w, cond);
	int sign = eng_when_sign(fs, set, cv, w);

	*ruled = ok == HOG_WHEN_RULED;
	if (sign >= 0)
		return sign;
	return *ruled ? 1 : ok;
}

/*
 * As when_here(), for the cost itself: a value we cannot read keeps a
 * cost behind an inferred test and drops one behind a rule's (gfp).
 */
static int call_when(struct fs *fs, const struct tset *set, const struct callv *cv,
		     const struct hog_when *w, struct hog_when *cond, int *ruled)
{
	int ok = when_here(fs, set, cv, w, cond, ruled);

	if (ok < 0 && cond->arg < 0)
		return w->inferred ? 1 : 0;
	return ok;
}

/*
 * Where one way to a cost stands at this call: 3 taken, 2 taken as our
 * parameter says (*cond), 1 open for values we cannot read, 0 ruled
 * out.  Unlike the cost's own test, a value we cannot read leaves a
 * way open: its partner may be its opposite ("flags & FOLL_GET" and
 * its else), and one of the two is taken whatever the value.
 */
static int way_rank(struct fs *fs, const struct tset *set, const struct callv *cv,
		    const struct hog_when *w, struct hog_when *cond)
{
	int ruled, ok = when_here(fs, set, cv, w, cond, &ruled);

	if (ok >= 0)
		return ok ? 3 : 0;
	return cond->arg >= 0 ? 2 : 1;
}

/*
 * The ways to t (t->ways) this call leaves open, each with its test in
 * our terms (none when it is taken or cannot be told): those it takes
 * first, then those our parameter decides, then those it cannot tell,
 * each group shortest first.  The first one whose chain is not too
 * long to follow is shown.  Returns how many.
 */
static int open_ways(struct fs *fs, const struct tset *set, const struct callv *cv,
		     const struct hog_cost *t, struct hog_way *out)
{
	int rank[HOG_MAX_WAYS];
	struct hog_way w;
	int i, n = 0, r, k;

	for (i = 0; i < t->nways; i++) {
		w = t->ways[i];
		r = way_rank(fs, set, cv, &t->ways[i].when, &w.when);
		if (!r)
			continue;
		if (r != 2)
			w.when = (struct hog_when){ .arg = -1 };
		for (k = n; k > 0 && (rank[k - 1] < r ||
				      (rank[k - 1] == r && out[k - 1].nchain > w.nchain)); k--) {
			out[k] = out[k - 1];
			rank[k] = rank[k - 1];
		}
		out[k] = w;
		rank[k] = r;
		n++;
	}
	return n;
}

/*
 * c's ways: the open ones, one step longer, as c's chain is; kept even
 * when the first is always taken, since a shorter one keeps the cost
 * within the chains the analysis follows (eng_cost_at()).
 */
static void extend_ways(struct fs *fs, struct hog_cost *c, const struct hog_way *w, int n,
			const char *cold)
{
	int i;

	c->ways = eng_alloc(fs, sizeof(*c->ways) * n);
	for (i = 0; i < n; i++) {
		c->ways[i].when = w[i].when;
		c->ways[i].cold = w[i].cold ? w[i].cold : cold;
		c->ways[i].nchain = w[i].nchain + 1;
		c->ways[i].chain = eng_alloc(fs, sizeof(*c->chain) * c->ways[i].nchain);
		c->ways[i].chain[0] = c->chain[0];
		memcpy(c->ways[i].chain + 1, w[i].chain, sizeof(*c->chain) * w[i].nchain);
	}
	c->nways = n;
}

/* The callee's costs, carried to this call: extended by one step, in our terms. */
static void callee_costs(struct fs *fs, const struct tset *set, const struct callv *cv,
			 const struct hog_summary *s)
{
	const struct hog_event *e = cv->ev;
	const char *cold;
	struct hog_when cond;
	int i, k;

	if (!s->self && !s->ncost)
		return;
	/* this call rarely runs, or every state got here past one that does */
	cold = is_cold(fs, e->callee, s) ? e->callee : set_cold(set);
	if (s->self && !(s->self->unless_intr && set_in_interrupt(set))) {
		struct hog_cost *c = eng_cost_new(fs, s->self->kind, s->self->cls,
						  s->self->reason, e->callee, 0, e->line,
						  e->col, NULL);

		c->batched = s->self->batched;
		c->offkey = s->self->offkey;
		c->unless_intr = s->self->unless_intr;
		c->cold = cold;
		eng_cost_at(fs, set, c);
	}
	for (i = 0; i < s->ncost; i++) {
		const struct hog_cost *t = &s->cost[i];
		struct hog_way ways[HOG_MAX_WAYS];
		struct hog_cost way;
		int ruled, ok = call_when(fs, set, cv, &t->when, &cond, &ruled);
		int nw = open_ways(fs, set, cv, t, ways);
		struct hog_cost *c;

		if (!ok || (t->nways && !nw))
			continue;
		if (t->unless_intr && set_in_interrupt(set))
			continue;
		way = *t;
		if (nw) {
			/* the best way whose chain, one step longer here, the analysis follows */
			for (k = 0; k < nw - 1 && too_deep(fs, ways[k].nchain + 1); k++)
				;
			way.nchain = ways[k].nchain;
			way.chain = ways[k].chain;
			way.cold = ways[k].cold;
		}
		c = eng_cost_new(fs, t->kind, t->cls, t->reason, t->callee, t->listed,
				 e->line, e->col, &way);
		if (nw > 1)
			extend_ways(fs, c, ways, nw, cold);
		if (!c->cold)
			c->cold = cold;
		/* only for a root we are never handed: a note that names the rule */
		if (ruled && !c->offkey)
			c->offkey = fs->c->notroot->key;
		c->rel = map_exprs(fs, t->rel, t->nrel, cv, &c->nrel);
		c->brk = (const char **)map_exprs(fs, t->brk, t->nbreak, cv, &c->nbreak);
		if (ok != 1) {
			c->when = cond;
			/* the callee's loop counts 1 << (our parameter - K) as it did its own */
			c->count_shift = t->count_shift;
		} else {
			passed_count(fs, cv, t, c);
		}
		/*
		 * A sign (or a loop's count) passed on from our own parameter:
		 * the locks held here see the cost unless the value says
		 * otherwise, and callers that pass a known value still decide it.
		 */
		if (ok != 1 && !sign_op(cond.op) && !whole_value(&cond))
			cost_decided_above(fs, set, c);
		/* a loop on a cold path is not part of our loop nest */
		else if (c->kind == HK_LOOP && !c->cold)
			loop_cost_at(fs, set, c);
		else
			eng_cost_at(fs, set, c);
	}
}

/* Taken here on some path (a lock held by annotation is the caller's). */
static int held_anywhere(const struct tset *set, const char *a)
{
	int i, j;

	for (i = 0; i < set->n; i++)
		for (j = 0; j < set->t[i].nheld; j++)
			if (!set->t[i].held[j].entry && held_is(&set->t[i].held[j], a))
				return 1;
	return 0;
}

/* What the callee's summary says at this call: atomics, costs, lock breaks. */
static void callee_summary(struct fs *fs, const struct tset *set, const struct callv *cv,
			   const struct hog_summary *s)
{
	const struct hog_event *e = cv->ev;
	int i;

	if (s->has_atomic)
		mark_atomic(fs, set);
	for (i = 0; i < s->natomic; i++) {
		const char *a = hog_expr_subst(fs->c->strs, fs->c->rules, s->atomic[i],
					       cv->addr, cv->nargs, NULL);

		atomic_event(fs, set, a, e->callee, e->line, e->col);
	}
	callee_costs(fs, set, cv, s);
	for (i = 0; i < s->nbrk; i++) {
		const char *a = hog_expr_subst(fs->c->strs, fs->c->rules, s->brk[i],
					       cv->addr, cv->nargs, NULL);

		note_release(fs, a, a ? hog_expr_class(fs->c->strs, a) : NULL);
		/* a lock of our caller's that the callee breaks: we break it too */
		if (a && hog_expr_portable(a) && !held_anywhere(set, a))
			add_everrel(fs, a);
	}
}

/*
 * The states in which the call is not a put giving back a reference the
 * path took (refs.c): those are not the last put, and cost nothing.
 * Returns 1 with sub filled (perhaps empty) when some states were left out.
 */
static int unbalanced(struct fs *fs, const struct tset *set, const struct callv *cv,
		      struct tset *sub)
{
	int arg = ref_put_arg(fs, cv), i;

	if (arg < 0)
		return 0;
	sub->n = 0;
	sub->t = NULL;
	for (i = 0; i < set->n; i++)
		if (ref_owned(fs, &set->t[i], cv, arg) < 0)
			tset_add(sub, &set->t[i]);
	if (sub->n < set->n)
		return 1;
	tset_free(sub);
	return 0;
}

static void costs_of(struct fs *fs, const struct tset *set, const struct callv *cv);

/* Costs of a call, recorded against the set of states before it. */
void call_costs(struct fs *fs, const struct tset *set, const struct callv *cv)
{
	struct tset sub;

	if (!unbalanced(fs, set, cv, &sub)) {
		costs_of(fs, set, cv);
		return;
	}
	if (sub.n)
		costs_of(fs, &sub, cv);
	tset_free(&sub);
}

static void costs_of(struct fs *fs, const struct tset *set, const struct callv *cv)
{
	const struct hog_event *e = cv->ev;
	const struct hog_rule *ar = rule_of(fs, e->callee, HR_ATOMIC);
	const struct hog_rule *br = rule_of(fs, e->callee, HR_LOCKBREAK);
	const struct hog_summary *s;
	int k;

	note_heavy(fs, e);
	if (br && br->op == HBRK_BREAK) {
		const char *a = eng_arg_addr(cv, br->arg);

		note_release(fs, a, a ? hog_expr_class(fs->c->strs, a) : NULL);
	}
	if (ar)
		atomic_event(fs, set, eng_arg_addr(cv, ar->arg), e->callee, e->line, e->col);
	for (k = 0; k < hog_nkinds(); k++)
		if (hog_checker(k)->call)
			hog_checker(k)->call(fs, set, cv);
	if (has_any_rule(fs, e->callee))
		return;
	s = summary_of(fs, e->callee);
	if (s)
		callee_summary(fs, set, cv, s);
}

/*
 * "STRUCT.FIELD" of an address that names a field ("&$0/swap_info_struct.users"),
 * in buf; NULL if a is no field's address.
 */
static const char *addr_field(const struct hog_val *a, char *buf, size_t size)
{
	const char *s;

	if (!a || a->kind != HV_ADDR || !a->addr || !(s = strrchr(a->addr, '/')))
		return NULL;
	s++;
	if (!strchr(s, '.') || strpbrk(s, "^#[]$@%&") || strlen(s) >= size)
		return NULL;
	strcpy(buf, s);
	return buf;
}

/*
 * A refcount put's reason: its rule's, or the "ref-release" rule's of
 * the reference it drops (a release that only wakes a waiter or
 * queues work, which prog.c reads from the reason).
 */
static const char *put_reason(struct fs *fs, const struct hog_event *e, const struct hog_rule *cr)
{
	char field[160];
	const char *why;

	if (!cr->cls || strcmp(cr->cls, HOG_CLS_REF) || e->nargs < 1)
		return cr->reason;
	why = hog_rules_ref_release(fs->c->rules, addr_field(&e->args[0], field, sizeof(field)));
	return why ? why : cr->reason;
}

void eng_rule_cost(struct fs *fs, const struct tset *set, const struct callv *cv,
		   enum hog_kind k, const struct hog_rule *cr)
{
	const struct hog_event *e = cv->ev;
	struct hog_when cond;
	struct hog_cost *c;
	int ok = eng_when(fs, cv, &cr->when, &cond);

	if (ok != 1 && cond.arg < 0)
		return;
	if (cr->unless_intr && set_in_interrupt(set))
		return;
	c = eng_cost_new(fs, k, cr->cls, put_reason(fs, e, cr), e->callee, 1, e->line, e->col, NULL);
	c->preempt_ok = cr->preempt_held;
	c->unless_intr = cr->unless_intr;
	if (ok != 1) {
		c->when = cond;
		/* only our callers can tell: a finding here only if one of them says so */
		cost_decided_above(fs, set, c);
	} else {
		eng_cost_at(fs, set, c);
	}
}
