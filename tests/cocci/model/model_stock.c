// SPDX-License-Identifier: GPL-2.0
// SPATCH-COCCI: lock_release_helper
/* A per-cpu charge cache (the memcg stock shape) for the userspace model. */
#include "kmodel.h"

#define CACHE_BATCH 8

struct grp {
	struct cgroup_subsys_state css;
	struct page_counter memory;
	struct page_counter memsw;
	int swap;
};

struct cache_pcp {
	local_lock_t lock;
	struct grp *cached;
	unsigned int nr_pages;
};
static DEFINE_PER_CPU(struct cache_pcp, cache_pcp);

static bool grp_has_swap(struct grp *grp)
{
	return grp->swap;
}

static void drain_cache(struct cache_pcp *cache)
{
	struct grp *old = cache->cached;

	if (!old)
		return;

	if (cache->nr_pages) {
		page_counter_uncharge(&old->memory, cache->nr_pages);
		if (grp_has_swap(old))
			page_counter_uncharge(&old->memsw, cache->nr_pages);
		cache->nr_pages = 0;
	}

	css_put(&old->css);
	cache->cached = NULL;
}

static void drain_local_cache(void)
{
	struct cache_pcp *cache;
	unsigned long flags;

	local_lock_irqsave(&cache_pcp.lock, flags);
	cache = this_cpu_ptr(&cache_pcp);
	drain_cache(cache);
	local_unlock_irqrestore(&cache_pcp.lock, flags);
}

static void __refill_cache(struct grp *grp, unsigned int nr_pages)
{
	struct cache_pcp *cache;

	cache = this_cpu_ptr(&cache_pcp);
	if (cache->cached != grp) {
		drain_cache(cache);
		css_get(&grp->css);
		cache->cached = grp;
	}
	cache->nr_pages += nr_pages;

	if (cache->nr_pages > CACHE_BATCH)
		drain_cache(cache);
}

static void refill_cache(struct grp *grp, unsigned int nr_pages)
{
	unsigned long flags;

	local_lock_irqsave(&cache_pcp.lock, flags);
	__refill_cache(grp, nr_pages);
	local_unlock_irqrestore(&cache_pcp.lock, flags);
}

static void flush_objects(struct grp *grp, unsigned int nr_pages)
{
	if (nr_pages)
		__refill_cache(grp, nr_pages);
}

static int cache_cpu_dead(unsigned int cpu)
{
	drain_cache(&per_cpu(cache_pcp, cpu));
	return 0;
}
