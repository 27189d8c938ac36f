// SPDX-License-Identifier: GPL-2.0
/* lock_costly_call: calls that are moved after the unlock. */
struct cgroup_subsys_state { int refcnt; };
struct page_counter { long usage; };
struct grp {
	struct cgroup_subsys_state css;
	struct page_counter memory;
};
struct cache {
	struct grp *cached;
	unsigned int nr_pages;
	int stamp;
};
static DEFINE_SPINLOCK(cache_lock);

/* A reference drop at the end of the region. */
static void drop_cached(struct cache *c)
{
	struct grp *old;

	spin_lock(&cache_lock);
	old = c->cached;
	c->cached = NULL;
	css_put(&old->css);
	c->stamp++;
	spin_unlock(&cache_lock);
}

/* A field argument is copied under the lock before it is cleared. */
static void flush_pages(struct cache *c, struct grp *g)
{
	unsigned long flags;

	spin_lock_irqsave(&cache_lock, flags);
	page_counter_uncharge(&g->memory, c->nr_pages);
	c->nr_pages = 0;
	spin_unlock_irqrestore(&cache_lock, flags);
}

/* Two calls, two unlocks: both calls follow each unlock, in order. */
static int put_both(struct cache *c, struct grp *a, struct grp *b, int early)
{
	spin_lock_irq(&cache_lock);
	css_put(&a->css);
	c->stamp = 0;
	css_put(&b->css);
	if (early) {
		spin_unlock_irq(&cache_lock);
		return 1;
	}
	c->stamp = 1;
	spin_unlock_irq(&cache_lock);
	return 0;
}

/* A local_lock region. */
static void local_put(struct grp *g)
{
	unsigned long flags;

	local_lock_irqsave(&pcp_lock, flags);
	css_put(&g->css);
	local_unlock_irqrestore(&pcp_lock, flags);
}

/* A raw spinlock with IRQs saved. */
static DEFINE_RAW_SPINLOCK(raw_lock);

static void raw_uncharge(struct cache *c, struct grp *g, unsigned int nr)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&raw_lock, flags);
	page_counter_uncharge(&g->memory, nr);
	c->nr_pages -= nr;
	raw_spin_unlock_irqrestore(&raw_lock, flags);
}

/* A plain local_lock. */
static void local_put_plain(struct grp *g, struct cache *c)
{
	local_lock(&pcp_lock);
	c->cached = NULL;
	css_put(&g->css);
	local_unlock(&pcp_lock);
}
