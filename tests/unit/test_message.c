// SPDX-License-Identifier: GPL-2.0
/*
 * The lines of one finding (hog_finding_lines()), which the plugin's
 * diagnostics and lockhog's text report both print: their order, their
 * places, the chain steps between the holder and the costly site, the
 * acquire, and the cap on callers; and costs reached from one spot,
 * shown as one finding (hog_report_leads()).
 */
#include "hogtest.h"
#include "../../core/report.h"

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

/* three costs: two from drain_local_stock's call, one from a caller's */
static void spot(struct hog_finding *f, struct hog_path *p, const char *callee, int line,
		 const char *fp)
{
	finding(f, p, 1);
	f->callee = callee;
	p->line = line;
	snprintf(f->fingerprint, sizeof(f->fingerprint), "%s", fp);
}

static void test_one_spot_one_finding(void **state)
{
	struct hog_path p[4];
	struct hog_finding f[4];
	struct hog_report_item it[4] = { { &f[0] }, { &f[1] }, { &f[2] }, { &f[3] } };
	struct hog_report_opts o = { .min_sev = HS_WARNING, .scope = "mm/" };
	struct hog_buf b = { 0 };
	char *err = NULL;
	int *lead;

	spot(&f[0], &p[0], "page_counter_uncharge", 2284, "00000000000000a0");
	spot(&f[1], &p[1], "css_put", 2284, "00000000000000a1");
	spot(&f[2], &p[2], "css_put", 2283, "00000000000000a2");
	spot(&f[3], &p[3], "obj_cgroup_put", 2284, "00000000000000a3");
	p[3].irqs_off = 1;	/* another state at the same spot: its own finding */
	lead = hog_report_leads(it, 4);
	assert_int_equal(lead[0], 0);
	assert_int_equal(lead[1], 0);
	assert_int_equal(lead[2], 2);
	assert_int_equal(lead[3], 3);
	free(lead);
	/* a baseline's new finding is not folded into an unchanged one */
	it[1].state = HOG_BASE_NEW;
	lead = hog_report_leads(it, 4);
	assert_int_equal(lead[1], 1);
	free(lead);
	it[1].state = HOG_BASE_NONE;

	assert_int_equal(hog_report(it, 4, &o, HOG_FMT_TEXT, &b, &err), 0);
	assert_non_null(strstr(b.s, "mm/memcontrol.c:2284:9: note: here also: css_put() reached"));
	assert_null(strstr(b.s, "2284:9: warning: css_put()"));
	assert_non_null(strstr(b.s, "2283:9: warning: css_put()"));
	assert_non_null(strstr(b.s, "lockhog: mm/: 3 findings (0 errors, 3 warnings, 0 notes); "
			       "1 more cost at the same spots shown under them\n"));
	hog_buf_free(&b);
	memset(&b, 0, sizeof(b));
	assert_int_equal(hog_report(it, 4, &o, HOG_FMT_JSON, &b, &err), 0);
	assert_non_null(strstr(b.s, "\"same_spot_as\": \"00000000000000a0\""));
	assert_null(strstr(b.s, "\"same_spot_as\": \"00000000000000a2\""));
	hog_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_order_and_places),
		cmocka_unit_test(test_lines_callers_capped),
		cmocka_unit_test(test_lines_no_lock_line_loop),
		cmocka_unit_test(test_one_spot_one_finding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
