/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One standalone HTML page (no network: inline CSS and SVG, no script,
 * no fonts) for a static scan or for run-time data.  Every string that
 * comes from input is HTML-escaped.
 */
#ifndef HOG_HTML_H
#define HOG_HTML_H

#include <jansson.h>
#include "util.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hog_rt;

/* A static scan: hog_report's JSON findings (an array), the ones shown. */
struct hog_html_scan {
	json_t *findings;
	const char *scope;		/* what was scanned */
	const char *version;		/* the tool's */
	int hidden;			/* findings below min_sev, not shown */
	const char *hidden_below;	/* that severity's name */
	int nlimited;			/* functions whose analysis hit a limit */
};
void hog_html_scan(const struct hog_html_scan *s, struct hog_buf *out);

/* Run-time data, joined or not: charts, histograms, inner sites, predictions. */
void hog_html_runtime(const struct hog_rt *rt, const char *version, struct hog_buf *out);

/* ---- the page's parts, shared by both pages ---- */

/* s, escaped for text and attribute values ("&<>\"'"). */
void hog_html_esc(struct hog_buf *b, const char *s);
/* <!DOCTYPE>, head with the style sheet, <body>, and the page's <h1>. */
void hog_html_begin(struct hog_buf *b, const char *title);
void hog_html_end(struct hog_buf *b, const char *version, const char *from);

/* A horizontal bar chart as inline SVG. */
struct hog_html_bar {
	const char *label;	/* left of the bar (cut to fit, whole in the tooltip) */
	const char *value;	/* right of the bar, as text */
	double v;		/* its length, against the largest */
	const char *href;	/* "#s3", or NULL */
};
void hog_html_bars(struct hog_buf *b, const char *cls, const struct hog_html_bar *bars,
		   int n);

#ifdef __cplusplus
}
#endif
#endif
