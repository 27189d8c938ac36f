// SPDX-License-Identifier: GPL-2.0
/*
 * Rendering findings: gcc-style text for people, JSON and SARIF 2.1.0
 * (built with jansson) for machines and code review.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "report.h"
#include "message.h"
#include "checker.h"
#include "html.h"

int hog_format_parse(const char *s)
{
	if (!strcmp(s, "text"))
		return HOG_FMT_TEXT;
	if (!strcmp(s, "json"))
		return HOG_FMT_JSON;
	if (!strcmp(s, "sarif"))
		return HOG_FMT_SARIF;
	if (!strcmp(s, "html"))
		return HOG_FMT_HTML;
	return -1;
}

static const char *base_name(enum hog_baseline b)
{
	static const char *const n[] = { NULL, "new", "unchanged", "absent", "updated" };

	return b <= HOG_BASE_UPDATED ? n[b] : NULL;
}

/* ---- one spot, one finding ---- */

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * Whether b is reached from the very spot of a, in the same state: the
 * same call or loop of the same holder, the same lock, IRQs the same,
 * the same severity and baseline state.  One change at that spot deals
 * with both, so a reader sees one finding with the other under it.
 */
static int same_spot(const struct hog_report_item *a, const struct hog_report_item *b)
{
	const struct hog_path *p = &a->f->paths[0], *q = &b->f->paths[0];

	return a->state == b->state && a->f->sev == b->f->sev &&
	       p->line == q->line && p->col == q->col && same_str(p->file, q->file) &&
	       same_str(p->holder, q->holder) && same_str(p->lock.name, q->lock.name) &&
	       p->irqs_off == q->irqs_off;
}

/*
 * lead[i]: the first (highest ranked) item at i's spot, i itself when
 * it leads.  Absent findings (a baseline's) are never folded.
 */
int *hog_report_leads(const struct hog_report_item *items, int n)
{
	int *lead = hog_xcalloc(n + 1, sizeof(*lead));
	int i, j;

	for (i = 0; i < n; i++) {
		lead[i] = i;
		if (items[i].state == HOG_BASE_ABSENT)
			continue;
		for (j = 0; j < i; j++)
			if (lead[j] == j && items[j].state != HOG_BASE_ABSENT &&
			    same_spot(&items[j], &items[i])) {
				lead[i] = j;
				break;
			}
	}
	return lead;
}

/* ---- text ---- */

static void text_loc(struct hog_buf *b, const char *file, int line, int col)
{
	if (col > 0)
		hog_buf_printf(b, "%s:%d:%d: ", file ? file : "?", line, col);
	else
		hog_buf_printf(b, "%s:%d: ", file ? file : "?", line);
}

struct text_ctx {
	struct hog_buf *b;
	const struct hog_report_item *it;
};

/* One line of a finding (hog_finding_lines()): its own first, then notes. */
static void text_line(void *ctx, const struct hog_line *l)
{
	struct text_ctx *t = ctx;
	const struct hog_finding *f = t->it->f;

	text_loc(t->b, l->file, l->line, l->col);
	if (l->kind != HOG_LINE_MESSAGE) {
		hog_buf_printf(t->b, "note: %s\n", l->text);
		return;
	}
	hog_buf_printf(t->b, "%s: %s", hog_sev_name(f->sev), l->text);
	if (base_name(t->it->state))
		hog_buf_printf(t->b, " (%s)", base_name(t->it->state));
	hog_buf_add(t->b, "\n");
}

static void text_one(struct hog_buf *b, const struct hog_report_item *it,
		     const struct hog_report_opts *o)
{
	struct text_ctx t = { b, it };

	hog_finding_lines(it->f, o->max_callers, text_line, &t);
	hog_buf_printf(b, "    fingerprint %s\n", it->f->fingerprint);
}

/*
 * A cost shown under the finding it shares a spot with: its message as a
 * note, its chain and why it costs.  The lock, the steps and the callers
 * are the leader's; JSON and SARIF keep them all.
 */
static void text_folded_line(void *ctx, const struct hog_line *l)
{
	struct text_ctx *t = ctx;

	if (l->kind != HOG_LINE_MESSAGE && l->kind != HOG_LINE_CHAIN &&
	    l->kind != HOG_LINE_REASON)
		return;
	text_loc(t->b, l->file, l->line, l->col);
	hog_buf_printf(t->b, "note: %s%s\n", l->kind == HOG_LINE_MESSAGE ? "here also: " : "",
		       l->text);
}

/* A cost shown under the finding from its spot, as hog_report's text shows it. */
void hog_report_text_also(const struct hog_report_item *it, struct hog_buf *b)
{
	struct text_ctx t = { b, it };

	hog_finding_lines(it->f, 1, text_folded_line, &t);
	hog_buf_printf(b, "    fingerprint %s\n", it->f->fingerprint);
}

/* One finding as hog_report's text shows it, for a command with its own header. */
void hog_report_text_item(const struct hog_report_item *it, const struct hog_report_opts *o,
			  struct hog_buf *out)
{
	text_one(out, it, o);
}

/* the functions whose analysis hit a limit: named, at most TEXT_MAX_LIMITED */
#define TEXT_MAX_LIMITED 20

static void text_limited(struct hog_buf *b, const struct hog_report_opts *o)
{
	int i;

	for (i = 0; i < o->nlimited && i < TEXT_MAX_LIMITED; i++) {
		const struct hog_summary *s = o->limited[i];
		char *lim = hog_limit_text(s->limits);

		text_loc(b, s->fn->file, s->fn->line, 0);
		hog_buf_printf(b, "note: analysis of %s() cut short: %s; what goes through it may be incomplete\n",
			       s->fn->name, lim);
		free(lim);
	}
	if (o->nlimited > TEXT_MAX_LIMITED)
		hog_buf_printf(b, "lockhog: note: and %d more functions (lockhog summary --function NAME shows each)\n",
			       o->nlimited - TEXT_MAX_LIMITED);
}

static void render_text(const struct hog_report_item *items, int n,
			const struct hog_report_opts *o, struct hog_buf *b)
{
	int i, j, cnt[3] = { 0 }, shown = 0, hidden = 0, folded = 0;
	int *lead = hog_report_leads(items, n);

	for (i = 0; i < n; i++) {
		const struct hog_finding *f = items[i].f;

		if (items[i].state == HOG_BASE_ABSENT || lead[i] != i)
			continue;
		if (f->sev < o->min_sev) {
			hidden++;
			continue;
		}
		cnt[f->sev]++;
		shown++;
		text_one(b, &items[i], o);
		for (j = i + 1; j < n; j++)
			if (lead[j] == i) {
				hog_report_text_also(&items[j], b);
				folded++;
			}
	}
	free(lead);
	for (i = 0; i < n; i++)
		if (items[i].state == HOG_BASE_ABSENT) {
			const struct hog_finding *f = items[i].f;
			char *msg = hog_finding_message(f, NULL);

			text_loc(b, f->paths[0].file, f->paths[0].line, f->paths[0].col);
			hog_buf_printf(b, "fixed: %s [%s]\n", msg, hog_finding_option(f));
			free(msg);
		}
	text_limited(b, o);
	hog_buf_printf(b, "lockhog: %s: %d finding%s (%d error%s, %d warning%s, %d note%s)",
		       o->scope ? o->scope : "scan", shown, shown == 1 ? "" : "s",
		       cnt[HS_ERROR], cnt[HS_ERROR] == 1 ? "" : "s",
		       cnt[HS_WARNING], cnt[HS_WARNING] == 1 ? "" : "s",
		       cnt[HS_NOTE], cnt[HS_NOTE] == 1 ? "" : "s");
	if (folded)
		hog_buf_printf(b, "; %d more cost%s at the same spots shown under them", folded,
			       folded == 1 ? "" : "s");
	if (hidden)
		hog_buf_printf(b, "; %d below %s not shown (--all shows them)", hidden,
			       hog_sev_name(o->min_sev));
	if (o->nlimited)
		hog_buf_printf(b, "; %d function%s cut short by analysis limits", o->nlimited,
			       o->nlimited == 1 ? "" : "s");
	hog_buf_add(b, "\n");
}

/* ---- JSON ---- */

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *steps_json(const struct hog_path *p)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < p->nchain; i++) {
		const struct hog_step *s = &p->chain[i];

		json_array_append_new(a, json_pack("{s:o,s:o,s:i,s:i}", "function", jstr(s->func),
						   "file", jstr(s->file), "line", s->line,
						   "col", s->col));
	}
	return a;
}

static json_t *chain_json(const struct hog_finding *f, const struct hog_path *p)
{
	const char *names[64];
	int n = hog_path_names(f, p, names, 64), i;
	json_t *a = json_array();

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(names[i]));
	return a;
}

static json_t *limits_json(unsigned mask)
{
	char *t = hog_limit_text(mask);
	json_t *j = json_string(t);

	free(t);
	return j;
}

/* A callback's context (rules: context): what it is, where it is registered. */
static void context_json(json_t *o, const struct hog_path *p)
{
	const struct hog_step *r = &p->lock.reg;

	if (!r->func)
		return;
	json_object_set_new(o, "context",
			    json_pack("{s:o,s:s,s:{s:o,s:o,s:i,s:i}}", "what", jstr(p->lock.name),
				      "irq", p->lock.kind ? p->lock.kind : "",
				      "registered", p->lock.reg_var ? "variable" : "function",
				      jstr(r->func), "file", jstr(r->file),
				      "line", r->line, "col", r->col));
}

/* What one way says beyond its chain: cut short, held on entry, cold, unbuilt, a release, its context. */
static void way_json(json_t *o, const struct hog_path *p)
{
	if (p->limits)
		json_object_set_new(o, "incomplete", limits_json(p->limits));
	if (p->lock.entry)
		json_object_set_new(o, "held_on_entry", json_true());
	if (p->cold)
		json_object_set_new(o, "cold", json_string(p->cold));
	if (p->unbuilt)
		json_object_set_new(o, "unbuilt", json_string(p->unbuilt));
	if (p->lastput)
		json_object_set_new(o, "last_put", json_string(p->lastput));
	context_json(o, p);
}

static json_t *path_json(const struct hog_finding *f, const struct hog_path *p)
{
	json_t *o = json_pack("{s:o,s:o,s:i,s:i,s:o,s:o,s:o,s:b,s:o,s:s}",
			      "function", jstr(p->holder), "file", jstr(p->file),
			      "line", p->line, "col", p->col,
			      "lock", jstr(p->lock.name), "lock_class", jstr(p->lock.cls),
			      "chain", chain_json(f, p), "irqs_off", p->irqs_off,
			      "steps", steps_json(p), "fingerprint", p->fingerprint);

	way_json(o, p);
	return o;
}

static json_t *finding_json(const struct hog_report_item *it, const struct hog_report_item *lead)
{
	const struct hog_finding *f = it->f;
	const struct hog_path *p = &f->paths[0];
	char *msg = hog_finding_message(f, p);
	json_t *o, *callers = json_array();
	int i;

	for (i = 1; i < f->npaths; i++)
		json_array_append_new(callers, path_json(f, &f->paths[i]));
	o = json_pack("{s:o,s:i,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:s,s:i,s:s,s:o,s:o,s:b}",
		      "file", jstr(p->file), "line", p->line, "col", p->col,
		      "function", jstr(p->holder), "lock", jstr(p->lock.name),
		      "lock_class", jstr(p->lock.cls), "lock_kind", jstr(p->lock.kind),
		      "kind", jstr(hog_kind_name(f->kind)), "class", jstr(f->cls),
		      "callee", jstr(f->callee), "irqs_off", f->irqs_off,
		      "severity", hog_sev_name(f->sev), "score", f->score,
		      "fingerprint", f->fingerprint, "message", jstr(msg),
		      "reason", jstr(f->reason), "listed", f->listed);
	json_object_set_new(o, "chain", chain_json(f, p));
	json_object_set_new(o, "steps", steps_json(p));
	json_object_set_new(o, "site", json_pack("{s:o,s:o,s:i,s:i}",
						 "function", jstr(f->site_func),
						 "file", jstr(f->site_file),
						 "line", f->site_line, "col", f->site_col));
	json_object_set_new(o, "callers", callers);
	if (base_name(it->state))
		json_object_set_new(o, "baseline", json_string(base_name(it->state)));
	if (f->demoted)
		json_object_set_new(o, "demoted", json_string(f->demoted));
	if (lead != it)
		json_object_set_new(o, "same_spot_as", json_string(lead->f->fingerprint));
	if (p->lock.maybe_rel)
		json_object_set_new(o, "maybe_released", json_string(p->lock.maybe_rel));
	/* like every top-level field, of the primary way; callers carry their own */
	way_json(o, p);
	free(msg);
	return o;
}

/* Writes root into b, indented, in insertion order; takes the reference. */
int hog_json_dump(json_t *root, struct hog_buf *b, char **err)
{
	char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

	json_decref(root);
	if (!s) {
		*err = hog_xstrdup("cannot encode JSON");
		return -1;
	}
	hog_buf_add(b, s);
	hog_buf_add(b, "\n");
	free(s);
	return 0;
}

static int render_json(const struct hog_report_item *items, int n, struct hog_buf *b,
		       char **err)
{
	json_t *a = json_array();
	int *lead = hog_report_leads(items, n), i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, finding_json(&items[i], &items[lead[i]]));
	free(lead);
	return hog_json_dump(a, b, err);
}

/* ---- HTML: the findings text would show, as JSON, on one page ---- */

static void render_html(const struct hog_report_item *items, int n,
			const struct hog_report_opts *o, struct hog_buf *b)
{
	struct hog_html_scan s = {
		.findings = json_array(), .scope = o->scope, .version = o->tool_version,
		.hidden_below = hog_sev_name(o->min_sev), .nlimited = o->nlimited,
	};
	int *lead = hog_report_leads(items, n), i;

	for (i = 0; i < n; i++) {
		if (items[i].state != HOG_BASE_ABSENT && items[i].f->sev < o->min_sev) {
			s.hidden += lead[i] == i;
			continue;
		}
		json_array_append_new(s.findings, finding_json(&items[i], &items[lead[i]]));
	}
	free(lead);
	hog_html_scan(&s, b);
	json_decref(s.findings);
}

/* ---- SARIF 2.1.0 ---- */

static const struct {
	const char *id, *name, *text, *level;
} sarif_rules[] = {
	{ "lockhog-call", "CostlyCallUnderLock",
	  "A costly call (hierarchical atomic charge, refcount release, whole-tree flush) runs while a lock is held or IRQs are off.",
	  "warning" },
	{ "lockhog-loop", "UnboundedLoopUnderLock",
	  "A loop with a data-dependent trip count calling non-trivial functions runs while a lock is held, with no lock break.",
	  "warning" },
	{ "lockhog-sleep", "SleepUnderLock",
	  "A call that may sleep runs while a spinning lock is held, IRQs are off or preemption is off.",
	  "error" },
	{ "lockhog-atomic", "GlobalAtomicUnderLock",
	  "An atomic read-modify-write on a single global cache line runs while a lock is held or IRQs are off.",
	  "note" },
};

static const char *sarif_level(enum hog_sev s)
{
	return s == HS_ERROR ? "error" : s == HS_WARNING ? "warning" : "note";
}

static json_t *sarif_loc(const char *file, int line, int col, const char *msg)
{
	json_t *region = json_pack("{s:i}", "startLine", line > 0 ? line : 1);
	json_t *l;

	if (col > 0)
		json_object_set_new(region, "startColumn", json_integer(col));
	l = json_pack("{s:{s:{s:s,s:s},s:o}}", "physicalLocation", "artifactLocation",
		      "uri", file ? file : "unknown", "uriBaseId", "SRCROOT", "region", region);
	if (msg)
		json_object_set_new(l, "message", json_pack("{s:s}", "text", msg));
	return l;
}

static json_t *sarif_flow(const struct hog_finding *f, const struct hog_path *p)
{
	json_t *locs = json_array();
	int i;

	for (i = 0; i < p->nchain; i++) {
		const struct hog_step *s = &p->chain[i];
		char *m;

		if (i + 1 < p->nchain)
			m = hog_xasprintf("%s() calls %s()", s->func, p->chain[i + 1].func);
		else if (hog_kind_at_site(f->kind))
			m = hog_xasprintf("%s() loops here", s->func);
		else
			m = hog_xasprintf("%s() calls %s()", s->func, f->callee ? f->callee : "?");
		json_array_append_new(locs, json_pack("{s:o,s:i}", "location",
						      sarif_loc(s->file, s->line, s->col, m),
						      "nestingLevel", i));
		free(m);
	}
	return json_pack("{s:[{s:o}]}", "threadFlows", "locations", locs);
}

static json_t *sarif_result(const struct hog_report_item *it, const struct hog_report_item *lead)
{
	const struct hog_finding *f = it->f;
	const struct hog_path *p = &f->paths[0];
	char *msg = hog_finding_message(f, p), *chain = hog_path_text(f, p);
	char *text = hog_xasprintf("%s. %s: %s. Chain: %s.", msg,
				   f->callee ? f->callee : f->site_func,
				   f->reason ? f->reason : f->cls, chain);
	const char *opt = hog_finding_option(f) + 2;	/* "lockhog-call" */
	json_t *r, *flows = json_array(), *related = json_array(), *props;
	int i, ruleidx = 0;

	for (i = 0; i < (int)(sizeof(sarif_rules) / sizeof(sarif_rules[0])); i++)
		if (!strcmp(sarif_rules[i].id, opt))
			ruleidx = i;
	json_array_append_new(flows, sarif_flow(f, p));
	json_array_append_new(related, sarif_loc(f->site_file, f->site_line, f->site_col,
						 "the costly site"));
	for (i = 1; i < f->npaths; i++) {
		char *c = hog_path_text(f, &f->paths[i]);
		char *m = hog_xasprintf("also reached from %s()%s: %s", f->paths[i].holder,
					f->paths[i].unbuilt ? ", which nothing in this build calls" : "", c);

		json_array_append_new(related, sarif_loc(f->paths[i].file, f->paths[i].line,
							 f->paths[i].col, m));
		json_array_append_new(flows, sarif_flow(f, &f->paths[i]));
		free(c);
		free(m);
	}
	for (i = 0; i < json_array_size(related); i++)
		json_object_set_new(json_array_get(related, i), "id", json_integer(i));
	props = json_pack("{s:o,s:o,s:s,s:o,s:b,s:i}", "lock", jstr(p->lock.name),
			  "lockClass", jstr(p->lock.cls), "kind", hog_kind_name(f->kind),
			  "chain", chain_json(f, p), "irqsOff", f->irqs_off, "score", f->score);
	r = json_pack("{s:s,s:i,s:s,s:{s:s},s:[o],s:o,s:o,s:{s:s},s:o}",
		      "ruleId", sarif_rules[ruleidx].id, "ruleIndex", ruleidx,
		      "level", sarif_level(f->sev), "message", "text", text,
		      "locations", sarif_loc(p->file, p->line, p->col, NULL),
		      "codeFlows", flows, "relatedLocations", related,
		      "partialFingerprints", "lockhogFingerprint/v1", f->fingerprint,
		      "properties", props);
	if (base_name(it->state))
		json_object_set_new(r, "baselineState", json_string(base_name(it->state)));
	if (f->limits)
		json_object_set_new(props, "incomplete", limits_json(f->limits));
	if (lead != it)
		json_object_set_new(props, "sameSpotAs", json_string(lead->f->fingerprint));
	free(msg);
	free(chain);
	free(text);
	return r;
}

/* The analysis limits hit, as notifications of the tool's own run. */
static json_t *sarif_invocation(const struct hog_report_opts *o)
{
	json_t *notes = json_array();
	int i;

	for (i = 0; i < o->nlimited; i++) {
		const struct hog_summary *s = o->limited[i];
		char *lim = hog_limit_text(s->limits);
		char *m = hog_xasprintf("analysis of %s() cut short: %s; what goes through it may be incomplete",
					s->fn->name, lim);

		json_array_append_new(notes, json_pack("{s:s,s:{s:s},s:[o]}", "level", "note",
						       "message", "text", m, "locations",
						       sarif_loc(s->fn->file, s->fn->line, 0, NULL)));
		free(m);
		free(lim);
	}
	return json_pack("[{s:b,s:o}]", "executionSuccessful", 1,
			 "toolExecutionNotifications", notes);
}

static int render_sarif(const struct hog_report_item *items, int n,
			const struct hog_report_opts *o, struct hog_buf *b, char **err)
{
	json_t *rules = json_array(), *results = json_array(), *run, *root;
	char *root_uri;
	int i, *lead;

	for (i = 0; i < (int)(sizeof(sarif_rules) / sizeof(sarif_rules[0])); i++)
		json_array_append_new(rules, json_pack(
			"{s:s,s:s,s:{s:s},s:{s:s},s:{s:s}}",
			"id", sarif_rules[i].id, "name", sarif_rules[i].name,
			"shortDescription", "text", sarif_rules[i].text,
			"fullDescription", "text", sarif_rules[i].text,
			"defaultConfiguration", "level", sarif_rules[i].level));
	lead = hog_report_leads(items, n);
	for (i = 0; i < n; i++)
		json_array_append_new(results, sarif_result(&items[i], &items[lead[i]]));
	free(lead);
	run = json_pack("{s:{s:{s:s,s:s,s:o}},s:o}",
			"tool", "driver", "name", "lockhog",
			"version", o->tool_version ? o->tool_version : "0",
			"rules", rules, "results", results);
	if (o->srcroot) {
		size_t l = strlen(o->srcroot);

		root_uri = hog_xasprintf("file://%s%s", o->srcroot,
					 l && o->srcroot[l - 1] == '/' ? "" : "/");
		json_object_set_new(run, "originalUriBaseIds",
				    json_pack("{s:{s:s}}", "SRCROOT", "uri", root_uri));
		free(root_uri);
	}
	json_object_set_new(run, "columnKind", json_string("utf16CodeUnits"));
	json_object_set_new(run, "invocations", sarif_invocation(o));
	root = json_pack("{s:s,s:s,s:[o]}",
			 "$schema", "https://json.schemastore.org/sarif-2.1.0.json",
			 "version", "2.1.0", "runs", run);
	return hog_json_dump(root, b, err);
}

int hog_report(const struct hog_report_item *items, int n,
	       const struct hog_report_opts *o, enum hog_format fmt,
	       struct hog_buf *out, char **err)
{
	switch (fmt) {
	case HOG_FMT_TEXT:
		render_text(items, n, o, out);
		return 0;
	case HOG_FMT_JSON:
		return render_json(items, n, out, err);
	case HOG_FMT_SARIF:
		return render_sarif(items, n, o, out, err);
	case HOG_FMT_HTML:
		render_html(items, n, o, out);
		return 0;
	}
	*err = hog_xstrdup("unknown format");
	return -1;
}
