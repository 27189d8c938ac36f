// SPDX-License-Identifier: GPL-2.0
/*
 * The join of run-time data with the static scan that predicted it
 * (docs/runtime.md).  An inner site or an atomic joins the finding
 * whose fingerprint it carries (the finding's own or one of its
 * callers' ways); without one, the finding with a step of a chain at
 * the site's (function, file, line).  A section joins every finding
 * held by its function under its lock, on the primary way or a caller's,
 * but for atomic findings, which the atomic sites measure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

static const char *jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/*
 * The same file: equal, or one a path suffix of the other at a '/'
 * ("mm/memcontrol.c" and "/usr/src/linux/mm/memcontrol.c"), as the
 * compiler may have been given either.
 */
static int same_file(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la < lb) {
		const char *t = a;

		a = b;
		b = t;
		la = lb;
		lb = strlen(b);
	}
	return lb && !strcmp(a + la - lb, b) && (la == lb || a[la - lb - 1] == '/');
}

static int step_at(json_t *st, const char *function, const char *file, long long line)
{
	return !strcmp(jstr(st, "function"), function) && same_file(jstr(st, "file"), file) &&
	       json_integer_value(json_object_get(st, "line")) == line;
}

static int steps_have(json_t *way, const char *function, const char *file, long long line)
{
	json_t *st;
	size_t i;

	json_array_foreach(json_object_get(way, "steps"), i, st)
		if (step_at(st, function, file, line))
			return 1;
	return 0;
}

/* Each way of a finding: its primary way (the finding itself), then its callers'. */
#define for_each_way(fj, i, way)						\
	for ((i) = 0, (way) = (fj); (way);					\
	     (way) = json_array_get(json_object_get((fj), "callers"), (i)++))

static int holds(const struct hog_rt_finding *f, const char *function, const char *lock)
{
	json_t *way;
	size_t i;

	for_each_way(f->j, i, way)
		if (!strcmp(jstr(way, "function"), function) && !strcmp(jstr(way, "lock"), lock))
			return 1;
	return 0;
}

static int has_fingerprint(const struct hog_rt_finding *f, const char *fp)
{
	json_t *way;
	size_t i;

	for_each_way(f->j, i, way)
		if (!strcmp(jstr(way, "fingerprint"), fp))
			return 1;
	return 0;
}

/* A step of f's at the site; with s, only on a way held by s's function under s's lock. */
static int site_on(const struct hog_rt_finding *f, const char *function, const char *file,
		   long long line, const struct hog_rt_section *s)
{
	json_t *way;
	size_t i;

	for_each_way(f->j, i, way) {
		if (s && (strcmp(jstr(way, "function"), s->function) ||
			  strcmp(jstr(way, "lock"), s->lock)))
			continue;
		if (steps_have(way, function, file, line))
			return 1;
	}
	return 0;
}

/* Loops join loop findings; calls and atomics join the others of their kind. */
static int kind_fits(const struct hog_rt_finding *f, const char *kind)
{
	int loop = !strcmp(f->kind, "loop"), atomic = !strcmp(f->kind, "atomic");

	if (!strcmp(kind, "loop"))
		return loop;
	if (!strcmp(kind, "atomic"))
		return atomic;
	return !loop && !atomic;
}

/*
 * The finding an inner site or atomic measured: by fingerprint, else by
 * site (a way held as s is held first, when s is given).
 */
static struct hog_rt_finding *find(struct hog_rt *rt, const char *kind, const char *fp,
				   const char *function, const char *file, long long line,
				   const struct hog_rt_section *s, const char **by)
{
	int i, pass;

	if (fp[0]) {
		for (i = 0; i < rt->nfind; i++)
			if (has_fingerprint(&rt->find[i], fp)) {
				*by = "fingerprint";
				return &rt->find[i];
			}
	}
	for (pass = s ? 0 : 1; pass < 2; pass++)
		for (i = 0; i < rt->nfind; i++)
			if (kind_fits(&rt->find[i], kind) &&
			    site_on(&rt->find[i], function, file, line, pass ? NULL : s)) {
				*by = "site";
				return &rt->find[i];
			}
	return NULL;
}

/* Of the inner sites that measured f, the one at its costly site, else the busiest. */
static const struct hog_rt_inner *best_inner(const struct hog_rt_section *s,
					     const struct hog_rt_finding *f)
{
	json_t *site = json_object_get(f->j, "site");
	const struct hog_rt_inner *best = NULL;
	int i;

	for (i = 0; i < s->ninner; i++) {
		const struct hog_rt_inner *in = &s->inner[i];

		if (in->pred != f)
			continue;
		if (site && step_at(site, in->function, in->file, in->line))
			return in;
		if (!best || in->holds_with > best->holds_with)
			best = in;
	}
	return best;
}

static void add_pred(struct hog_rt_section *s, struct hog_rt_finding *f)
{
	const struct hog_rt_inner *in = best_inner(s, f);
	int i;

	for (i = 0; i < s->npred; i++)
		if (s->pred[i].f == f)
			return;
	s->pred = hog_xrealloc(s->pred, (s->npred + 1) * sizeof(*s->pred));
	s->pred[s->npred].f = f;
	s->pred[s->npred].in = in;
	s->pred[s->npred].by = in ? in->by : "section";
	s->npred++;
	f->measured = 1;
}

static void join_section(struct hog_rt *rt, struct hog_rt_section *s)
{
	int i;

	for (i = 0; i < s->ninner; i++) {
		struct hog_rt_inner *in = &s->inner[i];

		in->pred = find(rt, in->kind, in->fingerprint, in->function, in->file, in->line,
				s, &in->by);
	}
	/*
	 * In the scan's order: the worst finding first.  An atomic finding
	 * is measured by the atomic sites, not inside sections (the runtime
	 * counts atomics per site), so it never joins a section.
	 */
	for (i = 0; i < rt->nfind; i++) {
		struct hog_rt_finding *f = &rt->find[i];
		int j, measured = strcmp(f->kind, "atomic") && holds(f, s->function, s->lock);

		for (j = 0; j < s->ninner && !measured; j++)
			measured = s->inner[j].pred == f;
		if (measured)
			add_pred(s, f);
	}
}

/* One finding of the scan: the fields the join and the page use. */
static int read_finding(json_t *o, size_t i, struct hog_rt_finding *f, const char *name,
			char **err)
{
	static const char *const need[] = { "fingerprint", "function", "file", "kind" };
	size_t k;

	if (!json_is_object(o)) {
		*err = hog_xasprintf("%s: finding %zu is not an object", name, i);
		return -1;
	}
	for (k = 0; k < sizeof(need) / sizeof(need[0]); k++)
		if (!json_is_string(json_object_get(o, need[k]))) {
			*err = hog_xasprintf("%s: finding %zu: no \"%s\" string", name, i,
					     need[k]);
			return -1;
		}
	if (!json_is_array(json_object_get(o, "steps"))) {
		*err = hog_xasprintf("%s: finding %zu: no \"steps\" array", name, i);
		return -1;
	}
	f->j = o;
	f->fingerprint = jstr(o, "fingerprint");
	f->function = jstr(o, "function");
	f->file = jstr(o, "file");
	f->kind = jstr(o, "kind");
	f->lock = jstr(o, "lock");	/* null for a stretch with IRQs off and no lock */
	f->callee = jstr(o, "callee");
	f->severity = jstr(o, "severity");
	f->message = jstr(o, "message");
	f->line = json_integer_value(json_object_get(o, "line"));
	return 0;
}

static int read_scan(struct hog_rt *rt, const char *text, size_t len, const char *name,
		     char **err)
{
	json_error_t je;
	json_t *v;
	size_t i;

	rt->static_root = json_loadb(text, len, 0, &je);
	if (!rt->static_root) {
		*err = hog_xasprintf("%s: not JSON: %s (line %d, column %d)", name, je.text,
				     je.line, je.column);
		return -1;
	}
	if (!json_is_array(rt->static_root)) {
		*err = hog_xasprintf("%s: not a static scan (a lockhog scan --format json report is an array of findings)",
				     name);
		return -1;
	}
	rt->nfind = json_array_size(rt->static_root);
	rt->find = hog_xcalloc(rt->nfind + 1, sizeof(*rt->find));
	json_array_foreach(rt->static_root, i, v)
		if (read_finding(v, i, &rt->find[i], name, err))
			return -1;
	rt->static_name = name;
	return 0;
}

int hog_rt_join(struct hog_rt *rt, const char *text, size_t len, const char *name,
		char **err)
{
	int i;

	if (read_scan(rt, text, len, name, err))
		return -1;
	for (i = 0; i < rt->nsec; i++)
		join_section(rt, &rt->sec[i]);
	for (i = 0; i < rt->natom; i++) {
		struct hog_rt_atomic *a = &rt->atom[i];
		const char *by;
		struct hog_rt_finding *f = find(rt, "atomic", a->fingerprint, a->function,
						a->file, a->line, NULL, &by);

		a->pred = f;
		if (f)
			f->measured = 1;
	}
	return 0;
}

/* ---- the predicted-vs-measured line ---- */

char *hog_rt_pred_what(const struct hog_rt_finding *f)
{
	const char *lock = f->lock[0] ? f->lock : "IRQs off";

	if (!strcmp(f->kind, "loop"))
		return hog_xasprintf("loop in %s() calling %s under %s", f->function,
				     f->callee[0] ? f->callee : "?", lock);
	return hog_xasprintf("%s under %s", f->callee[0] ? f->callee : f->function, lock);
}

char *hog_rt_pred_measured(const struct hog_rt_section *s, const struct hog_rt_pred *p)
{
	const struct hog_rt_inner *in = p->in;
	char holds[32], with[32], max[32], most[32];
	const char *what = in ? in->name : p->f->callee;

	hog_rt_fmt_count(s->holds, holds, sizeof(holds));
	hog_rt_fmt_ns(s->max_ns, max, sizeof(max));
	if (!in)
		return hog_xasprintf("measured: %s hold%s, none with %s inside, max %s", holds,
				     s->holds == 1 ? "" : "s",
				     strcmp(p->f->kind, "loop") ? what : "the loop", max);
	hog_rt_fmt_count(in->holds_with, with, sizeof(with));
	if (!in->is_loop)
		return hog_xasprintf("measured: %s hold%s, %s with %s inside, max %s", holds,
				     s->holds == 1 ? "" : "s", with, what[0] ? what : "the call",
				     max);
	hog_rt_fmt_count(in->iters_max, most, sizeof(most));
	return hog_xasprintf("measured: %s hold%s, %s with the loop run, at most %s iterations in one, max %s",
			     holds, s->holds == 1 ? "" : "s", with, most, max);
}
