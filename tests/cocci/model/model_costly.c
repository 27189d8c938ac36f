// SPDX-License-Identifier: GPL-2.0
// SPATCH-COCCI: lock_costly_call
/* Calls under a lock that lock_costly_call moves out, for the model. */
#include "kmodel.h"

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

static void flush_pages(struct cache *c, struct grp *g)
{
	unsigned long flags;

	spin_lock_irqsave(&cache_lock, flags);
	page_counter_uncharge(&g->memory, c->nr_pages);
	c->nr_pages = 0;
	spin_unlock_irqrestore(&cache_lock, flags);
}

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
