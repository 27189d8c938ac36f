// SPDX-License-Identifier: GPL-2.0
/* A runtime that prints every probe it gets, for tests/cli/instrument.sh. */
#include <stdio.h>
#include <pthread.h>
#include "../../rt/lockhog_rt.h"

extern struct lockhog_site __start_lockhog_sites[] __attribute__((weak));
extern struct lockhog_site __stop_lockhog_sites[] __attribute__((weak));
static const char *const kinds[] = { "?", "acquire", "release", "call", "loop", "atomic" };

static void say(const char *what, struct lockhog_site *s, long v)
{
	printf("%s %s %s:%u %s %s [%s] %ld\n", what, kinds[s->kind < 6 ? s->kind : 0],
	       s->function, s->line, *s->name ? s->name : "-",
	       *s->lock_kind ? s->lock_kind : "-", s->fingerprint, v);
}

void __lockhog_acquire(struct lockhog_site *s, const void *l) { say("acq", s, 0); }
void __lockhog_tryacquire(struct lockhog_site *s, const void *l, long r) { say("try", s, r); }
void __lockhog_release(struct lockhog_site *s, const void *l) { say("rel", s, 0); }
unsigned long long __lockhog_call_begin(struct lockhog_site *s) { say("begin", s, 0); return 7; }
void __lockhog_call_end(struct lockhog_site *s, unsigned long long t) { say("end", s, (long)t); }
void __lockhog_loop(struct lockhog_site *s, unsigned long n) { say("loop", s, (long)n); }
void __lockhog_atomic(struct lockhog_site *s, const void *a) { say("atomic", s, 0); }

void work(int n);
void shapes(int k);
void quiet(void);
void breaker(int n);
extern pthread_spinlock_t m;

int main(void)
{
	printf("%ld sites of %zu bytes\n", (long)(__stop_lockhog_sites - __start_lockhog_sites),
	       sizeof(struct lockhog_site));
	pthread_spin_init(&m, 0);
	work(1000);
	work(0);
	shapes(5);
	breaker(10);
	quiet();
	return 0;
}
