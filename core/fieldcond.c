// SPDX-License-Identifier: GPL-2.0
/*
 * Costs behind a test of a parameter's field.  md_bitmap_file_unmap()
 * invalidates the file's pages only "if (store->file)", and
 * md_bitmap_resize() clears bitmap->storage.file before it calls the
 * helper under counts.lock: the sleep is not there.  The callee's cost
 * holds "when $0/bitmap_storage.file is non-zero" (a field condition,
 * struct hog_when.field); the caller decides it from a constant it stored
 * to that field, or a test of the field, on every way to the call.  A
 * caller that does neither keeps the cost, whatever it passes: the
 * frontends write a function's other stores to a field only when it
 * also stores a constant there, so a wrapper that sets the field itself
 * could not be told from one that passes it on.
 *
 * A call that is handed the field, the struct around it or a pointer it
 * is reached through, between the store (or test) and the call, or
 * between the callee's entry and its test, may write it: no condition.
 * Fields written through another pointer are taken to stay put, as for
 * "load" tests (docs/ir.md).
 *
 * A helper that only reads is a field too: 6.12's free path tests
 * folio_test_hugetlb_vmemmap_optimized(folio) in
 * update_and_free_hugetlb_folio() and again in the callee that waits in
 * synchronize_rcu(); the two tests are one condition, on
 * "$1/folio_test_hugetlb_vmemmap_optimized()".  Where ways meet at the
 * call ("if (!P(folio) || !atomic)"), the way that found it zero is
 * dropped and the other's test of atomic is what the callers decide.
 * The helper's result may change when anything under its argument is
 * handed to a call or stored to; a call in a loop may change what it
 * is handed before it runs again.
 */
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "expr.h"

/*
 * A function that only reads: no stores, atomics, locks, IRQ or
 * preemption changes, costs or calls through pointers, and calls only
 * such functions (folio_test_hugetlb_vmemmap_optimized(), test_bit()).
 * The frontends leave out stores of values other than constants, so
 * this is the IR's view, as for "load" tests (docs/ir.md).  Set once
 * the function's own summary is done; its callees' come first.
 */
static const struct hog_summary *pure_fn(struct fs *fs, const char *name)
{
	const struct hog_summary *s;

	return name && !has_any_rule(fs, name) && (s = summary_of(fs, name)) && s->pure ? s : NULL;
}

void find_pure(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	const struct hog_summary *s = fs->s;
	int b, i;

	if (s->ncost || s->nacq || s->nrel || s->nbrk || s->has_atomic || s->self ||
	    s->irq_exit != HOG_IRQ_CALLER || s->irq_break || s->preempt_delta || s->pf_delta ||
	    s->limits)
		return;
	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];

			if (e->kind == HE_CALL && !pure_fn(fs, e->callee))
				return;
			if (e->kind != HE_CALL && e->kind != HE_ASSIGN && e->kind != HE_RETURN)
				return;
		}
	fs->s->pure = 1;
}

/*
 * "P(folio)" where P only reads and folio is the one argument: its
 * result is a field of what folio points to, "folio/P.1a2b3c4d()",
 * tested as a loaded field is.  The digits name P's definition (file
 * and line): two units' static P() of one name are two fields, one
 * header's static inline in many units is one.  NULL for any other
 * event.
 */
static const char *pred_field(struct fs *fs, const struct hog_event *e)
{
	const struct hog_summary *s;
	const char *x;
	char *n;
	unsigned long long h;

	if (e->kind != HE_CALL || e->dst < 0 || e->nargs != 1 || e->args[0].kind != HV_ADDR ||
	    !(x = val_addr(fs, &e->args[0])) || !(s = pure_fn(fs, e->callee)) || !s->fn->file)
		return NULL;
	h = hog_hash64(s->fn->file, strlen(s->fn->file), (unsigned long long)s->fn->line);
	n = hog_xasprintf("/%s.%08llx()", e->callee, h & 0xffffffffULL);
	x = hog_expr_append(fs->c->strs, x, n);
	free(n);
	return x;
}

/* A predicate's field "x/P.h()": the length of its x, else 0. */
static size_t pred_root(const char *a)
{
	size_t n = strlen(a);
	const char *slash;

	if (n < 3 || strcmp(a + n - 2, "()") || !(slash = strrchr(a, '/')))
		return 0;
	return (size_t)(slash - a);
}

/* Is block b inside a loop, where a predicate may find another value each time round? */
static int in_loop(const struct hog_func *f, int b)
{
	int i;

	for (i = 0; i < f->nloops; i++)
		if (hog_loop_has(&f->loops[i], b))
			return 1;
	return 0;
}

/*
 * The field a "load" in block b read into var, or the predicate whose
 * result var is, through "!" and "!!" (*neg: an odd number of "!"),
 * with where that call is (*db, *di; *db -1 for a load); NULL if none.
 * def[v] is the event that sets variable v, in block defb[v].
 */
static const char *tested_field(struct fs *fs, int b, int var, const struct hog_event **def,
				const int *defb, int *neg, int *db, int *di)
{
	const struct hog_func *f = fs->f;
	const struct hog_block *bl = &f->blocks[b];
	int i, hops;

	*neg = 0;
	*db = -1;
	for (i = 0; i < bl->nev; i++)
		if (bl->ev[i].dst == var && load_addr(&bl->ev[i]))
			return load_addr(&bl->ev[i]);
	for (hops = 0; hops < 4 && var >= 0 && var < f->nvars && def[var]; hops++) {
		const struct hog_event *d = def[var];

		if (d->kind == HE_CALL) {
			*db = defb[var];
			*di = (int)(d - f->blocks[*db].ev);
			/* as for loads: a test in a loop may find another value each time */
			return in_loop(f, b) || in_loop(f, *db) ? NULL : pred_field(fs, d);
		}
		if (d->kind != HE_ASSIGN || !d->callee || d->nargs != 1 ||
		    d->args[0].kind != HV_VAR || (strcmp(d->callee, "!") && strcmp(d->callee, "!!")))
			return NULL;
		*neg ^= !strcmp(d->callee, "!");
		var = d->args[0].var;
	}
	return NULL;
}

/* The field tests of the function, on each way out: [2 * block + successor]. */
void find_field_tests(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	const struct hog_event **def = hog_xcalloc(f->nvars + 1, sizeof(*def));
	int *defb = hog_xcalloc(f->nvars + 1, sizeof(*defb));
	int b, i;

	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++) {
			int v = f->blocks[b].ev[i].dst;

			if (v >= 0 && v < f->nvars && !def[v]) {
				def[v] = &f->blocks[b].ev[i];
				defb[v] = b;
			}
		}
	for (b = 0; b < f->nblocks; b++) {
		const struct hog_block *bl = &f->blocks[b];
		const char *a;
		int neg, db, di = -1, nz;

		if ((bl->cond != HC_NEZ && bl->cond != HC_EQZ) || bl->nsucc != 2 ||
		    bl->succ[0] == bl->succ[1] ||
		    !(a = tested_field(fs, b, bl->cond_var, def, defb, &neg, &db, &di)))
			continue;
		if (!fs->fcond)
			fs->fcond = hog_xcalloc(2 * f->nblocks, sizeof(*fs->fcond));
		nz = (bl->cond == HC_NEZ) != neg;
		fs->fcond[2 * b] = (struct fcond){ .addr = a, .nonzero = nz, .def_b = db, .def_i = di };
		fs->fcond[2 * b + 1] = (struct fcond){ .addr = a, .nonzero = !nz, .def_b = db, .def_i = di };
	}
	free(def);
	free(defb);
}

/* The field test on the way into block b from its only predecessor, NULL none. */
static const struct fcond *test_into(struct fs *fs, int b)
{
	const struct hog_block *p;
	const struct fcond *t;
	int pb;

	if (!fs->fcond || b <= 0 || fs->f->blocks[b].npred != 1)
		return NULL;
	pb = fs->f->blocks[b].pred[0];
	p = &fs->f->blocks[pb];
	if (p->nsucc != 2 || p->succ[0] == p->succ[1])
		return NULL;
	t = &fs->fcond[2 * pb + (p->succ[0] == b ? 0 : 1)];
	return t->addr ? t : NULL;
}

/*
 * The blocks a way of one edge or more leads to from block b (back 0),
 * or from which one leads to b (back 1): with the event order inside a
 * block, what can come after or before an event of b.
 */
static char *reach_set(const struct hog_func *f, int b, int back)
{
	char *seen = hog_xcalloc(f->nblocks + 1, 1);
	int *stack = hog_xmalloc(sizeof(int) * (f->nblocks + 1)), n = 0, i;

	stack[n++] = b;
	while (n) {
		const struct hog_block *x = &f->blocks[stack[--n]];
		int nn = back ? x->npred : x->nsucc;
		const int *next = back ? x->pred : x->succ;

		for (i = 0; i < nn; i++)
			if (!seen[next[i]]) {
				seen[next[i]] = 1;
				stack[n++] = next[i];
			}
	}
	free(stack);
	return seen;
}

/*
 * Is the event handed field a, the struct around it, or a pointer it is
 * reached through?  For a predicate's field "x/P.h()", also anything
 * under x, which P may read, and a store there; a call whose result is
 * used, of another function that only reads, is taken as a question
 * (folio_test_hugetlb_raw_hwp_unreliable() after
 * folio_test_hugetlb_vmemmap_optimized()), not a write.  The IR shows
 * stores of constants only ("w", docs/ir.md): other writes, a helper
 * that writes what it returns among them, are not seen.
 */
static int hands_out(struct fs *fs, const struct hog_event *e, const char *a)
{
	size_t r = pred_root(a);
	int j, w = 0;

	if (r && e->kind == HE_CALL && e->dst >= 0 && pure_fn(fs, e->callee))
		return 0;
	if (r && e->kind == HE_STORE && e->nargs >= 1 && e->args[0].kind == HV_ADDR) {
		const char *x = val_addr(fs, &e->args[0]);

		w = x && (hog_expr_has_prefix_n(x, a, r) || hog_expr_has_prefix(a, x));
	}
	for (j = 0; !w && (e->kind == HE_CALL || e->kind == HE_ATOMIC) && j < e->nargs; j++) {
		const char *x = e->args[j].kind == HV_CONST ? NULL : val_addr(fs, &e->args[j]);

		w = x && (hog_expr_has_prefix(a, x) || (r && hog_expr_has_prefix_n(x, a, r)));
	}
	return w;
}

/*
 * May a call (but skip, unless in a loop, where it runs again before
 * itself) or an atomic write field a on a way from event fi of block
 * fb to event ti of block tb?
 */
static int written_between(struct fs *fs, const char *a, int fb, int fi, int tb, int ti,
			   const struct hog_event *skip)
{
	const struct hog_func *f = fs->f;
	char *after = reach_set(f, fb, 0), *before = reach_set(f, tb, 1);
	int b, i, w = 0;

	for (b = 0; b < f->nblocks && !w; b++)
		for (i = 0; i < f->blocks[b].nev && !w; i++)
			w = (&f->blocks[b].ev[i] != skip || in_loop(f, b)) &&
			    hands_out(fs, &f->blocks[b].ev[i], a) &&
			    ((b == fb && i > fi) || after[b]) && ((b == tb && i < ti) || before[b]);
	free(after);
	free(before);
	return w;
}

/* "$12/T.f": the length of the "$12" */
static size_t param_root(const char *a)
{
	return 1 + strspn(a + 1, "0123456789");
}

/* Is cls the rule's parent field, or with none named, any parent field? */
static int is_parent_class(struct fs *fs, const char *cls)
{
	if (fs->c->notroot->parent)
		return cls && !strcmp(cls, fs->c->notroot->parent);
	return hog_rules_is_parent_class(fs->c->rules, cls);
}

/*
 * Does the function store to its not-root parameter's parent field
 * (css->parent = NULL)?  Only stores of constants are in the IR
 * (docs/ir.md): another value stored there is the rule's contract's.
 */
static int parent_stored(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	int b, i;

	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];

			if (e->kind == HE_STORE && e->nargs >= 1 && e->args[0].kind == HV_ADDR &&
			    hog_expr_param(e->args[0].addr) == fs->c->notroot->arg - 1 &&
			    is_parent_class(fs, hog_expr_class(fs->c->strs, e->args[0].addr)))
				return 1;
		}
	return 0;
}

/*
 * The parent of what a not-root callback was handed (rules: not-root):
 * "$0/parent_hugetlb_cgroup.h()", a parent-call of the parameter, or
 * "$0/cgroup_subsys_state.parent^", the rule's parent field read from
 * it, is never NULL: 1, else -1.  Not through a member of a struct
 * around it: "$0/T.shadow/cgroup_subsys_state.parent" may be another
 * css embedded there.  $N is the value the function was handed, never
 * a reassigned copy.
 */
static int parent_of_not_root(struct fs *fs, const char *a)
{
	size_t r = param_root(a), k = pred_root(a), n = strlen(a);
	const char *p = a + r + 1, *dot, *cls;
	char *name;
	int yes;

	if (!fs->c->notroot || hog_expr_param(a) != fs->c->notroot->arg - 1 || parent_stored(fs))
		return -1;
	if (k) {
		if (k != r || !(dot = strchr(p, '.')))
			return -1;
		name = hog_xasprintf("%.*s", (int)(dot - p), p);
		yes = hog_rules_is_parent_call(fs->c->rules, name);
		free(name);
		return yes ? 1 : -1;
	}
	/* one step: a field of another struct embedded in ours may be another's parent */
	if (n > r && a[n - 1] == '^')
		n--;
	cls = fs->c->notroot->parent && n > r && a[r] == '/' && !memchr(a + r + 1, '/', n - r - 1) &&
	      strcspn(a + r, "^[#") >= n - r ? hog_expr_class(fs->c->strs, a) : NULL;
	return cls && !strcmp(cls, fs->c->notroot->parent) ? 1 : -1;
}

/*
 * A cost with no other condition, every way to it past a test of a
 * field of a parameter (the nearest such test that dominates it): the
 * callers' to decide.  Only a field read through the parameter, not
 * the parameter itself (a test of that is a parameter test).  Returns
 * 1 when that test rules the cost out by a rule's contract: a not-root
 * callback's "if (!css->parent)" (rules: not-root).
 */
int when_from_field(struct fs *fs, struct hog_cost *c)
{
	const struct fcond *t;
	int b, steps = 0;

	if (c->when.arg >= 0 || !fs->fcond || !fs->idom || fs->cur_block < 0)
		return 0;
	for (b = fs->cur_block; b > 0 && steps++ < fs->f->nblocks; b = fs->idom[b]) {
		const struct hog_block *p;

		if (!(t = test_into(fs, b)))
			continue;
		if (hog_expr_param(t->addr) < 0 || !t->addr[param_root(t->addr)])
			continue;
		/*
		 * The value tested is the caller's only if nothing here set
		 * it first: before the load's test, or the predicate's call.
		 */
		p = &fs->f->blocks[fs->f->blocks[b].pred[0]];
		if (t->def_b >= 0 ? written_between(fs, t->addr, 0, -1, t->def_b, t->def_i, NULL) :
		    written_between(fs, t->addr, 0, -1, fs->f->blocks[b].pred[0], p->nev, NULL))
			return 0;
		if (parent_of_not_root(fs, t->addr) == 1)
			return !t->nonzero;
		c->when.arg = hog_expr_param(t->addr);
		c->when.op = t->nonzero ? 'n' : 'z';
		c->when.val = 0;
		c->when.field = eng_intern(fs, t->addr + param_root(t->addr));
		c->when.inferred = 1;
		return 0;
	}
	return 0;
}

/* The current call's index in its block, -1 if it is not there. */
static int call_index(struct fs *fs, const struct hog_event *call)
{
	const struct hog_block *cb = &fs->f->blocks[fs->cur_block];

	return call >= cb->ev && call < cb->ev + cb->nev ? (int)(call - cb->ev) : -1;
}

/*
 * Does the event at (sb, si) come before the call (at ci of the current
 * block) on every way to it, with nothing handed the field between?
 */
static int before_call(struct fs *fs, const char *a, int sb, int si, int ci,
		       const struct hog_event *call)
{
	int b, steps = 0, dom = sb == fs->cur_block && si < ci;

	for (b = fs->idom[fs->cur_block]; !dom && b >= 0 && steps++ < fs->f->nblocks;
	     b = fs->idom[b])
		dom = b == sb;
	return dom && !written_between(fs, a, sb, si, fs->cur_block, ci, call);
}

/*
 * A store the function makes to field a: 1 to a itself, 2 to the struct
 * around it or to a field of the same class spelt another way
 * (container_of(), a getter's result; not in a local of ours, which
 * nothing else points into: store.file = bitmap->storage.file), 0 none.
 */
static int store_to(struct fs *fs, const struct hog_event *e, const char *a, const char *cls)
{
	const char *d;

	if (e->kind != HE_STORE || e->nargs < 2 || e->args[0].kind != HV_ADDR)
		return 0;
	d = e->args[0].addr;
	if (!strcmp(d, a))
		return 1;
	return hog_expr_has_prefix(a, d) ||
	       (cls && d[0] != '%' && hog_expr_class(fs->c->strs, d) == cls) ? 2 : 0;
}

/*
 * What the stores of the function say of field a at the call: 1
 * non-zero, 0 zero, -1 unknown.  Every store to it that can come
 * before the call a constant of the same truth (none to the struct
 * around it nor to the field spelt another way), and one of them
 * before the call on every way to it.  A store past the call on no way
 * back to it (bitmap->storage = store after the helper) does not count.
 */
static int stored(struct fs *fs, const char *a, const struct hog_event *call)
{
	const struct hog_func *f = fs->f;
	const char *cls = hog_expr_class(fs->c->strs, a);
	int b, i, k, val = -1, dom = 0, ci = call_index(fs, call);
	char *before;

	if (ci < 0)
		return -1;
	before = reach_set(f, fs->cur_block, 1);
	for (b = 0; b < f->nblocks && val != -2; b++)
		for (i = 0; i < f->blocks[b].nev && val != -2; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];

			if (!(k = store_to(fs, e, a, cls)) ||
			    !((b == fs->cur_block && i < ci) || before[b]))
				continue;
			if (k == 2 || e->args[1].kind != HV_CONST ||
			    (val >= 0 && val != (e->args[1].cst != 0))) {
				val = -2;
				break;
			}
			val = e->args[1].cst != 0;
			dom |= before_call(fs, a, b, i, ci, call);
		}
	free(before);
	return dom && val >= 0 ? val : -1;
}

/* May field a change between test t, on the way out of block p, and the call? */
static int stale(struct fs *fs, const struct fcond *t, int p, const char *a, int ci,
		 const struct hog_event *call)
{
	if (t->def_b >= 0)
		return written_between(fs, a, t->def_b, t->def_i, fs->cur_block, ci, call);
	return written_between(fs, a, p, fs->f->blocks[p].nev, fs->cur_block, ci, call);
}

/*
 * What the nearest test of field a on every way to block b found, b
 * from block from (-1: b's own single way in): 1, 0 or -1.
 */
static int tested_from(struct fs *fs, const char *a, int b, int from, int ci,
		       const struct hog_event *call)
{
	const struct fcond *t;
	int steps = 0, p;

	if (from >= 0) {
		const struct hog_block *pb = &fs->f->blocks[from];
		int si = pb->succ[0] == b ? 0 : 1;

		if (fs->fcond && pb->nsucc == 2 && pb->succ[0] != pb->succ[1] &&
		    (t = &fs->fcond[2 * from + si])->addr && !strcmp(t->addr, a))
			return stale(fs, t, from, a, ci, call) ? -1 : t->nonzero;
		b = from;
	}
	for (; ci >= 0 && b > 0 && steps++ < fs->f->nblocks; b = fs->idom[b]) {
		if (!(t = test_into(fs, b)) || strcmp(t->addr, a))
			continue;
		p = fs->f->blocks[b].pred[0];
		return stale(fs, t, p, a, ci, call) ? -1 : t->nonzero;
	}
	return -1;
}

/* What a test of field a that every way to the call passed found: 1, 0 or -1. */
static int tested(struct fs *fs, const char *a, const struct hog_event *call)
{
	return tested_from(fs, a, fs->cur_block, -1, call_index(fs, call), call);
}

/*
 * Ways that meet at the call's block, "if (!P(folio) || !atomic)
 * __update(folio)": a test on one way in decides the callee's field
 * condition (P is zero there: the cost does not hold), the other way
 * tests something else.  The cost holds only on the ways left: none,
 * 0; one, -1 with *out its nearest parameter test, the condition the
 * callers decide; more, -1 with none.
 */
static int ways_when(struct fs *fs, const char *a, int want, const struct hog_event *call,
		     struct hog_when *out)
{
	const struct hog_block *cb = &fs->f->blocks[fs->cur_block];
	int i, left = 0, last = -1, ci = call_index(fs, call);
	const struct econd *e;

	if (cb->npred < 2 || ci < 0)
		return -1;
	for (i = 0; i < cb->npred; i++)
		if (tested_from(fs, a, fs->cur_block, cb->pred[i], ci, call) != !want) {
			left++;
			last = cb->pred[i];
		}
	if (!left)
		return 0;
	if (left == 1 && (e = eng_way_test(fs, last, fs->cur_block))) {
		out->arg = e->param;
		out->op = e->op;
		out->val = e->mask;
		out->field = NULL;
		out->inferred = 1;
	}
	return -1;
}

/*
 * A callee's field condition at this call: 1 it holds, 0 it does not,
 * -1 unknown (out->arg -1: the cost stays, and is not passed on).
 */
int field_when(struct fs *fs, const struct callv *cv, const struct hog_when *w,
	       struct hog_when *out)
{
	const char *base = eng_arg_addr(cv, w->arg);
	const char *a;
	int k;

	out->arg = -1;
	if (!base || !fs->idom || fs->cur_block < 0)
		return -1;
	a = hog_expr_append(fs->c->strs, base, w->field);
	k = stored(fs, a, cv->ev);
	if (k < 0)
		k = tested(fs, a, cv->ev);
	if (k >= 0)
		return (w->op == 'n') == k;
	/*
	 * What we were handed: its parent is set when it is made (the
	 * rule's contract, css->parent in init_and_link_css()), so a call
	 * handed it on the way does not change it; a store of ours there
	 * undoes the contract (parent_stored()).
	 */
	if (parent_of_not_root(fs, a) == 1)
		return w->op == 'n' ? 1 : HOG_WHEN_RULED;
	return ways_when(fs, a, w->op == 'n', cv->ev, out);
}
