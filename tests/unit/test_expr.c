// SPDX-License-Identifier: GPL-2.0
/*
 * Address expressions: normalisation, substitution across calls,
 * classification of roots, display and lock classes.
 */
#include "hogtest.h"

struct et {
	struct hog_strtab *strs;
	struct hog_rules *r;
};

static int setup(void **state)
{
	struct et *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	t->strs = hog_strtab_new();
	t->r = hog_rules_new(t->strs);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct et *t = *state;

	hog_rules_free(t->r);
	hog_strtab_free(t->strs);
	free(t);
	return 0;
}

static const char *I(struct et *t, const char *s)
{
	return hog_intern(t->strs, s);
}

/* norm(in) must be the interned want, and norm(want) want again. */
static void expect_norm(struct et *t, const struct hog_rules *r, const char *in,
			const char *want)
{
	const char *got = hog_expr_norm(t->strs, r, in);

	if (!got || strcmp(got, want))
		print_error("norm(%s) = %s, want %s\n", in, got ? got : "NULL", want);
	assert_non_null(got);
	assert_string_equal(got, want);
	assert_ptr_equal(got, I(t, want));
	assert_ptr_equal(hog_expr_norm(t->strs, r, got), got);
}

static void expect_subst(struct et *t, const char *e, const char *const *args,
			 int nargs, const char *ret, const char *want)
{
	const char *got = hog_expr_subst(t->strs, t->r, e, args, nargs, ret);

	if (want && (!got || strcmp(got, want)))
		print_error("subst(%s) = %s, want %s\n", e, got ? got : "NULL", want);
	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	assert_ptr_equal(got, I(t, want));
}

static void expect_display(const char *e, const char *const *params, int nparams,
			   const char *const *vnames, int nvars, const char *want)
{
	char *got = hog_expr_display(e, params, nparams, vnames, nvars);

	assert_non_null(got);
	if (strcmp(got, want))
		print_error("display(%s) = %s, want %s\n", e ? e : "NULL", got, want);
	assert_string_equal(got, want);
	free(got);
}

/* ---- normalisation ---- */

static void test_norm_percpu_mark(void **state)
{
	struct et *t = *state;

	/* this_cpu_ptr(&memcg_stock.stock_lock) == &this_cpu_ptr(&memcg_stock)->stock_lock */
	expect_norm(t, NULL, "@memcg_stock/memcg_stock_pcp.stock_lock#",
		    "@memcg_stock#/memcg_stock_pcp.stock_lock");
	expect_norm(t, NULL, "@memcg_stock#/memcg_stock_pcp.stock_lock",
		    "@memcg_stock#/memcg_stock_pcp.stock_lock");
	expect_norm(t, NULL, "@a/x.b/y.c#", "@a#/x.b/y.c");
	/* a mark never moves left over a load */
	expect_norm(t, NULL, "$0^/pcp.lock#", "$0^#/pcp.lock");
	expect_norm(t, NULL, "@g/s.p^/t.lock#", "@g/s.p^#/t.lock");
	expect_norm(t, NULL, "$0#/s.p^/t.lock", "$0#/s.p^/t.lock");
	expect_norm(t, NULL, "@tbl/t.arr[]#", "@tbl#/t.arr[]");
	/* two marks in one segment are one */
	expect_norm(t, NULL, "@a/x.b#/y.c#", "@a#/x.b/y.c");
}

static void test_norm_strip(void **state)
{
	struct et *t = *state;

	ht_rules_text(t->r, "strip rlock raw_lock\n");
	expect_norm(t, t->r, "$0/zone.lock/spinlock.rlock", "$0/zone.lock");
	/* trailing wrappers go one after another */
	expect_norm(t, t->r, "$0/zone.lock/spinlock.rlock/raw_spinlock.raw_lock",
		    "$0/zone.lock");
	/* an anonymous struct's field too */
	expect_norm(t, t->r, "$0/zone.lock/?.rlock", "$0/zone.lock");
	/* only at the end */
	expect_norm(t, t->r, "$0/spinlock.rlock/raw_spinlock.dep_map",
		    "$0/spinlock.rlock/raw_spinlock.dep_map");
	/* not the whole expression away */
	expect_norm(t, t->r, "@rlock", "@rlock");
	/* with no rules nothing is stripped */
	expect_norm(t, NULL, "$0/zone.lock/spinlock.rlock", "$0/zone.lock/spinlock.rlock");
	/* both at once: pcp mark and strip */
	expect_norm(t, t->r, "@stock/s.lock/spinlock.rlock#", "@stock#/s.lock");
	/* rules loaded from the tests' catalogue strip rlock */
	{
		struct hog_rules *k = hog_rules_new(t->strs);

		ht_rules_text(k, HT_RULES);
		expect_norm(t, k, "$0/zone.lock/spinlock.rlock", "$0/zone.lock");
		hog_rules_free(k);
	}
}

static void test_norm_other_roots(void **state)
{
	struct et *t = *state;

	expect_norm(t, NULL, "$R/page.lock", "$R/page.lock");
	expect_norm(t, NULL, "v12/pcp.lock", "v12/pcp.lock");
	expect_norm(t, NULL, "%lock", "%lock");
	expect_norm(t, NULL, "$3", "$3");
	assert_null(hog_expr_norm(t->strs, NULL, NULL));
}

/* ---- substitution ---- */

static void test_subst_params(void **state)
{
	struct et *t = *state;
	const char *args[] = { "$2/pglist_data.node_zones[]", NULL, "@contig_page_data" };

	expect_subst(t, "$0/zone.lock", args, 3, NULL,
		     "$2/pglist_data.node_zones[]/zone.lock");
	expect_subst(t, "$2/pglist_data.lru_lock", args, 3, NULL,
		     "@contig_page_data/pglist_data.lru_lock");
	expect_subst(t, "$0", args, 3, NULL, "$2/pglist_data.node_zones[]");
	/* an argument that is not an address, or not passed */
	expect_subst(t, "$1/x.lock", args, 3, NULL, NULL);
	expect_subst(t, "$3/x.lock", args, 3, NULL, NULL);
	expect_subst(t, "$0/zone.lock", args, 0, NULL, NULL);
}

static void test_subst_multi_digit(void **state)
{
	struct et *t = *state;
	const char *args[12] = { "@a", "@b" };

	args[10] = "@k";
	args[11] = "@l";
	expect_subst(t, "$10/s.lock", args, 12, NULL, "@k/s.lock");
	expect_subst(t, "$11", args, 12, NULL, "@l");
	expect_subst(t, "$10/s.lock", args, 2, NULL, NULL);
	expect_subst(t, "$1/s.lock", args, 2, NULL, "@b/s.lock");
}

static void test_subst_ret_globals_locals(void **state)
{
	struct et *t = *state;
	const char *args[] = { "$0" };

	expect_subst(t, "$R/pcp.lock", args, 1, "v3", "v3/pcp.lock");
	expect_subst(t, "$R", args, 1, "$1^", "$1^");
	expect_subst(t, "$R/pcp.lock", args, 1, NULL, NULL);
	/* globals come through, normalised */
	expect_subst(t, "@zone_lock", args, 1, NULL, "@zone_lock");
	expect_subst(t, "@stock/s.lock#", NULL, 0, NULL, "@stock#/s.lock");
	/* the callee's locals and variables mean nothing to the caller */
	expect_subst(t, "v2/s.lock", args, 1, NULL, NULL);
	expect_subst(t, "%lk", args, 1, NULL, NULL);
	expect_subst(t, NULL, args, 1, NULL, NULL);
}

static void test_subst_normalises(void **state)
{
	struct et *t = *state;
	const char *pcp[] = { "@memcg_stock#" };
	const char *lk[] = { "$0/zone.lock" };
	const char *raw[] = { "@zone_lock/spinlock.rlock" };

	ht_rules_text(t->r, "strip rlock\n");
	/* this_cpu_ptr(&memcg_stock) passed in, a field taken inside */
	expect_subst(t, "$0/memcg_stock_pcp.stock_lock", pcp, 1, NULL,
		     "@memcg_stock#/memcg_stock_pcp.stock_lock");
	/* the callee takes ->rlock of the spinlock_t it was given */
	expect_subst(t, "$0/spinlock.rlock", lk, 1, NULL, "$0/zone.lock");
	/* the caller's argument itself carries the wrapper */
	expect_subst(t, "$0", raw, 1, NULL, "@zone_lock");
	/* a mark inside the callee moves to the caller's root */
	expect_subst(t, "$0/s.lock#", lk, 1, NULL, "$0#/zone.lock/s.lock");
}

static void test_append_rebase(void **state)
{
	struct et *t = *state;

	assert_ptr_equal(hog_expr_append(t->strs, "$0", "/zone.lock"), I(t, "$0/zone.lock"));
	assert_ptr_equal(hog_expr_append(t->strs, "$0/a.b", "^"), I(t, "$0/a.b^"));
	assert_ptr_equal(hog_expr_rebase_var(t->strs, "v3/pcp.lock", 3, "$0^"),
			 I(t, "$0^/pcp.lock"));
	assert_ptr_equal(hog_expr_rebase_var(t->strs, "v3", 3, "@g"), I(t, "@g"));
	assert_null(hog_expr_rebase_var(t->strs, "v3/pcp.lock", 4, "$0"));
	assert_null(hog_expr_rebase_var(t->strs, "v30/pcp.lock", 3, "$0"));
	assert_null(hog_expr_rebase_var(t->strs, "$3/pcp.lock", 3, "$0"));
}

/* ---- classification ---- */

static void test_roots(void **state)
{
	assert_int_equal(hog_expr_param("$0"), 0);
	assert_int_equal(hog_expr_param("$3/zone.lock"), 3);
	assert_int_equal(hog_expr_param("$12^"), 12);
	assert_int_equal(hog_expr_param("$R/x.y"), -1);
	assert_int_equal(hog_expr_param("@g"), -1);
	assert_int_equal(hog_expr_param("v1"), -1);
	assert_int_equal(hog_expr_param(NULL), -1);

	assert_true(hog_expr_is_ret("$R"));
	assert_true(hog_expr_is_ret("$R/page.lock"));
	assert_false(hog_expr_is_ret("$0"));
	assert_false(hog_expr_is_ret(NULL));

	assert_int_equal(hog_expr_var("v7"), 7);
	assert_int_equal(hog_expr_var("v7^/a.b"), 7);
	assert_int_equal(hog_expr_var("vx"), -1);
	assert_int_equal(hog_expr_var("$7"), -1);
	assert_int_equal(hog_expr_var(NULL), -1);
}

static void test_global_percpu_portable(void **state)
{
	/* memory of the global itself */
	assert_true(hog_expr_is_global("@nr_free"));
	assert_true(hog_expr_is_global("@stats/vm_stat.nr[]"));
	/* what a global points to, or one CPU's copy, is not shared that way */
	assert_false(hog_expr_is_global("@ptr^/s.count"));
	assert_false(hog_expr_is_global("@vm_event_states#/vm_event_state.event[]"));
	assert_false(hog_expr_is_global("$0/zone.count"));
	assert_false(hog_expr_is_global("v1"));
	assert_false(hog_expr_is_global(NULL));

	assert_true(hog_expr_is_percpu("@memcg_stock#/memcg_stock_pcp.stock_lock"));
	assert_true(hog_expr_is_percpu("$0^#"));
	assert_false(hog_expr_is_percpu("@memcg_stock/memcg_stock_pcp.stock_lock"));

	assert_true(hog_expr_portable("$0/zone.lock"));
	assert_true(hog_expr_portable("$R"));
	assert_true(hog_expr_portable("@g#/a.b"));
	assert_false(hog_expr_portable("v2/a.b"));
	assert_false(hog_expr_portable("%lk"));
	assert_false(hog_expr_portable(NULL));
}

static void test_has_prefix(void **state)
{
	assert_true(hog_expr_has_prefix("$0/zone.lock", "$0"));
	assert_true(hog_expr_has_prefix("$0/zone.lock", "$0/zone.lock"));
	assert_true(hog_expr_has_prefix("$0/zone.lock^", "$0/zone.lock"));
	assert_true(hog_expr_has_prefix("v1/a.b[]", "v1/a.b"));
	assert_true(hog_expr_has_prefix("@g#/a.b", "@g"));
	assert_false(hog_expr_has_prefix("$01/zone.lock", "$0"));
	assert_false(hog_expr_has_prefix("$0/zone.lock2", "$0/zone.lock"));
	assert_false(hog_expr_has_prefix("v12", "v1"));
	assert_false(hog_expr_has_prefix("$0", "$0/zone.lock"));
}

/* ---- display ---- */

static void test_display(void **state)
{
	static const char *const params[] = { "zone", "", "pgdat" };
	static const char *const vnames[] = { NULL, "", "pcp" };

	expect_display("$0/zone.lock", params, 3, NULL, 0, "zone->lock");
	expect_display("$0/?.lock", params, 3, NULL, 0, "zone->lock");
	expect_display("@memcg_stock#/memcg_stock_pcp.stock_lock", NULL, 0, NULL, 0,
		       "memcg_stock.stock_lock");
	expect_display("$2/pglist_data.node_zones[]/zone.lock", params, 3, NULL, 0,
		       "pgdat->node_zones[].lock");
	expect_display("$0/zone.zone_pgdat^/pglist_data.lru_lock", params, 3, NULL, 0,
		       "zone->zone_pgdat->lru_lock");
	expect_display("@zone_lock", NULL, 0, NULL, 0, "zone_lock");
	expect_display("@ptr^/s.lock", NULL, 0, NULL, 0, "ptr->lock");
	expect_display("%lk", NULL, 0, NULL, 0, "lk");
	/* unnamed or missing parameters */
	expect_display("$1/s.lock", params, 3, NULL, 0, "arg1->lock");
	expect_display("$5/s.lock", params, 3, NULL, 0, "arg5->lock");
	expect_display("$0", NULL, 0, NULL, 0, "arg0");
	expect_display("$R/page.lock", params, 3, NULL, 0, "<return>->lock");
	/* variables: named, unnamed, past nvars */
	expect_display("v2/pcp.lock", params, 3, vnames, 3, "pcp->lock");
	expect_display("v1/pcp.lock", params, 3, vnames, 3, "?->lock");
	expect_display("v2/pcp.lock", params, 3, NULL, 0, "?->lock");
	expect_display("v7/pcp.lock", params, 3, vnames, 3, "?->lock");
	expect_display(NULL, NULL, 0, NULL, 0, "?");
	expect_display("", NULL, 0, NULL, 0, "?");
}

static void test_class(void **state)
{
	struct et *t = *state;

	assert_ptr_equal(hog_expr_class(t->strs, "$0/zone.lock"), I(t, "zone.lock"));
	assert_ptr_equal(hog_expr_class(t->strs, "@memcg_stock#/memcg_stock_pcp.stock_lock"),
			 I(t, "memcg_stock_pcp.stock_lock"));
	assert_ptr_equal(hog_expr_class(t->strs, "$0/pglist_data.node_zones[]/zone.lock"),
			 I(t, "zone.lock"));
	/* the last field names the class, whatever leads to it */
	assert_ptr_equal(hog_expr_class(t->strs, "v3^/zone.lock"), I(t, "zone.lock"));
	assert_ptr_equal(hog_expr_class(t->strs, "$0/?.lock"), I(t, "lock"));
	/* a global lock is its own class */
	assert_ptr_equal(hog_expr_class(t->strs, "@zone_lock"), I(t, "zone_lock"));
	assert_ptr_equal(hog_expr_class(t->strs, "@cpu_lock#"), I(t, "cpu_lock"));
	/* a bare pointer says nothing about its type */
	assert_null(hog_expr_class(t->strs, "$0"));
	assert_null(hog_expr_class(t->strs, "v1^"));
	assert_null(hog_expr_class(t->strs, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_norm_percpu_mark),
		T(test_norm_strip),
		T(test_norm_other_roots),
		T(test_subst_params),
		T(test_subst_multi_digit),
		T(test_subst_ret_globals_locals),
		T(test_subst_normalises),
		T(test_append_rebase),
		T(test_roots),
		T(test_global_percpu_portable),
		T(test_has_prefix),
		T(test_display),
		T(test_class),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
