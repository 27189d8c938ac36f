// SPDX-License-Identifier: GPL-2.0
/*
 * The choice of a fix (core/fixplan.c): which semantic patch a finding
 * gets and the function and file it runs on, the one rule lockhog fix
 * applies and lockhog review suggests.
 */
#include "hogtest.h"
#include "fixplan.h"

#define ZL "&$0/zone.lock"

static int teardown(void **state)
{
	ht_world_free(*state);
	*state = NULL;
	return 0;
}

/* void NAME(struct zone *zone) { LOCK(zone->lock); CALLEE(zone); UNLOCK(zone->lock); } */
static void holder(struct hog_module *m, const char *name, int line, const char *lock,
		   const char *callee, const char *unlock)
{
	struct hog_func *f = ht_fn(m, name, 0, line, 0, 1, "zone", NULL);

	ht_call(m, f, 0, line + 1, lock, -1, ZL, NULL);
	ht_call(m, f, 0, line + 2, callee, -1, "&$0", NULL);
	ht_call(m, f, 0, line + 3, unlock, -1, ZL, NULL);
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

/* void NAME(struct zone *zone) { [LOCK;] while (more) process_item(zone); [UNLOCK;] } */
static void drain(struct hog_module *m, const char *name, int line, int locks)
{
	struct hog_func *f = ht_fn(m, name, 0, line, 1, 4, "zone", NULL);

	if (locks)
		ht_call(m, f, 0, line + 1, "spin_lock", -1, ZL, NULL);
	ht_succ(m, f, 0, 1, 1);
	ht_assign(m, f, 1, line + 2, NULL, 0, "?");
	ht_branch(m, f, 1, HC_NEZ, 0, 2, 3);
	ht_call(m, f, 2, line + 3, "process_item", -1, "&$0", NULL);
	ht_succ(m, f, 2, 1, 1);
	if (locks)
		ht_call(m, f, 3, line + 5, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 3, line + 6, NULL);
	ht_loop(m, f, 1, line + 2, -1, HL_OTHER, 2, 1, 2);
	ht_done(m, f);
}

static const struct hog_finding *only(struct ht_world *w, int kind)
{
	if (ht_count(w->prog, -1, NULL) != 1)
		ht_dump(w->prog);
	assert_int_equal(ht_count(w->prog, -1, NULL), 1);
	return ht_find(w->prog, kind, NULL);
}

static void expect_fix(const struct hog_finding *f, enum hog_fix_kind kind, const char *cocci,
		       const char *fn, const char *file, int nocond)
{
	struct hog_fix x;

	assert_non_null(f);
	assert_int_equal(hog_fix_choice(f, &x), kind);
	assert_int_equal(x.kind, kind);
	if (kind == HOG_FIX_NONE) {
		assert_null(x.cocci);
		assert_null(x.fn);
		return;
	}
	assert_string_equal(x.cocci, cocci);
	assert_non_null(x.what);
	assert_string_equal(x.fn, fn);
	assert_string_equal(x.file, file);
	assert_int_equal(x.nocond, nocond);
}

/* the holder calls the costly callee itself: move the call, in the holder */
static void test_direct_call(void **state)
{
	struct ht_world *w = *state = ht_world_new(NULL, 1);

	holder(ht_module(w, "mm/a.c"), "holder", 10, "spin_lock", "page_counter_uncharge",
	       "spin_unlock");
	ht_solve(w);
	expect_fix(only(w, HK_CALL), HOG_FIX_COSTLY_CALL, "lock_costly_call.cocci", "holder",
		   "mm/a.c", 0);
}

/* through a helper: split the helper (the function holding the costly call), in its file */
static void test_helper_call(void **state)
{
	struct ht_world *w = *state = ht_world_new(NULL, 1);

	passes(ht_module(w, "mm/b.c"), "put_stock", 30, "css_put");
	holder(ht_module(w, "mm/a.c"), "holder", 10, "spin_lock", "put_stock", "spin_unlock");
	ht_solve(w);
	expect_fix(only(w, HK_CALL), HOG_FIX_RELEASE_HELPER, "lock_release_helper.cocci",
		   "put_stock", "mm/b.c", 0);
}

/* a loop whose own function takes the lock: break it, cond_resched() allowed */
static void test_loop_own_lock(void **state)
{
	struct ht_world *w = *state = ht_world_new(NULL, 1);

	drain(ht_module(w, "mm/a.c"), "drain", 10, 1);
	ht_solve(w);
	expect_fix(only(w, HK_LOOP), HOG_FIX_LOOP_BREAK, "lock_loop_break.cocci", "drain",
		   "mm/a.c", 0);
}

/* a loop reached with a caller's lock held: no cond_resched() */
static void test_loop_caller_lock(void **state)
{
	struct ht_world *w = *state = ht_world_new(NULL, 1);
	struct hog_module *m = ht_module(w, "mm/a.c");

	drain(m, "drain", 10, 0);
	holder(m, "holder", 30, "spin_lock", "drain", "spin_unlock");
	ht_solve(w);
	expect_fix(only(w, HK_LOOP), HOG_FIX_LOOP_BREAK, "lock_loop_break.cocci", "drain",
		   "mm/a.c", 1);
}

/* a note (a cost under a sleeping lock) is not restructured, however direct */
static void test_note_not_fixed(void **state)
{
	struct ht_world *w = *state = ht_world_new(NULL, 1);
	const struct hog_finding *f;

	holder(ht_module(w, "mm/a.c"), "holder", 10, "mutex_lock", "css_put", "mutex_unlock");
	ht_solve(w);
	f = ht_find(w->prog, HK_CALL, "css_put");
	assert_non_null(f);
	assert_int_equal(f->sev, HS_NOTE);
	assert_int_equal(f->paths[0].nchain, 1);
	expect_fix(f, HOG_FIX_NONE, NULL, NULL, NULL, 0);
}

/* a call that may sleep is a bug: no transformation makes it right */
static void test_sleep_not_fixed(void **state)
{
	struct ht_world *w = *state = ht_world_new(NULL, 1);

	holder(ht_module(w, "mm/a.c"), "holder", 10, "spin_lock", "msleep", "spin_unlock");
	ht_solve(w);
	expect_fix(only(w, HK_SLEEP), HOG_FIX_NONE, NULL, NULL, NULL, 0);
}

/* a finding whose way has no chain names no function to run on */
static void test_no_chain_not_fixed(void **state)
{
	struct ht_world *w = *state = ht_world_new(NULL, 1);
	struct hog_finding f;
	struct hog_path p;

	holder(ht_module(w, "mm/a.c"), "holder", 10, "spin_lock", "page_counter_uncharge",
	       "spin_unlock");
	ht_solve(w);
	f = *only(w, HK_CALL);
	p = f.paths[0];
	p.nchain = 0;
	f.paths = &p;
	expect_fix(&f, HOG_FIX_NONE, NULL, NULL, NULL, 0);
	f.paths = (struct hog_path *)only(w, HK_CALL)->paths;
	f.site_file = NULL;
	expect_fix(&f, HOG_FIX_NONE, NULL, NULL, NULL, 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_teardown(fn, teardown)
	const struct CMUnitTest tests[] = {
		T(test_direct_call),
		T(test_helper_call),
		T(test_loop_own_lock),
		T(test_loop_caller_lock),
		T(test_note_not_fixed),
		T(test_sleep_not_fixed),
		T(test_no_chain_not_fixed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
