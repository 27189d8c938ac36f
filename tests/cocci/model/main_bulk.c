// SPDX-License-Identifier: GPL-2.0
/* Harness: runs the model (original or patched, named by MODEL). */
#include MODEL

int main(void)
{
	static struct page pages[1000];
	struct zone zone = { { 0 } };
	struct pcp pcp = { NULL, 0 };
	int i;

	for (i = 0; i < 1000; i++) {
		pages[i].mt = i % 3;
		pages[i].next = pcp.head;
		pcp.head = &pages[i];
		pcp.count++;
	}
	bulk_free(&zone, &pcp, 300);
	bulk_free(&zone, &pcp, 5000);
	printf("zone: free %ld mt %ld %ld %ld %ld\n", zone.nr_free, zone.per_mt[0],
	       zone.per_mt[1], zone.per_mt[2], zone.per_mt[3]);
	printf("pcp: %d left\n", pcp.count);
	printf("locks held %d irqs off %d warnings %ld\n", held, irqs_off, warnings);
	printf("stat: relocks %ld cond_resched %ld\n", zone.isolated_reads - 2, cond_rescheds);
	return 0;
}
