// SPDX-License-Identifier: GPL-2.0
/*
 * The choice of a fix.  What each semantic patch can transform decides
 * it:
 *
 *  - lock_costly_call.cocci sees only the function it runs on: it moves
 *    a costly call that sits between that function's own lock and
 *    unlock.  So it fits a call finding whose primary way is one step
 *    long (nchain == 1: the lock holder makes the costly call itself),
 *    and it runs on the holder, in the holder's file.
 *  - lock_release_helper.cocci splits a helper that does the costly
 *    release into a detach and a release step and fixes its callers
 *    that hold a lock: a call finding reached through a helper
 *    (nchain > 1), run on the function holding the costly call.
 *  - lock_loop_break.cocci breaks the lock in the loop's function; it
 *    may add cond_resched() only when no way reaches the loop with a
 *    lock taken by a caller (-D nocond otherwise).  With IRQs off the
 *    hold is this CPU's interrupt latency, contended or not, so the
 *    break is taken every batch (-D always), not only on need_resched().
 *
 * Sleeping calls (a bug: the code must not sleep there at all) and
 * global atomics have no transformation.  A way with no chain names no
 * function to run on, and a finding without a site file has no file to
 * run it on: no fix.  Notes -- costs under a sleeping lock or with only
 * preemption off, batched work -- are not worth restructuring code for:
 * only warnings and errors are fixed, and lockhog review suggests a fix
 * only where lockhog fix would make one.
 */
#include <string.h>
#include "fixplan.h"

static const struct {
	const char *cocci, *what;
} fixes[] = {
	[HOG_FIX_NONE] = { NULL, NULL },
	[HOG_FIX_COSTLY_CALL] = { "lock_costly_call.cocci", "move the call after the unlock" },
	[HOG_FIX_RELEASE_HELPER] = { "lock_release_helper.cocci",
				     "detach under the lock, release after it" },
	[HOG_FIX_LOOP_BREAK] = { "lock_loop_break.cocci", "break the lock every batch" },
};

/* Does some way reach the loop with a lock its caller took? */
static int caller_holds(const struct hog_finding *f)
{
	int i;

	for (i = 0; i < f->npaths; i++)
		if (f->paths[i].nchain > 1 || strcmp(f->paths[i].holder, f->site_func))
			return 1;
	return 0;
}

static enum hog_fix_kind choose(const struct hog_finding *f, struct hog_fix *x)
{
	const struct hog_path *p = &f->paths[0];

	if (f->sev < HS_WARNING || !f->site_file || f->npaths < 1)
		return HOG_FIX_NONE;
	x->file = f->site_file;
	x->fn = f->site_func;
	if (f->kind == HK_LOOP) {
		x->nocond = caller_holds(f);
		x->always = f->irqs_off;
		return HOG_FIX_LOOP_BREAK;
	}
	if (f->kind != HK_CALL || p->nchain < 1)
		return HOG_FIX_NONE;
	if (p->nchain > 1)
		return HOG_FIX_RELEASE_HELPER;
	if (!p->file)
		return HOG_FIX_NONE;
	x->fn = p->holder;
	x->file = p->file;
	return HOG_FIX_COSTLY_CALL;
}

enum hog_fix_kind hog_fix_choice(const struct hog_finding *f, struct hog_fix *fix)
{
	memset(fix, 0, sizeof(*fix));
	fix->kind = choose(f, fix);
	if (fix->kind == HOG_FIX_NONE)
		memset(fix, 0, sizeof(*fix));
	fix->cocci = fixes[fix->kind].cocci;
	fix->what = fixes[fix->kind].what;
	return fix->kind;
}
