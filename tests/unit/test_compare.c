// SPDX-License-Identifier: GPL-2.0
/*
 * Two analyses compared (core/compare.c) and baselines
 * (core/baseline.c): new, unchanged, updated and absent findings, new
 * ways into old findings, ways outside the changed code, work moved to
 * another site under the same holder, and accepted findings.
 */
#include <unistd.h>
#include "hogtest.h"
#include "compare.h"

#define ZL "&$0/zone.lock"

struct ct {
	struct ht_world *base, *head;
	struct hog_vec changed;
	struct hog_diff *d;
};

static int setup(void **state)
{
	struct ct *t = calloc(1, sizeof(*t));

	*state = t;
	return t ? 0 : -1;
}

static int teardown(void **state)
{
	struct ct *t = *state;
	int i;

	hog_diff_free(t->d);
	ht_world_free(t->base);
	ht_world_free(t->head);
	for (i = 0; i < t->changed.n; i++)
		free(t->changed.v[i]);
	hog_vec_free(&t->changed);
	free(t);
	return 0;
}

/* void NAME(struct zone *zone) { spin_lock(); CALLEE(zone); spin_unlock(); } */
static void holder(struct hog_module *m, const char *name, int line, const char *callee)
{
	struct hog_func *f = ht_fn(m, name, 0, line, 0, 1, "zone", NULL);

	ht_call(m, f, 0, line + 1, "spin_lock", -1, ZL, NULL);
	if (callee)
		ht_call(m, f, 0, line + 2, callee, -1, "&$0", NULL);
	ht_call(m, f, 0, line + 3, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 0, line + 4, NULL);
	ht_done(m, f);
}

/* void NAME(struct zone *zone) { CALLEE(zone); } */
static void passes(struct hog_module *m, const char *name, int line, const char *callee)
{
	struct hog_func *f = ht_fn(m, name, 0, line, 0, 1, "zone", NULL);

	ht_call(m, f, 0, line + 1, callee, -1, "&$0", NULL);
	ht_ret(m, f, 0, line + 2, NULL);
	ht_done(m, f);
}

/* A program: holders a (and b, when given) reaching CALLEE through helper. */
static struct ht_world *prog(const char *a_calls, const char *b_calls, const char *callee)
{
	struct ht_world *w = ht_world_new(NULL, 1);
	struct hog_module *m = ht_module(w, "mm/a.c");

	passes(m, "helper", 50, callee);
	holder(m, "a", 10, a_calls);
	if (b_calls)
		holder(m, "b", 30, b_calls);
	ht_solve(w);
	return w;
}

static void changed(struct ct *t, const char *name)
{
	hog_vec_push(&t->changed, hog_xstrdup(name));
}

static void compare(struct ct *t, const struct hog_accepted *acc)
{
	struct hog_compare_opts o = { &t->changed, acc };

	t->d = hog_compare(t->base->prog, t->head->prog, &o);
}

static void expect_counts(const struct hog_diff *d, int nnew, int nfixed, int nunchanged,
			  int worst)
{
	assert_int_equal(d->nnew[HS_NOTE] + d->nnew[HS_WARNING] + d->nnew[HS_ERROR], nnew);
	assert_int_equal(d->nfixed, nfixed);
	assert_int_equal(d->nunchanged, nunchanged);
	assert_int_equal(d->worst, worst);
}

/* the same program on both sides: unchanged, nothing new or fixed */
static void test_same(void **state)
{
	struct ct *t = *state;

	t->base = prog("helper", NULL, "css_put");
	t->head = prog("helper", NULL, "css_put");
	changed(t, "a");
	compare(t, NULL);
	expect_counts(t->d, 0, 0, 1, -1);
	assert_int_equal(t->d->nitems, 1);
	assert_int_equal(t->d->items[0].state, HOG_BASE_UNCHANGED);
}

/* a finding only the head has, through changed code: new, shown whole */
static void test_new_finding(void **state)
{
	struct ct *t = *state;

	t->base = prog(NULL, NULL, "css_put");
	t->head = prog("helper", NULL, "css_put");
	changed(t, "a");
	compare(t, NULL);
	expect_counts(t->d, 1, 0, 0, HS_WARNING);
	assert_int_equal(t->d->nfresh, 1);
	assert_int_equal(t->d->fresh[0].state, HOG_BASE_NEW);
	assert_int_equal(t->d->fresh[0].f->npaths, 1);
	assert_int_equal(t->d->items[0].state, HOG_BASE_NEW);
}

/* the same difference outside the changed functions is not the change's doing */
static void test_outside_changed_code(void **state)
{
	struct ct *t = *state;

	t->base = prog(NULL, NULL, "css_put");
	t->head = prog("helper", NULL, "css_put");
	changed(t, "unrelated");
	compare(t, NULL);
	expect_counts(t->d, 0, 0, 0, -1);
	assert_int_equal(t->d->nitems, 0);
}

/* a new holder reaching an old site: new, seen through the new way only */
static void test_new_way(void **state)
{
	struct ct *t = *state;

	t->base = prog("helper", NULL, "css_put");
	t->head = prog("helper", "helper", "css_put");
	changed(t, "b");
	compare(t, NULL);
	expect_counts(t->d, 1, 0, 0, HS_WARNING);
	assert_int_equal(t->d->nfresh, 1);
	assert_int_equal(t->d->fresh[0].f->npaths, 1);
	assert_string_equal(t->d->fresh[0].f->paths[0].holder, "b");
	assert_int_equal(t->d->items[0].state, HOG_BASE_NEW);
}

/* a holder no longer reaching the site: the finding stays, updated, one fixed */
static void test_lost_way(void **state)
{
	struct ct *t = *state;

	t->base = prog("helper", "helper", "css_put");
	t->head = prog("helper", NULL, "css_put");
	changed(t, "b");
	compare(t, NULL);
	expect_counts(t->d, 0, 1, 0, -1);
	assert_int_equal(t->d->nitems, 1);
	assert_int_equal(t->d->items[0].state, HOG_BASE_UPDATED);
	assert_int_equal(t->d->ngone, 1);
	assert_int_equal(t->d->gone[0].state, HOG_BASE_UPDATED);
	assert_string_equal(t->d->gone[0].f->paths[0].holder, "b");
}

/* the only holder gone: absent, fixed */
static void test_fixed(void **state)
{
	struct ct *t = *state;

	t->base = prog("helper", NULL, "css_put");
	t->head = prog(NULL, NULL, "css_put");
	changed(t, "a");
	compare(t, NULL);
	expect_counts(t->d, 0, 1, 0, -1);
	assert_int_equal(t->d->nitems, 1);
	assert_int_equal(t->d->items[0].state, HOG_BASE_ABSENT);
	assert_int_equal(t->d->ngone, 1);
	assert_int_equal(t->d->gone[0].state, HOG_BASE_ABSENT);
}

/* the costly call moved from the helper into the holder: same holder, same cost, not new */
static void test_moved(void **state)
{
	struct ct *t = *state;

	t->base = prog("helper", NULL, "css_put");
	t->head = prog("css_put", NULL, "css_put");
	changed(t, "a");
	changed(t, "helper");
	compare(t, NULL);
	assert_int_equal(t->d->worst, -1);
	assert_int_equal(t->d->nfresh, 0);
	assert_int_equal(t->d->nfixed, 0);
}

/* a finding the baseline accepts is left out; a new way into it would not be */
static void test_baseline(void **state)
{
	struct ct *t = *state;
	char path[] = "/tmp/hogtest-baseline.XXXXXX";
	struct hog_accepted *acc;
	char *err = NULL;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	t->base = prog(NULL, NULL, "css_put");
	t->head = prog("helper", NULL, "css_put");
	assert_int_equal(hog_baseline_write(t->head->prog, path), 0);
	acc = hog_baseline_load(path, &err);
	assert_non_null(acc);
	assert_true(hog_baseline_accepts(acc, hog_prog_finding(t->head->prog, 0)));
	assert_false(hog_baseline_accepts(NULL, hog_prog_finding(t->head->prog, 0)));
	changed(t, "a");
	compare(t, acc);
	expect_counts(t->d, 0, 0, 0, -1);
	hog_baseline_free(acc);
	/* and a file that is not a baseline is refused with a one-line reason */
	assert_int_equal(hog_write_file_atomic(path, "{\"x\": 1}", 8), 0);
	assert_null(hog_baseline_load(path, &err));
	assert_non_null(strstr(err, "not a lockhog baseline"));
	free(err);
	unlink(path);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_same),
		T(test_new_finding),
		T(test_outside_changed_code),
		T(test_new_way),
		T(test_lost_way),
		T(test_fixed),
		T(test_moved),
		T(test_baseline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
