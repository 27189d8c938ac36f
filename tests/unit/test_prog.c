// SPDX-License-Identifier: GPL-2.0
/*
 * The whole program: summaries composed over the call graph, chains
 * from the lock holder to the costly site, name resolution across
 * translation units, grouping of paths into findings, severities,
 * fingerprints and the words of a finding.
 */
#include "hogtest.h"

#define ZL "&$0/zone.lock"

static int teardown(void **state)
{
	ht_world_free(*state);
	*state = NULL;
	return 0;
}

static struct ht_world *world(void **state, const char *extra)
{
	struct ht_world *w = ht_world_new(extra, 1);

	*state = w;
	return w;
}

static void expect_findings(struct ht_world *w, int kind, int n)
{
	if (ht_count(w->prog, kind, NULL) != n)
		ht_dump(w->prog);
	assert_int_equal(ht_count(w->prog, kind, NULL), n);
}

static void expect_message(const struct hog_finding *f, const char *want)
{
	char *msg = hog_finding_message(f, NULL);

	assert_non_null(msg);
	assert_string_equal(msg, want);
	free(msg);
}

/* ---- building blocks ---- */

/* void NAME(struct zone *zone) { LOCK(expr); CALLEE(zone); UNLOCK(expr); } */
static struct hog_func *holder(struct hog_module *m, const char *name, int line,
			       const char *lock, const char *expr,
			       const char *callee, const char *unlock)
{
	struct hog_func *f = ht_fn(m, name, 0, line, 0, 1, "zone", NULL);

	ht_call(m, f, 0, line + 1, lock, -1, expr, NULL);
	ht_call(m, f, 0, line + 2, callee, -1, "&$0", NULL);
	ht_call(m, f, 0, line + 3, unlock, -1, expr, NULL);
	ht_ret(m, f, 0, line + 4, NULL);
	ht_done(m, f);
	return f;
}

static struct hog_func *spin_holder(struct hog_module *m, const char *name, int line,
				    const char *callee)
{
	return holder(m, name, line, "spin_lock", ZL, callee, "spin_unlock");
}

/* [static] void NAME(struct zone *zone) { CALLEE(zone); } */
static struct hog_func *passes(struct hog_module *m, const char *name, int is_static,
			       int line, const char *callee)
{
	struct hog_func *f = ht_fn(m, name, is_static, line, 0, 1, "zone", NULL);

	ht_call(m, f, 0, line + 1, callee, -1, "&$0", NULL);
	ht_ret(m, f, 0, line + 2, NULL);
	ht_done(m, f);
	return f;
}

/* ---- chains ---- */

static void build_chain(struct hog_module *m, int d)
{
	passes(m, "helper_b", 1, 30 + d, "css_put");
	passes(m, "helper_a", 1, 20 + d, "helper_b");
	spin_holder(m, "holder", 10 + d, "helper_a");
}

static void test_chain_two_static_helpers(void **state)
{
	struct ht_world *w = world(state, NULL);
	const struct hog_finding *f;
	const struct hog_path *p;
	const char *names[8];

	build_chain(ht_module(w, "mm/a.c"), 0);
	ht_solve(w);
	expect_findings(w, -1, 1);
	f = ht_find(w->prog, HK_CALL, "css_put");
	assert_non_null(f);
	assert_int_equal(f->sev, HS_WARNING);
	assert_string_equal(f->cls, HOG_CLS_REF);
	assert_int_equal(f->listed, 1);
	assert_string_equal(f->site_func, "helper_b");
	assert_string_equal(f->site_file, "mm/a.c");
	assert_int_equal(f->site_line, 31);
	assert_int_equal(f->npaths, 1);
	p = &f->paths[0];
	assert_string_equal(p->holder, "holder");
	assert_string_equal(p->file, "mm/a.c");
	assert_int_equal(p->line, 12);
	assert_int_equal(p->nchain, 3);
	assert_int_equal(p->chain[1].line, 21);
	assert_int_equal(p->chain[2].line, 31);
	assert_string_equal(p->lock.name, "zone->lock");
	assert_string_equal(p->lock.cls, "zone.lock");
	assert_int_equal(hog_path_names(f, p, names, 8), 4);
	assert_string_equal(names[0], "holder");
	assert_string_equal(names[1], "helper_a");
	assert_string_equal(names[2], "helper_b");
	assert_string_equal(names[3], "css_put");
	/* names are the program's interned strings */
	assert_ptr_equal(names[3], hog_intern(w->strs, "css_put"));
	ht_assert_path(f, 0, "holder -> helper_a -> helper_b -> css_put");
	expect_message(f, "css_put() reached with zone->lock held");
	assert_string_equal(hog_finding_option(f), "-Wlockhog-call");
	assert_int_equal(hog_prog_nincomplete(w->prog), 0);
}

static void test_chain_summaries(void **state)
{
	struct ht_world *w = world(state, NULL);
	const struct hog_summary *s;

	build_chain(ht_module(w, "mm/a.c"), 0);
	ht_solve(w);
	s = hog_prog_summary(w->prog, "mm/a.c", "helper_a");
	assert_non_null(s);
	assert_int_equal(s->ncost, 1);
	assert_int_equal(s->cost[0].nchain, 2);
	assert_string_equal(s->cost[0].chain[0].func, "helper_a");
	assert_string_equal(s->cost[0].chain[1].func, "helper_b");
	assert_string_equal(s->cost[0].callee, "css_put");
	/* statics are found in their own unit only */
	assert_null(hog_prog_summary(w->prog, "mm/other.c", "helper_a"));
	/* globals from anywhere */
	assert_non_null(hog_prog_summary(w->prog, "mm/other.c", "holder"));
	assert_null(hog_prog_summary(w->prog, "mm/a.c", "css_put"));
	assert_int_equal(hog_prog_nfuncs(w->prog), 3);
}

/* chains are followed "chain=N" deep */
static void test_chain_depth_limit(void **state)
{
	struct ht_world *w = world(state, "loop chain=2\n");
	struct hog_module *m = ht_module(w, "mm/a.c");

	passes(m, "h3", 1, 40, "css_put");
	passes(m, "h2", 1, 30, "h3");
	passes(m, "h1", 1, 20, "h2");
	spin_holder(m, "deep", 10, "h1");	/* deep h1 h2 h3: too long */
	spin_holder(m, "shallow", 50, "h2");	/* shallow h2 h3: fine */
	ht_solve(w);
	expect_findings(w, -1, 1);
	assert_int_equal(ht_find(w->prog, HK_CALL, "css_put")->npaths, 1);
	ht_assert_path(ht_find(w->prog, HK_CALL, "css_put"), 0, "shallow -> h2 -> h3 -> css_put");
}

/* ---- lock state through calls ---- */

static void test_trylock_paths(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "try_drain", 0, 1, 1, 4, "zone", NULL);
	const struct hog_finding *fi;

	ht_call(m, f, 0, 10, "spin_trylock", 0, ZL, NULL);
	ht_branch(m, f, 0, HC_NEZ, 0, 1, 2);
	ht_call(m, f, 1, 20, "css_put", -1, "?", NULL);
	ht_call(m, f, 1, 21, "spin_unlock", -1, ZL, NULL);
	ht_succ(m, f, 1, 1, 3);
	ht_call(m, f, 2, 30, "mmdrop", -1, "?", NULL);
	ht_succ(m, f, 2, 1, 3);
	ht_ret(m, f, 3, 40, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_non_null(fi);
	assert_int_equal(fi->site_line, 20);
	assert_int_equal(ht_count(w->prog, -1, "mmdrop"), 0);
}

/* a trylock wrapper: the caller holds the lock where it returned non-zero */
static void test_trylock_wrapper(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "zone_trylock", 1, 1, 1, 3, "zone", NULL);

	ht_call(m, f, 0, 2, "spin_trylock", 0, ZL, NULL);
	ht_branch(m, f, 0, HC_NEZ, 0, 1, 2);
	ht_ret(m, f, 1, 3, "#1");
	ht_ret(m, f, 2, 4, "#0");
	ht_done(m, f);
	f = ht_fn(m, "caller", 0, 10, 1, 3, "zone", NULL);
	ht_call(m, f, 0, 11, "zone_trylock", 0, "&$0", NULL);
	ht_branch(m, f, 0, HC_NEZ, 0, 1, 2);
	ht_call(m, f, 1, 12, "css_put", -1, "?", NULL);
	ht_call(m, f, 1, 13, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 1, 14, NULL);
	ht_call(m, f, 2, 15, "mmdrop", -1, "?", NULL);
	ht_ret(m, f, 2, 16, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	assert_non_null(ht_find(w->prog, HK_CALL, "css_put"));
	assert_string_equal(ht_find(w->prog, HK_CALL, "css_put")->paths[0].holder, "caller");
}

static void test_irqsave_irqs_off(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "holder", 0, 1, 2, 1, "zone", NULL);
	const struct hog_finding *fi;

	ht_call(m, f, 0, 10, "spinlock_check", 0, ZL, NULL);
	ht_call(m, f, 0, 10, "_raw_spin_lock_irqsave", 1, "v0", NULL);
	ht_call(m, f, 0, 11, "css_put", -1, "?", NULL);
	ht_call(m, f, 0, 12, "spin_unlock_irqrestore", -1, ZL, "v1", NULL);
	ht_call(m, f, 0, 13, "mmdrop", -1, "?", NULL);
	ht_ret(m, f, 0, 14, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_int_equal(fi->irqs_off, 1);
	assert_int_equal(fi->paths[0].irqs_off, 1);
	assert_int_equal(fi->sev, HS_WARNING);
	expect_message(fi, "css_put() called with zone->lock held and IRQs off");
}

/* IRQs switched off in a helper stay off in its caller */
static void test_irqs_off_through_helper(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f;
	const struct hog_finding *fi;

	passes(m, "zone_lock_irq", 1, 1, "spin_lock_irq");
	f = ht_fn(m, "holder", 0, 10, 0, 1, "zone", NULL);
	ht_call(m, f, 0, 11, "zone_lock_irq", -1, "&$0/zone.lock", NULL);
	ht_call(m, f, 0, 12, "css_put", -1, "?", NULL);
	ht_call(m, f, 0, 13, "spin_unlock_irq", -1, ZL, NULL);
	ht_call(m, f, 0, 14, "mmdrop", -1, "?", NULL);
	ht_ret(m, f, 0, 15, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_non_null(fi);
	assert_string_equal(fi->paths[0].holder, "holder");
	assert_string_equal(fi->paths[0].lock.name, "zone->lock");
	assert_int_equal(fi->irqs_off, 1);
}

static void test_release_one_path_then_join(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "holder", 0, 1, 1, 3, "zone", NULL);
	const struct hog_finding *fi;

	ht_call(m, f, 0, 10, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, 11, "check", 0, NULL);
	ht_branch(m, f, 0, HC_NEZ, 0, 1, 2);
	ht_call(m, f, 1, 20, "spin_unlock", -1, ZL, NULL);
	ht_succ(m, f, 1, 1, 2);
	ht_call(m, f, 2, 30, "css_put", -1, "?", NULL);
	ht_ret(m, f, 2, 31, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_int_equal(fi->site_line, 30);
	assert_string_equal(fi->paths[0].lock.name, "zone->lock");
}

/* static void zone_lock(struct zone *zone) { spin_lock(&zone->lock); } */
static void test_lock_wrapper_acquires_at_caller(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f;
	const struct hog_finding *fi;

	passes(m, "zone_lock", 1, 1, "spin_lock");	/* spin_lock(zone) */
	passes(m, "zone_unlock", 1, 5, "spin_unlock");
	f = ht_fn(m, "holder", 0, 10, 0, 1, "zone", NULL);
	ht_call(m, f, 0, 11, "zone_lock", -1, ZL, NULL);
	ht_call(m, f, 0, 12, "css_put", -1, "?", NULL);
	ht_call(m, f, 0, 13, "zone_unlock", -1, ZL, NULL);
	ht_call(m, f, 0, 14, "mmdrop", -1, "?", NULL);
	ht_ret(m, f, 0, 15, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_non_null(fi);
	assert_int_equal(fi->npaths, 1);
	assert_string_equal(fi->paths[0].holder, "holder");
	assert_int_equal(fi->paths[0].nchain, 1);
	assert_string_equal(fi->paths[0].lock.name, "zone->lock");
	assert_string_equal(fi->paths[0].lock.cls, "zone.lock");
	assert_int_equal(fi->paths[0].lock.line, 11);
	/* the wrapper's own summary */
	assert_int_equal(hog_prog_summary(w->prog, "mm/a.c", "zone_lock")->nacq, 1);
	assert_string_equal(hog_prog_summary(w->prog, "mm/a.c", "zone_lock")->acq[0].expr, "$0");
}

/* a helper that gives the caller's lock up around a sleep */
static void test_lock_break_in_helper(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "relax", 1, 1, 0, 1, "zone", NULL);

	ht_call(m, f, 0, 2, "spin_unlock", -1, ZL, NULL);
	ht_call(m, f, 0, 3, "_cond_resched", -1, NULL);
	ht_call(m, f, 0, 4, "spin_lock", -1, ZL, NULL);
	ht_ret(m, f, 0, 5, NULL);
	ht_done(m, f);
	spin_holder(m, "holder", 10, "relax");
	ht_solve(w);
	expect_findings(w, -1, 0);
}

/*
 *	spin_lock(&zone->lock);
 *	while (more) { process_item(); [relax(zone);] }
 *	spin_unlock(&zone->lock);
 */
static struct hog_func *drain(struct hog_module *m, const char *name, int line,
			      long long bound, const char *brk, const char *brk_arg)
{
	struct hog_func *f = ht_fn(m, name, 0, line, 1, 4, "zone", NULL);

	ht_call(m, f, 0, line + 1, "spin_lock", -1, ZL, NULL);
	ht_succ(m, f, 0, 1, 1);
	ht_assign(m, f, 1, line + 2, NULL, 0, "?");
	ht_branch(m, f, 1, HC_NEZ, 0, 2, 3);
	ht_call(m, f, 2, line + 3, "process_item", -1, "&$0", NULL);
	if (brk)
		ht_call(m, f, 2, line + 4, brk, -1, brk_arg, NULL);
	ht_succ(m, f, 2, 1, 1);
	ht_call(m, f, 3, line + 5, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 3, line + 6, NULL);
	ht_loop(m, f, 1, line + 2, bound, HL_OTHER, 2, 1, 2);
	ht_done(m, f);
	return f;
}

static void test_loop_unbounded(void **state)
{
	struct ht_world *w = world(state, NULL);
	const struct hog_finding *f;
	const char *names[4];

	drain(ht_module(w, "mm/a.c"), "drain", 10, -1, NULL, NULL);
	ht_solve(w);
	expect_findings(w, -1, 1);
	f = ht_find(w->prog, HK_LOOP, NULL);
	assert_non_null(f);
	assert_string_equal(f->cls, HOG_CLS_LOOP);
	assert_string_equal(f->callee, "process_item");
	assert_string_equal(f->site_func, "drain");
	assert_int_equal(f->site_line, 12);
	assert_int_equal(f->sev, HS_WARNING);
	/* a loop's chain ends at the looping function */
	assert_int_equal(hog_path_names(f, &f->paths[0], names, 4), 1);
	ht_assert_path(f, 0, "drain");
	expect_message(f, "unbounded loop in drain() calling process_item() runs with zone->lock held");
	assert_string_equal(hog_finding_option(f), "-Wlockhog-loop");
}

static void test_loop_bounded(void **state)
{
	struct ht_world *w = world(state, NULL);

	drain(ht_module(w, "mm/a.c"), "drain", 10, 8, NULL, NULL);
	ht_solve(w);
	expect_findings(w, -1, 0);
}

static void test_loop_lock_break(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "relax", 1, 1, 0, 1, "zone", NULL);

	ht_call(m, f, 0, 2, "spin_unlock", -1, ZL, NULL);
	ht_call(m, f, 0, 3, "_cond_resched", -1, NULL);
	ht_call(m, f, 0, 4, "spin_lock", -1, ZL, NULL);
	ht_ret(m, f, 0, 5, NULL);
	ht_done(m, f);
	drain(m, "drain", 10, -1, "relax", "&$0");
	drain(m, "drain2", 30, -1, "cond_resched_lock", ZL);
	ht_solve(w);
	expect_findings(w, -1, 0);
}

/* a loop in a helper called with the lock held */
static void test_loop_in_helper(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "free_list", 1, 1, 1, 3, "zone", NULL);
	const struct hog_finding *fi;

	ht_succ(m, f, 0, 1, 1);
	ht_assign(m, f, 1, 2, NULL, 0, "?");
	ht_branch(m, f, 1, HC_NEZ, 0, 1, 2);
	ht_call(m, f, 1, 3, "process_item", -1, NULL);
	ht_ret(m, f, 2, 4, NULL);
	ht_loop(m, f, 1, 2, -1, HL_OTHER, 1, 1);
	ht_done(m, f);
	spin_holder(m, "holder", 10, "free_list");
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_LOOP, NULL);
	assert_non_null(fi);
	assert_string_equal(fi->site_func, "free_list");
	ht_assert_path(fi, 0, "holder -> free_list");
}

/*
 * static void walk_up(struct page_counter *c)
 * {
 *	for (; c; c = c->parent)
 *		atomic_long_add(nr, &c->usage);
 * }
 */
static void walk_up(struct hog_module *m)
{
	struct hog_func *f = ht_fn(m, "walk_up", 1, 1, 1, 3, "c", NULL);

	ht_succ(m, f, 0, 1, 1);
	ht_atomic(m, f, 1, 2, "v0");
	ht_assign(m, f, 1, 3, NULL, 0, "?");
	ht_branch(m, f, 1, HC_NEZ, 0, 1, 2);
	ht_ret(m, f, 2, 4, NULL);
	ht_loop(m, f, 1, 2, -1, HL_PARENT_WALK, 1, 1);
	ht_done(m, f);
}

static void test_parent_walk_hier_atomic(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	const struct hog_finding *f;

	walk_up(m);
	passes(m, "charge", 0, 10, "walk_up");		/* no lock: nothing here */
	spin_holder(m, "holder", 20, "charge");
	ht_solve(w);
	expect_findings(w, -1, 1);
	f = ht_find(w->prog, HK_CALL, "walk_up");
	assert_non_null(f);
	assert_string_equal(f->cls, HOG_CLS_HIER);
	assert_int_equal(f->sev, HS_WARNING);
	assert_int_equal(f->npaths, 1);
	assert_string_equal(f->paths[0].holder, "holder");
	assert_string_equal(f->site_func, "charge");
	ht_assert_path(f, 0, "holder -> charge -> walk_up");
	assert_non_null(hog_prog_summary(w->prog, "mm/a.c", "walk_up")->self);
}

/* static void inc(atomic_long_t *v) { atomic_long_inc(v); } called on a global */
static void test_global_atomic_through_helper(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "inc", 1, 1, 0, 1, "v", NULL);
	const struct hog_finding *fi;

	ht_atomic(m, f, 0, 2, "&$0");
	ht_ret(m, f, 0, 3, NULL);
	ht_done(m, f);
	f = ht_fn(m, "holder", 0, 10, 0, 1, "zone", NULL);
	ht_call(m, f, 0, 11, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, 12, "inc", -1, "&@nr_isolated", NULL);
	ht_call(m, f, 0, 13, "inc", -1, "&$0/zone.nr_isolated", NULL);
	ht_call(m, f, 0, 14, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 0, 15, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_ATOMIC, NULL);
	assert_non_null(fi);
	assert_string_equal(fi->cls, HOG_CLS_GATOM);
	assert_string_equal(fi->callee, "inc");
	assert_int_equal(fi->site_line, 12);
	assert_non_null(strstr(fi->reason, "nr_isolated"));
	/* one shared cache line, but no IRQs off: a note */
	assert_int_equal(fi->sev, HS_NOTE);
	assert_string_equal(hog_finding_option(fi), "-Wlockhog-atomic");
}

static void test_global_atomic_direct(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "holder", 0, 10, 0, 1, "zone", NULL);
	const struct hog_finding *fi;

	ht_call(m, f, 0, 11, "spin_lock_irq", -1, ZL, NULL);
	ht_atomic(m, f, 0, 12, "&@nr_free_pages");
	ht_call(m, f, 0, 13, "spin_unlock_irq", -1, ZL, NULL);
	ht_ret(m, f, 0, 14, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_ATOMIC, NULL);
	assert_string_equal(fi->cls, HOG_CLS_GATOM);
	assert_string_equal(fi->site_func, "holder");
	assert_int_equal(fi->irqs_off, 1);
	assert_int_equal(fi->sev, HS_WARNING);
	ht_assert_path(fi, 0, "holder");
}

/*
 * An atomic done in place (inline asm, __atomic builtin) has no callee:
 * the message must not show a "?()" placeholder for one.
 */
static void test_global_atomic_direct_message(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "holder", 0, 10, 0, 1, "zone", NULL);
	int where, held, placeholder;
	char *msg;

	ht_call(m, f, 0, 11, "spin_lock", -1, ZL, NULL);
	ht_atomic(m, f, 0, 12, "&@nr_free_pages");
	ht_call(m, f, 0, 13, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 0, 14, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	msg = hog_finding_message(ht_find(w->prog, HK_ATOMIC, NULL), NULL);
	print_message("# message: %s\n", msg);
	where = strstr(msg, "atomic RMW on a global in holder()") != NULL;
	held = strstr(msg, "with zone->lock held") != NULL;
	placeholder = strchr(msg, '?') != NULL;
	free(msg);
	assert_true(where);
	assert_true(held);
	assert_false(placeholder);
}

/* ---- GFP flags ---- */

static struct hog_func *alloc_holder(struct hog_module *m, const char *name, int line,
				     const char *callee, const char *gfp)
{
	struct hog_func *f = ht_fn(m, name, 0, line, 0, 1, "zone", "gfp", NULL);

	ht_call(m, f, 0, line + 1, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, line + 2, callee, -1, "#64", gfp, NULL);
	ht_call(m, f, 0, line + 3, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 0, line + 4, NULL);
	ht_done(m, f);
	return f;
}

static void test_gfp_kernel_under_spinlock(void **state)
{
	struct ht_world *w = world(state, NULL);
	const struct hog_finding *f;

	alloc_holder(ht_module(w, "mm/a.c"), "holder", 10, "kmalloc", "#0xcc0");
	ht_solve(w);
	expect_findings(w, -1, 1);
	f = ht_find(w->prog, HK_SLEEP, "kmalloc");
	assert_non_null(f);
	assert_int_equal(f->sev, HS_ERROR);
	assert_string_equal(f->cls, HOG_CLS_SLEEP);
	expect_message(f, "kmalloc() may sleep, called with zone->lock held");
	assert_string_equal(hog_finding_option(f), "-Wlockhog-sleep");
}

static void test_gfp_atomic_under_spinlock(void **state)
{
	struct ht_world *w = world(state, NULL);

	alloc_holder(ht_module(w, "mm/a.c"), "holder", 10, "kmalloc", "#0x20");
	ht_solve(w);
	expect_findings(w, -1, 0);
}

/* spin_lock(&zone->lock); alloc_obj(gfp); spin_unlock(&zone->lock); */
static void gfp_caller(struct hog_module *m, const char *name, int line,
		       const char *gfp)
{
	struct hog_func *f = ht_fn(m, name, 0, line, 0, 1, "zone", "gfp", NULL);

	ht_call(m, f, 0, line + 1, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, line + 2, "alloc_obj", -1, gfp, NULL);
	ht_call(m, f, 0, line + 3, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 0, line + 4, NULL);
	ht_done(m, f);
}

/* static void *alloc_obj(gfp_t gfp) { return kmalloc(64, gfp); } */
static void test_gfp_through_helper(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "alloc_obj", 1, 1, 0, 1, "gfp", NULL);
	const struct hog_finding *fi;

	ht_call(m, f, 0, 2, "kmalloc", -1, "#64", "&$0", NULL);
	ht_ret(m, f, 0, 3, NULL);
	ht_done(m, f);
	gfp_caller(m, "sleeps", 10, "#0xcc0");	/* GFP_KERNEL */
	gfp_caller(m, "does_not", 20, "#0x20");	/* GFP_ATOMIC */
	gfp_caller(m, "passes_on", 30, "&$1");	/* its own caller's flags */
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_SLEEP, "kmalloc");
	assert_non_null(fi);
	assert_int_equal(fi->npaths, 1);
	assert_string_equal(fi->paths[0].holder, "sleeps");
	assert_string_equal(fi->site_func, "alloc_obj");
	ht_assert_path(fi, 0, "sleeps -> alloc_obj -> kmalloc");
	assert_int_equal(fi->sev, HS_ERROR);
}

/* c(zone) { holder(zone, gfp); } */
static void holder_caller(struct hog_module *m, const char *name, int line, const char *gfp)
{
	struct hog_func *f = ht_fn(m, name, 0, line, 0, 1, "zone", NULL);

	ht_call(m, f, 0, line + 1, "holder", -1, "&$0", gfp, NULL);
	ht_ret(m, f, 0, line + 2, NULL);
	ht_done(m, f);
}

/* static void holder(zone, gfp) { lock; kmalloc(64, gfp); unlock; } */
static void gfp_holder(struct hog_module *m)
{
	struct hog_func *f = ht_fn(m, "holder", 1, 10, 0, 1, "zone", "gfp", NULL);

	ht_call(m, f, 0, 11, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, 12, "kmalloc", -1, "#64", "&$1", NULL);
	ht_call(m, f, 0, 13, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 0, 14, NULL);
	ht_done(m, f);
}

/* Its callers' flags decide the sleep under the holder's own lock: none sleeps. */
static void test_gfp_holders_callers_atomic(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");

	gfp_holder(m);
	holder_caller(m, "atomic_one", 20, "#0x20");	/* GFP_ATOMIC */
	holder_caller(m, "nowait_one", 30, "#0x800");	/* GFP_NOWAIT */
	ht_solve(w);
	expect_findings(w, -1, 0);
}

/* One caller passes GFP_KERNEL: the holder sleeps under its lock. */
static void test_gfp_holders_callers_kernel(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	const struct hog_finding *fi;

	gfp_holder(m);
	holder_caller(m, "atomic_one", 20, "#0x20");
	holder_caller(m, "kernel_one", 30, "#0xcc0");	/* GFP_KERNEL */
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_SLEEP, "kmalloc");
	assert_non_null(fi);
	assert_string_equal(fi->paths[0].holder, "holder");
	assert_int_equal(fi->sev, HS_ERROR);
}

/* ---- sleeping locks ---- */

static void test_costly_under_mutex_is_note(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	const struct hog_finding *f;

	holder(m, "holder", 10, "mutex_lock", "&$0/zone.mutex", "css_put", "mutex_unlock");
	ht_solve(w);
	expect_findings(w, -1, 1);
	f = ht_find(w->prog, HK_CALL, "css_put");
	assert_non_null(f);
	assert_int_equal(f->sev, HS_NOTE);
	assert_int_equal(f->paths[0].lock.sleeping, 1);
	assert_string_equal(f->paths[0].lock.kind, "mutex");
}

static void test_sleep_under_mutex_is_fine(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");

	holder(m, "h1", 10, "mutex_lock", "&$0/zone.mutex", "msleep", "mutex_unlock");
	holder(m, "h2", 20, "down_write", "&$0/zone.sem", "synchronize_rcu", "up_write");
	alloc_holder(m, "h3", 30, "kmalloc", "#0xcc0");
	/* h3 above holds a spinlock: the only finding */
	ht_solve(w);
	expect_findings(w, -1, 1);
	assert_non_null(ht_find(w->prog, HK_SLEEP, "kmalloc"));
}

static void test_sleep_under_spinlock_is_error(void **state)
{
	struct ht_world *w = world(state, NULL);
	const struct hog_finding *f;

	spin_holder(ht_module(w, "mm/a.c"), "holder", 10, "synchronize_rcu");
	ht_solve(w);
	expect_findings(w, -1, 1);
	f = ht_find(w->prog, HK_SLEEP, "synchronize_rcu");
	assert_non_null(f);
	assert_int_equal(f->sev, HS_ERROR);
}

/* ---- across translation units ---- */

static void build_two_units(struct ht_world *w, int b_first, int d)
{
	struct hog_module *a, *b;

	if (b_first) {
		b = ht_module(w, "mm/b.c");
		a = ht_module(w, "mm/a.c");
	} else {
		a = ht_module(w, "mm/a.c");
		b = ht_module(w, "mm/b.c");
	}
	spin_holder(a, "holder", 10 + d, "heavy_helper");
	passes(b, "heavy_helper", 0, 100 + d, "css_put");
}

static void test_cross_module(void **state)
{
	struct ht_world *w = world(state, NULL);
	const struct hog_finding *f;

	build_two_units(w, 0, 0);
	ht_solve(w);
	expect_findings(w, -1, 1);
	f = ht_find(w->prog, HK_CALL, "css_put");
	assert_non_null(f);
	assert_string_equal(f->site_func, "heavy_helper");
	assert_string_equal(f->site_file, "mm/b.c");
	assert_int_equal(f->site_line, 101);
	assert_string_equal(f->paths[0].holder, "holder");
	assert_string_equal(f->paths[0].file, "mm/a.c");
	assert_int_equal(f->paths[0].line, 12);
	ht_assert_path(f, 0, "holder -> heavy_helper -> css_put");
}

static void test_cross_module_order(void **state)
{
	struct ht_world *w = world(state, NULL);
	char fp[17];

	build_two_units(w, 0, 0);
	ht_solve(w);
	expect_findings(w, -1, 1);
	memcpy(fp, hog_prog_finding(w->prog, 0)->fingerprint, sizeof(fp));
	hog_prog_free(w->prog);
	w->prog = NULL;
	build_two_units(w, 1, 0);
	ht_solve(w);
	expect_findings(w, -1, 1);
	assert_string_equal(hog_prog_finding(w->prog, 0)->fingerprint, fp);
	ht_assert_path(hog_prog_finding(w->prog, 0), 0, "holder -> heavy_helper -> css_put");
}

/* static functions of the same name in two units are two functions */
static void test_statics_per_unit(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *a = ht_module(w, "mm/a.c");
	struct hog_module *b = ht_module(w, "mm/b.c");
	struct hog_func *f;
	const struct hog_finding *fi;

	passes(a, "helper", 1, 1, "css_put");
	spin_holder(a, "holder_a", 10, "helper");
	f = ht_fn(b, "helper", 1, 1, 0, 1, "zone", NULL);
	ht_ret(b, f, 0, 2, NULL);
	ht_done(b, f);
	spin_holder(b, "holder_b", 10, "helper");
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_int_equal(fi->npaths, 1);
	assert_string_equal(fi->paths[0].holder, "holder_a");
	assert_string_equal(fi->site_file, "mm/a.c");
	assert_int_equal(hog_prog_nfuncs(w->prog), 4);
}

/* a header's static inline seen by two units is analysed once */
static void test_header_inline_once(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m[2] = { ht_module(w, "mm/a.c"), ht_module(w, "mm/b.c") };
	const struct hog_finding *fi;
	int i;

	for (i = 0; i < 2; i++) {
		struct hog_func *f = ht_fn_in(m[i], "include/linux/memcontrol.h",
					      "put_memcg", 1, 700, 0, 1, "memcg");

		ht_call(m[i], f, 0, 701, "css_put", -1, "&$0/mem_cgroup.css", NULL);
		ht_ret(m[i], f, 0, 702, NULL);
		ht_done(m[i], f);
		spin_holder(m[i], i ? "holder_b" : "holder_a", 10, "put_memcg");
	}
	ht_solve(w);
	assert_int_equal(hog_prog_nfuncs(w->prog), 3);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_string_equal(fi->site_file, "include/linux/memcontrol.h");
	assert_int_equal(fi->npaths, 2);
}

static void test_recursion_terminates(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "ping", 1, 1, 1, 3, "zone", NULL);

	/* ping calls pong calls ping ... and css_put on the way */
	ht_call(m, f, 0, 2, "check", 0, NULL);
	ht_branch(m, f, 0, HC_NEZ, 0, 1, 2);
	ht_call(m, f, 1, 3, "pong", -1, "&$0", NULL);
	ht_ret(m, f, 1, 4, NULL);
	ht_ret(m, f, 2, 5, NULL);
	ht_done(m, f);
	f = ht_fn(m, "pong", 1, 10, 0, 1, "zone", NULL);
	ht_call(m, f, 0, 11, "css_put", -1, "?", NULL);
	ht_call(m, f, 0, 12, "ping", -1, "&$0", NULL);
	ht_ret(m, f, 0, 13, NULL);
	ht_done(m, f);
	spin_holder(m, "holder", 20, "ping");
	ht_solve(w);
	expect_findings(w, -1, 1);
	ht_assert_path(ht_find(w->prog, HK_CALL, "css_put"), 0, "holder -> ping -> pong -> css_put");
}

/*
 * A recursive group solved to its fixed point: the cost at the far end
 * of a cycle of six must reach the holder whatever order the members
 * are analysed in, and no limit is reported.
 */
static void test_recursion_long_cycle(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	char name[8], next[8];
	int i;

	for (i = 0; i < 6; i++) {
		struct hog_func *f;

		snprintf(name, sizeof(name), "r%d", i);
		snprintf(next, sizeof(next), "r%d", (i + 1) % 6);
		f = ht_fn(m, name, 1, 10 * i + 1, 1, 3, "zone", NULL);
		ht_call(m, f, 0, 10 * i + 2, "check", 0, NULL);
		ht_branch(m, f, 0, HC_NEZ, 0, 1, 2);
		ht_call(m, f, 1, 10 * i + 3, i == 5 ? "css_put" : next, -1, "&$0", NULL);
		if (i == 5)
			ht_call(m, f, 1, 10 * i + 4, next, -1, "&$0", NULL);
		ht_ret(m, f, 1, 10 * i + 5, NULL);
		ht_ret(m, f, 2, 10 * i + 6, NULL);
		ht_done(m, f);
	}
	spin_holder(m, "holder", 100, "r0");
	ht_solve(w);
	ht_assert_path(ht_find(w->prog, HK_CALL, "css_put"), 0,
		       "holder -> r0 -> r1 -> r2 -> r3 -> r4 -> r5 -> css_put");
	assert_int_equal(hog_prog_nincomplete(w->prog), 0);
}

/* More locks nested than the state tracks: said, not passed off as whole. */
static void test_limit_held(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "deep", 0, 1, 0, 1, "zone", NULL);
	const struct hog_finding *fi;
	char lock[32];
	int i;

	for (i = 0; i < 10; i++) {
		snprintf(lock, sizeof(lock), "&@lock%d", i);
		ht_call(m, f, 0, 2 + i, "spin_lock", -1, lock, NULL);
	}
	ht_call(m, f, 0, 20, "css_put", -1, "?", NULL);
	ht_ret(m, f, 0, 21, NULL);
	ht_done(m, f);
	ht_solve(w);
	assert_int_equal(hog_prog_nincomplete(w->prog), 1);
	assert_string_equal(hog_prog_incomplete(w->prog, 0)->fn->name, "deep");
	assert_true(hog_prog_incomplete(w->prog, 0)->limits & HOG_LIMIT_HELD);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_non_null(fi);
	assert_true(fi->limits & HOG_LIMIT_HELD);
}

/* A summary that keeps the highest-ranked costs says it dropped some. */
static void test_limit_costs(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f;
	const struct hog_finding *fi;
	char name[16];
	char *text;
	int i;

	for (i = 0; i < 70; i++) {
		snprintf(name, sizeof(name), "put%d", i);
		passes(m, name, 1, 100 + 10 * i, "css_put");
	}
	f = ht_fn(m, "put_all", 1, 1, 0, 1, "zone", NULL);
	for (i = 0; i < 70; i++) {
		snprintf(name, sizeof(name), "put%d", i);
		ht_call(m, f, 0, 2 + i, name, -1, "&$0", NULL);
	}
	ht_ret(m, f, 0, 90, NULL);
	ht_done(m, f);
	spin_holder(m, "holder", 2000, "put_all");
	ht_solve(w);
	assert_true(hog_prog_nincomplete(w->prog) >= 1);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_non_null(fi);
	assert_true(fi->limits & HOG_LIMIT_COSTS);
	text = hog_limit_text(fi->limits);
	assert_non_null(strstr(text, "costs beyond the summary's size dropped"));
	free(text);
}

/*
 * The memcg example: refill_stock() takes the per-CPU stock lock with
 * IRQs off, and three calls down page_counter_uncharge() walks the
 * hierarchy.
 */
static void test_memcg_refill_stock(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/memcontrol.c");
	struct hog_func *f = ht_fn(m, "drain_stock", 1, 2200, 0, 1, "stock", NULL);
	const struct hog_finding *fi;

	ht_call(m, f, 0, 2207, "page_counter_uncharge", -1, "&$0^/mem_cgroup.memory", "?",
		NULL);
	ht_ret(m, f, 0, 2210, NULL);
	ht_done(m, f);
	passes(m, "__refill_stock", 1, 2260, "drain_stock");
	f = ht_fn(m, "refill_stock", 0, 2280, 1, 1, "memcg", NULL);
	ht_call(m, f, 0, 2284, "arch_local_irq_save", 0, NULL);
	ht_call(m, f, 0, 2284, "local_lock_acquire", -1,
		"&@memcg_stock/memcg_stock_pcp.stock_lock#", NULL);
	ht_call(m, f, 0, 2285, "__refill_stock", -1, "&@memcg_stock#", NULL);
	ht_call(m, f, 0, 2286, "local_lock_release", -1,
		"&@memcg_stock/memcg_stock_pcp.stock_lock#", NULL);
	ht_call(m, f, 0, 2286, "arch_local_irq_restore", -1, "v0", NULL);
	ht_ret(m, f, 0, 2287, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "page_counter_uncharge");
	assert_non_null(fi);
	assert_string_equal(fi->cls, HOG_CLS_HIER);
	assert_int_equal(fi->irqs_off, 1);
	assert_int_equal(fi->sev, HS_WARNING);
	assert_string_equal(fi->paths[0].lock.name, "memcg_stock.stock_lock");
	assert_string_equal(fi->paths[0].lock.kind, "local");
	ht_assert_path(fi, 0, "refill_stock -> __refill_stock -> drain_stock -> page_counter_uncharge");
	expect_message(fi, "page_counter_uncharge() reached with memcg_stock.stock_lock held and IRQs off");
}

/* "Called with zone->lock held, drops it": nothing after the drop is under it */
static void test_helper_drops_callers_lock(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "unlock_then_put", 1, 1, 0, 1, "zone", NULL);
	const struct hog_finding *fi;

	ht_call(m, f, 0, 2, "spin_unlock", -1, ZL, NULL);
	ht_call(m, f, 0, 3, "css_put", -1, "?", NULL);
	ht_ret(m, f, 0, 4, NULL);
	ht_done(m, f);
	f = ht_fn(m, "put_then_unlock", 1, 10, 0, 1, "zone", NULL);
	ht_call(m, f, 0, 11, "mmdrop", -1, "?", NULL);
	ht_call(m, f, 0, 12, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 0, 13, NULL);
	ht_done(m, f);
	f = ht_fn(m, "holder", 0, 20, 0, 2, "zone", NULL);
	ht_call(m, f, 0, 21, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, 22, "unlock_then_put", -1, "&$0", NULL);
	ht_call(m, f, 0, 23, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, 24, "put_then_unlock", -1, "&$0", NULL);
	ht_call(m, f, 0, 25, "css_put", -1, "?", NULL);
	ht_ret(m, f, 0, 26, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "mmdrop");
	assert_non_null(fi);
	ht_assert_path(fi, 0, "holder -> put_then_unlock -> mmdrop");
	assert_int_equal(ht_count(w->prog, -1, "css_put"), 0);
}

/*
 * unsigned long zone_lock_irqsave(zone) { return _raw_spin_lock_irqsave(&zone->lock); }
 * void zone_unlock_irqrestore(zone, flags) { spin_unlock_irqrestore(&zone->lock, flags); }
 */
static void test_irqsave_wrappers(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "zone_lock_irqsave", 1, 1, 1, 1, "zone", NULL);
	const struct hog_finding *fi;

	ht_call(m, f, 0, 2, "_raw_spin_lock_irqsave", 0, ZL, NULL);
	ht_ret(m, f, 0, 3, "v0");
	ht_done(m, f);
	f = ht_fn(m, "zone_unlock_irqrestore", 1, 5, 0, 1, "zone", "flags", NULL);
	ht_call(m, f, 0, 6, "spin_unlock_irqrestore", -1, ZL, "&$1", NULL);
	ht_ret(m, f, 0, 7, NULL);
	ht_done(m, f);
	f = ht_fn(m, "holder", 0, 10, 1, 1, "zone", NULL);
	ht_call(m, f, 0, 11, "zone_lock_irqsave", 0, "&$0", NULL);
	ht_call(m, f, 0, 12, "css_put", -1, "?", NULL);
	ht_call(m, f, 0, 13, "zone_unlock_irqrestore", -1, "&$0", "v0", NULL);
	ht_call(m, f, 0, 14, "mmdrop", -1, "?", NULL);
	ht_ret(m, f, 0, 15, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_non_null(fi);
	assert_string_equal(fi->paths[0].lock.name, "zone->lock");
	assert_int_equal(fi->irqs_off, 1);
}

/* int cpu = get_cpu(); ... put_cpu(); with both as static helpers */
static void test_preempt_through_helpers(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "my_get_cpu", 1, 1, 0, 1, NULL);
	const struct hog_finding *fi;

	ht_call(m, f, 0, 2, "preempt_disable", -1, NULL);
	ht_ret(m, f, 0, 3, "#0");
	ht_done(m, f);
	f = ht_fn(m, "my_put_cpu", 1, 5, 0, 1, NULL);
	ht_call(m, f, 0, 6, "preempt_enable", -1, NULL);
	ht_ret(m, f, 0, 7, NULL);
	ht_done(m, f);
	f = ht_fn(m, "holder", 0, 10, 0, 1, NULL);
	ht_call(m, f, 0, 11, "my_get_cpu", -1, NULL);
	ht_call(m, f, 0, 12, "synchronize_rcu", -1, NULL);
	ht_call(m, f, 0, 13, "my_put_cpu", -1, NULL);
	ht_call(m, f, 0, 14, "msleep", -1, "#1", NULL);
	ht_ret(m, f, 0, 15, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_SLEEP, "synchronize_rcu");
	assert_non_null(fi);
	assert_string_equal(fi->paths[0].lock.name, "preemption off");
	/* sleeping with preemption off is a bug whatever the lock kind */
	assert_int_equal(fi->sev, HS_ERROR);
	expect_message(fi, "synchronize_rcu() may sleep, called with preemption off");
}

/* a loop body calling static helpers: only a non-trivial one makes it heavy */
static void test_loop_body_static_helpers(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "tiny", 1, 1, 0, 1, "zone", NULL);
	const struct hog_finding *fi;

	ht_ret(m, f, 0, 2, NULL);
	ht_done(m, f);
	passes(m, "not_tiny", 1, 5, "__free_one_page");
	drain(m, "drain_tiny", 10, -1, NULL, NULL);
	f = m->funcs[m->nfuncs - 1];
	f->blocks[2].ev[0].callee = hog_intern(w->strs, "tiny");
	drain(m, "drain_heavy", 30, -1, NULL, NULL);
	f = m->funcs[m->nfuncs - 1];
	f->blocks[2].ev[0].callee = hog_intern(w->strs, "not_tiny");
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_LOOP, NULL);
	assert_non_null(fi);
	assert_string_equal(fi->site_func, "drain_heavy");
	assert_string_equal(fi->callee, "not_tiny");
}

/* a function called with and without the lock: one path, from the holder */
static void test_called_with_and_without_lock(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f;
	const struct hog_finding *fi;

	passes(m, "put_it", 0, 1, "css_put");
	spin_holder(m, "locked_caller", 10, "put_it");
	f = ht_fn(m, "unlocked_caller", 0, 20, 0, 1, "zone", NULL);
	ht_call(m, f, 0, 21, "put_it", -1, "&$0", NULL);
	ht_ret(m, f, 0, 22, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_int_equal(fi->npaths, 1);
	assert_string_equal(fi->paths[0].holder, "locked_caller");
}

/* ---- grouping ---- */

static void test_group_two_holders(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	const struct hog_finding *f;

	passes(m, "shared", 1, 1, "css_put");
	spin_holder(m, "holder2", 20, "shared");
	spin_holder(m, "holder1", 10, "shared");
	ht_solve(w);
	expect_findings(w, -1, 1);
	f = ht_find(w->prog, HK_CALL, "css_put");
	assert_int_equal(f->npaths, 2);
	assert_string_equal(f->site_func, "shared");
	/* equal paths: ordered by holder */
	assert_string_equal(f->paths[0].holder, "holder1");
	assert_string_equal(f->paths[1].holder, "holder2");
	ht_assert_path(f, 1, "holder2 -> shared -> css_put");
}

/* the primary path is the one with IRQs off, then the shortest */
static void test_group_primary_path(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	const struct hog_finding *f;

	passes(m, "shared", 1, 1, "css_put");
	passes(m, "middle", 1, 5, "shared");
	spin_holder(m, "a_far", 10, "middle");
	spin_holder(m, "b_near", 20, "shared");
	holder(m, "c_irq", 30, "spin_lock_irq", ZL, "middle", "spin_unlock_irq");
	ht_solve(w);
	expect_findings(w, -1, 1);
	f = ht_find(w->prog, HK_CALL, "css_put");
	assert_int_equal(f->npaths, 3);
	assert_string_equal(f->paths[0].holder, "c_irq");
	assert_string_equal(f->paths[1].holder, "b_near");
	assert_string_equal(f->paths[2].holder, "a_far");
	assert_int_equal(f->irqs_off, 1);
}

/* one holder reaching the site twice: one path, the better one */
static void test_group_one_path_per_holder(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "holder", 0, 10, 0, 1, "zone", NULL);
	const struct hog_finding *fi;

	passes(m, "shared", 1, 1, "css_put");
	passes(m, "middle", 1, 5, "shared");
	ht_call(m, f, 0, 11, "spin_lock", -1, ZL, NULL);
	ht_call(m, f, 0, 12, "middle", -1, "&$0", NULL);
	ht_call(m, f, 0, 13, "shared", -1, "&$0", NULL);
	ht_call(m, f, 0, 14, "spin_unlock", -1, ZL, NULL);
	ht_ret(m, f, 0, 15, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 1);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	assert_int_equal(fi->npaths, 1);
	ht_assert_path(fi, 0, "holder -> shared -> css_put");
}

/* one finding per costly site, whatever lock each holder holds */
static void test_group_keys(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	const struct hog_finding *f;
	int i;

	passes(m, "shared", 1, 1, "css_put");
	holder(m, "by_zone", 10, "spin_lock", ZL, "shared", "spin_unlock");
	holder(m, "by_lru", 20, "spin_lock", "&$0/lruvec.lru_lock", "shared", "spin_unlock");
	spin_holder(m, "direct", 30, "css_put");	/* another site */
	ht_solve(w);
	expect_findings(w, -1, 2);
	for (i = 0; i < 2; i++) {
		f = hog_prog_finding(w->prog, i);
		if (ht_streq(f->site_func, "shared"))
			break;
	}
	assert_string_equal(f->site_func, "shared");
	assert_int_equal(f->npaths, 2);
	/* each path names its own lock */
	for (i = 0; i < 2; i++) {
		const struct hog_path *p = &f->paths[i];

		if (ht_streq(p->holder, "by_zone"))
			assert_string_equal(p->lock.cls, "zone.lock");
		else
			assert_string_equal(p->lock.cls, "lruvec.lru_lock");
	}
	assert_string_not_equal(f->paths[0].fingerprint, f->paths[1].fingerprint);
}

/* ---- fingerprints ---- */

/* out: the finding's fingerprint, then its path's */
static void chain_fingerprint(struct ht_world *w, int d, char out[2][17])
{
	const struct hog_finding *f;

	build_chain(ht_module(w, "mm/a.c"), d);
	ht_solve(w);
	assert_int_equal(hog_prog_nfindings(w->prog), 1);
	f = hog_prog_finding(w->prog, 0);
	assert_int_equal(strlen(f->fingerprint), 16);
	assert_int_equal(strspn(f->fingerprint, "0123456789abcdef"), 16);
	assert_int_equal(strlen(f->paths[0].fingerprint), 16);
	assert_int_equal(f->site_line, 31 + d);
	memcpy(out[0], f->fingerprint, 17);
	memcpy(out[1], f->paths[0].fingerprint, 17);
	hog_prog_free(w->prog);
	w->prog = NULL;
}

static void test_fingerprint_stable_across_lines(void **state)
{
	struct ht_world *w = world(state, NULL);
	char a[2][17], b[2][17], c[2][17];
	int i;

	chain_fingerprint(w, 0, a);
	chain_fingerprint(w, 57, b);
	chain_fingerprint(w, 1000, c);
	for (i = 0; i < 2; i++) {
		assert_string_equal(a[i], b[i]);
		assert_string_equal(a[i], c[i]);
	}
	assert_string_not_equal(a[0], a[1]);
}

static void test_fingerprint_stable_with_more_holders(void **state)
{
	struct ht_world *w = world(state, NULL);
	const struct hog_finding *f;
	struct hog_module *m;
	char a[2][17];
	int i;

	chain_fingerprint(w, 0, a);
	m = ht_module(w, "mm/a.c");
	build_chain(m, 0);
	spin_holder(m, "another_holder", 60, "helper_a");
	ht_solve(w);
	expect_findings(w, -1, 1);
	assert_int_equal(hog_prog_finding(w->prog, 0)->npaths, 2);
	f = hog_prog_finding(w->prog, 0);
	assert_string_equal(f->fingerprint, a[0]);
	/* the old path keeps its fingerprint, the new one has its own */
	i = ht_streq(f->paths[0].holder, "holder") ? 0 : 1;
	assert_string_equal(f->paths[i].holder, "holder");
	assert_string_equal(f->paths[i].fingerprint, a[1]);
	assert_string_not_equal(f->paths[!i].fingerprint, a[1]);
}

static void test_fingerprint_differs(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	const struct hog_finding *f1, *f2, *f3;

	passes(m, "shared", 1, 1, "css_put");
	passes(m, "shared2", 1, 5, "mmdrop");
	spin_holder(m, "by_zone", 10, "shared");
	spin_holder(m, "other", 30, "shared2");
	spin_holder(m, "direct", 40, "css_put");
	ht_solve(w);
	expect_findings(w, -1, 3);
	f1 = hog_prog_finding(w->prog, 0);
	f2 = hog_prog_finding(w->prog, 1);
	f3 = hog_prog_finding(w->prog, 2);
	assert_string_not_equal(f1->fingerprint, f2->fingerprint);
	assert_string_not_equal(f1->fingerprint, f3->fingerprint);
	assert_string_not_equal(f2->fingerprint, f3->fingerprint);
}

/* ---- words ---- */

static void test_messages_context(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	struct hog_func *f = ht_fn(m, "irq_only", 0, 1, 0, 1, NULL);
	const struct hog_finding *fi;

	ht_call(m, f, 0, 2, "local_irq_disable", -1, NULL);
	ht_call(m, f, 0, 3, "css_put", -1, "?", NULL);
	ht_call(m, f, 0, 4, "local_irq_enable", -1, NULL);
	ht_ret(m, f, 0, 5, NULL);
	ht_done(m, f);
	f = ht_fn(m, "preempt_only", 0, 10, 0, 1, NULL);
	ht_call(m, f, 0, 11, "preempt_disable", -1, NULL);
	ht_call(m, f, 0, 12, "mmdrop", -1, "?", NULL);
	ht_call(m, f, 0, 13, "preempt_enable", -1, NULL);
	ht_ret(m, f, 0, 14, NULL);
	ht_done(m, f);
	ht_solve(w);
	expect_findings(w, -1, 2);
	fi = ht_find(w->prog, HK_CALL, "css_put");
	expect_message(fi, "css_put() called with IRQs off");
	assert_int_equal(fi->sev, HS_WARNING);
	fi = ht_find(w->prog, HK_CALL, "mmdrop");
	expect_message(fi, "mmdrop() called with preemption off");
	assert_int_equal(fi->sev, HS_NOTE);
	assert_string_equal(hog_kind_name(HK_SLEEP), "sleep");
	assert_string_equal(hog_sev_name(HS_ERROR), "error");
}

/* findings come out most serious first */
static void test_ranking(void **state)
{
	struct ht_world *w = world(state, NULL);
	struct hog_module *m = ht_module(w, "mm/a.c");
	int i;

	holder(m, "note", 10, "mutex_lock", "&$0/zone.mutex", "css_put", "mutex_unlock");
	spin_holder(m, "warn", 20, "css_put");
	alloc_holder(m, "err", 30, "kmalloc", "#0xcc0");
	ht_solve(w);
	expect_findings(w, -1, 3);
	assert_int_equal(hog_prog_finding(w->prog, 0)->sev, HS_ERROR);
	assert_int_equal(hog_prog_finding(w->prog, 2)->sev, HS_NOTE);
	for (i = 1; i < 3; i++)
		assert_true(hog_prog_finding(w->prog, i - 1)->score >=
			    hog_prog_finding(w->prog, i)->score);
	assert_null(hog_prog_finding(w->prog, 3));
	assert_null(hog_prog_finding(w->prog, -1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_teardown(fn, teardown)
		T(test_chain_two_static_helpers),
		T(test_chain_summaries),
		T(test_chain_depth_limit),
		T(test_trylock_paths),
		T(test_trylock_wrapper),
		T(test_irqsave_irqs_off),
		T(test_irqs_off_through_helper),
		T(test_release_one_path_then_join),
		T(test_lock_wrapper_acquires_at_caller),
		T(test_lock_break_in_helper),
		T(test_loop_unbounded),
		T(test_loop_bounded),
		T(test_loop_lock_break),
		T(test_loop_in_helper),
		T(test_parent_walk_hier_atomic),
		T(test_global_atomic_through_helper),
		T(test_global_atomic_direct),
		T(test_global_atomic_direct_message),
		T(test_gfp_kernel_under_spinlock),
		T(test_gfp_atomic_under_spinlock),
		T(test_gfp_through_helper),
		T(test_gfp_holders_callers_atomic),
		T(test_gfp_holders_callers_kernel),
		T(test_costly_under_mutex_is_note),
		T(test_sleep_under_mutex_is_fine),
		T(test_sleep_under_spinlock_is_error),
		T(test_cross_module),
		T(test_cross_module_order),
		T(test_statics_per_unit),
		T(test_header_inline_once),
		T(test_recursion_terminates),
		T(test_recursion_long_cycle),
		T(test_limit_held),
		T(test_limit_costs),
		T(test_memcg_refill_stock),
		T(test_helper_drops_callers_lock),
		T(test_irqsave_wrappers),
		T(test_preempt_through_helpers),
		T(test_loop_body_static_helpers),
		T(test_called_with_and_without_lock),
		T(test_group_two_holders),
		T(test_group_primary_path),
		T(test_group_one_path_per_holder),
		T(test_group_keys),
		T(test_fingerprint_stable_across_lines),
		T(test_fingerprint_stable_with_more_holders),
		T(test_fingerprint_differs),
		T(test_messages_context),
		T(test_ranking),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
