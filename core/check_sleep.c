// SPDX-License-Identifier: GPL-2.0
/*
 * Sleeping under a spinning lock, with IRQs off or preemption off: a
 * call the rules catalogue gives the class "sleep" (or "fault": it
 * sleeps only by faulting on user memory, so not with page faults off).
 * An error, whatever the lock: the kernel may deadlock or warn.
 */
#include <string.h>
#include "checker.h"

static void sleep_call(struct fs *fs, const struct tset *set, const struct callv *cv)
{
	const struct hog_rule *cr = eng_rule(fs, cv->ev->callee, HR_COST);

	if (cr && hog_cls_sleeps(cr->cls))
		eng_rule_cost(fs, set, cv, HK_SLEEP, cr);
}

static void sleep_message(struct hog_buf *b, const struct hog_finding *f,
			  const struct hog_path *p)
{
	hog_buf_printf(b, "%s() may sleep, %s ", f->callee ? f->callee : "?",
		       p->nchain > 1 ? "reached" : "called");
}

const struct hog_checker check_sleep = {
	.name = "sleep",
	.flags = HOG_CK_SLEEPS,
	.rank = 8,
	.call = sleep_call,
	.message = sleep_message,
};
