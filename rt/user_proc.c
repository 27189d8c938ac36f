// SPDX-License-Identifier: GPL-2.0
/*
 * lockhog's userspace runtime: the process side.  Threads' counters are
 * created at their first probe, merged into the process totals when the
 * thread exits (the pthread key's destructor) and, for the threads still
 * running, at process exit, when the JSON is written (user_out.c).
 * Nothing here is on a probe's hot path; the mutex is never taken by one.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "user.h"

/*
 * The descriptors the plugin emitted into this executable (ld makes the
 * two symbols).  Weak: a program with no sites links and writes an
 * empty report.
 */
extern struct lockhog_site __start_lockhog_sites[] __attribute__((weak));
extern struct lockhog_site __stop_lockhog_sites[] __attribute__((weak));

struct rt_proc rt_proc;
static pthread_mutex_t rt_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t rt_once = PTHREAD_ONCE_INIT;
static pthread_key_t rt_key;
static int rt_ok;		/* rt_start() succeeded */

notrace u64 rt_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static notrace unsigned long rt_pow2(unsigned long n)
{
	unsigned long c = 1;

	while (c < n)
		c <<= 1;
	return c;
}

notrace int rt_pairs_init(struct rt_pairs *p, unsigned long cap)
{
	p->cap = rt_pow2(cap);
	p->used = 0;
	p->v = calloc(p->cap, sizeof(*p->v));
	return p->v != NULL;
}

static notrace unsigned long rt_hash(const struct lockhog_site *sec,
				     const struct lockhog_site *inner)
{
	/* splitmix64's finaliser over both addresses */
	u64 k = (uintptr_t)sec * 0x9e3779b97f4a7c15ull ^ (uintptr_t)inner;

	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ull;
	k ^= k >> 27;
	return k;
}

/* the pair's slot, claimed if new; NULL when the table is 3/4 full */
notrace struct rt_pair *rt_pair_get(struct rt_pairs *p, const struct lockhog_site *sec,
				    const struct lockhog_site *inner)
{
	unsigned long i = rt_hash(sec, inner) & (p->cap - 1);
	struct rt_pair *e;

	for (;; i = (i + 1) & (p->cap - 1)) {
		e = &p->v[i];
		if (e->sec == sec && e->inner == inner)
			return e;
		if (!e->sec)
			break;
	}
	if ((p->used + 1) * 4 > p->cap * 3)
		return NULL;
	p->used++;
	/* inner first: exit's merge may read a thread's table meanwhile */
	e->inner = inner;
	barrier();
	e->sec = sec;
	return e;
}

/* the process table grows instead of dropping (merge time only) */
static notrace struct rt_pair *rt_pair_put(struct rt_pairs *p, const struct rt_pair *from)
{
	struct rt_pair *e = rt_pair_get(p, from->sec, from->inner);
	struct rt_pairs big;
	unsigned long i;

	if (e)
		return e;
	if (!rt_pairs_init(&big, p->cap * 2))
		return NULL;
	for (i = 0; i < p->cap; i++)
		if (p->v[i].sec)
			*rt_pair_get(&big, p->v[i].sec, p->v[i].inner) = p->v[i];
	free(p->v);
	*p = big;
	return rt_pair_get(p, from->sec, from->inner);
}

static notrace void rt_start(void)
{
	struct rt_proc *P = &rt_proc;
	uintptr_t a = (uintptr_t)__start_lockhog_sites, z = (uintptr_t)__stop_lockhog_sites;

	P->pid = getpid();
	P->tsc0 = rt_rdtsc();
	P->mono0 = rt_mono_ns();
	P->sites = __start_lockhog_sites;
	if (a && z > a)
		P->nsites = (z - a) / sizeof(struct lockhog_site);
	if (!P->nsites)
		return;		/* no sites: no probe can be right */
	P->ctr = calloc(P->nsites, sizeof(*P->ctr));
	if (!P->ctr || !rt_pairs_init(&P->pairs, RT_PAIRS_MIN))
		return;
	if (pthread_key_create(&rt_key, rt_thread_exit))
		return;
	rt_ok = 1;
}

/* the thread's pair table: RT_PAIRS_PER_SITE slots a site, bounded */
static notrace unsigned long rt_thread_pairs(void)
{
	unsigned long n = rt_proc.nsites * RT_PAIRS_PER_SITE;

	if (n < RT_PAIRS_MIN)
		n = RT_PAIRS_MIN;
	return n > RT_PAIRS_MAX ? RT_PAIRS_MAX : n;
}

/* a thread's first probe (user.c's rt_thread_start()) */
notrace struct rt_thread *rt_thread_new(void)
{
	struct rt_thread *th;

	pthread_once(&rt_once, rt_start);
	if (!rt_ok)
		return NULL;
	th = calloc(1, sizeof(*th));
	if (!th)
		return NULL;
	th->ctr = calloc(rt_proc.nsites, sizeof(*th->ctr));
	if (!th->ctr || !rt_pairs_init(&th->pairs, rt_thread_pairs()) ||
	    pthread_setspecific(rt_key, th)) {
		free(th->ctr);
		free(th->pairs.v);
		free(th);
		return NULL;
	}
	pthread_mutex_lock(&rt_mu);
	th->next = rt_proc.threads;
	if (th->next)
		th->next->prev = th;
	rt_proc.threads = th;
	rt_proc.nthreads++;
	pthread_mutex_unlock(&rt_mu);
	return th;
}

static notrace void rt_ovf_add(struct rt_overflow *to, const struct rt_overflow *from)
{
	to->stack += from->stack;
	to->hold_inner += from->hold_inner;
	to->pairs += from->pairs;
	to->nmi += from->nmi;
	to->unmatched += from->unmatched;
}

/* adds a thread's counters to the process totals; under rt_mu */
static notrace void rt_merge(const struct rt_thread *th)
{
	struct rt_proc *P = &rt_proc;
	unsigned long i, b;

	for (i = 0; i < P->nsites; i++) {
		const struct rt_ctr *c = &th->ctr[i];
		struct rt_ctr *to = &P->ctr[i];

		to->holds += c->holds;
		to->ticks += c->ticks;
		to->atomics += c->atomics;
		if (c->max > to->max)
			to->max = c->max;
		for (b = 0; b < RT_TICK_HIST; b++)
			to->hist[b] += c->hist[b];
	}
	for (i = 0; i < th->pairs.cap; i++) {
		const struct rt_pair *p = &th->pairs.v[i];
		struct rt_pair *to;

		if (!p->sec || !p->inner)
			continue;
		to = rt_pair_put(&P->pairs, p);
		if (!to) {
			P->ovf.pairs += p->n;
			continue;
		}
		to->n += p->n;
		to->sum += p->sum;
		to->holds_with += p->holds_with;
		if (p->max > to->max)
			to->max = p->max;
		if (p->hmax > to->hmax)
			to->hmax = p->hmax;
	}
	rt_ovf_add(&P->ovf, &th->ovf);
}

/* a thread exits: its counters join the totals (unless exit wrote them) */
notrace void rt_thread_done(struct rt_thread *th)
{
	pthread_mutex_lock(&rt_mu);
	if (!rt_proc.done)
		rt_merge(th);
	if (th->prev)
		th->prev->next = th->next;
	else
		rt_proc.threads = th->next;
	if (th->next)
		th->next->prev = th->prev;
	pthread_mutex_unlock(&rt_mu);
	free(th->ctr);
	free(th->pairs.v);
	free(th);
}

/* probes during rt_start() would pthread_once() it again: deadlock */
__attribute__((constructor)) static notrace void rt_init(void)
{
	int q = rt_quiet_begin();

	pthread_once(&rt_once, rt_start);
	rt_quiet_end(q);
}

/*
 * Process exit: the threads still running are merged as they are (a
 * probe running meanwhile may be missed, never half-counted: the
 * counters are 64-bit words), then the JSON goes to $LOCKHOG_OUT.  A
 * forked child that exits writes nothing: the file is its parent's.
 */
__attribute__((destructor)) static notrace void rt_fini(void)
{
	u64 tsc1 = rt_rdtsc(), mono1 = rt_mono_ns();
	const struct rt_thread *th;
	int q = rt_quiet_begin();

	pthread_once(&rt_once, rt_start);
	if (getpid() == rt_proc.pid) {
		pthread_mutex_lock(&rt_mu);
		if (!rt_proc.done && rt_ok)
			for (th = rt_proc.threads; th; th = th->next)
				rt_merge(th);
		rt_proc.done = 1;
		pthread_mutex_unlock(&rt_mu);
		rt_write_out(tsc1, mono1);
	}
	rt_quiet_end(q);
}
