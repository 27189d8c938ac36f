/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Findings rendered for people (gcc-style text, a standalone HTML page)
 * and machines (JSON, SARIF 2.1.0).  JSON and SARIF are built with
 * jansson; the page is made from the JSON (html.h).
 */
#ifndef HOG_REPORT_H
#define HOG_REPORT_H

#include "analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hog_format { HOG_FMT_TEXT, HOG_FMT_JSON, HOG_FMT_SARIF, HOG_FMT_HTML };

/* How a finding compares with a baseline or an earlier revision. */
enum hog_baseline { HOG_BASE_NONE, HOG_BASE_NEW, HOG_BASE_UNCHANGED, HOG_BASE_ABSENT,
		   HOG_BASE_UPDATED };

struct hog_report_item {
	const struct hog_finding *f;
	enum hog_baseline state;
};

struct hog_report_opts {
	enum hog_sev min_sev;		/* text and HTML: hide findings below this */
	const char *srcroot;		/* absolute path of the tree, for SARIF */
	const char *tool_version;
	const char *scope;		/* what was scanned, for the summary line */
	int max_callers;		/* text: "also reached from" lines, 0: default 5 */
	/* functions whose analysis hit a limit (hog_prog_incomplete), said in the report */
	const struct hog_summary *const *limited;
	int nlimited;
};

/* Parses "text", "json", "sarif", "html"; -1 if none of them. */
int hog_format_parse(const char *s);
/* JSON out: root (a jansson json_t, whose reference it takes) into b. */
struct json_t;
int hog_json_dump(struct json_t *root, struct hog_buf *b, char **err);

/*
 * Appends the rendering of items to out.  Text ends with one summary
 * line "lockhog: SCOPE: N findings (E errors, W warnings, K notes)",
 * followed by "; M functions cut short by analysis limits" when o says so.
 * Returns 0, or -1 with *err set (malloc'ed).
 */
int hog_report(const struct hog_report_item *items, int n,
	       const struct hog_report_opts *o, enum hog_format fmt,
	       struct hog_buf *out, char **err);

/*
 * Findings reached from one spot (the same call or loop of the same
 * holder, the same lock, severity and baseline state) are one thing to
 * fix: text shows the others under the first, JSON says "same_spot_as",
 * SARIF "sameSpotAs".  Returns lead[i], the index of the first item at
 * i's spot (i when it leads); malloc'ed.
 */
int *hog_report_leads(const struct hog_report_item *items, int n);

/*
 * Appends the text of one finding, exactly as hog_report renders it
 * (its gcc-style lines and its fingerprint, with the state of the item
 * when it has one), for commands that add their own header and summary.
 */
void hog_report_text_item(const struct hog_report_item *it, const struct hog_report_opts *o,
			  struct hog_buf *out);

/* Appends the "here also" lines of a cost shown under another (hog_report_leads). */
void hog_report_text_also(const struct hog_report_item *it, struct hog_buf *out);

#ifdef __cplusplus
}
#endif
#endif
