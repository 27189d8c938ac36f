// SPDX-License-Identifier: GPL-2.0
/*
 * instrument=: probes for a lockhog runtime (docs/runtime.md).  Runs on
 * pre-inline GIMPLE, right after the function was lowered for the
 * analysis, where the kernel's lock wrappers (spin_lock, local_lock_acquire)
 * are still calls the rules name.  Each probe gets a site descriptor in
 * the "lockhog_sites" data section; the runtime walks that section.
 *
 * What is probed: acquires and releases, calls with a cost rule, loops of
 * functions that take a lock, atomic RMWs on globals (instrument=all or a
 * list of functions); or only what a scan report's findings name
 * (instrument=REPORT.json), each probe carrying its finding's fingerprint.
 */
/* before GCC's headers, whose options.h defines warn_unused_result */
#include <jansson.h>
#include "gcc-compat.h"
#include "stor-layout.h"
#include "varasm.h"
#include "tree-into-ssa.h"
#include "lower.h"
#include "instrument.h"
#include "../core/expr.h"

/* fields of struct lockhog_site, in order (rt/lockhog_rt.h) */
#define SITE_NFIELDS 8
#define K_ACQUIRE 1
#define K_RELEASE 2
#define K_CALL 3
#define K_LOOP 4
#define K_ATOMIC 5
#define F_TRY 1
#define F_TRYZERO 2
#define F_READ 4
#define F_IRQ 8
/* how deep atomic_add() -> arch_atomic_add() -> asm is followed */
#define MAX_ATOMIC_DEPTH 4

static struct {
	int on;
	int all;			/* instrument=all */
	struct hog_map *funcs;		/* listed functions: name -> (void *)1 */
	struct hog_map *steps;		/* "func:line" -> struct step */
	struct hog_map *holders;	/* holder functions of findings */
	struct hog_strtab *strs;
	const struct hog_rules *rules;
	struct hog_module *mod;		/* the unit's IR so far, for atomics in callees */
	tree site_type, fields[SITE_NFIELDS];
	tree hooks[7];
	int nsites;
	auto_vec<gimple *> releases;	/* this function's release probes */
} in;

enum hook { H_ACQ, H_TRY, H_REL, H_BEGIN, H_END, H_LOOP, H_ATOMIC };

struct step {
	const char *fp;		/* fingerprint */
	const char *callee;	/* the call expected at the line; NULL: any */
	int loop;		/* the line is a loop finding's body call */
	int atomic;
};

struct probe_site {
	int kind, flags, line;
	const char *file, *name, *lock_kind, *fp;
};

/* ---- options ---- */

static const char *key2(const char *f, long line)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s:%ld", f, line);
	return hog_intern(in.strs, buf);
}

static const char *key_call(const char *f, const char *callee)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s>%s", f, callee);
	return hog_intern(in.strs, buf);
}

static void add_step(json_t *st, const char *next, const char *fp, int loop, int atomic)
{
	const char *fn = json_string_value(json_object_get(st, "function"));
	json_int_t line = json_integer_value(json_object_get(st, "line"));
	struct step *s;
	const char *k;

	if (!fn || line <= 0)
		return;
	/*
	 * A call step is every call of that callee in that function (one
	 * finding stands for all of them); a loop or an atomic is where
	 * the finding says.
	 */
	if (next && !loop && !atomic)
		k = key_call(fn, next);
	else
		k = key2(fn, line);
	if (hog_map_get(in.steps, k))
		return;
	s = (struct step *)hog_xcalloc(1, sizeof(*s));
	s->fp = fp ? hog_intern(in.strs, fp) : "";
	s->callee = next ? hog_intern(in.strs, next) : NULL;
	s->loop = loop;
	s->atomic = atomic;
	hog_map_put(in.steps, k, s);
}

/* One way to a finding: its holder and every step of its chain. */
static void add_way(json_t *way, json_t *finding)
{
	json_t *steps = json_object_get(way, "steps");
	const char *kind = json_string_value(json_object_get(finding, "kind"));
	const char *callee = json_string_value(json_object_get(finding, "callee"));
	const char *fp = json_string_value(json_object_get(way, "fingerprint"));
	const char *holder = json_string_value(json_object_get(way, "function"));
	size_t i, n = json_array_size(steps);

	if (holder)
		hog_map_put(in.holders, hog_intern(in.strs, holder), (void *)1);
	for (i = 0; i < n; i++) {
		json_t *next = json_array_get(steps, i + 1);
		const char *nf = next ? json_string_value(json_object_get(next, "function")) : callee;
		int last = i + 1 == n;

		add_step(json_array_get(steps, i), nf, fp,
			 last && kind && !strcmp(kind, "loop"),
			 last && kind && !strcmp(kind, "atomic"));
	}
}

static int read_report(json_t *root, char *err, size_t errlen)
{
	size_t i, j;

	if (!json_is_array(root)) {
		snprintf(err, errlen, "not a lockhog scan report (a JSON array of findings)");
		return -1;
	}
	for (i = 0; i < json_array_size(root); i++) {
		json_t *f = json_array_get(root, i), *callers = json_object_get(f, "callers");

		if (!json_is_object(f) || !json_object_get(f, "steps")) {
			snprintf(err, errlen, "finding %zu has no steps", i);
			return -1;
		}
		add_way(f, f);
		for (j = 0; j < json_array_size(callers); j++)
			add_way(json_array_get(callers, j), f);
	}
	return 0;
}

static int read_list(const char *text, char *err, size_t errlen)
{
	const char *p = text;

	while (*p) {
		const char *e = p + strcspn(p, "\n");
		char name[256];
		size_t n;

		while (p < e && ISSPACE(*p))
			p++;
		n = strcspn(p, " \t\r\n#");
		if (n >= sizeof(name)) {
			snprintf(err, errlen, "function name too long");
			return -1;
		}
		if (n && *p != '#') {
			memcpy(name, p, n);
			name[n] = 0;
			hog_map_put(in.funcs, hog_intern(in.strs, name), (void *)1);
		}
		p = *e ? e + 1 : e;
	}
	return 0;
}

int lh_instrument_init(const char *arg, struct hog_strtab *strs,
		       const struct hog_rules *rules, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root;
	char *text;
	size_t len;
	int rc;

	in.strs = strs;
	in.rules = rules;
	in.funcs = hog_map_new();
	in.steps = hog_map_new();
	in.holders = hog_map_new();
	in.on = 1;
	if (!strcmp(arg, "all")) {
		in.all = 1;
		return 0;
	}
	text = hog_read_file(arg, &len);
	if (!text) {
		snprintf(err, errlen, "instrument=%s: %s", arg, xstrerror(errno));
		return -1;
	}
	if (text[strspn(text, " \t\r\n")] != '[' && text[strspn(text, " \t\r\n")] != '{') {
		rc = read_list(text, err, errlen);
		free(text);
		return rc;
	}
	root = json_loadb(text, len, 0, &je);
	free(text);
	if (!root) {
		snprintf(err, errlen, "instrument=%s:%d: %s", arg, je.line, je.text);
		return -1;
	}
	rc = read_report(root, err, errlen);
	json_decref(root);
	return rc;
}

int lh_instrument_on(void)
{
	return in.on;
}

/* ---- site descriptors ---- */

static tree cstr_type(void)
{
	return build_pointer_type(build_qualified_type(char_type_node, TYPE_QUAL_CONST));
}

static void build_site_type(void)
{
	static const char *const names[SITE_NFIELDS] = {
		"kind", "flags", "line", "file", "function", "name", "lock_kind", "fingerprint"
	};
	tree types[SITE_NFIELDS], chain = NULL_TREE;
	int i;

	types[0] = types[1] = short_unsigned_type_node;
	types[2] = unsigned_type_node;
	for (i = 3; i < SITE_NFIELDS; i++)
		types[i] = cstr_type();
	in.site_type = make_node(RECORD_TYPE);
	for (i = 0; i < SITE_NFIELDS; i++)
		in.fields[i] = build_decl(BUILTINS_LOCATION, FIELD_DECL,
					  get_identifier(names[i]), types[i]);
	/* finish_builtin_struct() reverses the chain: give it last field first */
	for (i = 0; i < SITE_NFIELDS; i++) {
		DECL_CHAIN(in.fields[i]) = chain;
		chain = in.fields[i];
	}
	finish_builtin_struct(in.site_type, "lockhog_site", chain, NULL_TREE);
}

static tree str_cst(const char *s)
{
	s = s ? s : "";
	return fold_convert(cstr_type(), build_string_literal(strlen(s) + 1, s));
}

static tree new_site(const struct probe_site *p)
{
	vec<constructor_elt, va_gc> *v = NULL;
	const char *fn = IDENTIFIER_POINTER(DECL_NAME(current_function_decl));
	char name[64];
	tree var;

	if (!in.site_type)
		build_site_type();
	CONSTRUCTOR_APPEND_ELT(v, in.fields[0], build_int_cst(short_unsigned_type_node, p->kind));
	CONSTRUCTOR_APPEND_ELT(v, in.fields[1], build_int_cst(short_unsigned_type_node, p->flags));
	CONSTRUCTOR_APPEND_ELT(v, in.fields[2], build_int_cst(unsigned_type_node, p->line));
	CONSTRUCTOR_APPEND_ELT(v, in.fields[3], str_cst(p->file));
	CONSTRUCTOR_APPEND_ELT(v, in.fields[4], str_cst(fn));
	CONSTRUCTOR_APPEND_ELT(v, in.fields[5], str_cst(p->name));
	CONSTRUCTOR_APPEND_ELT(v, in.fields[6], str_cst(p->lock_kind));
	CONSTRUCTOR_APPEND_ELT(v, in.fields[7], str_cst(p->fp));
	snprintf(name, sizeof(name), "__lockhog_site.%d", in.nsites++);
	var = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), in.site_type);
	TREE_STATIC(var) = 1;
	TREE_PUBLIC(var) = 0;
	DECL_ARTIFICIAL(var) = 1;
	TREE_USED(var) = 1;
	DECL_PRESERVE_P(var) = 1;
	/*
	 * The runtime indexes the section as an array: no padding between
	 * descriptors, so no alignment above the struct's own (x86 would
	 * give a 48-byte object 32) -- a user alignment is never raised.
	 */
	SET_DECL_ALIGN(var, TYPE_ALIGN(in.site_type));
	DECL_USER_ALIGN(var) = 1;
	set_decl_section_name(var, "lockhog_sites");
	DECL_INITIAL(var) = build_constructor(in.site_type, v);
	varpool_node::finalize_decl(var);
	return build_fold_addr_expr(var);
}

static tree hook(enum hook h)
{
	static const char *const names[] = {
		"__lockhog_acquire", "__lockhog_tryacquire", "__lockhog_release",
		"__lockhog_call_begin", "__lockhog_call_end", "__lockhog_loop",
		"__lockhog_atomic",
	};
	tree ptr = ptr_type_node, cptr = const_ptr_type_node, u64 = long_long_unsigned_type_node;
	tree t;

	if (in.hooks[h])
		return in.hooks[h];
	switch (h) {
	case H_ACQ: case H_REL: case H_ATOMIC:
		t = build_function_type_list(void_type_node, ptr, cptr, NULL_TREE);
		break;
	case H_TRY:
		t = build_function_type_list(void_type_node, ptr, cptr, long_integer_type_node, NULL_TREE);
		break;
	case H_BEGIN:
		t = build_function_type_list(u64, ptr, NULL_TREE);
		break;
	case H_END:
		t = build_function_type_list(void_type_node, ptr, u64, NULL_TREE);
		break;
	default:
		t = build_function_type_list(void_type_node, ptr, long_unsigned_type_node, NULL_TREE);
		break;
	}
	in.hooks[h] = build_fn_decl(names[h], t);
	TREE_NOTHROW(in.hooks[h]) = 1;
	return in.hooks[h];
}

/* ---- what a statement is ---- */

static int stmt_line(gimple *g)
{
	location_t loc;
	int line, col;

	return lh_user_loc(gimple_location(g), &loc, &line, &col) ? line : 0;
}

static const char *fn_file(void)
{
	return lh_clean_path(DECL_SOURCE_FILE(current_function_decl));
}

static const char *callee_name(gimple *g)
{
	tree fn = is_gimple_call(g) ? gimple_call_fndecl(g) : NULL_TREE;

	const char *n;

	if (!fn || !DECL_NAME(fn))
		return NULL;
	n = IDENTIFIER_POINTER(DECL_NAME(fn));
	/* malloc(), free(), printf() are builtins too: only __builtin_* are not calls */
	if (fndecl_built_in_p(fn) && (!fndecl_built_in_p(fn, BUILT_IN_NORMAL) || n[0] == '_'))
		return NULL;
	return hog_intern(in.strs, n);
}

/* spinlock_check(lock) is lock: follow passthrough calls to the lock */
static tree through_passthrough(tree t)
{
	int n = 0;

	while (t && TREE_CODE(t) == SSA_NAME && n++ < MAX_ATOMIC_DEPTH) {
		gimple *d = SSA_NAME_DEF_STMT(t);
		const char *c = callee_name(d);
		const struct hog_rule *r = c ? hog_rules_find(in.rules, c, HR_PASSTHROUGH) : NULL;

		if (!r || r->arg < 0 || (unsigned)r->arg >= gimple_call_num_args(d))
			break;
		t = gimple_call_arg(d, r->arg);
	}
	return t;
}

/* The address an operand denotes, in the IR's terms ("$0/zone.lock"), or NULL. */
static const char *addr_of(struct hog_module *m, tree t)
{
	struct hog_val v = lh_value(m, through_passthrough(t));

	return v.kind == HV_ADDR ? hog_expr_norm(in.strs, in.rules, v.addr) : NULL;
}

/* "zone->lock", "memcg_stock.stock_lock": as the static report says it */
static const char *display(struct hog_module *m, tree t)
{
	const char *e = addr_of(m, t), *params[16], *r;
	int n = 0;
	char *s;

	if (!e)
		return "?";
	for (tree p = DECL_ARGUMENTS(current_function_decl); p && n < 16; p = DECL_CHAIN(p))
		params[n++] = DECL_NAME(p) ? IDENTIFIER_POINTER(DECL_NAME(p)) : "";
	s = hog_expr_display(e, params, n, NULL, 0);
	r = hog_intern(in.strs, s);
	free(s);
	return r;
}

/* ---- atomics on globals ---- */

static struct hog_func *ir_func(const char *name)
{
	static struct hog_map *byname;
	static int seen;

	if (!byname)
		byname = hog_map_new();
	for (; in.mod && seen < in.mod->nfuncs; seen++)
		hog_map_put(byname, in.mod->funcs[seen]->name, in.mod->funcs[seen]);
	return (struct hog_func *)hog_map_get(byname, name);
}

/* e is $k itself or a field of it: the memory the k-th argument points at */
static int on_param(const char *e, int k)
{
	const char *p;

	if (hog_expr_param(e) != k)
		return 0;
	for (p = e + 1; ISDIGIT(*p); p++)
		;
	return !*p || *p == '/';
}

static int atomic_on_param(const char *fname, int k, int depth);

static int event_atomic_on(const struct hog_event *e, int k, int depth)
{
	const struct hog_rule *r;
	int j;

	if (e->kind == HE_ATOMIC)
		return e->nargs > 0 && e->args[0].kind == HV_ADDR && on_param(e->args[0].addr, k);
	if (e->kind != HE_CALL || !e->callee)
		return 0;
	r = hog_rules_find(in.rules, e->callee, HR_ATOMIC);
	for (j = 0; j < e->nargs; j++) {
		if (e->args[j].kind != HV_ADDR || !on_param(e->args[j].addr, k))
			continue;
		if ((r && r->arg == j) || (!r && atomic_on_param(e->callee, j, depth + 1)))
			return 1;
	}
	return 0;
}

/* Does fname do an atomic RMW on what its k-th argument points at? */
static int atomic_on_param(const char *fname, int k, int depth)
{
	struct hog_func *f = depth < MAX_ATOMIC_DEPTH ? ir_func(fname) : NULL;
	int b, i;

	for (b = 0; f && b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++)
			if (event_atomic_on(&f->blocks[b].ev[i], k, depth))
				return 1;
	return 0;
}

/* The argument of call g that is a global an atomic RMW hits, or -1. */
static int global_atomic_arg(struct hog_module *m, gimple *g)
{
	tree fn = gimple_call_fndecl(g);
	const char *c = callee_name(g), *e;
	const struct hog_rule *r = c ? hog_rules_find(in.rules, c, HR_ATOMIC) : NULL;
	unsigned j;

	for (j = 0; j < gimple_call_num_args(g); j++) {
		e = addr_of(m, gimple_call_arg(g, j));
		if (!e || !hog_expr_is_global(e))
			continue;
		if (fn && fndecl_built_in_p(fn, BUILT_IN_NORMAL)) {
			if (j == 0 && lh_atomic_builtin(fn))
				return j;
			continue;
		}
		if (c && ((r && r->arg == (int)j) || (!r && atomic_on_param(c, j, 0))))
			return j;
	}
	return -1;
}

/* ---- placing probes ---- */

static void insert_after(gimple *at, gimple *g)
{
	gimple_stmt_iterator gsi = gsi_for_stmt(at);

	gimple_set_location(g, gimple_location(at));
	if (!stmt_ends_bb_p(at)) {
		gsi_insert_after(&gsi, g, GSI_NEW_STMT);
		return;
	}
	/* a call that ends its block (it may return twice, ...): on the way out */
	if (single_succ_p(gimple_bb(at)) &&
	    !(single_succ_edge(gimple_bb(at))->flags & (EDGE_ABNORMAL | EDGE_EH)))
		gsi_insert_on_edge(single_succ_edge(gimple_bb(at)), g);
}

static void insert_before(gimple *at, gimple *g)
{
	gimple_stmt_iterator gsi = gsi_for_stmt(at);

	gimple_set_location(g, gimple_location(at));
	gsi_insert_before(&gsi, g, GSI_SAME_STMT);
}

static tree lock_arg(gimple *g, const struct hog_rule *r)
{
	tree a;

	if (r->arg < 0 || (unsigned)r->arg >= gimple_call_num_args(g))
		return null_pointer_node;
	a = gimple_call_arg(g, r->arg);
	return POINTER_TYPE_P(TREE_TYPE(a)) ? a : null_pointer_node;
}

static int lock_flags(const struct hog_rule *r)
{
	int f = 0;

	if (r->op == HOP_TRYLOCK)
		f |= r->cond == HTRY_ZERO ? F_TRYZERO : F_TRY;
	if (r->lock_kind && !strcmp(r->lock_kind, "read"))
		f |= F_READ;
	if (r->irq == HIRQ_SAVE || r->irq == HIRQ_DISABLE)
		f |= F_IRQ;
	return f;
}

/* A trylock's result as a long, giving the call a result if it had none. */
static tree try_result(gimple *g)
{
	tree ret = gimple_call_lhs(g), l;
	gassign *conv;

	if (!ret) {
		tree type = gimple_call_return_type(as_a<gcall *>(g));

		if (VOID_TYPE_P(type))
			return NULL_TREE;
		ret = make_ssa_name(type);
		gimple_call_set_lhs(g, ret);
		update_stmt(g);
	}
	if (TREE_CODE(ret) != SSA_NAME)
		return NULL_TREE;
	l = make_ssa_name(long_integer_type_node);
	conv = gimple_build_assign(l, NOP_EXPR, ret);
	insert_after(g, conv);
	return l;
}

static void probe_lock(struct hog_module *m, gimple *g, const struct hog_rule *r)
{
	struct probe_site p = { 0 };
	tree site, res;

	/* its result would be converted on an edge, after the probe's place */
	if (r->op == HOP_TRYLOCK && stmt_ends_bb_p(g))
		return;
	p.kind = r->op == HOP_RELEASE ? K_RELEASE : K_ACQUIRE;
	p.flags = lock_flags(r);
	p.line = stmt_line(g);
	p.file = fn_file();
	p.name = display(m, lock_arg(g, r));
	p.lock_kind = r->lock_kind;
	site = new_site(&p);
	if (r->op == HOP_RELEASE) {
		gcall *rel = gimple_build_call(hook(H_REL), 2, site, lock_arg(g, r));

		insert_before(g, rel);
		in.releases.safe_push(rel);
	} else if (r->op == HOP_ACQUIRE) {
		insert_after(g, gimple_build_call(hook(H_ACQ), 2, site, lock_arg(g, r)));
	} else if ((res = try_result(g))) {
		/* after the conversion try_result() placed after the call */
		insert_after(SSA_NAME_DEF_STMT(res),
			     gimple_build_call(hook(H_TRY), 3, site, lock_arg(g, r), res));
	}
}

static void probe_call(gimple *g, const char *name, const char *fp)
{
	struct probe_site p = { 0 };
	tree site, tok = make_ssa_name(long_long_unsigned_type_node);
	gcall *begin;

	p.kind = K_CALL;
	p.line = stmt_line(g);
	p.file = fn_file();
	p.name = name;
	p.fp = fp;
	site = new_site(&p);
	begin = gimple_build_call(hook(H_BEGIN), 1, site);
	gimple_call_set_lhs(begin, tok);
	insert_before(g, begin);
	insert_after(g, gimple_build_call(hook(H_END), 2, site, tok));
}

static void probe_atomic(struct hog_module *m, gimple *g, int arg, const char *fp)
{
	struct probe_site p = { 0 };
	tree a = gimple_call_arg(g, arg);

	p.kind = K_ATOMIC;
	p.line = stmt_line(g);
	p.file = fn_file();
	p.name = display(m, a);
	p.fp = fp;
	insert_before(g, gimple_build_call(hook(H_ATOMIC), 2, new_site(&p), a));
}

/* The header ends in a test and is not its own body: the while (c) shape. */
static bool header_only_tests(basic_block h)
{
	gimple *last = last_stmt(h);
	edge e;
	edge_iterator ei;

	if (!last || gimple_code(last) != GIMPLE_COND)
		return false;
	FOR_EACH_EDGE(e, ei, h->succs)
		if (e->dest == h)
			return false;
	return true;
}

/* var's value as an SSA name, loaded before gsi */
static tree load_count(gimple_stmt_iterator *gsi, tree var)
{
	tree t = make_ssa_name(TREE_TYPE(var));

	gsi_insert_before(gsi, gimple_build_assign(t, var), GSI_SAME_STMT);
	return t;
}

/*
 * The loop's count so far goes to the hold a release inside the body
 * closes (a lock break: spin_unlock(); spin_lock();), and counting
 * starts again for the next hold.
 */
static void hand_over_at_releases(class loop *loop, tree site, tree var)
{
	for (gimple *rel : in.releases) {
		gimple_stmt_iterator gsi;

		if (!gimple_bb(rel) || !flow_bb_inside_loop_p(loop, gimple_bb(rel)))
			continue;
		gsi = gsi_for_stmt(rel);
		gsi_insert_before(&gsi, gimple_build_call(hook(H_LOOP), 2, site,
							  load_count(&gsi, var)), GSI_SAME_STMT);
		gsi_insert_before(&gsi, gimple_build_assign(var, build_int_cst(TREE_TYPE(var), 0)),
				  GSI_SAME_STMT);
	}
}

static void probe_loop(class loop *loop, const char *name, const char *fp)
{
	struct probe_site p = { 0 };
	basic_block h = loop->header;
	tree type = long_unsigned_type_node, var, site, t, t1;
	gimple_stmt_iterator gsi;
	edge e;
	edge_iterator ei;
	bool test_only;

	FOR_EACH_EDGE(e, ei, h->preds)
		if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
			return;
	p.kind = K_LOOP;
	p.line = !gsi_end_p(gsi_start_nondebug_bb(h)) ?
		 stmt_line(gsi_stmt(gsi_start_nondebug_bb(h))) : 0;
	p.file = fn_file();
	p.name = name;
	p.fp = fp;
	site = new_site(&p);
	/*
	 * The count lives in a local in memory (stores and loads, made
	 * registers again by GCC's later passes), so that a release in the
	 * body can hand it over and restart it.  Each run of the header
	 * adds one.  An iteration is a run of the body: when the header
	 * only tests (while, for), leaving from it is the failed test, not
	 * an iteration; when it is the body (do-while, for (;;)), it is one.
	 */
	var = create_tmp_var(type, "lockhog_iters");
	TREE_ADDRESSABLE(var) = 1;
	test_only = header_only_tests(h);
	FOR_EACH_EDGE(e, ei, h->preds)
		if (!flow_bb_inside_loop_p(loop, e->src))
			gsi_insert_on_edge(e, gimple_build_assign(var, build_int_cst(type, 0)));
	gsi = gsi_after_labels(h);
	t = load_count(&gsi, var);
	t1 = make_ssa_name(type);
	gsi_insert_before(&gsi, gimple_build_assign(t1, PLUS_EXPR, t, build_int_cst(type, 1)),
			  GSI_SAME_STMT);
	gsi_insert_before(&gsi, gimple_build_assign(var, t1), GSI_SAME_STMT);
	hand_over_at_releases(loop, site, var);
	for (edge x : get_loop_exit_edges(loop)) {
		gimple_seq seq = NULL;
		tree n = make_ssa_name(type);

		if (x->flags & (EDGE_ABNORMAL | EDGE_EH))
			continue;
		gimple_seq_add_stmt(&seq, gimple_build_assign(n, var));
		if (x->src == h && test_only) {
			tree m = make_ssa_name(type);

			gimple_seq_add_stmt(&seq, gimple_build_assign(m, MINUS_EXPR, n,
								      build_int_cst(type, 1)));
			n = m;
		}
		gimple_seq_add_stmt(&seq, gimple_build_call(hook(H_LOOP), 2, site, n));
		gsi_insert_seq_on_edge(x, seq);
	}
}

/*
 * The callee a loop is about: one with a cost rule, else the biggest the
 * unit has the IR of (__free_one_page(), not list_del()), else the first.
 */
static const char *loop_callee(class loop *loop)
{
	basic_block *body = get_loop_body(loop);
	const char *first = NULL, *best = NULL;
	int best_size = -1;
	unsigned i;

	for (i = 0; i < loop->num_nodes; i++)
		for (gimple_stmt_iterator g = gsi_start_bb(body[i]); !gsi_end_p(g); gsi_next(&g)) {
			const char *c = callee_name(gsi_stmt(g));
			struct hog_func *f;

			/* nor the probes placed already */
			if (!c || hog_rules_find(in.rules, c, HR_CHEAP) ||
			    hog_rules_find(in.rules, c, HR_LOCK) || !strncmp(c, "__lockhog_", 10))
				continue;
			if (hog_rules_find(in.rules, c, HR_COST)) {
				free(body);
				return c;
			}
			f = ir_func(c);
			if (f && f->nblocks > best_size) {
				best = c;
				best_size = f->nblocks;
			}
			if (!first)
				first = c;
		}
	free(body);
	return best ? best : first ? first : "";
}

/* ---- one function ---- */

enum what { W_LOCK, W_CALL, W_ATOMIC, W_LOOP };

struct act {
	gimple *g;
	enum what what;
	const struct hog_rule *r;
	const char *name, *fp;
	int arg;
};

static bool instrumentable(const char *fname)
{
	static const enum hog_rule_kind said[] = {
		HR_LOCK, HR_IRQ, HR_PREEMPT, HR_COST, HR_LOCKBREAK, HR_PASSTHROUGH, HR_ATOMIC,
	};
	tree d = current_function_decl;
	const char *sec = DECL_SECTION_NAME(d);
	unsigned i;

	/*
	 * notrace, noinstr: the runtime's own hooks are notrace too.  The
	 * kernel marks every "inline" notrace (compiler_types.h) to keep
	 * ftrace off their out-of-line copies; that is not a request to
	 * leave them alone, and memcg_rstat_updated() is one of them.
	 */
	if (lookup_attribute("no_instrument_function", DECL_ATTRIBUTES(d)) &&
	    !DECL_DECLARED_INLINE_P(d))
		return false;
	if (!strncmp(fname, "__lockhog_", 10))
		return false;
	if (sec && (strstr(sec, ".noinstr.") || strstr(sec, ".entry.text")))
		return false;
	/* inlined wherever it is used, noinstr code included */
	if (lookup_attribute("always_inline", DECL_ATTRIBUTES(d)))
		return false;
	/*
	 * A function the rules describe is probed where it is called:
	 * probing spin_lock()'s body too would open every section twice.
	 */
	for (i = 0; i < sizeof(said) / sizeof(said[0]); i++)
		if (hog_rules_find(in.rules, fname, said[i]))
			return false;
	return true;
}

static void collect_call(struct hog_module *m, gimple *g, const char *fname, bool all,
			 bool holder, auto_vec<act> &acts)
{
	const char *c = callee_name(g);
	const struct hog_rule *r = c ? hog_rules_find(in.rules, c, HR_LOCK) : NULL;
	const struct step *s = (const struct step *)hog_map_get(in.steps,
							       key2(fname, stmt_line(g)));
	/* s: a loop or atomic finding at this line */
	act a = { g, W_CALL, r, c, "", -1 };

	if (r) {
		a.what = W_LOCK;
		if (holder)
			acts.safe_push(a);
		return;
	}
	if (s && s->loop) {
		a.what = W_LOOP;
		a.name = s->callee;
		a.fp = s->fp;
		acts.safe_push(a);
		return;
	}
	if ((all || (s && s->atomic)) && (a.arg = global_atomic_arg(m, g)) >= 0) {
		a.what = W_ATOMIC;
		a.fp = s ? s->fp : "";
		acts.safe_push(a);
		return;
	}
	if (!c)
		return;
	s = (const struct step *)hog_map_get(in.steps, key_call(fname, c));
	if (s) {
		a.fp = s->fp;
		acts.safe_push(a);
	} else if (all && hog_rules_find(in.rules, c, HR_COST)) {
		acts.safe_push(a);
	}
}

/* The loop finding whose line is one of the loop header's statements. */
static const struct step *header_step(const char *fname, class loop *loop)
{
	for (gimple_stmt_iterator g = gsi_start_bb(loop->header); !gsi_end_p(g); gsi_next(&g)) {
		const struct step *s = (const struct step *)hog_map_get(in.steps,
								       key2(fname, stmt_line(gsi_stmt(g))));

		if (s && s->loop)
			return s;
	}
	return NULL;
}

static bool takes_lock(const auto_vec<act> &acts)
{
	for (const act &a : acts)
		if (a.what == W_LOCK && a.r->op != HOP_RELEASE)
			return true;
	return false;
}

static void place(struct hog_module *m, const char *fname, bool all, auto_vec<act> &acts)
{
	for (act &a : acts) {
		if (a.what == W_LOCK)
			probe_lock(m, a.g, a.r);
		else if (a.what == W_CALL)
			probe_call(a.g, a.name, a.fp);
		else if (a.what == W_ATOMIC)
			probe_atomic(m, a.g, a.arg, a.fp);
	}
	if (!current_loops || loops_state_satisfies_p(LOOPS_NEED_FIXUP))
		return;
	if (all && takes_lock(acts)) {
		for (auto loop : loops_list(cfun, LI_FROM_INNERMOST))
			probe_loop(loop, loop_callee(loop), "");
		return;
	}
	/* a loop finding is at the loop's line, or at a call in its body */
	for (auto loop : loops_list(cfun, 0)) {
		const struct step *st = header_step(fname, loop);

		if (st) {
			loop->aux = (void *)1;
			probe_loop(loop, st->callee ? st->callee : "", st->fp);
		}
	}
	for (act &a : acts) {
		class loop *l = a.what == W_LOOP ? gimple_bb(a.g)->loop_father : NULL;

		/* one probe a loop, however many findings name it */
		if (l && l->num && !l->aux) {
			l->aux = (void *)1;
			probe_loop(l, a.name ? a.name : "", a.fp);
		}
	}
	for (auto loop : loops_list(cfun, 0))
		loop->aux = NULL;
}

unsigned int lh_instrument_function(struct hog_module *mod)
{
	const char *fname;
	bool all, holder;
	struct hog_module *m;
	auto_vec<act> acts;
	basic_block bb;
	int before = in.nsites;

	if (!in.on)
		return 0;
	fname = hog_intern(in.strs, IDENTIFIER_POINTER(DECL_NAME(current_function_decl)));
	if (!instrumentable(fname))
		return 0;
	all = in.all || hog_map_get(in.funcs, fname);
	holder = all || hog_map_get(in.holders, fname);
	in.releases.truncate(0);
	in.mod = mod;
	m = hog_module_new(in.strs, "");
	FOR_EACH_BB_FN(bb, cfun)
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g))
			if (is_gimple_call(gsi_stmt(g)))
				collect_call(m, gsi_stmt(g), fname, all, holder, acts);
	place(m, fname, all, acts);
	hog_module_free(m);
	if (in.nsites == before)
		return 0;
	gsi_commit_edge_inserts();
	free_dominance_info(CDI_DOMINATORS);
	mark_virtual_operands_for_renaming(cfun);
	return TODO_update_ssa_only_virtuals;
}
