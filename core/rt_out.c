// SPDX-License-Identifier: GPL-2.0
/*
 * Run-time data as text (worst max hold first) and as normalised JSON:
 * every field of the contract in a fixed order, sorted, with the join
 * to the static scan added ("predicted", "not_exercised").  The JSON
 * reads back as run-time data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "report.h"

/* ---- text ---- */

static const char *plural(long long n)
{
	return n == 1 ? "" : "s";
}

static void text_header(const struct hog_rt *rt, struct hog_buf *b)
{
	char dur[32];

	hog_rt_fmt_ns(rt->duration_ns, dur, sizeof(dur));
	hog_buf_printf(b, "lockhog: %s: run-time data from %s (%s), %lld CPU%s, %s, %lld sites\n",
		       rt->name, rt->source, rt->clock, rt->cpus, plural(rt->cpus), dur,
		       rt->sites_total);
	if (rt->ovf_stack || rt->ovf_hold_inner || rt->ovf_pairs || rt->ovf_nmi ||
	    rt->ovf_unmatched)
		hog_buf_printf(b, "lockhog: not measured: %lld stack overflows, %lld inner-site overflows, %lld pair overflows, %lld in NMI, %lld unmatched releases\n",
			       rt->ovf_stack, rt->ovf_hold_inner, rt->ovf_pairs, rt->ovf_nmi,
			       rt->ovf_unmatched);
}

static void text_inner(const struct hog_rt_inner *in, struct hog_buf *b)
{
	char a[32], c[32], t[32], m[32];

	hog_buf_printf(b, "    %s:%lld: %s(): ", in->file, in->line, in->function);
	hog_rt_fmt_count(in->holds_with, c, sizeof(c));
	if (in->is_loop) {
		hog_rt_fmt_count(in->iterations, a, sizeof(a));
		hog_rt_fmt_count(in->iters_max, m, sizeof(m));
		hog_rt_fmt_count(in->runs, t, sizeof(t));
		hog_buf_printf(b, "loop%s%s: %s iterations in %s run%s, %s hold%s (at most %s in one)",
			       in->name[0] ? " calling " : "", in->name, a, t, plural(in->runs), c,
			       plural(in->holds_with), m);
	} else {
		hog_rt_fmt_count(in->calls, a, sizeof(a));
		hog_rt_fmt_ns(in->total_ns, t, sizeof(t));
		hog_rt_fmt_ns(in->max_ns, m, sizeof(m));
		hog_buf_printf(b, "calls %s: %s call%s in %s hold%s (at most %lld in one), %s inside, max %s",
			       in->name, a, plural(in->calls), c, plural(in->holds_with),
			       in->calls_max, t, m);
	}
	if (in->pred)
		hog_buf_printf(b, " [%s, joined by %s]", in->pred->fingerprint, in->by);
	else if (in->fingerprint[0])
		hog_buf_printf(b, " [%s]", in->fingerprint);
	hog_buf_add(b, "\n");
}

static void text_preds(const struct hog_rt *rt, const struct hog_rt_section *s,
		       struct hog_buf *b)
{
	int i;

	if (!rt->static_name)
		return;
	if (!s->npred)
		hog_buf_printf(b, "    not predicted: no static finding for %s() under %s\n",
			       s->function, s->lock);
	for (i = 0; i < s->npred; i++) {
		char *what = hog_rt_pred_what(s->pred[i].f);
		char *meas = hog_rt_pred_measured(s, &s->pred[i]);

		hog_buf_printf(b, "    predicted: %s (%s); %s\n", what, s->pred[i].f->fingerprint,
			       meas);
		free(what);
		free(meas);
	}
}

static void text_section(const struct hog_rt *rt, const struct hog_rt_section *s,
			 struct hog_buf *b)
{
	char h[32], irq[32], mx[32], p99[32], tot[32];
	int i;

	hog_rt_fmt_count(s->holds, h, sizeof(h));
	hog_rt_fmt_count(s->irqs_off_holds, irq, sizeof(irq));
	hog_rt_fmt_ns(s->max_ns, mx, sizeof(mx));
	hog_rt_fmt_ns(s->p99_ns, p99, sizeof(p99));
	hog_rt_fmt_ns(s->total_ns, tot, sizeof(tot));
	hog_buf_printf(b, "%s:%lld: %s(): %s%s%s%s: %s hold%s (%s with IRQs off), max %s, p99 <= %s, total %s\n",
		       s->file, s->line, s->function, s->lock, s->lock_kind[0] ? " (" : "",
		       s->lock_kind, s->lock_kind[0] ? ")" : "", h, plural(s->holds), irq, mx,
		       p99, tot);
	for (i = 0; i < s->ninner; i++)
		text_inner(&s->inner[i], b);
	text_preds(rt, s, b);
}

static void text_atomics(const struct hog_rt *rt, struct hog_buf *b)
{
	char c[32];
	int i;

	for (i = 0; i < rt->natom; i++) {
		const struct hog_rt_atomic *a = &rt->atom[i];

		hog_rt_fmt_count(a->count, c, sizeof(c));
		hog_buf_printf(b, "%s:%lld: %s(): atomic RMWs on %s: %s, %.1f per second", a->file,
			       a->line, a->function, a->name, c, a->per_sec);
		if (a->pred) {
			char *what = hog_rt_pred_what(a->pred);

			hog_buf_printf(b, "; predicted: %s (%s)", what, a->pred->fingerprint);
			free(what);
		}
		hog_buf_add(b, "\n");
	}
}

static int text_unexercised(const struct hog_rt *rt, struct hog_buf *b)
{
	int i, n = 0;

	for (i = 0; i < rt->nfind; i++) {
		const struct hog_rt_finding *f = &rt->find[i];
		char *what;

		if (f->measured)
			continue;
		what = hog_rt_pred_what(f);
		hog_buf_printf(b, "%s:%lld: %s(): not exercised: %s (%s)\n", f->file, f->line,
			       f->function, what, f->fingerprint);
		free(what);
		n++;
	}
	return n;
}

void hog_rt_text(const struct hog_rt *rt, struct hog_buf *b)
{
	int i, ninner = 0, unex;

	text_header(rt, b);
	for (i = 0; i < rt->nsec; i++) {
		text_section(rt, &rt->sec[i], b);
		ninner += rt->sec[i].ninner;
	}
	text_atomics(rt, b);
	unex = text_unexercised(rt, b);
	hog_buf_printf(b, "lockhog: %s: %d section%s, %d inner site%s, %d atomic site%s",
		       rt->name, rt->nsec, plural(rt->nsec), ninner, plural(ninner), rt->natom,
		       plural(rt->natom));
	if (rt->static_name)
		hog_buf_printf(b, "; %d of %d finding%s of %s measured, %d not exercised",
			       rt->nfind - unex, rt->nfind, plural(rt->nfind), rt->static_name,
			       unex);
	hog_buf_add(b, "\n");
}

/* ---- JSON ---- */

static json_t *jwhere(const char *file, long long line, const char *function)
{
	return json_pack("{s:s,s:I,s:s}", "file", file, "line", (json_int_t)line, "function",
			 function);
}

static json_t *jfinding_ref(const struct hog_rt_finding *f, const char *by)
{
	json_t *o = jwhere(f->file, f->line, f->function);

	json_object_set_new(o, "fingerprint", json_string(f->fingerprint));
	json_object_set_new(o, "kind", json_string(f->kind));
	json_object_set_new(o, "callee", json_string(f->callee));
	json_object_set_new(o, "lock", json_string(f->lock));
	json_object_set_new(o, "severity", json_string(f->severity));
	json_object_set_new(o, "message", json_string(f->message));
	if (by)
		json_object_set_new(o, "joined_by", json_string(by));
	return o;
}

static json_t *jinner(const struct hog_rt_inner *in)
{
	json_t *o = json_pack("{s:s,s:s,s:I,s:s,s:s,s:s}", "kind", in->kind, "file", in->file,
			      "line", (json_int_t)in->line, "function", in->function,
			      "name", in->name, "fingerprint", in->fingerprint);

	if (in->is_loop)
		json_object_update_new(o, json_pack("{s:I,s:I,s:I,s:I}", "runs",
						(json_int_t)in->runs, "iterations",
						(json_int_t)in->iterations, "iters_max",
						(json_int_t)in->iters_max, "holds_with",
						(json_int_t)in->holds_with));
	else
		json_object_update_new(o, json_pack("{s:I,s:I,s:I,s:I,s:I}", "calls",
						(json_int_t)in->calls, "holds_with",
						(json_int_t)in->holds_with, "calls_max",
						(json_int_t)in->calls_max, "total_ns",
						(json_int_t)in->total_ns, "max_ns",
						(json_int_t)in->max_ns));
	if (in->pred)
		json_object_set_new(o, "predicted", jfinding_ref(in->pred, in->by));
	return o;
}

static json_t *jpreds(const struct hog_rt_section *s)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < s->npred; i++) {
		json_t *p = jfinding_ref(s->pred[i].f, s->pred[i].by);
		char *m = hog_rt_pred_measured(s, &s->pred[i]);

		json_object_set_new(p, "holds_with", json_integer(s->pred[i].in ?
								 s->pred[i].in->holds_with : 0));
		json_object_set_new(p, "measured", json_string(m));
		json_array_append_new(a, p);
		free(m);
	}
	return a;
}

static json_t *jsection(const struct hog_rt *rt, const struct hog_rt_section *s)
{
	json_t *o = jwhere(s->file, s->line, s->function), *hist = json_array(), *inner;
	int i;

	for (i = 0; i < HOG_RT_HIST; i++)
		json_array_append_new(hist, json_integer(s->hist[i]));
	inner = json_array();
	for (i = 0; i < s->ninner; i++)
		json_array_append_new(inner, jinner(&s->inner[i]));
	json_object_update_new(o, json_pack("{s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:I,s:o,s:o}",
					"lock", s->lock, "lock_kind", s->lock_kind,
					"fingerprint", s->fingerprint,
					"holds", (json_int_t)s->holds,
					"irqs_off_holds", (json_int_t)s->irqs_off_holds,
					"total_ns", (json_int_t)s->total_ns,
					"max_ns", (json_int_t)s->max_ns,
					"p99_ns", (json_int_t)s->p99_ns, "hist", hist,
					"inner", inner));
	if (rt->static_name)
		json_object_set_new(o, "predicted", jpreds(s));
	return o;
}

static json_t *jatomic(const struct hog_rt_atomic *a)
{
	json_t *o = jwhere(a->file, a->line, a->function);

	json_object_update_new(o, json_pack("{s:s,s:s,s:I,s:f}", "name", a->name, "fingerprint",
					a->fingerprint, "count", (json_int_t)a->count, "per_sec",
					a->per_sec));
	if (a->pred)
		json_object_set_new(o, "predicted", jfinding_ref(a->pred, NULL));
	return o;
}

static json_t *jheader(const struct hog_rt *rt)
{
	return json_pack("{s:i,s:s,s:s,s:I,s:I,s:I,s:{s:I,s:I,s:I,s:I,s:I}}",
			 "lockhog_runtime", HOG_RT_VERSION, "source", rt->source,
			 "clock", rt->clock, "duration_ns", (json_int_t)rt->duration_ns,
			 "cpus", (json_int_t)rt->cpus, "sites_total", (json_int_t)rt->sites_total,
			 "overflow", "stack", (json_int_t)rt->ovf_stack,
			 "hold_inner", (json_int_t)rt->ovf_hold_inner,
			 "pairs", (json_int_t)rt->ovf_pairs, "nmi", (json_int_t)rt->ovf_nmi,
			 "unmatched", (json_int_t)rt->ovf_unmatched);
}

int hog_rt_json(const struct hog_rt *rt, struct hog_buf *b, char **err)
{
	json_t *root = jheader(rt), *secs = json_array(), *atoms = json_array();
	int i;

	for (i = 0; i < rt->nsec; i++)
		json_array_append_new(secs, jsection(rt, &rt->sec[i]));
	for (i = 0; i < rt->natom; i++)
		json_array_append_new(atoms, jatomic(&rt->atom[i]));
	json_object_set_new(root, "sections", secs);
	json_object_set_new(root, "atomics", atoms);
	if (rt->static_name) {
		json_t *unex = json_array();

		for (i = 0; i < rt->nfind; i++)
			if (!rt->find[i].measured)
				json_array_append_new(unex, jfinding_ref(&rt->find[i], NULL));
		json_object_set_new(root, "static", json_string(rt->static_name));
		json_object_set_new(root, "not_exercised", unex);
	}
	return hog_json_dump(root, b, err);
}
