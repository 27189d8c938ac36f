// SPDX-License-Identifier: GPL-2.0
/*
 * What instrument= probes, run against trace.c, which prints every probe:
 * a section with a loop and three costly calls, a trylock, an atomic on
 * a global, do-while and for (;;) trip counts, a loop that breaks its
 * lock (its rounds go to the hold they ran in), and a notrace function
 * that takes the lock but must not be probed.
 */
#include <pthread.h>
#include <stdatomic.h>

pthread_spinlock_t m;
long counter;
atomic_long hot;

__attribute__((noinline)) void slow_thing(int x)
{
	__asm__ volatile("" :: "r"(x));
}

void work(int n)
{
	int i;

	pthread_spin_lock(&m);
	for (i = 0; i < n; i++)
		counter += i;
	slow_thing(1);
	slow_thing(2);
	slow_thing(3);
	pthread_spin_unlock(&m);
	if (pthread_spin_trylock(&m) == 0)
		pthread_spin_unlock(&m);
	atomic_fetch_add(&hot, 1);
}

void shapes(int k)
{
	int j = 0;

	pthread_spin_lock(&m);
	do
		counter++;
	while (--k > 0);
	for (;;)
		if (++j == 7)
			break;
	counter += j;
	pthread_spin_unlock(&m);
}

/* a lock break every 4 rounds: each hold gets its own rounds */
void breaker(int n)
{
	int i;

	pthread_spin_lock(&m);
	for (i = 0; i < n; i++) {
		counter++;
		if (i % 4 == 3) {
			pthread_spin_unlock(&m);
			pthread_spin_lock(&m);
		}
	}
	pthread_spin_unlock(&m);
}

__attribute__((no_instrument_function)) void quiet(void)
{
	pthread_spin_lock(&m);
	slow_thing(0);
	pthread_spin_unlock(&m);
}
