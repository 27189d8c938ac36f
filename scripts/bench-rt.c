// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/bench-rt.sh's workload: N uncontended acquire/release pairs of
 * a pthread mutex, with nothing inside (argv[1] "empty") or one costly
 * call inside ("call": free() of a NULL the compiler cannot see; built
 * with -fno-builtin-free, as the plugin probes no builtin call).  Built
 * three ways: plain; instrumented by the plugin
 * (-fplugin-arg-lockhog-instrument=all); or, with -DBY_HAND, with the
 * probes placed where docs/runtime.md says the plugin places them, for
 * a plugin without the instrumentation pass.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef BY_HAND
#include "lockhog_rt.h"
#define SITE(var, k, nm) \
	static struct lockhog_site var __attribute__((section("lockhog_sites"), used, aligned(8))) = \
		{ .kind = (k), .line = __LINE__, .file = __FILE__, .function = "bench", \
		  .name = (nm), .lock_kind = "mutex", .fingerprint = "" }
SITE(acq, LOCKHOG_K_ACQUIRE, "m");
SITE(rel, LOCKHOG_K_RELEASE, "m");
SITE(cal, LOCKHOG_K_CALL, "free");
#define ACQUIRED(l)	__lockhog_acquire(&acq, (l))
#define RELEASING(l)	__lockhog_release(&rel, (l))
#define CALL(c)		do { unsigned long long _t = __lockhog_call_begin(&cal); \
			     c; __lockhog_call_end(&cal, _t); } while (0)
#else
#define ACQUIRED(l)	do { } while (0)
#define RELEASING(l)	do { } while (0)
#define CALL(c)		c
#endif

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *volatile nothing;

static __attribute__((noinline)) void empty(long n)
{
	long i;

	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		ACQUIRED(&m);
		RELEASING(&m);
		pthread_mutex_unlock(&m);
	}
}

static __attribute__((noinline)) void one_call(long n)
{
	long i;

	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		ACQUIRED(&m);
		CALL(free(nothing));
		RELEASING(&m);
		pthread_mutex_unlock(&m);
	}
}

int main(int argc, char **argv)
{
	long n;

	if (argc != 3)
		return 2;
	n = atol(argv[2]);
	if (!strcmp(argv[1], "empty"))
		empty(n);
	else if (!strcmp(argv[1], "call"))
		one_call(n);
	else
		return 2;
	return 0;
}
