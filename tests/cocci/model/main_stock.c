// SPDX-License-Identifier: GPL-2.0
/* Harness: runs the model (original or patched, named by MODEL). */
#include MODEL

int main(void)
{
	struct grp g[3] = { { .swap = 0 }, { .swap = 1 }, { .swap = 1 } };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		g[i].css.refcnt = 1;
		g[i].memory.usage = 1000;
		g[i].memsw.usage = 1000;
	}
	for (i = 0; i < 40; i++)
		refill_cache(&g[i % 3], 1 + i % 11);
	drain_local_cache();
	for (i = 0; i < 10; i++)
		refill_cache(&g[1], 3);
	flush_objects(&g[2], 20);
	flush_objects(&g[0], 0);
	refill_cache(&g[0], 2);
	cache_cpu_dead(0);
	drain_local_cache();
	for (i = 0; i < 3; i++)
		printf("grp%u: css %ld memory %ld memsw %ld\n", i, g[i].css.refcnt,
		       g[i].memory.usage, g[i].memsw.usage);
	printf("cache: %s %u\n", cache_pcp.cached ? "cached" : "empty", cache_pcp.nr_pages);
	printf("locks held %d irqs off %d warnings %ld\n", held, irqs_off, warnings);
	printf("stat: costly %ld under lock %ld\n", costly_calls, costly_under_lock);
	return 0;
}
