/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HOG_MESSAGE_H
#define HOG_MESSAGE_H

#include "analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "-Wlockhog-call" and friends. */
const char *hog_finding_option(const struct hog_finding *f);
/* One-line diagnostic text for path p (NULL: the primary path); malloc'ed. */
char *hog_finding_message(const struct hog_finding *f, const struct hog_path *p);
/* "refill_stock -> __refill_stock -> drain_stock -> page_counter_uncharge" */
char *hog_path_text(const struct hog_finding *f, const struct hog_path *p);

/*
 * One finding as people read it, line by line, the same in the plugin's
 * diagnostics and in lockhog's text report: each renderer only says how
 * a line is shown (a GCC warning or note; "FILE:LINE:COL: note: TEXT").
 */
enum hog_line_kind {
	HOG_LINE_MESSAGE,	/* "X() called with L held [-Wlockhog-call]": the finding */
	HOG_LINE_CHAIN,		/* "chain: h -> f -> X" */
	HOG_LINE_REASON,	/* "X(): why it costs", at the costly site */
	HOG_LINE_TAKEN,		/* "L taken here", at the acquire (a line, no column) */
	HOG_LINE_STEP,		/* "f() calls on here", at each further call of the chain */
	HOG_LINE_CALLER,	/* "also reached from g(): g -> f -> X", at g's call */
	HOG_LINE_MORE,		/* "and from N more callers" */
	HOG_LINE_INCOMPLETE,	/* the analysis on the way was cut short */
	HOG_LINE_DEMOTED,	/* "a note: WHY (rules: DIRECTIVE)" */
};

struct hog_line {
	enum hog_line_kind kind;
	const char *file;
	int line, col;		/* col 0: only the line is known */
	const char *text;	/* without "warning: " or "note: " */
};

/* "also reached from" lines shown for one finding, at most */
#define HOG_MAX_CALLERS_SHOWN 5

typedef void (*hog_line_fn)(void *ctx, const struct hog_line *l);

/*
 * Calls fn with each line of f, the finding's own first, then notes.
 * max_callers: "also reached from" lines at most (0: HOG_MAX_CALLERS_SHOWN);
 * the others are counted in one "and from N more callers".
 */
void hog_finding_lines(const struct hog_finding *f, int max_callers, hog_line_fn fn,
		       void *ctx);

#ifdef __cplusplus
}
#endif
#endif
