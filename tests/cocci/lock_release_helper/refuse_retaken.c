// SPDX-License-Identifier: GPL-2.0
/*
 * lock_release_helper: the lock holder drops the lock twice after the
 * helper ran (the lock is retaken in between): one record released after
 * each unlock would put the detached object twice, so the helper is
 * reported and not split.  Each line the report must name carries an
 * EXPECT-REPORT marker.
 */
struct one_pcp {
	spinlock_t lock;
	struct grp *cached;
	unsigned int nr_pages;
};

static void drain_one(struct one_pcp *c)
{
	struct grp *old = c->cached;

	if (!old)
		return;

	if (c->nr_pages) {
		page_counter_uncharge(&old->memory, c->nr_pages);
		c->nr_pages = 0;
	}

	css_put(&old->css);
	c->cached = NULL;
}

static void drain_and_refill(struct one_pcp *c, struct grp *grp)
{
	spin_lock(&c->lock);
	drain_one(c); /* EXPECT-REPORT */
	spin_unlock(&c->lock);

	css_get(&grp->css);

	spin_lock(&c->lock);
	c->cached = grp;
	spin_unlock(&c->lock);
}
