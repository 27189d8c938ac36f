// SPDX-License-Identifier: GPL-2.0
/*
 * lockhog's userspace runtime: the JSON written to $LOCKHOG_OUT at exit
 * (docs/runtime.md section 3), ticks turned into nanoseconds against
 * CLOCK_MONOTONIC over the whole run.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "user.h"

static double rt_ns_per_tick;

static notrace json_int_t rt_ns(u64 ticks)
{
	return (json_int_t)((double)ticks * rt_ns_per_tick + 0.5);
}

static notrace const char *rt_str(const char *s)
{
	return s ? s : "";
}

/* the contract's bucket of a duration: 2^b <= ns < 2^(b+1), 0 and 1 in 0 */
static notrace int rt_ns_bucket(double ns)
{
	int b = 0;

	while (b < LOCKHOG_HIST - 1 && ns >= (double)(2ull << b))
		b++;
	return b;
}

/*
 * Tick bucket b ([2^b, 2^(b+1)) ticks, 0 and 1 in bucket 0) goes to the
 * nanosecond bucket of its middle, but never above the longest hold's,
 * and the tick bucket holding the longest hold goes to max_ns's own:
 * a hold may be counted one bucket low, max_ns's bucket is the last.
 */
static notrace void rt_hist_ns(const struct rt_ctr *c, u64 *hist)
{
	int b, top = rt_ns_bucket((double)rt_ns(c->max)), nb;
	int top_ticks = 63 - __builtin_clzll(c->max | 1);

	memset(hist, 0, LOCKHOG_HIST * sizeof(*hist));
	for (b = 0; b < RT_TICK_HIST; b++) {
		double mid = b ? 1.5 * (double)(1ull << b) : 1.0;

		if (!c->hist[b])
			continue;
		nb = rt_ns_bucket(mid * rt_ns_per_tick);
		hist[nb < top && b != top_ticks ? nb : top] += c->hist[b];
	}
}

/* the upper edge of the bucket holding the 99th percentile */
static notrace json_int_t rt_p99(const u64 *hist, u64 holds, json_int_t max_ns)
{
	u64 want = holds - holds / 100, seen = 0;	/* ceil(0.99 holds) */
	int b;

	for (b = 0; b < LOCKHOG_HIST - 1; b++) {
		seen += hist[b];
		if (seen >= want)
			return (json_int_t)2 << b;
	}
	return max_ns;		/* the open-ended last bucket */
}

static notrace void rt_site_fields(json_t *o, const struct lockhog_site *s)
{
	json_object_set_new(o, "file", json_string(rt_str(s->file)));
	json_object_set_new(o, "line", json_integer(s->line));
	json_object_set_new(o, "function", json_string(rt_str(s->function)));
}

static notrace json_t *rt_inner_json(const struct rt_pair *p)
{
	json_t *o = json_object();
	int loop = p->inner->kind == LOCKHOG_K_LOOP;

	json_object_set_new(o, "kind", json_string(loop ? "loop" : "call"));
	rt_site_fields(o, p->inner);
	json_object_set_new(o, "name", json_string(rt_str(p->inner->name)));
	json_object_set_new(o, "fingerprint", json_string(rt_str(p->inner->fingerprint)));
	if (loop) {
		json_object_set_new(o, "runs", json_integer(p->n));
		json_object_set_new(o, "iterations", json_integer(p->sum));
		json_object_set_new(o, "iters_max", json_integer(p->hmax));
		json_object_set_new(o, "holds_with", json_integer(p->holds_with));
	} else {
		json_object_set_new(o, "calls", json_integer(p->n));
		json_object_set_new(o, "holds_with", json_integer(p->holds_with));
		json_object_set_new(o, "calls_max", json_integer(p->hmax));
		json_object_set_new(o, "total_ns", json_integer(rt_ns(p->sum)));
		json_object_set_new(o, "max_ns", json_integer(rt_ns(p->max)));
	}
	return o;
}

static notrace int rt_site_cmp(const struct lockhog_site *a, const struct lockhog_site *b)
{
	int d = strcmp(rt_str(a->file), rt_str(b->file));

	if (d)
		return d;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* calls by time, most first; then loops by iterations; then by place */
static notrace int rt_inner_cmp(const void *x, const void *y)
{
	const struct rt_pair *a = *(const struct rt_pair **)x;
	const struct rt_pair *b = *(const struct rt_pair **)y;
	int la = a->inner->kind == LOCKHOG_K_LOOP, lb = b->inner->kind == LOCKHOG_K_LOOP;

	if (la != lb)
		return la - lb;
	if (a->sum != b->sum)
		return a->sum < b->sum ? 1 : -1;
	return rt_site_cmp(a->inner, b->inner);
}

static notrace json_t *rt_inner_list(const struct lockhog_site *sec)
{
	const struct rt_pairs *P = &rt_proc.pairs;
	const struct rt_pair **v = calloc(P->used + 1, sizeof(*v));
	json_t *a = json_array();
	unsigned long i, n = 0;

	if (!v)
		return a;
	for (i = 0; i < P->cap; i++)
		if (P->v[i].sec == sec)
			v[n++] = &P->v[i];
	qsort(v, n, sizeof(*v), rt_inner_cmp);
	for (i = 0; i < n; i++)
		json_array_append_new(a, rt_inner_json(v[i]));
	free(v);
	return a;
}

static notrace json_t *rt_section_json(unsigned long i)
{
	const struct lockhog_site *s = &rt_proc.sites[i];
	const struct rt_ctr *c = &rt_proc.ctr[i];
	json_t *o = json_object(), *h = json_array();
	json_int_t max_ns = rt_ns(c->max);
	u64 hist[LOCKHOG_HIST];
	int b;

	rt_site_fields(o, s);
	json_object_set_new(o, "lock", json_string(rt_str(s->name)));
	json_object_set_new(o, "lock_kind", json_string(rt_str(s->lock_kind)));
	json_object_set_new(o, "fingerprint", json_string(rt_str(s->fingerprint)));
	json_object_set_new(o, "holds", json_integer(c->holds));
	/* no interrupts in userspace: no hold runs with them off */
	json_object_set_new(o, "irqs_off_holds", json_integer(0));
	json_object_set_new(o, "total_ns", json_integer(rt_ns(c->ticks)));
	json_object_set_new(o, "max_ns", json_integer(max_ns));
	rt_hist_ns(c, hist);
	json_object_set_new(o, "p99_ns", json_integer(rt_p99(hist, c->holds, max_ns)));
	for (b = 0; b < LOCKHOG_HIST; b++)
		json_array_append_new(h, json_integer(hist[b]));
	json_object_set_new(o, "hist", h);
	json_object_set_new(o, "inner", rt_inner_list(s));
	return o;
}

/* sections worst max first, atomics most first; ties by place */
static notrace int rt_by_max(const void *x, const void *y)
{
	unsigned long a = *(const unsigned long *)x, b = *(const unsigned long *)y;
	u64 ma = rt_proc.ctr[a].max, mb = rt_proc.ctr[b].max;

	if (ma != mb)
		return ma < mb ? 1 : -1;
	return rt_site_cmp(&rt_proc.sites[a], &rt_proc.sites[b]);
}

static notrace int rt_by_atomics(const void *x, const void *y)
{
	unsigned long a = *(const unsigned long *)x, b = *(const unsigned long *)y;
	u64 ma = rt_proc.ctr[a].atomics, mb = rt_proc.ctr[b].atomics;

	if (ma != mb)
		return ma < mb ? 1 : -1;
	return rt_site_cmp(&rt_proc.sites[a], &rt_proc.sites[b]);
}

/* the sites whose counter field is non-zero, sorted by cmp */
static notrace unsigned long rt_pick(unsigned long *v, int atomics,
				     int (*cmp)(const void *, const void *))
{
	unsigned long i, n = 0;

	for (i = 0; i < rt_proc.nsites; i++)
		if (atomics ? rt_proc.ctr[i].atomics : rt_proc.ctr[i].holds)
			v[n++] = i;
	qsort(v, n, sizeof(*v), cmp);
	return n;
}

static notrace json_t *rt_atomic_json(unsigned long i, double secs)
{
	const struct lockhog_site *s = &rt_proc.sites[i];
	json_t *o = json_object();
	u64 n = rt_proc.ctr[i].atomics;

	rt_site_fields(o, s);
	json_object_set_new(o, "name", json_string(rt_str(s->name)));
	json_object_set_new(o, "fingerprint", json_string(rt_str(s->fingerprint)));
	json_object_set_new(o, "count", json_integer(n));
	json_object_set_new(o, "per_sec", json_real(secs > 0 ? n / secs : 0));
	return o;
}

static notrace json_t *rt_overflow_json(void)
{
	const struct rt_overflow *v = &rt_proc.ovf;

	return json_pack("{s:I, s:I, s:I, s:I, s:I}",
			 "stack", (json_int_t)v->stack, "hold_inner", (json_int_t)v->hold_inner,
			 "pairs", (json_int_t)v->pairs, "nmi", (json_int_t)v->nmi,
			 "unmatched", (json_int_t)v->unmatched);
}

static notrace json_t *rt_report(u64 dur_ns)
{
	json_t *o = json_object(), *secs = json_array(), *atom = json_array();
	unsigned long *v = calloc(rt_proc.nsites + 1, sizeof(*v)), i, n;

	json_object_set_new(o, "lockhog_runtime", json_integer(1));
	json_object_set_new(o, "source", json_string("user"));
	json_object_set_new(o, "clock", json_string("tsc"));
	json_object_set_new(o, "duration_ns", json_integer(dur_ns));
	json_object_set_new(o, "cpus", json_integer(rt_proc.nthreads));
	json_object_set_new(o, "sites_total", json_integer(rt_proc.nsites));
	json_object_set_new(o, "overflow", rt_overflow_json());
	if (v && rt_proc.ctr) {
		n = rt_pick(v, 0, rt_by_max);
		for (i = 0; i < n; i++)
			json_array_append_new(secs, rt_section_json(v[i]));
		n = rt_pick(v, 1, rt_by_atomics);
		for (i = 0; i < n; i++)
			json_array_append_new(atom, rt_atomic_json(v[i], dur_ns / 1e9));
	}
	free(v);
	json_object_set_new(o, "sections", secs);
	json_object_set_new(o, "atomics", atom);
	return o;
}

/* exit: the report, if $LOCKHOG_OUT names where */
notrace void rt_write_out(u64 tsc1, u64 mono1)
{
	const char *path = getenv("LOCKHOG_OUT");
	u64 dur = mono1 - rt_proc.mono0, ticks = tsc1 - rt_proc.tsc0;
	json_t *root;

	if (!path || !*path)
		return;
	rt_ns_per_tick = ticks ? (double)dur / (double)ticks : 0;
	root = rt_report(dur);
	rt_write_file(path, root);
	json_decref(root);
}
