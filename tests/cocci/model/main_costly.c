// SPDX-License-Identifier: GPL-2.0
/* Harness: runs the model (original or patched, named by MODEL). */
#include MODEL

int main(void)
{
	struct grp a = { { 5 }, { 100 } }, b = { { 5 }, { 100 } };
	struct cache c = { &a, 7, 0 };
	int r;

	drop_cached(&c);
	c.nr_pages = 9;
	flush_pages(&c, &b);
	c.nr_pages = 4;
	flush_pages(&c, &a);
	r = put_both(&c, &a, &b, 1);
	r += put_both(&c, &b, &a, 0);
	printf("a: css %ld memory %ld\n", a.css.refcnt, a.memory.usage);
	printf("b: css %ld memory %ld\n", b.css.refcnt, b.memory.usage);
	printf("cache: %p %u %d r %d\n", (void *)c.cached, c.nr_pages, c.stamp, r);
	printf("locks held %d irqs off %d warnings %ld\n", held, irqs_off, warnings);
	printf("stat: costly %ld under lock %ld\n", costly_calls, costly_under_lock);
	return 0;
}
