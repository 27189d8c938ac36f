// SPDX-License-Identifier: GPL-2.0
/*
 * The lines of one finding (hog_finding_lines()), which the plugin's
 * diagnostics and lockhog's text report both print: their order, their
 * places, the chain steps between the holder and the costly site, the
 * acquire, and the cap on callers.
 */
#include "hogtest.h"

#define MAX_LINES 32

struct got {
	int n;
	enum hog_line_kind kind[MAX_LINES];
	char text[MAX_LINES][256];
	char where[MAX_LINES][64];
};

static void collect(void *ctx, const struct hog_line *l)
{
	struct got *g = ctx;

	assert_true(g->n < MAX_LINES);
	g->kind[g->n] = l->kind;
	snprintf(g->text[g->n], sizeof(g->text[0]), "%s", l->text);
	snprintf(g->where[g->n], sizeof(g->where[0]), "%s:%d:%d", l->file, l->line, l->col);
	g->n++;
}

/* drain_local_stock -> drain_stock -> refill -> page_counter_uncharge, and callers */
static struct hog_step steps[] = {
	{ "drain_local_stock", "mm/memcontrol.c", 2284, 9 },
	{ "drain_stock", "mm/memcontrol.c", 2259, 17 },
	{ "refill", "mm/memcontrol.c", 2240, 5 },
};

static void finding(struct hog_finding *f, struct hog_path *paths, int npaths)
{
	int i;

	memset(f, 0, sizeof(*f));
	memset(paths, 0, sizeof(*paths) * npaths);
	f->kind = HK_CALL;
	f->sev = HS_WARNING;
	f->cls = HOG_CLS_HIER;
	f->reason = "atomic RMW walk";
	f->callee = "page_counter_uncharge";
	f->site_func = "refill";
	f->site_file = "mm/memcontrol.c";
	f->site_line = 2240;
	f->site_col = 5;
	f->npaths = npaths;
	f->paths = paths;
	for (i = 0; i < npaths; i++) {
		paths[i].holder = i ? "caller" : "drain_local_stock";
		paths[i].file = "mm/memcontrol.c";
		paths[i].line = i ? 3000 + i : 2284;
		paths[i].col = 9;
		paths[i].nchain = i ? 1 : 3;
		paths[i].chain = steps;
		paths[i].lock.name = "memcg_stock.stock_lock";
		paths[i].lock.kind = "local";
		paths[i].lock.line = 2280;
	}
}

static void test_lines_order_and_places(void **state)
{
	struct hog_path paths[2];
	struct hog_finding f;
	struct got g = { 0 };

	finding(&f, paths, 2);
	hog_finding_lines(&f, 0, collect, &g);
	assert_int_equal(g.n, 6);
	assert_int_equal(g.kind[0], HOG_LINE_MESSAGE);
	assert_string_equal(g.where[0], "mm/memcontrol.c:2284:9");
	assert_string_equal(g.text[0], "page_counter_uncharge() reached with "
			    "memcg_stock.stock_lock held [-Wlockhog-call]");
	assert_int_equal(g.kind[1], HOG_LINE_CHAIN);
	assert_string_equal(g.text[1], "chain: drain_local_stock -> drain_stock -> refill -> "
			    "page_counter_uncharge");
	assert_int_equal(g.kind[2], HOG_LINE_REASON);
	assert_string_equal(g.where[2], "mm/memcontrol.c:2240:5");
	assert_string_equal(g.text[2], "page_counter_uncharge(): atomic RMW walk");
	/* the acquire, by its line */
	assert_int_equal(g.kind[3], HOG_LINE_TAKEN);
	assert_string_equal(g.where[3], "mm/memcontrol.c:2280:0");
	assert_string_equal(g.text[3], "memcg_stock.stock_lock taken here");
	/* drain_stock's call of refill; refill's own call is the site, said once */
	assert_int_equal(g.kind[4], HOG_LINE_STEP);
	assert_string_equal(g.where[4], "mm/memcontrol.c:2259:17");
	assert_string_equal(g.text[4], "drain_stock() calls on here");
	assert_int_equal(g.kind[5], HOG_LINE_CALLER);
	assert_string_equal(g.where[5], "mm/memcontrol.c:3001:9");
	assert_string_equal(g.text[5], "also reached from caller(): drain_local_stock -> "
			    "page_counter_uncharge");
}

static void test_lines_callers_capped(void **state)
{
	struct hog_path paths[HOG_MAX_CALLERS_SHOWN + 4];
	struct hog_finding f;
	struct got g = { 0 };
	int i, callers = 0;

	finding(&f, paths, HOG_MAX_CALLERS_SHOWN + 4);
	hog_finding_lines(&f, 0, collect, &g);
	for (i = 0; i < g.n; i++)
		callers += g.kind[i] == HOG_LINE_CALLER;
	assert_int_equal(callers, HOG_MAX_CALLERS_SHOWN);
	assert_int_equal(g.kind[g.n - 1], HOG_LINE_MORE);
	assert_string_equal(g.text[g.n - 1], "and from 3 more callers");
	assert_string_equal(g.where[g.n - 1], "mm/memcontrol.c:2284:0");
	/* a smaller cap asked for */
	memset(&g, 0, sizeof(g));
	hog_finding_lines(&f, 2, collect, &g);
	assert_string_equal(g.text[g.n - 1], "and from 6 more callers");
}

static void test_lines_no_lock_line_loop(void **state)
{
	struct hog_path paths[1];
	struct hog_finding f;
	struct got g = { 0 };
	int i;

	finding(&f, paths, 1);
	paths[0].lock.line = 0;
	f.limits = HOG_LIMIT_ROUNDS;
	f.kind = HK_LOOP;
	f.reason = NULL;
	f.cls = HOG_CLS_LOOP;
	hog_finding_lines(&f, 0, collect, &g);
	for (i = 0; i < g.n; i++)
		assert_int_not_equal(g.kind[i], HOG_LINE_TAKEN);
	assert_string_equal(g.text[2], "page_counter_uncharge(): unbounded-loop");
	assert_int_equal(g.kind[g.n - 1], HOG_LINE_INCOMPLETE);
	assert_non_null(strstr(g.text[g.n - 1], "incomplete: the analysis on the way"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_order_and_places),
		cmocka_unit_test(test_lines_callers_capped),
		cmocka_unit_test(test_lines_no_lock_line_loop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
