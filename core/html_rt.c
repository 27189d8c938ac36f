// SPDX-License-Identifier: GPL-2.0
/*
 * The run-time page: the worst sections by max and by total hold (bar
 * charts), then each section with its log2 histogram of hold times,
 * what ran inside it, and the static finding that predicted it beside
 * what was measured.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <math.h>
#include "html.h"
#include "runtime.h"

#define RT_CHART_TOP	10	/* sections in each bar chart */
#define UNEXERCISED_OPEN 20	/* predictions not exercised shown unfolded, at most */

#define HIST_COL	30	/* px per log2 bucket */
#define HIST_H		90	/* px for the tallest column */
#define HIST_TOP	14	/* px above it, for the counts */
#define HIST_BOTTOM	30	/* px below it, for the bucket labels */
#define HIST_MIN_COLS	12	/* buckets shown at least, so a narrow one reads as one */

static void esc_printf(struct hog_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* printf, then escaped: for text made of input strings */
static void esc_printf(struct hog_buf *b, const char *fmt, ...)
{
	struct hog_buf t = { 0 };
	va_list ap;

	va_start(ap, fmt);
	hog_buf_vprintf(&t, fmt, ap);
	va_end(ap);
	hog_html_esc(b, t.s ? t.s : "");
	hog_buf_free(&t);
}

static void td_ns(struct hog_buf *b, long long ns)
{
	char t[32];

	hog_rt_fmt_ns(ns, t, sizeof(t));
	hog_buf_printf(b, "<td class=\"n\">%s</td>", t);
}

static void td_count(struct hog_buf *b, long long v)
{
	char t[32];

	hog_rt_fmt_count(v, t, sizeof(t));
	hog_buf_printf(b, "<td class=\"n\">%s</td>", t);
}

/* ---- header and charts ---- */

static void tile(struct hog_buf *b, int bad, const char *big, const char *small)
{
	hog_buf_printf(b, "<div class=\"tile%s\"><b>", bad ? " bad" : "");
	hog_html_esc(b, big);
	hog_buf_add(b, "</b><span>");
	hog_html_esc(b, small);
	hog_buf_add(b, "</span></div>");
}

static int unexercised(const struct hog_rt *rt)
{
	int i, n = 0;

	for (i = 0; i < rt->nfind; i++)
		n += !rt->find[i].measured;
	return n;
}

static long long total_held(const struct hog_rt *rt)
{
	long long t = 0;
	int i;

	for (i = 0; i < rt->nsec; i++)
		t += rt->sec[i].total_ns;
	return t;
}

static void rt_tiles(const struct hog_rt *rt, struct hog_buf *b)
{
	long long lost = rt->ovf_stack + rt->ovf_hold_inner + rt->ovf_pairs + rt->ovf_nmi;
	char t[64], u[160];

	hog_buf_add(b, "<div class=\"tiles\">");
	snprintf(t, sizeof(t), "%d", rt->nsec);
	tile(b, 0, t, "sections held at least once");
	if (rt->nsec) {
		hog_rt_fmt_ns(rt->sec[0].max_ns, t, sizeof(t));
		snprintf(u, sizeof(u), "worst hold: %s() under %s", rt->sec[0].function,
			 rt->sec[0].lock);
		tile(b, 0, t, u);
		hog_rt_fmt_ns(total_held(rt), t, sizeof(t));
		tile(b, 0, t, "held in all sections (a nested one counts in each)");
	}
	if (rt->static_name) {
		snprintf(t, sizeof(t), "%d of %d", rt->nfind - unexercised(rt), rt->nfind);
		tile(b, 0, t, "static findings measured");
	}
	hog_rt_fmt_count(lost, t, sizeof(t));
	tile(b, lost > 0, t, "overflows: not measured");
	hog_rt_fmt_count(rt->ovf_unmatched, t, sizeof(t));
	tile(b, 0, t, "unmatched releases");
	hog_buf_add(b, "</div>\n");
}

static void rt_meta(const struct hog_rt *rt, struct hog_buf *b)
{
	char dur[32];

	hog_rt_fmt_ns(rt->duration_ns, dur, sizeof(dur));
	hog_buf_add(b, "<p class=\"meta\"><code>");
	hog_html_esc(b, rt->name);
	hog_buf_add(b, "</code> · ");
	esc_printf(b, "%s runtime, clock %s, %lld CPU%s, %s measured, %lld instrumented sites",
		   rt->source, rt->clock, rt->cpus, rt->cpus == 1 ? "" : "s", dur,
		   rt->sites_total);
	if (rt->static_name) {
		hog_buf_add(b, " · joined with <code>");
		hog_html_esc(b, rt->static_name);
		hog_buf_add(b, "</code>");
	}
	hog_buf_add(b, "</p>\n");
}

static char *sec_label(const struct hog_rt_section *s)
{
	return hog_xasprintf("%s() %s", s->function, s->lock);
}

static int by_total(const void *a, const void *b)
{
	const struct hog_rt_section *x = *(const struct hog_rt_section *const *)a;
	const struct hog_rt_section *y = *(const struct hog_rt_section *const *)b;

	return x->total_ns < y->total_ns ? 1 : x->total_ns > y->total_ns ? -1 : 0;
}

/* The top sections of order as bars of max or total hold. */
static void rt_chart(const struct hog_rt *rt, struct hog_buf *b, const char *title,
		     const char *cls, const struct hog_rt_section **order, int total)
{
	int n = rt->nsec < RT_CHART_TOP ? rt->nsec : RT_CHART_TOP, i;
	struct hog_html_bar *bars = hog_xcalloc(n + 1, sizeof(*bars));

	for (i = 0; i < n; i++) {
		const struct hog_rt_section *s = order[i];
		long long v = total ? s->total_ns : s->max_ns;
		char t[32];

		hog_rt_fmt_ns(v, t, sizeof(t));
		bars[i].label = sec_label(s);
		bars[i].value = hog_xstrdup(t);
		bars[i].v = (double)v;
		bars[i].href = hog_xasprintf("#s%d", (int)(s - rt->sec));
	}
	hog_buf_add(b, "<div class=\"chart\"><h3>");
	hog_html_esc(b, title);
	hog_buf_add(b, "</h3>\n");
	hog_html_bars(b, cls, bars, n);
	hog_buf_add(b, "</div>\n");
	for (i = 0; i < n; i++) {
		free((char *)bars[i].label);
		free((char *)bars[i].value);
		free((char *)bars[i].href);
	}
	free(bars);
}

static void rt_charts(const struct hog_rt *rt, struct hog_buf *b)
{
	const struct hog_rt_section **order = hog_xcalloc(rt->nsec + 1, sizeof(*order));
	int i;

	if (!rt->nsec) {
		free(order);
		return;
	}
	for (i = 0; i < rt->nsec; i++)
		order[i] = &rt->sec[i];
	hog_buf_add(b, "<div class=\"charts\">\n");
	rt_chart(rt, b, "Worst sections by max hold", "max", order, 0);
	qsort(order, rt->nsec, sizeof(*order), by_total);
	rt_chart(rt, b, "Sections by total hold time", "tot", order, 1);
	hog_buf_add(b, "</div>\n");
	free(order);
}

/* ---- the overview table ---- */

static void overview_row(const struct hog_rt *rt, const struct hog_rt_section *s, int i,
			 struct hog_buf *b)
{
	hog_buf_printf(b, "<tr><td class=\"n\"><a href=\"#s%d\">%d</a></td><td class=\"m\">", i,
		       i + 1);
	esc_printf(b, "%s()", s->function);
	hog_buf_add(b, "</td><td class=\"m\">");
	hog_html_esc(b, s->lock);
	hog_buf_add(b, "</td><td class=\"m mute\">");
	esc_printf(b, "%s:%lld", s->file, s->line);
	hog_buf_add(b, "</td>");
	td_count(b, s->holds);
	td_count(b, s->irqs_off_holds);
	td_ns(b, s->max_ns);
	td_ns(b, s->p99_ns);
	td_ns(b, s->total_ns);
	td_count(b, s->ninner);
	if (rt->static_name && s->npred)
		hog_buf_printf(b, "<td class=\"n\">%d</td>", s->npred);
	else if (rt->static_name)
		hog_buf_add(b, "<td class=\"n mute\">none</td>");
	hog_buf_add(b, "</tr>\n");
}

static void overview(const struct hog_rt *rt, struct hog_buf *b)
{
	int i;

	hog_buf_add(b, "<h2>Sections, worst max hold first</h2>\n<table class=\"overview\"><thead><tr>"
		    "<th class=\"n\">#</th><th>Holder</th><th>Lock</th><th>Acquired at</th>"
		    "<th class=\"n\">Holds</th><th class=\"n\">IRQs off</th><th class=\"n\">Max</th>"
		    "<th class=\"n\">p99 ≤</th><th class=\"n\">Total</th><th class=\"n\">Inner sites</th>");
	if (rt->static_name)
		hog_buf_add(b, "<th class=\"n\">Predicted</th>");
	hog_buf_add(b, "</tr></thead><tbody>\n");
	for (i = 0; i < rt->nsec; i++)
		overview_row(rt, &rt->sec[i], i, b);
	hog_buf_add(b, "</tbody></table>\n");
}

/* ---- a section's histogram ---- */

/* "1.2k": a count that fits above a column */
static void short_count(long long c, char *t, size_t n)
{
	if (c < 1000)
		snprintf(t, n, "%lld", c);
	else if (c < 1000000)
		snprintf(t, n, "%.*fk", c < 10000 ? 1 : 0, c / 1e3);
	else
		snprintf(t, n, "%.*fM", c < 10000000 ? 1 : 0, c / 1e6);
}

/* "16.4µs": a bucket's lower edge, without the space, to fit under it */
static void short_ns(long long ns, char *t, size_t n)
{
	char *sp;

	hog_rt_fmt_ns(ns, t, n);
	sp = strchr(t, ' ');
	if (sp)
		memmove(sp, sp + 1, strlen(sp));
}

/* The buckets to draw: from the first to the last non-zero, widened to HIST_MIN_COLS. */
static int hist_range(const struct hog_rt_section *s, int *lo, int *hi, long long *top)
{
	int k;

	*lo = HOG_RT_HIST;
	*hi = -1;
	*top = 0;
	for (k = 0; k < HOG_RT_HIST; k++)
		if (s->hist[k]) {
			*lo = k < *lo ? k : *lo;
			*hi = k;
			*top = s->hist[k] > *top ? s->hist[k] : *top;
		}
	if (*hi < 0)
		return -1;
	while (*hi - *lo + 1 < HIST_MIN_COLS) {
		if (*lo > 0)
			(*lo)--;
		if (*hi - *lo + 1 < HIST_MIN_COLS && *hi < HOG_RT_HIST - 1)
			(*hi)++;
	}
	return 0;
}

/* the bucket whose upper edge is p99_ns, or -1 */
static int p99_bucket(const struct hog_rt_section *s)
{
	int k;

	for (k = 0; k < HOG_RT_HIST - 1; k++)
		if ((1LL << (k + 1)) == s->p99_ns)
			return k;
	return -1;
}

static void hist_col(struct hog_buf *b, const struct hog_rt_section *s, int k, int x,
		     long long top)
{
	long long c = s->hist[k];
	int h = c ? (int)(log2(1.0 + c) / log2(1.0 + top) * HIST_H + 0.5) : 0;
	char lo[32], hi[32], cnt[32];

	if (c && h < 2)
		h = 2;
	hog_rt_fmt_ns(k ? 1LL << k : 0, lo, sizeof(lo));
	hog_rt_fmt_ns(1LL << (k + 1), hi, sizeof(hi));
	hog_rt_fmt_count(c, cnt, sizeof(cnt));
	hog_buf_printf(b, "<g><title>%s to %s%s: %s hold%s</title>", lo,
		       k == HOG_RT_HIST - 1 ? " and more" : "", hi, cnt, c == 1 ? "" : "s");
	hog_buf_printf(b, "<rect class=\"col\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>",
		       x + 3, HIST_TOP + HIST_H - h, HIST_COL - 6, h);
	if (c) {
		short_count(c, cnt, sizeof(cnt));
		hog_buf_printf(b, "<text class=\"small\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
			       x + HIST_COL / 2, HIST_TOP + HIST_H - h - 3, cnt);
	}
	hog_buf_add(b, "</g>");
}

static void hist_svg(const struct hog_rt_section *s, struct hog_buf *b)
{
	int lo, hi, k, w, h = HIST_TOP + HIST_H + HIST_BOTTOM, p99 = p99_bucket(s);
	long long top;
	char t[32];

	if (hist_range(s, &lo, &hi, &top)) {
		hog_buf_add(b, "<p class=\"mute\">No holds in the histogram.</p>\n");
		return;
	}
	w = (hi - lo + 1) * HIST_COL + 2;
	hog_buf_printf(b, "<figure style=\"margin:0\"><svg class=\"hist\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">",
		       w, h, w, h);
	for (k = lo; k <= hi; k++) {
		int x = (k - lo) * HIST_COL;

		hist_col(b, s, k, x, top);
		if ((k - lo) % 2 == 0) {
			short_ns(k ? 1LL << k : 0, t, sizeof(t));
			hog_buf_printf(b, "<text class=\"small\" x=\"%d\" y=\"%d\">%s</text>", x + 1,
				       HIST_TOP + HIST_H + 12, t);
		}
	}
	hog_buf_printf(b, "<line class=\"axis\" x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
		       HIST_TOP + HIST_H, w, HIST_TOP + HIST_H);
	if (p99 >= lo && p99 <= hi) {
		int x = (p99 - lo + 1) * HIST_COL;

		hog_buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#c0392b\" stroke-dasharray=\"3,2\"/>"
			       "<text class=\"small\" x=\"%d\" y=\"%d\" text-anchor=\"middle\" style=\"fill:#c0392b\">p99</text>",
			       x, HIST_TOP, x, HIST_TOP + HIST_H, x, HIST_TOP + HIST_H + 24);
	}
	hog_buf_add(b, "</svg><figcaption class=\"mute\" style=\"font-size:12px\">holds per log2 bucket of hold time (heights on a log scale)</figcaption></figure>\n");
}

/* ---- a section ---- */

static void stat(struct hog_buf *b, const char *name, const char *value)
{
	hog_buf_add(b, "<dt>");
	hog_html_esc(b, name);
	hog_buf_add(b, "</dt><dd>");
	hog_html_esc(b, value);
	hog_buf_add(b, "</dd>");
}

static void section_stats(const struct hog_rt_section *s, struct hog_buf *b)
{
	char t[32];

	hog_buf_add(b, "<dl class=\"stats\">");
	hog_rt_fmt_count(s->holds, t, sizeof(t));
	stat(b, "holds", t);
	hog_rt_fmt_count(s->irqs_off_holds, t, sizeof(t));
	stat(b, "with IRQs off", t);
	hog_rt_fmt_ns(s->max_ns, t, sizeof(t));
	stat(b, "max hold", t);
	hog_rt_fmt_ns(s->p99_ns, t, sizeof(t));
	stat(b, "p99 at most", t);
	hog_rt_fmt_ns(s->holds ? s->total_ns / s->holds : 0, t, sizeof(t));
	stat(b, "mean hold", t);
	hog_rt_fmt_ns(s->total_ns, t, sizeof(t));
	stat(b, "total held", t);
	hog_buf_add(b, "</dl>\n");
}

static void pred_box(const struct hog_rt_section *s, const struct hog_rt_pred *p,
		     struct hog_buf *b)
{
	char *what = hog_rt_pred_what(p->f), *meas = hog_rt_pred_measured(s, p);
	int hit = p->in && p->in->holds_with > 0;

	hog_buf_printf(b, "<div class=\"pred %s\"><b>predicted:</b> ", hit ? "hit" : "clean");
	hog_html_esc(b, what);
	hog_buf_add(b, " (<code>");
	hog_html_esc(b, p->f->fingerprint);
	hog_buf_add(b, "</code>, ");
	esc_printf(b, "%s, joined by %s", p->f->severity, p->by);
	hog_buf_add(b, "); ");
	hog_html_esc(b, meas);
	hog_buf_add(b, "</div>\n");
	free(what);
	free(meas);
}

static void section_preds(const struct hog_rt *rt, const struct hog_rt_section *s,
			  struct hog_buf *b)
{
	int i;

	if (!rt->static_name)
		return;
	if (!s->npred) {
		hog_buf_add(b, "<div class=\"pred none\">not predicted: no static finding for <code>");
		esc_printf(b, "%s()", s->function);
		hog_buf_add(b, "</code> under <code>");
		hog_html_esc(b, s->lock);
		hog_buf_add(b, "</code></div>\n");
	}
	for (i = 0; i < s->npred; i++)
		pred_box(s, &s->pred[i], b);
}

static void inner_row(const struct hog_rt_inner *in, struct hog_buf *b)
{
	hog_buf_add(b, "<tr><td class=\"m\">");
	esc_printf(b, in->is_loop ? "loop%s%s" : "%s%s()", in->is_loop && in->name[0] ?
		   " calling " : "", in->name);
	hog_buf_add(b, "</td><td class=\"m\">");
	esc_printf(b, "%s()", in->function);
	hog_buf_add(b, " <span class=\"mute\">");
	esc_printf(b, "%s:%lld", in->file, in->line);
	hog_buf_add(b, "</span></td>");
	td_count(b, in->holds_with);
	if (in->is_loop) {
		char it[32], runs[32];

		hog_rt_fmt_count(in->iterations, it, sizeof(it));
		hog_rt_fmt_count(in->runs, runs, sizeof(runs));
		hog_buf_printf(b, "<td class=\"n\">%s iterations <span class=\"mute\">in %s run%s</span></td>",
			       it, runs, in->runs == 1 ? "" : "s");
		td_count(b, in->iters_max);
		/* the loop probe counts, it does not time: the section's hold does */
		hog_buf_add(b, "<td class=\"n mute\">n/a</td><td class=\"n mute\">n/a</td>");
	} else {
		td_count(b, in->calls);
		td_count(b, in->calls_max);
		td_ns(b, in->total_ns);
		td_ns(b, in->max_ns);
	}
	hog_buf_add(b, "<td class=\"m\">");
	hog_html_esc(b, in->pred ? in->pred->fingerprint : in->fingerprint);
	if (in->pred)
		esc_printf(b, " (by %s)", in->by);
	hog_buf_add(b, "</td></tr>\n");
}

static void inner_table(const struct hog_rt_section *s, struct hog_buf *b)
{
	int i;

	if (!s->ninner) {
		hog_buf_add(b, "<p class=\"mute\">No instrumented call or loop ran inside.</p>\n");
		return;
	}
	hog_buf_add(b, "<table class=\"inner\"><thead><tr><th>Ran inside</th><th>At</th>"
		    "<th class=\"n\">Holds with it</th><th class=\"n\">Calls / iterations</th>"
		    "<th class=\"n\">Most in one hold</th><th class=\"n\">Time inside</th>"
		    "<th class=\"n\">Max</th><th>Finding</th></tr></thead><tbody>\n");
	for (i = 0; i < s->ninner; i++)
		inner_row(&s->inner[i], b);
	hog_buf_add(b, "</tbody></table>\n");
}

static void section_detail(const struct hog_rt *rt, const struct hog_rt_section *s, int i,
			   struct hog_buf *b)
{
	hog_buf_printf(b, "<section class=\"sec\" id=\"s%d\"><h3>#%d <code>", i, i + 1);
	esc_printf(b, "%s()", s->function);
	hog_buf_add(b, "</code> holding <code>");
	hog_html_esc(b, s->lock);
	hog_buf_add(b, "</code>");
	if (s->lock_kind[0]) {
		hog_buf_add(b, " <span class=\"mute\">(");
		hog_html_esc(b, s->lock_kind);
		hog_buf_add(b, ")</span>");
	}
	hog_buf_add(b, "</h3><div class=\"where m\">acquired at ");
	esc_printf(b, "%s:%lld", s->file, s->line);
	hog_buf_add(b, "</div>\n<div class=\"secbody\">");
	hist_svg(s, b);
	section_stats(s, b);
	hog_buf_add(b, "</div>\n");
	section_preds(rt, s, b);
	inner_table(s, b);
	hog_buf_add(b, "</section>\n");
}

/* ---- atomics and predictions never measured ---- */

static void atomics(const struct hog_rt *rt, struct hog_buf *b)
{
	int i;

	if (!rt->natom)
		return;
	hog_buf_add(b, "<h2>Atomic read-modify-writes on shared globals</h2>\n<table><thead><tr>"
		    "<th>Variable</th><th>At</th><th class=\"n\">Count</th><th class=\"n\">Per second</th>"
		    "<th>Finding</th></tr></thead><tbody>\n");
	for (i = 0; i < rt->natom; i++) {
		const struct hog_rt_atomic *a = &rt->atom[i];

		hog_buf_add(b, "<tr><td class=\"m\">");
		hog_html_esc(b, a->name);
		hog_buf_add(b, "</td><td class=\"m\">");
		esc_printf(b, "%s() ", a->function);
		hog_buf_add(b, "<span class=\"mute\">");
		esc_printf(b, "%s:%lld", a->file, a->line);
		hog_buf_add(b, "</span></td>");
		td_count(b, a->count);
		hog_buf_printf(b, "<td class=\"n\">%.1f</td><td class=\"m\">", a->per_sec);
		hog_html_esc(b, a->pred ? a->pred->fingerprint : a->fingerprint);
		hog_buf_add(b, "</td></tr>\n");
	}
	hog_buf_add(b, "</tbody></table>\n");
}

static void not_exercised(const struct hog_rt *rt, struct hog_buf *b)
{
	int i;

	if (!rt->static_name)
		return;
	hog_buf_add(b, "<h2>Predicted, not exercised</h2>\n");
	if (!unexercised(rt)) {
		hog_buf_add(b, "<p class=\"mute\">Every static finding was measured.</p>\n");
		return;
	}
	/* a whole tree's scan against a few sections: the list folds, no script needed */
	hog_buf_printf(b, "<details%s><summary>%d finding%s of the scan never measured</summary>\n",
		       unexercised(rt) <= UNEXERCISED_OPEN ? " open" : "", unexercised(rt),
		       unexercised(rt) == 1 ? "" : "s");
	hog_buf_add(b, "<table class=\"unexercised\"><thead><tr><th>Severity</th><th>Predicted</th>"
		    "<th>Where</th><th>Fingerprint</th></tr></thead><tbody>\n");
	for (i = 0; i < rt->nfind; i++) {
		const struct hog_rt_finding *f = &rt->find[i];
		char *what;

		if (f->measured)
			continue;
		what = hog_rt_pred_what(f);
		hog_buf_add(b, "<tr><td><span class=\"sev ");
		hog_html_esc(b, f->severity);
		hog_buf_add(b, "\">");
		hog_html_esc(b, f->severity);
		hog_buf_add(b, "</span></td><td class=\"m\">");
		hog_html_esc(b, what);
		hog_buf_add(b, "</td><td class=\"m\">");
		esc_printf(b, "%s() %s:%lld", f->function, f->file, f->line);
		hog_buf_add(b, "</td><td class=\"m\">");
		hog_html_esc(b, f->fingerprint);
		hog_buf_add(b, "</td></tr>\n");
		free(what);
	}
	hog_buf_add(b, "</tbody></table></details>\n");
}

void hog_html_runtime(const struct hog_rt *rt, const char *version, struct hog_buf *b)
{
	int i;

	hog_html_begin(b, "lockhog: what ran under the locks");
	rt_meta(rt, b);
	rt_tiles(rt, b);
	rt_charts(rt, b);
	if (!rt->nsec)
		hog_buf_add(b, "<p class=\"mute\">No instrumented section was held.</p>\n");
	else
		overview(rt, b);
	if (rt->nsec)
		hog_buf_add(b, "<h2>Each section: hold times, what ran inside, what was predicted</h2>\n");
	for (i = 0; i < rt->nsec; i++)
		section_detail(rt, &rt->sec[i], i, b);
	atomics(rt, b);
	not_exercised(rt, b);
	hog_html_end(b, version, rt->name);
}
