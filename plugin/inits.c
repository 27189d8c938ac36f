// SPDX-License-Identifier: GPL-2.0
/*
 * Functions stored by static initializers: "static struct kobj_attribute
 * x = __ATTR(x, 0644, x_show, x_store)", DEFINE_TIMER(t, fn), a sysctl
 * table's .proc_handler.  They are registrations the call graph does not
 * show (a sysfs write, a timer callback), read once per unit and kept as
 * G records (docs/ir.md) for the fields the rules care about: a context=
 * rule's field= (rules: context) or a rare STRUCT.FIELD (rules: rare).
 */
#include "gcc-compat.h"
#include "lower.h"

/* initializers nested in initializers (arrays of structs of structs), at most */
#define INIT_DEPTH 8

static tree init_function(tree v)
{
	STRIP_NOPS(v);
	if (TREE_CODE(v) != ADDR_EXPR)
		return NULL_TREE;
	v = TREE_OPERAND(v, 0);
	return TREE_CODE(v) == FUNCTION_DECL && DECL_NAME(v) ? v : NULL_TREE;
}

struct inits {
	struct hog_module *m;
	const struct hog_rules *rules;
	struct lh_locs *locs;
};

static void walk_init(const struct inits *in, tree var, tree init, int depth)
{
	unsigned HOST_WIDE_INT i;
	tree idx, val, fn;

	if (depth > INIT_DEPTH)
		return;
	FOR_EACH_CONSTRUCTOR_ELT(CONSTRUCTOR_ELTS(init), i, idx, val) {
		char *cls;

		if (TREE_CODE(val) == CONSTRUCTOR) {
			walk_init(in, var, val, depth + 1);
			continue;
		}
		if (!idx || TREE_CODE(idx) != FIELD_DECL || !DECL_NAME(idx) ||
		    !(fn = init_function(val)))
			continue;
		cls = concat(lh_struct_name(DECL_CONTEXT(idx)), ".",
			     IDENTIFIER_POINTER(DECL_NAME(idx)), NULL);
		if (hog_rules_callback_field(in->rules, cls)) {
			location_t at = DECL_SOURCE_LOCATION(var);

			hog_module_add_reg(in->m, IDENTIFIER_POINTER(DECL_NAME(var)),
					   LOCATION_LINE(at), cls, IDENTIFIER_POINTER(DECL_NAME(fn)));
			/* where a finding's "registered here" points */
			lh_locs_note(in->locs, in->m->tu, LOCATION_LINE(at), 0, at);
		}
		free(cls);
	}
}

/* Only the main file's: a G record's line is in its unit (docs/ir.md). */
void lh_lower_inits(struct hog_module *m, const struct hog_rules *rules, struct lh_locs *locs)
{
	struct inits in = { m, rules, locs };
	varpool_node *v;

	FOR_EACH_VARIABLE(v) {
		tree d = v->decl, init = DECL_INITIAL(d);
		const char *file = LOCATION_FILE(DECL_SOURCE_LOCATION(d));

		if (DECL_EXTERNAL(d) || !DECL_NAME(d) || !init || TREE_CODE(init) != CONSTRUCTOR ||
		    !file || strcmp(lh_clean_path(file), m->tu))
			continue;
		walk_init(&in, d, init, 0);
	}
}
