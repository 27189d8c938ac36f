// SPDX-License-Identifier: GPL-2.0
/*
 * Run-time data (docs/runtime.md section 3), read with jansson.  The
 * reader is strict: every field of the contract must be present with
 * its type, because a runtime that drops one is a bug to be told about,
 * not a zero to be shown.  Fields it does not know are ignored, so the
 * normalised JSON this file writes reads back as run-time data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include "runtime.h"

/* A reader: the file's name and where in it we are, for the one-line error. */
struct rd {
	const char *name;
	char ctx[96];		/* "sections[2].inner[0]" or "" */
	char *err;
};

static int fail(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct rd *r, const char *fmt, ...)
{
	struct hog_buf b = { 0 };
	va_list ap;

	if (r->err)
		return -1;
	hog_buf_printf(&b, "%s: ", r->name);
	if (r->ctx[0])
		hog_buf_printf(&b, "%s: ", r->ctx);
	va_start(ap, fmt);
	hog_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	r->err = b.s;
	return -1;
}

static json_t *need(struct rd *r, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		fail(r, "missing \"%s\"", key);
	return v;
}

static int get_int(struct rd *r, json_t *o, const char *key, long long *out)
{
	json_t *v = need(r, o, key);

	if (!v)
		return -1;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return fail(r, "\"%s\" is not a non-negative integer", key);
	*out = json_integer_value(v);
	return 0;
}

static int get_str(struct rd *r, json_t *o, const char *key, const char **out)
{
	json_t *v = need(r, o, key);

	if (!v)
		return -1;
	if (!json_is_string(v))
		return fail(r, "\"%s\" is not a string", key);
	*out = json_string_value(v);
	return 0;
}

static json_t *get_array(struct rd *r, json_t *o, const char *key)
{
	json_t *v = need(r, o, key);

	if (v && !json_is_array(v)) {
		fail(r, "\"%s\" is not an array", key);
		return NULL;
	}
	return v;
}

/* Where an element is, for messages: "sections[2]", "sections[2].inner[0]". */
static void ctx_set(struct rd *r, const char *outer, size_t i, const char *inner, size_t j)
{
	if (inner)
		snprintf(r->ctx, sizeof(r->ctx), "%s[%zu].%s[%zu]", outer, i, inner, j);
	else
		snprintf(r->ctx, sizeof(r->ctx), "%s[%zu]", outer, i);
}

/* The fields every site has: where it is and what it names. */
static int read_where(struct rd *r, json_t *o, const char **file, long long *line,
		      const char **function)
{
	if (!json_is_object(o))
		return fail(r, "not an object");
	return get_str(r, o, "file", file) || get_int(r, o, "line", line) ||
	       get_str(r, o, "function", function);
}

static int read_inner(struct rd *r, json_t *o, struct hog_rt_inner *in)
{
	if (read_where(r, o, &in->file, &in->line, &in->function) ||
	    get_str(r, o, "kind", &in->kind) || get_str(r, o, "name", &in->name) ||
	    get_str(r, o, "fingerprint", &in->fingerprint) ||
	    get_int(r, o, "holds_with", &in->holds_with))
		return -1;
	if (!strcmp(in->kind, "call"))
		return get_int(r, o, "calls", &in->calls) ||
		       get_int(r, o, "calls_max", &in->calls_max) ||
		       get_int(r, o, "total_ns", &in->total_ns) ||
		       get_int(r, o, "max_ns", &in->max_ns);
	if (strcmp(in->kind, "loop"))
		return fail(r, "unknown \"kind\" \"%s\" (call or loop)", in->kind);
	in->is_loop = 1;
	return get_int(r, o, "runs", &in->runs) ||
	       get_int(r, o, "iterations", &in->iterations) ||
	       get_int(r, o, "iters_max", &in->iters_max);
}

static int read_hist(struct rd *r, json_t *o, long long *hist)
{
	json_t *a = get_array(r, o, "hist"), *v;
	size_t i;

	if (!a)
		return -1;
	if (json_array_size(a) != HOG_RT_HIST)
		return fail(r, "\"hist\" has %zu buckets, not %d", json_array_size(a),
			    HOG_RT_HIST);
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return fail(r, "\"hist\"[%zu] is not a non-negative integer", i);
		hist[i] = json_integer_value(v);
	}
	return 0;
}

static int read_section(struct rd *r, json_t *o, size_t i, struct hog_rt_section *s)
{
	json_t *inner, *v;
	size_t j;

	ctx_set(r, "sections", i, NULL, 0);
	if (read_where(r, o, &s->file, &s->line, &s->function) ||
	    get_str(r, o, "lock", &s->lock) || get_str(r, o, "lock_kind", &s->lock_kind) ||
	    get_str(r, o, "fingerprint", &s->fingerprint) ||
	    get_int(r, o, "holds", &s->holds) ||
	    get_int(r, o, "irqs_off_holds", &s->irqs_off_holds) ||
	    get_int(r, o, "total_ns", &s->total_ns) || get_int(r, o, "max_ns", &s->max_ns) ||
	    get_int(r, o, "p99_ns", &s->p99_ns) || read_hist(r, o, s->hist))
		return -1;
	inner = get_array(r, o, "inner");
	if (!inner)
		return -1;
	s->ninner = json_array_size(inner);
	s->inner = hog_xcalloc(s->ninner + 1, sizeof(*s->inner));
	json_array_foreach(inner, j, v) {
		ctx_set(r, "sections", i, "inner", j);
		if (read_inner(r, v, &s->inner[j]))
			return -1;
	}
	return 0;
}

static int read_atomic(struct rd *r, json_t *o, size_t i, struct hog_rt_atomic *a)
{
	json_t *ps;

	ctx_set(r, "atomics", i, NULL, 0);
	if (read_where(r, o, &a->file, &a->line, &a->function) ||
	    get_str(r, o, "name", &a->name) || get_str(r, o, "fingerprint", &a->fingerprint) ||
	    get_int(r, o, "count", &a->count))
		return -1;
	ps = need(r, o, "per_sec");
	if (!ps)
		return -1;
	if (!json_is_number(ps) || json_number_value(ps) < 0)
		return fail(r, "\"per_sec\" is not a non-negative number");
	a->per_sec = json_number_value(ps);
	return 0;
}

static int read_overflow(struct rd *r, json_t *root, struct hog_rt *rt)
{
	json_t *o = need(r, root, "overflow");

	if (!o)
		return -1;
	if (!json_is_object(o))
		return fail(r, "\"overflow\" is not an object");
	snprintf(r->ctx, sizeof(r->ctx), "overflow");
	if (get_int(r, o, "stack", &rt->ovf_stack) ||
	    get_int(r, o, "hold_inner", &rt->ovf_hold_inner) ||
	    get_int(r, o, "pairs", &rt->ovf_pairs) || get_int(r, o, "nmi", &rt->ovf_nmi) ||
	    get_int(r, o, "unmatched", &rt->ovf_unmatched))
		return -1;
	r->ctx[0] = 0;
	return 0;
}

/* "lockhog_runtime": 1 and the header fields. */
static int read_header(struct rd *r, json_t *root, struct hog_rt *rt)
{
	json_t *v;

	if (json_is_array(root))
		return fail(r, "a static scan report, not run-time data (pass it with --static)");
	if (!json_is_object(root))
		return fail(r, "not run-time data (a JSON object with \"lockhog_runtime\": %d)",
			    HOG_RT_VERSION);
	v = json_object_get(root, "lockhog_runtime");
	if (!v)
		return fail(r, "not run-time data (no \"lockhog_runtime\")");
	if (!json_is_integer(v) || json_integer_value(v) != HOG_RT_VERSION)
		return fail(r, "\"lockhog_runtime\" is not %d: a version this lockhog does not read",
			    HOG_RT_VERSION);
	return get_str(r, root, "source", &rt->source) || get_str(r, root, "clock", &rt->clock) ||
	       get_int(r, root, "duration_ns", &rt->duration_ns) ||
	       get_int(r, root, "cpus", &rt->cpus) ||
	       get_int(r, root, "sites_total", &rt->sites_total) || read_overflow(r, root, rt);
}

static int read_all(struct rd *r, json_t *root, struct hog_rt *rt)
{
	json_t *secs, *atoms, *v;
	size_t i;

	if (read_header(r, root, rt))
		return -1;
	secs = get_array(r, root, "sections");
	atoms = secs ? get_array(r, root, "atomics") : NULL;
	if (!atoms)
		return -1;
	rt->nsec = json_array_size(secs);
	rt->sec = hog_xcalloc(rt->nsec + 1, sizeof(*rt->sec));
	json_array_foreach(secs, i, v)
		if (read_section(r, v, i, &rt->sec[i]))
			return -1;
	rt->natom = json_array_size(atoms);
	rt->atom = hog_xcalloc(rt->natom + 1, sizeof(*rt->atom));
	json_array_foreach(atoms, i, v)
		if (read_atomic(r, v, i, &rt->atom[i]))
			return -1;
	return 0;
}

/* ---- order: worst first, then by place, so equal input gives equal output ---- */

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b))

static int cmp_place(const char *fa, long long la, const char *fb, long long lb)
{
	int c = strcmp(fa, fb);

	return c ? c : CMP(la, lb);
}

static int cmp_section(const void *a, const void *b)
{
	const struct hog_rt_section *x = a, *y = b;
	int c = CMP(y->max_ns, x->max_ns);

	if (!c)
		c = CMP(y->total_ns, x->total_ns);
	if (!c)
		c = cmp_place(x->file, x->line, y->file, y->line);
	return c ? c : strcmp(x->lock, y->lock);
}

/* most time first; loops carry no time, so most iterations */
static int cmp_inner(const void *a, const void *b)
{
	const struct hog_rt_inner *x = a, *y = b;
	int c = CMP(y->total_ns, x->total_ns);

	if (!c)
		c = CMP(y->iterations, x->iterations);
	if (!c)
		c = CMP(y->calls, x->calls);
	if (!c)
		c = cmp_place(x->file, x->line, y->file, y->line);
	return c ? c : strcmp(x->name, y->name);
}

static int cmp_atomic(const void *a, const void *b)
{
	const struct hog_rt_atomic *x = a, *y = b;
	int c = CMP(y->per_sec, x->per_sec);

	if (!c)
		c = CMP(y->count, x->count);
	return c ? c : cmp_place(x->file, x->line, y->file, y->line);
}

static void sort_all(struct hog_rt *rt)
{
	int i;

	qsort(rt->sec, rt->nsec, sizeof(*rt->sec), cmp_section);
	for (i = 0; i < rt->nsec; i++)
		qsort(rt->sec[i].inner, rt->sec[i].ninner, sizeof(*rt->sec[i].inner), cmp_inner);
	qsort(rt->atom, rt->natom, sizeof(*rt->atom), cmp_atomic);
}

int hog_rt_looks_like(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len && strchr(" \t\r\n", text[i]))
		i++;
	return i < len && text[i] == '{';
}

struct hog_rt *hog_rt_parse(const char *text, size_t len, const char *name, char **err)
{
	struct hog_rt *rt = hog_xcalloc(1, sizeof(*rt));
	struct rd r = { .name = name };
	json_error_t je;

	rt->name = name;
	rt->root = json_loadb(text, len, 0, &je);
	if (!rt->root) {
		*err = hog_xasprintf("%s: not JSON: %s (line %d, column %d)", name, je.text,
				     je.line, je.column);
		hog_rt_free(rt);
		return NULL;
	}
	if (read_all(&r, rt->root, rt)) {
		*err = r.err;
		hog_rt_free(rt);
		return NULL;
	}
	sort_all(rt);
	return rt;
}

void hog_rt_free(struct hog_rt *rt)
{
	int i;

	if (!rt)
		return;
	for (i = 0; i < rt->nsec; i++) {
		free(rt->sec[i].inner);
		free(rt->sec[i].pred);
	}
	free(rt->sec);
	free(rt->atom);
	free(rt->find);
	json_decref(rt->root);
	json_decref(rt->static_root);
	free(rt);
}

/* ---- numbers for people ---- */

void hog_rt_fmt_count(long long v, char *buf, size_t n)
{
	char digits[32];
	size_t len, i, o = 0;

	len = snprintf(digits, sizeof(digits), "%lld", v);
	for (i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0 && digits[0] != '-')
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = 0;
}

void hog_rt_fmt_ns(long long ns, char *buf, size_t n)
{
	static const struct {
		double div;
		const char *unit;
	} u[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "µs" } };
	size_t i;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		double v = ns / u[i].div;

		if (v < 1)
			continue;
		snprintf(buf, n, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v,
			 u[i].unit);
		return;
	}
	snprintf(buf, n, "%lld ns", ns);
}
