// SPDX-License-Identifier: GPL-2.0
/*
 * An instrumented allocator: this program's malloc family (interposed on
 * libc's, for the runtime and jansson too) opens a section of its own
 * around each call, as an allocator built with the plugin would.  The
 * runtime allocates while it starts the process, starts a thread, merges
 * an exiting thread and writes the report: none of it may deadlock or
 * touch freed counters, and the probes dropped meanwhile are counted
 * (overflow.nmi).  main and one thread each hold "work" once.
 */
#include <pthread.h>
#include <stdlib.h>
#include "lockhog_rt.h"

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);

#define SITE_ATTR __attribute__((section("lockhog_sites"), used, aligned(8)))
#define SITE(var, k, fn) \
	static struct lockhog_site var SITE_ATTR = { .kind = (k), .line = __LINE__, \
		.file = "reentry.c", .function = (fn), .name = "l", .lock_kind = "spin", \
		.fingerprint = "" }
SITE(arena_acq, LOCKHOG_K_ACQUIRE, "arena");
SITE(arena_rel, LOCKHOG_K_RELEASE, "arena");
SITE(work_acq, LOCKHOG_K_ACQUIRE, "work");
SITE(work_rel, LOCKHOG_K_RELEASE, "work");
static int arena, work;

void *malloc(size_t n)
{
	void *p;

	__lockhog_acquire(&arena_acq, &arena);
	p = __libc_malloc(n);
	__lockhog_release(&arena_rel, &arena);
	return p;
}

void *calloc(size_t n, size_t size)
{
	void *p;

	__lockhog_acquire(&arena_acq, &arena);
	p = __libc_calloc(n, size);
	__lockhog_release(&arena_rel, &arena);
	return p;
}

void *realloc(void *q, size_t n)
{
	void *p;

	__lockhog_acquire(&arena_acq, &arena);
	p = __libc_realloc(q, n);
	__lockhog_release(&arena_rel, &arena);
	return p;
}

void free(void *p)
{
	__lockhog_acquire(&arena_acq, &arena);
	__libc_free(p);
	__lockhog_release(&arena_rel, &arena);
}

static void *one_hold(void *arg)
{
	__lockhog_acquire(&work_acq, &work);
	__lockhog_release(&work_rel, &work);
	return arg;
}

int main(void)
{
	pthread_t t;

	one_hold(NULL);
	pthread_create(&t, NULL, one_hold, NULL);
	pthread_join(t, NULL);
	free(malloc(16));
	return 0;
}
