// SPDX-License-Identifier: GPL-2.0
// SPATCH-COCCI: lock_loop_break
// SPATCH-ARGS: -D fn=bulk_free -D callee=free_one -D nocond
/* A bulk free under a zone lock, for the userspace model. */
#include "kmodel.h"

struct page {
	int mt;
	struct page *next;
};

struct zone {
	spinlock_t lock;
	long nr_free;
	long per_mt[4];
	long isolated_reads;
};

struct pcp {
	struct page *head;
	int count;
};

static bool zone_has_isolated(struct zone *zone)
{
	zone->isolated_reads++;
	return false;
}

static int page_mt(struct page *page)
{
	return page->mt;
}

static int pageblock_mt(struct page *page)
{
	return 3;
}

static struct page *pcp_pop(struct pcp *pcp)
{
	struct page *page = pcp->head;

	pcp->head = page->next;
	pcp->count--;
	return page;
}

static void free_one(struct zone *zone, struct page *page, int mt)
{
	costly();
	zone->nr_free++;
	zone->per_mt[mt]++;
}

static void bulk_free(struct zone *zone, struct pcp *pcp, int count)
{
	unsigned long flags;
	bool isolated;
	struct page *page;
	int mt;

	spin_lock_irqsave(&zone->lock, flags);
	isolated = zone_has_isolated(zone);

	while (count > 0 && pcp->count) {
		do {
			page = pcp_pop(pcp);
			count--;
			mt = page_mt(page);
			if (unlikely(isolated))
				mt = pageblock_mt(page);
			free_one(zone, page, mt);
		} while (count > 0 && pcp->count);
	}

	spin_unlock_irqrestore(&zone->lock, flags);
}
