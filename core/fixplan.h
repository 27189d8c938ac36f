/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which of lockhog's semantic patches (cocci/) fixes a finding, and
 * where it is to run.  One rule for every command: lockhog fix applies
 * it, lockhog review suggests it.
 */
#ifndef HOG_FIXPLAN_H
#define HOG_FIXPLAN_H

#include "analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hog_fix_kind {
	HOG_FIX_NONE,
	HOG_FIX_COSTLY_CALL,	/* move the call after the unlock */
	HOG_FIX_RELEASE_HELPER,	/* split the helper: detach under the lock, release after */
	HOG_FIX_LOOP_BREAK,	/* break the lock every batch */
};

struct hog_fix {
	enum hog_fix_kind kind;
	const char *cocci;	/* the semantic patch, a file name in cocci/ */
	const char *what;	/* what it does, for people */
	const char *fn;		/* the function it is restricted to (-D fn=) */
	const char *file;	/* that function's source file, as the finding names it */
	int nocond;		/* loops: a caller holds a lock, so no cond_resched() (-D nocond) */
	int always;		/* loops with IRQs off: break every batch, need_resched() or not (-D always) */
};

/*
 * The fix for f, in *fix; returns fix->kind (HOG_FIX_NONE: no semantic
 * patch applies).  Only findings at warning level or above are fixed;
 * see fixplan.c for the rule.
 */
enum hog_fix_kind hog_fix_choice(const struct hog_finding *f, struct hog_fix *fix);

#ifdef __cplusplus
}
#endif
#endif
