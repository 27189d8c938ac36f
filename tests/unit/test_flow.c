// SPDX-License-Identifier: GPL-2.0
/*
 * One function at a time: the lock state over its CFG, the raw findings
 * it makes as a lock holder and the summary it leaves for its callers.
 * The functions are built with the builder API and analysed with
 * hog_flow_function(); callees' summaries come from the same analysis.
 */
#include "hogtest.h"
#include "flow.h"

#define ZL "&$0/zone.lock"

struct ft {
	struct hog_strtab *strs;
	struct hog_rules *rules;
	struct hog_module *m;
	struct hog_arena arena;
	struct hog_vec raws;
	struct hog_summary sum;
	struct hog_map *sums;		/* callee name -> struct hog_summary * */
	struct hog_vec owned;
};

static int setup(void **state)
{
	struct ft *t = calloc(1, sizeof(*t));
	char *err = NULL;

	if (!t)
		return -1;
	t->strs = hog_strtab_new();
	t->rules = hog_rules_new(t->strs);
	if (hog_rules_parse(t->rules, "ht.rules", HT_RULES, strlen(HT_RULES), &err) < 0) {
		fprintf(stderr, "%s\n", err);
		free(err);
		return -1;
	}
	t->m = hog_module_new(t->strs, "mm/flow.c");
	t->sums = hog_map_new();
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct ft *t = *state;
	int i;

	for (i = 0; i < t->owned.n; i++)
		free(t->owned.v[i]);
	hog_vec_free(&t->owned);
	hog_map_free(t->sums);
	hog_vec_free(&t->raws);
	hog_arena_free(&t->arena);
	hog_module_free(t->m);
	hog_rules_free(t->rules);
	hog_strtab_free(t->strs);
	free(t);
	return 0;
}

static const struct hog_summary *lookup(void *ctx, const struct hog_func *caller,
					const char *callee)
{
	struct ft *t = ctx;

	return hog_map_get(t->sums, hog_intern(t->strs, callee));
}

/* Analyses f as a lock holder: raws and t->sum start afresh. */
static int run(struct ft *t, struct hog_func *f)
{
	struct hog_flow_ctx c = {
		.strs = t->strs,
		.rules = t->rules,
		.arena = &t->arena,
		.lookup = lookup,
		.lookup_ctx = t,
		.raws = &t->raws,
	};

	t->raws.n = 0;
	memset(&t->sum, 0, sizeof(t->sum));
	return hog_flow_function(&c, f, &t->sum);
}

/* Analyses a callee so that later runs see its summary. */
static const struct hog_summary *summarise(struct ft *t, struct hog_func *f)
{
	struct hog_summary *s = calloc(1, sizeof(*s));
	struct hog_flow_ctx c = {
		.strs = t->strs,
		.rules = t->rules,
		.arena = &t->arena,
		.lookup = lookup,
		.lookup_ctx = t,
		.raws = NULL,
	};

	assert_non_null(s);
	hog_vec_push(&t->owned, s);
	assert_int_equal(hog_flow_function(&c, f, s), 0);
	hog_map_put(t->sums, f->name, s);
	return s;
}

static int nraws(struct ft *t, int kind)
{
	int i, n = 0;

	for (i = 0; i < t->raws.n; i++)
		if (kind < 0 || ((struct hog_raw *)t->raws.v[i])->kind == (enum hog_kind)kind)
			n++;
	return n;
}

/* The raw of this kind whose holder's step is at line, or NULL. */
static const struct hog_raw *raw_at(struct ft *t, int kind, int line)
{
	int i;

	for (i = 0; i < t->raws.n; i++) {
		const struct hog_raw *r = t->raws.v[i];

		if ((kind < 0 || r->kind == (enum hog_kind)kind) && r->path.line == line)
			return r;
	}
	return NULL;
}

static void dump(struct ft *t)
{
	int i;

	for (i = 0; i < t->raws.n; i++) {
		const struct hog_raw *r = t->raws.v[i];

		print_message("# raw %d: %s %s callee=%s line=%d lock=%s irqs_off=%d\n", i,
			      hog_kind_name(r->kind), r->cls ? r->cls : "-",
			      r->callee ? r->callee : "-", r->path.line,
			      r->path.lock.name ? r->path.lock.name : "-", r->path.irqs_off);
	}
}

static void expect_raws(struct ft *t, int kind, int n)
{
	if (nraws(t, kind) != n)
		dump(t);
	assert_int_equal(nraws(t, kind), n);
}

static void expect_lock(const struct hog_raw *r, const char *name, const char *kind)
{
	assert_non_null(r);
	assert_non_null(r->path.lock.name);
	assert_string_equal(r->path.lock.name, name);
	assert_string_equal(r->path.lock.kind, kind);
}

/* void holder(struct zone *zone) { lock; css_put(); unlock; css_put(); } */
static void test_direct_cost_under_spin_lock(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 9, 0, 1, "zone", NULL);
	const struct hog_raw *r;

	ht_call(t->m, f, 0, 10, "spin_lock", -1, ZL, NULL);
	ht_call(t->m, f, 0, 11, "css_put", -1, "&$0^/zone.css", NULL);
	ht_call(t->m, f, 0, 12, "spin_unlock", -1, ZL, NULL);
	ht_call(t->m, f, 0, 13, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 14, NULL);
	ht_done(t->m, f);
	assert_int_equal(run(t, f), 0);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_CALL, 11);
	assert_non_null(r);
	assert_string_equal(r->cls, HOG_CLS_REF);
	assert_ptr_equal(r->callee, hog_intern(t->strs, "css_put"));
	assert_int_equal(r->listed, 1);
	assert_ptr_equal(r->path.holder, f->name);
	assert_string_equal(r->path.file, "mm/flow.c");
	assert_int_equal(r->path.col, HT_COL);
	assert_int_equal(r->path.nchain, 1);
	assert_ptr_equal(r->path.chain[0].func, f->name);
	assert_int_equal(r->path.irqs_off, 0);
	expect_lock(r, "zone->lock", "spin");
	assert_string_equal(r->path.lock.cls, "zone.lock");
	assert_int_equal(r->path.lock.sleeping, 0);
	assert_int_equal(r->path.lock.line, 10);
	/* both calls are costs for callers that hold something */
	assert_int_equal(t->sum.ncost, 1);
	assert_int_equal(t->sum.nacq, 0);
	assert_int_equal(t->sum.trivial, 0);
}

static void test_no_lock_no_finding(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "free_it", 0, 1, 0, 1, "css", NULL);

	ht_call(t->m, f, 0, 2, "css_put", -1, "&$0", NULL);
	ht_ret(t->m, f, 0, 3, NULL);
	ht_done(t->m, f);
	assert_int_equal(run(t, f), 0);
	expect_raws(t, -1, 0);
	assert_int_equal(t->sum.ncost, 1);
	assert_string_equal(t->sum.cost[0].callee, "css_put");
	assert_int_equal(t->sum.cost[0].nchain, 1);
	assert_int_equal(t->sum.cost[0].chain[0].line, 2);
}

/* _raw_spin_lock(&zone->lock.rlock) and spin_unlock(&zone->lock) are one lock */
static void test_rlock_is_the_same_lock(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 0, 1, "zone", NULL);

	ht_call(t->m, f, 0, 2, "_raw_spin_lock", -1, "&$0/zone.lock/spinlock.rlock", NULL);
	ht_call(t->m, f, 0, 3, "spin_unlock", -1, ZL, NULL);
	ht_call(t->m, f, 0, 4, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 5, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 0);
	assert_int_equal(t->sum.nacq, 0);
	assert_int_equal(t->sum.nrel, 0);
}

/*
 *	if (spin_trylock(&zone->lock)) {	// b0
 *		css_put(); spin_unlock();	// b1, line 20
 *	} else {
 *		css_put();			// b2, line 30
 *	}
 *	return;					// b3
 */
static void test_trylock_success_edge_only(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "try", 0, 1, 1, 4, "zone", NULL);

	ht_call(t->m, f, 0, 10, "spin_trylock", 0, ZL, NULL);
	ht_branch(t->m, f, 0, HC_NEZ, 0, 1, 2);
	ht_call(t->m, f, 1, 20, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 1, 21, "spin_unlock", -1, ZL, NULL);
	ht_succ(t->m, f, 1, 1, 3);
	ht_call(t->m, f, 2, 30, "css_put", -1, "?", NULL);
	ht_succ(t->m, f, 2, 1, 3);
	ht_ret(t->m, f, 3, 40, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	expect_lock(raw_at(t, HK_CALL, 20), "zone->lock", "spin");
	assert_null(raw_at(t, -1, 30));
	/* nothing is left held on either path */
	assert_int_equal(t->sum.nacq, 0);
}

/* if (!spin_trylock(&zone->lock)) return; css_put(); spin_unlock(); */
static void test_trylock_early_return(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "try", 0, 1, 2, 3, "zone", NULL);

	ht_call(t->m, f, 0, 10, "spin_trylock", 0, ZL, NULL);
	ht_assign(t->m, f, 0, 10, "!", 1, "v0");
	ht_branch(t->m, f, 0, HC_NEZ, 1, 1, 2);
	ht_call(t->m, f, 1, 11, "css_put", -1, "?", NULL);	/* the failure path */
	ht_ret(t->m, f, 1, 12, NULL);
	ht_call(t->m, f, 2, 13, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 2, 14, "spin_unlock", -1, ZL, NULL);
	ht_ret(t->m, f, 2, 15, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	assert_non_null(raw_at(t, HK_CALL, 13));
	assert_null(raw_at(t, HK_CALL, 11));
}

/* the same with an EQZ branch on the result */
static void test_trylock_eqz_branch(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "try", 0, 1, 1, 3, "zone", NULL);

	ht_call(t->m, f, 0, 10, "spin_trylock", 0, ZL, NULL);
	ht_branch(t->m, f, 0, HC_EQZ, 0, 1, 2);
	ht_call(t->m, f, 1, 11, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 1, 12, NULL);
	ht_call(t->m, f, 2, 13, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 2, 14, "spin_unlock", -1, ZL, NULL);
	ht_ret(t->m, f, 2, 15, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	assert_non_null(raw_at(t, HK_CALL, 13));
}

/* spin_trylock(&zone->lock); css_put();  -- result ignored: nothing is known held */
static void test_trylock_result_unused(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "try", 0, 1, 0, 1, "zone", NULL);

	ht_call(t->m, f, 0, 10, "spin_trylock", -1, ZL, NULL);
	ht_call(t->m, f, 0, 11, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 12, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 0);
}

/* if (mutex_lock_interruptible(&m)) return -EINTR;  -- held when it returns 0 */
static void test_trylock_cond_zero(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "ioctl", 0, 1, 1, 3, "dev", NULL);
	const struct hog_raw *r;

	ht_call(t->m, f, 0, 10, "mutex_lock_interruptible", 0, "&$0/dev.mutex", NULL);
	ht_branch(t->m, f, 0, HC_NEZ, 0, 1, 2);
	ht_call(t->m, f, 1, 11, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 1, 12, "#-4");
	ht_call(t->m, f, 2, 13, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 2, 14, "mutex_unlock", -1, "&$0/dev.mutex", NULL);
	ht_ret(t->m, f, 2, 15, "#0");
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_CALL, 13);
	expect_lock(r, "dev->mutex", "mutex");
	assert_int_equal(r->path.lock.sleeping, 1);
}

/*
 *	flags = _raw_spin_lock_irqsave(spinlock_check(&zone->lock));
 *	css_put();
 *	spin_unlock_irqrestore(&zone->lock, flags);
 *	css_put();
 */
static void test_irqsave_irqrestore(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 2, 1, "zone", NULL);
	const struct hog_raw *r;

	ht_call(t->m, f, 0, 10, "spinlock_check", 0, ZL, NULL);
	ht_call(t->m, f, 0, 10, "_raw_spin_lock_irqsave", 1, "v0", NULL);
	ht_call(t->m, f, 0, 11, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 12, "spin_unlock_irqrestore", -1, ZL, "v1", NULL);
	ht_call(t->m, f, 0, 13, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 14, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_CALL, 11);
	expect_lock(r, "zone->lock", "spin");
	assert_int_equal(r->path.irqs_off, 1);
	/* IRQs are back as the caller had them */
	assert_int_equal(t->sum.irq_exit, HOG_IRQ_CALLER);
	assert_int_equal(t->sum.nacq, 0);
}

/* spin_lock_irqsave(&zone->lock, flags) as a call: flags=arg1 */
static void test_irqsave_flags_arg(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 1, 1, "zone", NULL);

	ht_call(t->m, f, 0, 10, "spin_lock_irqsave", -1, ZL, "v0", NULL);
	ht_call(t->m, f, 0, 11, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 12, "spin_unlock_irqrestore", -1, ZL, "v0", NULL);
	ht_call(t->m, f, 0, 13, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 14, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	assert_int_equal(raw_at(t, HK_CALL, 11)->path.irqs_off, 1);
}

/* irqsave inside local_irq_disable(): the restore leaves IRQs off */
static void test_irqrestore_nested_keeps_irqs_off(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 1, 1, "zone", NULL);
	const struct hog_raw *r;

	ht_call(t->m, f, 0, 9, "local_irq_disable", -1, NULL);
	ht_call(t->m, f, 0, 10, "_raw_spin_lock_irqsave", 0, ZL, NULL);
	ht_call(t->m, f, 0, 11, "spin_unlock_irqrestore", -1, ZL, "v0", NULL);
	ht_call(t->m, f, 0, 12, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 13, "local_irq_enable", -1, NULL);
	ht_call(t->m, f, 0, 14, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 15, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_CALL, 12);
	expect_lock(r, "IRQs off", "irq");
	assert_int_equal(r->path.irqs_off, 1);
	assert_null(r->path.lock.cls);
	assert_int_equal(t->sum.irq_exit, HOG_IRQ_ON);
}

static void test_preemption_off(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 0, 1, NULL);

	ht_call(t->m, f, 0, 10, "__preempt_count_add", -1, "#1", NULL);
	ht_call(t->m, f, 0, 11, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 12, "__preempt_count_sub", -1, "#1", NULL);
	/* softirq masking is not preemption */
	ht_call(t->m, f, 0, 13, "__preempt_count_add", -1, "#512", NULL);
	ht_call(t->m, f, 0, 14, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 15, "__preempt_count_sub", -1, "#512", NULL);
	ht_ret(t->m, f, 0, 16, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	expect_lock(raw_at(t, HK_CALL, 11), "preemption off", "preempt");
	assert_int_equal(t->sum.preempt_delta, 0);
}

/*
 *	spin_lock(&zone->lock);			// b0
 *	if (x) {
 *		spin_unlock(&zone->lock);	// b1
 *		css_put();			// line 21: not under the lock
 *	}
 *	css_put();				// b2, line 30: locked when !x
 *	return;
 */
static void test_release_on_one_path_then_join(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 1, 3, "zone", NULL);

	ht_call(t->m, f, 0, 10, "spin_lock", -1, ZL, NULL);
	ht_call(t->m, f, 0, 11, "check", 0, NULL);
	ht_branch(t->m, f, 0, HC_NEZ, 0, 1, 2);
	ht_call(t->m, f, 1, 20, "spin_unlock", -1, ZL, NULL);
	ht_call(t->m, f, 1, 21, "css_put", -1, "?", NULL);
	ht_succ(t->m, f, 1, 1, 2);
	ht_call(t->m, f, 2, 30, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 2, 31, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	expect_lock(raw_at(t, HK_CALL, 30), "zone->lock", "spin");
	assert_null(raw_at(t, -1, 21));
	/* held at some returns only: not a lock wrapper for the callers */
	assert_int_equal(t->sum.nacq, 0);
}

/* The lock taken on one path only: the join still holds it on that path. */
static void test_acquire_on_one_path_then_join(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 1, 4, "zone", NULL);

	ht_call(t->m, f, 0, 10, "check", 0, NULL);
	ht_branch(t->m, f, 0, HC_NEZ, 0, 1, 2);
	ht_call(t->m, f, 1, 20, "spin_lock", -1, ZL, NULL);
	ht_succ(t->m, f, 1, 1, 2);
	ht_call(t->m, f, 2, 30, "css_put", -1, "?", NULL);
	ht_succ(t->m, f, 2, 1, 3);
	ht_ret(t->m, f, 3, 40, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	expect_lock(raw_at(t, HK_CALL, 30), "zone->lock", "spin");
}

/*
 * A loop over items with the lock held:
 *
 *	spin_lock(&zone->lock);			// b0
 *	while (more) {				// b1, line 20
 *		process_item();			// b2, line 21
 *		[spin_unlock(); spin_lock();]	// lock break, optional
 *	}
 *	spin_unlock(&zone->lock);		// b3
 */
static struct hog_func *item_loop(struct ft *t, long long bound,
				  enum hog_loop_shape shape, const char *callee,
				  int lockbreak)
{
	struct hog_func *f = ht_fn(t->m, "drain", 0, 1, 1, 4, "zone", NULL);

	ht_call(t->m, f, 0, 10, "spin_lock", -1, ZL, NULL);
	ht_succ(t->m, f, 0, 1, 1);
	ht_assign(t->m, f, 1, 20, NULL, 0, "?");
	ht_branch(t->m, f, 1, HC_NEZ, 0, 2, 3);
	if (callee)
		ht_call(t->m, f, 2, 21, callee, -1, "&$0", NULL);
	if (lockbreak == 1) {
		ht_call(t->m, f, 2, 22, "spin_unlock", -1, ZL, NULL);
		ht_call(t->m, f, 2, 23, "spin_lock", -1, ZL, NULL);
	} else if (lockbreak == 2) {
		ht_call(t->m, f, 2, 22, "cond_resched_lock", -1, ZL, NULL);
	}
	ht_succ(t->m, f, 2, 1, 1);
	ht_call(t->m, f, 3, 30, "spin_unlock", -1, ZL, NULL);
	ht_ret(t->m, f, 3, 31, NULL);
	ht_loop(t->m, f, 1, 20, bound, shape, 2, 1, 2);
	ht_done(t->m, f);
	return f;
}

static void test_loop_unbounded_heavy_call(void **state)
{
	struct ft *t = *state;
	const struct hog_raw *r;

	run(t, item_loop(t, -1, HL_OTHER, "process_item", 0));
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_LOOP, 20);
	assert_non_null(r);
	assert_string_equal(r->cls, HOG_CLS_LOOP);
	assert_string_equal(r->callee, "process_item");
	assert_int_equal(r->listed, 0);
	assert_ptr_equal(r->path.holder, hog_intern(t->strs, "drain"));
	expect_lock(r, "zone->lock", "spin");
	assert_int_equal(t->sum.trivial, 0);
}

static void test_loop_lock_break_unlock_relock(void **state)
{
	struct ft *t = *state;

	run(t, item_loop(t, -1, HL_OTHER, "process_item", 1));
	expect_raws(t, -1, 0);
}

static void test_loop_lock_break_cond_resched_lock(void **state)
{
	struct ft *t = *state;

	run(t, item_loop(t, -1, HL_OTHER, "process_item", 2));
	expect_raws(t, -1, 0);
}

static void test_loop_bounded(void **state)
{
	struct ft *t = *state;

	run(t, item_loop(t, 8, HL_COUNTED, "process_item", 0));
	expect_raws(t, -1, 0);
	run(t, item_loop(t, 64, HL_COUNTED, "process_item", 0));
	expect_raws(t, -1, 0);
	/* past the catalogue's bound=64 it counts */
	run(t, item_loop(t, 65, HL_COUNTED, "process_item", 0));
	expect_raws(t, HK_LOOP, 1);
}

static void test_loop_shapes_not_reported(void **state)
{
	struct ft *t = *state;

	/* list walks are ignored by the kernel catalogue (listwalk=ignore) */
	run(t, item_loop(t, -1, HL_PTRCHASE, "process_item", 0));
	expect_raws(t, -1, 0);
	run(t, item_loop(t, -1, HL_RETRY, "process_item", 0));
	expect_raws(t, -1, 0);
	run(t, item_loop(t, -1, HL_PARENT_WALK, "process_item", 0));
	expect_raws(t, -1, 0);
	assert_null(t->sum.self);
}

static void test_loop_listwalk_report(void **state)
{
	struct ft *t = *state;

	ht_rules_text(t->rules, "loop listwalk=report\n");
	run(t, item_loop(t, -1, HL_PTRCHASE, "process_item", 0));
	expect_raws(t, HK_LOOP, 1);
}

static void test_loop_trivial_body(void **state)
{
	struct ft *t = *state;

	/* nothing called, or only what the catalogue calls cheap */
	run(t, item_loop(t, -1, HL_OTHER, NULL, 0));
	expect_raws(t, -1, 0);
	run(t, item_loop(t, -1, HL_OTHER, "find_next_bit", 0));
	expect_raws(t, -1, 0);
	/* not a finding, but a long loop is not trivial work for callers' loops */
	assert_int_equal(t->sum.trivial, 0);
	/* a lock primitive is not work either */
	run(t, item_loop(t, -1, HL_OTHER, "spin_lock_nested", 0));
	expect_raws(t, HK_LOOP, 0);
}

static void test_loop_min_calls(void **state)
{
	struct ft *t = *state;

	ht_rules_text(t->rules, "loop calls=2\n");
	run(t, item_loop(t, -1, HL_OTHER, "process_item", 0));
	expect_raws(t, -1, 0);
}

/* the body calls a costly function: both the call and the loop count */
static void test_loop_costly_body(void **state)
{
	struct ft *t = *state;

	run(t, item_loop(t, -1, HL_OTHER, "css_put", 0));
	expect_raws(t, HK_LOOP, 1);
	expect_raws(t, HK_CALL, 1);
	assert_string_equal(raw_at(t, HK_LOOP, 20)->callee, "css_put");
}

/* for (...) { spin_lock(); process_item(); spin_unlock(); } holds nothing across */
static void test_loop_lock_inside_body(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "each", 0, 1, 1, 4, "zone", NULL);

	ht_succ(t->m, f, 0, 1, 1);
	ht_assign(t->m, f, 1, 20, NULL, 0, "?");
	ht_branch(t->m, f, 1, HC_NEZ, 0, 2, 3);
	ht_call(t->m, f, 2, 21, "spin_lock", -1, ZL, NULL);
	ht_call(t->m, f, 2, 22, "process_item", -1, NULL);
	ht_call(t->m, f, 2, 23, "spin_unlock", -1, ZL, NULL);
	ht_succ(t->m, f, 2, 1, 1);
	ht_ret(t->m, f, 3, 30, NULL);
	ht_loop(t->m, f, 1, 20, -1, HL_OTHER, 2, 1, 2);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, HK_LOOP, 0);
	/* an unbounded loop is still a cost for whoever holds a lock around it */
	assert_int_equal(t->sum.ncost, 1);
	assert_int_equal(t->sum.cost[0].kind, HK_LOOP);
}

/* nested unbounded loops: one finding, for the outer loop */
static void test_loop_nested_outermost(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "nested", 0, 1, 2, 5, "zone", NULL);

	ht_call(t->m, f, 0, 10, "spin_lock", -1, ZL, NULL);
	ht_succ(t->m, f, 0, 1, 1);
	ht_assign(t->m, f, 1, 20, NULL, 0, "?");	/* outer header */
	ht_branch(t->m, f, 1, HC_NEZ, 0, 2, 4);
	ht_assign(t->m, f, 2, 30, NULL, 1, "?");	/* inner header */
	ht_branch(t->m, f, 2, HC_NEZ, 1, 3, 1);
	ht_call(t->m, f, 3, 31, "process_item", -1, NULL);
	ht_succ(t->m, f, 3, 1, 2);
	ht_call(t->m, f, 4, 40, "spin_unlock", -1, ZL, NULL);
	ht_ret(t->m, f, 4, 41, NULL);
	ht_loop(t->m, f, 1, 20, -1, HL_OTHER, 3, 1, 2, 3);
	ht_loop(t->m, f, 2, 30, -1, HL_OTHER, 2, 2, 3);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, HK_LOOP, 1);
	assert_non_null(raw_at(t, HK_LOOP, 20));
}

/* two locks held, the loop breaks the inner one only: the outer one is reported */
static void test_loop_break_inner_keeps_outer(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "two", 0, 1, 1, 4, "zone", NULL);
	const struct hog_raw *r;

	ht_call(t->m, f, 0, 9, "spin_lock", -1, "&@zone_outer", NULL);
	ht_call(t->m, f, 0, 10, "spin_lock", -1, ZL, NULL);
	ht_succ(t->m, f, 0, 1, 1);
	ht_assign(t->m, f, 1, 20, NULL, 0, "?");
	ht_branch(t->m, f, 1, HC_NEZ, 0, 2, 3);
	ht_call(t->m, f, 2, 21, "process_item", -1, NULL);
	ht_call(t->m, f, 2, 22, "cond_resched_lock", -1, ZL, NULL);
	ht_succ(t->m, f, 2, 1, 1);
	ht_call(t->m, f, 3, 30, "spin_unlock", -1, ZL, NULL);
	ht_call(t->m, f, 3, 31, "spin_unlock", -1, "&@zone_outer", NULL);
	ht_ret(t->m, f, 3, 32, NULL);
	ht_loop(t->m, f, 1, 20, -1, HL_OTHER, 2, 1, 2);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, HK_LOOP, 1);
	r = raw_at(t, HK_LOOP, 20);
	expect_lock(r, "zone_outer", "spin");
}

/*
 * static void walk_up(struct page_counter *c)
 * {
 *	for (; c; c = c->parent)		// b1, parent walk
 *		atomic_long_add(n, &c->usage);
 * }
 */
static struct hog_func *parent_walk(struct ft *t, const char *name, int with_atomic)
{
	struct hog_func *f = ht_fn(t->m, name, 1, 1, 1, 3, "c", NULL);

	ht_succ(t->m, f, 0, 1, 1);
	if (with_atomic)
		ht_atomic(t->m, f, 1, 20, "v0");
	ht_assign(t->m, f, 1, 21, NULL, 0, "?");
	ht_branch(t->m, f, 1, HC_NEZ, 0, 1, 2);
	ht_ret(t->m, f, 2, 30, NULL);
	ht_loop(t->m, f, 1, 20, -1, HL_PARENT_WALK, 1, 1);
	ht_done(t->m, f);
	return f;
}

static void test_parent_walk_atomic_is_hier(void **state)
{
	struct ft *t = *state;

	run(t, parent_walk(t, "walk_up", 1));
	expect_raws(t, -1, 0);
	assert_non_null(t->sum.self);
	assert_string_equal(t->sum.self->cls, HOG_CLS_HIER);
	assert_int_equal(t->sum.has_atomic, 1);
	run(t, parent_walk(t, "walk_up_quietly", 0));
	assert_null(t->sum.self);
}

/* an atomic in a loop of another shape is not a hierarchy walk */
static void test_other_loop_atomic_not_hier(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "spin_on", 1, 1, 1, 3, "c", NULL);

	ht_succ(t->m, f, 0, 1, 1);
	ht_atomic(t->m, f, 1, 20, "v0");
	ht_assign(t->m, f, 1, 21, NULL, 0, "?");
	ht_branch(t->m, f, 1, HC_NEZ, 0, 1, 2);
	ht_ret(t->m, f, 2, 30, NULL);
	ht_loop(t->m, f, 1, 20, -1, HL_OTHER, 1, 1);
	ht_done(t->m, f);
	run(t, f);
	assert_null(t->sum.self);
}

static void test_global_atomic(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 0, 1, "zone", NULL);
	const struct hog_raw *r;

	ht_call(t->m, f, 0, 10, "spin_lock", -1, ZL, NULL);
	ht_atomic(t->m, f, 0, 11, "&@nr_free_pages");
	ht_atomic(t->m, f, 0, 12, "&$0/zone.managed");		/* the zone's own */
	ht_atomic(t->m, f, 0, 13, "&@vm_stat#/vm_stat.nr[]");	/* this CPU's */
	ht_atomic(t->m, f, 0, 14, "&@zone_ptr^/zone.managed");	/* what a global points to */
	ht_call(t->m, f, 0, 15, "spin_unlock", -1, ZL, NULL);
	ht_ret(t->m, f, 0, 16, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_ATOMIC, 11);
	assert_non_null(r);
	assert_string_equal(r->cls, HOG_CLS_GATOM);
	assert_non_null(strstr(r->reason, "nr_free_pages"));
	expect_lock(r, "zone->lock", "spin");
	/* the parameter's target is passed up for callers to judge */
	assert_int_equal(t->sum.natomic, 1);
	assert_string_equal(t->sum.atomic[0], "$0/zone.managed");
}

/* an atomic rule names the target argument */
static void test_global_atomic_by_rule(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 0, 1, NULL);
	const struct hog_raw *r;

	ht_rules_text(t->rules, "atomic atomic_long_add arg=1\n");
	ht_call(t->m, f, 0, 10, "spin_lock", -1, "&@zone_lock", NULL);
	ht_call(t->m, f, 0, 11, "atomic_long_add", -1, "#1", "&@nr_things", NULL);
	ht_call(t->m, f, 0, 12, "spin_unlock", -1, "&@zone_lock", NULL);
	ht_ret(t->m, f, 0, 13, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_ATOMIC, 11);
	assert_non_null(r);
	assert_string_equal(r->callee, "atomic_long_add");
	expect_lock(r, "zone_lock", "spin");
}

/* kmalloc(size, gfp) under a spinlock */
static struct hog_func *alloc_under_lock(struct ft *t, const char *name, const char *gfp)
{
	struct hog_func *f = ht_fn(t->m, name, 0, 1, 1, 1, "zone", "gfp", NULL);

	ht_call(t->m, f, 0, 10, "spin_lock", -1, ZL, NULL);
	ht_call(t->m, f, 0, 11, "kmalloc", 0, "#64", gfp, NULL);
	ht_call(t->m, f, 0, 12, "spin_unlock", -1, ZL, NULL);
	ht_ret(t->m, f, 0, 13, NULL);
	ht_done(t->m, f);
	return f;
}

static void test_gfp_kernel_sleeps(void **state)
{
	struct ft *t = *state;
	const struct hog_raw *r;

	run(t, alloc_under_lock(t, "a1", "#0xcc0"));
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_SLEEP, 11);
	assert_non_null(r);
	assert_string_equal(r->cls, HOG_CLS_SLEEP);
	assert_string_equal(r->callee, "kmalloc");
	expect_lock(r, "zone->lock", "spin");
}

static void test_gfp_atomic_does_not_sleep(void **state)
{
	struct ft *t = *state;

	run(t, alloc_under_lock(t, "a2", "#0x20"));
	expect_raws(t, -1, 0);
	/* GFP_NOWAIT, GFP_ATOMIC | __GFP_NOWARN: no direct reclaim either */
	run(t, alloc_under_lock(t, "a3", "#0x800"));
	expect_raws(t, -1, 0);
	run(t, alloc_under_lock(t, "a4", "#0x2a20"));
	expect_raws(t, -1, 0);
}

/*
 * The flags come from the caller: only the caller can tell.  The raw
 * finding under the lock held here stands only if some caller passes
 * such flags (prog.c, decide_ways()).
 */
static void test_gfp_from_parameter(void **state)
{
	struct ft *t = *state;
	const struct hog_raw *r;

	run(t, alloc_under_lock(t, "a5", "&$1"));
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_SLEEP, 11);
	assert_non_null(r);
	assert_int_equal(r->path.when_above, 1);
	assert_int_equal(r->path.when.arg, 1);
	assert_int_equal(r->path.when.val, 0x400);
	assert_int_equal(t->sum.ncost, 1);
	assert_int_equal(t->sum.cost[0].kind, HK_SLEEP);
	assert_int_equal(t->sum.cost[0].when.arg, 1);
	assert_int_equal(t->sum.cost[0].when.op, '&');
	assert_int_equal(t->sum.cost[0].when.val, 0x400);
	/* an unknown value is not a finding either */
	run(t, alloc_under_lock(t, "a6", "?"));
	expect_raws(t, -1, 0);
}

static void test_sleep_under_mutex_is_fine(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 0, 1, "dev", NULL);

	ht_call(t->m, f, 0, 10, "mutex_lock", -1, "&$0/dev.mutex", NULL);
	ht_call(t->m, f, 0, 11, "msleep", -1, "#10", NULL);
	ht_call(t->m, f, 0, 12, "kmalloc", -1, "#64", "#0xcc0", NULL);
	ht_call(t->m, f, 0, 13, "mutex_unlock", -1, "&$0/dev.mutex", NULL);
	ht_ret(t->m, f, 0, 14, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 0);
}

static void test_costly_under_mutex_only(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 0, 1, "dev", NULL);
	const struct hog_raw *r;

	ht_call(t->m, f, 0, 10, "mutex_lock", -1, "&$0/dev.mutex", NULL);
	ht_call(t->m, f, 0, 11, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 12, "mutex_unlock", -1, "&$0/dev.mutex", NULL);
	ht_ret(t->m, f, 0, 13, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_CALL, 11);
	expect_lock(r, "dev->mutex", "mutex");
	assert_int_equal(r->path.lock.sleeping, 1);
}

/* a spinning lock inside a mutex: the spinning one is named */
static void test_spin_inside_mutex_names_spin(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 0, 1, "dev", NULL);

	ht_call(t->m, f, 0, 10, "mutex_lock", -1, "&$0/dev.mutex", NULL);
	ht_call(t->m, f, 0, 11, "spin_lock", -1, "&$0/dev.lock", NULL);
	ht_call(t->m, f, 0, 12, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 13, "spin_unlock", -1, "&$0/dev.lock", NULL);
	ht_call(t->m, f, 0, 14, "mutex_unlock", -1, "&$0/dev.mutex", NULL);
	ht_ret(t->m, f, 0, 15, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	expect_lock(raw_at(t, HK_CALL, 12), "dev->lock", "spin");
}

/* mutex_lock() is a sleeping call when a spinlock is held */
static void test_mutex_lock_under_spinlock(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "holder", 0, 1, 0, 1, "dev", NULL);
	const struct hog_raw *r;

	ht_call(t->m, f, 0, 10, "spin_lock", -1, "&$0/dev.lock", NULL);
	ht_call(t->m, f, 0, 11, "mutex_lock", -1, "&$0/dev.mutex", NULL);
	ht_call(t->m, f, 0, 12, "mutex_unlock", -1, "&$0/dev.mutex", NULL);
	ht_call(t->m, f, 0, 13, "spin_unlock", -1, "&$0/dev.lock", NULL);
	ht_ret(t->m, f, 0, 14, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_SLEEP, 11);
	assert_non_null(r);
	assert_string_equal(r->callee, "mutex_lock");
	expect_lock(r, "dev->lock", "spin");
}

/*
 * memcg's refill_stock() after lowering local_lock_irqsave():
 *
 *	flags = arch_local_irq_save();
 *	local_lock_acquire(this_cpu_ptr(&memcg_stock.stock_lock));
 *	page_counter_uncharge(...);
 *	local_lock_release(&this_cpu_ptr(&memcg_stock)->stock_lock);
 *	arch_local_irq_restore(flags);
 */
static void test_local_lock_percpu(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "refill_stock", 0, 1, 1, 1, "memcg", NULL);
	const struct hog_raw *r;

	ht_call(t->m, f, 0, 10, "arch_local_irq_save", 0, NULL);
	ht_call(t->m, f, 0, 11, "local_lock_acquire", -1,
		"&@memcg_stock/memcg_stock_pcp.stock_lock#", NULL);
	ht_call(t->m, f, 0, 12, "page_counter_uncharge", -1, "&$0/mem_cgroup.memory", "?",
		NULL);
	ht_call(t->m, f, 0, 13, "local_lock_release", -1,
		"&@memcg_stock#/memcg_stock_pcp.stock_lock", NULL);
	ht_call(t->m, f, 0, 14, "arch_local_irq_restore", -1, "v0", NULL);
	ht_call(t->m, f, 0, 15, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 16, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_CALL, 12);
	assert_non_null(r);
	assert_string_equal(r->cls, HOG_CLS_HIER);
	expect_lock(r, "memcg_stock.stock_lock", "local");
	assert_string_equal(r->path.lock.cls, "memcg_stock_pcp.stock_lock");
	assert_int_equal(r->path.irqs_off, 1);
	assert_int_equal(t->sum.irq_exit, HOG_IRQ_CALLER);
}

/* spinlock_t *ptl = pte_lockptr(mm, pmd); spin_lock(ptl); */
static void test_lock_through_local_pointer(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "zap", 0, 1, 1, 1, "mm", NULL);

	hog_func_set_vname(t->m, f, 0, "ptl");
	ht_call(t->m, f, 0, 10, "pte_lockptr", 0, "&$0", "?", NULL);
	ht_call(t->m, f, 0, 11, "spin_lock", -1, "&v0", NULL);
	ht_call(t->m, f, 0, 12, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 13, "spin_unlock", -1, "&v0", NULL);
	ht_call(t->m, f, 0, 14, "mmdrop", -1, "&$0", NULL);
	ht_ret(t->m, f, 0, 15, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	expect_lock(raw_at(t, HK_CALL, 12), "ptl", "spin");
	/* a local lock means nothing to callers */
	assert_int_equal(t->sum.nacq, 0);
}

/* two locks of one class: unlocking the inner one leaves the outer held */
static void test_nested_same_class(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "move", 0, 1, 0, 1, "src", "dst", NULL);

	ht_call(t->m, f, 0, 10, "spin_lock", -1, "&$0/zone.lock", NULL);
	ht_call(t->m, f, 0, 11, "spin_lock_nested", -1, "&$1/zone.lock", "#1", NULL);
	ht_call(t->m, f, 0, 12, "spin_unlock", -1, "&$1/zone.lock", NULL);
	ht_call(t->m, f, 0, 13, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 14, "spin_unlock", -1, "&$0/zone.lock", NULL);
	ht_call(t->m, f, 0, 15, "mmdrop", -1, "?", NULL);
	ht_ret(t->m, f, 0, 16, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	expect_lock(raw_at(t, HK_CALL, 13), "src->lock", "spin");
}

/* while (!spin_trylock(&zone->lock)) cpu_relax(); css_put(); */
static void test_trylock_retry_loop(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "spin_until", 0, 1, 1, 3, "zone", NULL);

	ht_succ(t->m, f, 0, 1, 1);
	ht_call(t->m, f, 1, 10, "spin_trylock", 0, ZL, NULL);
	ht_branch(t->m, f, 1, HC_EQZ, 0, 1, 2);
	ht_call(t->m, f, 2, 20, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 2, 21, "spin_unlock", -1, ZL, NULL);
	ht_ret(t->m, f, 2, 22, NULL);
	ht_loop(t->m, f, 1, 10, -1, HL_RETRY, 1, 1);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	expect_lock(raw_at(t, HK_CALL, 20), "zone->lock", "spin");
}

/* a helper that does its own irq disabling, called under a spinlock */
static void test_irqs_off_inside_chain(void **state)
{
	struct ft *t = *state;
	struct hog_func *h = ht_fn(t->m, "irq_helper", 1, 1, 0, 1, NULL);
	struct hog_func *f;
	const struct hog_raw *r;

	ht_call(t->m, h, 0, 2, "local_irq_disable", -1, NULL);
	ht_call(t->m, h, 0, 3, "css_put", -1, "?", NULL);
	ht_call(t->m, h, 0, 4, "local_irq_enable", -1, NULL);
	ht_ret(t->m, h, 0, 5, NULL);
	ht_done(t->m, h);
	summarise(t, h);
	f = ht_fn(t->m, "holder", 0, 10, 0, 1, "zone", NULL);
	ht_call(t->m, f, 0, 11, "spin_lock", -1, ZL, NULL);
	ht_call(t->m, f, 0, 12, "irq_helper", -1, NULL);
	ht_call(t->m, f, 0, 13, "spin_unlock", -1, ZL, NULL);
	ht_ret(t->m, f, 0, 14, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_CALL, 12);
	expect_lock(r, "zone->lock", "spin");
	assert_int_equal(r->path.irqs_off, 1);
	assert_int_equal(r->path.nchain, 2);
	/* local_irq_enable() in the helper: IRQs are on afterwards, whatever before */
	assert_int_equal(t->sum.irq_exit, HOG_IRQ_ON);
}

/*
 * Called with dst->lock held, drops it after taking src->lock (lock
 * coupling, as in a hand-over-hand walk):
 *
 *	spin_lock_nested(&src->lock, 1);
 *	spin_unlock(&dst->lock);	// the caller's lock, not src's
 *	css_put();			// still under src->lock
 *	spin_unlock(&src->lock);
 *
 * Unlocking a lock we do not hold must not give up another lock of the
 * same class that we know we hold.
 */
static void test_unlock_entry_lock_keeps_same_class(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "hand_over", 0, 1, 0, 1, "src", "dst", NULL);

	ht_call(t->m, f, 0, 10, "spin_lock_nested", -1, "&$0/zone.lock", "#1", NULL);
	ht_call(t->m, f, 0, 11, "spin_unlock", -1, "&$1/zone.lock", NULL);
	ht_call(t->m, f, 0, 12, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 13, "spin_unlock", -1, "&$0/zone.lock", NULL);
	ht_ret(t->m, f, 0, 14, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	expect_lock(raw_at(t, HK_CALL, 12), "src->lock", "spin");
	/* and the caller learns that its dst->lock is gone */
	assert_int_equal(t->sum.nrel, 1);
	assert_string_equal(t->sum.rel[0], "$1/zone.lock");
}

/*
 * The outer lock stays held while the loop takes and drops another lock
 * of the same class on every iteration (parent and child, as in
 * fs/dcache.c): that is no lock break for the outer one.
 *
 *	spin_lock(&parent->lock);
 *	while (more) {
 *		spin_lock_nested(&child->lock, 1);
 *		process_item();
 *		spin_unlock(&child->lock);
 *	}
 *	spin_unlock(&parent->lock);
 */
static void test_loop_sibling_lock_is_not_a_break(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "walk_children", 0, 1, 1, 4, "parent", "child",
				   NULL);
	const struct hog_raw *r;

	ht_call(t->m, f, 0, 10, "spin_lock", -1, "&$0/dentry.d_lock", NULL);
	ht_succ(t->m, f, 0, 1, 1);
	ht_assign(t->m, f, 1, 20, NULL, 0, "?");
	ht_branch(t->m, f, 1, HC_NEZ, 0, 2, 3);
	ht_call(t->m, f, 2, 21, "spin_lock_nested", -1, "&$1/dentry.d_lock", "#1", NULL);
	ht_call(t->m, f, 2, 22, "process_item", -1, "&$1", NULL);
	ht_call(t->m, f, 2, 23, "spin_unlock", -1, "&$1/dentry.d_lock", NULL);
	ht_succ(t->m, f, 2, 1, 1);
	ht_call(t->m, f, 3, 30, "spin_unlock", -1, "&$0/dentry.d_lock", NULL);
	ht_ret(t->m, f, 3, 31, NULL);
	ht_loop(t->m, f, 1, 20, -1, HL_OTHER, 2, 1, 2);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, HK_LOOP, 1);
	r = raw_at(t, HK_LOOP, 20);
	expect_lock(r, "parent->d_lock", "spin");
}

/* ---- summaries ---- */

/* static void zone_lock(struct zone *zone) { spin_lock(&zone->lock); } */
static void test_summary_lock_wrapper(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "zone_lock", 1, 1, 0, 1, "zone", NULL);

	ht_call(t->m, f, 0, 2, "spin_lock_irq", -1, ZL, NULL);
	ht_ret(t->m, f, 0, 3, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 0);
	assert_int_equal(t->sum.nacq, 1);
	assert_ptr_equal(t->sum.acq[0].expr, hog_intern(t->strs, "$0/zone.lock"));
	assert_string_equal(t->sum.acq[0].cls, "zone.lock");
	assert_string_equal(t->sum.acq[0].kind, "spin");
	assert_int_equal(t->sum.acq[0].cond, 0);
	assert_int_equal(t->sum.irq_exit, HOG_IRQ_OFF);
	assert_int_equal(t->sum.trivial, 1);
}

static void test_summary_unlock_wrapper(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "zone_unlock", 1, 1, 0, 1, "zone", NULL);

	ht_call(t->m, f, 0, 2, "spin_unlock", -1, ZL, NULL);
	ht_ret(t->m, f, 0, 3, NULL);
	ht_done(t->m, f);
	run(t, f);
	assert_int_equal(t->sum.nacq, 0);
	assert_int_equal(t->sum.nrel, 1);
	assert_string_equal(t->sum.rel[0], "$0/zone.lock");
	assert_int_equal(t->sum.nbrk, 0);
}

/* unlock, do something, lock again: a lock break for callers */
static void test_summary_lock_break(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "relax", 1, 1, 0, 1, "zone", NULL);

	ht_call(t->m, f, 0, 2, "spin_unlock", -1, ZL, NULL);
	ht_call(t->m, f, 0, 3, "_cond_resched", -1, NULL);
	ht_call(t->m, f, 0, 4, "spin_lock", -1, ZL, NULL);
	ht_ret(t->m, f, 0, 5, NULL);
	ht_done(t->m, f);
	run(t, f);
	assert_int_equal(t->sum.nrel, 0);
	assert_int_equal(t->sum.nacq, 0);
	assert_int_equal(t->sum.nbrk, 1);
	assert_string_equal(t->sum.brk[0], "$0/zone.lock");
	/* the sleep happens with the caller's lock given up */
	assert_int_equal(t->sum.ncost, 1);
	assert_int_equal(t->sum.cost[0].nrel, 1);
	assert_string_equal(t->sum.cost[0].rel[0], "$0/zone.lock");
}

/* static int zone_trylock(zone) { if (spin_trylock(&zone->lock)) return 1; return 0; } */
static void test_summary_trylock_wrapper(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "zone_trylock", 1, 1, 1, 3, "zone", NULL);

	ht_call(t->m, f, 0, 2, "spin_trylock", 0, ZL, NULL);
	ht_branch(t->m, f, 0, HC_NEZ, 0, 1, 2);
	ht_ret(t->m, f, 1, 3, "#1");
	ht_ret(t->m, f, 2, 4, "#0");
	ht_done(t->m, f);
	run(t, f);
	assert_int_equal(t->sum.nacq, 1);
	assert_int_equal(t->sum.acq[0].cond, 1);
	assert_string_equal(t->sum.acq[0].expr, "$0/zone.lock");
}

/* return spin_trylock(&zone->lock); */
static void test_summary_trylock_return_result(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "zone_trylock2", 1, 1, 1, 1, "zone", NULL);

	ht_call(t->m, f, 0, 2, "spin_trylock", 0, ZL, NULL);
	ht_ret(t->m, f, 0, 3, "v0");
	ht_done(t->m, f);
	run(t, f);
	assert_int_equal(t->sum.nacq, 1);
	assert_int_equal(t->sum.acq[0].cond, 1);
}

/* a caller of a lock wrapper holds the lock, through the summary */
static void test_wrapper_applied_at_caller(void **state)
{
	struct ft *t = *state;
	struct hog_func *w = ht_fn(t->m, "zone_lock", 1, 1, 0, 1, "zone", NULL);
	struct hog_func *f;

	ht_call(t->m, w, 0, 2, "spin_lock", -1, ZL, NULL);
	ht_ret(t->m, w, 0, 3, NULL);
	ht_done(t->m, w);
	summarise(t, w);
	f = ht_fn(t->m, "caller", 0, 10, 0, 1, "pgdat", NULL);
	ht_call(t->m, f, 0, 11, "zone_lock", -1, "&$0/pglist_data.node_zones[]", NULL);
	ht_call(t->m, f, 0, 12, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 13, "spin_unlock", -1,
		"&$0/pglist_data.node_zones[]/zone.lock", NULL);
	ht_call(t->m, f, 0, 14, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 15, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	expect_lock(raw_at(t, HK_CALL, 12), "pgdat->node_zones[].lock", "spin");
	assert_int_equal(raw_at(t, HK_CALL, 12)->path.lock.line, 11);
}

/* static struct pcp *get_pcp(struct zone *z) { return &z->pcp; } */
static void test_summary_ret_addr(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "get_pcp", 1, 1, 0, 1, "zone", NULL);

	ht_ret(t->m, f, 0, 2, "&$0/zone.pcp");
	ht_done(t->m, f);
	run(t, f);
	assert_ptr_equal(t->sum.ret_addr, hog_intern(t->strs, "$0/zone.pcp"));
}

/*
 * for (;;) { rq = &runqueues; lock(rq); if (ok) return rq; ... }: a
 * frontend joining the return with an unreachable fall-off leaves
 * "return v2" with v2 = phi(&@runqueues# from block 1) alone.  The
 * summary returns that address, so a caller's unlock through the
 * returned pointer finds the lock.  A phi of two addresses returns none.
 */
static void test_summary_ret_phi_of_one(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "runq_lock", 1, 1, 3, 3, "p", NULL);
	struct hog_phi *p;

	ht_call(t->m, f, 0, 2, "raw_spin_lock", -1, "&@runqueues#/rq.__lock", NULL);
	ht_succ(t->m, f, 0, 1, 1);
	ht_succ(t->m, f, 1, 1, 2);
	p = hog_block_add_phi(t->m, &f->blocks[2], 2, 1);
	p->pred[0] = 1;
	p->val[0] = ht_val(t->strs, "&@runqueues#");
	ht_ret(t->m, f, 2, 4, "v2");
	ht_done(t->m, f);
	run(t, f);
	assert_ptr_equal(t->sum.ret_addr, hog_intern(t->strs, "@runqueues#"));
}

static void test_summary_ret_phi_of_two(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "pick_rq", 1, 1, 3, 3, "p", NULL);
	struct hog_phi *p;

	ht_branch(t->m, f, 0, HC_NEZ, 0, 1, 2);
	ht_succ(t->m, f, 1, 1, 2);
	p = hog_block_add_phi(t->m, &f->blocks[2], 2, 2);
	p->pred[0] = 0;
	p->val[0] = ht_val(t->strs, "&@runqueues#");
	p->pred[1] = 1;
	p->val[1] = ht_val(t->strs, "&@idle_rq");
	ht_ret(t->m, f, 2, 4, "v2");
	ht_done(t->m, f);
	run(t, f);
	assert_null(t->sum.ret_addr);
}

static void test_summary_trivial(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "leaf", 1, 1, 0, 1, NULL);

	ht_call(t->m, f, 0, 2, "memset", -1, "?", "#0", "#64", NULL);
	ht_ret(t->m, f, 0, 3, NULL);
	ht_done(t->m, f);
	run(t, f);
	assert_int_equal(t->sum.trivial, 1);
	assert_int_equal(t->sum.ncost, 0);
	/* an unknown external or an indirect call is not trivial */
	f = ht_fn(t->m, "leaf2", 1, 1, 0, 1, NULL);
	ht_call(t->m, f, 0, 2, "unknown_external", -1, NULL);
	ht_ret(t->m, f, 0, 3, NULL);
	ht_done(t->m, f);
	run(t, f);
	assert_int_equal(t->sum.trivial, 0);
	f = ht_fn(t->m, "leaf3", 1, 1, 0, 1, NULL);
	ht_icall(t->m, f, 0, 2);
	ht_ret(t->m, f, 0, 3, NULL);
	ht_done(t->m, f);
	run(t, f);
	assert_int_equal(t->sum.trivial, 0);
}

/* a block with no successor and no return is a dead end (BUG(), panic()) */
static void test_noreturn_dead_end(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "bug_on", 0, 1, 1, 3, "zone", NULL);

	ht_call(t->m, f, 0, 10, "spin_lock", -1, ZL, NULL);
	ht_call(t->m, f, 0, 11, "check", 0, NULL);
	ht_branch(t->m, f, 0, HC_NEZ, 0, 1, 2);
	ht_call(t->m, f, 1, 20, "panic", -1, NULL);		/* no return */
	ht_call(t->m, f, 2, 30, "spin_unlock", -1, ZL, NULL);
	ht_ret(t->m, f, 2, 31, NULL);
	ht_done(t->m, f);
	run(t, f);
	/* the lock held on the way to panic() does not leak to callers */
	assert_int_equal(t->sum.nacq, 0);
}


/* ---- annotations: __must_hold() and friends, lockdep_assert_held() ---- */

#define ANNOT_RULES "lock-kind spin spinlock\nlock-kind mutex mutex\n"

static void annot(struct ft *t, struct hog_func *f, enum hog_annot_kind k, const char *type)
{
	ht_rules_text(t->rules, ANNOT_RULES);
	hog_func_add_annot(t->m, f, k, f->line, 1, type, "$0/zone.lock");
}

/* __must_hold(&zone->lock): costs inside are under it; the summary neither takes nor gives it */
static void test_annot_must_hold(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "held_fn", 0, 1, 0, 1, "zone", NULL);
	const struct hog_raw *r;

	annot(t, f, HA_MUST_HOLD, "spinlock");
	ht_call(t->m, f, 0, 2, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 3, NULL);
	ht_done(t->m, f);
	assert_int_equal(run(t, f), 0);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_CALL, 2);
	expect_lock(r, "zone->lock", "spin");
	assert_int_equal(r->path.lock.entry, 1);
	assert_int_equal(t->sum.nacq, 0);
	assert_int_equal(t->sum.nrel, 0);
	assert_int_equal(t->sum.ncost, 1);
}

/* a mutex by its type: a sleeping lock held */
static void test_annot_kind_from_type(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "held_mutex", 0, 1, 0, 1, "zone", NULL);
	const struct hog_raw *r;

	annot(t, f, HA_MUST_HOLD, "mutex");
	ht_call(t->m, f, 0, 2, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 3, NULL);
	ht_done(t->m, f);
	run(t, f);
	r = raw_at(t, HK_CALL, 2);
	expect_lock(r, "zone->lock", "mutex");
	assert_int_equal(r->path.lock.sleeping, 1);
}

/* a type the rules give no kind: nothing assumed */
static void test_annot_unknown_type(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "held_what", 0, 1, 0, 1, "zone", NULL);

	annot(t, f, HA_MUST_HOLD, "frobnicator");
	ht_call(t->m, f, 0, 2, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 3, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 0);
}

/* __releases(&zone->lock): held up to the unlock, an entry lock given up after */
static void test_annot_releases(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "drop_fn", 0, 1, 0, 1, "zone", NULL);

	annot(t, f, HA_RELEASES, "spinlock");
	ht_call(t->m, f, 0, 2, "css_put", -1, "?", NULL);
	ht_call(t->m, f, 0, 3, "spin_unlock", -1, ZL, NULL);
	ht_call(t->m, f, 0, 4, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 5, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	assert_non_null(raw_at(t, HK_CALL, 2));
	assert_int_equal(t->sum.nacq, 0);
	assert_int_equal(t->sum.nrel, 1);
	assert_string_equal(t->sum.rel[0], "$0/zone.lock");
	assert_int_equal(t->sum.nbrk, 0);
}

/* __releases() where the walk sees no unlock: the annotation fills the summary in */
static void test_annot_releases_fills_in(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "drop_elsewhere", 0, 1, 0, 1, "zone", NULL);

	annot(t, f, HA_RELEASES, "spinlock");
	ht_call(t->m, f, 0, 2, "zone_unlock_slowpath", -1, "&$0", NULL);
	ht_ret(t->m, f, 0, 3, NULL);
	ht_done(t->m, f);
	run(t, f);
	assert_int_equal(t->sum.nacq, 0);
	assert_int_equal(t->sum.nrel, 1);
	assert_string_equal(t->sum.rel[0], "$0/zone.lock");
}

/* __acquires() and __cond_acquires() where the walk sees no lock taken */
static void test_annot_acquires_fills_in(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "take_elsewhere", 0, 1, 0, 1, "zone", NULL);
	struct hog_func *g = ht_fn(t->m, "try_elsewhere", 0, 1, 2, 1, "zone", NULL);

	annot(t, f, HA_ACQUIRES, "spinlock");
	ht_call(t->m, f, 0, 2, "zone_lock_slowpath", -1, "&$0", NULL);
	ht_ret(t->m, f, 0, 3, NULL);
	ht_done(t->m, f);
	run(t, f);
	assert_int_equal(t->sum.nacq, 1);
	assert_string_equal(t->sum.acq[0].expr, "$0/zone.lock");
	assert_string_equal(t->sum.acq[0].kind, "spin");
	assert_int_equal(t->sum.acq[0].cond, 0);
	hog_func_add_annot(t->m, g, HA_COND_ACQUIRES, 1, 1, "spinlock", "$0/zone.lock");
	ht_call(t->m, g, 0, 2, "zone_trylock_slowpath", 1, "&$0", NULL);
	ht_ret(t->m, g, 0, 3, "v1");
	ht_done(t->m, g);
	run(t, g);
	assert_int_equal(t->sum.nacq, 1);
	assert_int_equal(t->sum.acq[0].cond, 1);
}

/* lockdep_assert_held(): held from the assert on, not before */
static void test_assert_held_event(void **state)
{
	struct ft *t = *state;
	struct hog_func *f = ht_fn(t->m, "asserts", 0, 1, 0, 1, "zone", NULL);
	struct hog_event *e;
	const struct hog_raw *r;

	ht_rules_text(t->rules, ANNOT_RULES);
	ht_call(t->m, f, 0, 2, "css_put", -1, "?", NULL);
	e = hog_block_add_event(t->m, &f->blocks[0], HE_HELD, 3, HT_COL, "spinlock", -1, 1);
	e->args[0] = ht_val(t->strs, ZL);
	ht_call(t->m, f, 0, 4, "css_put", -1, "?", NULL);
	ht_ret(t->m, f, 0, 5, NULL);
	ht_done(t->m, f);
	run(t, f);
	expect_raws(t, -1, 1);
	r = raw_at(t, HK_CALL, 4);
	expect_lock(r, "zone->lock", "spin");
	assert_int_equal(r->path.lock.entry, 1);
	assert_int_equal(t->sum.nacq, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_direct_cost_under_spin_lock),
		T(test_no_lock_no_finding),
		T(test_rlock_is_the_same_lock),
		T(test_trylock_success_edge_only),
		T(test_trylock_early_return),
		T(test_trylock_eqz_branch),
		T(test_trylock_result_unused),
		T(test_trylock_cond_zero),
		T(test_irqsave_irqrestore),
		T(test_irqsave_flags_arg),
		T(test_irqrestore_nested_keeps_irqs_off),
		T(test_preemption_off),
		T(test_release_on_one_path_then_join),
		T(test_acquire_on_one_path_then_join),
		T(test_loop_unbounded_heavy_call),
		T(test_loop_lock_break_unlock_relock),
		T(test_loop_lock_break_cond_resched_lock),
		T(test_loop_bounded),
		T(test_loop_shapes_not_reported),
		T(test_loop_listwalk_report),
		T(test_loop_trivial_body),
		T(test_loop_min_calls),
		T(test_loop_costly_body),
		T(test_loop_lock_inside_body),
		T(test_loop_nested_outermost),
		T(test_loop_break_inner_keeps_outer),
		T(test_parent_walk_atomic_is_hier),
		T(test_other_loop_atomic_not_hier),
		T(test_global_atomic),
		T(test_global_atomic_by_rule),
		T(test_gfp_kernel_sleeps),
		T(test_gfp_atomic_does_not_sleep),
		T(test_gfp_from_parameter),
		T(test_sleep_under_mutex_is_fine),
		T(test_costly_under_mutex_only),
		T(test_spin_inside_mutex_names_spin),
		T(test_mutex_lock_under_spinlock),
		T(test_local_lock_percpu),
		T(test_lock_through_local_pointer),
		T(test_nested_same_class),
		T(test_trylock_retry_loop),
		T(test_irqs_off_inside_chain),
		T(test_unlock_entry_lock_keeps_same_class),
		T(test_loop_sibling_lock_is_not_a_break),
		T(test_summary_lock_wrapper),
		T(test_summary_unlock_wrapper),
		T(test_summary_lock_break),
		T(test_summary_trylock_wrapper),
		T(test_summary_trylock_return_result),
		T(test_wrapper_applied_at_caller),
		T(test_summary_ret_addr),
		T(test_summary_ret_phi_of_one),
		T(test_summary_ret_phi_of_two),
		T(test_summary_trivial),
		T(test_noreturn_dead_end),
		T(test_annot_must_hold),
		T(test_annot_kind_from_type),
		T(test_annot_unknown_type),
		T(test_annot_releases),
		T(test_annot_releases_fills_in),
		T(test_annot_acquires_fills_in),
		T(test_assert_held_event),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
