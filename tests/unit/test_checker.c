// SPDX-License-Identifier: GPL-2.0
/*
 * The checker interface: a kind registered at run time gets its
 * findings through the engine like the built-in ones (lock named,
 * carried to callers, ranked, fingerprinted, worded), and the built-in
 * kinds are the table's.
 */
#include "hogtest.h"
#include "checker.h"

#define ZL "&$0/zone.lock"
#define LOCK_RULES \
	"lock spin_lock op=acquire arg=0 kind=spin\n" \
	"lock spin_unlock op=release arg=0 kind=spin\n"

static int toy_kind = -1;

/* A toy kind: any call to toy_slow() is a cost. */
static void toy_call(struct fs *fs, const struct tset *set, const struct callv *cv)
{
	struct hog_cost *c;

	if (strcmp(cv->ev->callee, "toy_slow"))
		return;
	c = eng_cost_new(fs, toy_kind, eng_intern(fs, "toy-class"),
			 eng_intern(fs, "the toy says so"), cv->ev->callee, 0,
			 cv->ev->line, cv->ev->col, NULL);
	eng_cost_at(fs, set, c);
}

static void toy_message(struct hog_buf *b, const struct hog_finding *f,
			const struct hog_path *p)
{
	hog_buf_printf(b, "%s() is slow, ", f->callee);
}

static const struct hog_checker check_toy = {
	.name = "toy",
	.call = toy_call,
	.message = toy_message,
};

static int setup(void **state)
{
	if (toy_kind < 0)
		toy_kind = hog_checker_register(&check_toy);
	return toy_kind < 0;
}

static int teardown(void **state)
{
	ht_world_free(*state);
	*state = NULL;
	return 0;
}

/* void holder(struct zone *zone) { spin_lock(&zone->lock); helper(zone); spin_unlock(...); } */
static void build(struct ht_world *w)
{
	struct hog_module *m = ht_module(w, "mm/toy.c");
	struct hog_func *f = ht_fn(m, "helper", 1, 20, 0, 1, "zone", NULL);

	ht_call(m, f, 0, 21, "toy_slow", -1, "&$0", NULL);
	ht_ret(m, f, 0, 22, NULL);
	ht_done(m, f);
	f = ht_fn(m, "holder", 0, 10, 0, 1, "zone", NULL);
	ht_call(m, f, 0, 11, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, 12, "helper", -1, "&$0", NULL);
	ht_call(m, f, 0, 13, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 0, 14, NULL);
	ht_done(m, f);
}

static void test_toy_checker(void **state)
{
	struct ht_world *w = ht_world_new(LOCK_RULES, 0);
	const struct hog_finding *f;
	char *msg;

	*state = w;
	build(w);
	ht_solve(w);
	assert_int_equal(hog_prog_nfindings(w->prog), 1);
	f = ht_find(w->prog, toy_kind, "toy_slow");
	assert_non_null(f);
	assert_string_equal(hog_kind_name(f->kind), "toy");
	assert_string_equal(hog_finding_option(f), "-Wlockhog-toy");
	assert_int_equal(f->sev, HS_WARNING);
	assert_string_equal(f->paths[0].holder, "holder");
	assert_string_equal(f->site_func, "helper");
	ht_assert_path(f, 0, "holder -> helper -> toy_slow");
	msg = hog_finding_message(f, NULL);
	assert_string_equal(msg, "toy_slow() is slow, with zone->lock held");
	free(msg);
	assert_int_equal(hog_kind_by_name("toy"), toy_kind);
}

/* spin_lock(&zone->lock); zone_unlock_slow(zone); toy_slow(zone); */
static int after_unknown_unlock(void **state, const char *extra)
{
	struct ht_world *w = ht_world_new(extra, 0);
	struct hog_module *m;
	struct hog_func *f;

	*state = w;
	m = ht_module(w, "mm/toy.c");
	f = ht_fn(m, "holder", 0, 10, 0, 1, "zone", NULL);
	ht_call(m, f, 0, 11, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, 12, "zone_unlock_slow", -1, "&$0", NULL);
	ht_call(m, f, 0, 13, "toy_slow", -1, "&$0", NULL);
	ht_ret(m, f, 0, 14, NULL);
	ht_done(m, f);
	ht_solve(w);
	return hog_prog_nfindings(w->prog);
}

/* Releasing by name is the catalogue's word, not the engine's. */
static void test_release_by_name(void **state)
{
	assert_int_equal(after_unknown_unlock(state, LOCK_RULES), 1);
	ht_world_free(*state);
	assert_int_equal(after_unknown_unlock(state, LOCK_RULES "release-by-name unlock\n"), 0);
}

/*
 * spin_lock(&zone->lock) on a path that already holds it (a loop back
 * the analysis cannot rule out) is one hold: one unlock ends it.
 */
static void test_no_stacked_hold(void **state)
{
	struct ht_world *w = ht_world_new(LOCK_RULES, 0);
	struct hog_module *m;
	struct hog_func *f;

	*state = w;
	m = ht_module(w, "mm/toy.c");
	f = ht_fn(m, "relock", 0, 10, 0, 1, "zone", NULL);
	ht_call(m, f, 0, 11, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, 12, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, 13, "spin_unlock", -1, ZL, NULL);
	ht_call(m, f, 0, 14, "toy_slow", -1, "&$0", NULL);
	ht_ret(m, f, 0, 15, NULL);
	ht_done(m, f);
	ht_solve(w);
	assert_int_equal(hog_prog_nfindings(w->prog), 0);
}

static void test_registry(void **state)
{
	static const struct hog_checker other = { .name = "other" };
	int k;

	assert_string_equal(hog_checker(HK_CALL)->name, "call");
	assert_string_equal(hog_checker(HK_LOOP)->name, "loop");
	assert_string_equal(hog_checker(HK_SLEEP)->name, "sleep");
	assert_string_equal(hog_checker(HK_ATOMIC)->name, "atomic");
	assert_true(hog_kind_sleeps(HK_SLEEP) && !hog_kind_sleeps(HK_CALL));
	assert_true(hog_kind_at_site(HK_LOOP) && !hog_kind_at_site(HK_ATOMIC));
	assert_null(hog_checker(-1));
	assert_null(hog_checker(HOG_MAX_KINDS));
	/* a name is one kind */
	assert_int_equal(hog_checker_register(&check_toy), -1);
	k = hog_checker_register(&other);
	assert_true(k > toy_kind);
	assert_int_equal(hog_kind_by_name("other"), k);
	assert_int_equal(hog_kind_by_name("nope"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_toy_checker, teardown),
		cmocka_unit_test_teardown(test_release_by_name, teardown),
		cmocka_unit_test_teardown(test_no_stacked_hold, teardown),
		cmocka_unit_test(test_registry),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
