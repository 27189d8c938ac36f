// SPDX-License-Identifier: GPL-2.0
/*
 * Atomic read-modify-writes on one global under a lock or with IRQs
 * off: every CPU bounces the same cache line (memcg_rstat_updated()'s
 * stats_flush_threshold).  A target reached through a parameter or the
 * return value is the callers' to judge, so it goes into the summary.
 */
#include <stdlib.h>
#include "checker.h"
#include "expr.h"

static void atomic_rmw(struct fs *fs, const struct tset *set, const char *a,
		       const char *via, int line, int col)
{
	struct hog_cost *c;
	char *disp, *reason;

	if (!a)
		return;
	if (hog_expr_param(a) >= 0 || hog_expr_is_ret(a)) {
		eng_atomic_for_callers(fs, a);
		return;
	}
	if (!hog_expr_is_global(a))
		return;
	disp = hog_expr_display(a, NULL, 0, NULL, 0);
	reason = hog_xasprintf("atomic read-modify-write on the global %s: one cache line bounced between all CPUs",
			       disp);
	c = eng_cost_new(fs, HK_ATOMIC, eng_intern(fs, HOG_CLS_GATOM),
			 eng_intern(fs, reason), via, 0, line, col, NULL);
	free(disp);
	free(reason);
	eng_cost_at(fs, set, c);
}

static void atomic_message(struct hog_buf *b, const struct hog_finding *f,
			   const struct hog_path *p)
{
	if (f->callee)
		hog_buf_printf(b, "atomic RMW on a global in %s() via %s() runs ",
			       f->site_func, f->callee);
	else
		hog_buf_printf(b, "atomic RMW on a global in %s() runs ", f->site_func);
}

const struct hog_checker check_atomic = {
	.name = "atomic",
	.atomic = atomic_rmw,
	.message = atomic_message,
};
