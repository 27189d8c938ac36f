// SPDX-License-Identifier: GPL-2.0
/*
 * lock_release_helper: helpers reported but not split.  Each line the
 * report must name carries an EXPECT-REPORT marker.
 */
struct cache_pcp {
	spinlock_t lock;
	struct grp *cached;
	unsigned int nr_pages;
	unsigned int nr_bytes;
};

/* It reads two counters besides the cached object. */
static void drain_two(struct cache_pcp *cache)
{
	struct grp *old = cache->cached;

	if (!old)
		return;

	if (cache->nr_pages) {
		page_counter_uncharge(&old->memory, cache->nr_pages + cache->nr_bytes);
		cache->nr_pages = 0;
		cache->nr_bytes = 0;
	}

	css_put(&old->css);
	cache->cached = NULL;
}

static void drain_all(struct cache_pcp *caches, int n)
{
	int i;

	spin_lock(&caches[0].lock);
	for (i = 0; i < n; i++)
		drain_two(&caches[i]); /* EXPECT-REPORT */
	spin_unlock(&caches[0].lock);
}
