// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace runtime's probes called by hand, on descriptors put in
 * lockhog_sites here, as the plugin would put them.  One scenario a run
 * (argv[1]); tests/runtime/expect.py knows the exact counts each must
 * leave in $LOCKHOG_OUT.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lockhog_rt.h"

#define SITE_ATTR __attribute__((section("lockhog_sites"), used, aligned(8)))
#define SITE(var, k, fl, fn, nm) \
	static struct lockhog_site var SITE_ATTR = { \
		.kind = (k), .flags = (fl), .line = __LINE__, .file = "probes.c", \
		.function = (fn), .name = (nm), .lock_kind = "mutex", .fingerprint = "" }

SITE(acq_a, LOCKHOG_K_ACQUIRE, 0, "sec_a", "a_lock");
SITE(acq_b, LOCKHOG_K_ACQUIRE, 0, "sec_b", "b_lock");
SITE(try_nz, LOCKHOG_K_ACQUIRE, LOCKHOG_F_TRY, "try_nonzero", "t_lock");
SITE(try_z, LOCKHOG_K_ACQUIRE, LOCKHOG_F_TRYZERO, "try_zero", "t_lock");
SITE(rel, LOCKHOG_K_RELEASE, 0, "sec_a", "a_lock");
SITE(call_c, LOCKHOG_K_CALL, 0, "sec_a", "costly");
SITE(call_d, LOCKHOG_K_CALL, 0, "helper", "costly2");
SITE(loop_p, LOCKHOG_K_LOOP, 0, "sec_a", "body_call");
SITE(atom_g, LOCKHOG_K_ATOMIC, 0, "bump", "global_counter");

/* five call sites for one hold: one more than LOCKHOG_HOLD_INNER */
#define NCALLS 5
static struct lockhog_site calls5[NCALLS] SITE_ATTR = {
	[0 ... NCALLS - 1] = { .kind = LOCKHOG_K_CALL, .line = __LINE__, .file = "probes.c",
			       .function = "five", .name = "c5", .lock_kind = "", .fingerprint = "" },
};

/* many sections times many inner sites: more pairs than a thread holds */
#define NSEC 32
#define NINNER 64
static struct lockhog_site many_sec[NSEC] SITE_ATTR = {
	[0 ... NSEC - 1] = { .kind = LOCKHOG_K_ACQUIRE, .line = __LINE__, .file = "probes.c",
			     .function = "many", .name = "m_lock", .lock_kind = "spin",
			     .fingerprint = "" },
};
static struct lockhog_site many_inner[NINNER] SITE_ATTR = {
	[0 ... NINNER - 1] = { .kind = LOCKHOG_K_CALL, .line = __LINE__, .file = "probes.c",
			       .function = "many", .name = "m_call", .lock_kind = "",
			       .fingerprint = "" },
};

static int l1, l2, l3, locks[LOCKHOG_DEPTH + 1];

static void call(struct lockhog_site *s)
{
	__lockhog_call_end(s, __lockhog_call_begin(s));
}

/* 3 holds of a; one calls c three times; two run loop p (1000, 500) */
static void basic(void)
{
	int i;

	for (i = 0; i < 3; i++) {
		__lockhog_acquire(&acq_a, &l1);
		if (i == 0) {
			call(&call_c);
			call(&call_c);
			call(&call_c);
		}
		if (i > 0)
			__lockhog_loop(&loop_p, i == 1 ? 1000 : 500);
		__lockhog_release(&rel, &l1);
	}
}

/* a inside b's hold... b inside a's: the call is b's, the innermost */
static void nesting(void)
{
	__lockhog_acquire(&acq_a, &l1);
	__lockhog_acquire(&acq_b, &l2);
	call(&call_c);
	__lockhog_release(&rel, &l2);
	call(&call_d);
	__lockhog_release(&rel, &l1);
}

/* a then b, a released first: b stays open and gets the call */
static void order(void)
{
	__lockhog_acquire(&acq_a, &l1);
	__lockhog_acquire(&acq_b, &l2);
	__lockhog_release(&rel, &l1);
	call(&call_c);
	__lockhog_release(&rel, &l2);
}

/* releases of nothing, before and after the thread's first section */
static void unmatched(void)
{
	__lockhog_release(&rel, &l3);
	__lockhog_acquire(&acq_a, &l1);
	__lockhog_release(&rel, &l3);
	__lockhog_release(&rel, &l1);
	__lockhog_release(&rel, &l1);
	/* outside any section: no call, no loop is charged */
	call(&call_c);
	__lockhog_loop(&loop_p, 7);
}

/* trylocks: taken when ret says so, two of four */
static void trylock(void)
{
	__lockhog_tryacquire(&try_nz, &l1, 0);
	__lockhog_tryacquire(&try_nz, &l1, 1);
	__lockhog_release(&rel, &l1);
	__lockhog_tryacquire(&try_z, &l2, 16);	/* EBUSY */
	__lockhog_tryacquire(&try_z, &l2, 0);
	__lockhog_release(&rel, &l2);
}

/* one push more than LOCKHOG_DEPTH, all released: one overflow, no unmatched */
static void stack(void)
{
	int i;

	for (i = 0; i <= LOCKHOG_DEPTH; i++)
		__lockhog_acquire(&acq_a, &locks[i]);
	for (i = LOCKHOG_DEPTH; i >= 0; i--)
		__lockhog_release(&rel, &locks[i]);
}

/* five distinct call sites in one hold, then a second hold with the fifth */
static void hold_inner(void)
{
	int i;

	__lockhog_acquire(&acq_a, &l1);
	for (i = 0; i < NCALLS; i++)
		call(&calls5[i]);
	call(&calls5[NCALLS - 1]);
	__lockhog_release(&rel, &l1);
	__lockhog_acquire(&acq_a, &l1);
	call(&calls5[NCALLS - 1]);
	__lockhog_release(&rel, &l1);
}

/* every (section, inner) pair of NSEC x NINNER, once */
static void pairs(void)
{
	int i, j;

	for (i = 0; i < NSEC; i++) {
		__lockhog_acquire(&many_sec[i], &l1);
		for (j = 0; j < NINNER; j++)
			call(&many_inner[j]);
		__lockhog_release(&rel, &l1);
	}
}

/* a same lock taken twice (a recursive mutex): the inner hold is b's */
static void recursive(void)
{
	__lockhog_acquire(&acq_a, &l1);
	__lockhog_acquire(&acq_b, &l1);
	__lockhog_release(&rel, &l1);
	__lockhog_release(&rel, &l1);
}

static void atomics(void)
{
	int i;

	for (i = 0; i < 5; i++)
		__lockhog_atomic(&atom_g, &l3);
	__lockhog_acquire(&acq_a, &l1);
	__lockhog_atomic(&atom_g, &l3);
	__lockhog_atomic(&atom_g, &l3);
	__lockhog_release(&rel, &l1);
}

/* a call that releases the section it was made in: charged to none */
static void call_releases(void)
{
	unsigned long long tok;

	__lockhog_acquire(&acq_a, &l1);
	tok = __lockhog_call_begin(&call_c);
	__lockhog_release(&rel, &l1);
	__lockhog_call_end(&call_c, tok);
}

/* a section still open at exit is not a hold */
static void open_at_exit(void)
{
	__lockhog_acquire(&acq_a, &l1);
	__lockhog_release(&rel, &l1);
	__lockhog_acquire(&acq_b, &l2);
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int parked;

/* 1000 holds of a, each with one call of c */
static void *worker(void *arg)
{
	int i;

	for (i = 0; i < 1000; i++) {
		__lockhog_acquire(&acq_a, &l1);
		call(&call_c);
		__lockhog_release(&rel, &l1);
	}
	return arg;
}

/* 10 holds of b, then blocks until the process exits */
static void *parker(void *arg)
{
	int i;

	for (i = 0; i < 10; i++) {
		__lockhog_acquire(&acq_b, &l2);
		__lockhog_release(&rel, &l2);
	}
	pthread_mutex_lock(&mu);
	parked = 1;
	pthread_cond_signal(&cv);
	for (;;)
		pthread_cond_wait(&cv, &mu);
	return arg;
}

/* two threads merged at their exit, one merged at the process's */
static void threads(void)
{
	pthread_t t[3];

	pthread_create(&t[0], NULL, worker, NULL);
	pthread_create(&t[1], NULL, worker, NULL);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	pthread_create(&t[2], NULL, parker, NULL);
	pthread_mutex_lock(&mu);
	while (!parked)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

/* the child's exit writes nothing over the parent's report */
static void forked(void)
{
	pid_t pid;

	__lockhog_acquire(&acq_a, &l1);
	__lockhog_release(&rel, &l1);
	pid = fork();
	if (pid == 0) {
		__lockhog_acquire(&acq_b, &l2);
		__lockhog_release(&rel, &l2);
		exit(0);
	}
	waitpid(pid, NULL, 0);
}

static volatile sig_atomic_t handled;

/* a handler's own section, with a call, while main's may be half open */
static void on_alarm(int sig)
{
	__lockhog_acquire(&acq_b, &l2);
	call(&call_d);
	__lockhog_release(&rel, &l2);
	handled++;
}

/*
 * Signals every 50 us while the thread opens and closes sections: the
 * handler's probes nest on the same stack.  Prints the holds of each.
 */
static void signals(void)
{
	struct itimerval it = { { 0, 50 }, { 0, 50 } };
	long n = 0;

	/* the thread started first: a probe during its start is dropped */
	__lockhog_acquire(&acq_a, &l1);
	call(&call_c);
	__lockhog_release(&rel, &l1);
	n++;
	signal(SIGALRM, on_alarm);
	setitimer(ITIMER_REAL, &it, NULL);
	while (handled < 300) {
		__lockhog_acquire(&acq_a, &l1);
		call(&call_c);
		__lockhog_release(&rel, &l1);
		n++;
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	printf("%ld %d\n", n, (int)handled);
}

static const struct {
	const char *name;
	void (*run)(void);
} scenarios[] = {
	{ "basic", basic }, { "nesting", nesting }, { "order", order },
	{ "unmatched", unmatched }, { "trylock", trylock }, { "stack", stack },
	{ "hold_inner", hold_inner }, { "pairs", pairs }, { "recursive", recursive },
	{ "atomics", atomics }, { "call_releases", call_releases },
	{ "open_at_exit", open_at_exit }, { "threads", threads }, { "forked", forked },
	{ "signals", signals }, { "nothing", NULL },
};

int main(int argc, char **argv)
{
	size_t i;

	for (i = 0; argc == 2 && i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		if (strcmp(argv[1], scenarios[i].name))
			continue;
		if (scenarios[i].run)
			scenarios[i].run();
		return 0;
	}
	fprintf(stderr, "usage: probes SCENARIO\n");
	return 2;
}
