// SPDX-License-Identifier: GPL-2.0
/*
 * lock_loop_break: loops reported but not patched.  Each line the report
 * must name carries an EXPECT-REPORT marker.
 */
/* The loop already gives the lock up. */
static void put_all(struct grp **grps, int n, spinlock_t *lock)
{
	int i;

	spin_lock(lock);
	for (i = 0; i < n; i++) {
		css_put(&grps[i]->css); /* EXPECT-REPORT */
		cond_resched_lock(lock);
	}
	spin_unlock(lock);
}

/* Two unlocks: the region is not a single one. */
static int put_some(struct grp **grps, int n, spinlock_t *lock)
{
	int i;

	spin_lock(lock);
	while (n--) {
		css_put(&grps[n]->css); /* EXPECT-REPORT */
		if (grps[n]->last) {
			spin_unlock(lock);
			return n;
		}
	}
	spin_unlock(lock);
	return 0;
}
