// SPDX-License-Identifier: GPL-2.0
/*
 * Two analyses compared: findings by fingerprint, the ways to them by
 * path fingerprint.  A way on one side only is the change's doing only
 * when it goes through changed code and is not explained by the work
 * having moved, or by the other side's summaries having been cut.
 */
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "checker.h"

void hog_changed_functions(const struct hog_module *m, const struct hog_vec *files,
			   struct hog_vec *changed)
{
	int j;

	for (j = 0; m && j < m->nfuncs; j++)
		if (hog_vec_has_str(files, m->funcs[j]->file) && !hog_vec_has_str(changed, m->funcs[j]->name))
			hog_vec_push(changed, hog_xstrdup(m->funcs[j]->name));
}

static const struct hog_finding *find_fp(const struct hog_prog *p, const char *fp)
{
	int i, n = hog_prog_nfindings(p);

	for (i = 0; i < n; i++)
		if (!strcmp(hog_prog_finding(p, i)->fingerprint, fp))
			return hog_prog_finding(p, i);
	return NULL;
}

/*
 * How a finding compares with the other side: 0 not there at all,
 * else 1; the indices of this finding's paths the other side lacks go
 * into missing (a new holder reaching an old site is a new problem).
 */
static int finding_known(const struct hog_finding *f, const struct hog_prog *other,
			 int *missing, int *nmissing)
{
	const struct hog_finding *g = find_fp(other, f->fingerprint);
	int j, k;

	*nmissing = 0;
	for (k = 0; k < f->npaths; k++) {
		int seen = 0;

		for (j = 0; g && j < g->npaths && !seen; j++)
			seen = !strcmp(g->paths[j].fingerprint, f->paths[k].fingerprint);
		if (!seen)
			missing[(*nmissing)++] = k;
	}
	return g != NULL;
}

static int path_touches(const struct hog_path *p, const struct hog_vec *changed)
{
	int i;

	if (!changed)
		return 1;
	for (i = 0; i < p->nchain; i++)
		if (hog_vec_has_str(changed, p->chain[i].func))
			return 1;
	return 0;
}

static int str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * The same cost: kind and class, and the callee (a loop: the looping
 * function).  Compared as text: the two programs may not share a
 * string table.
 */
static int same_cost(const struct hog_finding *f, const struct hog_finding *g)
{
	if (g->kind != f->kind || !str_eq(g->cls, f->cls))
		return 0;
	if (hog_kind_at_site(f->kind))
		return !strcmp(g->site_func, f->site_func);
	return g->callee && f->callee && !strcmp(g->callee, f->callee);
}

/*
 * Did the other side have this holder doing the same costly thing,
 * maybe at another site?  A fix that moves the work out of one lock
 * into a new helper still under an outer lock leaves that as it was:
 * the way moved, it is neither new nor fixed.
 */
static int holder_had(const struct hog_finding *f, const struct hog_path *p,
		      const struct hog_prog *other)
{
	int i, k, n = hog_prog_nfindings(other);

	for (i = 0; i < n; i++) {
		const struct hog_finding *g = hog_prog_finding(other, i);

		if (!same_cost(f, g))
			continue;
		for (k = 0; k < g->npaths; k++)
			if (!strcmp(g->paths[k].holder, p->holder))
				return 1;
	}
	return 0;
}

/*
 * Did the other side drop costs from the summary of a function on this
 * way?  Then it may have had the way and cut it: not a difference the
 * change made.
 */
static int cut_short(const struct hog_path *p, const struct hog_prog *other)
{
	int i;

	for (i = 0; i < p->nchain; i++)
		if (hog_prog_limits(other, p->chain[i].func) & HOG_LIMIT_COSTS)
			return 1;
	return 0;
}

/* Keeps only the missing paths that pass through changed code and are really gone. */
static int filter_paths(const struct hog_finding *f, int *miss, int n,
			const struct hog_vec *changed, const struct hog_prog *other)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (path_touches(&f->paths[miss[i]], changed) &&
		    !holder_had(f, &f->paths[miss[i]], other) &&
		    !cut_short(&f->paths[miss[i]], other))
			miss[k++] = miss[i];
	return k;
}

/* A finding seen through one of its paths, owned by the diff. */
static const struct hog_finding *with_path(struct hog_diff *d, const struct hog_finding *f,
					   int k)
{
	struct hog_finding *c = hog_xmalloc(sizeof(*c));

	*c = *f;
	c->paths = &f->paths[k];
	c->npaths = 1;
	hog_vec_push(&d->owned, c);
	return c;
}

/* The arrays grow one at a time: a diff holds a few findings. */
static void push_item(struct hog_report_item **v, int *n, const struct hog_finding *f,
		      enum hog_baseline st)
{
	*v = hog_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].f = f;
	(*v)[(*n)++].state = st;
}

/* One finding after the change: new, a new way into an old one, or unchanged. */
static void head_finding(struct hog_diff *d, const struct hog_finding *f,
			 const struct hog_prog *base, const struct hog_compare_opts *o)
{
	int *miss = hog_xcalloc(f->npaths + 1, sizeof(int)), nmiss, k;
	int known = finding_known(f, base, miss, &nmiss);

	nmiss = filter_paths(f, miss, nmiss, o->changed, base);
	/* appeared without the changed code on any way to it, or accepted earlier */
	if ((!known && !nmiss) || hog_baseline_accepts(o->accepted, f))
		goto out;
	if (known && !nmiss) {
		push_item(&d->items, &d->nitems, f, HOG_BASE_UNCHANGED);
		d->nunchanged++;
		goto out;
	}
	push_item(&d->items, &d->nitems, f, HOG_BASE_NEW);
	d->nnew[f->sev]++;
	if ((int)f->sev > d->worst)
		d->worst = f->sev;
	/* show the new way in, not an old one */
	for (k = 0; known && k < nmiss; k++)
		push_item(&d->fresh, &d->nfresh, with_path(d, f, miss[k]), HOG_BASE_NEW);
	if (!known)
		push_item(&d->fresh, &d->nfresh, f, HOG_BASE_NEW);
out:
	free(miss);
}

/* Head's unchanged item for fingerprint fp becomes updated: a way to it went. */
static void mark_updated(struct hog_diff *d, const char *fp)
{
	int k;

	for (k = 0; k < d->nitems; k++)
		if (!strcmp(d->items[k].f->fingerprint, fp) &&
		    d->items[k].state == HOG_BASE_UNCHANGED) {
			d->items[k].state = HOG_BASE_UPDATED;
			d->nunchanged--;
		}
}

/* One finding before the change: gone, lost a way, or still there. */
static void base_finding(struct hog_diff *d, const struct hog_finding *f,
			 const struct hog_prog *head, const struct hog_compare_opts *o)
{
	int *miss = hog_xcalloc(f->npaths + 1, sizeof(int)), nmiss, k;
	int known = finding_known(f, head, miss, &nmiss);

	nmiss = filter_paths(f, miss, nmiss, o->changed, head);
	if (!known && nmiss) {
		push_item(&d->items, &d->nitems, f, HOG_BASE_ABSENT);
		push_item(&d->gone, &d->ngone, f, HOG_BASE_ABSENT);
		d->nfixed++;
	} else if (known && nmiss) {
		for (k = 0; k < nmiss; k++)
			push_item(&d->gone, &d->ngone, with_path(d, f, miss[k]),
				  HOG_BASE_UPDATED);
		d->nfixed++;
		mark_updated(d, f->fingerprint);
	}
	free(miss);
}

struct hog_diff *hog_compare(const struct hog_prog *base, const struct hog_prog *head,
			     const struct hog_compare_opts *o)
{
	static const struct hog_compare_opts none;
	struct hog_diff *d = hog_xcalloc(1, sizeof(*d));
	int i;

	if (!o)
		o = &none;
	d->worst = -1;
	for (i = 0; i < hog_prog_nfindings(head); i++)
		head_finding(d, hog_prog_finding(head, i), base, o);
	for (i = 0; i < hog_prog_nfindings(base); i++)
		base_finding(d, hog_prog_finding(base, i), head, o);
	return d;
}

void hog_diff_free(struct hog_diff *d)
{
	int i;

	if (!d)
		return;
	for (i = 0; i < d->owned.n; i++)
		free(d->owned.v[i]);
	hog_vec_free(&d->owned);
	free(d->items);
	free(d->fresh);
	free(d->gone);
	free(d);
}
