// SPDX-License-Identifier: GPL-2.0
/*
 * The CFG lockhog-check builds from the AST: blocks and edges as the
 * statements are walked, locals in SSA form by Braun et al.'s
 * construction (a block's definitions, phis made on demand and
 * completed when the block is sealed, trivial phis removed at the end),
 * then unreachable blocks dropped and natural loops found from the
 * dominator tree, as GCC's CFG would give them.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "lc.h"
#include "../core/expr.h"

#define GROW(p, n, cap) do {						\
	if ((n) >= (cap)) {						\
		(cap) = (cap) ? 2 * (cap) : 8;				\
		(p) = hog_xrealloc((p), sizeof(*(p)) * (cap));		\
	}								\
} while (0)

/* phis are looked through this deep when naming a pointer */
#define MAX_RESOLVE 16
/* a loop is counted to this many rounds at most */
#define MAX_COUNT 4096

struct hog_val lc_varval(int v)
{
	struct hog_val r = { HV_VAR, v, 0, NULL };

	return r;
}

int lc_new_var(struct lc_fn *F, enum lc_vkind kind)
{
	GROW(F->var, F->nvar, F->cvar);
	memset(&F->var[F->nvar], 0, sizeof(F->var[0]));
	F->var[F->nvar].kind = kind;
	F->var[F->nvar].phi = -1;
	F->vname = hog_xrealloc(F->vname, sizeof(*F->vname) * (F->nvar + 1));
	F->vname[F->nvar] = NULL;
	return F->nvar++;
}

int lc_new_block(struct lc_fn *F)
{
	struct lc_blk *b;

	GROW(F->b, F->nb, F->cb);
	b = &F->b[F->nb];
	memset(b, 0, sizeof(*b));
	b->cond_var = -1;
	return F->nb++;
}

static int has_int(const int *v, int n, int x)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

void lc_edge(struct lc_fn *F, int from, int to)
{
	struct lc_blk *a, *b;

	if (from < 0 || to < 0)
		return;
	a = &F->b[from];
	/*
	 * sealed without a predecessor: code after BUG() or a return, that
	 * nothing reaches; an edge from it would bring undefined values into
	 * the phis of code that is reached
	 */
	if (from != 0 && a->sealed && !a->npred)
		return;
	if (has_int(a->succ, a->nsucc, to)) {
		/* both ways lead to one block: no test left */
		a->cond = HC_NONE;
		a->cmp.op = 0;
		return;
	}
	GROW(a->succ, a->nsucc, a->csucc);
	a->succ[a->nsucc++] = to;
	b = &F->b[to];
	GROW(b->pred, b->npred, b->cpred);
	b->pred[b->npred++] = from;
}

int lc_here(struct lc_fn *F)
{
	if (F->cur < 0) {
		F->cur = lc_new_block(F);
		F->b[F->cur].sealed = 1;
	}
	return F->cur;
}

struct lc_ev *lc_emit(struct lc_fn *F, enum hog_ev_kind kind, const char *callee,
		      int dst, int nargs)
{
	int h = lc_here(F);	/* may grow F->b: index it after */
	struct lc_blk *b = &F->b[h];
	struct lc_ev *e;

	F->clean = -1;
	GROW(b->ev, b->nev, b->cap);
	e = &b->ev[b->nev++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->line = F->line;
	e->col = F->col;
	e->callee = callee ? hog_intern(F->m->strs, callee) : NULL;
	e->dst = dst;
	e->nargs = nargs > LC_MAX_ARGS ? LC_MAX_ARGS : nargs;
	return e;
}

static void ensure_defs(struct lc_fn *F, struct lc_blk *b)
{
	if (!b->def) {
		b->def = hog_xcalloc(F->nloc + 1, sizeof(*b->def));
		b->has = hog_xcalloc(F->nloc + 1, 1);
	}
}

void lc_write(struct lc_fn *F, int b, int local, struct hog_val v)
{
	struct lc_blk *bl = &F->b[b];

	ensure_defs(F, bl);
	bl->def[local] = v;
	bl->has[local] = 1;
}

static int new_phi(struct lc_fn *F, int b, int local)
{
	struct lc_phi *p;
	struct lc_blk *bl = &F->b[b];
	int v = lc_new_var(F, VK_PHI);

	GROW(F->phi, F->nphi, F->cphi);
	p = &F->phi[F->nphi];
	memset(p, 0, sizeof(*p));
	p->dst = v;
	p->local = local;
	F->var[v].phi = F->nphi;
	if (local >= 0) {
		F->var[v].ptr = F->loc[local].ptr;
		F->vname[v] = F->loc[local].name;
	}
	GROW(bl->phis, bl->nphi, bl->cphi);
	bl->phis[bl->nphi++] = F->nphi;
	return F->nphi++;
}

static void phi_operands(struct lc_fn *F, int b, int pi)
{
	struct lc_blk *bl = &F->b[b];
	int i, local = F->phi[pi].local;

	F->phi[pi].n = bl->npred;
	F->phi[pi].pred = hog_xcalloc(bl->npred + 1, sizeof(int));
	F->phi[pi].val = hog_xcalloc(bl->npred + 1, sizeof(struct hog_val));
	for (i = 0; i < bl->npred; i++) {
		struct hog_val v = lc_read(F, bl->pred[i], local);

		F->phi[pi].pred[i] = bl->pred[i];
		F->phi[pi].val[i] = v;
	}
}

static struct hog_val resolve(struct lc_fn *F, struct hog_val v);
static int same_val(struct hog_val a, struct hog_val b);

/* Braun's tryRemoveTrivialPhi: a phi of one value (and itself) is that value */
static struct hog_val try_trivial(struct lc_fn *F, int pi)
{
	struct lc_phi *p = &F->phi[pi];
	struct hog_val same = { HV_UNKNOWN, 0, 0, NULL };
	int j, have = 0;

	for (j = 0; j < p->n; j++) {
		struct hog_val v = resolve(F, p->val[j]);

		if (v.kind == HV_VAR && v.var == p->dst)
			continue;
		if (have && !same_val(v, same))
			return lc_varval(p->dst);
		same = v;
		have = 1;
	}
	if (!have)
		return lc_varval(p->dst);
	p->dead = 1;
	p->repl = same;
	return same;
}

/* A read before any write: a value nobody defines, named as the local. */
static struct hog_val undefined(struct lc_fn *F, int local)
{
	struct hog_val v = lc_varval(lc_new_var(F, VK_NONE));

	F->vname[v.var] = F->loc[local].name;
	return v;
}

/* The value of local at the end of b, which is not a single predecessor's. */
static struct hog_val read_join(struct lc_fn *F, int b, int local)
{
	struct lc_blk *bl = &F->b[b];
	struct hog_val v;
	int pi;

	if (!bl->sealed) {
		pi = new_phi(F, b, local);
		bl = &F->b[b];
		GROW(bl->inc, bl->ninc, bl->cinc);
		bl->inc[bl->ninc++] = pi;
		return lc_varval(F->phi[pi].dst);
	}
	if (bl->npred != 0) {
		pi = new_phi(F, b, local);
		v = lc_varval(F->phi[pi].dst);
		lc_write(F, b, local, v);
		phi_operands(F, b, pi);
		return try_trivial(F, pi);
	}
	return undefined(F, local);
}

/*
 * Straight runs of sealed single-predecessor blocks are followed in a
 * loop, not by recursion: a function of many thousand blocks (6.12's
 * page_alloc.c) would overflow the stack.  A run that comes back to
 * itself (dead code after a jump) defines nothing: a fresh value.
 */
struct hog_val lc_read(struct lc_fn *F, int b, int local)
{
	struct hog_val v;
	int *run = NULL, n = 0, c = 0, i;

	for (;;) {
		struct lc_blk *bl = &F->b[b];

		ensure_defs(F, bl);
		if (bl->has[local]) {
			v = bl->def[local];
			break;
		}
		if (!bl->sealed || bl->npred != 1) {
			v = read_join(F, b, local);
			lc_write(F, b, local, v);
			break;
		}
		if (n > F->nb) {
			v = undefined(F, local);
			break;
		}
		GROW(run, n, c);
		run[n++] = b;
		b = bl->pred[0];
	}
	for (i = 0; i < n; i++)
		lc_write(F, run[i], local, v);
	free(run);
	return v;
}

void lc_seal(struct lc_fn *F, int b)
{
	int i;

	if (b < 0 || F->b[b].sealed)
		return;
	for (i = 0; i < F->b[b].ninc; i++) {
		int pi = F->b[b].inc[i];

		phi_operands(F, b, pi);
		try_trivial(F, pi);
		/* later reads here see the value, not the placeholder */
		if (F->phi[pi].dead && F->b[b].def[F->phi[pi].local].kind == HV_VAR &&
		    F->b[b].def[F->phi[pi].local].var == F->phi[pi].dst)
			F->b[b].def[F->phi[pi].local] = F->phi[pi].repl;
	}
	F->b[b].sealed = 1;
}

int lc_value_phi(struct lc_fn *F, int b, int n, const int *pred, const struct hog_val *val)
{
	int pi = new_phi(F, b, -1), i;

	F->phi[pi].n = n;
	F->phi[pi].pred = hog_xcalloc(n + 1, sizeof(int));
	F->phi[pi].val = hog_xcalloc(n + 1, sizeof(struct hog_val));
	for (i = 0; i < n; i++) {
		F->phi[pi].pred[i] = pred[i];
		F->phi[pi].val[i] = val[i];
	}
	return F->phi[pi].dst;
}

const char *lc_cat(struct lc_fn *F, const char *a, const char *b)
{
	char *t;
	const char *r;

	if (!a)
		return NULL;
	t = hog_xasprintf("%s%s", a, b);
	r = hog_intern(F->m->strs, t);
	free(t);
	return r;
}

/*
 * A pointer value as an address root.  A phi's is not known until the
 * end: "\001N\002" stands for phi variable N and is replaced then.
 */
const char *lc_addr_of(struct lc_fn *F, struct hog_val v)
{
	char buf[32];

	if (v.kind == HV_ADDR)
		return v.addr;
	if (v.kind != HV_VAR)
		return NULL;
	if (F->var[v.var].kind == VK_CALL) {
		snprintf(buf, sizeof(buf), "v%d", v.var);
		return hog_intern(F->m->strs, buf);
	}
	if (F->var[v.var].kind == VK_PHI) {
		snprintf(buf, sizeof(buf), "\001%d\002", v.var);
		return hog_intern(F->m->strs, buf);
	}
	if (F->vname[v.var]) {
		char *t = hog_xasprintf("%%%s", F->vname[v.var]);
		const char *r = hog_intern(F->m->strs, t);

		free(t);
		return r;
	}
	return NULL;
}

/*
 * A pointer tested is a variable of its own; a parameter's tests share
 * one, as its SSA name in GCC, so "if (atomic) kmap_atomic() ... if
 * (atomic) kunmap_atomic()" stays one decision.
 */
void lc_moved(struct lc_fn *F, const char *a)
{
	if (!a)
		return;
	GROW(F->moved, F->nmoved, F->cmoved);
	F->moved[F->nmoved++] = a;
}

/*
 * storage->file = NULL (docs/ir.md, the w event): a store of a constant
 * to a field, and of anything else to such a field or the struct
 * around it.  Every store is emitted here and lc_finish() keeps those
 * the plugin writes: it knows the function's constant stores first.
 */
void lc_field_store(struct lc_fn *F, const char *a, struct hog_val v, int is_const)
{
	struct lc_ev *e;

	if (!a)
		return;
	e = lc_emit(F, HE_STORE, NULL, -1, 2);
	e->a[0].kind = HV_ADDR;
	e->a[0].addr = a;
	e->a[1] = is_const ? v : (struct hog_val){ .kind = HV_UNKNOWN };
	e->fstore = is_const ? 1 : 2;
	if (is_const) {
		GROW(F->cstore, F->ncstore, F->ccstore);
		F->cstore[F->ncstore++] = a;
	}
}

void lc_other_write(struct lc_fn *F, const char *a)
{
	if (!a)
		return;
	GROW(F->xwrite, F->nxwrite, F->cxwrite);
	F->xwrite[F->nxwrite++] = a;
}

/* A constant stored to a (resolved), that nothing but assignments writes. */
static int const_field(struct lc_fn *F, const char *a)
{
	int i, found = 0;

	for (i = 0; i < F->ncstore && !found; i++)
		found = F->cstore[i] && !strcmp(F->cstore[i], a);
	for (i = 0; i < F->nxwrite && found; i++)
		if (!F->xwrite[i] || hog_expr_has_prefix(a, F->xwrite[i]))
			found = 0;
	return found;
}

/*
 * Does lc_finish() write this store (the plugin's lower_field_store())?
 * A constant to a field nothing else writes; anything else to such a
 * field, the struct around it or the field spelt another way (the same
 * class, not in a local).
 */
static int store_kept(struct lc_fn *F, const struct lc_ev *e)
{
	const char *a = e->a[0].kind == HV_ADDR ? e->a[0].addr : NULL, *cls;
	int i;

	if (!a)
		return 0;
	if (e->fstore == 1)
		return const_field(F, a);
	cls = a[0] != '%' ? hog_expr_class(F->m->strs, a) : NULL;
	for (i = 0; i < F->ncstore; i++)
		if (F->cstore[i] && (hog_expr_has_prefix(F->cstore[i], a) ||
				     (cls && hog_expr_class(F->m->strs, F->cstore[i]) == cls)) &&
		    const_field(F, F->cstore[i]))
			return 1;
	return 0;
}

static const char *fix_addr(struct lc_fn *F, const char *a, int depth);
static struct hog_val fix_val(struct lc_fn *F, struct hog_val v);

/*
 * The stores' addresses as put_block() writes them (a loop's pointer is
 * a phi until the end).  A store of an unknown value to an address
 * that does not resolve could be to any field: no constant is kept.
 */
static void fix_field_stores(struct lc_fn *F)
{
	int b, i, n = 0;

	for (i = 0; i < F->nxwrite; i++)
		F->xwrite[i] = fix_addr(F, F->xwrite[i], 0);
	for (b = 0; b < F->nb; b++)
		for (i = 0; i < F->b[b].nev; i++) {
			struct lc_ev *e = &F->b[b].ev[i];

			if (!e->fstore)
				continue;
			e->a[0] = fix_val(F, e->a[0]);
			if (e->a[0].kind != HV_ADDR && e->fstore == 2) {
				GROW(F->xwrite, F->nxwrite, F->cxwrite);
				F->xwrite[F->nxwrite++] = NULL;
			}
			if (e->a[0].kind == HV_ADDR && e->fstore == 1)
				F->cstore[n++] = e->a[0].addr;
		}
	F->ncstore = n;
}

void lc_tie(struct lc_fn *F, int blk, int ev, const char *addr)
{
	GROW(F->tie, F->ntie, F->ctie);
	F->tie[F->ntie].blk = blk;
	F->tie[F->ntie].ev = ev;
	F->tie[F->ntie].addr = addr;
	F->ntie++;
}

static void reach(struct lc_fn *F, int b, char *seen);

/* Does block b reach itself (a loop, a backward goto)? */
static int on_cycle(struct lc_fn *F, int b)
{
	char *seen = hog_xcalloc(F->nb + 1, 1);
	int i, r;

	for (i = 0; i < F->b[b].nsucc; i++)
		if (!seen[F->b[b].succ[i]])
			reach(F, F->b[b].succ[i], seen);
	r = seen[b];
	free(seen);
	return r;
}

/*
 * Drops, last first, the "load" of every field that lc_moved() named or
 * holds (its object, a struct around it), and of every test on a cycle
 * (loops the statement stack does not show: a backward goto).
 */
void lc_tie_loads(struct lc_fn *F)
{
	int i, j;

	for (i = F->ntie - 1; i >= 0; i--) {
		struct lc_blk *b = &F->b[F->tie[i].blk];

		for (j = 0; j < F->nmoved; j++)
			if (hog_expr_has_prefix(F->tie[i].addr, F->moved[j]))
				break;
		if ((j == F->nmoved && !on_cycle(F, F->tie[i].blk)) || F->tie[i].ev >= b->nev)
			continue;
		memmove(&b->ev[F->tie[i].ev], &b->ev[F->tie[i].ev + 1],
			(b->nev - F->tie[i].ev - 1) * sizeof(b->ev[0]));
		b->nev--;
	}
}

int lc_test_var(struct lc_fn *F, const char *a)
{
	int li = -1, i, v;

	for (i = 0; a && a[0] == '$' && i < F->nloc; i++)
		if (F->loc[i].param >= 0 && atoi(a + 1) == F->loc[i].param &&
		    !strpbrk(a, "/^[#"))
			li = i;
	if (li >= 0 && F->loc[li].test_var >= 0)
		return F->loc[li].test_var;
	v = lc_new_var(F, VK_PARAM);
	if (li >= 0) {
		F->loc[li].test_var = v;
		F->vname[v] = F->loc[li].name;
	}
	return v;
}

/* ---- the end: trivial phis, names of phi pointers ---- */

static struct hog_val resolve(struct lc_fn *F, struct hog_val v)
{
	int n = 0;

	while (v.kind == HV_VAR && F->var[v.var].kind == VK_PHI && n++ < 1000) {
		struct lc_phi *p = &F->phi[F->var[v.var].phi];

		if (!p->dead)
			break;
		v = p->repl;
	}
	return v;
}

static int same_val(struct hog_val a, struct hog_val b)
{
	if (a.kind != b.kind)
		return 0;
	switch (a.kind) {
	case HV_UNKNOWN: return 1;
	case HV_CONST: return a.cst == b.cst;
	case HV_VAR: return a.var == b.var;
	case HV_ADDR: return a.addr == b.addr;
	}
	return 0;
}

static int remove_trivial(struct lc_fn *F)
{
	int i, j, changed = 0;

	for (i = 0; i < F->nphi; i++) {
		struct lc_phi *p = &F->phi[i];
		struct hog_val same = { HV_UNKNOWN, 0, 0, NULL };
		int have = 0, trivial = 1;

		if (p->dead)
			continue;
		for (j = 0; j < p->n && trivial; j++) {
			struct hog_val v = resolve(F, p->val[j]);

			if (v.kind == HV_VAR && v.var == p->dst)
				continue;
			if (have && !same_val(v, same))
				trivial = 0;
			same = v;
			have = 1;
		}
		if (trivial && have) {
			p->dead = 1;
			p->repl = same;
			changed = 1;
		}
	}
	return changed;
}

/* all pointers but NULL agree (pcp = trylock ? _ret : NULL), or the local's name */
static const char *phi_addr(struct lc_fn *F, int var, int depth)
{
	struct lc_phi *p = &F->phi[F->var[var].phi];
	const char *same = NULL;
	int i;

	for (i = 0; i < p->n && depth < MAX_RESOLVE; i++) {
		struct hog_val v = resolve(F, p->val[i]);
		const char *e;

		if (v.kind == HV_CONST && v.cst == 0)
			continue;
		if (v.kind == HV_VAR && v.var == var)
			continue;
		e = fix_addr(F, lc_addr_of(F, v), depth + 1);
		if (!e || (same && same != e)) {
			same = NULL;
			break;
		}
		same = e;
	}
	if (same)
		return same;
	if (F->vname[var]) {
		char *t = hog_xasprintf("%%%s", F->vname[var]);
		const char *r = hog_intern(F->m->strs, t);

		free(t);
		return r;
	}
	return NULL;
}

static const char *fix_addr(struct lc_fn *F, const char *a, int depth)
{
	const char *end, *root;
	struct hog_val v;

	if (!a || a[0] != '\001')
		return a;
	if (depth > MAX_RESOLVE)
		return NULL;
	end = strchr(a, '\002');
	v = resolve(F, lc_varval(atoi(a + 1)));
	if (v.kind == HV_VAR && F->var[v.var].kind == VK_PHI)
		root = phi_addr(F, v.var, depth + 1);
	else
		root = fix_addr(F, lc_addr_of(F, v), depth + 1);
	return root ? lc_cat(F, root, end + 1) : NULL;
}

static struct hog_val fix_val(struct lc_fn *F, struct hog_val v)
{
	v = resolve(F, v);
	if (v.kind == HV_ADDR) {
		v.addr = fix_addr(F, v.addr, 0);
		if (!v.addr)
			v.kind = HV_UNKNOWN;
	} else if (v.kind == HV_VAR && F->var[v.var].ptr && F->var[v.var].kind != VK_CALL) {
		/* pointers name things: a phi of them, or the local they sit in */
		const char *a = F->var[v.var].kind == VK_PHI ? phi_addr(F, v.var, 0) :
				lc_addr_of(F, v);

		if (a) {
			v.kind = HV_ADDR;
			v.addr = a;
		}
	}
	return v;
}

/* ---- reachability, dominators, loops ---- */

static void reach(struct lc_fn *F, int b, char *seen)
{
	int *stack = hog_xmalloc(sizeof(int) * (F->nb + 1)), sp = 0, i;

	stack[sp++] = b;
	seen[b] = 1;
	while (sp) {
		int x = stack[--sp];

		for (i = 0; i < F->b[x].nsucc; i++)
			if (!seen[F->b[x].succ[i]]) {
				seen[F->b[x].succ[i]] = 1;
				stack[sp++] = F->b[x].succ[i];
			}
	}
	free(stack);
}

/* Cooper, Harvey and Kennedy's iterative dominators over a reverse postorder */
static void postorder(struct lc_fn *F, int b, char *seen, int *po, int *n)
{
	int i;

	seen[b] = 1;
	for (i = 0; i < F->b[b].nsucc; i++)
		if (!seen[F->b[b].succ[i]])
			postorder(F, F->b[b].succ[i], seen, po, n);
	po[(*n)++] = b;
}

static int intersect(const int *idom, const int *num, int a, int b)
{
	while (a != b) {
		while (num[a] < num[b])
			a = idom[a];
		while (num[b] < num[a])
			b = idom[b];
	}
	return a;
}

static int *dominators(struct lc_fn *F, const int *po, int n, int *num)
{
	int *idom = hog_xmalloc(sizeof(int) * (F->nb + 1));
	int i, j, changed = 1;

	for (i = 0; i < F->nb; i++)
		idom[i] = -1;
	for (i = 0; i < n; i++)
		num[po[i]] = i;
	idom[0] = 0;
	while (changed) {
		changed = 0;
		for (i = n - 2; i >= 0; i--) {
			int b = po[i], nd = -1;

			for (j = 0; j < F->b[b].npred; j++) {
				int p = F->b[b].pred[j];

				if (idom[p] < 0)
					continue;
				nd = nd < 0 ? p : intersect(idom, num, p, nd);
			}
			if (nd >= 0 && idom[b] != nd) {
				idom[b] = nd;
				changed = 1;
			}
		}
	}
	return idom;
}

static int dominates(const int *idom, int a, int b)
{
	while (b != a && b != 0 && idom[b] >= 0)
		b = idom[b];
	return a == b;
}

struct loopset {
	int header;
	char *in;
};

/* the body of the natural loops of header h: everything that reaches a latch without h */
static void loop_body(struct lc_fn *F, int h, int latch, char *in)
{
	int *stack = hog_xmalloc(sizeof(int) * (F->nb + 1)), sp = 0, i;

	in[h] = 1;
	if (!in[latch]) {
		in[latch] = 1;
		stack[sp++] = latch;
	}
	while (sp) {
		int x = stack[--sp];

		for (i = 0; i < F->b[x].npred; i++) {
			int p = F->b[x].pred[i];

			if (!in[p]) {
				in[p] = 1;
				stack[sp++] = p;
			}
		}
	}
	free(stack);
}

/* Follows a value through copies to a header phi of the loop. */
static int header_phi(struct lc_fn *F, struct hog_val v, int h)
{
	v = resolve(F, v);
	if (v.kind != HV_VAR || F->var[v.var].kind != VK_PHI)
		return -1;
	return has_int(F->b[h].phis, F->b[h].nphi, F->var[v.var].phi) ? F->var[v.var].phi : -1;
}

static int holds(int op, long long a, long long b)
{
	switch (op) {
	case CXBinaryOperator_LT: return a < b;
	case CXBinaryOperator_GT: return a > b;
	case CXBinaryOperator_LE: return a <= b;
	case CXBinaryOperator_GE: return a >= b;
	case CXBinaryOperator_EQ: return a == b;
	case CXBinaryOperator_NE: return a != b;
	}
	return 0;
}

static int swap_op(int op)
{
	switch (op) {
	case CXBinaryOperator_LT: return CXBinaryOperator_GT;
	case CXBinaryOperator_GT: return CXBinaryOperator_LT;
	case CXBinaryOperator_LE: return CXBinaryOperator_GE;
	case CXBinaryOperator_GE: return CXBinaryOperator_LE;
	}
	return op;
}

/* the phi's one constant start, from outside the loop: 1 if it has one */
static int phi_start(struct lc_fn *F, int pi, const char *in, long long *init)
{
	struct lc_phi *p = &F->phi[pi];
	int i, have_init = 0;

	for (i = 0; i < p->n; i++) {
		struct hog_val v = resolve(F, p->val[i]);

		if (in[p->pred[i]])
			continue;
		if (v.kind != HV_CONST || (have_init && *init != v.cst))
			return 0;
		*init = v.cst;
		have_init = 1;
	}
	return have_init;
}

/* the phi's start (from outside) and step (x = x + CST round the loop) */
static int phi_iv(struct lc_fn *F, int pi, const char *in, long long *init, long long *step)
{
	struct lc_phi *p = &F->phi[pi];
	int i, have_step = 0;

	if (!phi_start(F, pi, in, init))
		return 0;
	for (i = 0; i < p->n; i++) {
		struct hog_val v = resolve(F, p->val[i]);

		if (!in[p->pred[i]])
			continue;
		if (v.kind != HV_VAR || F->var[v.var].kind != VK_ADD)
			return 0;
		if (resolve(F, F->var[v.var].arg0).kind != HV_VAR ||
		    resolve(F, F->var[v.var].arg0).var != p->dst)
			return 0;
		if (have_step && *step != F->var[v.var].step)
			return 0;
		*step = F->var[v.var].step;
		have_step = 1;
	}
	return have_step && *step;
}

/* Is block x entered only from a test that var is not zero, on its non-zero way? */
static int tested_nonzero(struct lc_fn *F, int x, int var)
{
	const struct lc_blk *p;
	struct hog_val l;

	if (F->b[x].npred != 1)
		return 0;
	p = &F->b[F->b[x].pred[0]];
	l = resolve(F, p->cmp.l);
	if (p->nsucc != 2 || l.kind != HV_VAR || l.var != var ||
	    resolve(F, p->cmp.r).kind != HV_CONST || resolve(F, p->cmp.r).cst != 0)
		return 0;
	if (p->cmp.op == CXBinaryOperator_NE)
		return p->succ[0] == x;
	if (p->cmp.op == CXBinaryOperator_EQ)
		return p->succ[1] == x;
	return 0;
}

/*
 * v, brought round from block from, is phi dst plus a constant of at
 * least 1, or plus an unsigned count a test on the way said is not zero
 * (the plugin's adds_one_at_least()).
 */
static int adds_one_at_least(struct lc_fn *F, struct hog_val v, int from, int dst)
{
	const struct lc_var *x;
	struct hog_val a, b;

	v = resolve(F, v);
	if (v.kind != HV_VAR)
		return 0;
	x = &F->var[v.var];
	a = resolve(F, x->arg0);
	if (x->kind == VK_ADD)
		return a.kind == HV_VAR && a.var == dst && x->step >= 1;
	if (x->cop != CXBinaryOperator_Add || !x->uadd)
		return 0;
	a = resolve(F, x->ca);
	b = resolve(F, x->cb);
	return a.kind == HV_VAR && a.var == dst && b.kind == HV_VAR && tested_nonzero(F, from, b.var);
}

/* ... directly, or through a merge in the latch of ways that each do */
static int round_adds_one(struct lc_fn *F, struct hog_val v, int from, int dst)
{
	struct lc_phi *m;
	int j;

	v = resolve(F, v);
	if (v.kind != HV_VAR || F->var[v.var].kind != VK_PHI || v.var == dst)
		return adds_one_at_least(F, v, from, dst);
	m = &F->phi[F->var[v.var].phi];
	if (!m->n)
		return 0;
	for (j = 0; j < m->n; j++)
		if (!adds_one_at_least(F, m->val[j], m->pred[j], dst))
			return 0;
	return 1;
}

/*
 * "i += longs" when longs != 0, else "i++" (extract_entropy()'s rdseed
 * loop): every way round moves the counter up by at least one, from a
 * constant start.  A step of 1 then bounds an ordered exit (the
 * plugin's phi_min_step_up()).
 */
static int min_step_up(struct lc_fn *F, int pi, const char *in, long long *init)
{
	struct lc_phi *p = &F->phi[pi];
	int i, have_step = 0;

	if (!phi_start(F, pi, in, init))
		return 0;
	for (i = 0; i < p->n; i++) {
		if (!in[p->pred[i]])
			continue;
		if (!round_adds_one(F, resolve(F, p->val[i]), p->pred[i], p->dst))
			return 0;
		have_step = 1;
	}
	return have_step;
}

static int ordered_op(int op)
{
	return op == CXBinaryOperator_LT || op == CXBinaryOperator_LE ||
	       op == CXBinaryOperator_GT || op == CXBinaryOperator_GE;
}

/*
 * scoped_guard() of cleanup.h: "for (..., *done = NULL; ... && !done;
 * done = (void *)1)", a phi that starts at one constant and is set to
 * another round the loop; the exit, taken on the first test or on the
 * second, bounds the loop at 0 or 1 rounds (the plugin's once_exit()).
 * Only a pointer, as scoped_guard()'s done is: the plugin does not
 * bound a bool flag's "retry once" goto loop (alloc_buddy_huge_page()
 * in mm/ of 6.1), and the two frontends must agree on it.
 */
static long long once_exit(struct lc_fn *F, int pi, const char *in, int op, long long rv,
			   int taken_true)
{
	struct lc_phi *p = &F->phi[pi];
	long long v[2];
	int have[2] = { 0, 0 }, i;

	for (i = 0; i < p->n; i++) {
		struct hog_val x = resolve(F, p->val[i]);
		int k = !!in[p->pred[i]];

		if (x.kind != HV_CONST || (have[k] && v[k] != x.cst))
			return -1;
		v[k] = x.cst;
		have[k] = 1;
	}
	if (!have[0] || !have[1] || !F->var[p->dst].ptr)
		return -1;
	if (holds(op, v[0], rv) == taken_true)
		return 0;
	return holds(op, v[1], rv) == taken_true ? 1 : -1;
}

static int invert_op(int op);

/* the event of kind k that made variable v, NULL if none */
static const struct lc_ev *def_event(struct lc_fn *F, int v, int k)
{
	int b, e;

	for (b = 0; b < F->nb; b++)
		for (e = 0; e < F->b[b].nev; e++)
			if (F->b[b].ev[e].kind == k && F->b[b].ev[e].dst == v)
				return &F->b[b].ev[e];
	return NULL;
}

/* the "!" or "!!" that made variable v, NULL if none */
static const struct lc_ev *not_of_var(struct lc_fn *F, int v)
{
	const struct lc_ev *x = def_event(F, v, HE_ASSIGN);

	return x && x->nargs == 1 && x->callee &&
	       (!strcmp(x->callee, "!") || !strcmp(x->callee, "!!")) ? x : NULL;
}

/*
 * "if (RB_WARN_ON(b, ++nr_loops > 2))": the exit tests a flag that holds
 * a comparison, through "!" and "!!" (the plugin's tested_compare()).
 * *op, *l, *r become the comparison, inverted where the flag's test is.
 */
#define NOT_DEPTH 4

static void tested_compare(struct lc_fn *F, int *op, struct hog_val *l, struct hog_val *r)
{
	struct hog_val v = *l;
	int neg = *op == CXBinaryOperator_EQ, n, c;
	const struct lc_ev *e;

	if ((*op != CXBinaryOperator_NE && *op != CXBinaryOperator_EQ) ||
	    r->kind != HV_CONST || r->cst)
		return;
	for (n = 0; n < NOT_DEPTH; n++) {
		v = resolve(F, v);
		if (v.kind != HV_VAR)
			return;
		c = F->var[v.var].cop;
		if (c >= CXBinaryOperator_LT && c <= CXBinaryOperator_NE) {
			*op = neg ? invert_op(c) : c;
			*l = resolve(F, F->var[v.var].ca);
			*r = resolve(F, F->var[v.var].cb);
			return;
		}
		if (!(e = not_of_var(F, v.var)))
			return;
		neg ^= !strcmp(e->callee, "!");
		v = e->a[0];
	}
}

/* "for (i = 0; i < 16; i++)", "while (tries--)": rounds before the exit edge b -> out */
static long long exit_count(struct lc_fn *F, int b, int out, const char *in)
{
	struct lc_blk *bl = &F->b[b];
	struct hog_val l = bl->cmp.l, r = bl->cmp.r;
	int op = bl->cmp.op, pi, taken_true;
	long long init, step, k;

	if (!op || bl->nsucc != 2)
		return -1;
	l = resolve(F, l);
	r = resolve(F, r);
	tested_compare(F, &op, &l, &r);
	if (r.kind != HV_CONST) {
		struct hog_val t = l;

		l = r;
		r = t;
		op = swap_op(op);
	}
	/* ++tries > 2: the phi plus its step, against the constant less it */
	if (r.kind == HV_CONST && l.kind == HV_VAR && F->var[l.var].kind == VK_ADD) {
		r.cst -= F->var[l.var].step;
		l = resolve(F, F->var[l.var].arg0);
	}
	if (r.kind != HV_CONST || (pi = header_phi(F, l, bl->succ[0] == out ?
					   bl->succ[1] : bl->succ[0])) < 0) {
		/* the tested phi sits in the header, not necessarily the next block */
		int h;

		pi = -1;
		for (h = 0; h < F->nb && pi < 0 && r.kind == HV_CONST; h++)
			if (in[h])
				pi = header_phi(F, l, h);
		if (pi < 0)
			return -1;
	}
	taken_true = bl->succ[0] == out;
	if (ordered_op(op) && !phi_iv(F, pi, in, &init, &step) && min_step_up(F, pi, in, &init))
		step = 1;
	else if (!phi_iv(F, pi, in, &init, &step))
		return once_exit(F, pi, in, op, r.cst, taken_true);
	for (k = 0; k <= MAX_COUNT; k++)
		if (holds(op, init + k * step, r.cst) == taken_true)
			return k;
	return -1;
}

/* next = cur->f loaded through the phi: "\001N\002/T.f^", one load; its T.f */
static int loaded_field(const char *a, int var, char *tag, size_t tn, char *fld, size_t fn)
{
	char pre[32];
	const char *rest, *slash, *dot;
	size_t l;

	snprintf(pre, sizeof(pre), "\001%d\002", var);
	if (!a || strncmp(a, pre, strlen(pre)))
		return 0;
	rest = a + strlen(pre);
	l = strlen(rest);
	if (!l || rest[l - 1] != '^' || memchr(rest, '^', l - 1))
		return 0;
	slash = NULL;
	for (dot = rest; *dot; dot++)
		if (*dot == '/')
			slash = dot;
	if (!slash || !(dot = strchr(slash, '.')))
		return 0;
	snprintf(tag, tn, "%.*s", (int)(dot - slash - 1), slash + 1);
	snprintf(fld, fn, "%.*s", (int)(rest + l - 1 - dot - 1), dot + 1);
	return 1;
}

/* is v what a call returned, through phis of such values and constants? */
static int from_call(struct lc_fn *F, struct hog_val v, int depth)
{
	struct lc_phi *p;
	int i;

	v = resolve(F, v);
	if (v.kind != HV_VAR || depth > 8)
		return 0;
	if (F->var[v.var].kind == VK_CALL || F->var[v.var].kind == VK_ASM)
		return 1;
	if (F->var[v.var].kind != VK_PHI)
		return 0;
	p = &F->phi[F->var[v.var].phi];
	for (i = 0; i < p->n; i++) {
		struct hog_val a = resolve(F, p->val[i]);

		if (a.kind != HV_CONST && !from_call(F, a, depth + 1))
			return 0;
	}
	return 1;
}

static enum hog_loop_shape phi_shape(struct lc_fn *F, struct lc_phi *p, const char *in,
				     enum hog_loop_shape shape, int *carried)
{
	char tag[256], fld[256];
	long long init, step;
	int i;

	for (i = 0; i < p->n; i++) {
		struct hog_val v = resolve(F, p->val[i]);

		if (!in[p->pred[i]] || (v.kind == HV_VAR && v.var == p->dst))
			continue;
		(*carried)++;
		if (F->var[p->dst].ptr) {
			if (v.kind == HV_VAR && F->var[v.var].kind == VK_CALL &&
			    F->var[v.var].callee &&
			    hog_rules_is_parent_call(F->rules, F->var[v.var].callee)) {
				struct hog_val a = resolve(F, F->var[v.var].arg0);

				if (a.kind == HV_VAR && a.var == p->dst)
					return HL_PARENT_WALK;
			}
			if (v.kind == HV_ADDR &&
			    loaded_field(v.addr, p->dst, tag, sizeof(tag), fld, sizeof(fld))) {
				if (hog_rules_is_parent_field(F->rules, tag, fld))
					return HL_PARENT_WALK;
				shape = HL_PTRCHASE;
			}
		} else if (shape == HL_OTHER && phi_iv(F, p - F->phi, in, &init, &step)) {
			shape = HL_COUNTED;
		} else if (shape == HL_OTHER && v.kind == HV_VAR && F->var[v.var].kind == VK_ADD &&
			   resolve(F, F->var[v.var].arg0).kind == HV_VAR &&
			   resolve(F, F->var[v.var].arg0).var == p->dst) {
			shape = HL_COUNTED;
		}
	}
	return shape;
}

static enum hog_loop_shape loop_shape(struct lc_fn *F, int h, const char *in, int *exits_ok)
{
	enum hog_loop_shape shape = HL_OTHER, s;
	int i, j, carried = 0, nexit = 0, calls = 1;

	for (i = 0; i < F->b[h].nphi; i++) {
		struct lc_phi *p = &F->phi[F->b[h].phis[i]];

		if (p->dead)
			continue;
		s = phi_shape(F, p, in, shape, &carried);
		if (s == HL_PARENT_WALK)
			return s;
		shape = s;
	}
	for (i = 0; i < F->nb; i++) {
		if (!in[i])
			continue;
		for (j = 0; j < F->b[i].nsucc; j++) {
			if (in[F->b[i].succ[j]])
				continue;
			nexit++;
			if (!F->b[i].cmp.op || !from_call(F, F->b[i].cmp.l, 0))
				calls = 0;
		}
	}
	*exits_ok = nexit && calls;
	return !carried && *exits_ok ? HL_RETRY : shape;
}

/*
 * Containers that grow with the machine or the workload (rules/README.md,
 * "scales"), as the plugin's loop_scales(): does an exit test a value
 * that moves with the loop against a global, a STRUCT.FIELD or an
 * iterator's result the rules name, or one that comes from such?  The
 * walk follows phis, loads, pointer steps and a call's first argument,
 * within a budget; not integer arithmetic, which counts, not walks.
 */
#define SCALES_STEPS 64

static int val_scales(struct lc_fn *F, struct hog_val v, int *budget, char *seen);

/* the variable an address's root names ("\001N\002" a phi, "vN" a call), -1 none */
static int addr_root_var(const char *a)
{
	if (a && a[0] == '\001')
		return atoi(a + 1);
	if (a && a[0] == 'v' && a[1] >= '0' && a[1] <= '9')
		return atoi(a + 1);
	return -1;
}

static int addr_scales(struct lc_fn *F, const char *a, int *budget, char *seen)
{
	char tag[256], fld[256];
	const char *p, *e, *dot;
	int v;

	if (!a)
		return 0;
	if (a[0] == '@') {
		e = a + 1 + strcspn(a + 1, "/^#[");
		snprintf(fld, sizeof(fld), "%.*s", (int)(e - a - 1), a + 1);
		if (hog_rules_scales(F->rules, NULL, fld))
			return 1;
	}
	for (p = strchr(a, '/'); p; p = strchr(p + 1, '/')) {
		e = p + 1 + strcspn(p + 1, "/^#[");
		dot = memchr(p + 1, '.', e - p - 1);
		if (!dot)
			continue;
		snprintf(tag, sizeof(tag), "%.*s", (int)(dot - p - 1), p + 1);
		snprintf(fld, sizeof(fld), "%.*s", (int)(e - dot - 1), dot + 1);
		if (hog_rules_scales(F->rules, tag, fld))
			return 1;
	}
	v = addr_root_var(a);
	return v >= 0 && v < F->nvar && val_scales(F, lc_varval(v), budget, seen);
}

static int val_scales(struct lc_fn *F, struct hog_val v, int *budget, char *seen)
{
	const struct lc_var *x;
	struct lc_phi *p;
	int i;

	v = resolve(F, v);
	if (--*budget < 0)
		return 0;
	if (v.kind == HV_ADDR)
		return addr_scales(F, v.addr, budget, seen);
	if (v.kind != HV_VAR || seen[v.var])
		return 0;
	seen[v.var] = 1;
	x = &F->var[v.var];
	switch (x->kind) {
	case VK_CALL:
		if (x->callee && hog_rules_scales(F->rules, NULL, x->callee))
			return 1;
		return val_scales(F, x->arg0, budget, seen);
	case VK_PHI:
		p = &F->phi[x->phi];
		for (i = 0; i < p->n; i++)
			if (val_scales(F, p->val[i], budget, seen))
				return 1;
		return 0;
	case VK_LOAD:
		return addr_scales(F, x->load, budget, seen);
	case VK_ADD:
		return x->ptr && val_scales(F, x->arg0, budget, seen);
	default:
		return 0;
	}
}

/* Does v move with loop h: a header phi, or made from one (arithmetic too)? */
#define MOVES_DEPTH 6

static int moves_with(struct lc_fn *F, struct hog_val v, int h, int depth)
{
	const struct lc_var *x;
	int r;

	v = resolve(F, v);
	if (depth > MOVES_DEPTH)
		return 0;
	if (v.kind == HV_ADDR) {
		r = addr_root_var(v.addr);
		return r >= 0 && r < F->nvar && moves_with(F, lc_varval(r), h, depth + 1);
	}
	if (v.kind != HV_VAR)
		return 0;
	if (header_phi(F, v, h) >= 0)
		return 1;
	x = &F->var[v.var];
	switch (x->kind) {
	case VK_CALL:
	case VK_ADD:
		return moves_with(F, x->arg0, h, depth + 1);
	case VK_LOAD:
		return moves_with(F, (struct hog_val){ .kind = HV_ADDR, .addr = x->load }, h,
				  depth + 1);
	default:
		return x->cop && (moves_with(F, x->ca, h, depth + 1) ||
				  moves_with(F, x->cb, h, depth + 1));
	}
}

static int loop_scales(struct lc_fn *F, int h, const char *in)
{
	char *seen;
	int i, j, k, budget, r = 0;

	if (!F->rules->fe.scales.n)
		return 0;
	seen = hog_xcalloc(F->nvar + 1, 1);
	for (i = 0; i < F->nb && !r; i++) {
		const struct lc_cmp *c = &F->b[i].cmp;

		if (!in[i] || !c->op)
			continue;
		for (j = 0; j < F->b[i].nsucc && in[F->b[i].succ[j]]; j++)
			;
		if (j == F->b[i].nsucc)
			continue;	/* not an exit */
		if (!moves_with(F, c->l, h, 0) && !moves_with(F, c->r, h, 0))
			continue;
		for (k = 0; k < 2 && !r; k++) {
			memset(seen, 0, F->nvar + 1);
			budget = SCALES_STEPS;
			r = val_scales(F, k ? c->r : c->l, &budget, seen);
		}
	}
	free(seen);
	return r;
}

static void loop_where(struct lc_fn *F, int h, const char *in, int *line, int *col)
{
	int i;

	*line = F->b[h].line;
	*col = F->b[h].col;
	for (i = 0; i < F->nb && !*line; i++)
		if (in[i] && F->b[i].nev) {
			*line = F->b[i].ev[0].line;
			*col = F->b[i].ev[0].col;
		}
}

/*
 * Caps (the plugin's value_cap(), rules/README.md "bound"): the most a
 * value can be, from constants, the rules' caps of a call's result or a
 * field, and the operations between them; values are taken as not
 * negative.  A cycle of phis (limit >>= 1 round the loop) is capped by
 * its inputs from outside when every operation on it lowers the value;
 * one that may raise it (+=) is unknown.  A struct cap carries, besides
 * the most its inputs from outside give (-1 unknown, CAP_NONE none yet),
 * the outermost phi being capped that it reaches again (0 none).
 */
#define CAP_DEPTH 16
#define CAP_MAX (1LL << 40)
#define CAP_NONE (-2)

struct cap {
	long long max;
	int cyc;	/* lc_phi.capping of the phi the cycle closes at, 0 none */
};

static struct cap cap_of(long long max, int cyc)
{
	struct cap c = { max, cyc };

	return c;
}

static int cyc_of(struct cap a, struct cap b)
{
	if (!a.cyc || !b.cyc)
		return a.cyc ? a.cyc : b.cyc;
	return a.cyc < b.cyc ? a.cyc : b.cyc;
}

static long long field_cap(struct lc_fn *F, const char *a)
{
	const char *sl = a ? strrchr(a, '/') : NULL, *dot;
	char tag[256];

	if (!sl || strpbrk(sl, "^#[") || !(dot = strchr(sl, '.')) || dot - sl - 1 >= (int)sizeof(tag))
		return -1;
	snprintf(tag, sizeof(tag), "%.*s", (int)(dot - sl - 1), sl + 1);
	return hog_rules_bound(F->rules, tag, dot + 1);
}

static struct cap cap_op(int op, struct cap a, struct cap b)
{
	int cyc = cyc_of(a, b);

	/* x >> y, x / y: at most x, whatever y is */
	if (op == CXBinaryOperator_Shr || op == CXBinaryOperator_Div)
		return a;
	if (a.max == -1 || b.max == -1) {
		/* x & K is at most K, whatever x is */
		if (op == CXBinaryOperator_And && (a.max >= 0 || b.max >= 0) && !(a.cyc && b.cyc))
			return cap_of(a.max >= 0 ? a.max : b.max, 0);
		return cap_of(-1, 0);
	}
	switch (op) {
	case CXBinaryOperator_And:
		if (a.max >= 0 && b.max >= 0)
			return cap_of(a.max < b.max ? a.max : b.max, cyc);
		return a.max >= 0 ? a : b;
	case CXBinaryOperator_Add:
	case CXBinaryOperator_Mul:
	case CXBinaryOperator_Shl:
		/* may raise a value round a cycle: no cap */
		if (cyc || a.max < 0 || b.max < 0)
			return cap_of(-1, 0);
		if (op == CXBinaryOperator_Add)
			return cap_of(a.max + b.max > CAP_MAX ? -1 : a.max + b.max, 0);
		if (op == CXBinaryOperator_Mul)
			return cap_of(b.max && a.max > CAP_MAX / b.max ? -1 : a.max * b.max, 0);
		return cap_of(b.max > 40 || (a.max << b.max) > CAP_MAX ? -1 : a.max << b.max, 0);
	default:
		return cap_of(-1, 0);
	}
}

static struct cap value_cap(struct lc_fn *F, struct hog_val v, int depth);

static struct cap phi_cap(struct lc_fn *F, int pi, int depth)
{
	struct lc_phi *p = &F->phi[pi];
	struct cap r = { CAP_NONE, 0 }, c;
	int i;

	if (p->capping)
		return cap_of(CAP_NONE, p->capping);
	p->capping = depth + 1;
	for (i = 0; i < p->n; i++) {
		c = value_cap(F, p->val[i], depth + 1);
		if (c.max == -1) {
			r = c;
			break;
		}
		if (c.max > r.max)
			r.max = c.max;
		r.cyc = cyc_of(r, c);
	}
	/* the cycle closes here: what came from outside caps it */
	if (r.cyc == p->capping)
		r.cyc = 0;
	p->capping = 0;
	return r;
}

static struct cap value_cap(struct lc_fn *F, struct hog_val v, int depth)
{
	struct lc_var *x;

	v = resolve(F, v);
	if (depth > CAP_DEPTH)
		return cap_of(-1, 0);
	if (v.kind == HV_CONST)
		return cap_of(v.cst >= 0 ? v.cst : -1, 0);
	if (v.kind != HV_VAR)
		return cap_of(-1, 0);
	x = &F->var[v.var];
	if (x->kind == VK_PHI)
		return phi_cap(F, x->phi, depth);
	if (x->kind == VK_CALL)
		return cap_of(x->callee ? hog_rules_bound(F->rules, NULL, x->callee) : -1, 0);
	if (x->kind == VK_LOAD) {
		long long c = field_cap(F, x->load);

		/* a u8 count of groups or ports is at most 255 (the plugin's type_cap()) */
		if (x->small && (c < 0 || c > 255))
			c = 255;
		return cap_of(c, 0);
	}
	if (x->kind == VK_ADD)
		return x->step < 0 ? cap_of(-1, 0) :
		       cap_op(CXBinaryOperator_Add, value_cap(F, x->arg0, depth + 1),
			      cap_of(x->step, 0));
	if (!x->cop)
		return cap_of(-1, 0);
	return cap_op(x->cop, value_cap(F, x->ca, depth + 1), value_cap(F, x->cb, depth + 1));
}

/* the cap of v, -1 when unknown */
static long long cap_value(struct lc_fn *F, struct hog_val v)
{
	struct cap c = value_cap(F, v, 0);

	return c.cyc || c.max < 0 ? -1 : c.max;
}

/* a header phi's step round the loop (x = x + CST), whatever it starts at */
static int phi_step_only(struct lc_fn *F, int pi, const char *in, long long *step)
{
	struct lc_phi *p = &F->phi[pi];
	int i, have = 0;

	for (i = 0; i < p->n; i++) {
		struct hog_val v = resolve(F, p->val[i]);

		if (!in[p->pred[i]])
			continue;
		if (v.kind != HV_VAR || F->var[v.var].kind != VK_ADD ||
		    resolve(F, F->var[v.var].arg0).kind != HV_VAR ||
		    resolve(F, F->var[v.var].arg0).var != p->dst ||
		    (have && *step != F->var[v.var].step))
			return 0;
		*step = F->var[v.var].step;
		have = 1;
	}
	return have && *step;
}

/*
 * "for (i = 0; i < folio_batch_count(fb); i++)", "scanned++ ... if
 * (scanned >= limit) break": an exit taken on every round (its block
 * dominates every latch) that tests an induction variable counting up
 * against a capped value (the plugin's exit_cap()).
 */
/*
 * A bitmap walk (rules/README.md, "iterator"), as the plugin's
 * iter_exit(): for_each_set_bit()'s "bit = find_next_bit(addr, size,
 * bit), bit < size; bit++".  The counter moves on by at least one every
 * round and the loop stays while it is below a constant or a value the
 * rules cap (ieee80211_hw.queues): at most that many rounds, plus one.
 */
#define ITER_DEPTH 4

/* an iterator's argument the rules name, and *step; NULL unless v is such a call's result */
static const struct hog_val *iter_arg(struct lc_fn *F, struct hog_val v, int *step)
{
	const struct lc_ev *c;
	int arg;

	v = resolve(F, v);
	if (v.kind != HV_VAR || F->var[v.var].kind != VK_CALL || !F->var[v.var].callee)
		return NULL;
	arg = hog_rules_iterator(F->rules, F->var[v.var].callee, step);
	c = arg >= 0 ? def_event(F, v.var, HE_CALL) : NULL;
	return c && arg < c->nargs ? &c->a[arg] : NULL;
}

/* how far v is past phi variable dst at least, through iterators and "+ k" (0 <= k <= 1); -1 */
static int iter_advance(struct lc_fn *F, struct hog_val v, int dst, int depth)
{
	const struct hog_val *a;
	int step, r;

	v = resolve(F, v);
	if (v.kind != HV_VAR || depth > ITER_DEPTH)
		return -1;
	if (v.var == dst)
		return 0;
	if (F->var[v.var].kind == VK_ADD) {
		if (F->var[v.var].step < 0 || F->var[v.var].step > 1)
			return -1;
		r = iter_advance(F, F->var[v.var].arg0, dst, depth + 1);
		return r < 0 ? -1 : r + (int)F->var[v.var].step;
	}
	if (!(a = iter_arg(F, v, &step)))
		return -1;
	r = iter_advance(F, *a, dst, depth + 1);
	return r < 0 ? -1 : r + step;
}

/* the least phi pi moves on by round the loop, 0 if it may not */
static int iter_moves(struct lc_fn *F, int pi, const char *in)
{
	struct lc_phi *p = &F->phi[pi];
	int i, m = -1, r;

	for (i = 0; i < p->n; i++) {
		if (!in[p->pred[i]])
			continue;
		r = iter_advance(F, p->val[i], p->dst, 0);
		if (r <= 0)
			return 0;
		m = m < 0 || r < m ? r : m;
	}
	return m > 0 ? m : 0;
}

static int invert_op(int op)
{
	switch (op) {
	case CXBinaryOperator_LT: return CXBinaryOperator_GE;
	case CXBinaryOperator_LE: return CXBinaryOperator_GT;
	case CXBinaryOperator_GT: return CXBinaryOperator_LE;
	case CXBinaryOperator_GE: return CXBinaryOperator_LT;
	case CXBinaryOperator_EQ: return CXBinaryOperator_NE;
	case CXBinaryOperator_NE: return CXBinaryOperator_EQ;
	}
	return 0;
}

/* Is phi pi a local of an unsigned integer type? */
static int phi_unsigned(struct lc_fn *F, int pi)
{
	int li = F->phi[pi].local;
	CXType t;

	if (li < 0 || li >= F->nloc)
		return 0;
	t = clang_getCanonicalType(clang_getCursorType(F->loc[li].decl));
	return t.kind == CXType_UChar || t.kind == CXType_Char_U || t.kind == CXType_UShort ||
	       t.kind == CXType_UInt || t.kind == CXType_ULong || t.kind == CXType_ULongLong;
}

/* x stays below lim (op, the way that stays in the loop): rounds, -1 unknown */
static long long iter_walk(struct lc_fn *F, struct hog_val x, struct hog_val lim, int op,
			   const char *in, int h)
{
	const struct hog_val *a;
	long long k;
	int pi, m, step;

	if (op != CXBinaryOperator_LT && op != CXBinaryOperator_LE)
		return -1;
	k = cap_value(F, lim);
	if (k < 0 || k > (1 << 30))
		return -1;
	pi = header_phi(F, x, h);
	if (pi < 0 && (a = iter_arg(F, x, &step)))
		pi = header_phi(F, *a, h);
	if (pi < 0 || !(m = iter_moves(F, pi, in)))
		return -1;
	k += op == CXBinaryOperator_LE;
	/* plus one for a start at -1; by two or more, ceil(k / m), one more if signed */
	if (m == 1)
		return k + 1;
	if (!phi_unsigned(F, pi))
		k++;
	return (k + m - 1) / m;
}

static long long exit_cap(struct lc_fn *F, int b, const char *in, int h, const int *idom)
{
	struct lc_blk *bl = &F->b[b];
	long long step, cap;
	int k, i, pi;

	if (!bl->cmp.op || bl->nsucc != 2)
		return -1;
	for (i = 0; i < F->b[h].npred; i++)
		if (in[F->b[h].pred[i]] && !dominates(idom, b, F->b[h].pred[i]))
			return -1;
	for (k = 0; k < 2; k++) {
		struct hog_val iv = resolve(F, k ? bl->cmp.r : bl->cmp.l);
		struct hog_val other = k ? bl->cmp.l : bl->cmp.r;

		/* scanned++ then the test: the phi plus its step */
		if (iv.kind == HV_VAR && F->var[iv.var].kind == VK_ADD)
			iv = resolve(F, F->var[iv.var].arg0);
		pi = header_phi(F, iv, h);
		if (pi < 0 || !phi_step_only(F, pi, in, &step) || step <= 0)
			continue;
		cap = cap_value(F, other);
		if (cap >= 0)
			return cap / step;
	}
	/* else a walk an iterator moves on (find_next_bit()), as the plugin's last resort */
	for (k = 0; k < 2; k++) {
		int stay = in[bl->succ[0]] ? bl->cmp.op : invert_op(bl->cmp.op);

		if ((cap = iter_walk(F, resolve(F, k ? bl->cmp.r : bl->cmp.l),
				     k ? bl->cmp.l : bl->cmp.r, k ? swap_op(stay) : stay, in, h)) >= 0)
			return cap;
	}
	return -1;
}

/* Does every way to latch b pass the edge of a test of phi pi against k where it is not k? */
static int latch_needs_other(struct lc_fn *F, const char *in, int h, const int *idom, int b,
			     int pi, long long k)
{
	int x;

	for (x = b; x != h && x > 0 && in[x]; x = idom[x]) {
		struct lc_blk *q;
		struct hog_val l, r;
		int op, taken_true;

		if (F->b[x].npred != 1)
			continue;
		q = &F->b[F->b[x].pred[0]];
		if (!q->cmp.op || q->nsucc != 2 || q->succ[0] == q->succ[1])
			continue;
		l = resolve(F, q->cmp.l);
		r = resolve(F, q->cmp.r);
		op = q->cmp.op;
		if (r.kind != HV_CONST) {
			struct hog_val t = l;

			l = r;
			r = t;
			op = swap_op(op);
		}
		if (r.kind != HV_CONST || r.cst != k || header_phi(F, l, h) != pi)
			continue;
		taken_true = q->succ[0] == x;
		if ((op == CXBinaryOperator_EQ && !taken_true) ||
		    (op == CXBinaryOperator_NE && taken_true))
			return 1;
	}
	return 0;
}

/*
 * "if (prio == NORMAL) ... else if (!p) { prio = NORMAL; goto
 * find_priolist; }": every way round needs a header value other than
 * K and brings K back, so the loop goes round once at most (the
 * plugin's latch_once()).
 */
static long long latch_once(struct lc_fn *F, const char *in, int h, const int *idom)
{
	int i, j;

	for (i = 0; i < F->b[h].nphi; i++) {
		int pi = F->b[h].phis[i], have = 0, ok = 1;
		struct lc_phi *p = &F->phi[pi];
		long long k = 0;

		for (j = 0; j < p->n && ok; j++) {
			struct hog_val v = resolve(F, p->val[j]);

			if (!in[p->pred[j]])
				continue;
			if (v.kind != HV_CONST || (have && v.cst != k)) {
				ok = 0;
				break;
			}
			k = v.cst;
			have = 1;
		}
		if (!ok || !have || F->var[p->dst].ptr)
			continue;
		for (j = 0; j < p->n && ok; j++)
			if (in[p->pred[j]] && !latch_needs_other(F, in, h, idom, p->pred[j], pi, k))
				ok = 0;
		if (ok)
			return 1;
	}
	return -1;
}

/*
 * A state that only moves one way through constants (the plugin's
 * state_cap()): "for (;;) { ...; switch (state) { case A: ...; state = B;
 * break; case B: ...; state = C; break; case C: BUG(); } }".  The
 * switch is a chain of HC_EQK tests on the header's phi.
 */
#define STATE_MAX	16
#define STATE_DEPTH	8

struct state_way {
	long long c;
	int from;		/* the block the way round sets it in */
	int self;		/* it keeps the header's value */
};

struct state {
	const char *in;
	int h, pi;
	int test[STATE_MAX], ntest;	/* the switch's tests, in chain order */
	int dflt;			/* where the last test's other way goes */
	struct state_way way[STATE_MAX];
	long long val[STATE_MAX];
	int nway, nval;
};

static int state_add_val(struct state *st, long long c)
{
	int k;

	for (k = 0; k < st->nval && st->val[k] != c; k++)
		;
	if (k == st->nval && st->nval == STATE_MAX)
		return 0;
	if (k == st->nval)
		st->val[st->nval++] = c;
	return 1;
}

/* the block holding phi pi, -1 if none */
static int phi_block(struct lc_fn *F, int pi)
{
	int b;

	for (b = 0; b < F->nb; b++)
		if (has_int(F->b[b].phis, F->b[b].nphi, pi))
			return b;
	return -1;
}

/* the constants v can be on entry, through phis outside the loop; 0 if others */
static int state_entry(struct lc_fn *F, struct state *st, struct hog_val v, int depth)
{
	struct lc_phi *p;
	int j;

	v = resolve(F, v);
	if (v.kind == HV_CONST)
		return state_add_val(st, v.cst);
	if (depth > STATE_DEPTH || v.kind != HV_VAR || F->var[v.var].kind != VK_PHI)
		return 0;
	p = &F->phi[F->var[v.var].phi];
	for (j = 0; j < p->n; j++)
		if (!state_entry(F, st, p->val[j], depth + 1))
			return 0;
	return 1;
}

/* the ways round: what each sets the state to, and where; 0 if not constants */
static int state_ways(struct lc_fn *F, struct state *st, struct hog_val v, int from, int depth)
{
	struct lc_phi *p;
	int j, b;

	v = resolve(F, v);
	if (st->nway == STATE_MAX || depth > STATE_DEPTH)
		return 0;
	if (v.kind == HV_VAR && v.var == F->phi[st->pi].dst) {
		st->way[st->nway++] = (struct state_way){ 0, from, 1 };
		return 1;
	}
	if (v.kind == HV_CONST) {
		st->way[st->nway++] = (struct state_way){ v.cst, from, 0 };
		return state_add_val(st, v.cst);
	}
	if (v.kind != HV_VAR || F->var[v.var].kind != VK_PHI)
		return 0;
	b = phi_block(F, F->var[v.var].phi);
	if (b < 0 || b == st->h || !st->in[b])
		return 0;
	p = &F->phi[F->var[v.var].phi];
	for (j = 0; j < p->n; j++)
		if (!state_ways(F, st, p->val[j], p->pred[j], depth + 1))
			return 0;
	return 1;
}

/* the switch's tests on the header's phi, first to last; 0 if none */
static int state_switch(struct lc_fn *F, struct state *st)
{
	int b, k, first = -1;

	for (b = 0; b < F->nb; b++)
		if (st->in[b] && F->b[b].cond == HC_EQK && F->b[b].nsucc == 2 &&
		    header_phi(F, lc_varval(F->b[b].cond_var), st->h) == st->pi) {
			int j, chained = 0;

			for (j = 0; j < F->b[b].npred; j++) {
				struct lc_blk *q = &F->b[F->b[b].pred[j]];

				chained |= q->cond == HC_EQK && q->nsucc == 2 && q->succ[1] == b &&
					   q->cond_var == F->b[b].cond_var;
			}
			if (!chained) {
				if (first >= 0)
					return 0;	/* two switches on it */
				first = b;
			}
		}
	if (first < 0)
		return 0;
	for (b = first, st->ntest = 0; ; b = F->b[b].succ[1]) {
		if (st->ntest == STATE_MAX)
			return 0;
		st->test[st->ntest++] = b;
		k = F->b[b].succ[1];
		if (F->b[k].cond != HC_EQK || F->b[k].nsucc != 2 ||
		    F->b[k].cond_var != F->b[first].cond_var || !st->in[k])
			break;
	}
	st->dflt = F->b[b].succ[1];
	return 1;
}

/* can "from" reach "to" in the loop, neither through its header nor the switch? */
static int state_reaches(struct lc_fn *F, const struct state *st, int from, int to)
{
	char *seen;
	int b, k, ok;

	if (from == to)
		return 1;
	seen = hog_xcalloc(F->nb + 1, 1);
	for (b = 0; b < F->nb; b++)
		seen[b] = !st->in[b];
	seen[st->h] = 1;
	for (k = 0; k < st->ntest; k++)
		seen[st->test[k]] = 1;
	ok = !seen[from] && !seen[to];
	if (ok) {
		reach(F, from, seen);
		ok = seen[to];
	}
	free(seen);
	return ok;
}

/* does way w come only from cases on one side of what it sets (*dir)? */
static int state_moves(struct lc_fn *F, const struct state *st, const struct state_way *w,
		       const int *idom, int *dir)
{
	int k;

	if (!dominates(idom, st->test[0], w->from))
		return 0;
	/* the switch's own edge (a fallthrough's phi): a case that keeps the value */
	for (k = 0; k < st->ntest; k++)
		if (w->from == st->test[k])
			return 0;
	if (!w->self && state_reaches(F, st, st->dflt, w->from))
		return 0;
	for (k = 0; k < st->ntest; k++) {
		const struct lc_blk *t = &F->b[st->test[k]];
		int d;

		if (!state_reaches(F, st, t->succ[0], w->from))
			continue;
		if (w->self)
			return 0;
		d = w->c > t->cond_hi ? 1 : w->c < t->cond_val ? -1 : 0;
		if (!d || (*dir && d != *dir))
			return 0;
		*dir = d;
	}
	return 1;
}

static int state_has_case(struct lc_fn *F, const struct state *st, long long v)
{
	int k;

	for (k = 0; k < st->ntest; k++)
		if (F->b[st->test[k]].cond_val <= v && v <= F->b[st->test[k]].cond_hi)
			return 1;
	return 0;
}

static long long state_cap(struct lc_fn *F, const char *in, int h, const int *idom)
{
	int i, j, k;

	for (i = 0; i < F->b[h].nphi; i++) {
		struct state st = { .in = in, .h = h, .pi = F->b[h].phis[i] };
		struct lc_phi *p = &F->phi[st.pi];
		int ok = 1, dir = 0, moves = 0;

		if (p->dead || F->var[p->dst].ptr || !state_switch(F, &st))
			continue;
		for (j = 0; j < p->n && ok; j++)
			ok = in[p->pred[j]] ? state_ways(F, &st, p->val[j], p->pred[j], 0) :
					      state_entry(F, &st, p->val[j], 0);
		for (k = 0; ok && k < st.nway; k++) {
			ok = state_moves(F, &st, &st.way[k], idom, &dir);
			moves += !st.way[k].self;
		}
		for (k = 0; ok && k < st.nval; k++)
			ok = state_has_case(F, &st, st.val[k]);
		if (ok)
			return moves ? st.nval - 1 : 0;
	}
	return -1;
}

static long long loop_bound(struct lc_fn *F, const char *in, int h, const int *idom)
{
	long long bound = -1, n;
	int i, j;

	for (i = 0; i < F->nb; i++) {
		if (!in[i])
			continue;
		for (j = 0; j < F->b[i].nsucc; j++) {
			if (in[F->b[i].succ[j]])
				continue;
			n = exit_count(F, i, F->b[i].succ[j], in);
			if (n < 0)
				n = exit_cap(F, i, in, h, idom);
			if (n >= 0 && (bound < 0 || n < bound))
				bound = n;
		}
	}
	if (latch_once(F, in, h, idom) == 1 && (bound < 0 || bound > 1))
		bound = 1;
	n = state_cap(F, in, h, idom);
	if (n >= 0 && (bound < 0 || n < bound))
		bound = n;
	return bound;
}

/*
 * v = 1 << (x - sub), free_pages_prepare()'s "i < (1 << order)": x, and
 * *sub; else an unknown value and *sub -1.
 */
static struct hog_val shift_count(struct lc_fn *F, struct hog_val v, int *sub)
{
	struct hog_val none = { HV_UNKNOWN, 0, 0, NULL }, one, x, k;
	struct lc_var *d;

	*sub = -1;
	v = resolve(F, v);
	if (v.kind != HV_VAR || F->var[v.var].cop != CXBinaryOperator_Shl)
		return none;
	d = &F->var[v.var];
	one = resolve(F, d->ca);
	if (one.kind != HV_CONST || one.cst != 1)
		return none;
	x = resolve(F, d->cb);
	if (x.kind == HV_UNKNOWN)
		return none;
	*sub = 0;
	if (x.kind != HV_VAR)
		return x;
	d = &F->var[x.var];
	k = resolve(F, d->cb);
	if (d->cop == CXBinaryOperator_Sub && k.kind == HV_CONST && k.cst >= 0 && k.cst < 64) {
		*sub = (int)k.cst;
		return resolve(F, d->ca);
	}
	if (d->kind == VK_ADD && d->step <= 0 && d->step > -64) {
		*sub = (int)-d->step;
		return resolve(F, d->arg0);
	}
	return x;
}

/* a parameter's own value ($N, no step after it): N, else -1 */
static int plain_param(struct hog_val v)
{
	if (v.kind != HV_ADDR || v.addr[0] != '$' || strpbrk(v.addr + 1, "/^[#R"))
		return -1;
	return atoi(v.addr + 1);
}

/* v is x less min(x, C) with C >= 1: "i = min(len, 32); ...; len -= i" */
static int less_min_of(struct lc_fn *F, struct hog_val v, int x)
{
	const struct lc_var *d;
	struct hog_val a, b;
	struct lc_phi *m;
	int j, own = 0, cst = 0;

	v = resolve(F, v);
	if (v.kind != HV_VAR)
		return 0;
	d = &F->var[v.var];
	a = resolve(F, d->ca);
	b = resolve(F, d->cb);
	if (d->cop != CXBinaryOperator_Sub || a.kind != HV_VAR || a.var != x ||
	    b.kind != HV_VAR || F->var[b.var].kind != VK_PHI)
		return 0;
	m = &F->phi[F->var[b.var].phi];
	for (j = 0; j < m->n; j++) {
		struct hog_val w = resolve(F, m->val[j]);

		if (w.kind == HV_VAR && w.var == x)
			own = 1;
		else if (w.kind == HV_CONST && w.cst >= 1)
			cst = 1;
		else
			return 0;
	}
	return own && cst;
}

/*
 * Every way round takes min(itself, C) off the count (the plugin's
 * min_step_down()): at least one while it is not zero, so an exit on
 * zero comes within its start's rounds.
 */
static int min_step_down(struct lc_fn *F, int pi, const char *in)
{
	struct lc_phi *p = &F->phi[pi];
	int i, any = 0;

	for (i = 0; i < p->n; i++) {
		if (!in[p->pred[i]])
			continue;
		if (!less_min_of(F, p->val[i], p->dst))
			return 0;
		any = 1;
	}
	return any;
}

/* from parameter N, or 1 << (N - sub), down by one: N, else -1; *shift as for exit_param() */
static int down_from_param(struct lc_fn *F, struct hog_val iv, const char *in, int *shift)
{
	struct lc_phi *p;
	long long step;
	int h, pi = -1, i, param = -1, sub = -1;

	for (h = 0; h < F->nb && pi < 0; h++)
		if (in[h])
			pi = header_phi(F, iv, h);
	if (pi < 0 || ((!phi_step_only(F, pi, in, &step) || step != -1) && !min_step_down(F, pi, in)))
		return -1;
	p = &F->phi[pi];
	for (i = 0; i < p->n; i++) {
		struct hog_val v = resolve(F, p->val[i]), x;
		int k, n;

		if (in[p->pred[i]])
			continue;
		x = shift_count(F, v, &k);
		n = plain_param(k >= 0 ? x : v);
		if (n < 0 || (param >= 0 && (param != n || sub != k)))
			return -1;
		param = n;
		sub = k;
	}
	*shift = sub;
	return param;
}

/*
 * "for (i = 0; i < n; i++)" with n a parameter: the parameter's index, or
 * -1 (the plugin's exit_param(): a header phi from a constant stepping by
 * +1, tested by <, !=, >= or == against the parameter's value; a start
 * above 0 or a larger step only shortens an i < n loop, i != n must start
 * at 0 and step by one).  *shift:
 * -1, or the count is 1 << (n - *shift).
 */
static int exit_param(struct lc_fn *F, int b, const char *in, int *shift)
{
	struct lc_blk *bl = &F->b[b];
	int k, h, pi;
	long long init, step;

	*shift = -1;
	if (!bl->cmp.op || bl->nsucc != 2)
		return -1;
	for (k = 0; k < 2; k++) {
		struct hog_val iv = resolve(F, k ? bl->cmp.r : bl->cmp.l);
		struct hog_val n = resolve(F, k ? bl->cmp.l : bl->cmp.r), x;
		int op = k ? swap_op(bl->cmp.op) : bl->cmp.op, sub, p;

		/* while (order-- > 0), while (n--): from the parameter down by one */
		if (n.kind == HV_CONST && !n.cst && (op == CXBinaryOperator_NE ||
		    op == CXBinaryOperator_GT || op == CXBinaryOperator_EQ ||
		    op == CXBinaryOperator_LE) && (h = down_from_param(F, iv, in, shift)) >= 0)
			return h;
		if (op != CXBinaryOperator_LT && op != CXBinaryOperator_GE &&
		    op != CXBinaryOperator_NE && op != CXBinaryOperator_EQ)
			continue;
		x = shift_count(F, n, &sub);
		if ((p = plain_param(sub >= 0 ? x : n)) < 0)
			continue;
		for (h = 0, pi = -1; h < F->nb && pi < 0; h++)
			if (in[h])
				pi = header_phi(F, iv, h);
		/* i += 8 while i < n: fewer rounds than n; i != n must step by one */
		if (pi >= 0 && phi_iv(F, pi, in, &init, &step) && step >= 1 && init >= 0 &&
		    ((!init && step == 1) || op == CXBinaryOperator_LT || op == CXBinaryOperator_GE)) {
			*shift = sub;
			return p;
		}
	}
	return -1;
}

static int loop_param(struct lc_fn *F, const char *in, int *shift)
{
	int i, j, p;

	for (i = 0; i < F->nb; i++) {
		if (!in[i])
			continue;
		for (j = 0; j < F->b[i].nsucc; j++)
			if (!in[F->b[i].succ[j]] && (p = exit_param(F, i, in, shift)) >= 0)
				return p;
	}
	*shift = -1;
	return -1;
}

static void add_loops(struct lc_fn *F, struct hog_func *f, const char *seen, const int *map)
{
	char *po_seen = hog_xcalloc(F->nb + 1, 1), *in;
	int *po = hog_xmalloc(sizeof(int) * (F->nb + 1)), *num = hog_xcalloc(F->nb + 1, sizeof(int));
	int n = 0, *idom, h, i, j, *blocks = hog_xmalloc(sizeof(int) * (F->nb + 1));

	postorder(F, 0, po_seen, po, &n);
	idom = dominators(F, po, n, num);
	in = hog_xcalloc(F->nb + 1, 1);
	for (h = 0; h < F->nb; h++) {
		int any = 0, nbl = 0, line, col, ok;
		enum hog_loop_shape shape;
		struct hog_loop *l;

		if (!seen[h])
			continue;
		memset(in, 0, F->nb);
		for (i = 0; i < F->b[h].npred; i++) {
			int u = F->b[h].pred[i];

			if (seen[u] && dominates(idom, h, u)) {
				loop_body(F, h, u, in);
				any = 1;
			}
		}
		if (!any)
			continue;
		for (j = 0; j < F->nb; j++)
			if (in[j] && seen[j])
				blocks[nbl++] = map[j];
			else
				in[j] = 0;
		shape = loop_shape(F, h, in, &ok);
		/* a walk over a container that scales is that first, unless it walks up or retries */
		if (shape != HL_PARENT_WALK && shape != HL_RETRY && loop_scales(F, h, in))
			shape = HL_SCALES;
		loop_where(F, h, in, &line, &col);
		l = hog_func_add_loop(F->m, f, map[h], line, col, loop_bound(F, in, h, idom), shape,
				      nbl, blocks);
		l->bound_param = loop_param(F, in, &l->bound_shift);
	}
	free(in);
	free(idom);
	free(num);
	free(po);
	free(po_seen);
	free(blocks);
}

/* ---- building the hog_func ---- */

static void put_phis(struct lc_fn *F, struct hog_func *f, int b, const char *seen,
		     const int *map)
{
	struct hog_block *hb = &f->blocks[map[b]];
	int i, j;

	for (i = 0; i < F->b[b].nphi; i++) {
		struct lc_phi *p = &F->phi[F->b[b].phis[i]];
		struct hog_phi *hp;
		int n = 0;

		if (p->dead)
			continue;
		for (j = 0; j < p->n; j++)
			n += seen[p->pred[j]];
		if (!n)
			continue;
		hp = hog_block_add_phi(F->m, hb, p->dst, n);
		n = 0;
		for (j = 0; j < p->n; j++) {
			if (!seen[p->pred[j]])
				continue;
			hp->pred[n] = map[p->pred[j]];
			hp->val[n++] = fix_val(F, p->val[j]);
		}
	}
}

/* Does a phi merge NULL with something else? */
static int phi_has_null(struct lc_fn *F, int var)
{
	struct lc_phi *p = &F->phi[F->var[var].phi];
	int i;

	for (i = 0; i < p->n; i++) {
		struct hog_val v = resolve(F, p->val[i]);

		if (v.kind == HV_CONST && v.cst == 0)
			return 1;
	}
	return 0;
}

/*
 * A returned pointer that is NULL on some returns stays the phi, as
 * GCC's does: which returns are NULL tells a wrapper that takes a lock
 * only on them (or only on the others) from one that always does.
 */
static struct hog_val ret_val(struct lc_fn *F, struct hog_val v)
{
	struct hog_val r = resolve(F, v);

	if (r.kind == HV_VAR && F->var[r.var].kind == VK_PHI && phi_has_null(F, r.var))
		return r;
	return fix_val(F, v);
}

/* A call's integer argument with a cap: a C record (the plugin's arg_cap()). */
static void arg_cap(struct lc_fn *F, struct hog_func *f, const struct hog_val *v)
{
	long long cap;

	if (v->kind != HV_VAR || v->var < 0 || v->var >= f->nvars || F->var[v->var].ptr ||
	    hog_func_vcap(f, v->var) >= 0)
		return;
	cap = cap_value(F, *v);
	if (cap >= 0)
		hog_func_set_vcap(F->m, f, v->var, cap);
}

static void put_block(struct lc_fn *F, struct hog_func *f, int b, const char *seen,
		      const int *map)
{
	struct lc_blk *lb = &F->b[b];
	struct hog_block *hb = &f->blocks[map[b]];
	int *succ = hog_xmalloc(sizeof(int) * (lb->nsucc + 1)), i, j;

	put_phis(F, f, b, seen, map);
	for (i = 0; i < lb->nev; i++) {
		struct lc_ev *e = &lb->ev[i];
		struct hog_event *he;

		if (e->fstore && !store_kept(F, e))
			continue;
		he = hog_block_add_event(F->m, hb, e->kind, e->line, e->col, e->callee, e->dst,
					 e->nargs);

		for (j = 0; j < e->nargs; j++) {
			he->args[j] = e->kind == HE_RETURN ? ret_val(F, e->a[j]) : fix_val(F, e->a[j]);
			if (e->kind == HE_CALL)
				arg_cap(F, f, &he->args[j]);
		}
	}
	for (i = 0; i < lb->nsucc; i++)
		succ[i] = map[lb->succ[i]];
	hog_block_set_succ(F->m, hb, lb->nsucc, succ);
	free(succ);
	hb->cond = lb->nsucc == 2 ? lb->cond : HC_NONE;
	hb->cond_var = -1;
	hb->cond_val = lb->cond_val;
	hb->cond_hi = lb->cond_hi;
	if (hb->cond == HC_NEZ || hb->cond == HC_EQZ || hb->cond == HC_GTZ ||
	    hb->cond == HC_LEZ || hb->cond == HC_EQK) {
		struct hog_val v = resolve(F, lc_varval(lb->cond_var));

		if (v.kind == HV_VAR)
			hb->cond_var = v.var;
		else
			hb->cond = HC_NONE;
	}
}

/* a test of a phi that turned out to be a parameter's value tests the parameter */
static void fix_conds(struct lc_fn *F)
{
	int i;

	for (i = 0; i < F->nb; i++) {
		struct lc_blk *b = &F->b[i];
		struct hog_val v;

		if (b->cond != HC_NEZ && b->cond != HC_EQZ)
			continue;
		v = resolve(F, lc_varval(b->cond_var));
		if (v.kind == HV_ADDR)
			F->b[i].cond_var = lc_test_var(F, fix_addr(F, v.addr, 0));
	}
}

struct hog_func *lc_finish(struct lc_fn *F, const char *name, int is_static, int line,
			   const char **err)
{
	char *seen = hog_xcalloc(F->nb + 1, 1);
	int *map = hog_xcalloc(F->nb + 1, sizeof(int)), n = 0, i;
	const char **params = hog_xcalloc(F->nloc + 1, sizeof(*params));
	int np = 0;
	struct hog_func *f;

	lc_tie_loads(F);
	for (i = 0; i < F->nb; i++)
		lc_seal(F, i);
	while (remove_trivial(F))
		;
	reach(F, 0, seen);
	for (i = 0; i < F->nb; i++)
		if (seen[i])
			map[i] = n++;
	fix_conds(F);
	fix_field_stores(F);
	for (i = 0; i < F->nloc; i++)
		if (F->loc[i].param >= 0)
			params[F->loc[i].param] = F->loc[i].name ? F->loc[i].name : "";
	for (i = 0; i < F->nloc; i++)
		if (F->loc[i].param >= np)
			np = F->loc[i].param + 1;
	f = hog_func_new(F->m, name, F->file, line, is_static, np, params);
	free(params);
	f->nvars = F->nvar;
	hog_func_set_blocks(F->m, f, n);
	for (i = 0; i < F->nb; i++)
		if (seen[i])
			put_block(F, f, i, seen, map);
	add_loops(F, f, seen, map);
	for (i = 0; i < F->nvar; i++)
		if (F->vname[i] && (F->var[i].kind != VK_PHI || F->var[i].ptr))
			hog_func_set_vname(F->m, f, i, F->vname[i]);
	free(seen);
	free(map);
	if (hog_func_finish(F->m, f, err)) {
		F->m->nfuncs--;
		return NULL;
	}
	return f;
}

void lc_fn_free(struct lc_fn *F)
{
	int i;

	for (i = 0; i < F->nb; i++) {
		free(F->b[i].ev);
		free(F->b[i].succ);
		free(F->b[i].pred);
		free(F->b[i].phis);
		free(F->b[i].def);
		free(F->b[i].has);
		free(F->b[i].inc);
	}
	for (i = 0; i < F->nphi; i++) {
		free(F->phi[i].pred);
		free(F->phi[i].val);
	}
	free(F->b);
	free(F->phi);
	free(F->var);
	free(F->vname);
	free(F->loc);
	free(F->tgt);
	free(F->lab);
	free(F->ret_pred);
	free(F->ret_val);
	free(F->tie);
	free(F->moved);
	free(F->cstore);
	free(F->xwrite);
}
