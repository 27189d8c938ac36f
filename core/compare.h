/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two analyses compared: what a change (a patch series, a new revision)
 * introduces and what it fixes, finding by finding and way by way, and
 * baselines of findings accepted earlier.  Shared by every command and
 * frontend, so that "new" means the same thing everywhere.
 */
#ifndef HOG_COMPARE_H
#define HOG_COMPARE_H

#include "analysis.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- baselines: findings accepted earlier ---- */

struct hog_accepted;

/* Reads a baseline file; NULL with *err set (malloc'ed, one line) if it is not one. */
struct hog_accepted *hog_baseline_load(const char *path, char **err);
void hog_baseline_free(struct hog_accepted *b);
/*
 * Accepted: the finding's fingerprint is listed and so is the
 * fingerprint of every path to it (a new holder reaching an accepted
 * site is not accepted).  A NULL baseline accepts nothing.
 */
int hog_baseline_accepts(const struct hog_accepted *b, const struct hog_finding *f);
/* Every finding of prog as accepted, the JSON of a baseline file, appended to out. */
void hog_baseline_render(const struct hog_prog *prog, struct hog_buf *out);
/* The same written to path, whole or not at all; 0, or -1 with errno set. */
int hog_baseline_write(const struct hog_prog *prog, const char *path);

/* ---- comparing two analyses ---- */

struct hog_compare_opts {
	/*
	 * Names of the functions the change touched.  A way that is on one
	 * side only counts only if it passes through one of them: other
	 * differences come from summaries cut to size, not from the code.
	 * NULL: every way counts.
	 */
	const struct hog_vec *changed;
	/* head findings accepted earlier, left out of the diff (NULL: none) */
	const struct hog_accepted *accepted;
};

struct hog_diff {
	/*
	 * One item a finding that differs or stays: head's findings NEW,
	 * UNCHANGED or UPDATED (some way to it went), then base's ABSENT
	 * ones.  Findings that differ only in ways the change did not make
	 * are not listed.
	 */
	struct hog_report_item *items;
	int nitems;
	/*
	 * What is new and what went, each seen through the ways that
	 * differ: a whole finding, or a copy of one with the single way
	 * that is new (gone) as its only path.  fresh items are NEW; gone
	 * ones ABSENT (the finding went) or UPDATED (one way to it went).
	 */
	struct hog_report_item *fresh;
	int nfresh;
	struct hog_report_item *gone;
	int ngone;
	int nnew[HS_ERROR + 1];	/* new findings (or new ways into old ones) per severity */
	int nfixed;		/* findings gone, or old findings that lost a way */
	int nunchanged;
	int worst;		/* highest severity of what is new; -1: nothing */
	struct hog_vec owned;	/* the one-way copies */
};

/*
 * Compares head (after the change) with base (before).  A finding is
 * matched by fingerprint, a way to it by its path fingerprint (holder
 * and lock).  A way on one side only is the change's doing when
 *   - it passes through a changed function (o->changed),
 *   - the other side had no finding of the same cost (kind, class,
 *     callee, or site for a loop) reached from the same holder: work
 *     moved to another site under the same lock is not new, nor fixed,
 *   - and no function on it had its summary cut on the other side
 *     (HOG_LIMIT_COSTS): that side may have had the way and dropped it.
 * Returns a diff to free with hog_diff_free; base and head must outlive it.
 */
struct hog_diff *hog_compare(const struct hog_prog *base, const struct hog_prog *head,
			     const struct hog_compare_opts *o);
void hog_diff_free(struct hog_diff *d);

/* Adds to changed the names of m's functions defined in one of files (no duplicates). */
void hog_changed_functions(const struct hog_module *m, const struct hog_vec *files,
			   struct hog_vec *changed);

#ifdef __cplusplus
}
#endif
#endif
