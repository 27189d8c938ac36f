// SPDX-License-Identifier: GPL-2.0
/*
 * No malloc on the probes' path after a thread's first probe: this
 * program's malloc family (interposed on libc's, for the runtime too)
 * counts the calls; after one hold has started the thread, 10000 holds
 * with a call and a loop inside must make none.  Prints the calls the
 * first probe made (some: the interposition works) and those after.
 */
#include <stdio.h>
#include <stdlib.h>
#include "lockhog_rt.h"

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
static unsigned long allocs;

void *malloc(size_t n)
{
	allocs++;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	allocs++;
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	allocs++;
	return __libc_realloc(p, n);
}

#define SITE_ATTR __attribute__((section("lockhog_sites"), used, aligned(8)))
static struct lockhog_site acq SITE_ATTR = { .kind = LOCKHOG_K_ACQUIRE, .file = "nomalloc.c",
	.function = "f", .name = "l", .lock_kind = "", .fingerprint = "" };
static struct lockhog_site rel SITE_ATTR = { .kind = LOCKHOG_K_RELEASE, .file = "nomalloc.c",
	.function = "f", .name = "l", .lock_kind = "", .fingerprint = "" };
static struct lockhog_site call SITE_ATTR = { .kind = LOCKHOG_K_CALL, .file = "nomalloc.c",
	.function = "f", .name = "c", .lock_kind = "", .fingerprint = "" };
static struct lockhog_site atom SITE_ATTR = { .kind = LOCKHOG_K_ATOMIC, .file = "nomalloc.c",
	.function = "f", .name = "g", .lock_kind = "", .fingerprint = "" };
static struct lockhog_site loop SITE_ATTR = { .kind = LOCKHOG_K_LOOP, .file = "nomalloc.c",
	.function = "f", .name = "", .lock_kind = "", .fingerprint = "" };

int main(void)
{
	static int lock;
	unsigned long before;
	int i;

	__lockhog_acquire(&acq, &lock);
	__lockhog_release(&rel, &lock);
	before = allocs;
	for (i = 0; i < 10000; i++) {
		__lockhog_acquire(&acq, &lock);
		__lockhog_call_end(&call, __lockhog_call_begin(&call));
		__lockhog_loop(&loop, i);
		__lockhog_atomic(&atom, &lock);
		__lockhog_release(&rel, &lock);
	}
	printf("%lu %lu\n", before, allocs - before);
	return 0;
}
