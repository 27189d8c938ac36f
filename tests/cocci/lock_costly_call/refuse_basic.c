// SPDX-License-Identifier: GPL-2.0
/*
 * lock_costly_call: calls that are reported but not moved.  Each line the
 * report must name carries an EXPECT-REPORT marker.
 */
struct cgroup_subsys_state { int refcnt; };
struct page_counter { long usage; };
struct grp {
	struct cgroup_subsys_state css;
	struct page_counter memory;
	struct grp *next;
};
struct cache {
	struct grp *cached;
	unsigned int nr_pages;
};
static DEFINE_SPINLOCK(cache_lock);

/* An argument variable is assigned again after the call. */
static void arg_changed(struct cache *c, struct grp *g)
{
	spin_lock(&cache_lock);
	css_put(&g->css); /* EXPECT-REPORT */
	g = g->next;
	c->cached = g;
	spin_unlock(&cache_lock);
}

/* The object is put (and may be freed) under the lock after the call. */
static void freed_after(struct cache *c, struct grp *g, unsigned int nr)
{
	spin_lock(&cache_lock);
	page_counter_uncharge(&g->memory, nr); /* EXPECT-REPORT */
	c->nr_pages -= nr;
	kfree(g);
	spin_unlock(&cache_lock);
}

/* The lock is given up and retaken between the call and the unlock. */
static void retaken(struct cache *c, struct grp *g)
{
	spin_lock(&cache_lock);
	css_put(&g->css); /* EXPECT-REPORT */
	if (c->nr_pages > 64) {
		spin_unlock(&cache_lock);
		cond_resched();
		spin_lock(&cache_lock);
	}
	c->nr_pages = 0;
	spin_unlock(&cache_lock);
}

/* The same through a lock-break helper. */
static void retaken_helper(struct cache *c, struct grp *g)
{
	spin_lock(&cache_lock);
	css_put(&g->css); /* EXPECT-REPORT */
	cond_resched_lock(&cache_lock);
	c->nr_pages = 0;
	spin_unlock(&cache_lock);
}

/* The result is used under the lock. */
static bool result_used(struct cache *c, struct grp *g)
{
	bool ok;

	spin_lock(&cache_lock);
	ok = page_counter_try_charge(&g->memory, c->nr_pages, NULL); /* EXPECT-REPORT */
	if (ok)
		c->nr_pages = 0;
	spin_unlock(&cache_lock);
	return ok;
}

/* Only on some paths. */
static void conditional(struct cache *c, struct grp *g)
{
	spin_lock(&cache_lock);
	if (c->nr_pages)
		css_put(&g->css); /* EXPECT-REPORT */
	spin_unlock(&cache_lock);
}

/* A pointer read under the lock: the lock may keep the object alive. */
static void read_under(struct cache *c, unsigned int nr)
{
	struct grp *g;

	spin_lock(&cache_lock);
	g = c->cached;
	page_counter_uncharge(&g->memory, nr); /* EXPECT-REPORT */
	spin_unlock(&cache_lock);
}

/* A trylock region may exist to serialise the call itself. */
static void flush_once(struct grp *root)
{
	unsigned long flags;

	if (!spin_trylock_irqsave(&cache_lock, flags))
		return;
	cgroup_rstat_flush_irqsafe(root); /* EXPECT-REPORT */
	spin_unlock_irqrestore(&cache_lock, flags);
}

/* A flush followed by work that may rely on it. */
static void flush_then_read(struct cache *c, struct grp *root)
{
	spin_lock(&cache_lock);
	cgroup_rstat_flush_locked(root); /* EXPECT-REPORT */
	c->nr_pages = 0;
	spin_unlock(&cache_lock);
}

/* A global argument. */
static struct grp *root_grp;
static void global_arg(void)
{
	spin_lock(&cache_lock);
	css_put(&root_grp->css); /* EXPECT-REPORT */
	spin_unlock(&cache_lock);
}

/* A local_trylock region (local_trylock_t, Linux 6.15 and later): the
 * trylock may be what keeps a reentrant caller out. */
static void try_put(struct grp *g)
{
	unsigned long flags;

	if (!local_trylock_irqsave(&pcp_trylock, flags))
		return;
	css_put(&g->css); /* EXPECT-REPORT */
	local_unlock_irqrestore(&pcp_trylock, flags);
}
