// SPDX-License-Identifier: GPL-2.0
/*
 * lockhog's userspace runtime: the probes (docs/runtime.md section 2).
 *
 * The acquire and the release are the hot path, held to about 40
 * instructions a pair with the calls (scripts/bench-rt.sh measures
 * them): a thread-local stack of open sections with a sentinel at its
 * bottom, so that an empty stack is the release's ordinary lock
 * mismatch; the counters found from the descriptor's address by a
 * shift and an add; rdtsc for the clock.  Everything else (a thread's
 * first probe, an out-of-order or unmatched release, an overflow) is
 * out of line.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "user.h"

/* what top points past before a thread's first probe */
static struct rt_open rt_sentinel[1] = { { .lock = RT_NO_LOCK } };

/*
 * RT_TLS_MODEL (the Makefile's): local-exec in liblockhog-rt.a, an
 * %fs-relative access with the offset in the instruction; initial-exec
 * in liblockhog-rt.so, one load more, and the library must be linked,
 * not dlopen()ed (rt/README.md).
 */
#ifndef RT_TLS_MODEL
#define RT_TLS_MODEL "initial-exec"
#endif
static __thread struct rt_tls rt_tls __attribute__((tls_model(RT_TLS_MODEL))) = {
	.top = &rt_sentinel[1],
};

static inline notrace struct rt_ctr *rt_ctr(const struct lockhog_site *s)
{
	return (struct rt_ctr *)(rt_tls.bias + (uintptr_t)s * RT_CTR_SCALE);
}

/* a thread's first probe: its counters, its pair table, its stack */
static notrace int rt_thread_start(void)
{
	struct rt_tls *t = &rt_tls;
	struct rt_thread *th;

	/*
	 * A signal handler's probe, or an instrumented malloc()'s, while
	 * this very function runs: dropped and counted (overflow.nmi, the
	 * userspace form of the kernel's probe in NMI).  Or an earlier
	 * failure: this thread is not measured.
	 */
	if (t->starting) {
		if (t->starting == 1)
			__atomic_fetch_add(&rt_proc.ovf.nmi, 1, __ATOMIC_RELAXED);
		return 0;
	}
	t->starting = 1;
	th = rt_thread_new();
	if (!th) {
		t->starting = 2;	/* for good: this thread is not measured */
		return 0;
	}
	t->bias = (uintptr_t)th->ctr - (uintptr_t)rt_proc.sites * RT_CTR_SCALE;
	t->stack[0].site = NULL;
	t->stack[0].lock = RT_NO_LOCK;
	t->top = &t->stack[1];
	t->limit = &t->stack[LOCKHOG_DEPTH + 1];
	t->lost = 0;
	t->th = th;
	t->starting = 0;
	return 1;
}

/*
 * The runtime itself runs on this thread (it starts the process, merges,
 * writes the report): a probe from an instrumented malloc() or a signal
 * handler must not start the thread meanwhile, which takes the
 * runtime's locks.  A started thread's probes take none and go on.
 */
notrace int rt_quiet_begin(void)
{
	int was = rt_tls.starting;

	if (!was)
		rt_tls.starting = 1;
	return was;
}

notrace void rt_quiet_end(int was)
{
	rt_tls.starting = was;
}

/*
 * The pthread key's destructor: the thread forgets its counters, then
 * hands them over (the free()s may be probed).  What the exiting thread
 * runs after it (libc's own frees, other keys' destructors) is not
 * measured: it is not started again, and cpus counts it once.
 */
notrace void rt_thread_exit(void *arg)
{
	struct rt_tls *t = &rt_tls;

	t->pc = NULL;
	t->top = &rt_sentinel[1];
	t->limit = NULL;
	t->bias = 0;
	t->th = NULL;
	t->starting = 2;
	rt_thread_done(arg);
}

static inline notrace void rt_fill(struct rt_open *e, struct lockhog_site *s, const void *lock)
{
	uint32_t lo, hi;

	/*
	 * e is top: taken first, so that a signal handler's probes push
	 * above e instead of over it.  The barrier before makes it one add
	 * to memory rather than an address computed and stored.
	 */
	barrier();
	rt_tls.top++;
	barrier();
	e->site = s;
	e->lock = lock;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	e->t0.half.lo = lo;
	e->t0.half.hi = hi;
	e->ninner = 0;
}

/* an acquire that found the stack full, or the thread not started */
static notrace __attribute__((noinline)) void rt_push_slow(struct lockhog_site *s,
							   const void *lock)
{
	struct rt_tls *t = &rt_tls;

	if (!t->limit) {
		if (rt_thread_start())
			rt_fill(t->top, s, lock);
		return;
	}
	t->th->ovf.stack++;
	t->lost++;
}

static inline notrace void rt_push(struct lockhog_site *s, const void *lock)
{
	struct rt_open *e = rt_tls.top;

	if (unlikely((uintptr_t)e >= (uintptr_t)rt_tls.limit)) {
		rt_push_slow(s, lock);
		return;
	}
	rt_fill(e, s, lock);
}

rt_export void __lockhog_acquire(struct lockhog_site *s, const void *lock)
{
	rt_push(s, lock);
}

rt_export void __lockhog_tryacquire(struct lockhog_site *s, const void *lock, long ret)
{
	int taken = s->flags & LOCKHOG_F_TRYZERO ? ret == 0 : ret != 0;

	if (taken)
		rt_push(s, lock);
}

/* a hold ends: its site's count, total, max and histogram */
static inline notrace void rt_account(const struct rt_open *e, u64 now)
{
	struct rt_ctr *c = rt_ctr(e->site);
	u64 dt = now - e->t0.word, b;

	c->holds++;
	c->ticks += dt;
	if (unlikely(dt > c->max))
		c->max = dt;
	/* log2: a 64-bit result, spared the sign extension of an int */
	__asm__("bsr %1, %0" : "=r"(b) : "rm"(dt | 1));
	c->hist[b]++;
}

/*
 * A release whose lock is not the innermost: an out-of-order release
 * (the entries above stay), one that matches nothing, or a thread that
 * has not started.
 */
static notrace __attribute__((noinline)) void rt_release_slow(const void *lock)
{
	struct rt_tls *t = &rt_tls;
	struct rt_open *e;

	if (!t->th && (t->starting || !rt_thread_start()))
		return;
	for (e = t->top - 1; e > t->stack; e--) {
		if (e->lock != lock)
			continue;
		rt_account(e, rt_rdtsc());
		memmove(e, e + 1, (t->top - e - 1) * sizeof(*e));
		t->top--;
		return;
	}
	/* the release of a push the full stack dropped, or of nothing */
	if (t->lost)
		t->lost--;
	else
		t->th->ovf.unmatched++;
}

rt_export void __lockhog_release(struct lockhog_site *s, const void *lock)
{
	struct rt_open *e = rt_tls.top - 1;

	if (unlikely(e->lock != lock)) {
		rt_release_slow(lock);
		return;
	}
	rt_account(e, rt_rdtsc());
	barrier();
	rt_tls.top--;		/* to e: one subtract from memory */
}

/* a pair the cache missed: the thread's table, or an overflow */
static notrace __attribute__((noinline)) struct rt_pair *
rt_pair_find(const struct lockhog_site *sec, const struct lockhog_site *s)
{
	struct rt_tls *t = &rt_tls;
	struct rt_pair *p = rt_pair_get(&t->th->pairs, sec, s);

	if (!p)
		t->th->ovf.pairs++;
	else
		t->pc = p;
	return p;
}

/*
 * Inner site s's first event in the hold e: its pair (the last one
 * found, most of the time), and a slot for the per-hold figures if one
 * of LOCKHOG_HOLD_INNER is free.
 */
static inline notrace struct rt_pair *rt_slot_new(struct rt_open *e, const struct lockhog_site *s,
						  struct rt_slot **slp)
{
	struct rt_pair *p = rt_tls.pc;
	struct rt_slot *sl;

	*slp = NULL;
	if (unlikely(!p || p->sec != e->site || p->inner != s)) {
		p = rt_pair_find(e->site, s);
		if (!p)
			return NULL;
	}
	if (unlikely(e->ninner == LOCKHOG_HOLD_INNER)) {
		rt_tls.th->ovf.hold_inner++;
		return p;
	}
	sl = &e->slot[e->ninner++];
	sl->inner = s;
	sl->pair = p;
	sl->n = 0;
	p->holds_with++;
	*slp = sl;
	return p;
}

/*
 * The pair (e's section site, inner site s) and s's slot in e (NULL when
 * the hold has no room for it); NULL when the pair table is full.
 */
static inline notrace struct rt_pair *rt_pair_of(struct rt_open *e, const struct lockhog_site *s,
						 struct rt_slot **slp)
{
	struct rt_slot *sl = e->slot, *end = sl + e->ninner;

	for (; sl < end; sl++) {
		if (sl->inner == s) {
			*slp = sl;
			return sl->pair;
		}
	}
	return rt_slot_new(e, s, slp);
}

rt_export unsigned long long __lockhog_call_begin(struct lockhog_site *s)
{
	u64 now;

	if (!rt_tls.top[-1].site)
		return 0;
	now = rt_rdtsc();
	return now ? now : 1;
}

rt_export void __lockhog_call_end(struct lockhog_site *s, unsigned long long token)
{
	struct rt_open *e = rt_tls.top - 1;
	struct rt_slot *sl;
	struct rt_pair *p;
	u64 dt;

	/* none open at the call, or the call released the section */
	if (!token || !e->site)
		return;
	dt = rt_rdtsc() - token;
	p = rt_pair_of(e, s, &sl);
	if (!p)
		return;
	p->n++;
	p->sum += dt;
	if (dt > p->max)
		p->max = dt;
	if (sl && ++sl->n > p->hmax)
		p->hmax = sl->n;
}

rt_export void __lockhog_loop(struct lockhog_site *s, unsigned long iterations)
{
	struct rt_open *e = rt_tls.top - 1;
	struct rt_slot *sl;
	struct rt_pair *p;

	if (!e->site)
		return;
	p = rt_pair_of(e, s, &sl);
	if (!p)
		return;
	p->n++;
	p->sum += iterations;
	if (sl && (sl->n += iterations) > p->hmax)
		p->hmax = sl->n;
}

rt_export void __lockhog_atomic(struct lockhog_site *s, const void *addr)
{
	if (unlikely(!rt_tls.th) && !rt_thread_start())
		return;
	rt_ctr(s)->atomics++;
}
