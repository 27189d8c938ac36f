// SPDX-License-Identifier: GPL-2.0
/*
 * Lowering the current function's GIMPLE, right after the "ssa" pass
 * and before any inlining, into the IR: one IR block per basic block
 * plus an entry block, calls as events, loops with GCC's own bound.
 */
#include "gcc-compat.h"
#include "configargs.h"
#include "lower.h"
#include "../core/expr.h"
#include "annot.h"

static void locs_put(struct lh_locs *l, const char *file, int line, int col,
		     location_t loc)
{
	char *k = hog_xasprintf("%s:%d:%d", file, line, col);
	const char *key = hog_intern(l->strs, k);

	free(k);
	if (!hog_map_get(l->map, key))
		hog_map_put(l->map, key, (void *)(uintptr_t)(loc + 1));
}

/*
 * The first statement seen at a place is its location; the first on a
 * line also answers for the line with column 0 (where a lock was taken
 * is known by its line only).
 */
void lh_locs_note(struct lh_locs *l, const char *file, int line, int col,
		  location_t loc)
{
	locs_put(l, file, line, col, loc);
	if (col)
		locs_put(l, file, line, 0, loc);
}

location_t lh_locs_find(struct lh_locs *l, const char *file, int line, int col)
{
	char *k = hog_xasprintf("%s:%d:%d", file, line, col);
	const char *key = hog_intern(l->strs, k);
	void *v = hog_map_get(l->map, key);

	free(k);
	return v ? (location_t)((uintptr_t)v - 1) : UNKNOWN_LOCATION;
}

/* kbuild passes "./include/..." and "mm/...": keep paths as the tree spells them */
const char *lh_clean_path(const char *f)
{
	if (!f)
		return "";
	while (f[0] == '.' && f[1] == '/')
		f += 2;
	return f;
}

struct lower {
	struct hog_module *m;
	const struct hog_rules *rules;	/* lock-type, parent-*, percpu-asm */
	const char *arch;		/* the target, as percpu-asm names it */
	struct lh_locs *locs;
	struct hog_func *f;
	int *bbmap;		/* bb index -> IR block */
	/*
	 * A switch's tests after its first, one IR block each, after the
	 * basic blocks: bb index -> the first of them, and how many.
	 */
	int *swfirst, *swn;
	char *pair;		/* the block's test is two, lowered by lower_pair() */
	int line, col;		/* last known location */
	const char *file;
	int loops_open;
	/* "D.2473 = _t; return D.2473;": a guard class copied to a nameless temporary */
	tree guard_tmp, guard_src;
	struct hog_vec cstores;	/* fields a constant is stored to (const_store()) */
};

/*
 * Where a statement is, as the user wrote it: the point where a macro
 * was expanded, not the macro's body in a header, and the column as
 * GCC's own diagnostics count it (tabs expanded), so that the plugin
 * and the lockhog command print the same locations.
 */
bool lh_user_loc(location_t loc, location_t *out, int *line, int *col)
{
	expanded_location x;

	if (loc == UNKNOWN_LOCATION)
		return false;
	loc = linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL);
	x = expand_location(loc);
	if (!x.file || x.line <= 0)
		return false;
	*out = loc;
	*line = x.line;
	{
		cpp_char_column_policy policy(global_dc->tabstop, cpp_wcwidth);

		*col = location_compute_display_column(x, policy);
	}
	return true;
}

static void where(struct lower *L, gimple *s)
{
	location_t loc;
	int line, col;

	if (!lh_user_loc(gimple_location(s), &loc, &line, &col))
		return;
	L->line = line;
	L->col = col;
	lh_locs_note(L->locs, L->file, line, col, loc);
}

/* Atomic RMW builtins: __atomic_fetch_add, __sync_fetch_and_or, ... */
bool lh_atomic_builtin(tree fn)
{
	const char *n;

	if (!fn || !fndecl_built_in_p(fn, BUILT_IN_NORMAL))
		return false;
	n = IDENTIFIER_POINTER(DECL_NAME(fn));
	if (!strncmp(n, "__sync_", 7))
		return true;
	if (!strncmp(n, "__atomic_", 9) && !strstr(n, "load") &&
	    !strstr(n, "thread_fence") && !strstr(n, "signal_fence") &&
	    !strstr(n, "is_lock_free") && !strstr(n, "always_lock_free"))
		return strstr(n, "store") == NULL || strstr(n, "exchange") != NULL;
	return false;
}

/*
 * A name for a call's result, for messages: its variable, or the
 * variable it is copied into (ptl = pte_lockptr(...)), or "callee()".
 */
static void name_result(struct lower *L, tree lhs, tree fn)
{
	imm_use_iterator it;
	gimple *use;
	const char *n = NULL;

	if (SSA_NAME_VAR(lhs) && DECL_NAME(SSA_NAME_VAR(lhs)))
		n = IDENTIFIER_POINTER(DECL_NAME(SSA_NAME_VAR(lhs)));
	FOR_EACH_IMM_USE_STMT(use, it, lhs) {
		gassign *as = dyn_cast<gassign *>(use);
		tree l;

		if (n || !as || !gimple_assign_single_p(as))
			continue;
		l = gimple_assign_lhs(as);
		if (TREE_CODE(l) == SSA_NAME && SSA_NAME_VAR(l) && DECL_NAME(SSA_NAME_VAR(l)))
			n = IDENTIFIER_POINTER(DECL_NAME(SSA_NAME_VAR(l)));
	}
	if (n) {
		hog_func_set_vname(L->m, L->f, SSA_NAME_VERSION(lhs), n);
	} else if (fn && DECL_NAME(fn)) {
		char *t = hog_xasprintf("%s()", IDENTIFIER_POINTER(DECL_NAME(fn)));

		hog_func_set_vname(L->m, L->f, SSA_NAME_VERSION(lhs), t);
		free(t);
	}
}

static bool lock_pointer(struct lower *L, tree t);

/*
 * Where a guard class keeps its lock: guard() and scoped_guard() of
 * cleanup.h (6.5 on) write "class_spinlock_t scope =
 * class_spinlock_constructor(l)" and have GCC call
 * class_spinlock_destructor(&scope) when scope goes out of scope.  The
 * class is the lock pointer itself (DEFINE_GUARD(mutex, struct mutex *,
 * ...)) or a struct whose first field is (DEFINE_LOCK_GUARD_1(spinlock,
 * spinlock_t, ...): scope.lock).  Since &scope is taken, scope lives in
 * memory, not in an SSA name.  Returns that lock pointer's place in
 * var (var itself, or var.lock), or NULL_TREE for any other value.
 */
static tree guard_class_place(struct lower *L, tree var)
{
	tree ty = var ? TREE_TYPE(var) : NULL_TREE, fld;

	if (!ty || TREE_CODE(var) == SSA_NAME)
		return NULL_TREE;
	if (lock_pointer(L, ty))
		return var;
	if (TREE_CODE(ty) != RECORD_TYPE)
		return NULL_TREE;
	for (fld = TYPE_FIELDS(ty); fld && TREE_CODE(fld) != FIELD_DECL; fld = DECL_CHAIN(fld))
		;
	if (!fld || !integer_zerop(DECL_FIELD_OFFSET(fld)) ||
	    !integer_zerop(DECL_FIELD_BIT_OFFSET(fld)) || !lock_pointer(L, TREE_TYPE(fld)))
		return NULL_TREE;
	return build3(COMPONENT_REF, TREE_TYPE(fld), var, fld, NULL_TREE);
}

/* The same, for a variable the IR can name. */
static tree guard_lock_place(struct lower *L, tree var)
{
	return var && lh_address(L->m, var) ? guard_class_place(L, var) : NULL_TREE;
}

/* The lock pointer loaded from a guard class's place: "&%_t/?.lock^". */
static struct hog_val guard_load(struct lower *L, tree place)
{
	struct hog_val v = { HV_UNKNOWN, 0, 0, NULL };
	const char *a = lh_address(L->m, place);

	if (a) {
		v.kind = HV_ADDR;
		v.addr = hog_expr_append(L->m->strs, a, "^");
	}
	return v;
}

/*
 * A guard's constructor's value: a variable of its own (after GCC's SSA
 * names), then stored to where the class keeps its lock, as
 * lower_store() stores a lock pointer, so that the destructor's release
 * through &scope finds the lock the constructor took.
 */
static void store_guard_result(struct lower *L, struct hog_block *b, tree place, int var)
{
	struct hog_event *e = hog_block_add_event(L->m, b, HE_STORE, L->line, L->col, NULL, -1, 2);

	e->args[0].kind = HV_ADDR;
	e->args[0].addr = lh_address(L->m, place);
	e->args[1].kind = HV_VAR;
	e->args[1].var = var;
}

static long long value_cap(struct lower *L, tree v);

/*
 * An argument the callee may count with ("for (i = 0; i < count; i++)"):
 * its cap travels in a C record, so that a caller passing a capped value
 * tells the callee's "when argN > K" (docs/ir.md, section 4).
 */
static void arg_cap(struct lower *L, const struct hog_val *v)
{
	tree t;

	if (v->kind != HV_VAR || v->var < 0 || (unsigned)v->var >= num_ssa_names ||
	    hog_func_vcap(L->f, v->var) >= 0)
		return;
	t = ssa_name(v->var);
	if (t && INTEGRAL_TYPE_P(TREE_TYPE(t)))
		hog_func_set_vcap(L->m, L->f, v->var, value_cap(L, t));
}

static void lower_call(struct lower *L, struct hog_block *b, gcall *call)
{
	tree fn = gimple_call_fndecl(call);
	tree lhs = gimple_call_lhs(call);
	int dst = lhs && TREE_CODE(lhs) == SSA_NAME ? (int)SSA_NAME_VERSION(lhs) : -1;
	unsigned n = gimple_call_num_args(call), i;
	struct hog_event *e;
	tree place = guard_lock_place(L, lhs);

	if (gimple_call_internal_p(call))
		return;
	if (fn && fndecl_built_in_p(fn, BUILT_IN_NORMAL)) {
		if (lh_atomic_builtin(fn) && n > 0) {
			e = hog_block_add_event(L->m, b, HE_ATOMIC, L->line, L->col, NULL, -1, 1);
			e->args[0] = lh_value(L->m, gimple_call_arg(call, 0));
		}
		return;
	}
	if (!fn) {
		hog_block_add_event(L->m, b, HE_ICALL, L->line, L->col, NULL, dst, 0);
		return;
	}
	if (dst >= 0)
		name_result(L, lhs, fn);
	if (place)
		dst = L->f->nvars++;
	if (n > 12)
		n = 12;
	e = hog_block_add_event(L->m, b, HE_CALL, L->line, L->col,
				IDENTIFIER_POINTER(DECL_NAME(fn)), dst, n);
	for (i = 0; i < n; i++) {
		e->args[i] = lh_value(L->m, gimple_call_arg(call, i));
		arg_cap(L, &e->args[i]);
	}
	if (place)
		store_guard_result(L, b, place, dst);
}

/*
 * An atomic read-modify-write on the asm's memory operand
 * (hog_rules_asm_is_atomic(): a lock prefix or xchg, not on this CPU's
 * data).
 */
static void lower_asm(struct lower *L, struct hog_block *b, gasm *a)
{
	const char *s = gimple_asm_string(a);
	tree mem = NULL_TREE;
	unsigned i;
	struct hog_event *e;

	if (!hog_rules_asm_is_atomic(L->rules, L->arch, s))
		return;
	for (i = 0; i < gimple_asm_noutputs(a) && !mem; i++) {
		tree op = gimple_asm_output_op(a, i);

		if (strchr(TREE_STRING_POINTER(TREE_VALUE(TREE_PURPOSE(op))), 'm'))
			mem = TREE_VALUE(op);
	}
	for (i = 0; i < gimple_asm_ninputs(a) && !mem; i++) {
		tree op = gimple_asm_input_op(a, i);

		if (strchr(TREE_STRING_POINTER(TREE_VALUE(TREE_PURPOSE(op))), 'm'))
			mem = TREE_VALUE(op);
	}
	if (!mem)
		return;
	e = hog_block_add_event(L->m, b, HE_ATOMIC, L->line, L->col, NULL, -1, 1);
	e->args[0].addr = lh_address(L->m, mem);
	e->args[0].kind = e->args[0].addr ? HV_ADDR : HV_UNKNOWN;
}

/* typedefs of typedefs followed from a lock pointer's pointee, at most */
#define MAX_TYPEDEF_CHAIN 8

/* A struct's tag ("spinlock" for struct spinlock), or NULL when it has none. */
static const char *struct_tag(tree type)
{
	tree n = TYPE_NAME(TYPE_MAIN_VARIANT(type));

	if (n && TREE_CODE(n) == IDENTIFIER_NODE)
		return IDENTIFIER_POINTER(n);
	/* C++ names a tag with an artificial TYPE_DECL */
	if (n && TREE_CODE(n) == TYPE_DECL && DECL_ARTIFICIAL(n) && DECL_NAME(n))
		return IDENTIFIER_POINTER(DECL_NAME(n));
	return NULL;
}

/*
 * Is the record type pt a lock (spinlock_t, struct mutex)?  Its
 * typedef names, outermost first (spinlock_t, then any typedef it was
 * made from), and its struct tag are looked up exactly in the rules'
 * lock-type lists: struct block_device or clock_event_device are not locks.
 * Anonymous structs (rwlock_t, local_lock_t) have only their typedef.
 */
static bool lock_type(struct lower *L, tree pt)
{
	tree ty;
	int n = 0;

	if (TREE_CODE(pt) != RECORD_TYPE)
		return false;
	for (ty = pt; ty && n++ < MAX_TYPEDEF_CHAIN; ty = DECL_ORIGINAL_TYPE(TYPE_NAME(ty))) {
		tree d = TYPE_NAME(ty);

		if (!d || TREE_CODE(d) != TYPE_DECL || DECL_ARTIFICIAL(d) || !DECL_NAME(d))
			break;
		if (hog_rules_is_lock_type(L->rules, 1, IDENTIFIER_POINTER(DECL_NAME(d))))
			return true;
	}
	return hog_rules_is_lock_type(L->rules, 0, struct_tag(pt));
}

static bool lock_pointer(struct lower *L, tree t)
{
	return POINTER_TYPE_P(t) && lock_type(L, TREE_TYPE(t));
}

/* A pointer to a struct one of whose members is a lock (struct kfree_rcu_cpu *). */
static bool holder_pointer(struct lower *L, tree t)
{
	tree f;

	if (!POINTER_TYPE_P(t) || TREE_CODE(TREE_TYPE(t)) != RECORD_TYPE)
		return false;
	for (f = TYPE_FIELDS(TREE_TYPE(t)); f; f = DECL_CHAIN(f))
		if (TREE_CODE(f) == FIELD_DECL && lock_type(L, TREE_TYPE(f)))
			return true;
	return false;
}

/* *p = ... through a parameter p, at offset 0: an out-parameter */
static bool out_param(tree lhs)
{
	tree base;

	if (TREE_CODE(lhs) != MEM_REF || !integer_zerop(TREE_OPERAND(lhs, 1)))
		return false;
	base = TREE_OPERAND(lhs, 0);
	return TREE_CODE(base) == SSA_NAME && SSA_NAME_IS_DEFAULT_DEF(base) &&
	       SSA_NAME_VAR(base) && TREE_CODE(SSA_NAME_VAR(base)) == PARM_DECL;
}

static bool lower_field_store(struct lower *L, struct hog_block *b, tree lhs, tree rhs);

/*
 * timer->function = cb, to a field a "context" rule names: the
 * registration of cb as a callback; attr->store = cb, to a field a
 * "rare" rule names: cb is a rare entry (docs/ir.md, the w event).
 */
static bool lower_callback_store(struct lower *L, struct hog_block *b, tree lhs, tree rhs)
{
	struct hog_event *e;
	const char *dst;

	if (TREE_CODE(rhs) != ADDR_EXPR || TREE_CODE(TREE_OPERAND(rhs, 0)) != FUNCTION_DECL)
		return false;
	dst = lh_address(L->m, lhs);
	if (!dst || !hog_rules_callback_field(L->rules, hog_expr_class(L->m->strs, dst))) {
		/* ops->cb = fn after ops->cb = NULL: the field is not NULL any more */
		lower_field_store(L, b, lhs, rhs);
		return true;
	}
	e = hog_block_add_event(L->m, b, HE_STORE, L->line, L->col, NULL, -1, 2);
	e->args[0].kind = HV_ADDR;
	e->args[0].addr = dst;
	e->args[1] = lh_value(L->m, rhs);
	return true;
}

static bool in_union(tree r);
static bool covers(const char *w, const char *a);

/*
 * storage->file = NULL before a helper that tests it: the field a
 * constant goes to, for the core to decide a callee's "if (store->file)"
 * (docs/ir.md, the w event).  A field of something other than a local,
 * not in a union nor an array element or another CPU's copy.
 */
static const char *const_store(struct lower *L, tree lhs, tree rhs)
{
	const char *dst;

	if (TREE_CODE(rhs) != INTEGER_CST || TREE_CODE(lhs) != COMPONENT_REF || in_union(lhs) ||
	    TREE_THIS_VOLATILE(lhs))
		return NULL;
	dst = lh_address(L->m, lhs);
	if (!dst || dst[0] == '%' || strpbrk(dst, "[#"))
		return NULL;
	return dst;
}

/* memset(o, ...), memcpy(o, ...): the address the call fills, else NULL */
static const char *fill_address(struct lower *L, gcall *c);

/*
 * What something other than an assignment writes: a call's result
 * stored in place, an asm's memory output, a memset()'s object.
 */
static void other_writes(struct lower *L, gimple *s, struct hog_vec *w)
{
	const char *a;
	unsigned i;

	if (gasm *am = dyn_cast<gasm *>(s)) {
		for (i = 0; i < gimple_asm_noutputs(am); i++)
			if ((a = lh_address(L->m, TREE_VALUE(gimple_asm_output_op(am, i)))))
				hog_vec_push(w, (void *)a);
		return;
	}
	if (gcall *c = dyn_cast<gcall *>(s)) {
		if ((a = fill_address(L, c)))
			hog_vec_push(w, (void *)a);
		if (gimple_call_lhs(c) && TREE_CODE(gimple_call_lhs(c)) != SSA_NAME &&
		    (a = lh_address(L->m, gimple_call_lhs(c))))
			hog_vec_push(w, (void *)a);
	}
}

/*
 * The fields the function stores a constant to, before its blocks are
 * lowered; none that something other than an assignment also writes.
 */
static void find_const_stores(struct lower *L)
{
	struct hog_vec other = { 0 };
	basic_block bb;
	int i, j, k;

	FOR_EACH_BB_FN(bb, cfun)
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gassign *as = dyn_cast<gassign *>(gsi_stmt(gsi));
			const char *dst;

			other_writes(L, gsi_stmt(gsi), &other);
			if (as && gimple_assign_single_p(as) &&
			    (dst = const_store(L, gimple_assign_lhs(as), gimple_assign_rhs1(as))) &&
			    !hog_vec_has_str(&L->cstores, dst))
				hog_vec_push(&L->cstores, (void *)dst);
		}
	for (i = 0, k = 0; i < L->cstores.n; i++) {
		const char *a = (const char *)L->cstores.v[i];

		for (j = 0; j < other.n && !covers((const char *)other.v[j], a); j++)
			;
		if (j == other.n)
			L->cstores.v[k++] = (void *)a;
	}
	L->cstores.n = k;
	hog_vec_free(&other);
}

/*
 * Does a store to dst (any value) overwrite a field a constant goes to:
 * that field, the struct around it, or the field spelt another way
 * (container_of(), a getter's result: the same class, not in a local)?
 */
static bool hides_const_store(struct lower *L, const char *dst)
{
	const char *cls = dst && dst[0] != '%' ? hog_expr_class(L->m->strs, dst) : NULL;
	int i;

	for (i = 0; dst && i < L->cstores.n; i++)
		if (hog_expr_has_prefix((const char *)L->cstores.v[i], dst) ||
		    (cls && hog_expr_class(L->m->strs, (const char *)L->cstores.v[i]) == cls))
			return true;
	return false;
}

/*
 * A store of a constant to such a field, or of anything else to one
 * (or to the struct around one): the core keeps a field's constant only
 * where no other store can have replaced it.
 */
static bool lower_field_store(struct lower *L, struct hog_block *b, tree lhs, tree rhs)
{
	struct hog_event *e;
	const char *dst = const_store(L, lhs, rhs);

	if (dst && !hog_vec_has_str(&L->cstores, dst))
		return false;
	if (!dst && (!L->cstores.n || !hides_const_store(L, dst = lh_address(L->m, lhs))))
		return false;
	e = hog_block_add_event(L->m, b, HE_STORE, L->line, L->col, NULL, -1, 2);
	e->args[0].kind = HV_ADDR;
	e->args[0].addr = dst;
	if (TREE_CODE(rhs) == INTEGER_CST) {
		e->args[1] = lh_value(L->m, rhs);
	} else {
		memset(&e->args[1], 0, sizeof(e->args[1]));
		e->args[1].kind = HV_UNKNOWN;
	}
	return true;
}

/*
 * vmf->ptl = ptl: the core must know the field holds that lock.  So
 * too for *krcp = krc_this_cpu_lock(flags): the caller's out-parameter
 * then names the struct whose lock is held, and a release through
 * (*krcp)->lock gives it up.
 */
static void lower_store(struct lower *L, struct hog_block *b, gassign *as)
{
	tree lhs = gimple_assign_lhs(as), rhs = gimple_assign_rhs1(as);
	struct hog_event *e;
	const char *dst;

	if (gimple_assign_single_p(as) && lower_callback_store(L, b, lhs, rhs))
		return;

	/* a guard class copied whole: "D.2473 = _t; return D.2473;" */
	if (gimple_assign_single_p(as) && guard_class_place(L, lhs) && guard_lock_place(L, rhs) &&
	    !lh_address(L->m, lhs)) {
		L->guard_tmp = lhs;
		L->guard_src = rhs;
		return;
	}
	if (gimple_assign_single_p(as) && guard_lock_place(L, lhs) && guard_lock_place(L, rhs)) {
		e = hog_block_add_event(L->m, b, HE_STORE, L->line, L->col, NULL, -1, 2);
		e->args[0].kind = HV_ADDR;
		e->args[0].addr = lh_address(L->m, guard_lock_place(L, lhs));
		e->args[1] = guard_load(L, guard_lock_place(L, rhs));
		return;
	}
	if (!gimple_assign_single_p(as) || TREE_CODE(rhs) != SSA_NAME ||
	    !(lock_pointer(L, TREE_TYPE(rhs)) ||
	      (out_param(lhs) && holder_pointer(L, TREE_TYPE(rhs))))) {
		lower_field_store(L, b, lhs, rhs);
		return;
	}
	dst = lh_address(L->m, lhs);
	if (!dst)
		return;
	e = hog_block_add_event(L->m, b, HE_STORE, L->line, L->col, NULL, -1, 2);
	e->args[0].kind = HV_ADDR;
	e->args[0].addr = dst;
	e->args[1] = lh_value(L->m, rhs);
}

#define SIGN_USE_DEPTH 4	/* conversions followed from a sign step's result */

/*
 * The sign steps ("neg", "u>>") speak of the value in its own width, and
 * lh_value() looks through conversions: (long)-nr_pages of an unsigned
 * int is positive.  True if no use, through same-width conversions,
 * converts v to another width (to a wider one is fine if wider_ok: a
 * value with its top bit clear stays positive).
 */
static bool width_kept(tree v, unsigned prec, bool wider_ok, int depth)
{
	imm_use_iterator it;
	gimple *use;
	bool kept = depth < SIGN_USE_DEPTH;

	FOR_EACH_IMM_USE_STMT(use, it, v) {
		gassign *as = dyn_cast<gassign *>(use);
		tree l;

		if (!kept || !as || !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as)))
			continue;
		l = gimple_assign_lhs(as);
		if (TREE_CODE(l) != SSA_NAME)
			kept = false;
		else if (TYPE_PRECISION(TREE_TYPE(l)) > prec && wider_ok)
			continue;
		else if (TYPE_PRECISION(TREE_TYPE(l)) != prec ||
			 !width_kept(l, prec, wider_ok, depth + 1))
			kept = false;
	}
	return kept;
}

#define COUNT_CONV_DEPTH 4	/* conversions followed back from a negated value */

/* Is v an unsigned value all the way back through its conversions? */
static bool unsigned_source(tree v)
{
	int n;

	for (n = 0; n < COUNT_CONV_DEPTH; n++) {
		gassign *cv = TREE_CODE(v) == SSA_NAME ?
			      dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v)) : NULL;

		if (!INTEGRAL_TYPE_P(TREE_TYPE(v)) || !TYPE_UNSIGNED(TREE_TYPE(v)))
			return false;
		if (!cv || !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(cv)))
			return true;
		v = gimple_assign_rhs1(cv);
	}
	return false;
}

/*
 * Pre-inline GIMPLE loads a field again for each use: in "if
 * (ug->nr_kmem) f(-ug->nr_kmem)" the test and the negation read two
 * SSA names.  A load of the same place in the same memory state (the
 * same virtual use) in a dominating block is the same value: its name,
 * so the test's fact reaches the negation.  v itself otherwise.
 */
static tree same_load(tree v)
{
	gassign *def = TREE_CODE(v) == SSA_NAME ? dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v)) : NULL;
	imm_use_iterator it;
	gimple *use;
	tree vuse, best = v;

	if (!def || !gimple_assign_single_p(def) || !(vuse = gimple_vuse(def)) ||
	    !dom_info_available_p(CDI_DOMINATORS))
		return v;
	FOR_EACH_IMM_USE_STMT(use, it, vuse) {
		gassign *as = dyn_cast<gassign *>(use);

		if (!as || as == def || !gimple_assign_single_p(as) ||
		    TREE_CODE(gimple_assign_lhs(as)) != SSA_NAME ||
		    gimple_bb(as) == gimple_bb(def) ||
		    !dominated_by_p(CDI_DOMINATORS, gimple_bb(def), gimple_bb(as)) ||
		    !operand_equal_p(gimple_assign_rhs1(as), gimple_assign_rhs1(def), 0))
			continue;
		best = gimple_assign_lhs(as);
	}
	return best;
}

/* through v's conversions to the value converted, at most COUNT_CONV_DEPTH back */
static tree conv_root(tree v)
{
	int n;

	for (n = 0; n < COUNT_CONV_DEPTH && TREE_CODE(v) == SSA_NAME; n++) {
		gassign *cv = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v));

		if (!cv || !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(cv)))
			break;
		v = gimple_assign_rhs1(cv);
	}
	return v;
}

/*
 * -count with count unsigned ((int)count negated, or the negation done
 * in the unsigned type, which GCC also does for a signed value it
 * converted first): the unsigned operand, for "negu" (the core takes a
 * non-zero count to be below 2^31, so its negation is negative), or
 * NULL.  Narrowing keeps the sign; width_kept() checks the uses.
 */
static tree negated_count(tree v)
{
	gassign *cv = TREE_CODE(v) == SSA_NAME ? dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v)) : NULL;
	tree src;

	if (unsigned_source(v))
		return v;
	if (!cv || !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(cv)))
		return NULL_TREE;
	src = gimple_assign_rhs1(cv);
	if (TREE_CODE(src) != SSA_NAME || !unsigned_source(src) ||
	    TYPE_PRECISION(TREE_TYPE(src)) < TYPE_PRECISION(TREE_TYPE(v)))
		return NULL_TREE;
	return src;
}

static void load_copy(struct lower *L, struct hog_block *b, tree l, int v);

/*
 * Was v read from memory in at's block with nothing written since (no
 * call, no store: no virtual definition between)?  A "load" written at
 * at then stands where the read was: a value read before a call that
 * may change the field is not the field past a later test of it.
 */
static bool read_here(tree v, gimple *at)
{
	gimple *def = TREE_CODE(v) == SSA_NAME ? SSA_NAME_DEF_STMT(v) : NULL;
	gimple_stmt_iterator gsi;

	if (!def || !at || gimple_bb(def) != gimple_bb(at))
		return false;
	for (gsi = gsi_for_stmt(def), gsi_next(&gsi); !gsi_end_p(gsi) && gsi_stmt(gsi) != at;
	     gsi_next(&gsi))
		if (gimple_vdef(gsi_stmt(gsi)))
			return false;
	return !gsi_end_p(gsi);
}

/* x = (y == 0) and x = (y != 0): the core needs these to follow trylock results. */
static void lower_assign(struct lower *L, struct hog_block *b, gassign *as)
{
	tree lhs = gimple_assign_lhs(as);
	enum tree_code code = gimple_assign_rhs_code(as);
	struct hog_event *e;
	const char *op;

	if (TREE_CODE(lhs) != SSA_NAME) {
		lower_store(L, b, as);
		return;
	}
	if ((code == EQ_EXPR || code == NE_EXPR) &&
	    TREE_CODE(gimple_assign_rhs1(as)) == SSA_NAME &&
	    integer_zerop(gimple_assign_rhs2(as)))
		op = code == EQ_EXPR ? "!" : "!!";
	else if ((code == BIT_AND_EXPR || code == BIT_IOR_EXPR) &&
		 TREE_CODE(gimple_assign_rhs2(as)) == INTEGER_CST &&
		 TREE_CODE(gimple_assign_rhs1(as)) == SSA_NAME) {
		/* flags & FGP_LOCK, gfp | __GFP_ZERO: tie costs to the caller's flags */
		e = hog_block_add_event(L->m, b, HE_ASSIGN, L->line, L->col,
					code == BIT_AND_EXPR ? "&" : "|",
					SSA_NAME_VERSION(lhs), 2);
		e->args[0] = lh_value(L->m, gimple_assign_rhs1(as));
		e->args[1] = lh_value(L->m, gimple_assign_rhs2(as));
		return;
	}
	else if (code == NEGATE_EXPR && INTEGRAL_TYPE_P(TREE_TYPE(lhs)) &&
		 TREE_CODE(gimple_assign_rhs1(as)) == SSA_NAME &&
		 width_kept(lhs, TYPE_PRECISION(TREE_TYPE(lhs)), false, 0)) {
		/*
		 * -nr_pages: the core flips a known sign; -ug->nr_kmem: a
		 * count's.  Either named by the tested read of the same place
		 * (-spool->min_hpages after "!= -1"); a field read only for a
		 * "neg": its floor (rules: bound min=)
		 */
		tree cnt = negated_count(gimple_assign_rhs1(as));
		tree src = same_load(cnt ? conv_root(cnt) : gimple_assign_rhs1(as));

		if (!cnt && src == gimple_assign_rhs1(as) && read_here(src, as))
			load_copy(L, b, src, SSA_NAME_VERSION(src));
		e = hog_block_add_event(L->m, b, HE_ASSIGN, L->line, L->col, cnt ? "negu" : "neg",
					SSA_NAME_VERSION(lhs), 1);
		e->args[0] = lh_value(L->m, src);
		return;
	}
	else if (code == RSHIFT_EXPR && TYPE_UNSIGNED(TREE_TYPE(lhs)) &&
		 TREE_CODE(gimple_assign_rhs1(as)) == SSA_NAME &&
		 tree_fits_uhwi_p(gimple_assign_rhs2(as)) &&
		 tree_to_uhwi(gimple_assign_rhs2(as)) >= 1 &&
		 TYPE_PRECISION(TREE_TYPE(lhs)) ==
		 TYPE_PRECISION(TREE_TYPE(gimple_assign_rhs1(as))) &&
		 width_kept(lhs, TYPE_PRECISION(TREE_TYPE(lhs)), true, 0))
		/* bytes >> PAGE_SHIFT: the top bit is clear, its negation negative */
		op = "u>>";
	else if (code == TRUTH_NOT_EXPR || (code == BIT_XOR_EXPR &&
		 TREE_CODE(TREE_TYPE(lhs)) == BOOLEAN_TYPE &&
		 integer_onep(gimple_assign_rhs2(as))) ||
		 /* !folio_try_get(folio) on a bool: "_2 = ~_1" */
		 (code == BIT_NOT_EXPR && TREE_CODE(TREE_TYPE(lhs)) == BOOLEAN_TYPE &&
		  TYPE_PRECISION(TREE_TYPE(lhs)) == 1))
		op = "!";
	else
		return;
	e = hog_block_add_event(L->m, b, HE_ASSIGN, L->line, L->col, op,
				SSA_NAME_VERSION(lhs), 1);
	e->args[0] = lh_value(L->m, gimple_assign_rhs1(as));
}

/*
 * The target as the rules' percpu-asm lines name it: the CPU of GCC's
 * --target triple, or i386 for x86's -m32 (whose per-CPU segment differs).
 */
static const char *target_arch(void)
{
	static char arch[64];
	const char *t = strstr(configuration_arguments, "--target=");
	size_t n;

	if (arch[0])
		return arch;
	t = t ? t + strlen("--target=") : "unknown";
	n = strcspn(t, "- ");
	snprintf(arch, sizeof(arch), "%.*s", (int)n, t);
#ifdef TARGET_64BIT
	if (!strcmp(arch, "x86_64") && !TARGET_64BIT)
		snprintf(arch, sizeof(arch), "i386");
#endif
	return arch;
}

/*
 * Is v read from this CPU's counters: an asm addressing per-CPU data
 * (a percpu-asm prefix of the target: %gs: for this_cpu_* and
 * __this_cpu_* on x86-64), a load through a __seg_gs pointer (the same
 * from 6.8 on) or through this_cpu_ptr(), through arithmetic, copies,
 * phis and locals kept in memory?
 */
#define PERCPU_DEPTH	10

static bool percpu_walk(struct lower *L, tree v, int depth, hash_map<tree, int> *seen);

/*
 * A local kept in memory because its address is taken (6.12's
 * this_cpu_try_cmpxchg(*p, &o, n) loop in mod_zone_state()): per-CPU if
 * a value stored to it by name is (any one: a batch test is read
 * optimistically, as for a phi).
 */
static bool percpu_stored(struct lower *L, tree var, int depth, hash_map<tree, int> *seen)
{
	int *was = seen->get(var);
	basic_block bb;

	if ((was && *was <= depth) || depth > PERCPU_DEPTH)
		return false;
	seen->put(var, depth);
	FOR_EACH_BB_FN(bb, cfun)
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gassign *as = dyn_cast<gassign *>(gsi_stmt(gsi));

			if (as && gimple_assign_single_p(as) && gimple_assign_lhs(as) == var &&
			    percpu_walk(L, gimple_assign_rhs1(as), depth + 1, seen))
				return true;
		}
	return false;
}

/*
 * seen: the least depth each name was already searched from, without
 * success.  A search from there or deeper finds nothing new; without it
 * the walk is exponential in phis of many arguments (kernel/bpf/core.c's
 * interpreter: minutes for one comparison).
 */
static bool percpu_walk(struct lower *L, tree v, int depth, hash_map<tree, int> *seen)
{
	gimple *d;
	int *was;

	if (!v || TREE_CODE(v) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(v) || depth > PERCPU_DEPTH)
		return false;
	was = seen->get(v);
	if (was && *was <= depth)
		return false;
	seen->put(v, depth);
	d = SSA_NAME_DEF_STMT(v);
	if (gasm *a = dyn_cast<gasm *>(d))
		return hog_rules_asm_is_percpu(L->rules, L->arch, gimple_asm_string(a));
	if (gphi *phi = dyn_cast<gphi *>(d)) {
		for (unsigned i = 0; i < gimple_phi_num_args(phi); i++)
			if (percpu_walk(L, gimple_phi_arg_def(phi, i), depth + 1, seen))
				return true;
		return false;
	}
	if (gassign *as = dyn_cast<gassign *>(d)) {
		tree r1 = gimple_assign_rhs1(as);

		if (gimple_assign_single_p(as) && TREE_CODE(r1) != SSA_NAME) {
			/* a load: from an object this_cpu_ptr() gave? */
			tree base = r1;

			while (handled_component_p(base))
				base = TREE_OPERAND(base, 0);
			/*
			 * x86's __seg_gs, what this_cpu_read() is with
			 * CONFIG_USE_X86_SEG_SUPPORT (6.8 on) instead of asm
			 */
			if (!ADDR_SPACE_GENERIC_P(TYPE_ADDR_SPACE(TREE_TYPE(r1))) ||
			    !ADDR_SPACE_GENERIC_P(TYPE_ADDR_SPACE(TREE_TYPE(base))))
				return true;
			if (r1 == base && VAR_P(base) && !is_global_var(base) && TREE_ADDRESSABLE(base))
				return percpu_stored(L, base, depth + 1, seen);
			if (TREE_CODE(base) == MEM_REF) {
				const char *e = lh_address(L->m, base);

				return e && strchr(e, '#');
			}
			return false;
		}
		if (percpu_walk(L, r1, depth + 1, seen))
			return true;
		if (gimple_num_ops(as) > 2)
			return percpu_walk(L, gimple_assign_rhs2(as), depth + 1, seen);
	}
	return false;
}

static bool percpu_value(struct lower *L, tree v)
{
	hash_map<tree, int> seen;

	return percpu_walk(L, v, 0, &seen);
}

static tree strip_copies(tree t);

/* v is a value read as it is, through copies and casts: a limit, not a count worked out */
static bool plain_read(tree v)
{
	tree t = strip_copies(v);

	if (!v || TREE_CODE(v) != SSA_NAME || !t)
		return false;
	if (TREE_CODE(t) != SSA_NAME)
		return true;	/* a load */
	return !SSA_NAME_IS_DEFAULT_DEF(t) && is_a<gasm *>(SSA_NAME_DEF_STMT(t));
}

/*
 * v is a limit read as it is and negated, or a negative constant:
 * vmstat's "v < -t", a lower threshold (lockhog-check: negated())
 */
static bool negated_read(tree v)
{
	tree t = strip_copies(v);
	gassign *as;

	if (v && TREE_CODE(v) == INTEGER_CST)
		return tree_int_cst_sgn(v) < 0;
	if (!t || TREE_CODE(t) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(t))
		return false;
	as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(t));
	return as && gimple_assign_rhs_code(as) == NEGATE_EXPR &&
	       plain_read(gimple_assign_rhs1(as));
}

/*
 * if (x > MEMCG_CHARGE_BATCH) with x a per-CPU count: which way is rare.
 * When the limit is per-CPU too (vmstat's "abs(x) > t", t this CPU's
 * stat_threshold), the count is the side worked out, the limit the one
 * read as it is (or read and negated), whichever side GCC put it on.
 */
static void batch_cond(struct lower *L, struct hog_block *b, tree l, tree r, enum tree_code code)
{
	bool pl, pr, up;

	if (code != GT_EXPR && code != GE_EXPR && code != LT_EXPR && code != LE_EXPR)
		return;
	pl = percpu_value(L, l);
	pr = percpu_value(L, r);
	if ((pr && !pl) ||
	    (pl && pr && (plain_read(l) || negated_read(l)) && !plain_read(r) && !negated_read(r))) {
		std::swap(l, r);
		code = swap_tree_comparison(code);
	}
	if (!percpu_value(L, l))
		return;
	/*
	 * count > limit is the rare way, count < limit the common one; below
	 * a negated or negative limit (__dec_zone_state()'s "v < -t") the
	 * other way round
	 */
	up = code == GT_EXPR || code == GE_EXPR;
	b->cond = up != negated_read(r) ? HC_BATCH0 : HC_BATCH1;
	b->cond_var = -1;
}

/*
 * if (nr_pages > 0) on a signed integer: the core ties the costs of each
 * way to the sign of the value, and callers that pass -nr_pages reach
 * only one.  A parameter tested so gets an "=" copy of its value first,
 * so the core knows which parameter the condition is on.
 */
static void sign_cond(struct lower *L, struct hog_block *b, gcond *c)
{
	tree l = gimple_cond_lhs(c), r = gimple_cond_rhs(c);
	enum tree_code code = gimple_cond_code(c);
	struct hog_event *e;
	int v;

	if (!integer_zerop(r) || TREE_CODE(l) != SSA_NAME ||
	    !INTEGRAL_TYPE_P(TREE_TYPE(l)) || TYPE_UNSIGNED(TREE_TYPE(l)))
		return;
	if (code != GT_EXPR && code != LE_EXPR)
		return;
	v = SSA_NAME_VERSION(l);
	b->cond = code == GT_EXPR ? HC_GTZ : HC_LEZ;
	b->cond_var = v;
	if (!SSA_NAME_IS_DEFAULT_DEF(l) || !SSA_NAME_VAR(l) ||
	    TREE_CODE(SSA_NAME_VAR(l)) != PARM_DECL)
		return;
	e = hog_block_add_event(L->m, b, HE_ASSIGN, L->line, L->col, "=", v, 1);
	e->args[0] = lh_value(L->m, l);
}

/*
 * GCC turns "if (flags & BIT(31))" on a 32-bit unsigned into "if ((int)
 * flags < 0)", and its negation into ">= 0": a test of the top bit,
 * written as the flag test it is ("&" with the bit, then n or z).
 */
static void top_bit_cond(struct lower *L, struct hog_block *b, gcond *c)
{
	tree l = gimple_cond_lhs(c), x;
	enum tree_code code = gimple_cond_code(c);
	struct hog_event *e;
	gassign *as;
	unsigned prec;

	if ((code != LT_EXPR && code != GE_EXPR) || !integer_zerop(gimple_cond_rhs(c)) ||
	    TREE_CODE(l) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(l) ||
	    !INTEGRAL_TYPE_P(TREE_TYPE(l)) || TYPE_UNSIGNED(TREE_TYPE(l)))
		return;
	as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(l));
	if (!as || !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as)))
		return;
	x = gimple_assign_rhs1(as);
	prec = TYPE_PRECISION(TREE_TYPE(l));
	if (TREE_CODE(x) != SSA_NAME || !INTEGRAL_TYPE_P(TREE_TYPE(x)) ||
	    !TYPE_UNSIGNED(TREE_TYPE(x)) || TYPE_PRECISION(TREE_TYPE(x)) != prec || prec > 63)
		return;
	e = hog_block_add_event(L->m, b, HE_ASSIGN, L->line, L->col, "&", SSA_NAME_VERSION(l), 2);
	e->args[0] = lh_value(L->m, x);
	e->args[1].kind = HV_CONST;
	e->args[1].cst = 1LL << (prec - 1);
	b->cond = code == LT_EXPR ? HC_NEZ : HC_EQZ;
	b->cond_var = SSA_NAME_VERSION(l);
}

/* Does converting from type a to type b keep every value? */
static bool keeps_value(tree a, tree b)
{
	unsigned pa = TYPE_PRECISION(a), pb = TYPE_PRECISION(b);

	if (TYPE_UNSIGNED(a) == TYPE_UNSIGNED(b))
		return pa <= pb;
	return TYPE_UNSIGNED(a) && pa < pb;
}

/* x through widening conversions: the variable a constant test is on */
static tree widened_from(tree l)
{
	for (;;) {
		gassign *as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(l));
		tree in = as ? gimple_assign_rhs1(as) : NULL_TREE;

		if (!as || !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as)) ||
		    TREE_CODE(in) != SSA_NAME || !INTEGRAL_TYPE_P(TREE_TYPE(in)) ||
		    !keeps_value(TREE_TYPE(in), TREE_TYPE(l)))
			return l;
		l = in;
	}
}

/*
 * if (mode == M_FREE) on an integer variable: the core keeps the
 * constants a phi gives such a variable apart, so a lock taken on the
 * branches that set mode to M_PARTIAL is not held where mode == M_FREE.
 * NE_EXPR is written as EQ with its successors swapped (lower_succs).
 */
static void const_cond(struct hog_block *b, tree l, tree r)
{
	HOST_WIDE_INT k;
	int v;

	if (TREE_CODE(l) == INTEGER_CST)
		std::swap(l, r);
	if (TREE_CODE(r) != INTEGER_CST || !tree_fits_shwi_p(r) ||
	    !INTEGRAL_TYPE_P(TREE_TYPE(l)) || TREE_CODE(l) != SSA_NAME)
		return;
	k = tree_to_shwi(r);
	/* through widening conversions only: (char)x == 3 is not x == 3 */
	v = SSA_NAME_VERSION(widened_from(l));
	if (!k)
		return;
	b->cond = HC_EQK;
	b->cond_var = v;
	b->cond_val = b->cond_hi = k;
}

/*
 * "mode == M_PARTIAL || mode == M_FULL", which GCC folds to the range
 * test "(unsigned)mode - 1 <= 1": HC_EQK over [1, 2] on mode, the in-range
 * way first (lower_succs swaps the successors for > and >=).  Only a
 * range that does not wrap.
 */
static void range_cond(struct hog_block *b, gcond *c)
{
	tree l = gimple_cond_lhs(c), r = gimple_cond_rhs(c), x, add;
	enum tree_code code = gimple_cond_code(c);
	unsigned prec;
	gassign *as;
	unsigned HOST_WIDE_INT k, lo, mod;

	if (TREE_CODE(l) != SSA_NAME || TREE_CODE(r) != INTEGER_CST ||
	    !INTEGRAL_TYPE_P(TREE_TYPE(l)) || !TYPE_UNSIGNED(TREE_TYPE(l)) ||
	    !tree_fits_uhwi_p(r))
		return;
	prec = TYPE_PRECISION(TREE_TYPE(l));
	as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(l));
	if (prec > 32 || !as || gimple_assign_rhs_code(as) != PLUS_EXPR)
		return;
	x = gimple_assign_rhs1(as);
	add = gimple_assign_rhs2(as);
	if (TREE_CODE(x) != SSA_NAME || TREE_CODE(add) != INTEGER_CST || !tree_fits_uhwi_p(add))
		return;
	k = tree_to_uhwi(r);
	if (code == LT_EXPR || code == GE_EXPR) {
		if (!k)
			return;
		k--;
	} else if (code != LE_EXPR && code != GT_EXPR) {
		return;
	}
	mod = (unsigned HOST_WIDE_INT)1 << prec;
	lo = (mod - tree_to_uhwi(add)) % mod;
	if (lo + k >= mod / 2)
		return;
	x = widened_from(x);
	b->cond = HC_EQK;
	b->cond_var = SSA_NAME_VERSION(x);
	b->cond_val = (long long)lo;
	b->cond_hi = (long long)(lo + k);
	if (!lo && !k)
		b->cond = HC_NONE;
}

/*
 * if (!on), if (nonblock) on a parameter as it came in: an "=" copy of
 * its value first, so the core knows the test is on that parameter and
 * a caller passing a constant decides it (fasync_helper(fd, filp, 0, fa)
 * never adds an entry).  Only through copies that keep every bit: a
 * narrowing conversion tests fewer bits than the parameter has.
 */
static void param_copy(struct lower *L, struct hog_block *b, tree l, int v)
{
	tree t = lh_tested_param(l);
	struct hog_event *e;

	if (!t || SSA_NAME_VERSION(t) != (unsigned)v)
		return;
	e = hog_block_add_event(L->m, b, HE_ASSIGN, L->line, L->col, "=", v, 1);
	e->args[0] = lh_value(L->m, t);
}

/*
 * if (!is_static) on a bool parameter is "_1 = ~is_static; if (_1 != 0)":
 * the test of the parameter the other way round, so that param_copy()
 * sees it.  Other values are left as they are.
 */
static tree bool_not_param(tree l, enum tree_code *code)
{
	gassign *as;
	tree r;

	if (TREE_CODE(l) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(l) ||
	    TREE_CODE(TREE_TYPE(l)) != BOOLEAN_TYPE)
		return l;
	as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(l));
	if (!as || (gimple_assign_rhs_code(as) != BIT_NOT_EXPR &&
		    gimple_assign_rhs_code(as) != TRUTH_NOT_EXPR))
		return l;
	r = gimple_assign_rhs1(as);
	if (TREE_CODE(TREE_TYPE(r)) != BOOLEAN_TYPE || lh_tested_param(r) != r)
		return l;
	*code = *code == NE_EXPR ? EQ_EXPR : NE_EXPR;
	return r;
}

/*
 * The comparison behind a test of v against zero: "_1 = x > t; _2 =
 * (long) _1; _3 = __builtin_expect (_2, 0); if (_3 != 0)" (vmstat's
 * if (unlikely(abs(x) > t))), through conversions, __builtin_expect()
 * and, if copies, plain copies ("int _____ret = ...; if (_____ret)" of
 * RB_WARN_ON()).  Its code, inverted for a test of == 0, in *cmp, and
 * its operands; false if there is none.
 */
static bool expect_compare(tree v, enum tree_code code, bool copies,
			   enum tree_code *cmp, tree *a, tree *b)
{
	int n;

	for (n = 0; n < 8 && v && TREE_CODE(v) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF(v); n++) {
		gimple *d = SSA_NAME_DEF_STMT(v);
		gcall *call = dyn_cast<gcall *>(d);
		gassign *as = dyn_cast<gassign *>(d);

		if (call && gimple_call_builtin_p(call, BUILT_IN_EXPECT) && gimple_call_num_args(call) > 0) {
			v = gimple_call_arg(call, 0);
			continue;
		}
		if (!as)
			return false;
		if (CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as)) ||
		    (copies && gimple_assign_single_p(as))) {
			v = gimple_assign_rhs1(as);
			continue;
		}
		if (TREE_CODE_CLASS(gimple_assign_rhs_code(as)) != tcc_comparison)
			return false;
		*a = gimple_assign_rhs1(as);
		*b = gimple_assign_rhs2(as);
		*cmp = gimple_assign_rhs_code(as);
		if (code == EQ_EXPR)
			*cmp = invert_tree_comparison(*cmp, HONOR_NANS(*a));
		return *cmp != ERROR_MARK;
	}
	return false;
}

/* What batch_cond() reads of a test against zero: the comparison behind it. */
static void expect_batch(struct lower *L, struct hog_block *b, tree v, enum tree_code code)
{
	enum tree_code cmp;
	tree x, t;

	if (expect_compare(v, code, false, &cmp, &x, &t))
		batch_cond(L, b, x, t, cmp);
}

/* Is w the address a or one that holds it (a's object, a struct around it)? */
static bool covers(const char *w, const char *a)
{
	return w && *w && hog_expr_has_prefix(a, w);
}

static const char *fill_address(struct lower *L, gcall *c)
{
	tree fn = gimple_call_fndecl(c);
	struct hog_val v;

	if (!gimple_call_num_args(c) || !fn || !DECL_NAME(fn) ||
	    !hog_call_fills(IDENTIFIER_POINTER(DECL_NAME(fn))))
		return NULL;
	v = lh_value(L->m, gimple_call_arg(c, 0));
	return v.kind == HV_ADDR ? v.addr : NULL;
}

/* memset(o, ...), memcpy(o, ...): the call writes what its first argument points to */
static bool fills(struct lower *L, gcall *c, const char *addr)
{
	return covers(fill_address(L, c), addr);
}

/*
 * Does the function write the memory that address names, or the object
 * or struct around it (an assignment, an asm output, a memset()), or
 * take its address or theirs (for a call, or a pointer it writes
 * through)?
 */
static bool written(struct lower *L, const char *addr)
{
	basic_block bb;

	FOR_EACH_BB_FN(bb, cfun)
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			unsigned i;

			if (gasm *am = dyn_cast<gasm *>(s)) {
				for (i = 0; i < gimple_asm_noutputs(am); i++)
					if (covers(lh_address(L->m, TREE_VALUE(gimple_asm_output_op(am, i))),
						   addr))
						return true;
				continue;
			}
			if (gcall *c = dyn_cast<gcall *>(s))
				if (fills(L, c, addr))
					return true;
			if (gassign *as = dyn_cast<gassign *>(s)) {
				tree l = gimple_assign_lhs(as);

				if (TREE_CODE(l) != SSA_NAME && covers(lh_address(L->m, l), addr))
					return true;
			}
			for (i = 0; i < gimple_num_ops(s); i++) {
				tree op = gimple_op(s, i);

				if (op && TREE_CODE(op) == ADDR_EXPR &&
				    covers(lh_address(L->m, TREE_OPERAND(op, 0)), addr))
					return true;
			}
		}
	return false;
}

/* A field of a union, at any level: its bytes are other members' too. */
static bool in_union(tree r)
{
	for (; handled_component_p(r); r = TREE_OPERAND(r, 0))
		if (TREE_CODE(r) == COMPONENT_REF &&
		    TREE_CODE(TREE_TYPE(TREE_OPERAND(r, 0))) == UNION_TYPE)
			return true;
	return false;
}

/*
 * "if (mapping->host != NULL)" again after a call: GCC reads the field
 * again.  A "load" names the field the tested value was read from, so
 * that the core takes the second test the way the first went: only a
 * plain (not volatile) read, outside loops, of a field of something
 * other than a local, not in a union nor an array, that the function
 * does not write or hand out (written()).
 */
static void load_copy(struct lower *L, struct hog_block *b, tree l, int v)
{
	struct hog_event *e;
	const char *a;
	basic_block bb;
	gassign *as;
	tree r;

	if (TREE_CODE(l) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(l) ||
	    SSA_NAME_VERSION(l) != (unsigned)v)
		return;
	bb = gimple_bb(SSA_NAME_DEF_STMT(l));
	if (!bb || bb_loop_depth(bb) || (bb->flags & BB_IRREDUCIBLE_LOOP))
		return;
	as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(l));
	if (!as || !gimple_assign_single_p(as) || !gimple_vuse(as) || gimple_has_volatile_ops(as))
		return;
	r = gimple_assign_rhs1(as);
	if (TREE_CODE(r) != COMPONENT_REF || in_union(r) || !(a = lh_address(L->m, r)) ||
	    a[0] == '%' || strpbrk(a, "[#") || written(L, a))
		return;
	e = hog_block_add_event(L->m, b, HE_ASSIGN, L->line, L->col, "load", v, 2);
	memset(e->args, 0, 2 * sizeof(e->args[0]));
	e->args[0].kind = HV_UNKNOWN;
	e->args[1].kind = HV_ADDR;
	e->args[1].addr = a;
}

/* A test of l against zero: succ[0] is where l is non-zero (code NE_EXPR), or zero (EQ_EXPR). */
static void zero_test(struct lower *L, struct hog_block *b, tree l, enum tree_code code)
{
	int v;

	expect_batch(L, b, l, code);
	if (b->cond != HC_NONE)
		return;
	l = bool_not_param(l, &code);
	v = lh_cond_var(l);
	if (v < 0)
		return;
	b->cond = code == NE_EXPR ? HC_NEZ : HC_EQZ;
	b->cond_var = v;
	param_copy(L, b, l, v);
	load_copy(L, b, l, v);
	/* the core matches "if (locked)" to unlock(locked) by name */
	if (TREE_CODE(l) == SSA_NAME && SSA_NAME_VAR(l) && DECL_NAME(SSA_NAME_VAR(l)))
		hog_func_set_vname(L->m, L->f, v, IDENTIFIER_POINTER(DECL_NAME(SSA_NAME_VAR(l))));
}

static bool truth_value(tree t)
{
	return TREE_CODE(t) == SSA_NAME && TREE_CODE(TREE_TYPE(t)) == BOOLEAN_TYPE;
}

/*
 * GCC folds "if (ret && slow_ms)" of simple operands into one test of
 * "_1 & _2" on two truth values (fold_truth_andor(): no branch for the
 * second), and "||" into "_1 | _2".  It is two tests, as the source and
 * lockhog-check have it: the block tests the first, a synthetic block
 * after the function's (as a switch's tests are) the second.  Returns
 * BIT_AND_EXPR or BIT_IOR_EXPR and the operands, else ERROR_MARK.
 */
static enum tree_code truth_pair(basic_block bb, tree *x, tree *y)
{
	gimple *last = last_stmt(bb);
	gcond *c = last ? dyn_cast<gcond *>(last) : NULL;
	tree l = c ? gimple_cond_lhs(c) : NULL_TREE;
	gassign *as;
	edge t, f;

	if (!c || (gimple_cond_code(c) != NE_EXPR && gimple_cond_code(c) != EQ_EXPR) ||
	    !integer_zerop(gimple_cond_rhs(c)) || !truth_value(l) || SSA_NAME_IS_DEFAULT_DEF(l))
		return ERROR_MARK;
	as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(l));
	if (!as || (gimple_assign_rhs_code(as) != BIT_AND_EXPR &&
		    gimple_assign_rhs_code(as) != BIT_IOR_EXPR))
		return ERROR_MARK;
	*x = gimple_assign_rhs1(as);
	*y = gimple_assign_rhs2(as);
	extract_true_false_edges_from_block(bb, &t, &f);
	if (!truth_value(*x) || !truth_value(*y) || t->dest == EXIT_BLOCK_PTR_FOR_FN(cfun) ||
	    f->dest == EXIT_BLOCK_PTR_FOR_FN(cfun))
		return ERROR_MARK;
	return gimple_assign_rhs_code(as);
}

/*
 * The chain of the two tests: "x & y" is non-zero past x's non-zero way
 * and y's, "x | y" past either; the rest is zero.
 */
static void lower_pair(struct lower *L, basic_block bb, struct hog_block *b)
{
	struct hog_block *s = &L->f->blocks[L->swfirst[bb->index]];
	gcond *c = as_a<gcond *>(last_stmt(bb));
	int nz, z, sn = L->swfirst[bb->index], succ[2];
	enum tree_code op;
	edge t, f;
	tree x, y;

	op = truth_pair(bb, &x, &y);
	extract_true_false_edges_from_block(bb, &t, &f);
	nz = L->bbmap[t->dest->index];
	z = L->bbmap[f->dest->index];
	if (gimple_cond_code(c) == EQ_EXPR)
		std::swap(nz, z);
	zero_test(L, b, x, NE_EXPR);
	succ[0] = op == BIT_AND_EXPR ? sn : nz;
	succ[1] = op == BIT_AND_EXPR ? z : sn;
	hog_block_set_succ(L->m, b, 2, succ);
	zero_test(L, s, y, NE_EXPR);
	succ[0] = nz;
	succ[1] = z;
	hog_block_set_succ(L->m, s, 2, succ);
}

static void lower_cond(struct lower *L, struct hog_block *b, gcond *c)
{
	tree l = gimple_cond_lhs(c), r = gimple_cond_rhs(c);
	enum tree_code code = gimple_cond_code(c);

	if (L->pair[gimple_bb(c)->index])
		return;		/* lower_succs() lowers the two tests */
	if (code != EQ_EXPR && code != NE_EXPR) {
		batch_cond(L, b, l, r, code);
		if (b->cond == HC_NONE)
			range_cond(b, c);
		if (b->cond == HC_NONE)
			top_bit_cond(L, b, c);
		if (b->cond == HC_NONE)
			sign_cond(L, b, c);
		return;
	}
	if (!integer_zerop(r)) {
		if (!integer_zerop(l)) {
			const_cond(b, l, r);
			/* "!= -1" on a field with a floor (rules: bound min=), read here */
			if (b->cond == HC_EQK && read_here(ssa_name(b->cond_var), c))
				load_copy(L, b, ssa_name(b->cond_var), b->cond_var);
			return;
		}
		std::swap(l, r);
	}
	zero_test(L, b, l, code);
}

static void lower_stmts(struct lower *L, basic_block bb, struct hog_block *b)
{
	for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
		gimple *s = gsi_stmt(gsi);
		struct hog_event *e;

		lh_annot_before(L->m, b, s);
		where(L, s);
		switch (gimple_code(s)) {
		case GIMPLE_CALL:
			lower_call(L, b, as_a<gcall *>(s));
			break;
		case GIMPLE_ASM:
			lower_asm(L, b, as_a<gasm *>(s));
			break;
		case GIMPLE_ASSIGN:
			lower_assign(L, b, as_a<gassign *>(s));
			break;
		case GIMPLE_COND:
			lower_cond(L, b, as_a<gcond *>(s));
			break;
		case GIMPLE_RETURN: {
			tree rv = gimple_return_retval(as_a<greturn *>(s));

			e = hog_block_add_event(L->m, b, HE_RETURN, L->line, L->col, NULL,
						-1, rv ? 1 : 0);
			/* a guard constructor returns its class: the lock in it */
			if (rv && rv == L->guard_tmp)
				rv = L->guard_src;
			if (rv && guard_lock_place(L, rv))
				e->args[0] = guard_load(L, guard_lock_place(L, rv));
			else if (rv)
				e->args[0] = lh_value(L->m, rv);
			break;
		}
		default:
			break;
		}
	}
}

static void lower_phis(struct lower *L, basic_block bb, struct hog_block *b)
{
	for (gphi_iterator gsi = gsi_start_phis(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
		gphi *phi = gsi.phi();
		tree res = gimple_phi_result(phi);
		struct hog_phi *p;
		unsigned i, n = gimple_phi_num_args(phi);

		if (virtual_operand_p(res))
			continue;
		if (!INTEGRAL_TYPE_P(TREE_TYPE(res)) && !POINTER_TYPE_P(TREE_TYPE(res)))
			continue;
		p = hog_block_add_phi(L->m, b, SSA_NAME_VERSION(res), n);
		for (i = 0; i < n; i++) {
			edge e = gimple_phi_arg_edge(phi, i);

			p->pred[i] = L->bbmap[e->src->index];
			p->val[i] = lh_value(L->m, gimple_phi_arg_def(phi, i));
		}
	}
}

/* a switch of more cases than this keeps its plain successors: no tests */
#define SWITCH_TESTS 64

/*
 * switch (mode): a chain of HC_EQK tests, one per case label in order
 * (a GNU range is one range test), the last one's other way the default.
 * How many tests, or 0 when the switch is not one on an integer
 * variable with constant labels that fit.
 */
static int switch_tests(gswitch *sw)
{
	unsigned n = gimple_switch_num_labels(sw), i;

	if (n < 2 || n - 1 > SWITCH_TESTS || TREE_CODE(gimple_switch_index(sw)) != SSA_NAME ||
	    !INTEGRAL_TYPE_P(TREE_TYPE(gimple_switch_index(sw))))
		return 0;
	for (i = 1; i < n; i++) {
		tree c = gimple_switch_label(sw, i), lo = CASE_LOW(c);
		tree hi = CASE_HIGH(c) ? CASE_HIGH(c) : lo;

		if (!tree_fits_shwi_p(lo) || !tree_fits_shwi_p(hi))
			return 0;
	}
	return n - 1;
}

static int label_block(struct lower *L, tree label)
{
	basic_block d = label_to_block(cfun, CASE_LABEL(label));

	return d && d != EXIT_BLOCK_PTR_FOR_FN(cfun) ? L->bbmap[d->index] : -1;
}

/*
 * The chain: the switch's block tests the first label, each synthetic
 * block the next; an index that is a parameter as it came in gets its
 * "=" copy in the switch's block (param_copy()), so that the engine
 * learns which constants the cases take.
 */
static bool lower_switch(struct lower *L, basic_block bb, struct hog_block *b, gswitch *sw)
{
	int n = L->swn[bb->index], i, succ[2], def = label_block(L, gimple_switch_default_label(sw));
	tree x = widened_from(gimple_switch_index(sw));
	struct hog_block *t = b;

	if (!n || def < 0)
		return false;
	for (i = 1; i <= n; i++)
		if (label_block(L, gimple_switch_label(sw, i)) < 0)
			return false;
	param_copy(L, b, x, SSA_NAME_VERSION(x));
	for (i = 1; i <= n; i++) {
		tree c = gimple_switch_label(sw, i);

		t->cond = HC_EQK;
		t->cond_var = SSA_NAME_VERSION(x);
		t->cond_val = tree_to_shwi(CASE_LOW(c));
		t->cond_hi = tree_to_shwi(CASE_HIGH(c) ? CASE_HIGH(c) : CASE_LOW(c));
		succ[0] = label_block(L, c);
		succ[1] = i < n ? L->swfirst[bb->index] + i - 1 : def;
		hog_block_set_succ(L->m, t, 2, succ);
		if (i < n)
			t = &L->f->blocks[L->swfirst[bb->index] + i - 1];
	}
	return true;
}

/* v as a constant, through copies and conversions of one (size = 1) */
static tree const_value(tree v)
{
	int depth;

	for (depth = 0; depth < 8 && v && TREE_CODE(v) == SSA_NAME; depth++) {
		gassign *as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v));
		tree r;

		if (SSA_NAME_IS_DEFAULT_DEF(v) || !as)
			return NULL_TREE;
		r = gimple_assign_rhs1(as);
		if (!gimple_assign_single_p(as) && !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as)))
			return NULL_TREE;
		if (TREE_CODE(r) == INTEGER_CST)
			return fold_convert(TREE_TYPE(v), r);
		v = r;
	}
	return v && TREE_CODE(v) == INTEGER_CST ? v : NULL_TREE;
}

/*
 * A test of two constants before GCC's own propagation has run
 * (`size = 1; if (size == SWAPFILE_CLUSTER)` with THP_SWAP off): the
 * way it never takes is code the compiler deletes, so only the other
 * way is written.
 */
static bool lower_const_cond(struct lower *L, basic_block bb, struct hog_block *b,
			     gcond *c)
{
	tree l = const_value(gimple_cond_lhs(c)), r = const_value(gimple_cond_rhs(c)), v;
	edge t, f;
	int succ;

	if (!l || !r || !types_compatible_p(TREE_TYPE(l), TREE_TYPE(r)))
		return false;
	v = fold_binary(gimple_cond_code(c), boolean_type_node, l, r);
	if (!v || TREE_CODE(v) != INTEGER_CST)
		return false;
	extract_true_false_edges_from_block(bb, &t, &f);
	t = integer_zerop(v) ? f : t;
	b->cond = HC_NONE;
	if (t->dest == EXIT_BLOCK_PTR_FOR_FN(cfun)) {
		hog_block_set_succ(L->m, b, 0, NULL);
		return true;
	}
	succ = L->bbmap[t->dest->index];
	hog_block_set_succ(L->m, b, 1, &succ);
	return true;
}

static void lower_succs(struct lower *L, basic_block bb, struct hog_block *b)
{
	int *succ = XALLOCAVEC(int, EDGE_COUNT(bb->succs) + 2), n = 0;
	edge e;
	edge_iterator ei;
	gimple *last = last_stmt(bb);

	if (L->pair[bb->index]) {
		lower_pair(L, bb, b);
		return;
	}
	if (last && gimple_code(last) == GIMPLE_COND &&
	    lower_const_cond(L, bb, b, as_a<gcond *>(last)))
		return;
	if (last && gimple_code(last) == GIMPLE_COND && b->cond != HC_NONE) {
		edge t, f;

		extract_true_false_edges_from_block(bb, &t, &f);
		if (b->cond == HC_EQK && (gimple_cond_code(last) == NE_EXPR ||
		    gimple_cond_code(last) == GT_EXPR || gimple_cond_code(last) == GE_EXPR))
			std::swap(t, f);
		if (t->dest != EXIT_BLOCK_PTR_FOR_FN(cfun) &&
		    f->dest != EXIT_BLOCK_PTR_FOR_FN(cfun)) {
			succ[0] = L->bbmap[t->dest->index];
			succ[1] = L->bbmap[f->dest->index];
			hog_block_set_succ(L->m, b, 2, succ);
			return;
		}
		b->cond = HC_NONE;
	} else if (last && gimple_code(last) == GIMPLE_SWITCH &&
		   lower_switch(L, bb, b, as_a<gswitch *>(last))) {
		return;
	} else {
		b->cond = HC_NONE;
	}
	FOR_EACH_EDGE(e, ei, bb->succs) {
		if (e->dest == EXIT_BLOCK_PTR_FOR_FN(cfun))
			continue;
		succ[n++] = L->bbmap[e->dest->index];
	}
	hog_block_set_succ(L->m, b, n, succ);
}

/* ---- loops ---- */

/* Does v come from loading a field through base (possibly via casts and offsets)? */
static tree loaded_field(tree v, tree base, int depth)
{
	gassign *as;

	if (!v || TREE_CODE(v) != SSA_NAME || depth > 6)
		return NULL_TREE;
	as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v));
	if (!as)
		return NULL_TREE;
	if (gimple_assign_single_p(as)) {
		tree r = gimple_assign_rhs1(as);

		if (TREE_CODE(r) == SSA_NAME)
			return loaded_field(r, base, depth + 1);
		if (TREE_CODE(r) == COMPONENT_REF) {
			tree in = r;

			while (handled_component_p(in))
				in = TREE_OPERAND(in, 0);
			if (TREE_CODE(in) == MEM_REF && TREE_OPERAND(in, 0) == base)
				return TREE_OPERAND(r, 1);
		}
		return NULL_TREE;
	}
	if (CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as)) ||
	    gimple_assign_rhs_code(as) == POINTER_PLUS_EXPR)
		return loaded_field(gimple_assign_rhs1(as), base, depth + 1);
	return NULL_TREE;
}

/* next = parent_mem_cgroup(cur): a parent-call of the rules */
static bool parent_call(struct lower *L, tree next, tree cur)
{
	gcall *c;
	tree fn;

	next = next && TREE_CODE(next) == SSA_NAME ? next : NULL_TREE;
	if (!next)
		return false;
	c = dyn_cast<gcall *>(SSA_NAME_DEF_STMT(next));
	if (!c || !(fn = gimple_call_fndecl(c)) || gimple_call_num_args(c) < 1)
		return false;
	return gimple_call_arg(c, 0) == cur &&
	       hog_rules_is_parent_call(L->rules, IDENTIFIER_POINTER(DECL_NAME(fn)));
}

/* Is v what a call returned, through copies and phis of such values and constants? */
static bool from_call(tree v, int depth)
{
	while (v && TREE_CODE(v) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF(v) && depth < 8) {
		gimple *d = SSA_NAME_DEF_STMT(v);

		if (gimple_code(d) == GIMPLE_CALL || gimple_code(d) == GIMPLE_ASM)
			return true;
		if (gphi *phi = dyn_cast<gphi *>(d)) {
			unsigned i;

			for (i = 0; i < gimple_phi_num_args(phi); i++) {
				tree a = gimple_phi_arg_def(phi, i);

				if (TREE_CODE(a) != INTEGER_CST && !from_call(a, depth + 1))
					return false;
			}
			return true;
		}
		if (!is_gimple_assign(d))
			return false;
		v = gimple_assign_rhs1(d);
		depth++;
	}
	return false;
}

/* Every way out of the loop tests what a call returned: a retry loop. */
static bool exits_on_calls(class loop *loop)
{
	auto_vec<edge> exits = get_loop_exit_edges(loop);
	unsigned i;
	edge e;

	if (exits.is_empty())
		return false;
	FOR_EACH_VEC_ELT(exits, i, e) {
		gimple *last = last_stmt(e->src);

		if (!last || gimple_code(last) != GIMPLE_COND)
			return false;
		if (!from_call(gimple_cond_lhs(last), 0))
			return false;
	}
	return true;
}

/* next = cur->parent: a parent-field of the rules (STRUCT.FIELD, by tag) */
static bool parent_field(struct lower *L, tree field)
{
	tree rec = DECL_CONTEXT(field);

	return rec && DECL_NAME(field) && TREE_CODE(rec) == RECORD_TYPE &&
	       hog_rules_is_parent_field(L->rules, struct_tag(rec),
					 IDENTIFIER_POINTER(DECL_NAME(field)));
}

static enum hog_loop_shape loop_shape(struct lower *L, class loop *loop)
{
	enum hog_loop_shape shape = HL_OTHER;
	edge latch = loop_latch_edge(loop);
	int carried = 0;

	for (gphi_iterator gsi = gsi_start_phis(loop->header); !gsi_end_p(gsi); gsi_next(&gsi)) {
		gphi *phi = gsi.phi();
		tree res = gimple_phi_result(phi), next, field;

		if (virtual_operand_p(res))
			continue;
		next = PHI_ARG_DEF_FROM_EDGE(phi, latch);
		if (next != res)
			carried++;
		if (POINTER_TYPE_P(TREE_TYPE(res))) {
			if (parent_call(L, next, res))
				return HL_PARENT_WALK;
			field = loaded_field(next, res, 0);
			if (field && parent_field(L, field))
				return HL_PARENT_WALK;
			if (field)
				shape = HL_PTRCHASE;
		} else if (shape == HL_OTHER && INTEGRAL_TYPE_P(TREE_TYPE(res))) {
			affine_iv iv;

			if (simple_iv(loop, loop, res, &iv, true) && iv.step &&
			    TREE_CODE(iv.step) == INTEGER_CST)
				shape = HL_COUNTED;
		}
	}
	return !carried && exits_on_calls(loop) ? HL_RETRY : shape;
}

/* A loop is where its header tests, or failing that its first located statement. */
static void loop_where(struct lower *L, class loop *loop, int *line, int *col)
{
	gimple *last = last_stmt(loop->header);
	location_t loc;
	basic_block *body;
	unsigned i;

	*line = 0;
	*col = 0;
	if (last && gimple_code(last) == GIMPLE_COND &&
	    lh_user_loc(gimple_location(last), &loc, line, col)) {
		lh_locs_note(L->locs, L->file, *line, *col, loc);
		return;
	}
	body = get_loop_body_in_dom_order(loop);
	for (i = 0; i < loop->num_nodes && !*line; i++)
		for (gimple_stmt_iterator g = gsi_start_bb(body[i]); !gsi_end_p(g); gsi_next(&g))
			if (lh_user_loc(gimple_location(gsi_stmt(g)), &loc, line, col)) {
				lh_locs_note(L->locs, L->file, *line, *col, loc);
				break;
			}
	free(body);
}

/* An integer constant behind copies and conversions, as niter cannot see pre-CCP. */
static bool const_value(tree t, HOST_WIDE_INT *v)
{
	int n = 0;

	while (t && TREE_CODE(t) == SSA_NAME && n++ < 8) {
		gassign *as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(t));

		if (!as || !(gimple_assign_single_p(as) ||
			     CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as))))
			return false;
		t = gimple_assign_rhs1(as);
	}
	if (!t || TREE_CODE(t) != INTEGER_CST || !tree_fits_shwi_p(t))
		return false;
	*v = tree_to_shwi(t);
	return true;
}

static bool holds(enum tree_code c, HOST_WIDE_INT a, HOST_WIDE_INT b)
{
	switch (c) {
	case EQ_EXPR: return a == b;
	case NE_EXPR: return a != b;
	case LT_EXPR: return a < b;
	case LE_EXPR: return a <= b;
	case GT_EXPR: return a > b;
	case GE_EXPR: return a >= b;
	default: return false;
	}
}

/* The one value every argument of phi is, else NULL. */
static tree same_args(gphi *phi)
{
	tree a = gimple_phi_num_args(phi) ? gimple_phi_arg_def(phi, 0) : NULL_TREE;
	unsigned i;

	for (i = 1; a && i < gimple_phi_num_args(phi); i++)
		if (gimple_phi_arg_def(phi, i) != a)
			return NULL_TREE;
	return a;
}

/* x = x + CST around the loop, through copies: SCEV wants more than we have pre-CCP. */
static bool phi_step(class loop *loop, gphi *phi, HOST_WIDE_INT *step)
{
	tree res = gimple_phi_result(phi);
	tree v = PHI_ARG_DEF_FROM_EDGE(phi, loop_latch_edge(loop));
	int n = 0;

	while (v && TREE_CODE(v) == SSA_NAME && n++ < 8) {
		gassign *as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v));
		gphi *merge = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(v));
		enum tree_code code;
		tree a;

		/* two "goto again"s meet in one latch: the value both bring */
		if (merge && merge != phi && (a = same_args(merge))) {
			v = a;
			continue;
		}
		if (!as)
			return false;
		code = gimple_assign_rhs_code(as);
		if (gimple_assign_single_p(as) || CONVERT_EXPR_CODE_P(code)) {
			v = gimple_assign_rhs1(as);
			continue;
		}
		if (code != PLUS_EXPR && code != MINUS_EXPR)
			return false;
		if (!const_value(gimple_assign_rhs2(as), step))
			return false;
		if (code == MINUS_EXPR)
			*step = -*step;
		/* the other operand must be the phi itself, maybe through copies */
		a = gimple_assign_rhs1(as);
		while (a != res && a && TREE_CODE(a) == SSA_NAME) {
			gassign *c = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(a));

			if (!c || !(gimple_assign_single_p(c) ||
				    CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(c))))
				return false;
			a = gimple_assign_rhs1(c);
		}
		return a == res && *step != 0;
	}
	return false;
}

/* Is x, an unsigned value, not zero in block bb: entered only on the way a test of it says so? */
static bool tested_nonzero(basic_block bb, tree x)
{
	gcond *c;
	edge e;

	if (!single_pred_p(bb))
		return false;
	e = single_pred_edge(bb);
	c = safe_dyn_cast<gcond *>(last_stmt(e->src));
	if (!c || !integer_zerop(gimple_cond_rhs(c)) ||
	    strip_copies(gimple_cond_lhs(c)) != strip_copies(x))
		return false;
	if (gimple_cond_code(c) == NE_EXPR)
		return !!(e->flags & EDGE_TRUE_VALUE);
	if (gimple_cond_code(c) == EQ_EXPR)
		return !!(e->flags & EDGE_FALSE_VALUE);
	return false;
}

/*
 * v, brought round the loop on edge e, is res plus a constant of at
 * least 1, or plus an unsigned count a test on the way said is not
 * zero (taken as not wrapping, as bounds take counts as not negative).
 */
static bool adds_one_at_least(tree v, edge e, tree res)
{
	gassign *as;
	HOST_WIDE_INT c;
	tree a, b;

	v = strip_copies(v);
	as = v && TREE_CODE(v) == SSA_NAME ? dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v)) : NULL;
	if (!as || gimple_assign_rhs_code(as) != PLUS_EXPR)
		return false;
	a = gimple_assign_rhs1(as);
	b = gimple_assign_rhs2(as);
	if (strip_copies(a) != res)
		std::swap(a, b);
	if (strip_copies(a) != res)
		return false;
	if (const_value(b, &c))
		return c >= 1;
	return TREE_CODE(b) == SSA_NAME && INTEGRAL_TYPE_P(TREE_TYPE(b)) &&
	       TYPE_UNSIGNED(TREE_TYPE(b)) &&
	       (tested_nonzero(e->src, b) || tested_nonzero(gimple_bb(as), b));
}

/*
 * "i += longs" when longs != 0, else "i++" (extract_entropy()'s rdseed
 * loop): every way round, met in the latch, moves the counter up by at
 * least one.  *step = 1 then bounds the rounds for an ordered exit.
 */
static bool phi_min_step_up(class loop *loop, gphi *phi, HOST_WIDE_INT *step)
{
	tree res = gimple_phi_result(phi);
	tree v = strip_copies(PHI_ARG_DEF_FROM_EDGE(phi, loop_latch_edge(loop)));
	gphi *merge;
	unsigned i;

	if (!v || TREE_CODE(v) != SSA_NAME)
		return false;
	merge = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(v));
	if (!merge || merge == phi || !gimple_phi_num_args(merge))
		return false;
	for (i = 0; i < gimple_phi_num_args(merge); i++)
		if (!adds_one_at_least(gimple_phi_arg_def(merge, i), gimple_phi_arg_edge(merge, i), res))
			return false;
	*step = 1;
	return true;
}

/*
 * scoped_guard() of cleanup.h: "for (..., *done = NULL; ... && !done;
 * done = (void *)1)", a pointer that starts at one constant and is set
 * to another on the way round.  The exit, taken on the first test or
 * on the second, bounds the loop at 0 or 1 latch executions.
 */
static long long once_exit(class loop *loop, edge e, gphi *phi, enum tree_code code,
			   HOST_WIDE_INT rv)
{
	HOST_WIDE_INT init, next;
	bool taken = !!(e->flags & EDGE_TRUE_VALUE);

	if (!const_value(PHI_ARG_DEF_FROM_EDGE(phi, loop_preheader_edge(loop)), &init) ||
	    !const_value(PHI_ARG_DEF_FROM_EDGE(phi, loop_latch_edge(loop)), &next))
		return -1;
	if (holds(code, init, rv) == taken)
		return 0;
	return holds(code, next, rv) == taken ? 1 : -1;
}

/*
 * "if (RB_WARN_ON(b, ++nr_loops > 2))": the exit tests "ret != 0" for
 * ret = __builtin_expect(nr_loops > 2, 0), through conversions and
 * copies.  The comparison inside, in *code, *l and *r; left alone if
 * there is none.
 */
static void tested_compare(enum tree_code *code, tree *l, tree *r)
{
	enum tree_code cmp;
	tree a, b;

	if ((*code != NE_EXPR && *code != EQ_EXPR) || !integer_zerop(*r))
		return;
	if (!expect_compare(*l, *code, true, &cmp, &a, &b))
		return;
	*code = cmp;
	*l = a;
	*r = b;
}

static bool ordered_code(enum tree_code code)
{
	return code == LT_EXPR || code == LE_EXPR || code == GT_EXPR || code == GE_EXPR;
}

/*
 * "while (tries--)" and "for (i = 10; i; i--)": an exit tested on a
 * header phi that starts at a constant and moves by a constant step.
 * Pre-inline, before constant propagation, GCC's niter analysis often
 * cannot see the start value; count the rounds ourselves, up to a cap.
 */
static long long exit_count(class loop *loop, edge e)
{
	gimple *last = last_stmt(e->src);
	gcond *c = last ? dyn_cast<gcond *>(last) : NULL;
	enum tree_code code;
	tree l, r, v;
	HOST_WIDE_INT rv, init, step, add = 0;
	gphi *phi = NULL;
	long long k;

	if (!c || !dominated_by_p(CDI_DOMINATORS, loop->latch, e->src))
		return -1;
	code = gimple_cond_code(c);
	l = gimple_cond_lhs(c);
	r = gimple_cond_rhs(c);
	tested_compare(&code, &l, &r);
	if (!const_value(r, &rv)) {
		if (!const_value(l, &rv))
			return -1;
		std::swap(l, r);
		code = swap_tree_comparison(code);
	}
	/* the tested value, through copies, is a header phi */
	v = l;
	while (v && TREE_CODE(v) == SSA_NAME && !phi) {
		gimple *d = SSA_NAME_DEF_STMT(v);

		if (gimple_code(d) == GIMPLE_PHI && gimple_bb(d) == loop->header)
			phi = as_a<gphi *>(d);
		else if (is_gimple_assign(d) && (gimple_assign_single_p(d) ||
			 CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(d))))
			v = gimple_assign_rhs1(d);
		/* "++nr_loops > 2": the phi plus one is tested */
		else if (is_gimple_assign(d) && gimple_assign_rhs_code(d) == PLUS_EXPR && !add &&
			 const_value(gimple_assign_rhs2(d), &add) && add && add > -4096 && add < 4096)
			v = gimple_assign_rhs1(d);
		else
			break;
	}
	if (phi && POINTER_TYPE_P(TREE_TYPE(v)))
		return once_exit(loop, e, phi, code, rv);
	if (!phi || !INTEGRAL_TYPE_P(TREE_TYPE(v)))
		return -1;
	if (!const_value(PHI_ARG_DEF_FROM_EDGE(phi, loop_preheader_edge(loop)), &init))
		return -1;
	/* a step of at least one bounds only an exit past a threshold */
	if (!phi_step(loop, phi, &step) &&
	    (!ordered_code(code) || add || !phi_min_step_up(loop, phi, &step)))
		return -1;
	/* the exit is taken when the condition matches the edge's sense */
	for (k = 0; k <= 4096; k++) {
		HOST_WIDE_INT val = init + k * step + add;
		bool t = holds(code, val, rv);

		if (t == !!(e->flags & EDGE_TRUE_VALUE))
			return k;
	}
	return -1;
}

/*
 * Bounds the code implies (rules/README.md, "bound"): the most a value
 * can be, from constants, the caps the rules give a call's result or a
 * field (folio_batch_count() <= 15, pcp->batch <= 63), and the
 * arithmetic between them.  Values are taken as not negative: counts,
 * sizes and orders.  -1 when unknown.
 *
 * A value that feeds itself round a loop ("limit >>= 1" on every round)
 * is a phi met again while its own arguments are being capped.  Through
 * operations that never raise a value (shifts right, divisions, MIN, MAX
 * with a capped value, copies) every value of the cycle is at most the
 * cycle's phi or an input from outside, so by induction the phi is at
 * most the largest outside input.  Anything that can raise it (PLUS,
 * MULT, LSHIFT of a cycle value) leaves it unknown.
 */
#define CAP_DEPTH 16		/* definitions followed from the value asked about */
#define CAP_STEPS 512		/* values looked at per question: phi diamonds multiply */
#define CAP_MAX (1LL << 40)
#define CAP_NOCYC INT_MAX

/*
 * A value is at most max(max, the phi open at index cyc); cyc CAP_NOCYC:
 * at most max.  max -1: unknown.
 */
struct cap {
	long long max;
	int cyc;
};

struct cap_walk {
	int steps;
	int nopen;
	gphi *open[CAP_DEPTH + 1];	/* phis whose arguments are being capped */
};

static const struct cap cap_unknown = { -1, CAP_NOCYC };

static struct cap cap_is(long long max)
{
	struct cap c = { max, CAP_NOCYC };

	return max < 0 ? cap_unknown : c;
}

static long long field_cap(struct lower *L, tree ref)
{
	tree field = TREE_OPERAND(ref, 1), rec = DECL_CONTEXT(field);

	if (!DECL_NAME(field) || !rec || TREE_CODE(rec) != RECORD_TYPE)
		return -1;
	return hog_rules_bound(L->rules, struct_tag(rec), IDENTIFIER_POINTER(DECL_NAME(field)));
}

static struct cap walk_cap(struct lower *L, struct cap_walk *w, tree v, int depth);

/*
 * READ_ONCE(pcp->batch): a volatile load through the field's address,
 * written in place (MEM[&pcp->batch]) or first taken into an SSA name
 * (_1 = &pcp->batch; MEM[_1]).  The field, or the reference unchanged.
 */
static tree loaded_place(tree ref)
{
	tree a = TREE_OPERAND(ref, 0);

	if (!integer_zerop(TREE_OPERAND(ref, 1)))
		return ref;
	if (TREE_CODE(a) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF(a)) {
		gimple *d = SSA_NAME_DEF_STMT(a);

		if (is_gimple_assign(d) && gimple_assign_single_p(d))
			a = gimple_assign_rhs1(d);
	}
	return TREE_CODE(a) == ADDR_EXPR ? TREE_OPERAND(a, 0) : ref;
}

/* MIN (and AND): at most either side; a side without the cycle settles it. */
static struct cap cap_min(struct cap a, struct cap b)
{
	if (a.max < 0)
		return b;
	if (b.max < 0)
		return a;
	if (a.cyc != b.cyc) {
		if (a.cyc == CAP_NOCYC || b.cyc == CAP_NOCYC)
			return a.cyc == CAP_NOCYC ? a : b;
		return a;
	}
	a.max = MIN(a.max, b.max);
	return a;
}

static struct cap cap_of_op(enum tree_code code, struct cap a, struct cap b)
{
	switch (code) {
	case MIN_EXPR:
	case BIT_AND_EXPR:
		return cap_min(a, b);
	case MAX_EXPR:
		if (a.max < 0 || b.max < 0)
			return cap_unknown;
		a.max = MAX(a.max, b.max);
		a.cyc = MIN(a.cyc, b.cyc);
		return a;
	case RSHIFT_EXPR:
	case TRUNC_DIV_EXPR:
		return a;
	default:
		break;
	}
	/* these can raise the value: a cycle through them has no cap */
	if (a.max < 0 || b.max < 0 || a.cyc != CAP_NOCYC || b.cyc != CAP_NOCYC)
		return cap_unknown;
	switch (code) {
	case PLUS_EXPR:
		return cap_is(a.max + b.max > CAP_MAX ? -1 : a.max + b.max);
	case MULT_EXPR:
		return cap_is(b.max && a.max > CAP_MAX / b.max ? -1 : a.max * b.max);
	case LSHIFT_EXPR:
		return cap_is(b.max > 40 || (a.max << b.max) > CAP_MAX ? -1 : a.max << b.max);
	default:
		return cap_unknown;
	}
}

static struct cap assign_cap(struct lower *L, struct cap_walk *w, gassign *as, int depth)
{
	enum tree_code code = gimple_assign_rhs_code(as);

	if (gimple_assign_single_p(as) || CONVERT_EXPR_CODE_P(code))
		return walk_cap(L, w, gimple_assign_rhs1(as), depth + 1);
	if (get_gimple_rhs_class(code) != GIMPLE_BINARY_RHS)
		return cap_unknown;
	return cap_of_op(code, walk_cap(L, w, gimple_assign_rhs1(as), depth + 1),
			 walk_cap(L, w, gimple_assign_rhs2(as), depth + 1));
}

/* A phi: the largest of its arguments; met again inside them, a cycle. */
static struct cap phi_cap(struct lower *L, struct cap_walk *w, gphi *phi, int depth)
{
	struct cap m = { 0, CAP_NOCYC }, c;
	int self = w->nopen, i;
	unsigned k;

	for (i = 0; i < w->nopen; i++)
		if (w->open[i] == phi) {
			m.cyc = i;
			return m;
		}
	if (w->nopen == CAP_DEPTH + 1)
		return cap_unknown;
	w->open[w->nopen++] = phi;
	for (k = 0; k < gimple_phi_num_args(phi); k++) {
		c = walk_cap(L, w, gimple_phi_arg_def(phi, k), depth + 1);
		if (c.max < 0) {
			m = cap_unknown;
			break;
		}
		m.max = MAX(m.max, c.max);
		m.cyc = MIN(m.cyc, c.cyc);
	}
	w->nopen--;
	/* a cycle back to this phi only: it is at most its outside inputs */
	if (m.cyc >= self)
		m.cyc = CAP_NOCYC;
	return m;
}

/*
 * A value of a type of 8 bits or fewer (a u8 count of ports, groups,
 * entries) is at most 255, whatever it was computed from.  -1 if wider.
 */
static long long type_cap(tree v)
{
	tree t = TREE_TYPE(v);

	return t && INTEGRAL_TYPE_P(t) && TYPE_PRECISION(t) <= 8 ? 255 : -1;
}

static struct cap walk_cap_1(struct lower *L, struct cap_walk *w, tree v, int depth);

static struct cap walk_cap(struct lower *L, struct cap_walk *w, tree v, int depth)
{
	struct cap c = walk_cap_1(L, w, v, depth);
	long long t = v ? type_cap(v) : -1;

	if (t >= 0 && (c.max < 0 || c.max > t))
		return cap_is(t);
	return c;
}

static struct cap walk_cap_1(struct lower *L, struct cap_walk *w, tree v, int depth)
{
	gimple *d;

	if (!v || depth > CAP_DEPTH || ++w->steps > CAP_STEPS)
		return cap_unknown;
	if (TREE_CODE(v) == INTEGER_CST)
		return cap_is(tree_fits_shwi_p(v) ? tree_to_shwi(v) : -1);
	if (TREE_CODE(v) == MEM_REF)
		v = loaded_place(v);
	if (TREE_CODE(v) == COMPONENT_REF)
		return cap_is(field_cap(L, v));
	if (TREE_CODE(v) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(v))
		return cap_unknown;
	d = SSA_NAME_DEF_STMT(v);
	if (gcall *c = dyn_cast<gcall *>(d)) {
		tree fn = gimple_call_fndecl(c);

		return cap_is(fn && DECL_NAME(fn) ?
			      hog_rules_bound(L->rules, NULL, IDENTIFIER_POINTER(DECL_NAME(fn))) : -1);
	}
	if (gphi *phi = dyn_cast<gphi *>(d))
		return phi_cap(L, w, phi, depth);
	if (gassign *as = dyn_cast<gassign *>(d))
		return assign_cap(L, w, as, depth);
	return cap_unknown;
}

static long long value_cap(struct lower *L, tree v)
{
	struct cap_walk w;
	struct cap c;

	w.steps = 0;
	w.nopen = 0;
	c = walk_cap(L, &w, v, 0);
	/* every phi opened was closed: no cycle is left open here */
	return c.cyc == CAP_NOCYC ? c.max : -1;
}

/* t through copies and conversions: the value they all carry. */
static tree strip_copies(tree t)
{
	while (t && TREE_CODE(t) == SSA_NAME) {
		gassign *as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(t));

		if (!as || !(gimple_assign_single_p(as) ||
			     CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as))))
			break;
		t = gimple_assign_rhs1(as);
	}
	return t;
}

/* The header phi t is, through copies and conversions; NULL if none. */
static gphi *header_iv(class loop *loop, tree t)
{
	gimple *d;

	t = strip_copies(t);
	if (!t || TREE_CODE(t) != SSA_NAME)
		return NULL;
	d = SSA_NAME_DEF_STMT(t);
	return gimple_code(d) == GIMPLE_PHI && gimple_bb(d) == loop->header ?
	       as_a<gphi *>(d) : NULL;
}

/* An unsigned counter's "- 1" is "+ UINT_MAX" in GIMPLE: the step as a signed one. */
static HOST_WIDE_INT signed_step(tree type, HOST_WIDE_INT step)
{
	unsigned prec = TYPE_PRECISION(type);

	if (TYPE_UNSIGNED(type) && prec < 64 && step >= (HOST_WIDE_INT)1 << (prec - 1))
		step -= (HOST_WIDE_INT)1 << prec;
	return step;
}

/* The most a tested "i + k" may add to the counter i (order_scanned++ before the test) */
#define IV_OFFSET_MAX 64

/*
 * "scanned++; ...; if (scanned >= limit) break;": the test is on the
 * counter plus a small constant, not on the header phi.  The counter
 * without it (a value at most the tested one), or t unchanged.
 */
static tree plus_base(tree t)
{
	gimple *d = t && TREE_CODE(t) == SSA_NAME ? SSA_NAME_DEF_STMT(t) : NULL;
	tree k;
	HOST_WIDE_INT off;

	if (!d || !is_gimple_assign(d) || gimple_assign_rhs_code(d) != PLUS_EXPR)
		return t;
	k = gimple_assign_rhs2(d);
	if (!const_value(k, &off))
		return t;
	off = signed_step(TREE_TYPE(k), off);
	return off >= 0 && off <= IV_OFFSET_MAX ? gimple_assign_rhs1(d) : t;
}

/*
 * "for (i = 0; i < folio_batch_count(fb); i++)", "while (count--)" with
 * count capped: an exit on every round that tests an induction variable
 * against a capped value (counting up), or one that starts capped
 * (counting down).  The rounds are at most the cap over the step (the
 * counter starts at 0 or more when it counts up, and stops at 0 or more
 * when it counts down).
 */
static long long exit_cap(struct lower *L, class loop *loop, edge e)
{
	gimple *last = last_stmt(e->src);
	gcond *c = last ? dyn_cast<gcond *>(last) : NULL;
	HOST_WIDE_INT step;
	long long cap;
	int k;

	if (!c || !dominated_by_p(CDI_DOMINATORS, loop->latch, e->src))
		return -1;
	for (k = 0; k < 2; k++) {
		tree iv = k ? gimple_cond_rhs(c) : gimple_cond_lhs(c);
		tree other = k ? gimple_cond_lhs(c) : gimple_cond_rhs(c);
		gphi *phi = header_iv(loop, iv);
		/* i + k >= cap leaves no later than i >= cap would, counting up */
		bool plus = !phi && (phi = header_iv(loop, plus_base(iv)));

		if (!phi || !phi_step(loop, phi, &step))
			continue;
		step = signed_step(TREE_TYPE(gimple_phi_result(phi)), step);
		if (plus && step <= 0)
			continue;
		if (step > 0)
			cap = value_cap(L, other);
		else
			cap = value_cap(L, PHI_ARG_DEF_FROM_EDGE(phi, loop_preheader_edge(loop)));
		if (cap >= 0)
			return cap / (step > 0 ? step : -step);
	}
	return -1;
}

/*
 * Containers that grow with the machine or the workload (rules/README.md,
 * "scales"): does t depend on a global, a STRUCT.FIELD or a call's result
 * the rules name?  The walk follows SSA copies, casts, pointer offsets,
 * loads, addresses, phis and call arguments, within a budget of steps;
 * not integer arithmetic (scan += folio_nr_pages(lru_to_folio(src))
 * counts what it took from a list, it does not walk it).
 */
#define SCALES_STEPS 64
#define SCALES_PHIS 16

struct scales_walk {
	int budget;
	int nphis;
	gimple *phis[SCALES_PHIS];	/* followed already: a cycle ends here */
};

static bool scales_ref(struct lower *L, tree t, struct scales_walk *w);

static bool scales_def(struct lower *L, gimple *d, struct scales_walk *w)
{
	unsigned i;
	int k;

	if (gcall *c = dyn_cast<gcall *>(d)) {
		tree fn = gimple_call_fndecl(c);

		if (fn && DECL_NAME(fn) &&
		    hog_rules_scales(L->rules, NULL, IDENTIFIER_POINTER(DECL_NAME(fn))))
			return true;
		for (i = 0; i < gimple_call_num_args(c); i++)
			if (scales_ref(L, gimple_call_arg(c, i), w))
				return true;
		return false;
	}
	if (gphi *phi = dyn_cast<gphi *>(d)) {
		for (k = 0; k < w->nphis; k++)
			if (w->phis[k] == d)
				return false;
		if (w->nphis == SCALES_PHIS)
			return false;
		w->phis[w->nphis++] = d;
		for (i = 0; i < gimple_phi_num_args(phi); i++)
			if (scales_ref(L, gimple_phi_arg_def(phi, i), w))
				return true;
		return false;
	}
	/* copies, casts and container_of(): not arithmetic, which counts, not walks */
	if (is_gimple_assign(d) && (gimple_assign_single_p(d) ||
				    CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(d)) ||
				    gimple_assign_rhs_code(d) == POINTER_PLUS_EXPR))
		return scales_ref(L, gimple_assign_rhs1(d), w);
	return false;
}

static bool scales_ref(struct lower *L, tree t, struct scales_walk *w)
{
	while (t && w->budget-- > 0) {
		switch (TREE_CODE(t)) {
		case SSA_NAME:
			if (SSA_NAME_IS_DEFAULT_DEF(t))
				return false;
			return scales_def(L, SSA_NAME_DEF_STMT(t), w);
		case VAR_DECL:
			return (TREE_STATIC(t) || DECL_EXTERNAL(t)) && DECL_NAME(t) &&
			       hog_rules_scales(L->rules, NULL, IDENTIFIER_POINTER(DECL_NAME(t)));
		case COMPONENT_REF: {
			tree f = TREE_OPERAND(t, 1), rec = DECL_CONTEXT(f);

			if (DECL_NAME(f) && rec && TREE_CODE(rec) == RECORD_TYPE &&
			    hog_rules_scales(L->rules, struct_tag(rec),
					     IDENTIFIER_POINTER(DECL_NAME(f))))
				return true;
			t = TREE_OPERAND(t, 0);
			break;
		}
		case ADDR_EXPR: case MEM_REF: case ARRAY_REF: case BIT_FIELD_REF:
		case VIEW_CONVERT_EXPR: case NOP_EXPR: case POINTER_PLUS_EXPR:
			t = TREE_OPERAND(t, 0);
			break;
		default:
			return false;
		}
	}
	return false;
}

/*
 * Does t move with the loop: a header phi of it, through copies,
 * arithmetic, addresses and loads (&pos->lru), or a call made on one
 * (find_next_bit(mask, size, bit))?  Array indices are not followed:
 * list_empty(&h->lists[node]) tests one list per round, it walks none.
 */
#define MOVES_DEPTH 6

static bool moves_with(class loop *loop, tree t, int depth)
{
	gimple *d;
	unsigned i;

	while (t) {
		switch (TREE_CODE(t)) {
		case ADDR_EXPR: case MEM_REF: case ARRAY_REF: case COMPONENT_REF:
		case NOP_EXPR: case VIEW_CONVERT_EXPR:
			t = TREE_OPERAND(t, 0);
			continue;
		case SSA_NAME:
			break;
		default:
			return false;
		}
		/* a step is one definition followed: member accesses are free */
		if (depth++ >= MOVES_DEPTH || SSA_NAME_IS_DEFAULT_DEF(t))
			return false;
		d = SSA_NAME_DEF_STMT(t);
		if (gimple_code(d) == GIMPLE_PHI)
			return gimple_bb(d) == loop->header;
		if (gcall *c = dyn_cast<gcall *>(d)) {
			for (i = 0; i < gimple_call_num_args(c); i++)
				if (moves_with(loop, gimple_call_arg(c, i), depth))
					return true;
			return false;
		}
		if (!is_gimple_assign(d))
			return false;
		for (i = 2; i < gimple_num_ops(d); i++)
			if (moves_with(loop, gimple_op(d, i), depth))
				return true;
		t = gimple_assign_rhs1(d);
	}
	return false;
}

/*
 * Does an exit of the loop test its moving value against a container
 * that grows with the machine (the list head, nr_cpu_ids), or a moving
 * value that comes from one (an iterator's result, head->next)?
 */
static bool loop_scales(struct lower *L, class loop *loop)
{
	auto_vec<edge> exits = get_loop_exit_edges(loop);
	unsigned i;
	edge e;
	int k, j;

	if (!L->rules->fe.scales.n)
		return false;
	FOR_EACH_VEC_ELT(exits, i, e) {
		gimple *last = last_stmt(e->src);
		gcond *c = last ? dyn_cast<gcond *>(last) : NULL;

		for (k = 0; c && k < 2; k++) {
			tree mv = k ? gimple_cond_rhs(c) : gimple_cond_lhs(c);

			if (!moves_with(loop, mv, 0))
				continue;
			for (j = 0; j < 2; j++) {
				struct scales_walk w = { SCALES_STEPS, 0, { NULL } };

				if (scales_ref(L, j ? gimple_cond_rhs(c) : gimple_cond_lhs(c), &w))
					return true;
			}
		}
	}
	return false;
}

/*
 * A walk along one table (rules/README.md, "bound", TYPE[]): a header
 * phi of type TYPE * advanced by one entry on every round ("pte++" in
 * the kernel's page-table walkers, which split their ranges at
 * pmd_addr_end() and so never leave the table) runs at most as many
 * rounds as the table has entries, the cap the rules give TYPE[].
 */
#define TABLE_NAME_MAX 128

static long long table_cap_of(struct lower *L, tree ptr_type)
{
	tree to = TREE_TYPE(ptr_type), name = TYPE_NAME(to);
	char key[TABLE_NAME_MAX];

	if (name && TREE_CODE(name) == TYPE_DECL)
		name = DECL_NAME(name);
	if (!name || TREE_CODE(name) != IDENTIFIER_NODE)
		return -1;
	snprintf(key, sizeof(key), "%s[]", IDENTIFIER_POINTER(name));
	return hog_rules_bound(L->rules, NULL, key);
}

/* Is phi's value round the loop phi + one TYPE entry, through copies? */
static bool steps_one_entry(class loop *loop, gphi *phi)
{
	tree res = gimple_phi_result(phi), size = TYPE_SIZE_UNIT(TREE_TYPE(TREE_TYPE(res)));
	tree v = PHI_ARG_DEF_FROM_EDGE(phi, loop_latch_edge(loop));
	HOST_WIDE_INT off;
	int n = 0;

	if (!size || !tree_fits_shwi_p(size))
		return false;
	while (v && TREE_CODE(v) == SSA_NAME && n++ < 8) {
		gassign *as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v));

		if (!as)
			return false;
		if (gimple_assign_rhs_code(as) == POINTER_PLUS_EXPR)
			return header_iv(loop, gimple_assign_rhs1(as)) == phi &&
			       const_value(gimple_assign_rhs2(as), &off) &&
			       off == tree_to_shwi(size);
		if (!gimple_assign_single_p(as) && !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as)))
			return false;
		v = gimple_assign_rhs1(as);
	}
	return false;
}

static long long table_cap(struct lower *L, class loop *loop)
{
	gphi_iterator gi;
	long long best = -1;

	if (!loop_latch_edge(loop))
		return -1;
	for (gi = gsi_start_phis(loop->header); !gsi_end_p(gi); gsi_next(&gi)) {
		gphi *phi = gi.phi();
		tree res = gimple_phi_result(phi);
		long long cap;

		if (!POINTER_TYPE_P(TREE_TYPE(res)) || !steps_one_entry(loop, phi))
			continue;
		cap = table_cap_of(L, TREE_TYPE(res));
		if (cap >= 0 && (best < 0 || cap < best))
			best = cap;
	}
	return best;
}

/*
 * A bitmap walk (rules/README.md, "iterator"): for_each_node_mask()'s
 * "node = __next_node(node, mask)" while node < MAX_NUMNODES, and
 * for_each_set_bit()'s "bit = find_next_bit(addr, size, bit), bit <
 * size; bit++".  The counter moves on by at least one every round and
 * the loop leaves at a constant, or at a value the rules cap
 * (ieee80211_hw.queues): at most that many rounds, plus one for
 * a start at -1.  iter_call(): t is an iterator's result on the header
 * phi; the phi, and *step the rule's.
 */
static gphi *iter_call(struct lower *L, class loop *loop, tree t, int *step)
{
	gcall *c;
	tree fn;
	int arg;

	t = strip_copies(t);
	if (!t || TREE_CODE(t) != SSA_NAME || !(c = dyn_cast<gcall *>(SSA_NAME_DEF_STMT(t))))
		return NULL;
	fn = gimple_call_fndecl(c);
	if (!fn || !DECL_NAME(fn))
		return NULL;
	arg = hog_rules_iterator(L->rules, IDENTIFIER_POINTER(DECL_NAME(fn)), step);
	if (arg < 0 || (unsigned)arg >= gimple_call_num_args(c))
		return NULL;
	return header_iv(loop, gimple_call_arg(c, arg));
}

/*
 * How far v is past the phi at least, through iterators and "+ k"
 * (k >= 0): for_each_clear_bitrange_from()'s "b = e + 1" with e =
 * find_next_bit(..., b' + 1) and b' = find_next_zero_bit(..., b) is
 * two.  -1 if v does not come from the phi that way.
 */
static int iter_advance(struct lower *L, tree v, gphi *phi, int depth)
{
	HOST_WIDE_INT add;
	gassign *as;
	gcall *c;
	tree fn;
	int arg, step, r;

	v = strip_copies(v);
	if (!v || TREE_CODE(v) != SSA_NAME || depth > 4)
		return -1;
	if (v == gimple_phi_result(phi))
		return 0;
	if ((as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v)))) {
		if (gimple_assign_rhs_code(as) != PLUS_EXPR ||
		    !const_value(gimple_assign_rhs2(as), &add) || add < 0 || add > 1)
			return -1;
		r = iter_advance(L, gimple_assign_rhs1(as), phi, depth + 1);
		return r < 0 ? -1 : r + (int)add;
	}
	c = dyn_cast<gcall *>(SSA_NAME_DEF_STMT(v));
	fn = c ? gimple_call_fndecl(c) : NULL_TREE;
	if (!fn || !DECL_NAME(fn))
		return -1;
	arg = hog_rules_iterator(L->rules, IDENTIFIER_POINTER(DECL_NAME(fn)), &step);
	if (arg < 0 || (unsigned)arg >= gimple_call_num_args(c))
		return -1;
	r = iter_advance(L, gimple_call_arg(c, arg), phi, depth + 1);
	return r < 0 ? -1 : r + step;
}

/* The least the phi moves on by round the loop through iterators, 0 if it may not. */
static int iter_moves(struct lower *L, class loop *loop, gphi *phi)
{
	int m = iter_advance(L, PHI_ARG_DEF_FROM_EDGE(phi, loop_latch_edge(loop)), phi, 0);

	return m > 0 ? m : 0;
}

/*
 * Rounds of a walk that leaves when its counter reaches k (k + 1 for
 * "<="), moving on by m a round: k plus one for a start at -1.  Moving
 * on by two or more (bit ranges), an unsigned counter starts at 0 or
 * above: ceil(k / m).
 */
static long long iter_rounds(gphi *phi, long long k, int m)
{
	if (m == 1)
		return k + 1;
	if (!TYPE_UNSIGNED(TREE_TYPE(gimple_phi_result(phi))))
		k++;
	return (k + m - 1) / m;
}

static long long iter_exit(struct lower *L, class loop *loop, edge e)
{
	gimple *last = last_stmt(e->src);
	gcond *c = last ? dyn_cast<gcond *>(last) : NULL;
	enum tree_code stay;
	HOST_WIDE_INT k;
	int n;

	if (!c || !dominated_by_p(CDI_DOMINATORS, loop->latch, e->src))
		return -1;
	stay = gimple_cond_code(c);
	if (e->flags & EDGE_TRUE_VALUE)
		stay = invert_tree_comparison(stay, false);
	for (n = 0; n < 2; n++) {
		tree x = n ? gimple_cond_rhs(c) : gimple_cond_lhs(c);
		enum tree_code code = n ? swap_tree_comparison(stay) : stay;
		gphi *phi = header_iv(loop, x);
		int step;

		tree lim = n ? gimple_cond_lhs(c) : gimple_cond_rhs(c);

		/* a constant, or a value the rules cap (hw->queues) */
		if (!const_value(lim, &k))
			k = value_cap(L, lim);
		if (k < 0 || k > (1 << 30) || (code != LT_EXPR && code != LE_EXPR))
			continue;
		if (!phi)
			phi = iter_call(L, loop, x, &step);
		if (phi && (step = iter_moves(L, loop, phi)))
			return iter_rounds(phi, k + (code == LE_EXPR), step);
	}
	return -1;
}

static long long iter_cap(struct lower *L, class loop *loop)
{
	auto_vec<edge> exits = get_loop_exit_edges(loop);
	long long best = -1, n;
	unsigned i;
	edge e;

	if (!L->rules->fe.iter_names.n || !loop_latch_edge(loop))
		return -1;
	FOR_EACH_VEC_ELT(exits, i, e)
		if ((n = iter_exit(L, loop, e)) >= 0 && (best < 0 || n < best))
			best = n;
	return best;
}

/* A plain parameter ($N, no step after it): N, else -1. */
static int plain_param(const struct hog_val *n)
{
	if (n->kind != HV_ADDR || hog_expr_param(n->addr) < 0 || strpbrk(n->addr + 1, "/^#["))
		return -1;
	return hog_expr_param(n->addr);
}

/*
 * n = 1 << (x - sub), through copies and casts: free_pages_prepare()'s
 * "i < (1 << order)", change_pageblock_range()'s "1 << (start_order -
 * pageblock_order)".  x, else NULL.
 */
static tree shift_count(tree n, int *sub)
{
	gassign *as;
	tree x;
	HOST_WIDE_INT k;

	n = strip_copies(n);
	if (!n || TREE_CODE(n) != SSA_NAME)
		return NULL_TREE;
	as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(n));
	if (!as || gimple_assign_rhs_code(as) != LSHIFT_EXPR ||
	    !integer_onep(gimple_assign_rhs1(as)))
		return NULL_TREE;
	*sub = 0;
	x = strip_copies(gimple_assign_rhs2(as));
	as = x && TREE_CODE(x) == SSA_NAME ? dyn_cast<gassign *>(SSA_NAME_DEF_STMT(x)) : NULL;
	/* x - 9 is x + 4294967287 in an unsigned int */
	if (as && gimple_assign_rhs_code(as) == PLUS_EXPR &&
	    const_value(gimple_assign_rhs2(as), &k)) {
		k = signed_step(TREE_TYPE(gimple_assign_rhs1(as)), k);
		if (k > -64 && k <= 0) {
			*sub = (int)-k;
			return gimple_assign_rhs1(as);
		}
	}
	return x;
}

static gassign *def_of(tree t, enum tree_code code);
static bool wrapped_const(tree t, HOST_WIDE_INT *v);

/*
 * "while (len) { i = min(len, 32); ...; len -= i; }" (extract_entropy()):
 * an unsigned counter that goes down by min(itself, C), C > 0, so by
 * one at least while it is not zero: no more rounds than it starts at.
 */
/* m is min(x, other) through copies: other, else NULL_TREE. */
static tree min_other(tree m, tree x)
{
	gassign *mn = def_of(m, MIN_EXPR);

	if (!mn)
		return NULL_TREE;
	if (strip_copies(gimple_assign_rhs1(mn)) == x)
		return gimple_assign_rhs2(mn);
	return strip_copies(gimple_assign_rhs2(mn)) == x ? gimple_assign_rhs1(mn) : NULL_TREE;
}

static bool min_step_down(class loop *loop, gphi *phi)
{
	tree res = gimple_phi_result(phi), o;
	gassign *sub = def_of(PHI_ARG_DEF_FROM_EDGE(phi, loop_latch_edge(loop)), MINUS_EXPR);
	HOST_WIDE_INT k;

	if (!sub || !TYPE_UNSIGNED(TREE_TYPE(res)) || strip_copies(gimple_assign_rhs1(sub)) != res)
		return false;
	o = min_other(gimple_assign_rhs2(sub), res);
	return o && const_value(o, &k) && k > 0;
}

/*
 * The loop leaves when phi is below t, on an exit that dominates the
 * latch ("if (len < CHACHA_BLOCK_SIZE) { ...; break; }"): the most such
 * t, 0 if none.
 */
static HOST_WIDE_INT exit_below(class loop *loop, gphi *phi)
{
	auto_vec<edge> exits = get_loop_exit_edges(loop);
	HOST_WIDE_INT best = 0, t;
	unsigned i;
	edge e;

	FOR_EACH_VEC_ELT(exits, i, e) {
		gcond *c = safe_dyn_cast<gcond *>(last_stmt(e->src));
		bool taken = !!(e->flags & EDGE_TRUE_VALUE);
		enum tree_code code;

		if (!c || !dominated_by_p(CDI_DOMINATORS, loop->latch, e->src) ||
		    header_iv(loop, gimple_cond_lhs(c)) != phi ||
		    !const_value(gimple_cond_rhs(c), &t))
			continue;
		code = gimple_cond_code(c);
		if (!taken)
			code = invert_tree_comparison(code, false);
		if (code == LE_EXPR)
			t++;
		else if (code != LT_EXPR)
			continue;
		if (t > best)
			best = t;
	}
	return best;
}

/*
 * "while (len) { if (len < 64) { ...; break; } ...; len -= 64; }": a
 * counter going down by S that leaves before it is below S never
 * wraps, and runs at most start / S <= start rounds.
 */
static bool guarded_step_down(class loop *loop, gphi *phi, HOST_WIDE_INT step)
{
	tree res = gimple_phi_result(phi);
	gassign *add;

	/* a size_t's "- 64" is "+ 2^64 - 64", which phi_step() does not read */
	if (!step && (add = def_of(PHI_ARG_DEF_FROM_EDGE(phi, loop_latch_edge(loop)), PLUS_EXPR)) &&
	    strip_copies(gimple_assign_rhs1(add)) == res &&
	    TYPE_PRECISION(TREE_TYPE(res)) == 64 && !wrapped_const(gimple_assign_rhs2(add), &step))
		step = 0;
	return step < -1 && exit_below(loop, phi) >= -step;
}

/*
 * "len -= min(32, len)" before the loop (_get_random_bytes()'s first
 * block): at most len, whatever len was.  The value it is taken from,
 * else init itself.
 */
static tree less_own_min(tree init)
{
	gassign *sub = def_of(init, MINUS_EXPR);
	tree a;

	if (!sub || !TYPE_UNSIGNED(TREE_TYPE(gimple_assign_lhs(sub))))
		return init;
	a = strip_copies(gimple_assign_rhs1(sub));
	return min_other(gimple_assign_rhs2(sub), a) ? a : init;
}

/*
 * A header phi that starts at parameter N (less min(N, C)), or at
 * 1 << (N - sub), and steps down by one (or by min(itself, C), or by S
 * while it leaves below S): N, else -1; *shift as for exit_param().
 */
static int down_from_param(struct lower *L, class loop *loop, gphi *phi, int *shift)
{
	HOST_WIDE_INT step;
	struct hog_val n;
	tree init, x;
	int sub;

	if (phi_step(loop, phi, &step))
		step = signed_step(TREE_TYPE(gimple_phi_result(phi)), step);
	else
		step = 0;
	if (step != -1 && !guarded_step_down(loop, phi, step) && !min_step_down(loop, phi))
		return -1;
	init = less_own_min(PHI_ARG_DEF_FROM_EDGE(phi, loop_preheader_edge(loop)));
	x = shift_count(init, &sub);
	n = lh_value(L->m, x ? x : init);
	*shift = x ? sub : -1;
	return plain_param(&n);
}

/* A 64-bit constant as two's complement: a sizetype's "- 64" is 2^64 - 64. */
static bool wrapped_const(tree t, HOST_WIDE_INT *v)
{
	t = strip_copies(t);
	if (t && TREE_CODE(t) == INTEGER_CST && tree_fits_uhwi_p(t)) {
		*v = (HOST_WIDE_INT)tree_to_uhwi(t);
		return true;
	}
	return const_value(t, v);
}

/* def of t (through copies) if it is an assignment with code, else NULL */
static gassign *def_of(tree t, enum tree_code code)
{
	gassign *as;

	t = strip_copies(t);
	if (!t || TREE_CODE(t) != SSA_NAME)
		return NULL;
	as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(t));
	return as && gimple_assign_rhs_code(as) == code ? as : NULL;
}

/*
 * A pointer that walks one block of 1 << x elements in strides of
 * 1 << K of them, "for (p = base; p < base + (1 << order) - 1; p +=
 * pageblock_nr_pages)" (__isolate_free_page()'s pageblocks of one buddy
 * page), runs at most 1 << (x - K) rounds.  GIMPLE: end = base + ((1 <<
 * x) * size + c) with c <= 0, the phi steps by (1 << K) * size bytes.
 * x's parameter, else -1; *shift: K, plus x's own "- sub".
 */
static int ptr_block_param(struct lower *L, class loop *loop, gphi *phi, tree end,
			   enum tree_code code, int *shift)
{
	gassign *as;
	tree off, x, init;
	HOST_WIDE_INT step, size, c, r;
	struct hog_val n;
	int sub, k;

	if (!phi || !POINTER_TYPE_P(TREE_TYPE(gimple_phi_result(phi))) ||
	    (code != LT_EXPR && code != GE_EXPR))
		return -1;
	as = def_of(PHI_ARG_DEF_FROM_EDGE(phi, loop_latch_edge(loop)), POINTER_PLUS_EXPR);
	if (!as || strip_copies(gimple_assign_rhs1(as)) != gimple_phi_result(phi) ||
	    !const_value(gimple_assign_rhs2(as), &step) || step <= 0)
		return -1;
	init = strip_copies(PHI_ARG_DEF_FROM_EDGE(phi, loop_preheader_edge(loop)));
	as = def_of(end, POINTER_PLUS_EXPR);
	if (!as || !init || strip_copies(gimple_assign_rhs1(as)) != init)
		return -1;
	off = gimple_assign_rhs2(as);
	/* "- 1" element: + (2^64 - size) in a sizetype */
	if ((as = def_of(off, PLUS_EXPR)) && wrapped_const(gimple_assign_rhs2(as), &c) && c <= 0)
		off = gimple_assign_rhs1(as);
	as = def_of(off, MULT_EXPR);
	if (!as || !const_value(gimple_assign_rhs2(as), &size) || size <= 0 || step % size)
		return -1;
	x = shift_count(gimple_assign_rhs1(as), &sub);
	r = step / size;
	k = exact_log2(r);
	if (!x || k < 0 || sub + k > 63)
		return -1;
	n = lh_value(L->m, x);
	*shift = sub + k;
	return plain_param(&n);
}

/*
 * "for (i = 0; i < n; i++)" with n a parameter: at most n iterations.
 * The parameter's index, or -1: an exit that dominates the latch, testing
 * a header phi that starts at a constant and steps by +1 against n
 * (through copies and casts).  A start above 0, or a step above one
 * ("i += 8"), only shortens an i < n loop; i != n must start at 0 and
 * step by one.  *shift: -1, or the count is 1 << (n -
 * *shift) ("for (i = 1; i < (1 << order); i++)").
 */
static int exit_param(struct lower *L, class loop *loop, edge e, int *shift)
{
	gimple *last = last_stmt(e->src);
	gcond *c = last ? dyn_cast<gcond *>(last) : NULL;
	HOST_WIDE_INT step, i0;
	int k;

	*shift = -1;
	if (!c || !dominated_by_p(CDI_DOMINATORS, loop->latch, e->src))
		return -1;
	for (k = 0; k < 2; k++) {
		int sub;
		tree iv = k ? gimple_cond_rhs(c) : gimple_cond_lhs(c);
		tree nt = k ? gimple_cond_lhs(c) : gimple_cond_rhs(c), sh = shift_count(nt, &sub);
		/* lh_value() looks through copies and casts: $N is the parameter */
		struct hog_val n = lh_value(L->m, sh ? sh : nt);
		gphi *phi = header_iv(loop, iv);
		enum tree_code code = gimple_cond_code(c);
		tree init;
		int p;

		if (k)
			code = swap_tree_comparison(code);
		/* while (order-- > 0), while (n--): n rounds from the parameter down */
		if (phi && integer_zerop(nt) &&
		    (code == NE_EXPR || code == GT_EXPR || code == EQ_EXPR || code == LE_EXPR)) {
			p = down_from_param(L, loop, phi, shift);
			if (p >= 0)
				return p;
		}
		if ((p = ptr_block_param(L, loop, phi, nt, code, shift)) >= 0)
			return p;
		/* i < n, i != n (i >= n, i == n the exit's way): n rounds */
		if (code != LT_EXPR && code != GE_EXPR && code != NE_EXPR && code != EQ_EXPR)
			continue;
		/* i += 8 while i < n: fewer rounds than n; i != n must step by one */
		if (!phi || !phi_step(loop, phi, &step) || step < 1 ||
		    (step != 1 && code != LT_EXPR && code != GE_EXPR))
			continue;
		init = PHI_ARG_DEF_FROM_EDGE(phi, loop_preheader_edge(loop));
		if (!init || !const_value(init, &i0) || i0 < 0 ||
		    (i0 && code != LT_EXPR && code != GE_EXPR) || (p = plain_param(&n)) < 0)
			continue;
		*shift = sh ? sub : -1;
		return p;
	}
	return -1;
}

/* Does the way to the latch pass the edge of a test of v against k where v != k? */
static bool latch_needs_other(class loop *loop, gphi *v, HOST_WIDE_INT k)
{
	basic_block bb;

	for (bb = loop->latch; bb && bb != loop->header;
	     bb = get_immediate_dominator(CDI_DOMINATORS, bb)) {
		gcond *c;
		edge e;
		HOST_WIDE_INT t;

		if (!single_pred_p(bb))
			continue;
		e = single_pred_edge(bb);
		c = safe_dyn_cast<gcond *>(last_stmt(e->src));
		if (!c || header_iv(loop, gimple_cond_lhs(c)) != v ||
		    !const_value(gimple_cond_rhs(c), &t) || t != k)
			continue;
		if ((gimple_cond_code(c) == EQ_EXPR && (e->flags & EDGE_FALSE_VALUE)) ||
		    (gimple_cond_code(c) == NE_EXPR && (e->flags & EDGE_TRUE_VALUE)))
			return true;
	}
	return false;
}

/*
 * "if (prio != NORMAL) { ...; if (!p) { prio = NORMAL; goto find_priolist; } }"
 * (i915_sched_lookup_priolist(), "recurses just once"): the way round
 * needs a header value other than K, and brings K back.  The second
 * round cannot go round again: one latch execution at most.
 */
static long long latch_once(class loop *loop)
{
	gphi_iterator gsi;

	if (!loop->latch)
		return -1;
	for (gsi = gsi_start_phis(loop->header); !gsi_end_p(gsi); gsi_next(&gsi)) {
		gphi *phi = gsi.phi();
		tree back = strip_copies(PHI_ARG_DEF_FROM_EDGE(phi, loop_latch_edge(loop)));
		gphi *merge = back && TREE_CODE(back) == SSA_NAME ?
			      dyn_cast<gphi *>(SSA_NAME_DEF_STMT(back)) : NULL;
		HOST_WIDE_INT k;

		if (merge && merge != phi && (back = same_args(merge)))
			back = strip_copies(back);
		if (!INTEGRAL_TYPE_P(TREE_TYPE(gimple_phi_result(phi))) || !const_value(back, &k))
			continue;
		if (latch_needs_other(loop, phi, k))
			return 1;
	}
	return -1;
}

/*
 * A state that only moves one way through constants: "for (;;) { ...;
 * switch (state) { case A: ...; state = B; break; case B: ...; state = C;
 * break; case C: BUG(); } }" (select_fallback_rq()'s cpuset, possible,
 * fail).  GCC gives such a loop, whose default case goes straight back,
 * two headers: the default's way round and the others'.
 */
#define STATE_MAX	16
#define STATE_DEPTH	8

struct state_way {
	HOST_WIDE_INT c;
	basic_block from;	/* where the way round sets it */
	basic_block to;		/* the block of the phi it is an argument of */
	bool self;		/* it keeps the header's value */
};

struct state {
	class loop *loop;
	tree var;		/* the header phi's result, through phis that keep it */
	gswitch *sw;
	int nway, nval;
	struct state_way way[STATE_MAX];
	HOST_WIDE_INT val[STATE_MAX];
};

/* t through copies and phis that only keep it ("x = PHI <y, x>"): y */
static tree state_value(tree t)
{
	int n;

	for (n = 0; n < STATE_DEPTH; n++) {
		gphi *phi;
		tree a = NULL_TREE;
		unsigned i;

		t = strip_copies(t);
		if (!t || TREE_CODE(t) != SSA_NAME || !(phi = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(t))))
			return t;
		for (i = 0; i < gimple_phi_num_args(phi); i++) {
			tree x = strip_copies(gimple_phi_arg_def(phi, i));

			if (x == t || x == a)
				continue;
			if (a)
				return t;
			a = x;
		}
		if (!a)
			return t;
		t = a;
	}
	return t;
}

static bool state_add_val(struct state *st, HOST_WIDE_INT c)
{
	int k;

	for (k = 0; k < st->nval && st->val[k] != c; k++)
		;
	if (k == st->nval && st->nval == STATE_MAX)
		return false;
	if (k == st->nval)
		st->val[st->nval++] = c;
	return true;
}

/* The constants t can be on entry to the loop, through phis; false if others */
static bool state_entry(struct state *st, tree t, int depth)
{
	HOST_WIDE_INT c;
	gphi *phi;
	unsigned i;

	t = strip_copies(t);
	if (const_value(t, &c))
		return state_add_val(st, c);
	if (depth > STATE_DEPTH || !t || TREE_CODE(t) != SSA_NAME ||
	    !(phi = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(t))))
		return false;
	for (i = 0; i < gimple_phi_num_args(phi); i++)
		if (!state_entry(st, gimple_phi_arg_def(phi, i), depth + 1))
			return false;
	return true;
}

/* The ways round: what each sets the state to, and where; false if not constants */
static bool state_ways(struct state *st, tree t, basic_block from, basic_block to, int depth)
{
	HOST_WIDE_INT c;
	gphi *phi;
	unsigned i;

	if (st->nway == STATE_MAX || depth > STATE_DEPTH)
		return false;
	if (state_value(t) == st->var) {
		st->way[st->nway++] = { 0, from, to, true };
		return true;
	}
	t = strip_copies(t);
	if (const_value(t, &c)) {
		st->way[st->nway++] = { c, from, to, false };
		return state_add_val(st, c);
	}
	if (!t || TREE_CODE(t) != SSA_NAME || !(phi = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(t))) ||
	    gimple_bb(phi) == st->loop->header || !flow_bb_inside_loop_p(st->loop, gimple_bb(phi)))
		return false;
	for (i = 0; i < gimple_phi_num_args(phi); i++)
		if (!state_ways(st, gimple_phi_arg_def(phi, i), gimple_phi_arg_edge(phi, i)->src,
				gimple_bb(phi), depth + 1))
			return false;
	return true;
}

/*
 * Does the way come from the switch's label, in the loop, neither
 * through its header nor through the switch again (a way back to the
 * switch that keeps the value comes to the same case)?  A way that is
 * the switch's own edge (a fallthrough's phi, an empty case) comes from
 * the labels that edge goes to.
 */
static bool state_reaches(const struct state *st, tree label, const struct state_way *w)
{
	basic_block from = label_to_block(cfun, label), sb = gimple_bb(st->sw), to = w->from;
	auto_vec<basic_block> work;
	auto_bitmap seen;

	if (w->from == sb)
		return from == w->to;
	if (from == st->loop->header || from == sb)
		return from == to;
	work.safe_push(from);
	bitmap_set_bit(seen, from->index);
	while (!work.is_empty()) {
		basic_block bb = work.pop();
		edge_iterator ei;
		edge e;

		if (bb == to)
			return true;
		FOR_EACH_EDGE(e, ei, bb->succs)
			if (e->dest != st->loop->header && e->dest != sb &&
			    flow_bb_inside_loop_p(st->loop, e->dest) &&
			    bitmap_set_bit(seen, e->dest->index))
				work.safe_push(e->dest);
	}
	return false;
}

/* The values case label cl stands for, lo to up; false if not constants */
static bool case_range(tree cl, HOST_WIDE_INT *lo, HOST_WIDE_INT *up)
{
	return const_value(CASE_LOW(cl), lo) &&
	       const_value(CASE_HIGH(cl) ? CASE_HIGH(cl) : CASE_LOW(cl), up);
}

/* Has the switch a case label of its own for v (so that its default is not v's)? */
static bool state_has_case(gswitch *sw, HOST_WIDE_INT v)
{
	unsigned i;

	for (i = 1; i < gimple_switch_num_labels(sw); i++) {
		HOST_WIDE_INT lo, up;

		if (case_range(gimple_switch_label(sw, i), &lo, &up) && lo <= v && v <= up)
			return true;
	}
	return false;
}

/*
 * Does way w come only from cases on one side of what it sets (*dir:
 * 1 above, -1 below, 0 not yet known)?  A way that keeps the value
 * comes only from the default; no way passes the switch's default.
 */
static bool state_moves(const struct state *st, const struct state_way *w, int *dir)
{
	tree dflt = CASE_LABEL(gimple_switch_default_label(st->sw));
	unsigned i;

	if (!dominated_by_p(CDI_DOMINATORS, w->from, gimple_bb(st->sw)))
		return false;
	if (!w->self && state_reaches(st, dflt, w))
		return false;
	for (i = 1; i < gimple_switch_num_labels(st->sw); i++) {
		tree cl = gimple_switch_label(st->sw, i);
		HOST_WIDE_INT lo, up;
		int d;

		if (!state_reaches(st, CASE_LABEL(cl), w))
			continue;
		if (w->self || !case_range(cl, &lo, &up))
			return false;
		d = w->c > up ? 1 : w->c < lo ? -1 : 0;
		if (!d || (*dir && d != *dir))
			return false;
		*dir = d;
	}
	return true;
}

/* The switch in the loop on the state, through copies and phis that keep it */
static gswitch *state_switch(class loop *loop, tree var)
{
	basic_block *body = get_loop_body(loop);
	gswitch *sw = NULL;
	unsigned i;

	for (i = 0; i < loop->num_nodes && !sw; i++) {
		gswitch *s = safe_dyn_cast<gswitch *>(last_stmt(body[i]));

		if (s && state_value(gimple_switch_index(s)) == var)
			sw = s;
	}
	free(body);
	return sw;
}

/*
 * The most times such a loop goes round: each way round sets the state
 * to a constant beyond every case it came through, and the default,
 * the only way that keeps it, has no value to come with (every value
 * the state can hold has a case).  -1 if no header phi is such a state.
 */
static long long state_cap(class loop *loop)
{
	gphi_iterator gsi;

	for (gsi = gsi_start_phis(loop->header); !gsi_end_p(gsi); gsi_next(&gsi)) {
		gphi *phi = gsi.phi();
		struct state st;
		edge_iterator ei;
		edge e;
		bool ok = true;
		int dir = 0, k, moves = 0;

		st.loop = loop;
		st.var = state_value(gimple_phi_result(phi));
		st.nway = st.nval = 0;
		if (!INTEGRAL_TYPE_P(TREE_TYPE(gimple_phi_result(phi))) ||
		    !(st.sw = state_switch(loop, st.var)) ||
		    !state_entry(&st, PHI_ARG_DEF_FROM_EDGE(phi, loop_preheader_edge(loop)), 0))
			continue;
		FOR_EACH_EDGE(e, ei, loop->header->preds)
			if (ok && flow_bb_inside_loop_p(loop, e->src))
				ok = state_ways(&st, PHI_ARG_DEF_FROM_EDGE(phi, e), e->src,
						loop->header, 0);
		for (k = 0; ok && k < st.nway; k++) {
			ok = state_moves(&st, &st.way[k], &dir);
			moves += !st.way[k].self;
		}
		for (k = 0; ok && k < st.nval; k++)
			ok = state_has_case(st.sw, st.val[k]);
		if (ok)
			return moves ? st.nval - 1 : 0;
	}
	return -1;
}

/* The loop leaves at its first exit taken: the smallest count bounds it. */
static void exit_bound(struct lower *L, class loop *loop, long long *bound)
{
	auto_vec<edge> exits = get_loop_exit_edges(loop);
	unsigned i;
	edge e;

	long long n;

	FOR_EACH_VEC_ELT(exits, i, e) {
		n = exit_count(loop, e);
		if (n < 0)
			n = exit_cap(L, loop, e);
		if (n >= 0 && (*bound < 0 || n < *bound))
			*bound = n;
	}
	n = latch_once(loop);
	if (n >= 0 && (*bound < 0 || n < *bound))
		*bound = n;
	n = state_cap(loop);
	if (n >= 0 && (*bound < 0 || n < *bound))
		*bound = n;
}

/* The parameter some exit bounds the loop by, or -1; *shift: by 1 << (it - *shift). */
static int loop_param(struct lower *L, class loop *loop, int *shift)
{
	auto_vec<edge> exits = get_loop_exit_edges(loop);
	unsigned i;
	edge e;
	int p;

	FOR_EACH_VEC_ELT(exits, i, e)
		if ((p = exit_param(L, loop, e, shift)) >= 0)
			return p;
	*shift = -1;
	return -1;
}

/* A walk over a container that scales is that first, unless it walks up a hierarchy or retries. */
static enum hog_loop_shape loop_kind(struct lower *L, class loop *loop)
{
	enum hog_loop_shape shape = loop_shape(L, loop);

	if (shape != HL_PARENT_WALK && shape != HL_RETRY && loop_scales(L, loop))
		return HL_SCALES;
	return shape;
}

static void lower_loops(struct lower *L)
{
	if (!L->loops_open)
		return;
	for (auto loop : loops_list(cfun, 0)) {
		basic_block *body;
		int *blocks, line, col, nb, k, j;
		unsigned i;
		long long bound = -1;
		struct hog_loop *hl;
		tree niter;
		HOST_WIDE_INT max;

		if (!loop->header || loop->header->index < NUM_FIXED_BLOCKS)
			continue;
		niter = number_of_latch_executions(loop);
		if (niter && TREE_CODE(niter) == INTEGER_CST && tree_fits_shwi_p(niter))
			bound = tree_to_shwi(niter);
		exit_bound(L, loop, &bound);
		max = table_cap(L, loop);
		if (max >= 0 && (bound < 0 || max < bound))
			bound = max;
		max = iter_cap(L, loop);
		if (max >= 0 && (bound < 0 || max < bound))
			bound = max;
		max = max_loop_iterations_int(loop);
		if (max >= 0 && (bound < 0 || max < bound))
			bound = max;
		body = get_loop_body(loop);
		nb = loop->num_nodes;
		for (i = 0; i < loop->num_nodes; i++)
			if (body[i]->index < last_basic_block_for_fn(cfun) && L->swn[body[i]->index])
				nb += L->swn[body[i]->index] - 1;
		blocks = (int *)hog_xmalloc(sizeof(int) * (nb + 1));
		for (i = 0, k = 0; i < loop->num_nodes; i++) {
			int bi = body[i]->index;

			blocks[k++] = bi < last_basic_block_for_fn(cfun) ? L->bbmap[bi] : 0;
			/* a switch's tests, a pair's second, are in the loop with it */
			for (j = 1; bi < last_basic_block_for_fn(cfun) && j < L->swn[bi]; j++)
				blocks[k++] = L->swfirst[bi] + j - 1;
		}
		loop_where(L, loop, &line, &col);
		hl = hog_func_add_loop(L->m, L->f, L->bbmap[loop->header->index], line, col,
				       bound, loop_kind(L, loop), k, blocks);
		hl->bound_param = loop_param(L, loop, &hl->bound_shift);
		free(blocks);
		free(body);
	}
}

bool lh_lower_changes_cfg(void)
{
	return loops_for_fn(cfun) && number_of_loops(cfun) > 1;
}

/*
 * What the unit says of fn beyond its body (HOG_FN_*).  The pass runs
 * after the call graph is built, so address_taken already counts every
 * &fn of the unit, static initializers (.store = fn) included.
 */
/* Is every use of n's address an argument of a call (on_each_cpu(n, ...))? */
static bool address_only_args(cgraph_node *n)
{
	ipa_ref *ref;
	unsigned i, k;
	int uses = 0;

	for (i = 0; n->iterate_referring(i, ref); i++) {
		gcall *c = ref->stmt ? dyn_cast<gcall *>(ref->stmt) : NULL;
		bool arg = false;

		if (ref->use != IPA_REF_ADDR)
			continue;
		/* a static initializer's reference has no statement */
		if (!c || !is_a<cgraph_node *>(ref->referring))
			return false;
		for (k = 0; k < gimple_call_num_args(c); k++) {
			tree a = gimple_call_arg(c, k);

			STRIP_NOPS(a);
			arg |= TREE_CODE(a) == ADDR_EXPR && TREE_OPERAND(a, 0) == n->decl;
		}
		if (!arg)
			return false;
		uses++;
	}
	return uses > 0;
}

static unsigned fn_flags(tree fn)
{
	cgraph_node *n = cgraph_node::get(fn);
	unsigned flags = 0;

	if (!n || n->address_taken)
		flags |= HOG_FN_ADDR;
	if (n && n->address_taken && address_only_args(n))
		flags |= HOG_FN_ARGS;
	if (lookup_attribute("cold", DECL_ATTRIBUTES(fn)))
		flags |= HOG_FN_COLD;
	return flags;
}


struct hog_func *lh_lower(struct hog_module *m, struct lh_locs *locs,
			  const struct hog_rules *rules)
{
	struct lower L;
	basic_block bb;
	int nblocks = 1, params = 0, i, loops_open = 0;
	const char **pnames;
	const char *err;
	expanded_location fx = expand_location(DECL_SOURCE_LOCATION(current_function_decl));

	/*
	 * Loop normalisation adds preheaders and SSA names: do it before
	 * numbering blocks and variables.
	 */
	if (lh_lower_changes_cfg()) {
		loop_optimizer_init(LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
		calculate_dominance_info(CDI_DOMINATORS);
		scev_initialize();
		loops_open = 1;
	}
	memset(&L, 0, sizeof(L));
	L.loops_open = loops_open;
	L.m = m;
	L.rules = rules;
	L.arch = target_arch();
	L.locs = locs;
	L.file = hog_intern(m->strs, lh_clean_path(fx.file));
	for (tree p = DECL_ARGUMENTS(current_function_decl); p; p = DECL_CHAIN(p))
		params++;
	pnames = (const char **)hog_xcalloc(params + 1, sizeof(*pnames));
	i = 0;
	for (tree p = DECL_ARGUMENTS(current_function_decl); p; p = DECL_CHAIN(p), i++)
		pnames[i] = DECL_NAME(p) ? IDENTIFIER_POINTER(DECL_NAME(p)) : "";
	L.f = hog_func_new(m, IDENTIFIER_POINTER(DECL_NAME(current_function_decl)),
			   L.file, fx.line, !TREE_PUBLIC(current_function_decl), params,
			   pnames);
	free(pnames);
	L.f->flags = fn_flags(current_function_decl);
	L.f->nvars = num_ssa_names;
	lh_annot_begin(m, L.f, rules, locs);
	L.line = fx.line;
	L.col = fx.column;

	/* block 0 is a fresh entry, then every basic block in order */
	L.bbmap = (int *)hog_xcalloc(last_basic_block_for_fn(cfun) + 1, sizeof(int));
	L.swfirst = (int *)hog_xcalloc(last_basic_block_for_fn(cfun) + 1, sizeof(int));
	L.swn = (int *)hog_xcalloc(last_basic_block_for_fn(cfun) + 1, sizeof(int));
	L.pair = (char *)hog_xcalloc(last_basic_block_for_fn(cfun) + 1, 1);
	FOR_EACH_BB_FN(bb, cfun)
		L.bbmap[bb->index] = nblocks++;
	FOR_EACH_BB_FN(bb, cfun) {
		gimple *last = last_stmt(bb);

		tree x, y;

		if (last && gimple_code(last) == GIMPLE_SWITCH &&
		    (L.swn[bb->index] = switch_tests(as_a<gswitch *>(last)))) {
			L.swfirst[bb->index] = nblocks;
			nblocks += L.swn[bb->index] - 1;
		} else if (truth_pair(bb, &x, &y) != ERROR_MARK) {
			L.pair[bb->index] = 1;
			L.swn[bb->index] = 2;
			L.swfirst[bb->index] = nblocks++;
		}
	}
	hog_func_set_blocks(m, L.f, nblocks);
	find_const_stores(&L);
	{
		edge e = single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(cfun));
		int s = L.bbmap[e->dest->index];

		hog_block_set_succ(m, &L.f->blocks[0], 1, &s);
	}
	FOR_EACH_BB_FN(bb, cfun) {
		struct hog_block *b = &L.f->blocks[L.bbmap[bb->index]];

		lower_phis(&L, bb, b);
		lower_stmts(&L, bb, b);
		lower_succs(&L, bb, b);
	}
	lower_loops(&L);
	lh_annot_end();
	if (L.loops_open) {
		scev_finalize();
		loop_optimizer_finalize();
	}
	free(L.bbmap);
	free(L.swfirst);
	free(L.swn);
	free(L.pair);
	hog_vec_free(&L.cstores);
	if (hog_func_finish(m, L.f, &err)) {
		/* drop the function rather than hand the core something malformed */
		m->nfuncs--;
		inform(DECL_SOURCE_LOCATION(current_function_decl),
		       "lockhog: internal error lowering %qD (%s); function skipped",
		       current_function_decl, err);
		return NULL;
	}
	return L.f;
}
