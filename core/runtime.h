/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run-time data (docs/runtime.md section 3): the JSON the kernel's
 * debugfs file and the userspace runtime write, read and checked with
 * jansson, joined to the static findings that predicted it, and
 * rendered as text and normalised JSON (HTML: html.h).
 */
#ifndef HOG_RUNTIME_H
#define HOG_RUNTIME_H

#include <jansson.h>
#include "util.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HOG_RT_VERSION	1	/* "lockhog_runtime": the contract's version */
#define HOG_RT_HIST	32	/* log2 buckets of hold time (LOCKHOG_HIST) */

/* A static finding from --static (a lockhog scan --format json report). */
struct hog_rt_finding {
	json_t *j;			/* the finding; steps and callers read from it */
	const char *fingerprint, *function, *file, *lock, *callee, *kind;
	const char *severity, *message;
	long long line;
	int measured;			/* joined to a measured section or inner site */
};

/* A prediction shown beside a section: the finding, how it was joined. */
struct hog_rt_pred {
	const struct hog_rt_finding *f;
	const struct hog_rt_inner *in;	/* the inner site that measured it, or NULL */
	const char *by;			/* "fingerprint", "site" or "section" */
};

/* What ran inside a section: a costly call or a loop ("kind"). */
struct hog_rt_inner {
	const char *kind, *file, *function, *name, *fingerprint;
	int is_loop;
	long long line, holds_with;
	long long calls, calls_max, total_ns, max_ns;	/* call */
	long long runs, iterations, iters_max;		/* loop */
	const struct hog_rt_finding *pred;		/* joined finding, or NULL */
	const char *by;					/* "fingerprint" or "site" */
};

/* An acquire site with at least one hold. */
struct hog_rt_section {
	const char *file, *function, *lock, *lock_kind, *fingerprint;
	long long line, holds, irqs_off_holds, total_ns, max_ns, p99_ns;
	long long hist[HOG_RT_HIST];
	struct hog_rt_inner *inner;
	int ninner;
	struct hog_rt_pred *pred;
	int npred;
};

struct hog_rt_atomic {
	const char *file, *function, *name, *fingerprint;
	long long line, count;
	double per_sec;
	const struct hog_rt_finding *pred;
};

struct hog_rt {
	json_t *root;			/* every string above points into it */
	const char *name;		/* the file it came from, for messages */
	const char *source, *clock;
	long long duration_ns, cpus, sites_total;
	long long ovf_stack, ovf_hold_inner, ovf_pairs, ovf_nmi, ovf_unmatched;
	struct hog_rt_section *sec;	/* worst max hold first */
	int nsec;
	struct hog_rt_atomic *atom;	/* hottest first */
	int natom;
	/* --static: the findings, or none (nfind 0, static_name NULL) */
	json_t *static_root;
	const char *static_name;
	struct hog_rt_finding *find;
	int nfind;
};

/*
 * Does text look like run-time data rather than an object?  Its first
 * non-blank byte opens a JSON object.
 */
int hog_rt_looks_like(const char *text, size_t len);

/*
 * Reads and checks run-time data (name is for messages).  Every field
 * of the contract must be there with its type; the sections and inner
 * sites are sorted.  NULL with *err set (one line, malloc'ed) on bad
 * input.
 */
struct hog_rt *hog_rt_parse(const char *text, size_t len, const char *name, char **err);

/* Joins rt to the findings of a static scan (JSON text).  0, or -1 with *err. */
int hog_rt_join(struct hog_rt *rt, const char *text, size_t len, const char *name,
		char **err);

/* Text (sorted by worst max hold) or normalised JSON with the join. */
void hog_rt_text(const struct hog_rt *rt, struct hog_buf *out);
int hog_rt_json(const struct hog_rt *rt, struct hog_buf *out, char **err);

void hog_rt_free(struct hog_rt *rt);

/* "812 ns", "38.0 µs", "1.23 ms", "2.50 s": three significant digits. */
void hog_rt_fmt_ns(long long ns, char *buf, size_t n);
/* "1,204" */
void hog_rt_fmt_count(long long v, char *buf, size_t n);
/* "page_counter_uncharge under memcg_stock.stock_lock": what f predicted */
char *hog_rt_pred_what(const struct hog_rt_finding *f);
/* "measured: 1,204 holds, 41 with page_counter_uncharge inside, max 38.0 µs" */
char *hog_rt_pred_measured(const struct hog_rt_section *s, const struct hog_rt_pred *p);

#ifdef __cplusplus
}
#endif
#endif
