// SPDX-License-Identifier: GPL-2.0
/*
 * lock_loop_break: loops whose state a lock break would invalidate,
 * reported and not patched.  Each line the report must name carries an
 * EXPECT-REPORT marker.
 */
/* The loop walks a list the lock protects: its cursor would not survive a break. */
static void put_listed(struct zone *zone)
{
	struct grp *g, *n;
	unsigned long flags;

	spin_lock_irqsave(&zone->lock, flags);
	list_for_each_entry_safe(g, n, &zone->grps, node) {
		list_del(&g->node);
		css_put(&g->css); /* EXPECT-REPORT */
	}
	spin_unlock_irqrestore(&zone->lock, flags);
}

/* A value read under the lock before the loop and used in it. */
static void put_counted(struct zone *zone, struct grp **grps)
{
	unsigned long flags;
	int i, nr;

	spin_lock_irqsave(&zone->lock, flags);
	nr = zone->nr_grps;
	for (i = 0; i < nr; i++)
		css_put(&grps[i]->css); /* EXPECT-REPORT */
	zone->nr_grps = 0;
	spin_unlock_irqrestore(&zone->lock, flags);
}
