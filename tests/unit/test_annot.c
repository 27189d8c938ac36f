// SPDX-License-Identifier: GPL-2.0
/*
 * core/annot.c: the text of a lock annotation to the lock's address
 * expression.  The names and types a frontend would answer for come from
 * a small table here (struct hog_annot_env is the frontends' interface):
 *
 *	void f(struct zone *zone, spinlock_t *lock, struct vm_fault *vmf,
 *	       struct kmem_cache *s, int nr);
 *	spinlock_t hugetlb_lock; struct memcg_stock_pcp memcg_stock;
 *	struct mutex big_mutex;
 */
#include "hogtest.h"
#include "annot.h"

enum ty {
	T_NONE, T_ZONE, T_ZONE_P, T_SPIN, T_SPIN_P, T_VMF, T_VMF_P, T_STOCK, T_LOCAL,
	T_CACHE, T_CACHE_P, T_CPU, T_CPU_P, T_INT, T_MUTEX,
};

#define TY(x) ((const void *)(long)(x))
#define UN(p) ((enum ty)(long)(p))

static int lookup(void *ctx, const char *name, int *param, const void **type)
{
	static const struct { const char *n; int p; enum ty t; } names[] = {
		{ "zone", 0, T_ZONE_P }, { "lock", 1, T_SPIN_P }, { "vmf", 2, T_VMF_P },
		{ "s", 3, T_CACHE_P }, { "nr", 4, T_INT },
		{ "hugetlb_lock", -1, T_SPIN }, { "memcg_stock", -1, T_STOCK },
		{ "big_mutex", -1, T_MUTEX },
	};
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].n, name)) {
			*param = names[i].p;
			*type = TY(names[i].t);
			return 0;
		}
	return -1;
}

static const void *pointee(void *ctx, const void *type)
{
	(void)ctx;
	switch (UN(type)) {
	case T_ZONE_P: return TY(T_ZONE);
	case T_SPIN_P: return TY(T_SPIN);
	case T_VMF_P: return TY(T_VMF);
	case T_CACHE_P: return TY(T_CACHE);
	case T_CPU_P: return TY(T_CPU);
	default: return NULL;
	}
}

static int member(void *ctx, const void *type, const char *field, const char **tname,
		  const void **ftype)
{
	static const struct { enum ty in; const char *f, *tn; enum ty out; } fields[] = {
		{ T_ZONE, "lock", "zone", T_SPIN }, { T_VMF, "ptl", "vm_fault", T_SPIN_P },
		{ T_STOCK, "stock_lock", "memcg_stock_pcp", T_LOCAL },
		{ T_CACHE, "cpu_slab", "kmem_cache", T_CPU_P },
		{ T_CPU, "lock", "kmem_cache_cpu", T_LOCAL },
	};
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (fields[i].in == UN(type) && !strcmp(fields[i].f, field)) {
			*tname = fields[i].tn;
			*ftype = TY(fields[i].out);
			return 0;
		}
	return -1;
}

static const char *lock_type(void *ctx, const void *type)
{
	(void)ctx;
	switch (UN(type)) {
	case T_SPIN: return "spinlock";
	case T_LOCAL: return "local_lock_t";
	case T_MUTEX: return "mutex";
	default: return NULL;
	}
}

static const struct hog_annot_env env = { NULL, lookup, pointee, member, lock_type };

static void expect(const char *text, const char *want, const char *wtype)
{
	struct hog_strtab *strs = hog_strtab_new();
	const char *e = NULL, *ty = NULL;
	int r = hog_annot_parse(strs, &env, text, &e, &ty);

	if (!want) {
		if (r == 0)
			print_error("'%s' read as %s\n", text, e);
		assert_int_equal(r, -1);
	} else {
		if (r)
			print_error("'%s' not read\n", text);
		assert_int_equal(r, 0);
		assert_string_equal(e, want);
		assert_string_equal(ty, wtype);
	}
	hog_strtab_free(strs);
}

static void test_parse_forms(void **state)
{
	(void)state;
	expect("&zone->lock", "$0/zone.lock", "spinlock");
	expect("zone->lock", "$0/zone.lock", "spinlock");	/* the lock itself, as sparse names it */
	expect("hugetlb_lock", "@hugetlb_lock", "spinlock");
	expect("lock", "$1", "spinlock");
	expect("&hugetlb_lock", "@hugetlb_lock", "spinlock");
	expect("&big_mutex", "@big_mutex", "mutex");
	expect("vmf->ptl", "$2/vm_fault.ptl^", "spinlock");
	expect("&memcg_stock.stock_lock", "@memcg_stock/memcg_stock_pcp.stock_lock", "local_lock_t");
	expect("this_cpu_ptr(&s->cpu_slab->lock)",
	       "$3/kmem_cache.cpu_slab^/kmem_cache_cpu.lock#", "local_lock_t");
	/* 7.0's two-argument forms: the lock is last */
	expect("true,&zone->lock", "$0/zone.lock", "spinlock");
}

static void test_parse_refused(void **state)
{
	(void)state;
	expect("&n->list_lock", NULL, NULL);		/* a local */
	expect("&get_mm_list(x)->lock", NULL, NULL);	/* a call */
	expect("&lock", NULL, NULL);			/* the parameter's own address */
	expect("nr", NULL, NULL);			/* not a lock */
	expect("&zone->nope", NULL, NULL);
	expect("&zone->lock+1", NULL, NULL);
	expect("", NULL, NULL);
}

static void test_names(void **state)
{
	char *a;

	(void)state;
	assert_int_equal(hog_annot_kind_of("__must_hold"), HA_MUST_HOLD);
	assert_int_equal(hog_annot_kind_of("__releases"), HA_RELEASES);
	assert_int_equal(hog_annot_kind_of("__cond_acquires"), HA_COND_ACQUIRES);
	assert_int_equal(hog_annot_kind_of("requires_capability"), HA_MUST_HOLD);
	assert_int_equal(hog_annot_kind_of("__acquire_capability__"), HA_ACQUIRES);
	assert_int_equal(hog_annot_kind_of("try_acquire_capability"), HA_COND_ACQUIRES);
	assert_int_equal(hog_annot_kind_of("__must_holdx"), -1);
	assert_true(hog_annot_is_assert("lockdep_assert_held_once"));
	assert_false(hog_annot_is_assert("lockdep_assert"));
	a = hog_annot_macro_arg("__must_hold( &zone->lock )\n{", 28);
	assert_string_equal(a, "&zone->lock");
	free(a);
	a = hog_annot_macro_arg("lockdep_assert_held(this_cpu_ptr(&x->l));", 41);
	assert_string_equal(a, "this_cpu_ptr(&x->l)");
	free(a);
	assert_null(hog_annot_macro_arg("__must_hold(&zone->lock", 23));
	assert_null(hog_annot_macro_arg("__must_hold", 11));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
