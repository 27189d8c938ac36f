// SPDX-License-Identifier: GPL-2.0
/*
 * The whole program: functions from any number of object files, names
 * resolved the way the linker would (statics within their translation
 * unit first), summaries computed bottom-up over the strongly connected
 * components of the call graph, and raw findings grouped into one
 * finding per costly site.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "flow.h"
#include "checker.h"
#include "expr.h"
#include "unbuilt.h"

struct fnode {
	const struct hog_func *f;
	struct hog_summary sum;
	int have;		/* sum is usable */
	int index, low, onstack;
	int ncallee;
	struct fnode **callee;
	int self_edge;
	int group;		/* solve_scc(): 1 + its place in the group being solved, else 0 */
	int recursive;		/* a member of a recursive group (solve_scc()) */
	int addr;		/* its address is a value somewhere: callers we cannot see */
	/*
	 * mark_addresses(): the functions whose per-call registrations
	 * (on_each_cpu(fn)) pass it, and whether its address is a value
	 * anywhere else too; per_call_callers() reads and frees them
	 */
	struct hog_vec percall;
	int addr_other;
	const char *unbuilt;	/* why nothing in this build calls it (mark_unbuilt()) */
	struct fnode *rare;	/* the rare entry every call comes from (mark_rare()) */
	const char *rare_by;	/* a root's rule word; NULL when it is cold */
	struct hog_entry_ctx ctx;	/* rule NULL: not a registered callback */
	struct hog_notroot nr;		/* arg 0: handed anything (mark_not_root()) */
	struct hog_vec sites;		/* struct site *: direct calls of it (build_edges()) */
};

/* A direct call of a function: the caller and its call event. */
struct site {
	struct fnode *caller;
	const struct hog_event *ev;
};

struct hog_prog {
	struct hog_strtab *strs;
	int own_strs;
	const struct hog_rules *rules;
	struct hog_arena arena;
	struct hog_vec mods;
	struct hog_vec nodes;
	struct hog_map *globals;	/* name -> fnode */
	struct hog_map *scoped;		/* "tu\1name" -> fnode */
	struct hog_vec raws;
	struct hog_vec findings;
	struct hog_vec incomplete;	/* struct fnode *: summaries with limits */
	struct hog_map *limited;	/* function name -> fnode, for the findings */
	struct hog_map *when_memo;	/* callers_when()'s answers */
	struct hog_unbuilt *tree;	/* the kernel tree, NULL if not known */
};

struct hog_prog *hog_prog_new(struct hog_strtab *strs, const struct hog_rules *rules)
{
	struct hog_prog *p = hog_xcalloc(1, sizeof(*p));

	if (!strs) {
		strs = hog_strtab_new();
		p->own_strs = 1;
	}
	p->strs = strs;
	p->rules = rules;
	p->globals = hog_map_new();
	p->limited = hog_map_new();
	p->scoped = hog_map_new();
	p->when_memo = hog_map_new();
	return p;
}

void hog_prog_free(struct hog_prog *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < p->nodes.n; i++) {
		struct fnode *n = p->nodes.v[i];

		free(n->callee);
		hog_vec_free(&n->sites);
		free(n);
	}
	for (i = 0; i < p->mods.n; i++)
		hog_module_free(p->mods.v[i]);
	hog_vec_free(&p->mods);
	hog_vec_free(&p->nodes);
	hog_vec_free(&p->raws);
	hog_vec_free(&p->findings);
	hog_vec_free(&p->incomplete);
	hog_map_free(p->limited);
	hog_map_free(p->globals);
	hog_map_free(p->scoped);
	hog_map_free(p->when_memo);
	hog_unbuilt_free(p->tree);
	hog_arena_free(&p->arena);
	if (p->own_strs)
		hog_strtab_free(p->strs);
	free(p);
}

static const char *scoped_key(struct hog_prog *p, const char *a, const char *b, char tag)
{
	char *k = hog_xasprintf("%c%s\1%s", tag, a, b);
	const char *r = hog_intern(p->strs, k);

	free(k);
	return r;
}

void hog_prog_add_module(struct hog_prog *p, struct hog_module *m)
{
	int i;

	hog_vec_push(&p->mods, m);
	for (i = 0; i < m->nfuncs; i++) {
		const struct hog_func *f = m->funcs[i];
		const char *name = hog_intern(p->strs, f->name);
		struct fnode *n;

		if (!f->is_static) {
			if (hog_map_get(p->globals, name))
				continue;	/* the same object twice, or a weak twin */
			n = hog_xcalloc(1, sizeof(*n));
			n->f = f;
			hog_map_put(p->globals, name, n);
			hog_vec_push(&p->nodes, n);
			continue;
		}
		{
			const char *kt = scoped_key(p, f->tu, name, 't');

			if (hog_map_get(p->scoped, kt))
				continue;
			/* a header's static inline is the same in every unit: analyse it once */
			if (f->file != f->tu && f->file && *f->file) {
				const char *kh = scoped_key(p, f->file, name, 'h');

				n = hog_map_get(p->scoped, kh);
				if (n) {
					hog_map_put(p->scoped, kt, n);
					continue;
				}
				n = hog_xcalloc(1, sizeof(*n));
				n->f = f;
				hog_map_put(p->scoped, kh, n);
			} else {
				n = hog_xcalloc(1, sizeof(*n));
				n->f = f;
			}
			hog_map_put(p->scoped, kt, n);
			hog_vec_push(&p->nodes, n);
		}
	}
}

/* The function name means in unit tu: its own static, else the global. */
static struct fnode *resolve_in(struct hog_prog *p, const char *tu, const char *name)
{
	struct fnode *n;

	if (!name)
		return NULL;
	name = hog_intern(p->strs, name);
	n = hog_map_get(p->scoped, scoped_key(p, tu, name, 't'));
	if (n)
		return n;
	return hog_map_get(p->globals, name);
}

static struct fnode *resolve(struct hog_prog *p, const struct hog_func *caller,
			     const char *callee)
{
	return resolve_in(p, caller->tu, callee);
}

static const struct hog_summary *lookup(void *ctx, const struct hog_func *caller,
					const char *callee)
{
	struct fnode *n = resolve(ctx, caller, callee);

	return n && n->have ? &n->sum : NULL;
}

/* A direct call of c from n, for the questions about c's callers' arguments. */
static void add_site(struct hog_prog *p, struct fnode *c, struct fnode *n,
		     const struct hog_event *ev)
{
	struct site *st = hog_alloc(&p->arena, sizeof(*st));

	st->caller = n;
	st->ev = ev;
	hog_vec_push(&c->sites, st);
}

static void build_edges(struct hog_prog *p)
{
	int i, b, e;

	for (i = 0; i < p->nodes.n; i++) {
		struct fnode *n = p->nodes.v[i];
		struct hog_vec v = { 0 };

		for (b = 0; b < n->f->nblocks; b++)
			for (e = 0; e < n->f->blocks[b].nev; e++) {
				const struct hog_event *ev = &n->f->blocks[b].ev[e];
				struct fnode *c;
				int k;

				if (ev->kind != HE_CALL)
					continue;
				c = resolve(p, n->f, ev->callee);
				if (!c)
					continue;
				add_site(p, c, n, ev);
				if (c == n)
					n->self_edge = 1;
				for (k = 0; k < v.n; k++)
					if (v.v[k] == c)
						break;
				if (k == v.n)
					hog_vec_push(&v, c);
			}
		n->ncallee = v.n;
		n->callee = (struct fnode **)v.v;
	}
}

/* The function an "@name" value is the address of, in caller's unit; NULL if none. */
static struct fnode *func_at(struct hog_prog *p, const struct hog_func *caller,
			     const struct hog_val *v)
{
	if (v->kind != HV_ADDR || !v->addr || v->addr[0] != '@' || strpbrk(v->addr + 1, "/^#["))
		return NULL;
	return resolve(p, caller, v->addr + 1);
}

/* A constant mode argument with a bit of the rule's mask: its context, else NULL. */
static const struct hog_ctx_rule *mode_of(const struct hog_ctx_mode *m, const struct hog_event *ev)
{
	const struct hog_val *v = m->mode < ev->nargs ? &ev->args[m->mode] : NULL;

	return v && v->kind == HV_CONST && (v->cst & m->mask) ? &m->ctx : NULL;
}

/*
 * The context a registration gives, its mode considered (rules:
 * context-mode): hrtimer_init(&t->timer, clock, HRTIMER_MODE_REL_SOFT)
 * and then t->timer.function = fn in the same function, or the mode in
 * the registering call itself (hrtimer_setup()).  Else the rule's own.
 */
static const struct hog_ctx_rule *moded_context(struct hog_prog *p, const struct hog_func *f,
						const struct hog_event *reg,
						const struct hog_ctx_rule *r)
{
	const struct hog_ctx_mode *m;
	const struct hog_ctx_rule *moded = NULL;
	const char *dst, *cut;
	char *obj;
	int b, e;

	if (!p->rules->ctx_modes.n)
		return r;
	if (reg->kind == HE_CALL) {
		m = hog_rules_ctx_mode(p->rules, reg->callee);
		moded = m ? mode_of(m, reg) : NULL;
		return moded ? moded : r;
	}
	dst = reg->args[0].addr;
	if (!(cut = strrchr(dst, '/')) || cut == dst)
		return r;
	obj = hog_xasprintf("%.*s", (int)(cut - dst), dst);
	for (b = 0; b < f->nblocks && !moded; b++)
		for (e = 0; e < f->blocks[b].nev && !moded; e++) {
			const struct hog_event *ev = &f->blocks[b].ev[e];
			const struct hog_val *o;

			if (ev->kind != HE_CALL || !(m = hog_rules_ctx_mode(p->rules, ev->callee)))
				continue;
			o = m->obj < ev->nargs ? &ev->args[m->obj] : NULL;
			if (o && o->kind == HV_ADDR && o->addr && !strcmp(o->addr, obj))
				moded = mode_of(m, ev);
		}
	free(obj);
	return moded ? moded : r;
}

/*
 * One event that may register a callback (rules: context): a call that
 * takes the function as an argument (init_timer_key(t, fn, ...)), or a
 * store of its address to a field (timer->function = fn).  The first
 * registration found names the function's context.
 */
static void registration(struct hog_prog *p, struct fnode *n, const struct hog_event *ev)
{
	const struct hog_ctx_rule *r = NULL;
	struct fnode *cb = NULL;

	if (ev->kind == HE_CALL && (r = hog_rules_ctx_call(p->rules, ev->callee)) &&
	    r->arg < ev->nargs)
		cb = func_at(p, n->f, &ev->args[r->arg]);
	else if (ev->kind == HE_STORE && ev->nargs >= 2 && ev->args[0].kind == HV_ADDR &&
		 (r = hog_rules_ctx_field(p->rules, hog_expr_class(p->strs, ev->args[0].addr))))
		cb = func_at(p, n->f, &ev->args[1]);
	if (!cb || cb->ctx.rule)
		return;
	cb->ctx.rule = moded_context(p, n->f, ev, r);
	cb->ctx.reg.func = hog_intern(p->strs, n->f->name);
	cb->ctx.reg.file = n->f->file;
	cb->ctx.reg.line = ev->line;
	cb->ctx.reg.col = ev->col;
}

/* A function a unit's static initializer stores in a field of a context= rule. */
static void init_registrations(struct hog_prog *p, const struct hog_module *m)
{
	int i;

	for (i = 0; i < m->nregs; i++) {
		const struct hog_init_reg *g = &m->regs[i];
		const struct hog_ctx_rule *r = hog_rules_ctx_field(p->rules, g->cls);
		struct fnode *cb = r ? resolve_in(p, m->tu, g->func) : NULL;

		if (!cb || cb->ctx.rule)
			continue;
		cb->ctx.rule = r;
		cb->ctx.reg.func = g->var;
		cb->ctx.reg.file = m->tu;
		cb->ctx.reg.line = g->line;
		cb->ctx.reg.col = 0;
		cb->ctx.reg_var = 1;
	}
}

static void find_registrations(struct hog_prog *p)
{
	int i, b, e;

	if (!p->rules->ctx_rules.n)
		return;
	for (i = 0; i < p->mods.n; i++)
		init_registrations(p, p->mods.v[i]);
	for (i = 0; i < p->nodes.n; i++) {
		struct fnode *n = p->nodes.v[i];

		for (b = 0; b < n->f->nblocks; b++)
			for (e = 0; e < n->f->blocks[b].nev; e++)
				registration(p, n, &n->f->blocks[b].ev[e]);
	}
}

/* A registration in a not-root field (name: the rule's word). */
static void not_root(struct hog_prog *p, struct fnode *n, const char *name)
{
	const char *parent = NULL;
	int arg = hog_rules_not_root(p->rules, name, &parent);

	if (!n || arg < 0 || n->nr.arg < 0)
		return;
	if (n->nr.arg && (n->nr.arg != arg + 1 || n->nr.parent != parent))
		arg = -2;
	n->nr.arg = arg + 1;
	n->nr.parent = parent;
	if (!n->nr.key)
		n->nr.key = hog_rules_not_root_key(p->rules, name) + 1;
}

/*
 * A use of fn's address: stored in field cls (NULL: any other use).  A
 * not-root field registers it; any other use may hand it a root.
 */
static void not_root_use(struct hog_prog *p, struct fnode *fn, const char *cls)
{
	if (!p->rules->notroot_names.n)
		return;
	if (cls && hog_rules_not_root(p->rules, cls, NULL) >= 0)
		not_root(p, fn, cls);
	else
		fn->nr.arg = -1;
}

/* The field event ev stores its argument k in, NULL if it is not such a store. */
static const char *stored_in(struct hog_prog *p, const struct hog_event *ev, int k)
{
	return ev->kind == HE_STORE && k == 1 && ev->args[0].kind == HV_ADDR ?
	       hog_expr_class(p->strs, ev->args[0].addr) : NULL;
}

/*
 * Functions whose address is a value: in the frontend's view of the
 * whole unit (HOG_FN_ADDR, static initializers included), or in an
 * event or phi of the IR.  Their callers are not all in the call graph.
 * An argument of a per-call registration (on_each_cpu(fn)) is filed
 * under fn for per_call_callers(); any other use marks addr_other.
 * Each use also tells whether fn is a not-root callback (not_root_use()).
 */
static void mark_addresses(struct hog_prog *p)
{
	int i, b, e, k;

	for (i = 0; i < p->nodes.n; i++) {
		struct fnode *n = p->nodes.v[i];

		if (n->f->flags & HOG_FN_ADDR)
			n->addr = 1;
	}
	for (i = 0; i < p->mods.n; i++) {
		const struct hog_module *m = p->mods.v[i];
		struct fnode *fn;

		for (k = 0; k < m->nregs; k++)
			if ((fn = resolve_in(p, m->tu, m->regs[k].func))) {
				fn->addr = fn->addr_other = 1;
				not_root_use(p, fn, m->regs[k].cls);
			}
	}
	for (i = 0; i < p->nodes.n; i++) {
		struct fnode *n = p->nodes.v[i], *fn;

		for (b = 0; b < n->f->nblocks; b++) {
			const struct hog_block *bb = &n->f->blocks[b];

			for (e = 0; e < bb->nev; e++) {
				const struct hog_event *ev = &bb->ev[e];
				const struct hog_ctx_rule *r = ev->kind == HE_CALL ?
					hog_rules_ctx_call(p->rules, ev->callee) : NULL;

				for (k = 0; k < ev->nargs; k++) {
					if (!(fn = func_at(p, n->f, &ev->args[k])))
						continue;
					fn->addr = 1;
					if (r && r->per_call && r->arg == k)
						hog_vec_push(&fn->percall, n);
					else
						fn->addr_other = 1;
					not_root_use(p, fn, stored_in(p, ev, k));
				}
			}
			for (e = 0; e < bb->nphi; e++)
				for (k = 0; k < bb->phi[e].n; k++)
					if ((fn = func_at(p, n->f, &bb->phi[e].val[k]))) {
						fn->addr = fn->addr_other = 1;
						not_root_use(p, fn, NULL);
					}
		}
	}
}

/*
 * Rare entries (rules: rare; functions marked cold, as __init and
 * __exit are): boot, teardown, an administrator's request.  A static
 * function of its own unit whose address is never taken, called only
 * from rare functions, is rare too: every call comes from one of them.
 * A function without a caller in the program is not (its callers are
 * elsewhere), nor a header's static inline, analysed once for every
 * unit that includes it.
 */
static int only_rare_callers(const struct hog_vec *callers, struct fnode **root)
{
	int i;

	for (i = 0; i < callers->n; i++)
		if (!((struct fnode *)callers->v[i])->rare)
			return 0;
	*root = callers->n ? ((struct fnode *)callers->v[0])->rare : NULL;
	return callers->n > 0;
}

/*
 * register_sys_off_handler(mode, prio, fn, data), rules "rare call=NAME
 * arg=N": the function a call passes as argument N runs only when what
 * it registers for happens (the machine powers off), whoever else
 * might call it.
 */
static void rare_registrations(struct hog_prog *p, struct fnode *n)
{
	const struct hog_rare_call *r;
	int b, e, k;

	for (b = 0; b < n->f->nblocks; b++)
		for (e = 0; e < n->f->blocks[b].nev; e++) {
			const struct hog_event *ev = &n->f->blocks[b].ev[e];
			struct fnode *cb;

			if (ev->kind != HE_CALL)
				continue;
			for (k = 0; (r = hog_rules_rare_call(p->rules, ev->callee, k)); k++)
				if (r->arg < ev->nargs && (cb = func_at(p, n->f, &ev->args[r->arg])) &&
				    !cb->rare) {
					cb->rare = cb;
					cb->rare_by = r->word;
				}
		}
}

/*
 * attr->store = set_bank in code, as an initializer's .store = (rules:
 * rare STRUCT.FIELD): the frontends write the store for a rare field.
 */
static void rare_stores(struct hog_prog *p, struct fnode *n)
{
	int b, e;

	for (b = 0; b < n->f->nblocks; b++)
		for (e = 0; e < n->f->blocks[b].nev; e++) {
			const struct hog_event *ev = &n->f->blocks[b].ev[e];
			const char *cls;
			struct fnode *cb;

			if (ev->kind != HE_STORE || ev->nargs < 2 || ev->args[0].kind != HV_ADDR ||
			    !(cls = hog_expr_class(p->strs, ev->args[0].addr)) ||
			    !hog_rules_is_rare(p->rules, cls) || !(cb = func_at(p, n->f, &ev->args[1])) ||
			    cb->rare)
				continue;
			cb->rare = cb;
			cb->rare_by = cls;
		}
}

/*
 * on_each_cpu(fn, ...) runs fn inside the call (rules: context ...
 * per-call).  A static function of its own unit whose address goes to
 * such calls only is, for rarity, called by the functions that make
 * them: on_each_cpu() from a sysfs store runs fn when an administrator
 * writes.  Any other use of the address (a phi, another call's
 * argument, an initializer, a store: the frontend's HOG_FN_ARGS says
 * there is none outside call arguments) leaves it an entry anyone may
 * run.
 */
static void per_call_callers(struct hog_prog *p, struct hog_vec *callers)
{
	int i, k;

	for (i = 0; i < p->nodes.n; i++) {
		struct fnode *cb = p->nodes.v[i];

		/* its direct callers are in callers[] already */
		if (cb->percall.n && !cb->addr_other && (cb->f->flags & HOG_FN_ARGS) && !cb->rare &&
		    cb->f->is_static && cb->f->file == cb->f->tu) {
			for (k = 0; k < cb->percall.n; k++)
				if (cb->percall.v[k] != cb)
					hog_vec_push(&callers[i], cb->percall.v[k]);
		} else if (cb->addr) {
			callers[i].n = 0;
		}
		hog_vec_free(&cb->percall);
	}
}

static void mark_rare(struct hog_prog *p)
{
	struct hog_vec *callers = hog_xcalloc(p->nodes.n + 1, sizeof(*callers));
	struct fnode *root;
	int i, k, changed;

	for (i = 0; i < p->nodes.n; i++) {
		struct fnode *n = p->nodes.v[i];

		n->index = i + 1;	/* solve_all() numbers them again */
		if (hog_rules_is_rare(p->rules, n->f->name)) {
			n->rare = n;
			n->rare_by = n->f->name;
		} else if (n->f->flags & HOG_FN_COLD) {
			n->rare = n;
		}
	}
	for (i = 0; i < p->nodes.n; i++) {
		if (p->rules->rare_calls.n)
			rare_registrations(p, p->nodes.v[i]);
		rare_stores(p, p->nodes.v[i]);
	}
	/* .store = x_store: a sysfs write, a sysctl (rules: rare STRUCT.FIELD) */
	for (i = 0; i < p->mods.n; i++) {
		const struct hog_module *m = p->mods.v[i];

		for (k = 0; k < m->nregs; k++) {
			struct fnode *n = hog_rules_is_rare(p->rules, m->regs[k].cls) ?
					  resolve_in(p, m->tu, m->regs[k].func) : NULL;

			if (n && !n->rare) {
				n->rare = n;
				n->rare_by = m->regs[k].cls;
			}
		}
	}
	for (i = 0; i < p->nodes.n; i++) {
		struct fnode *c = p->nodes.v[i];

		for (k = 0; k < c->ncallee; k++) {
			struct fnode *n = c->callee[k];

			/* an address taken keeps them only for per_call_callers() */
			if (n != c && !n->rare && n->f->is_static && n->f->file == n->f->tu)
				hog_vec_push(&callers[n->index - 1], c);
		}
	}
	per_call_callers(p, callers);
	/* rounds until nothing changes: chains of statics are short */
	do {
		changed = 0;
		for (i = 0; i < p->nodes.n; i++) {
			struct fnode *n = p->nodes.v[i];

			if (!n->rare && only_rare_callers(&callers[i], &root)) {
				n->rare = root;
				changed = 1;
			}
		}
	} while (changed);
	for (i = 0; i < p->nodes.n; i++) {
		((struct fnode *)p->nodes.v[i])->index = 0;
		hog_vec_free(&callers[i]);
	}
	free(callers);
}

void hog_prog_set_tree(struct hog_prog *p, const char *tree, const char *const *roots,
		       int nroots)
{
	hog_unbuilt_free(p->tree);
	p->tree = hog_unbuilt_new(tree, roots, nroots);
}

static int is_c_file(const char *f)
{
	size_t n = f ? strlen(f) : 0;

	return n > 2 && !strcmp(f + n - 2, ".c");
}

/*
 * A global function nothing in the IR calls or takes the address of
 * may still be called from where the IR does not look; the tree's text
 * says whether any such place is built (core/unbuilt.c).
 */
static int unbuilt_candidate(const struct hog_prog *p, const struct fnode *n)
{
	return !n->f->is_static && !n->addr && !n->sites.n && !n->ctx.rule &&
	       !n->percall.n && is_c_file(n->f->file) &&
	       !hog_map_get(p->rules->byname, n->f->name);
}

static void mark_unbuilt(struct hog_prog *p)
{
	struct hog_map *seen;
	int i;

	if (!p->tree)
		return;
	seen = hog_map_new();
	for (i = 0; i < p->nodes.n; i++) {
		const struct fnode *n = p->nodes.v[i];
		const char *files[] = { n->f->file, n->f->tu };
		int k;

		if (unbuilt_candidate(p, n))
			hog_unbuilt_want(p->tree, n->f->name, n->f->file, n->f->line);
		for (k = 0; k < 2; k++)
			if (files[k] && !hog_map_get(seen, files[k])) {
				hog_map_put(seen, files[k], (void *)files[k]);
				hog_unbuilt_covered(p->tree, files[k]);
			}
	}
	hog_map_free(seen);
	hog_unbuilt_run(p->tree);
	for (i = 0; i < p->nodes.n; i++) {
		struct fnode *n = p->nodes.v[i];
		char *why = unbuilt_candidate(p, n) ? hog_unbuilt_reason(p->tree, n->f->name) : NULL;

		if (why)
			n->unbuilt = hog_intern(p->strs, why);
		free(why);
	}
}

static void analyse(struct hog_prog *p, struct fnode *n, int want_raws)
{
	/* what the walk makes and drops dies with it: a whole kernel in memory */
	struct hog_arena scratch = { 0 };
	struct hog_flow_ctx c = {
		.strs = p->strs,
		.rules = p->rules,
		.arena = &p->arena,
		.scratch = &scratch,
		.lookup = lookup,
		.lookup_ctx = p,
		.raws = want_raws ? &p->raws : NULL,
		.entry = n->ctx.rule ? &n->ctx : NULL,
		.notroot = n->nr.arg > 0 ? &n->nr : NULL,
		.recursive = n->recursive,
	};
	struct hog_summary s;
	int first = p->raws.n, i;

	memset(&s, 0, sizeof(s));
	hog_flow_function(&c, n->f, &s);
	hog_arena_free(&scratch);
	n->sum = s;
	n->have = 1;
	for (i = first; want_raws && n->unbuilt && i < p->raws.n; i++)
		((struct hog_raw *)p->raws.v[i])->path.unbuilt = n->unbuilt;
	for (i = first; want_raws && n->rare && i < p->raws.n; i++) {
		struct hog_raw *r = p->raws.v[i];

		r->path.rare = n->rare->f->name;
		r->path.rare_by = n->rare->rare_by;
	}
}

/*
 * What a caller can see of a summary, as one number: a recursive group
 * is solved when no member's changes from one round to the next.
 * Names are interned, so pointers stand for them.
 */
static unsigned long long summary_sig(const struct hog_summary *s)
{
	long long v[] = { s->nacq, s->nrel, s->nbrk, s->irq_exit, s->preempt_delta,
			  s->pf_delta, (long long)(size_t)s->ret_addr, s->ret_zero,
			  s->natomic, s->has_atomic, s->ncost, s->self != NULL, s->trivial,
			  s->nirq_lock, s->irq_break, s->ret_mparam, s->ret_mask,
			  s->ret_key };
	unsigned long long h = hog_hash64(v, sizeof(v), 0);
	int i, j;

	for (i = 0; i < s->nirq_lock; i++)
		h = hog_hash64(&s->irq_lock[i], sizeof(s->irq_lock[i]), h);

	for (i = 0; i < s->nacq; i++) {
		const struct hog_lockfx *a = &s->acq[i];
		long long w[] = { (long long)(size_t)a->expr, a->cond, a->irqsave, a->irqoff,
				  (long long)(size_t)a->alias };

		h = hog_hash64(w, sizeof(w), h);
	}
	for (i = 0; i < s->nrel; i++)
		h = hog_hash64(&s->rel[i], sizeof(s->rel[i]), h);
	for (i = 0; i < s->ncost; i++) {
		const struct hog_cost *c = &s->cost[i];
		long long w[] = { c->kind, (long long)(size_t)c->cls, (long long)(size_t)c->callee,
				  c->nchain, c->nrel, c->nbreak, c->irqs_off, c->irq_on,
				  c->batched, (long long)(size_t)c->inner, c->ctxclear, c->offkey };

		h = hog_hash64(w, sizeof(w), h);
		for (j = 0; j < c->nchain; j++)
			h = hog_hash64(&c->chain[j].func, sizeof(c->chain[j].func), h);
	}
	return h;
}

static void note_limits(struct hog_prog *p, struct fnode *n)
{
	if (!n->sum.limits)
		return;
	hog_vec_push(&p->incomplete, n);
	hog_map_put(p->limited, hog_intern(p->strs, n->f->name), n);
}

/*
 * Analyses a recursive call group gets to reach its fixed point, per
 * member.  Rounds over every member in turn (what this was) left 6.12's
 * 173 allocation, reclaim and swap functions cut short at 16 rounds:
 * a cost travels one call back per round against the order they come in.
 */
#define MAX_ROUNDS 40

/* Each member's callers inside the group, by index. */
static struct hog_vec *group_callers(struct fnode **scc, int n)
{
	struct hog_vec *callers = hog_xcalloc(n, sizeof(*callers));
	int i, k;

	for (i = 0; i < n; i++)
		scc[i]->group = i + 1;
	for (i = 0; i < n; i++)
		for (k = 0; k < scc[i]->ncallee; k++)
			if (scc[i]->callee[k]->group)
				hog_vec_push(&callers[scc[i]->callee[k]->group - 1], (void *)(intptr_t)i);
	for (i = 0; i < n; i++)
		scc[i]->group = 0;
	return callers;
}

/*
 * Recursion: a member is analysed again only when a callee's summary
 * changed, until none does; then once more each, for the findings.
 */
static void solve_scc(struct hog_prog *p, struct fnode **scc, int n)
{
	struct hog_vec *callers;
	int *queue, *queued, head = 0, count = n, budget = MAX_ROUNDS * n, i, k;

	if (n == 1 && !scc[0]->self_edge) {
		analyse(p, scc[0], 1);
		note_limits(p, scc[0]);
		return;
	}
	for (i = 0; i < n; i++)
		scc[i]->recursive = 1;
	callers = group_callers(scc, n);
	queue = hog_xmalloc(sizeof(*queue) * n);
	queued = hog_xmalloc(sizeof(*queued) * n);
	for (i = 0; i < n; i++) {
		queue[i] = i;
		queued[i] = 1;
	}
	while (count && budget--) {
		unsigned long long before;

		i = queue[head];
		head = (head + 1) % n;
		count--;
		queued[i] = 0;
		before = scc[i]->have ? summary_sig(&scc[i]->sum) : 0;
		analyse(p, scc[i], 0);
		if (summary_sig(&scc[i]->sum) == before)
			continue;
		for (k = 0; k < callers[i].n; k++) {
			int c = (int)(intptr_t)callers[i].v[k];

			if (!queued[c]) {
				queue[(head + count) % n] = c;
				queued[c] = 1;
				count++;
			}
		}
	}
	for (i = 0; i < n; i++) {
		analyse(p, scc[i], 1);
		if (count)
			scc[i]->sum.limits |= HOG_LIMIT_ROUNDS;
		note_limits(p, scc[i]);
		hog_vec_free(&callers[i]);
	}
	free(callers);
	free(queue);
	free(queued);
}

/* Tarjan's algorithm without recursion; components come out callees first. */
static void solve_all(struct hog_prog *p)
{
	int N = p->nodes.n, idx = 1, i;
	struct fnode **stack = hog_xmalloc(sizeof(*stack) * (N + 1));
	struct { struct fnode *n; int next; } *work = hog_xmalloc(sizeof(*work) * (N + 1));
	int sp = 0, wp;

	for (i = 0; i < N; i++) {
		struct fnode *root = p->nodes.v[i];

		if (root->index)
			continue;
		wp = 0;
		work[wp].n = root;
		work[wp].next = 0;
		wp++;
		root->index = root->low = idx++;
		stack[sp++] = root;
		root->onstack = 1;
		while (wp) {
			struct fnode *v = work[wp - 1].n;

			if (work[wp - 1].next < v->ncallee) {
				struct fnode *w = v->callee[work[wp - 1].next++];

				if (!w->index) {
					w->index = w->low = idx++;
					stack[sp++] = w;
					w->onstack = 1;
					work[wp].n = w;
					work[wp].next = 0;
					wp++;
				} else if (w->onstack && w->index < v->low) {
					v->low = w->index;
				}
				continue;
			}
			if (v->low == v->index) {
				int start = sp;

				do {
					start--;
				} while (stack[start] != v);
				for (int k = start; k < sp; k++)
					stack[k]->onstack = 0;
				solve_scc(p, stack + start, sp - start);
				sp = start;
			}
			wp--;
			if (wp && v->low < work[wp - 1].n->low)
				work[wp - 1].n->low = v->low;
		}
	}
	free(stack);
	free(work);
}

/* ---------- findings ---------- */

const char *hog_kind_name(enum hog_kind k)
{
	const struct hog_checker *c = hog_checker(k);

	return c ? c->name : "?";
}

static const char *const sev_names[] = { "note", "warning", "error" };

const char *hog_sev_name(enum hog_sev s)
{
	return s <= HS_ERROR ? sev_names[s] : "?";
}

int hog_sev_parse(const char *name)
{
	int i;

	for (i = 0; i <= HS_ERROR; i++)
		if (!strcmp(name, sev_names[i]))
			return i;
	return -1;
}

int hog_path_names(const struct hog_finding *f, const struct hog_path *p,
		   const char **out, int max)
{
	int i, n = 0;

	for (i = 0; i < p->nchain && n < max; i++)
		out[n++] = p->chain[i].func;
	if (!hog_kind_at_site(f->kind) && f->callee && n < max)
		out[n++] = f->callee;
	return n;
}

/*
 * The function of a rules list (is) a way goes through, its holder or a
 * call on it (checks-off: __dmar_enable_qi() -> panic() ->
 * console_unblank(); diagnostic), NULL if none.
 */
static const char *path_through(const struct hog_rules *r, const struct hog_path *p,
				int (*is)(const struct hog_rules *, const char *))
{
	int i;

	if (is(r, p->holder))
		return p->holder;
	for (i = 0; i < p->nchain; i++)
		if (is(r, p->chain[i].func))
			return p->chain[i].func;
	return NULL;
}

/*
 * The boot phase: a section its function holds (start_kernel()), or a
 * way through a function that runs only then (the memblock allocator,
 * before the page allocator is up).
 */
static const char *path_boot(const struct hog_rules *r, const struct hog_path *p)
{
	return path_through(r, p, hog_rules_is_boot);
}

static const char *path_quiesced(const struct hog_rules *r, const struct hog_path *p)
{
	return path_through(r, p, hog_rules_is_quiesced);
}

static const char *path_diagnostic(const struct hog_rules *r, const struct hog_path *p)
{
	return path_through(r, p, hog_rules_is_diagnostic);
}

static const char *path_anyctx(const struct hog_rules *r, const struct hog_path *p)
{
	return path_through(r, p, hog_rules_is_anyctx);
}

/*
 * A loop whose heaviest call is a check (for_each_object() {
 * check_object(); } under kmem_cache_debug_flags()): the loop is there
 * to check, it runs only when the check does.  Not a walk over a
 * container that grows (free_partial()'s, which reports only some).
 */
static const char *loop_diagnostic(const struct hog_rules *r, const struct hog_finding *f,
				   const struct hog_path *p)
{
	/* a walk over a container that grows is long whatever it calls */
	return f->kind == HK_LOOP && !p->scales && f->callee &&
	       hog_rules_is_diagnostic(r, f->callee) ? f->callee : NULL;
}

/*
 * Under a sleeping lock only its other sleepers wait; with only
 * preemption off no CPU spins: a cost there is a note (note_reason()).
 */
static int way_weak(const struct hog_path *w)
{
	return w->lock.sleeping || (w->lock.kind && !strcmp(w->lock.kind, "preempt"));
}

/*
 * A way held in a rare entry or through a function that rarely runs
 * (cold_reason()): it does not keep a loop a warning that its other
 * ways make a note, and a loop only such ways reach is cold_reason()'s.
 */
static int way_rare(const struct hog_path *w)
{
	return w->rare || w->cold;
}

/*
 * How far a way vouches for a sleep's claim of a bug (sleep_unsure(),
 * unsure_reason()): 3, the analysis is sure the lock is held and it is
 * not a release past a last put (an error); 2, sure but past a last put
 * (a warning); 1, a lock of its class given up under another name on
 * the way (a warning); 0, an analysis cut short on the way (a note).
 */
static int way_trust(const struct hog_path *p)
{
	if (p->limits & HOG_LIMIT_UNSURE)
		return 0;
	if (p->lock.maybe_rel)
		return 1;
	return p->lastput ? 2 : 3;
}

static int path_better(const struct hog_rules *r, int sleeps, const struct hog_path *a,
		       const struct hog_path *b)
{
	int qa = path_boot(r, a) || path_quiesced(r, a);
	int qb = path_boot(r, b) || path_quiesced(r, b);
	int oa = qa || path_diagnostic(r, a) || path_anyctx(r, a) || a->rare;
	int ob = qb || path_diagnostic(r, b) || path_anyctx(r, b) || b->rare;

	/* a way this build never runs (mark_unbuilt()) says least */
	if (!a->unbuilt != !b->unbuilt)
		return !a->unbuilt;
	/*
	 * For a sleep, a way from outside the boot phase and checks-off,
	 * then the way that vouches most for its claim: a sleep is no
	 * less a bug for being diagnostic, any-context or rare, and the
	 * severity is read off the first way.  Not for other costs: their
	 * severity does not rest on it, and a way under a spinning lock
	 * with IRQs off says more of them than a surer one that holds less.
	 */
	if (sleeps && qa != qb)
		return qb;
	if (sleeps && way_trust(a) != way_trust(b))
		return way_trust(a) > way_trust(b);
	/* a way from outside the boot phase (checks-off, diagnostic, any-context, rare) says more */
	if (oa != ob)
		return ob;
	/* then one that is not cold (an error path, past a printk): the reason is read off it */
	if (!a->cold != !b->cold)
		return !a->cold;
	/* one under a spinning lock says more than one where only sleepers wait */
	if (way_weak(a) != way_weak(b))
		return way_weak(b);
	if (a->irqs_off != b->irqs_off)
		return a->irqs_off > b->irqs_off;
	/* a loop nothing bounds says more than a bounded one, a longer bound more */
	if ((a->bound > 0) != (b->bound > 0))
		return a->bound <= 0;
	if (a->bound != b->bound)
		return a->bound > b->bound;
	/* one that is not a release (rules: last-put) says more */
	if (!a->lastput != !b->lastput)
		return !a->lastput;
	if (a->nchain != b->nchain)
		return a->nchain < b->nchain;
	return strcmp(a->holder, b->holder) < 0;
}

/*
 * Of two ways with the same holder and lock: one the holder's callers
 * do not rule out (decide_ways()), one that runs the loop on its own,
 * not folded into an outer loop's finding, then the better.
 */
static int way_better(const struct hog_rules *r, int sleeps, const struct hog_path *a,
		      const struct hog_path *b)
{
	if (!a->when_out != !b->when_out)
		return !a->when_out;
	if (!a->nest.func != !b->nest.func)
		return !a->nest.func;
	return path_better(r, sleeps, a, b);
}

/*
 * Every way to it is a release, past a dec-and-test's non-zero result
 * (rules: last-put): it runs only if that put drops the last reference,
 * which a holder that keeps one of its own never does.  Whether it
 * does is not in the code the analysis reads.
 */
static int all_last_put(const struct hog_rules *r, const struct hog_finding *f)
{
	int i, n = 0;

	for (i = 0; i < f->npaths; i++) {
		const struct hog_path *p = &f->paths[i];

		/* the boot phase and checks-off ways are notes of their own */
		if (path_boot(r, p) || path_quiesced(r, p))
			continue;
		if (!p->lastput)
			return 0;
		n++;
	}
	return n > 0;
}

/*
 * A sleep is a claim of a bug only when the lock is surely held: a chain
 * that gives up a lock of its class under another name may have given
 * up this one, a way through a function whose analysis was cut short
 * where it decides lock state (recursion, dataflow, correlated tests
 * dropped) may hold it only on paths the code never takes, and a
 * release past a last put runs only if that put is the last.  The claim
 * rests on one way that is none of these, and that way leads
 * (path_better()), so the chain the error shows is the one it rests on.
 */
static int sleep_unsure(const struct hog_finding *f)
{
	return hog_kind_sleeps(f->kind) && way_trust(&f->paths[0]) < 3;
}

/* A finding's class's base score, adjusted for its context (rules: rank). */
static int score(const struct hog_prog *prog, const struct hog_finding *f)
{
	const struct hog_rank_policy *k = &prog->rules->rank;
	const struct hog_path *p = &f->paths[0];
	const char *lk = p->lock.kind ? p->lock.kind : "";
	int s = hog_rules_rank_base(prog->rules, f->cls);

	if (f->irqs_off)
		s += k->irqs_off;
	if (p->lock.sleeping)
		s += k->sleeping_lock;
	else if (!strcmp(lk, "preempt"))
		s += k->preempt;
	else if (strcmp(lk, "irq"))
		s += k->spinning_lock;
	if (f->listed)
		s += k->listed;
	s += f->npaths < k->max_paths ? f->npaths : k->max_paths;
	s += k->per_step * (p->nchain - 1);
	if (f->batched)
		s += k->batched;
	if (sleep_unsure(f))
		s += k->unsure;
	return s;
}

/*
 * Why a finding that would be a warning is a note; NULL if it is not
 * one.  Each reason is said in the finding (a note line, JSON
 * "demoted"), so that --all shows what was set aside and why.
 */
/*
 * css_put(): the final put queues css_release_work_fn() and returns; a
 * queued release is not work done under the lock.  So does a put of a
 * reference whose release a "ref-release" rule names (put_reason()).
 */
static const char *release_defers(const struct hog_prog *prog, const struct hog_finding *f)
{
	const struct hog_rule *r = f->callee ?
		hog_rules_find(prog->rules, hog_intern(prog->rules->strs, f->callee), HR_COST) : NULL;

	if (hog_rules_release_reason(prog->rules, f->reason))
		return "its last put only wakes a waiter or queues work (rules: ref-release), and IRQs are on";
	if (r && r->release_defers)
		return "its last put only queues the release (rules: release=defer), and IRQs are on";
	return NULL;
}

static int way_through(const struct hog_path *w, const char *fn);

/*
 * A spinning lock that is one global variable, taken by way w's holder
 * or by a function w runs through: on w the site is inside that lock's
 * section.  The way that holds it, else NULL.
 */
static const struct hog_path *global_lock_way(const struct hog_finding *f,
					      const struct hog_path *w)
{
	int i;

	for (i = 0; i < f->npaths; i++) {
		const struct hog_path *g = &f->paths[i];

		if (!g->lock.global || g->lock.sleeping || g->lock.entry)
			continue;
		if (w->holder == g->holder || way_through(w, g->holder))
			return g;
	}
	return NULL;
}

/* How the ways to one atomic on a global are each a note (gatom_reason()) */
struct gatom_ways {
	int on, nolock, global, weak, batched;
	const char *lock;	/* the first global lock a way is inside */
};

/*
 * 1 if way w is a note by itself, counted in *c.  batch: a way past a
 * per-CPU threshold is one; gatom_lead() asks without it, so that the
 * way that would make the finding a warning but for its batch leads.
 */
static int gatom_way(const struct hog_finding *f, const struct hog_path *w,
		     struct gatom_ways *c, int batch)
{
	const char *lk = w->lock.kind ? w->lock.kind : "";
	const struct hog_path *g;

	if (way_weak(w))
		c->weak++;
	else if (batch && w->batched)
		c->batched++;
	else if (!w->irqs_off)
		c->on++;
	else if (!strcmp(lk, "irq") || w->lock.reg.func)
		c->nolock++;
	else if (!(g = global_lock_way(f, w)))
		return 0;
	else if (c->global++ == 0)
		c->lock = g->lock.name;
	return 1;
}

/*
 * One atomic on a global: a way that is not a note by itself
 * (gatom_way(), its batch aside) leads, as the worst way leads every
 * finding, so that what the finding says is what makes it a warning.
 */
static void gatom_lead(struct hog_finding *f)
{
	struct gatom_ways c = { 0 };
	struct hog_path w;
	int i;

	if (!f->cls || strcmp(f->cls, HOG_CLS_GATOM))
		return;
	for (i = 0; i < f->npaths; i++)
		if (!way_rare(&f->paths[i]) && !gatom_way(f, &f->paths[i], &c, 0))
			break;
	if (i == 0 || i == f->npaths)
		return;
	w = f->paths[i];
	memmove(&f->paths[1], &f->paths[0], i * sizeof(w));
	f->paths[0] = w;
}

/*
 * One atomic on a global is a note on a way where IRQs are on (costly
 * only when contended), where IRQs are off but no lock is held (no CPU
 * waits for the section), or inside the section of a spinning lock that
 * is one global (each CPU that gets there has just pulled the lock's
 * own line; the global's bounces no more often), or past a per-CPU
 * threshold on that way (once per batch).  Not so under a
 * per-object or per-CPU lock with IRQs off, where CPUs run the section
 * side by side (memcg_rstat_updated()).  A finding is as severe as its
 * worst way: a note only if every way that is not rare is one.  A
 * format for note_reason() and its argument, else NULL.
 */
static const char *gatom_reason(const struct hog_prog *prog, const struct hog_finding *f,
				const char **arg)
{
	struct gatom_ways c = { 0 };
	struct hog_buf b = { 0 };
	int i, hot = 0, kinds;

	if (!f->cls || strcmp(f->cls, HOG_CLS_GATOM))
		return NULL;
	for (i = 0; i < f->npaths; i++) {
		if (way_rare(&f->paths[i]))
			continue;
		hot++;
		if (!gatom_way(f, &f->paths[i], &c, 1))
			return NULL;
	}
	if (!hot)
		return NULL;
	/* one kind of way says it in its own words; a mix counts them */
	kinds = !!c.on + !!c.nolock + !!c.global + !!c.weak + !!c.batched;
	if (kinds == 1 && c.on)
		return "one atomic on a global with IRQs on: costly only when contended";
	if (kinds == 1 && c.nolock)
		return "one atomic on a global with no lock held: no other CPU waits for this section";
	if (kinds == 1 && c.global) {
		*arg = c.lock;
		return "the lock %s is one global itself: every CPU that runs this section bounces its line already, and the atomic adds one cache miss to it";
	}
	if (kinds == 1 && c.weak)
		return "one atomic on a global, and on every way to it only sleepers wait or only preemption is off: no CPU spins on this section";
	if (c.on)
		hog_buf_printf(&b, "%d with IRQs on", c.on);
	if (c.nolock)
		hog_buf_printf(&b, "%s%d with IRQs off and no lock held", b.len ? "; " : "", c.nolock);
	if (c.global)
		hog_buf_printf(&b, "%s%d inside the section of %s, a lock that is one global",
			       b.len ? "; " : "", c.global, c.lock);
	if (c.weak)
		hog_buf_printf(&b, "%s%d where only sleepers wait or only preemption is off",
			       b.len ? "; " : "", c.weak);
	if (c.batched)
		hog_buf_printf(&b, "%s%d once per per-CPU batch", b.len ? "; " : "", c.batched);
	*arg = hog_intern(prog->strs, b.s);
	hog_buf_free(&b);
	return "one atomic on a global, and every way to it is a note by itself: %s";
}

static const char *note_reason(const struct hog_prog *prog, const struct hog_finding *f,
			       const char **arg)
{
	const struct hog_path *p = &f->paths[0];
	const char *lk = p->lock.kind ? p->lock.kind : "";
	const char *why;

	*arg = p->holder;
	if (hog_rules_is_boot(prog->rules, p->holder))
		/*
		 * start_kernel() runs on one CPU with IRQs off before the
		 * scheduler exists; the kernel's own might_sleep() checks are
		 * off then (system_state == SYSTEM_BOOTING), and nothing can
		 * contend for a lock.
		 */
		return "%s() is the boot phase: one CPU, no scheduler yet, and the kernel does not check atomic context then (rules: boot-phase)";
	if ((*arg = path_boot(prog->rules, p)))
		return "it goes through %s(), which runs only in the boot phase: one CPU, no scheduler yet, and the kernel does not check atomic context then (rules: boot-phase)";
	if ((*arg = path_quiesced(prog->rules, p)))
		/*
		 * resume_target_kernel(), panic(): the other CPUs are offline
		 * or stopped, and the kernel's might_sleep() checks are off
		 * (system_state past SYSTEM_RUNNING, or oops_in_progress).
		 */
		return "it goes through %s(), which runs with the other CPUs offline or stopped, and the kernel does not check atomic context then (rules: checks-off)";
	*arg = p->holder;
	if (hog_kind_sleeps(f->kind))
		return NULL;
	if ((*arg = path_diagnostic(prog->rules, p)) || (*arg = loop_diagnostic(prog->rules, f, p)))
		/*
		 * free_debug_processing(), validate_slab_node(): they run only
		 * when a debugging option is on or a debug file is read, or to
		 * report a bug already found; a sleep there is still a bug.
		 */
		return "it goes through %s(), which runs only to check or report (a debugging option on, a debug file read, a bug already found) (rules: diagnostic)";
	if ((*arg = path_anyctx(prog->rules, p)))
		/*
		 * kfree() under a spinlock with IRQs off is how the kernel
		 * frees: its memcg uncharge goes through the per-CPU obj
		 * stock, a large kmalloc's pages are at most MAX_ORDER - 1.
		 */
		return "it goes through %s(), a free the kernel allows in any context but NMI: what it does inside is one object's bounded free (rules: any-context)";
	*arg = p->holder;
	if (p->lock.sleeping)
		return "the lock is a sleeping one: only its other sleepers wait";
	if (!strcmp(lk, "preempt"))
		return "only preemption is off: no lock is held, no CPU spins on it";
	if (f->batched)
		return "it runs once per per-CPU batch, past a threshold, not on every call";
	if ((why = gatom_reason(prog, f, arg)))
		return why;
	if (f->cls && !strcmp(f->cls, HOG_CLS_REF) && !f->irqs_off && (why = release_defers(prog, f)))
		return why;
	if (f->offkey > 0) {
		/* a setting fixed at boot: code for systems configured otherwise */
		const struct hog_static_key *k = hog_rules_static_key_at(prog->rules, f->offkey - 1);

		*arg = k->name;
		return k->note;
	}
	return NULL;
}

/* The first way that is not rare, NULL if none. */
static const struct hog_path *hot_way(const struct hog_finding *f)
{
	int i;

	for (i = 0; i < f->npaths; i++)
		if (!way_rare(&f->paths[i]))
			return &f->paths[i];
	return NULL;
}

/*
 * One loop nest, one finding: every way to this loop runs it inside an
 * outer loop that is the finding under the same lock (engine.c,
 * fold_nests()).  Said with the primary way's outer loop (malloc'ed),
 * NULL if some way runs it on its own.
 */
static char *nest_reason(const struct hog_prog *prog, const struct hog_finding *f)
{
	const struct hog_path *h = hot_way(f);
	const struct hog_step *n;
	int i;

	if (f->kind != HK_LOOP || !prog->rules->loop.nest_fold || !h)
		return NULL;
	n = &h->nest;
	for (i = 0; i < f->npaths; i++)
		if (!f->paths[i].nest.func && !way_rare(&f->paths[i]))
			return NULL;
	return hog_xasprintf("it runs inside the loop in %s() (%s:%d), the finding for this section: one loop nest, one finding (rules: loop nest=fold)",
			     n->func, n->file ? n->file : "?", n->line);
}

/*
 * Bounded by the code (a page table's entries, one folio's subpages):
 * real, but at most note-bound rounds on every way to it.  Malloc'ed,
 * NULL if some way's loop is not known to be that short.
 */
static char *bound_reason(const struct hog_prog *prog, const struct hog_finding *f)
{
	long long max = prog->rules->loop.note_bound, b = 0;
	int i;

	if (f->kind != HK_LOOP || max <= 0 || !hot_way(f))
		return NULL;
	for (i = 0; i < f->npaths; i++) {
		if (way_rare(&f->paths[i]))
			continue;
		if (f->paths[i].bound <= 0 || f->paths[i].bound > max)
			return NULL;
		if (f->paths[i].bound > b)
			b = f->paths[i].bound;
	}
	return hog_xasprintf("the code bounds it: at most %lld iterations (rules: loop note-bound=%lld)",
			     b, max);
}

/* A spinning lock's way to a loop of unknown count, IRQs on, no callback context */
static int way_open_irqs_on(const struct hog_path *w)
{
	const char *k = w->lock.kind ? w->lock.kind : "irq";

	return !w->irqs_off && !w->scales && w->bound <= 0 && !w->lock.reg.func &&
	       strcmp(k, "irq") != 0;
}

/*
 * A loop whose count neither the code nor the rules bound, nor a
 * container that grows, under a spinning lock with IRQs on, outside an
 * atomic callback: it holds up only the lock's other takers, and only
 * if its count is long, which nothing here shows.  Real work for a
 * maintainer only with evidence (IRQs off, a bound above note-bound, a
 * walk over a growing container), so a note.  NULL if some way has it.
 */
static char *irqs_on_reason(const struct hog_prog *prog, const struct hog_finding *f)
{
	int i;

	if (f->kind != HK_LOOP || !prog->rules->loop.irqs_on_note || !hot_way(f))
		return NULL;
	for (i = 0; i < f->npaths; i++) {
		const struct hog_path *w = &f->paths[i];

		/* under a sleeping lock, or with only preemption off, it is a note anyway */
		if (way_weak(w) || way_rare(w))
			continue;
		if (!way_open_irqs_on(w))
			return NULL;
	}
	return hog_xasprintf("its trip count is not known and IRQs are on: it holds up only the lock's other takers, and only if the count is long (rules: loop irqs-on=note)");
}

/* Callers named in a demotion's reason, the rest counted */
#define CALLERS_SAID 3

static long long callers_cap(struct hog_prog *p, const struct hog_func *f, int param,
			     struct hog_buf *b, int depth);

/* How many static functions up a parameter is followed to its callers' values */
#define PARAM_DEPTH 4

/*
 * The most parameter param of f can be: the rules' "bound f(param)", or
 * the most its callers pass (callers_cap()); -1 unknown.
 */
static long long param_cap(struct hog_prog *p, const struct hog_func *f, int param, int depth)
{
	struct hog_buf b = { 0 };
	long long m;
	char *key;

	if (param < 0 || param >= f->nparams || !f->params[param][0])
		return -1;
	key = hog_xasprintf("%s(%s)", f->name, f->params[param]);
	m = hog_rules_bound(p->rules, NULL, key);
	free(key);
	if (m >= 0 || depth >= PARAM_DEPTH)
		return m;
	m = callers_cap(p, f, param, &b, depth + 1);
	hog_buf_free(&b);
	return m;
}

/* N when a is the caller's parameter $N as it is ("&$1" in the IR), else -1 */
static int bare_param(const char *a)
{
	return a && hog_expr_param(a) >= 0 && !strpbrk(a + 1, "/^#[.") ? hog_expr_param(a) : -1;
}

/*
 * The most a call passes as argument arg: a constant, a capped variable
 * (IR C), or the caller's own parameter as param_cap() finds it; -1
 * unknown.
 */
static long long passed_cap(struct hog_prog *p, const struct hog_func *caller,
			    const struct hog_event *ev, int arg, int depth)
{
	const struct hog_val *v = arg < ev->nargs ? &ev->args[arg] : NULL;
	int param;

	if (!v)
		return -1;
	if (v->kind == HV_CONST)
		return v->cst >= 0 ? v->cst : -1;
	if (v->kind == HV_VAR)
		return hog_func_vcap(caller, v->var);
	/* the caller's parameter passed on as it is */
	if (v->kind == HV_ADDR && (param = bare_param(v->addr)) >= 0)
		return param_cap(p, caller, param, depth);
	return -1;
}

/* fn's callers, for a reason: "a(), b(), c() and 4 more" */
static void name_callers(const struct fnode *fn, struct hog_buf *b)
{
	const struct fnode *last = NULL;
	int i, named = 0;

	for (i = 0; i < fn->sites.n; i++) {
		const struct site *st = fn->sites.v[i];

		if (st->caller == last)
			continue;
		if (named++ < CALLERS_SAID)
			hog_buf_printf(b, "%s%s()", named > 1 ? ", " : "", st->caller->f->name);
		last = st->caller;
	}
	if (named > CALLERS_SAID)
		hog_buf_printf(b, " and %d more", named - CALLERS_SAID);
}

/*
 * The most any caller passes as parameter param of a static function
 * that is only called directly, appending the callers' names to b; -1
 * if some caller's value is unknown, or there is none.
 */
static long long callers_cap(struct hog_prog *p, const struct hog_func *f, int param,
			     struct hog_buf *b, int depth)
{
	struct fnode *fn = resolve(p, f, f->name);
	long long max = -1, m;
	int i;

	if (!fn || fn->f != f || !f->is_static || fn->addr)
		return -1;
	for (i = 0; i < fn->sites.n; i++) {
		const struct site *st = fn->sites.v[i];

		if ((m = passed_cap(p, st->caller->f, st->ev, param, depth)) < 0)
			return -1;
		max = m > max ? m : max;
	}
	if (max >= 0)
		name_callers(fn, b);
	return max;
}

/* Conditions on a function's parameters that must all hold. */
struct wconds {
	int n;
	struct hog_when w[2];
};

static int callers_when(struct hog_prog *p, struct fnode *fn, const struct wconds *wc,
			struct hog_buf *b, int depth, int *budget);

/*
 * Call sites one decision may read; callers_when()'s answers are kept,
 * so this only stops a walk up a call graph that fans out wide.
 */
#define WHEN_BUDGET 65536
/* callers_when(): the call passes its own parameter on, its callers tell */
#define WHEN_UP 2

/*
 * var = (param & and) | or, from "gfp | __GFP_ZERO" and "flags & ~X"
 * (SSA: one definition, wherever it is); 1 if so.
 */
static int var_mask(const struct hog_func *f, int var, int depth, int *param,
		    long long *and, long long *or)
{
	const struct hog_val *a, *m;
	int b, i;

	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];

			if (e->kind != HE_ASSIGN || e->dst != var)
				continue;
			if (!e->callee || e->nargs < 2 || (strcmp(e->callee, "|") && strcmp(e->callee, "&")))
				return 0;
			a = &e->args[0];
			m = &e->args[1];
			if (m->kind != HV_CONST)
				return 0;
			if (a->kind == HV_ADDR && bare_param(a->addr) >= 0) {
				*param = bare_param(a->addr);
				*and = -1;
				*or = 0;
			} else if (a->kind != HV_VAR || depth >= PARAM_DEPTH ||
				   !var_mask(f, a->var, depth + 1, param, and, or)) {
				return 0;
			}
			if (e->callee[0] == '|') {
				*or |= m->cst;
			} else {
				*and &= m->cst;
				*or &= m->cst;
			}
			return 1;
		}
	return 0;
}

/*
 * Does condition w on a callee's argument hold for the value v this
 * caller passes?  1 or 0; WHEN_UP with *up the same condition on the
 * caller's own parameter; -1 unknown.  A negative constant is unknown
 * to a count or sign test: ~0UL in the IR is -1.
 */
static int value_when(const struct hog_func *f, const struct hog_val *v,
		      const struct hog_when *w, struct hog_when *up)
{
	long long and, or;
	int param, r;

	if (!v)
		return -1;
	if (v->kind == HV_CONST)
		return v->cst < 0 && (w->op == '>' || w->op == '<') ? -1 : eng_when_const(v->cst, w);
	*up = *w;
	if (v->kind == HV_ADDR && (up->arg = bare_param(v->addr)) >= 0)
		return WHEN_UP;
	if (v->kind != HV_VAR)
		return -1;
	if ((r = eng_when_phi(f, v->var, w)) >= 0)
		return r;
	/* as eng_when() reads its pmaps */
	if (!var_mask(f, v->var, 0, &param, &and, &or))
		return -1;
	up->arg = -1;
	r = eng_when_masked(param, and, or, w, up);
	return r < 0 && up->arg >= 0 ? WHEN_UP : r;
}

/*
 * Do this call's arguments meet every condition of wc?  1 or 0;
 * WHEN_UP with *up what the caller's own parameters must meet; -1
 * unknown.
 */
static int site_when(const struct site *st, const struct wconds *wc, struct wconds *up)
{
	const struct hog_event *ev = st->ev;
	int i, r, res = 1;

	up->n = 0;
	for (i = 0; i < wc->n; i++) {
		const struct hog_when *w = &wc->w[i];

		r = value_when(st->caller->f, w->arg < ev->nargs ? &ev->args[w->arg] : NULL,
			       w, &up->w[up->n]);
		if (r == 0)
			return 0;
		if (r == WHEN_UP)
			up->n++;
		else if (r < 0)
			res = -1;
	}
	return res < 0 ? -1 : up->n ? WHEN_UP : 1;
}

static const char *when_key(struct hog_prog *p, const struct fnode *fn, const struct wconds *wc)
{
	char k[160];
	int i, n;

	n = snprintf(k, sizeof(k), "%p", (const void *)fn);
	for (i = 0; i < wc->n && n < (int)sizeof(k); i++)
		n += snprintf(k + n, sizeof(k) - n, "|%d%c%llx", wc->w[i].arg, wc->w[i].op,
			      (unsigned long long)wc->w[i].val);
	return hog_intern(p->strs, k);
}

/*
 * Does a condition on fn's parameters hold for what its callers pass?
 * 1 some caller passes values that meet it; 0 none does and every
 * caller is known (a static function only called directly), named in
 * b; -1 unknown.  The constants first, then the callers' callers for
 * values passed on: a wide fan above one caller does not hide
 * another's constant.
 */
static int callers_when(struct hog_prog *p, struct fnode *fn, const struct wconds *wc,
			struct hog_buf *b, int depth, int *budget)
{
	const char *key = when_key(p, fn, wc);
	void *memo = hog_map_get(p->when_memo, key);
	int i, r, pass, unknown = 0, res;
	struct wconds up;

	/* kept as answer + 2; a question still being answered (a cycle) is unknown */
	if (memo && !b)
		return (int)(intptr_t)memo - 2;
	hog_map_put(p->when_memo, key, (void *)(intptr_t)1);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < fn->sites.n; i++) {
			const struct site *st = fn->sites.v[i];

			if (--*budget < 0) {
				res = -1;
				goto out;
			}
			r = site_when(st, wc, &up);
			if (r == WHEN_UP && depth >= PARAM_DEPTH)
				r = -1;
			if (pass == 1 && r == WHEN_UP)
				r = callers_when(p, st->caller, &up, NULL, depth + 1, budget);
			else if (pass == 1)
				continue;
			if (r == 1) {
				res = 1;
				goto out;
			}
			if (r < 0)
				unknown = 1;
		}
	res = unknown || !fn->sites.n || !fn->f->is_static || fn->addr ? -1 : 0;
	if (!res && b)
		name_callers(fn, b);
out:
	hog_map_put(p->when_memo, key, (void *)(intptr_t)(res + 2));
	return res;
}

/*
 * A way whose cost depends on its holder's parameter stands or falls
 * by what the holder's callers pass: a holder whose every caller
 * passes the constant that skips the cost holds its lock across
 * nothing, and a condition from a callee (a helper that sleeps unless
 * flags & ASYNC) makes a finding only where some caller passes a value
 * that meets it (or, for a condition inferred from a test, where the
 * callers' values are unknown, as eng_when() keeps the cost).  A way
 * that falls is marked, or dropped if it came from a callee.
 */
static int way_stands(struct hog_prog *p, struct hog_path *pa)
{
	struct hog_buf b = { 0 };
	struct wconds wc = { .n = 1, .w = { pa->when } };
	struct fnode *fn = pa->when_fn ? resolve(p, pa->when_fn, pa->when_fn->name) : NULL;
	int budget = WHEN_BUDGET, r;
	char *t;

	if (!fn || fn->f != pa->when_fn || pa->when.inferred == 2)
		return !pa->when_above;
	if (pa->when2.arg >= 0)
		wc.w[wc.n++] = pa->when2;
	r = callers_when(p, fn, &wc, &b, 0, &budget);
	if (pa->when_above && r != 1 && !(r < 0 && pa->when.inferred)) {
		hog_buf_free(&b);
		return 0;
	}
	if (!r) {
		t = hog_xasprintf("every caller of its holder %s() passes %s a value that skips it (%s)",
				  pa->holder, pa->when_fn->params[pa->when.arg][0] ?
				  pa->when_fn->params[pa->when.arg] : "as that argument",
				  b.s ? b.s : "");
		pa->when_out = hog_intern(p->strs, t);
		free(t);
	}
	hog_buf_free(&b);
	return 1;
}

static void decide_ways(struct hog_prog *p)
{
	int i, k;

	for (i = 0, k = 0; i < p->raws.n; i++) {
		struct hog_raw *w = p->raws.v[i];

		if (!w->path.when_fn || way_stands(p, &w->path))
			p->raws.v[k++] = w;
	}
	p->raws.n = k;
}

/* 1 << (n - k) rounds, or more than max when that is too many to say */
static long long shifted_count(long long n, int k, long long max)
{
	if (n <= k)
		return 1;
	return n - k < 62 ? 1LL << (n - k) : max + 1;
}

/*
 * The most rounds way w's loop runs when its count is the holder's
 * parameter (count_reason()), naming what says so in names; -1 unknown.
 */
static long long way_count(struct hog_prog *prog, const struct hog_path *w,
			   struct hog_buf *names)
{
	long long m = -1;

	if (w->count_param < 0 || !w->count_fn)
		return -1;
	if ((m = param_cap(prog, w->count_fn, w->count_param, PARAM_DEPTH)) >= 0)
		hog_buf_printf(names, "rules: bound %s(%s)", w->count_fn->name,
			       w->count_fn->params[w->count_param]);
	else
		m = callers_cap(prog, w->count_fn, w->count_param, names, 0);
	if (m >= 0 && w->count_shift >= 0)
		m = shifted_count(m, w->count_shift, prog->rules->loop.note_bound);
	return m;
}

/*
 * "for (i = 0; i < count; i++)" under the holder's own lock, with count
 * its parameter: its callers decide how long it is.  When every caller
 * passes at most note-bound (rmqueue_bulk()'s only caller passes the
 * pcp batch, at most 63), the loop is short on every way.  Malloc'ed,
 * NULL if some way's count is not known to be that small.
 */
static char *count_reason(struct hog_prog *prog, const struct hog_finding *f)
{
	long long max = prog->rules->loop.note_bound, b = 0, m;
	struct hog_buf names = { 0 };
	char *r;
	int i;

	if (f->kind != HK_LOOP || max <= 0 || !hot_way(f))
		return NULL;
	for (i = 0; i < f->npaths; i++) {
		const struct hog_path *w = &f->paths[i];

		if (way_rare(w))
			continue;
		names.len = 0;
		m = way_count(prog, w, &names);
		if (m < 0 || m > max) {
			hog_buf_free(&names);
			return NULL;
		}
		b = m > b ? m : b;
	}
	r = hog_xasprintf("its trip count is a parameter, and every caller passes at most %lld (%s; rules: loop note-bound=%lld)",
			  b, names.len ? names.s : "", max);
	hog_buf_free(&names);
	return r;
}

/*
 * Every way is a note by itself, though not all for one reason: short
 * on some (the code's bound, or the callers' count, at most note-bound),
 * only sleepers wait or only preemption is off on others, or IRQs are
 * on with a count nothing says.  A finding is as severe as its worst
 * way, and none of these is a warning: get_random_u16()'s one ChaCha
 * block under its batch's lock, whose other ways fill a buffer under a
 * mutex.  Malloc'ed, NULL if some way is none of these.
 */
static char *mixed_reason(struct hog_prog *prog, const struct hog_finding *f)
{
	long long max = prog->rules->loop.note_bound, b = 0, m;
	struct hog_buf names = { 0 };
	int i, nshort = 0, nweak = 0, nopen = 0;
	char *r;

	if (f->kind != HK_LOOP || max <= 0 || !hot_way(f))
		return NULL;
	for (i = 0; i < f->npaths; i++) {
		const struct hog_path *w = &f->paths[i];

		if (way_rare(w))
			continue;
		if (way_weak(w)) {
			nweak++;
			continue;
		}
		m = w->bound > 0 ? w->bound : way_count(prog, w, &names);
		if (m > 0 && m <= max) {
			nshort++;
			b = m > b ? m : b;
			continue;
		}
		if (prog->rules->loop.irqs_on_note && way_open_irqs_on(w)) {
			nopen++;
			continue;
		}
		hog_buf_free(&names);
		return NULL;
	}
	names.len = 0;
	if (nshort)
		hog_buf_printf(&names, ": %d short, at most %lld iterations (rules: loop note-bound=%lld)",
			       nshort, b, max);
	if (nweak)
		hog_buf_printf(&names, "%s%d where only sleepers wait or only preemption is off",
			       names.len ? "; " : ": ", nweak);
	if (nopen)
		hog_buf_printf(&names, "%s%d of unknown count with IRQs on (rules: loop irqs-on=note)",
			       names.len ? "; " : ": ", nopen);
	r = hog_xasprintf("every way to it is a note by itself%s", names.len ? names.s : "");
	hog_buf_free(&names);
	return r;
}

static const char *rare_what(const struct hog_path *w)
{
	if (!w->rare_by)
		return "which is marked cold";
	if (!strncmp(w->rare_by, "call=", 5))
		return "registered for a rare event (a power-off handler, a CPU hotplug callback)";
	if (strchr(w->rare_by, '.'))
		return "an administrator's interface (a sysfs or sysctl handler)";
	return "a rare entry (boot, teardown, an administrator's request)";
}

/* malloc'ed */
static char *rare_rule(const struct hog_path *w)
{
	if (!w->rare_by)
		return hog_xstrdup("__init, __exit and __cold: the compiler is told it rarely runs");
	return hog_xasprintf("rules: rare %s", w->rare_by);
}

/*
 * Reached only from a rare entry on every way: boot (__init), module
 * exit, a teardown or an administrator's request.  The work is real but
 * runs on no workload's hot path.  A sleep stays an error: the kernel
 * checks atomic context there too.  Malloc'ed, NULL if some way's holder
 * has callers that are not rare.
 */
static char *rare_reason(const struct hog_finding *f)
{
	const struct hog_path *w = &f->paths[0];
	char *rule, *t;
	int i;

	if (hog_kind_sleeps(f->kind))
		return NULL;
	for (i = 0; i < f->npaths; i++)
		if (!f->paths[i].rare)
			return NULL;
	rule = rare_rule(w);
	if (w->holder == w->rare)
		t = hog_xasprintf("it is held in %s(), %s: it runs on no workload's hot path (%s)",
				  w->rare, rare_what(w), rule);
	else
		t = hog_xasprintf("its holder %s() is called only from %s(), %s: it runs on no workload's hot path (%s)",
				  w->holder, w->rare, rare_what(w), rule);
	free(rule);
	return t;
}

/*
 * Reached on every way through a call to a function that rarely runs
 * (__cold: printk and dev_err, panic, dump_stack; rules: rare, WARN()'s
 * __warn_printk), or after a call to one the rules name rare, or held
 * in a rare entry (rare_reason()): an error or debugging path.  A
 * sleep is not demoted.  Malloc'ed, NULL if some way is neither.
 */
static char *cold_reason(const struct hog_finding *f)
{
	const char *via = NULL;
	int i, held_rare = 0;

	if (hog_kind_sleeps(f->kind))
		return NULL;
	for (i = 0; i < f->npaths; i++) {
		if (!f->paths[i].cold && !f->paths[i].rare)
			return NULL;
		if (!via)
			via = f->paths[i].cold;
		held_rare += !f->paths[i].cold;
	}
	if (!via)
		return NULL;	/* all held in rare entries: rare_reason()'s */
	if (!held_rare)
		return hog_xasprintf("it is reached only on an error or debugging path, through or after a call to %s(), which rarely runs (marked __cold, or rules: rare)",
				     via);
	return hog_xasprintf("every way to it is held in a rare entry or runs through or after a call that rarely runs, as to %s() (marked __cold, or rules: rare)",
			     via);
}

/*
 * Held on every way in a function nothing in this build calls
 * (mark_unbuilt()): the lock is never held there in this configuration,
 * so a sleep is no bug of this build either.  The source may still
 * have one where another configuration builds the caller, and --all
 * shows it with the reason.  Malloc'ed, NULL if some way's holder may
 * be called.
 */
static char *unbuilt_reason(const struct hog_finding *f)
{
	const struct hog_path *w = &f->paths[0];
	int i;

	for (i = 0; i < f->npaths; i++)
		if (!f->paths[i].unbuilt)
			return NULL;
	return f->npaths ? hog_xasprintf("its holder %s() has no caller in this build: %s",
					 w->holder, w->unbuilt) : NULL;
}

/*
 * A sleep on a way through a function whose analysis was cut short
 * where it decides what is held (recursion short of its fixed point,
 * facts past what a state tracks): the analysis cannot vouch that the
 * lock is held there.  On the whole kernel every such sleep was false
 * when triaged (a lock the callee drops under another spelling, IRQs
 * restored through a flags pointer, a constant that rules the sleep
 * out), so it is a note, which --all shows with the reason.  A lock of
 * the held one's class given up under another name (maybe_rel) keeps
 * the warning, and so does a release past a last put.
 */
static char *unsure_reason(const struct hog_prog *prog, const struct hog_finding *f)
{
	const struct hog_path *p = &f->paths[0];

	if (!hog_kind_sleeps(f->kind) || p->lock.maybe_rel || all_last_put(prog->rules, f) ||
	    !(p->limits & HOG_LIMIT_UNSURE))
		return NULL;
	return hog_xstrdup("the analysis of a function on the way was cut short where it decides what is held: it cannot tell that the lock is still held there");
}

/*
 * The score orders findings (highest first); the weights are policy,
 * in the catalogue's "rank" lines.  The severity is not: sleeping is
 * an error, outside the boot phase, when the lock is surely held
 * (sleep_unsure()), else a warning or, past an analysis cut short, a
 * note (unsure_reason()); the reasons for a note are note_reason()'s
 * and, for loops, nest_reason()'s and bound_reason()'s; the rest are
 * warnings.
 */
static void rate(struct hog_prog *prog, struct hog_finding *f)
{
	const char *arg = NULL;
	char *loop_why = unbuilt_reason(f);
	const char *why = loop_why ? NULL : note_reason(prog, f, &arg);

	if (!why && !loop_why)
		loop_why = nest_reason(prog, f);
	if (!why && !loop_why)
		loop_why = bound_reason(prog, f);
	if (!why && !loop_why)
		loop_why = count_reason(prog, f);
	if (!why && !loop_why)
		loop_why = irqs_on_reason(prog, f);
	if (!why && !loop_why)
		loop_why = mixed_reason(prog, f);
	if (!why && !loop_why)
		loop_why = rare_reason(f);
	if (!why && !loop_why)
		loop_why = cold_reason(f);
	if (!why && !loop_why)
		loop_why = unsure_reason(prog, f);
	if (!why && !loop_why && f->npaths && f->paths[0].when_out)
		loop_why = hog_xstrdup(f->paths[0].when_out);

	f->score = score(prog, f);
	if (loop_why) {
		f->sev = HS_NOTE;
		f->demoted = hog_intern(prog->strs, loop_why);
		free(loop_why);
	} else if (why) {
		char *t = hog_xasprintf(why, arg);

		f->sev = HS_NOTE;
		f->demoted = hog_intern(prog->strs, t);
		free(t);
	} else {
		f->sev = hog_kind_sleeps(f->kind) && !sleep_unsure(f) ? HS_ERROR : HS_WARNING;
	}
}

/*
 * Fingerprints leave line numbers out so that they survive unrelated
 * edits: the finding's names its costly site, a path's adds its holder,
 * so that a review can tell a new way to an old site.
 */
static int site_is_global(struct hog_prog *p, const struct hog_finding *f)
{
	const struct fnode *n = hog_map_get(p->globals, hog_intern(p->strs, f->site_func));

	return n && n->f->file && f->site_file && !strcmp(n->f->file, f->site_file);
}

static void fingerprint(struct hog_prog *p, struct hog_finding *f)
{
	/*
	 * No file for a global function: moved to another file, it is the
	 * same finding.  A static one is its file's: two files may each have
	 * a put_locked() of their own.
	 */
	char *k = hog_xasprintf("%s|%s|%s|%s%s%s", hog_kind_name(f->kind),
				f->cls ? f->cls : "", f->site_func,
				f->callee && !hog_kind_at_site(f->kind) ? f->callee : "",
				site_is_global(p, f) ? "" : "|",
				site_is_global(p, f) ? "" : (f->site_file ? f->site_file : ""));
	unsigned long long h = hog_hash64(k, strlen(k), 0);
	int i;

	snprintf(f->fingerprint, sizeof(f->fingerprint), "%016llx", h);
	free(k);
	/*
	 * A path is its holder's: which of the holder's locks is innermost
	 * at the site changes when a fix moves the work out of one of them.
	 */
	for (i = 0; i < f->npaths; i++) {
		struct hog_path *pp = &f->paths[i];
		char *pk = hog_xasprintf("%s|%s", f->fingerprint, pp->holder);

		snprintf(pp->fingerprint, sizeof(pp->fingerprint), "%016llx",
			 hog_hash64(pk, strlen(pk), 0));
		free(pk);
	}
}

/*
 * A way through a function whose analysis was cut short says so, and a
 * finding says what its ways say (mark_limits()).
 */
static void mark_path_limits(struct hog_prog *p, struct hog_path *w)
{
	int j;

	if (!hog_map_count(p->limited))
		return;
	for (j = 0; j < w->nchain; j++) {
		const struct fnode *n = hog_map_get(p->limited, hog_intern(p->strs, w->chain[j].func));

		if (n)
			w->limits |= n->sum.limits;
	}
}

static void mark_limits(struct hog_finding *f)
{
	int i;

	for (i = 0; i < f->npaths; i++)
		f->limits |= f->paths[i].limits;
}

static int finding_cmp(const void *x, const void *y)
{
	const struct hog_finding *a = *(const struct hog_finding *const *)x;
	const struct hog_finding *b = *(const struct hog_finding *const *)y;
	int c;

	if (a->score != b->score)
		return b->score - a->score;
	c = strcmp(a->paths[0].file ? a->paths[0].file : "",
		   b->paths[0].file ? b->paths[0].file : "");
	if (c)
		return c;
	if (a->paths[0].line != b->paths[0].line)
		return a->paths[0].line - b->paths[0].line;
	return strcmp(a->fingerprint, b->fingerprint);
}

/* Does way w pass through function fn after its holder (a caller of fn)? */
static int way_through(const struct hog_path *w, const char *fn)
{
	int i;

	for (i = 1; i < w->nchain; i++)
		if (w->chain[i].func == fn)
			return 1;
	return 0;
}

static int same_lock(const struct hog_lockref *a, const struct hog_lockref *b)
{
	return a->cls ? a->cls == b->cls : a->name == b->name;
}

/*
 * A way held only by an annotation (__must_hold, lockdep_assert_held())
 * says that the function's callers hold the lock.  When an analysed
 * caller's way through that function, under a lock of the same class,
 * is in the finding, it is the same cost under the same lock said
 * twice: the caller's way stays, the annotated one goes.  Without such
 * a caller (ops callbacks, callers in units not analysed, a caller whose
 * taking of the lock the analysis does not see), the annotated way is
 * the evidence and stays a way like any other.
 */
/* After ways are dropped: IRQs are off in the finding if on one of its ways. */
static void paths_irqs_off(struct hog_finding *f)
{
	int i;

	f->irqs_off = 0;
	for (i = 0; i < f->npaths; i++)
		f->irqs_off |= f->paths[i].irqs_off;
}

static void drop_covered(struct hog_finding *f)
{
	int i, j, k = 0;

	for (i = 0; i < f->npaths; i++) {
		int covered = 0;

		for (j = 0; f->paths[i].lock.entry && j < f->npaths && !covered; j++)
			covered = j != i && !f->paths[j].lock.entry &&
				  same_lock(&f->paths[j].lock, &f->paths[i].lock) &&
				  way_through(&f->paths[j], f->paths[i].holder);
		if (!covered)
			f->paths[k++] = f->paths[i];
	}
	if (k == f->npaths)
		return;
	f->npaths = k;
	/* IRQs off on a dropped way is said by the way that covers it, or not at all */
	paths_irqs_off(f);
}

/*
 * Ways the holders' callers rule out (decide_ways()) go when another
 * way stands; when none does, the finding is a note that says why
 * (rate()).
 */
static void drop_ruled_out(struct hog_finding *f)
{
	int i, k = 0;

	for (i = 0; i < f->npaths; i++)
		if (!f->paths[i].when_out)
			f->paths[k++] = f->paths[i];
	if (!k || k == f->npaths)
		return;
	f->npaths = k;
	paths_irqs_off(f);
}

/* The same way into the section: holder, its call or loop, and the lock. */
static int same_way(const struct hog_path *a, const struct hog_path *b)
{
	return a->holder == b->holder && a->file == b->file && a->line == b->line &&
	       a->col == b->col && same_lock(&a->lock, &b->lock);
}

/* Is every way to b also a way to a? */
static int ways_within(const struct hog_finding *b, const struct hog_finding *a)
{
	int i, j;

	for (i = 0; i < b->npaths; i++) {
		for (j = 0; j < a->npaths && !same_way(&b->paths[i], &a->paths[j]); j++)
			;
		if (j == a->npaths)
			return 0;
	}
	return 1;
}

/* b says again what a says: a call of the same callee, no worse */
static int same_cost(const struct hog_finding *a, const struct hog_finding *b)
{
	return a->kind == b->kind && a->sev >= b->sev && !hog_kind_at_site(a->kind) &&
	       a->callee && b->callee && !strcmp(a->callee, b->callee);
}

/*
 * b is a loop the calls that reach a reach too: every way to it is a way
 * to a, a's own among them (__remove_mapping()'s mem_cgroup_swapout()
 * under the xa_lock reaches a charge and mem_cgroup_id_get_online()'s
 * loop).  Costs of their own kind stay findings of their own: listed
 * calls (the charge and the uncharge there) and sleeps; nor is a loop
 * folded into a refcount put, which is ranked on its own.
 */
static int same_call(const struct hog_finding *a, const struct hog_finding *b)
{
	int i;

	if (a->sev < b->sev || b->kind != HK_LOOP || !a->cls || !strcmp(a->cls, HOG_CLS_REF))
		return 0;
	/* a's own way is one of b's: whoever reads a sees the call b needs */
	for (i = 0; i < b->npaths; i++)
		if (same_way(&a->paths[0], &b->paths[i]))
			return b->paths[0].nchain > 1 && a->paths[0].nchain > 1;
	return 0;
}

/*
 * b is a sleep deeper down a call that reaches another sleep, a: every
 * way to b is a way to a (hcd_bus_resume()'s usb_set_device_state()
 * under the root hub lock reaches kzalloc(), mutex_lock() and a dozen
 * more through the wakeup sysfs files).  Sleeping under a spinning lock
 * is one bug per call: move that call out, or show it cannot sleep.
 * Through a callee only: two sleeps the holder makes itself are two.
 */
static int same_sleep(const struct hog_finding *a, const struct hog_finding *b)
{
	return hog_kind_sleeps(a->kind) && hog_kind_sleeps(b->kind) && a->sev >= b->sev &&
	       a->paths[0].nchain > 1 && b->paths[0].nchain > 1;
}

/*
 * One call under the lock that reaches the same callee at two sites
 * deeper down (kfree() reaching obj_cgroup_put() from two hooks) is
 * one thing to fix: move that call out.  Findings are by costly site,
 * so it would be said twice; the lower-ranked one becomes a note
 * naming the one that stays, when every way to it is a way to that
 * one.  Two loops are two costs and stay two findings, but a loop the
 * same calls reach as a listed cost is folded into it (same_call()),
 * and so is a sleep into a sleep the same calls reach (same_sleep()).
 * Runs on the ranked list.
 */
static void fold_same_calls(struct hog_prog *p)
{
	int i, j, sc;

	for (i = 1; i < p->findings.n; i++) {
		struct hog_finding *b = p->findings.v[i];

		if (b->sev == HS_NOTE)
			continue;
		for (j = 0; j < i; j++) {
			struct hog_finding *a = p->findings.v[j];
			char *t;

			if (a->sev == HS_NOTE || !ways_within(b, a))
				continue;
			sc = same_cost(a, b);
			if (!sc && !same_call(a, b) && !same_sleep(a, b))
				continue;
			if (sc)
				t = hog_xasprintf("every way to it reaches %s() at another site too, the finding %s: one call to move, one finding",
						  a->callee, a->fingerprint);
			else if (hog_kind_sleeps(b->kind))
				t = hog_xasprintf("every way to it is a call that may sleep in %s() already, the finding %s: one call to move, one finding",
						  a->callee ? a->callee : a->site_func, a->fingerprint);
			else
				t = hog_xasprintf("every way to it is a call that also reaches %s(), the finding %s: one call to move, one finding",
						  a->callee ? a->callee : a->site_func, a->fingerprint);
			b->sev = HS_NOTE;
			b->demoted = hog_intern(p->strs, t);
			free(t);
			break;
		}
	}
}

static void group(struct hog_prog *p)
{
	struct hog_map *bykey = hog_map_new();
	int i, j;

	for (i = 0; i < p->raws.n; i++) {
		struct hog_raw *r = p->raws.v[i];
		const struct hog_step *site = &r->path.chain[r->path.nchain - 1];
		const char *lock = r->path.lock.cls ? r->path.lock.cls : r->path.lock.name;
		/* one finding per costly site, whoever holds what on the way to it */
		/* a loop is its function's: which call in it weighs most may change */
		char *k = hog_xasprintf("%d|%s|%s|%s|%s", r->kind, r->cls ? r->cls : "",
					site->file ? site->file : "", site->func,
					r->callee && !hog_kind_at_site(r->kind) ? r->callee : "");
		const char *key = hog_intern(p->strs, k);
		struct hog_finding *f = hog_map_get(bykey, key);

		free(k);
		r->path.reason = r->reason;
		/* the limits first: which way is kept, the order and rate() ask whether it can be trusted */
		mark_path_limits(p, &r->path);
		if (!f) {
			f = hog_alloc(&p->arena, sizeof(*f));
			f->kind = r->kind;
			f->cls = r->cls;
			f->reason = r->reason;
			f->callee = r->callee;
			f->listed = r->listed;
			f->inner = r->inner;
			f->batched = 1;
			f->offkey = -1;
			f->site_func = site->func;
			f->site_file = site->file;
			f->site_line = site->line;
			f->site_col = site->col;
			hog_map_put(bykey, key, f);
			hog_vec_push(&p->findings, f);
		}
		if (site->line < f->site_line) {
			f->site_line = site->line;
			f->site_col = site->col;
		}
		f->irqs_off |= r->path.irqs_off;
		if (!r->batched)
			f->batched = 0;
		/* ways under a sleeping lock are notes anyway: they do not keep it a warning */
		if (!r->path.lock.sleeping && f->offkey < 0)
			f->offkey = r->offkey;
		else if (!r->path.lock.sleeping && r->offkey != f->offkey)
			f->offkey = 0;
		/* one path per holder and lock: the best one */
		for (j = 0; j < f->npaths; j++)
			if (f->paths[j].holder == r->path.holder &&
			    (f->paths[j].lock.cls ? f->paths[j].lock.cls : f->paths[j].lock.name) ==
			    lock)
				break;
		if (j < f->npaths) {
			/* past a threshold only if every way it stands for is */
			int batched = f->paths[j].batched && r->path.batched;

			if (way_better(p->rules, hog_kind_sleeps(f->kind), &r->path, &f->paths[j]))
				f->paths[j] = r->path;
			f->paths[j].batched = batched;
			continue;
		}
		/*
		 * Doubling: a site the whole kernel reaches has thousands of
		 * ways (dump_stack_lvl() 1134), and an array a way longer each
		 * time was 20 of the report's 22 GB.
		 */
		if (f->npaths == f->cpaths) {
			struct hog_path *np;

			f->cpaths = f->cpaths ? 2 * f->cpaths : 4;
			np = hog_alloc(&p->arena, sizeof(*np) * f->cpaths);
			if (f->npaths)
				memcpy(np, f->paths, sizeof(*np) * f->npaths);
			f->paths = np;
		}
		f->paths[f->npaths++] = r->path;
	}
	hog_map_free(bykey);
	for (i = 0; i < p->findings.n; i++) {
		struct hog_finding *f = p->findings.v[i];
		int a, b;

		drop_covered(f);
		drop_ruled_out(f);
		mark_limits(f);
		/* primary path first, then the others by the same order */
		for (a = 1; a < f->npaths; a++)
			for (b = a; b > 0 && path_better(p->rules, hog_kind_sleeps(f->kind),
							  &f->paths[b], &f->paths[b - 1]); b--) {
				struct hog_path t = f->paths[b];

				f->paths[b] = f->paths[b - 1];
				f->paths[b - 1] = t;
			}
		gatom_lead(f);
		/* the cost as the primary way has it ("loop of up to N iterations", or not) */
		if (f->npaths && f->paths[0].reason)
			f->reason = f->paths[0].reason;
		rate(p, f);
		fingerprint(p, f);
	}
	qsort(p->findings.v, p->findings.n, sizeof(void *), finding_cmp);
	fold_same_calls(p);
}

/*
 * ss->css_offline = f, in an initializer or in code (rules: not-root
 * STRUCT.FIELD): what f is handed is never a hierarchy's root, so a
 * test of its parent finds one.  Only if that is all the IR shows of
 * f: a direct call, its address passed to a call or stored anywhere
 * else (another rule's field, a phi), or two registrations that
 * disagree on the argument or its parent field could hand it a root.
 * An initializer or a store to a field no rule names is not in the IR
 * (docs/ir.md): such a use goes unseen.  A function the rules name
 * (not-root NAME) is one by contract, whoever calls it.  The uses were
 * read with the other addresses (mark_addresses(), not_root_use()).
 */
static void mark_not_root(struct hog_prog *p)
{
	int i;

	if (!p->rules->notroot_names.n)
		return;
	for (i = 0; i < p->nodes.n; i++) {
		struct fnode *n = p->nodes.v[i];

		if (n->nr.arg < 0 || n->sites.n)
			memset(&n->nr, 0, sizeof(n->nr));
		if (hog_rules_not_root(p->rules, n->f->name, NULL) >= 0) {
			memset(&n->nr, 0, sizeof(n->nr));
			not_root(p, n, n->f->name);
		}
	}
}

void hog_prog_solve(struct hog_prog *p)
{
	build_edges(p);
	find_registrations(p);
	mark_addresses(p);
	mark_unbuilt(p);
	mark_rare(p);
	mark_not_root(p);
	solve_all(p);
	decide_ways(p);
	group(p);
}

int hog_prog_nfindings(const struct hog_prog *p)
{
	return p->findings.n;
}

const struct hog_finding *hog_prog_finding(const struct hog_prog *p, int i)
{
	return i >= 0 && i < p->findings.n ? p->findings.v[i] : NULL;
}

const struct hog_summary *hog_prog_summary(const struct hog_prog *p, const char *tu,
					   const char *name)
{
	struct hog_prog *q = (struct hog_prog *)p;
	struct hog_func fake = { 0 };
	struct fnode *n;

	fake.tu = hog_intern(q->strs, tu ? tu : "");
	n = resolve(q, &fake, name);
	return n && n->have ? &n->sum : NULL;
}

int hog_prog_nfuncs(const struct hog_prog *p)
{
	return p->nodes.n;
}

int hog_prog_nincomplete(const struct hog_prog *p)
{
	return p->incomplete.n;
}

const struct hog_summary *hog_prog_incomplete(const struct hog_prog *p, int i)
{
	return i >= 0 && i < p->incomplete.n ? &((struct fnode *)p->incomplete.v[i])->sum : NULL;
}

unsigned hog_prog_limits(const struct hog_prog *p, const char *name)
{
	const struct fnode *n = hog_map_get(p->limited, hog_intern(p->strs, name));

	return n ? n->sum.limits : 0;
}

char *hog_limit_text(unsigned mask)
{
	static const struct { unsigned bit; const char *text; } names[] = {
		{ HOG_LIMIT_PASSES, "dataflow did not settle" },
		{ HOG_LIMIT_COSTS, "costs beyond the summary's size dropped" },
		{ HOG_LIMIT_HELD, "locks nested deeper than tracked" },
		{ HOG_LIMIT_FACTS, "variable facts beyond those tracked dropped" },
		{ HOG_LIMIT_ROUNDS, "recursion did not reach a fixed point" },
		{ HOG_LIMIT_TRACK, "more trylock results or flag masks than tracked" },
	};
	struct hog_buf b = { 0 };
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (mask & names[i].bit)
			hog_buf_printf(&b, "%s%s", b.len ? ", " : "", names[i].text);
	return b.s ? b.s : hog_xstrdup("");
}
