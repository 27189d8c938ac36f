// SPDX-License-Identifier: GPL-2.0
// SPATCH-ARGS: -D fn=bulk_free -D callee=free_one -D nocond
/*
 * lock_loop_break: a bulk free that hands pages back to a zone under the
 * zone lock, as many as the caller asks for.  Its caller holds a per-cpu
 * lock, so no cond_resched() (-D nocond).
 */
static void bulk_free(struct zone *zone, struct pcp *pcp, int count)
{
	unsigned long flags;
	bool isolated;
	struct page *page;

	spin_lock_irqsave(&zone->lock, flags);
	isolated = zone_has_isolated(zone);

	while (count > 0) {
		struct list_head *list = pcp_pick_list(pcp);
		int mt;

		do {
			page = list_last_entry(list, struct page, lru);
			list_del(&page->lru);
			count--;
			mt = page_mt(page);
			if (unlikely(isolated))
				mt = pageblock_mt(page);
			free_one(zone, page, mt);
		} while (count > 0 && !list_empty(list));
	}

	spin_unlock_irqrestore(&zone->lock, flags);
}
