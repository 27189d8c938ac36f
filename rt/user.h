/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace runtime's own state (rt/README.md): shared by the probes
 * (user.c), the merge into the process totals (user_merge.c) and the
 * JSON writer (user_out.c).  Nothing here is part of the contract with
 * the plugin; rt/lockhog_rt.h is.
 */
#ifndef LOCKHOG_RT_USER_H
#define LOCKHOG_RT_USER_H

#include <stdint.h>
#include "lockhog_rt.h"

typedef uint64_t u64;

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define barrier()	__asm__ __volatile__("" ::: "memory")
#define notrace		__attribute__((no_instrument_function))
#define rt_export	__attribute__((visibility("default"))) notrace

/*
 * Hold times are binned on the hot path by log2 of their TSC ticks (a
 * bsr, no clamp: 64 buckets) and moved to the contract's 32 nanosecond
 * buckets at exit, when ticks per nanosecond are known.
 */
#define RT_TICK_HIST	64

/*
 * Per-thread counters of one site.  A site's counters are found from
 * its descriptor's address alone: the descriptors are 48 bytes apart,
 * and this struct takes RT_CTR_SCALE times that, so that the counters
 * of descriptor s are at rt_tls.bias + (uintptr_t)s * RT_CTR_SCALE
 * (one shift, one add; see rt_ctr()).  The padding is never touched:
 * calloc() of a large array maps zero pages lazily.
 */
#define RT_SITE_SIZE	48
#define RT_CTR_SCALE	16
_Static_assert(sizeof(struct lockhog_site) == RT_SITE_SIZE, "docs/runtime.md: 48 bytes on LP64");
struct rt_ctr {
	u64 holds;		/* acquire sites: holds measured */
	u64 ticks;		/* their total */
	u64 max;		/* the longest */
	u64 atomics;		/* atomic sites: RMWs counted */
	u64 hist[RT_TICK_HIST];
	char pad[RT_SITE_SIZE * RT_CTR_SCALE - 4 * 8 - RT_TICK_HIST * 8];
};

/*
 * A (section site, inner site) pair: a call (n calls, sum ticks, max
 * ticks, hmax the most calls in one hold) or a loop (n runs, sum
 * iterations, hmax the most iterations in one hold).
 */
_Static_assert(sizeof(struct rt_ctr) == RT_SITE_SIZE * RT_CTR_SCALE, "rt_ctr() scales by this");

struct rt_pair {
	const struct lockhog_site *sec;	/* NULL: a free slot */
	const struct lockhog_site *inner;
	u64 n, sum, max, holds_with, hmax;
};

/*
 * Pair tables are open-addressed, a power of two long, full at 3/4.  A
 * thread's is sized from the site count: RT_PAIRS_PER_SITE slots a site,
 * at least RT_PAIRS_MIN, at most RT_PAIRS_MAX; an event whose pair finds
 * no room is counted in overflow.pairs.  The process table grows.
 */
#define RT_PAIRS_PER_SITE	2
#define RT_PAIRS_MIN		64
#define RT_PAIRS_MAX		(1u << 20)
struct rt_pairs {
	struct rt_pair *v;
	unsigned long cap, used;
};

/* what one open section ran inside this hold (LOCKHOG_HOLD_INNER) */
struct rt_slot {
	const struct lockhog_site *inner;
	struct rt_pair *pair;
	u64 n;			/* calls, or iterations, this hold */
};

/*
 * An open section.  t0 is stored as rdtsc gives it (two halves) to
 * spare the acquire a shift and an or, and read back as one word.
 */
struct rt_open {
	const struct lockhog_site *site;
	const void *lock;
	union {
		struct {
			uint32_t lo, hi;
		} half;
		u64 word;
	} t0;
	unsigned int ninner;
	struct rt_slot slot[LOCKHOG_HOLD_INNER];
};

/* a lock no release can name: stack[0] and rt_sentinel hold it */
#define RT_NO_LOCK	((const void *)-1L)

struct rt_overflow {
	u64 stack, hold_inner, pairs, nmi, unmatched;
};

/* a thread's counters, on the heap so that exit can merge them */
struct rt_thread {
	struct rt_ctr *ctr;
	struct rt_pairs pairs;
	struct rt_overflow ovf;
	struct rt_thread *prev, *next;	/* rt_proc.threads, under rt_proc.mu */
};

/*
 * The thread-local part.  top points just above the innermost open
 * section; stack[0] is a sentinel (site NULL, lock RT_NO_LOCK), so that
 * "no section open" is a mismatch the release tests anyway.  Before a
 * thread's first probe top points past the global rt_sentinel and limit
 * is NULL: the acquire's depth test sends it to rt_thread_start().
 */
struct rt_tls {
	struct rt_open *top;
	struct rt_open *limit;		/* &stack[LOCKHOG_DEPTH + 1] */
	uintptr_t bias;			/* see struct rt_ctr */
	unsigned long lost;		/* pushes dropped: their releases */
	struct rt_thread *th;
	struct rt_pair *pc;		/* the pair found last */
	int starting;			/* rt_thread_start() is running */
	struct rt_open stack[LOCKHOG_DEPTH + 1];
};

/* the process: totals, the live threads, the clocks at start */
struct rt_proc {
	unsigned long nsites;
	struct lockhog_site *sites;
	struct rt_ctr *ctr;		/* merged totals */
	struct rt_pairs pairs;
	struct rt_overflow ovf;
	struct rt_thread *threads;
	unsigned long nthreads;		/* threads that ever ran a probe */
	u64 tsc0, mono0;
	int pid, done;
};

extern struct rt_proc rt_proc;

/* the TSC, combined in rax: the compiler would copy it there anyway */
static inline notrace u64 rt_rdtsc(void)
{
	u64 t;

	__asm__ __volatile__("rdtsc\n\tshl $32, %%rdx\n\tor %%rdx, %%rax"
			     : "=a"(t) : : "rdx");
	return t;
}

u64 rt_mono_ns(void);
struct rt_pair *rt_pair_get(struct rt_pairs *p, const struct lockhog_site *sec,
			    const struct lockhog_site *inner);
int rt_pairs_init(struct rt_pairs *p, unsigned long cap);
struct rt_thread *rt_thread_new(void);
void rt_thread_done(struct rt_thread *th);
void rt_thread_exit(void *th);
int rt_quiet_begin(void);
void rt_quiet_end(int was);
void rt_write_out(u64 tsc1, u64 mono1);
struct json_t;
int rt_write_file(const char *path, const struct json_t *root);

#endif
