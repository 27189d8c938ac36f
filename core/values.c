// SPDX-License-Identifier: GPL-2.0
/*
 * What the IR's values denote: addresses of objects (in the function's
 * terms, bound through its SSA variables), facts about variables, and
 * conditions on a callee's arguments.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "expr.h"

/* ---------- values ---------- */

/* e is "%name" or "%name" and steps: the root's length, or 0 */
static size_t named_root(const char *e, const char *name)
{
	size_t n = strcspn(e, "/^#[");

	return strlen(name) == n - 1 && !strncmp(e + 1, name, n - 1) ? n : 0;
}

/* e's steps past its root of length n, on base instead */
static const char *rebase(struct fs *fs, const char *base, const char *e, size_t n)
{
	char *t = hog_xasprintf("%s%s", base, e + n);
	const char *r = hog_intern(fs->c->strs, t);

	free(t);
	return r;
}

/* "%parent/..." rebased on the address find_named_phis() found for it */
static const char *bind_named(struct fs *fs, const char *e)
{
	size_t n;
	int i;

	for (i = 0; i < fs->nnamed; i++)
		if (fs->named[i].addr && (n = named_root(e, fs->named[i].name)))
			return rebase(fs, fs->named[i].addr, e, n);
	return e;
}

static const char *bind_root(struct fs *fs, const char *e)
{
	int v = hog_expr_var(e);

	if (v >= 0 && v < fs->f->nvars && fs->bind[v])
		return hog_expr_rebase_var(fs->c->strs, e, v, fs->bind[v]);
	if (e[0] == '%' && fs->nnamed)
		return bind_named(fs, e);
	return e;
}

/*
 * The one address a phi's incoming values all are, or NULL.  A frontend
 * may leave such a phi where a way in was cut: lockhog-check joins the
 * returns of task_rq_lock()'s endless loop, one of them unreachable, so
 * "return rq" reads a phi of &runqueues alone.  GCC joins "return css ?
 * container_of(css, ...) : NULL" into a phi of the argument and 0: the
 * argument when it returns an address, as two returns would say
 * (summary.c, return_value()).  Only a bare parameter: a NULL way out
 * of a walk ("return ve" past a loop) names an element the function
 * found, which may be another each time it is called.
 */
const struct hog_val *phi_same_addr(const struct hog_func *f, int var)
{
	const struct hog_val *one = NULL;
	int b, i, k, null = 0;

	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nphi; i++) {
			const struct hog_phi *p = &f->blocks[b].phi[i];

			if (p->dst != var)
				continue;
			for (k = 0; k < p->n; k++) {
				const struct hog_val *v = &p->val[k];

				if (v->kind == HV_CONST && !v->cst) {
					null = 1;
					continue;
				}
				if (v->kind != HV_ADDR || !v->addr ||
				    (one && strcmp(v->addr, one->addr)))
					return NULL;
				one = v;
			}
			return one && null && (hog_expr_param(one->addr) < 0 ||
					       strpbrk(one->addr + 1, "/^#[")) ? NULL : one;
		}
	return NULL;
}

/* The address a value denotes, normalised; NULL if it is not one. */
const char *val_addr(struct fs *fs, const struct hog_val *v)
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

/* Is e a loaded pointer (a trailing ^) that the function returns? */
static int returned_load(struct fs *fs, const char *e)
{
	int b, i;

	if (e[strlen(e) - 1] != '^')
		return 0;
	for (b = 0; !fs->ret_load_done && b < fs->f->nblocks; b++)
		for (i = 0; i < fs->f->blocks[b].nev && !fs->ret_load; i++) {
			const struct hog_event *r = &fs->f->blocks[b].ev[i];
			const char *a = r->nargs > 0 && r->args[0].kind == HV_ADDR ? r->args[0].addr : "";

			if (r->kind == HE_RETURN && *a && a[strlen(a) - 1] == '^')
				fs->ret_load = a;
		}
	fs->ret_load_done = 1;
	return fs->ret_load && !strcmp(fs->ret_load, e);
}

int val_fact(struct fs *fs, const struct tup *t, const struct hog_val *v, int *irq)
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
		/*
		 * An object's address is not NULL, and nor, as far as we
		 * know, is a pointer loaded from one (udev->parent), except
		 * the one the function tests and returns: its NULL test is
		 * what its callers learn (__lock_task_sighand()'s sighand).
		 */
		if ((e[0] == '@' || strchr(e, '/')) && !returned_load(fs, e))
			return FK_NONZERO;
		return FK_NONE;
	}
	default:
		return FK_NONE;
	}
}

/* ---------- lock operations on a tuple ---------- */

void call_prepare(struct fs *fs, const struct hog_event *e, struct callv *cv)
{
	int i;

	cv->ev = e;
	cv->nargs = e->nargs < 16 ? e->nargs : 16;
	for (i = 0; i < cv->nargs; i++)
		cv->addr[i] = val_addr(fs, &e->args[i]);
}

const char *eng_arg_addr(const struct callv *cv, int i)
{
	return i >= 0 && i < cv->nargs ? cv->addr[i] : NULL;
}

static const struct hog_val *arg_val(const struct callv *cv, int i)
{
	return i >= 0 && i < cv->ev->nargs ? &cv->ev->args[i] : NULL;
}

static const struct pmap *pmap_get(struct fs *fs, int var)
{
	int i;

	for (i = 0; i < fs->npmap; i++)
		if (fs->pmap[i].var == var)
			return &fs->pmap[i];
	return NULL;
}

/*
 * The callee's condition on -param, as one on param: -p > 0 only if p < 0
 * (p = INT_MIN too: kept, which errs towards the cost).  Other sign
 * conditions are not carried (-p <= 0 also at INT_MIN): -1, unknown.
 */
static int neg_when(const struct pmap *pm, const struct hog_when *w, struct hog_when *out)
{
	if (w->op != '>' || w->val != 0)
		return -1;
	*out = *w;
	out->arg = pm->param;
	out->op = '<';
	return -1;
}

/* Does a condition on a callee's argument hold for the constant cst?  1 or 0. */
int eng_when_const(long long cst, const struct hog_when *w)
{
	int in;

	switch (w->op) {
	case '>':
		return cst > w->val;
	case '<':
		return cst < w->val;
	case 'i':
	case 'x':
		in = cst >= 0 && cst <= 63 && ((unsigned long long)w->val >> cst & 1);
		return w->op == 'i' ? in : !in;
	case '&':
		return (cst & w->val) != 0;
	case '~':
		return (cst & w->val) == 0;
	}
	return cst == w->val;
}

static const struct hog_phi *phi_def(const struct hog_func *f, int var)
{
	int b, k;

	for (b = 0; b < f->nblocks; b++)
		for (k = 0; k < f->blocks[b].nphi; k++)
			if (f->blocks[b].phi[k].dst == var)
				return &f->blocks[b].phi[k];
	return NULL;
}

/*
 * An argument that is a phi of constants, "timer_autosuspends ?
 * (RPM_ASYNC | RPM_AUTO) : RPM_ASYNC" (pm_suspend_timer_fn()): the
 * condition holds if it holds for one of them (on the way that brings
 * that one), and not if for none.  -1 if the phi has a value that is
 * not a constant.
 */
int eng_when_phi(const struct hog_func *f, int var, const struct hog_when *w)
{
	const struct hog_phi *p = phi_def(f, var);
	int i, yes = 0;

	if (!p || !p->n)
		return -1;
	for (i = 0; i < p->n; i++) {
		if (p->val[i].kind != HV_CONST)
			return -1;
		yes += eng_when_const(p->val[i].cst, w);
	}
	return yes > 0;
}

/*
 * Does a condition on a callee's argument hold at this call?  1 yes,
 * 0 no, -1 only our caller can tell: then *out is the condition on our
 * own parameter (gfp | __GFP_ZERO still sleeps as gfp does).  A value
 * the frontend capped (the IR's C record) is no more than its cap.
 */
int eng_when(struct fs *fs, const struct callv *cv, const struct hog_when *w,
		     struct hog_when *out)
{
	const struct hog_val *v;
	const struct pmap *pm = NULL;
	long long m;

	out->arg = -1;
	if (w->arg < 0)
		return 1;
	if (w->field)
		return field_when(fs, cv, w, out);
	v = arg_val(cv, w->arg);
	if (!v)
		return 0;
	if (v->kind == HV_CONST)
		return eng_when_const(v->cst, w);
	if (v->kind == HV_ADDR && hog_expr_param(v->addr) >= 0 &&
	    !strpbrk(v->addr + 1, "/^#[")) {
		*out = *w;
		out->arg = hog_expr_param(v->addr);
		return -1;
	}
	if (v->kind == HV_VAR && (m = eng_when_phi(fs->f, v->var, w)) >= 0)
		return m;
	/* a capped value (rmqueue_bulk(..., batch, ...) with batch <= 63): never above K */
	if (v->kind == HV_VAR && w->op == '>' && (m = hog_func_vcap(fs->f, v->var)) >= 0 &&
	    m <= w->val)
		return 0;
	if (v->kind == HV_VAR)
		pm = pmap_get(fs, v->var);
	if (pm && pm->neg)
		return neg_when(pm, w, out);
	if (!pm)
		return -1;
	return eng_when_masked(pm->param, pm->and, pm->or, w, out);
}

/*
 * A bit condition on a value that is (param & keep) | set: bits OR-ed
 * in or masked off decide it; else -1 with *out the condition on param
 * (gfp | __GFP_ZERO still sleeps as gfp does).  Other tests: -1, out
 * untouched.
 */
int eng_when_masked(int param, long long keep, long long set, const struct hog_when *w,
		    struct hog_when *out)
{
	if (w->op == '=' || w->op == '>' || w->op == '<' || w->op == 'i' || w->op == 'x')
		return -1;
	if (set & w->val)
		return w->op == '&';
	if (!(w->val & keep))
		return w->op == '~';
	*out = *w;
	out->arg = param;
	out->val = w->val & keep;
	return -1;
}

/*
 * A sign condition on a callee's argument, against what every path here
 * knows of the value passed (memcg_account_kmem(memcg, -nr_pages) inside
 * "if (nr_pages)"): 1 it holds, 0 it does not, -1 eng_when() must tell.
 */
int eng_when_sign(struct fs *fs, const struct tset *set, const struct callv *cv,
		  const struct hog_when *w)
{
	const struct hog_val *v = arg_val(cv, w->arg);
	int i, irq, ans = -1;

	if ((w->op != '>' && w->op != '<') || !v || v->kind != HV_VAR || !set->n)
		return -1;
	for (i = 0; i < set->n; i++) {
		int k = val_fact(fs, &set->t[i], v, &irq), a;
		/* the values each fact allows, as [lo, hi] */
		long long lo = k == FK_POS ? 1 : k == FK_ZERO ? 0 : LLONG_MIN;
		long long hi = k == FK_NEG ? -1 : k == FK_ZERO || k == FK_NONPOS ? 0 : LLONG_MAX;

		if (k != FK_POS && k != FK_NEG && k != FK_ZERO && k != FK_NONPOS)
			return -1;
		if (w->op == '>')
			a = lo > w->val ? 1 : hi <= w->val ? 0 : -1;
		else
			a = hi < w->val ? 1 : lo >= w->val ? 0 : -1;
		if (a < 0 || (i && a != ans))
			return -1;
		ans = a;
	}
	return ans;
}

int irq_from_flags(const struct tup *t, const struct callv *cv, int arg)
{
	const struct hog_val *v = arg_val(cv, arg);
	const struct fact *f;

	if (!v)
		return -1;
	if (v->kind == HV_VAR) {
		f = fact_get(t, v->var);
		if (f && f->kind == FK_FLAGS)
			return f->irq;
		/*
		 * A variable holding our flags parameter on this path (a phi
		 * of it and an irqsave's flags round a loop, as in
		 * rcu_report_qs_rnp()): restored, it is the parameter.
		 */
		if (f && f->kind == FK_PARAM)
			return HOG_IRQ_PARAM + f->irq;
	}
	if (v->kind == HV_ADDR && hog_expr_param(v->addr) >= 0 &&
	    !strpbrk(v->addr + 1, "/^#["))
		return HOG_IRQ_PARAM + hog_expr_param(v->addr);
	return -1;
}

const char *var_name(const struct hog_func *f, int v)
{
	return f->vnames && v >= 0 && v < f->nvnames ? f->vnames[v] : NULL;
}

/* The source name of a pointer value (n, %n), or NULL. */
static const char *ptr_name(struct fs *fs, const struct hog_val *v)
{
	if (v->kind == HV_VAR)
		return var_name(fs->f, v->var);
	if (v->kind == HV_ADDR && v->addr[0] == '%' && !strpbrk(v->addr + 1, "/^#["))
		return hog_intern(fs->c->strs, v->addr + 1);
	return NULL;
}

/*
 * The same for the pointer a lock's address is taken through:
 * spin_unlock(&n->list_lock) makes n the flag (slub's __slab_free(),
 * where n stays NULL unless the lock was taken): "%n/T.f" or "vN/T.f".
 */
static const char *base_name(struct fs *fs, const struct hog_val *v)
{
	const char *a = v->addr, *sl, *deref, *name = NULL;
	char *base;
	int var;

	if (v->kind != HV_ADDR || !(sl = strchr(a, '/')) || strpbrk(sl + 1, "/^#["))
		return NULL;
	deref = strpbrk(a, "^#[");
	if (deref && deref < sl)
		return NULL;
	base = hog_xmalloc(sl - a + 1);
	memcpy(base, a, sl - a);
	base[sl - a] = 0;
	/* no ^, # or [ before the field: checked above */
	if (base[0] == '%')
		name = hog_intern(fs->c->strs, base + 1);
	else if ((var = hog_expr_var(base)) >= 0)
		name = var_name(fs->f, var);
	free(base);
	return name;
}

/*
 * "if (locked) unlock_page_lruvec_irqrestore(locked, flags);": a pointer
 * that is handed to an unlock doubles as the "is it held" flag.  Where
 * the function finds it NULL, it does not hold that lock, however the
 * paths met before.  Matched by the variable's source name, since the
 * test and the unlock see different SSA versions of it.
 */
static void note_cookie(struct fs *fs, const struct hog_val *v, const char *released)
{
	const char *name, *cls;
	int i;

	if (!v || !released)
		return;
	name = ptr_name(fs, v);
	if (!name)
		name = base_name(fs, v);
	cls = hog_expr_class(fs->c->strs, released);
	if (!name || !*name || !cls)
		return;
	for (i = 0; i < fs->ncookie; i++)
		if (fs->cookie[i].name == name && fs->cookie[i].cls == cls)
			return;
	if (fs->ncookie == MAX_COOKIES) {
		fs->limits |= HOG_LIMIT_TRACK;
		return;
	}
	fs->cookie[fs->ncookie].name = name;
	fs->cookie[fs->ncookie].cls = cls;
	fs->ncookie++;
}

/* dst = -param: the callee's sign conditions become conditions on param */
static void neg_pmap(struct fs *fs, const struct hog_event *e)
{
	const struct hog_val *a = &e->args[0];
	struct pmap p = { .var = e->dst, .and = -1, .or = 0, .neg = 1 };

	if (a->kind != HV_ADDR || hog_expr_param(a->addr) < 0 || strpbrk(a->addr + 1, "/^#["))
		return;
	if (fs->npmap == MAX_PMAP) {
		fs->limits |= HOG_LIMIT_TRACK;
		return;
	}
	p.param = hog_expr_param(a->addr);
	fs->pmap[fs->npmap++] = p;
}

/* gfp | __GFP_ZERO, flags & ~X: SSA makes this a flow-insensitive fact */
void find_pmaps(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	int b, i;

	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];
			const struct hog_val *a, *m;
			struct pmap p = { .and = -1, .or = 0 };
			const struct pmap *from;

			if (e->kind == HE_ASSIGN && e->callee && e->nargs == 1 && e->dst >= 0 &&
			    (!strcmp(e->callee, "neg") || !strcmp(e->callee, "negu"))) {
				neg_pmap(fs, e);
				continue;
			}
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
			} else if (a->kind == HV_VAR && (from = pmap_get(fs, a->var)) && !from->neg) {
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

/* "if (likely(!n))": the variable v = !n, by n's name */
static void note_not(struct fs *fs, const struct hog_event *e)
{
	const char *name;

	if (!e->callee || strcmp(e->callee, "!") || e->nargs != 1 || e->dst < 0 ||
	    e->dst >= fs->f->nvars || !(name = ptr_name(fs, &e->args[0])) || !*name)
		return;
	if (!fs->notname)
		fs->notname = hog_xcalloc(fs->f->nvars, sizeof(*fs->notname));
	fs->notname[e->dst] = name;
}

/*
 * A phi with no name of its own whose values are all one named pointer
 * or constants (lockhog-check's phi of n = node_of() and %n): the
 * pointer's name, for the cookie tests on it.
 */
static void note_phi_name(struct fs *fs, const struct hog_phi *p)
{
	const char *name = NULL, *n;
	int k;

	if (p->dst < 0 || p->dst >= fs->f->nvars || (var_name(fs->f, p->dst) &&
	    *var_name(fs->f, p->dst)))
		return;
	for (k = 0; k < p->n; k++) {
		if (p->val[k].kind == HV_CONST)
			continue;
		n = ptr_name(fs, &p->val[k]);
		if (!n || !*n || (name && n != name))
			return;
		name = n;
	}
	if (!name)
		return;
	if (!fs->phiname)
		fs->phiname = hog_xcalloc(fs->f->nvars, sizeof(*fs->phiname));
	fs->phiname[p->dst] = name;
}

void find_cookies(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	int b, i, k;

	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nphi; i++)
			note_phi_name(fs, &f->blocks[b].phi[i]);
	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];
			const struct hog_rule *lk;
			const struct hog_summary *s;

			if (e->kind == HE_ASSIGN)
				note_not(fs, e);
			if (e->kind != HE_CALL)
				continue;
			lk = rule_of(fs, e->callee, HR_LOCK);
			if (lk && lk->op == HOP_RELEASE && lk->arg < e->nargs) {
				struct callv cv;

				call_prepare(fs, e, &cv);
				note_cookie(fs, &e->args[lk->arg], eng_arg_addr(&cv, lk->arg));
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

/* A lock the path is found not to hold after all: IRQs as its irqsave found them. */
void drop_held(struct tup *t, int j)
{
	if (t->held[j].irqprev >= 0)
		t->irq = t->held[j].irqprev;
	memmove(&t->held[j], &t->held[j + 1], (t->nheld - j - 1) * sizeof(t->held[0]));
	t->nheld--;
}

static void drop_named(struct fs *fs, struct tup *t, const char *name)
{
	int i, j;

	if (!name || !*name)
		return;
	for (i = 0; i < fs->ncookie; i++) {
		if (fs->cookie[i].name != name)
			continue;
		for (j = t->nheld - 1; j >= 0; j--)
			if (t->held[j].cls == fs->cookie[i].cls)
				drop_held(t, j);
	}
}

/* On the way where var is zero: the cookie named so is NULL. */
void drop_cookie_locks(struct fs *fs, struct tup *t, int var)
{
	const char *name = var_name(fs->f, var);

	if ((!name || !*name) && fs->phiname && var >= 0 && var < fs->f->nvars)
		name = fs->phiname[var];
	drop_named(fs, t, name);
	drop_result_flag(fs, t, var);
}

/* On the way where var is not zero: var = !cookie, so the cookie is NULL. */
void drop_cookie_locks_not(struct fs *fs, struct tup *t, int var)
{
	if (fs->notname && var >= 0 && var < fs->f->nvars && fs->notname[var])
		drop_named(fs, t, fs->notname[var]);
}

/* The one address other than NULL that a phi's incoming values agree on; NULL if none. */
static const char *phi_addr(const struct hog_phi *p)
{
	const char *a = NULL;
	int k;

	for (k = 0; k < p->n; k++) {
		const struct hog_val *v = &p->val[k];

		if (v->kind == HV_CONST && !v->cst)
			continue;
		if (v->kind != HV_ADDR || !hog_expr_portable(v->addr) || (a && a != v->addr))
			return NULL;
		a = v->addr;
	}
	return a;
}

/* How many of the function's variables carry the source name n. */
static int name_uses(const struct hog_func *f, const char *n)
{
	int v, k = 0;

	for (v = 0; v < f->nvnames; v++)
		k += f->vnames[v] && !strcmp(f->vnames[v], n);
	return k;
}

/* The source name of a phi's value: ptr_name()'s, or a parameter's. */
static const char *value_name(struct fs *fs, const struct hog_val *v)
{
	const char *n = ptr_name(fs, v);
	int k = v->kind == HV_ADDR && !strpbrk(v->addr + 1, "/^#[") ? hog_expr_param(v->addr) : -1;

	if (n || k < 0 || k >= fs->f->nparams)
		return n;
	return hog_intern(fs->c->strs, fs->f->params[k]);
}

/*
 * An unnamed phi of pointers every value of which carries one source
 * name (rq: the parameter, move_queued_task()'s result, %rq): the
 * plugin names what it cannot see through by that name.
 */
static const char *values_name(struct fs *fs, const struct hog_phi *p)
{
	const char *n = NULL;
	int k;

	for (k = 0; k < p->n; k++) {
		const char *m;

		if (p->val[k].kind == HV_CONST && !p->val[k].cst)
			continue;
		m = value_name(fs, &p->val[k]);
		if (!m || !*m || (n && strcmp(n, m)))
			return NULL;
		n = m;
	}
	return n;
}

/* A phi of pointers only: addresses, variables, NULL. */
static int pointers_phi(const struct hog_phi *p)
{
	int k;

	for (k = 0; k < p->n; k++) {
		const struct hog_val *v = &p->val[k];

		if (!(v->kind == HV_CONST && !v->cst) && v->kind != HV_ADDR && v->kind != HV_VAR)
			return 0;
	}
	return p->n > 1;
}

/*
 * "if (queued) rq = move_queued_task(rq, ...); task_rq_unlock(rq, ...)":
 * the plugin names the pointer by its source variable (%rq) and its phi
 * holds several objects, each locked on its own way.  A release through
 * it gives up the lock of the one object this path holds, when exactly
 * one of them is held; NULL otherwise.
 */
const char *phi_alt_held(struct fs *fs, const struct tup *t, const char *expr)
{
	const char *hit = NULL;
	size_t n;
	int i, j, k;

	for (i = 0; i < fs->nnamed; i++) {
		const struct hog_phi *p = fs->named[i].phi;

		if (fs->named[i].addr || !p || !(n = named_root(expr, fs->named[i].name)))
			continue;
		for (k = 0; k < p->n; k++) {
			const char *base = p->val[k].kind == HV_CONST ? NULL : val_addr(fs, &p->val[k]);
			const char *alt;

			if (!base || base[0] == '%')
				continue;
			alt = hog_expr_norm(fs->c->strs, fs->c->rules, rebase(fs, base, expr, n));
			for (j = 0; j < t->nheld; j++)
				if (t->held[j].expr == alt && alt != hit) {
					if (hit)
						return NULL;
					hit = alt;
				}
		}
	}
	return hit;
}

static void add_named(struct fs *fs, const char *n, const char *a, const struct hog_phi *p)
{
	fs->named[fs->nnamed].name = n;
	fs->named[fs->nnamed].addr = a ? hog_expr_norm(fs->c->strs, fs->c->rules, a) : NULL;
	fs->named[fs->nnamed].phi = p;
	fs->nnamed++;
}

/*
 * parent = IS_ROOT(dentry) ? NULL : dentry->d_parent; ...
 * if (parent) spin_unlock(&parent->d_lock);
 * Where the plugin could not see through the phi it names the pointer
 * by its source variable (%parent).  When that variable is the
 * function's only one of the name and its phi holds one address or
 * NULL, the name is that address: the unlock gives up the lock the
 * caller took as dentry->d_parent->d_lock.  Another variable of the
 * name (parent = lock_parent(dentry) on another path) leaves it alone.
 * Those first (a full table cuts the analysis short); then, while there
 * is room, phis of several pointers (phi_alt_held()), a precision aid a
 * full table only goes without: a phi of the name, or one whose values
 * all carry it.
 */
void find_named_phis(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	int b, j, pass;

	for (pass = 0; pass < 2; pass++)
		for (b = 0; b < f->nblocks; b++)
			for (j = 0; j < f->blocks[b].nphi; j++) {
				const struct hog_phi *p = &f->blocks[b].phi[j];
				const char *n = var_name(f, p->dst), *a = phi_addr(p);

				if (!pass && (!a || !n || !*n || name_uses(f, n) != 1))
					continue;
				if (pass && (a || !pointers_phi(p)))
					continue;
				if (pass && (!n || !*n))
					n = values_name(fs, p);
				if (!n || !*n)
					continue;
				if (fs->nnamed == MAX_NAMED) {
					if (!pass)
						fs->limits |= HOG_LIMIT_TRACK;
					return;
				}
				add_named(fs, n, a, p);
			}
}

/*
 * "if (mapping->host != NULL)" twice with a call between: the compiler
 * reads the field again, and the two tests are two variables.  A frontend
 * marks a test's variable as a read of a field the function does not
 * write nor hand out ("load", docs/ir.md), outside loops; a field tested
 * twice or more has a variable of its own past the function's, so the
 * second test goes the way the first went.  Whether a callee writes the
 * field is not in the IR: the kernel re-tests fields that stay put.
 */
static int load_var(struct fs *fs, const char *addr)
{
	int i;

	for (i = 0; i < fs->nload; i++)
		if (fs->load[i] == addr)
			return fs->f->nvars + 1 + i;
	return -1;
}

/* The field a "load" event reads; NULL for any other event. */
const char *load_addr(const struct hog_event *e)
{
	if (e->kind != HE_ASSIGN || !e->callee || strcmp(e->callee, "load") || e->nargs != 2 ||
	    e->args[1].kind != HV_ADDR)
		return NULL;
	return e->args[1].addr;
}

/*
 * Is e a "load" of a value only negated, not tested (-spool->min_hpages
 * read again)?  It gives the field's floor, and no test's fact: the
 * frontend names the negation's operand by the test's read where nothing
 * was written between (docs/ir.md, neg), and a tie would carry a test
 * past calls and stores to the negation ("if (!p->count) { refill(p);
 * account(-p->count); }").
 */
static int neg_load(const struct fs *fs, const struct hog_event *e)
{
	return e->dst >= 0 && e->dst <= fs->f->nvars && fs->negop && fs->negop[e->dst] == 1;
}

/* How many tests read the field at addr. */
static int load_count(const struct fs *fs, const char *addr)
{
	const struct hog_func *f = fs->f;
	int b, i, n = 0;

	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++)
			n += load_addr(&f->blocks[b].ev[i]) == addr && !neg_load(fs, &f->blocks[b].ev[i]);
	return n;
}

/* negop[var]: 1 negated and not tested, 2 tested (a block's condition) */
static void find_negops(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	int b, i;

	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];

			if (e->kind != HE_ASSIGN || !e->callee || e->nargs < 1 ||
			    e->args[0].kind != HV_VAR || e->args[0].var < 0 || e->args[0].var > f->nvars ||
			    (strcmp(e->callee, "neg") && strcmp(e->callee, "negu")))
				continue;
			if (!fs->negop)
				fs->negop = hog_xcalloc(f->nvars + 1, 1);
			fs->negop[e->args[0].var] = 1;
		}
	for (b = 0; fs->negop && b < f->nblocks; b++)
		if (f->blocks[b].cond != HC_NONE && f->blocks[b].cond_var >= 0 &&
		    f->blocks[b].cond_var <= f->nvars)
			fs->negop[f->blocks[b].cond_var] = 2;
}

/*
 * The least value a rule gives the field a "load" reads ("bound
 * hugepage_subpool.min_hpages min=-1": -1 for "not set", else a count):
 * 1 and *min, else 0.  Only a field read whole, not an element of it.
 */
static int load_floor(struct fs *fs, const char *a, long long *min)
{
	const char *cls = a && !strpbrk(a, "[#") ? hog_expr_class(fs->c->strs, a) : NULL;
	size_t n = a ? strlen(a) : 0, k = cls ? strlen(cls) : 0;

	/* the field is the address's last step, ".../T.F" */
	return cls && k + 1 < n && a[n - k - 1] == '/' && !strcmp(a + n - k, cls) &&
	       hog_rules_bound_min(fs->c->rules, cls, min);
}

/* The floor of the field var was loaded from (load_floor()): 1 and *min, else 0. */
int var_floor(const struct fs *fs, int var, long long *min)
{
	int i;

	for (i = 0; i < fs->nfloor; i++)
		if (fs->floor[i].var == var) {
			*min = fs->floor[i].min;
			return 1;
		}
	return 0;
}

/*
 * The fields tested twice or more, each a variable of its own; an
 * element of an array or another CPU's copy is not one place.  More
 * than MAX_LOADS: the rest are not tied (precision only, no limit).
 * Also the variables loaded from a field with a floor, as many.
 */
void find_loads(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	long long min;
	int b, i;

	find_negops(fs);
	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];
			const char *a = load_addr(e);

			if (a && e->dst >= 0 && fs->nfloor < MAX_LOADS && load_floor(fs, a, &min))
				fs->floor[fs->nfloor++] = (struct vfloor){ .var = e->dst, .min = min };
			if (!a || strpbrk(a, "[#") || neg_load(fs, e) || load_var(fs, a) >= 0 ||
			    fs->nload == MAX_LOADS || load_count(fs, a) < 2)
				continue;
			fs->load[fs->nload++] = a;
		}
}

/* A value of at least min: its sign, as a fact (none below zero). */
int floor_kind(long long min)
{
	return min > 0 ? FK_POS : min == 0 ? FK_SMALL : FK_NONE;
}

/*
 * dst = load(?, field): what an earlier test found the field to be.
 * args[0] is unknown, so that a core older than "load", which takes an
 * operator it does not know for a copy of args[0], learns nothing.
 * 1 if e was one.
 */
int load_assign(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	long long min;
	int lv, i, fk;

	if (!e->callee || strcmp(e->callee, "load"))
		return 0;
	if (!load_addr(e) || e->dst < 0 || e->dst > fs->f->nvars)
		return 1;
	/* a field that is never negative: its value's sign, when no test said more */
	fk = var_floor(fs, e->dst, &min) ? floor_kind(min) : FK_NONE;
	lv = neg_load(fs, e) ? -1 : load_var(fs, load_addr(e));
	if (lv < 0 && fk == FK_NONE)
		return 1;
	if (lv >= 0 && !fs->loadtie)
		fs->loadtie = hog_xcalloc(fs->f->nvars + 1, sizeof(*fs->loadtie));
	if (lv >= 0)
		fs->loadtie[e->dst] = lv;
	for (i = 0; i < set->n; i++) {
		const struct fact *f = lv >= 0 ? fact_get(&set->t[i], lv) : NULL;

		fact_set(&set->t[i], e->dst, f && f->kind != FK_NONE ? f->kind : fk, 0);
	}
	return 1;
}

/*
 * A call, a store or an atomic: a field tested before may hold another
 * value now.  Its zero test still stands, as for any "load" (the kernel
 * re-tests fields that stay put), but not a sign a test gave it: past
 * "if (spool->min_hpages != -1)" and a call that resets it, the field
 * read again may be -1, and its negation positive.
 */
void load_forget_signs(struct fs *fs, struct tset *set)
{
	int i, j;

	for (i = 0; i < set->n; i++)
		for (j = 0; j < fs->nload; j++) {
			int lv = fs->f->nvars + 1 + j;
			const struct fact *f = fact_get(&set->t[i], lv);

			if (f && (f->kind == FK_POS || f->kind == FK_NEG))
				fact_set(&set->t[i], lv, FK_NONZERO, 0);
			else if (f && (f->kind == FK_SMALL || f->kind == FK_NONPOS))
				fact_set(&set->t[i], lv, FK_NONE, 0);
		}
}

/* The way out of a test of such a variable: the field is what it was found to be. */
void load_edge(struct fs *fs, struct tup *t, int var)
{
	const struct fact *f;

	if (!fs->loadtie || var < 0 || var > fs->f->nvars || !fs->loadtie[var])
		return;
	f = fact_get(t, var);
	fact_set(t, fs->loadtie[var], f ? f->kind : FK_NONE, 0);
}
