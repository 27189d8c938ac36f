// SPDX-License-Identifier: GPL-2.0
/*
 * lock_release_helper: a per-cpu cache of charges for one group.  The
 * drain helper uncharges and drops the group under the cache lock.
 */
struct cache_pcp {
	local_lock_t lock;
	struct grp *cached;
	unsigned int nr_pages;
	struct grp *obj_grp;
	unsigned int obj_pages;
	unsigned long flags;
};
static DEFINE_PER_CPU(struct cache_pcp, cache_pcp);

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
	clear_bit(0, &cache->flags);
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

/* Another user of the intermediate helper, called with no lock held. */
static void flush_objects(struct grp *grp, unsigned int nr_pages)
{
	if (nr_pages)
		__refill_cache(grp, nr_pages);
}

/*
 * Reaches the helper through the intermediate one, without a lock of its
 * own: its callers hold the cache lock (drain_obj_stock() in 6.1).
 */
static struct grp *drain_objects(struct cache_pcp *cache)
{
	struct grp *grp = cache->obj_grp;

	if (grp) {
		__refill_cache(grp, cache->obj_pages);
		cache->obj_grp = NULL;
	}
	return grp;
}

static void refill_objects(struct grp *grp)
{
	struct cache_pcp *cache;
	struct grp *old;
	unsigned long flags;

	local_lock_irqsave(&cache_pcp.lock, flags);
	cache = this_cpu_ptr(&cache_pcp);
	old = drain_objects(cache);
	cache->obj_grp = grp;
	local_unlock_irqrestore(&cache_pcp.lock, flags);
	if (old)
		grp_put(old);
}

static int cache_cpu_dead(unsigned int cpu)
{
	drain_cache(&per_cpu(cache_pcp, cpu));
	return 0;
}
