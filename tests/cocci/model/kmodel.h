/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A userspace model of the few kernel primitives the cocci fixtures use:
 * locks that count how deep they are held, and costly callees that count
 * how often they run with a lock held.  One CPU, no concurrency: the
 * models check that a transformation keeps the end state and takes the
 * costly work out of the lock.
 */
#ifndef KMODEL_H
#define KMODEL_H
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>

static int held;		/* locks held now */
static int irqs_off;		/* IRQ-off nesting */
static long costly_under_lock;	/* costly calls made with a lock held */
static long costly_calls;	/* all costly calls */

static long resched_asked;	/* need_resched() calls */
static long cond_rescheds;	/* cond_resched() calls */

typedef struct { int locked; } spinlock_t;
typedef struct { int locked; } local_lock_t;
#define DEFINE_SPINLOCK(x) spinlock_t x = { 0 }
#define DEFINE_PER_CPU(type, name) type name
#define this_cpu_ptr(p) (p)
#define per_cpu(v, cpu) (v)
#define unlikely(x) (x)
#define likely(x) (x)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A warning that fires is part of the end state: the models must not. */
static long warnings;
#define WARN_ON_ONCE(c) ({ int __w = !!(c); if (__w) warnings++; __w; })

static void lock_check(int *l, int want)
{
	if (*l == want) {
		fprintf(stderr, "lock %s twice\n", want ? "taken" : "released");
		exit(3);
	}
	*l = want;
}
#define spin_lock(l) (lock_check(&(l)->locked, 1), held++)
#define spin_unlock(l) (lock_check(&(l)->locked, 0), held--)
#define spin_lock_irq(l) (spin_lock(l), irqs_off++)
#define spin_unlock_irq(l) (spin_unlock(l), irqs_off--)
#define spin_lock_irqsave(l, f) ((f) = irqs_off, spin_lock(l), irqs_off++)
#define spin_unlock_irqrestore(l, f) (spin_unlock(l), irqs_off = (f))
#define local_lock_irqsave(l, f) spin_lock_irqsave(l, f)
#define local_unlock_irqrestore(l, f) spin_unlock_irqrestore(l, f)

static void costly(void)
{
	costly_calls++;
	if (held)
		costly_under_lock++;
}

struct page_counter { long usage; };
struct cgroup_subsys_state { long refcnt; };

static void page_counter_uncharge(struct page_counter *c, unsigned long n)
{
	costly();
	c->usage -= n;
}

static void css_get(struct cgroup_subsys_state *css)
{
	css->refcnt++;
}

static void css_put(struct cgroup_subsys_state *css)
{
	costly();
	if (--css->refcnt < 0) {
		fprintf(stderr, "css refcount underflow\n");
		exit(3);
	}
}

/* need_resched() says yes every seventh time it is asked. */
static bool need_resched(void)
{
	return ++resched_asked % 7 == 0;
}
#define spin_needbreak(l) 0
static void cond_resched(void)
{
	if (held) {
		fprintf(stderr, "cond_resched() with a lock held\n");
		exit(3);
	}
	cond_rescheds++;
}
#endif
