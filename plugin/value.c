// SPDX-License-Identifier: GPL-2.0
/*
 * What a GIMPLE operand is, in the IR's terms.  Pre-inline GIMPLE keeps
 * the kernel's wrappers as calls, so most lock arguments are short
 * chains: a cast of an asm (this_cpu_ptr) of an ADDR_EXPR of a
 * COMPONENT_REF.  We follow copies, casts, the per-cpu asm and constant
 * pointer offsets, and stop at anything that computes.
 */
#include "gcc-compat.h"
#include "lower.h"

#define MAX_DEPTH 24

static const char *ptr_expr(struct hog_module *m, tree t, int depth);

const char *lh_struct_name(tree type)
{
	tree n;

	if (!type)
		return "?";
	type = TYPE_MAIN_VARIANT(type);
	n = TYPE_NAME(type);
	if (n && TREE_CODE(n) == TYPE_DECL)
		n = DECL_NAME(n);
	if (n && TREE_CODE(n) == IDENTIFIER_NODE)
		return IDENTIFIER_POINTER(n);
	return "?";
}

static const char *cat(struct hog_module *m, const char *a, const char *b)
{
	char *t;
	const char *r;

	if (!a)
		return NULL;
	t = hog_xasprintf("%s%s", a, b);
	r = hog_intern(m->strs, t);
	free(t);
	return r;
}

static int param_index(tree parm)
{
	int i = 0;

	for (tree p = DECL_ARGUMENTS(current_function_decl); p; p = DECL_CHAIN(p), i++)
		if (p == parm)
			return i;
	return -1;
}

static const char *decl_name(tree d)
{
	if (d && DECL_P(d) && DECL_NAME(d))
		return IDENTIFIER_POINTER(DECL_NAME(d));
	return NULL;
}

/*
 * The struct a field belongs to, looking through anonymous members:
 * mm->mmap_lock sits in an unnamed struct inside struct mm_struct.
 */
static const char *container_name(tree base)
{
	const char *n = lh_struct_name(TREE_TYPE(base));

	while (!strcmp(n, "?") && TREE_CODE(base) == COMPONENT_REF &&
	       !DECL_NAME(TREE_OPERAND(base, 1))) {
		base = TREE_OPERAND(base, 0);
		n = lh_struct_name(TREE_TYPE(base));
	}
	return n;
}

/* Address of an lvalue: &x.f, &p->f, &a[i]. */
static const char *addr_expr(struct hog_module *m, tree ref, int depth)
{
	char buf[512];

	if (!ref || depth > MAX_DEPTH)
		return NULL;
	switch (TREE_CODE(ref)) {
	case VAR_DECL:
		if (!decl_name(ref))
			return NULL;
		snprintf(buf, sizeof(buf), "%c%s",
			 (TREE_STATIC(ref) || DECL_EXTERNAL(ref)) ? '@' : '%', decl_name(ref));
		return hog_intern(m->strs, buf);
	case FUNCTION_DECL:
		/* &f: the function's address, so that registrations name it */
		if (!decl_name(ref))
			return NULL;
		snprintf(buf, sizeof(buf), "@%s", decl_name(ref));
		return hog_intern(m->strs, buf);
	case PARM_DECL:
	case RESULT_DECL:
		if (!decl_name(ref))
			return NULL;
		snprintf(buf, sizeof(buf), "%%%s", decl_name(ref));
		return hog_intern(m->strs, buf);
	case COMPONENT_REF: {
		tree base = TREE_OPERAND(ref, 0), field = TREE_OPERAND(ref, 1);
		const char *b = addr_expr(m, base, depth + 1);

		if (!b)
			return NULL;
		if (!DECL_NAME(field))
			return b;	/* anonymous struct or union member */
		snprintf(buf, sizeof(buf), "/%s.%s", container_name(base),
			 IDENTIFIER_POINTER(DECL_NAME(field)));
		return cat(m, b, buf);
	}
	case MEM_REF:
		return ptr_expr(m, TREE_OPERAND(ref, 0), depth + 1);
	case ARRAY_REF:
	case ARRAY_RANGE_REF:
		return cat(m, addr_expr(m, TREE_OPERAND(ref, 0), depth + 1), "[]");
	case VIEW_CONVERT_EXPR:
		return addr_expr(m, TREE_OPERAND(ref, 0), depth + 1);
	default:
		return NULL;
	}
}

static gasm *percpu_asm(gimple *def, tree name, tree *in)
{
	gasm *a = dyn_cast<gasm *>(def);

	if (!a || gimple_asm_noutputs(a) != 1)
		return NULL;
	if (TREE_VALUE(gimple_asm_output_op(a, 0)) != name)
		return NULL;
	for (unsigned i = 0; i < gimple_asm_ninputs(a); i++) {
		tree op = gimple_asm_input_op(a, i);
		const char *c = TREE_STRING_POINTER(TREE_VALUE(TREE_PURPOSE(op)));

		/* the input tied to the output: "0" */
		if (c[0] == '0' && c[1] == 0) {
			*in = TREE_VALUE(op);
			return a;
		}
	}
	return NULL;
}

/* A pointer value as an address expression, or NULL. */
static const char *ptr_expr(struct hog_module *m, tree t, int depth)
{
	gimple *def;
	char buf[64];

	if (!t || depth > MAX_DEPTH)
		return NULL;
	switch (TREE_CODE(t)) {
	case ADDR_EXPR:
		return addr_expr(m, TREE_OPERAND(t, 0), depth + 1);
	case INTEGER_CST:
		return NULL;
	case NOP_EXPR:
	case CONVERT_EXPR:
		return ptr_expr(m, TREE_OPERAND(t, 0), depth + 1);
	case SSA_NAME:
		break;
	default:
		return NULL;
	}
	if (SSA_NAME_IS_DEFAULT_DEF(t)) {
		tree v = SSA_NAME_VAR(t);

		if (v && TREE_CODE(v) == PARM_DECL && param_index(v) >= 0) {
			snprintf(buf, sizeof(buf), "$%d", param_index(v));
			return hog_intern(m->strs, buf);
		}
		return NULL;
	}
	def = SSA_NAME_DEF_STMT(t);
	if (gassign *as = dyn_cast<gassign *>(def)) {
		enum tree_code code = gimple_assign_rhs_code(as);
		tree r1 = gimple_assign_rhs1(as);

		if (gimple_assign_single_p(as)) {
			if (TREE_CODE(r1) == SSA_NAME || TREE_CODE(r1) == ADDR_EXPR)
				return ptr_expr(m, r1, depth + 1);
			if (TREE_CODE(r1) == INTEGER_CST)
				return NULL;
			/* a pointer loaded from memory */
			if (POINTER_TYPE_P(TREE_TYPE(t)))
				return cat(m, addr_expr(m, r1, depth + 1), "^");
			return NULL;
		}
		if (CONVERT_EXPR_CODE_P(code))
			return ptr_expr(m, r1, depth + 1);
		/*
		 * RELOC_HIDE computes per_cpu_ptr() in unsigned long: an
		 * integer PLUS of an address and an offset
		 */
		if (code == POINTER_PLUS_EXPR || (code == PLUS_EXPR &&
						  INTEGRAL_TYPE_P(TREE_TYPE(t)))) {
			const char *b = ptr_expr(m, r1, depth + 1);

			if (!b && code == PLUS_EXPR)
				b = ptr_expr(m, gimple_assign_rhs2(as), depth + 1);
			if (TREE_CODE(gimple_assign_rhs2(as)) == INTEGER_CST)
				return b;	/* container_of and friends */
			/* per_cpu_ptr(&x, cpu): another CPU's instance */
			if (b && b[0] == '@')
				return cat(m, b, "#");
			return cat(m, b, "[]");
		}
	} else if (gimple_code(def) == GIMPLE_ASM) {
		tree in = NULL_TREE;
		gasm *a = percpu_asm(def, t, &in);

		if (a) {
			const char *b = ptr_expr(m, in, depth + 1);

			/* RELOC_HIDE's empty asm keeps the address; the gs-relative add moves it */
			if (*gimple_asm_string(a))
				return cat(m, b, "#");
			return b;
		}
	} else if (gimple_code(def) == GIMPLE_CALL) {
		snprintf(buf, sizeof(buf), "v%u", SSA_NAME_VERSION(t));
		return hog_intern(m->strs, buf);
	} else if (gphi *phi = dyn_cast<gphi *>(def)) {
		const char *same = NULL;
		unsigned i;

		/* all incoming pointers but NULL agree: pcp = trylock ? _ret : NULL */
		for (i = 0; i < gimple_phi_num_args(phi); i++) {
			tree a = gimple_phi_arg_def(phi, i);
			const char *e;

			if (TREE_CODE(a) == INTEGER_CST && integer_zerop(a))
				continue;
			if (a == t)
				continue;
			e = depth < 8 ? ptr_expr(m, a, depth + 4) : NULL;
			if (!e || (same && same != e)) {
				same = NULL;
				break;
			}
			same = e;
		}
		if (same)
			return same;
	}
	if (SSA_NAME_VAR(t) && decl_name(SSA_NAME_VAR(t))) {
		snprintf(buf, sizeof(buf), "%%%.60s", decl_name(SSA_NAME_VAR(t)));
		return hog_intern(m->strs, buf);
	}
	return NULL;
}

const char *lh_address(struct hog_module *m, tree ref)
{
	return addr_expr(m, ref, 0);
}

/*
 * likely(x), unlikely(x): __builtin_expect(x, c) is x.  Pre-inline
 * GIMPLE still has it as a call, and every "if (unlikely(!locked))"
 * branches on its result.
 */
static tree expected_value(gimple *g)
{
	gcall *call = dyn_cast<gcall *>(g);

	if (!call || gimple_call_num_args(call) < 1)
		return NULL_TREE;
	if (gimple_call_builtin_p(call, BUILT_IN_EXPECT) ||
	    gimple_call_builtin_p(call, BUILT_IN_EXPECT_WITH_PROBABILITY) ||
	    (gimple_call_internal_p(call) && gimple_call_internal_fn(call) == IFN_BUILTIN_EXPECT))
		return gimple_call_arg(call, 0);
	return NULL_TREE;
}

/* Follows copies and conversions to the SSA name that matters. */
static tree strip_copies(tree t)
{
	int n = 0;

	while (t && TREE_CODE(t) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF(t) && n++ < MAX_DEPTH) {
		gassign *as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(t));
		tree r;

		if (!as) {
			r = expected_value(SSA_NAME_DEF_STMT(t));
			if (r && TREE_CODE(r) == SSA_NAME) {
				t = r;
				continue;
			}
			break;
		}
		r = gimple_assign_rhs1(as);
		if (gimple_assign_single_p(as) && (TREE_CODE(r) == SSA_NAME ||
						   TREE_CODE(r) == INTEGER_CST)) {
			t = r;
			continue;
		}
		if (CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as)) &&
		    TREE_CODE(r) == SSA_NAME && INTEGRAL_TYPE_P(TREE_TYPE(t)) ==
		    INTEGRAL_TYPE_P(TREE_TYPE(r))) {
			t = r;
			continue;
		}
		break;
	}
	return t;
}

/*
 * "cnt.0_1 = cnt" of a parameter whose address is taken (slab_free()
 * hands &cnt to slab_free_freelist_hook()): a load that no store or call
 * precedes (its virtual use is memory on entry) reads the value the
 * caller passed, "$N", as a parameter that lives in a register would.
 */
static bool entry_param_load(tree t, const char **addr, struct hog_module *m)
{
	gassign *as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(t));
	tree r, vu;
	char buf[32];

	if (!as || !gimple_assign_single_p(as) || !INTEGRAL_TYPE_P(TREE_TYPE(t)))
		return false;
	r = gimple_assign_rhs1(as);
	vu = gimple_vuse(as);
	if (TREE_CODE(r) != PARM_DECL || param_index(r) < 0 || !vu ||
	    TREE_CODE(vu) != SSA_NAME || !SSA_NAME_IS_DEFAULT_DEF(vu))
		return false;
	snprintf(buf, sizeof(buf), "$%d", param_index(r));
	*addr = hog_intern(m->strs, buf);
	return true;
}

struct hog_val lh_value(struct hog_module *m, tree t)
{
	struct hog_val v;

	memset(&v, 0, sizeof(v));
	v.kind = HV_UNKNOWN;
	if (!t)
		return v;
	t = strip_copies(t);
	if (TREE_CODE(t) == INTEGER_CST) {
		if (tree_fits_shwi_p(t)) {
			v.kind = HV_CONST;
			v.cst = tree_to_shwi(t);
		} else if (tree_fits_uhwi_p(t)) {
			v.kind = HV_CONST;
			v.cst = (long long)tree_to_uhwi(t);
		}
		return v;
	}
	if (TREE_CODE(t) == ADDR_EXPR) {
		v.addr = addr_expr(m, TREE_OPERAND(t, 0), 0);
		v.kind = v.addr ? HV_ADDR : HV_UNKNOWN;
		return v;
	}
	if (TREE_CODE(t) != SSA_NAME)
		return v;
	if (SSA_NAME_IS_DEFAULT_DEF(t)) {
		v.addr = ptr_expr(m, t, 0);
		v.kind = v.addr ? HV_ADDR : HV_UNKNOWN;
		return v;
	}
	if (entry_param_load(t, &v.addr, m)) {
		v.kind = HV_ADDR;
		return v;
	}
	/* pointers name things; results of calls and integers carry facts */
	if (gimple_code(SSA_NAME_DEF_STMT(t)) != GIMPLE_CALL &&
	    POINTER_TYPE_P(TREE_TYPE(t))) {
		v.addr = ptr_expr(m, t, 0);
		if (v.addr) {
			v.kind = HV_ADDR;
			return v;
		}
	}
	v.kind = HV_VAR;
	v.var = SSA_NAME_VERSION(t);
	return v;
}

/*
 * The integer parameter, as it came in, that a test of t against zero
 * tests whole: t through copies, __builtin_expect() and conversions that
 * keep every bit (or make a bool of it); NULL_TREE if none.
 */
tree lh_tested_param(tree t)
{
	int n = 0;

	while (t && TREE_CODE(t) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF(t) && n++ < MAX_DEPTH) {
		gassign *as = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(t));
		tree r = as ? gimple_assign_rhs1(as) : expected_value(SSA_NAME_DEF_STMT(t));

		if (!r || TREE_CODE(r) != SSA_NAME)
			return NULL_TREE;
		if (as && !gimple_assign_single_p(as) &&
		    (!CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(as)) ||
		     !INTEGRAL_TYPE_P(TREE_TYPE(r)) || !INTEGRAL_TYPE_P(TREE_TYPE(t)) ||
		     (TREE_CODE(TREE_TYPE(t)) != BOOLEAN_TYPE &&
		      TYPE_PRECISION(TREE_TYPE(t)) < TYPE_PRECISION(TREE_TYPE(r)))))
			return NULL_TREE;
		t = r;
	}
	if (!t || TREE_CODE(t) != SSA_NAME || !SSA_NAME_IS_DEFAULT_DEF(t) || !SSA_NAME_VAR(t) ||
	    TREE_CODE(SSA_NAME_VAR(t)) != PARM_DECL || !INTEGRAL_TYPE_P(TREE_TYPE(t)))
		return NULL_TREE;
	return t;
}

int lh_cond_var(tree t)
{
	t = strip_copies(t);
	if (!t || TREE_CODE(t) != SSA_NAME)
		return -1;
	return SSA_NAME_VERSION(t);
}
