// SPDX-License-Identifier: GPL-2.0
/*
 * The words of a finding, shared by the plugin's diagnostics and the
 * lockhog command so that both say the same thing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "message.h"
#include "checker.h"

const char *hog_finding_option(const struct hog_finding *f)
{
	static char opt[HOG_MAX_KINDS][48];
	const struct hog_checker *c = hog_checker(f->kind);

	if (!c)
		return "-Wlockhog";
	if (!opt[f->kind][0])
		snprintf(opt[f->kind], sizeof(opt[0]), "-Wlockhog-%s", c->name);
	return opt[f->kind];
}

static void context(struct hog_buf *b, const struct hog_path *p)
{
	const char *k = p->lock.kind ? p->lock.kind : "";

	if (!strcmp(k, "irq")) {
		hog_buf_add(b, "with IRQs off");
		return;
	}
	if (!strcmp(k, "preempt")) {
		hog_buf_add(b, "with preemption off");
		return;
	}
	if (p->lock.reg.func) {
		/* a callback's context (rules: context), not a lock */
		hog_buf_printf(b, "in %s", p->lock.name);
		return;
	}
	hog_buf_printf(b, "with %s held", p->lock.name ? p->lock.name : "a lock");
	if (p->irqs_off)
		hog_buf_add(b, " and IRQs off");
}

char *hog_finding_message(const struct hog_finding *f, const struct hog_path *p)
{
	struct hog_buf b = { 0 };
	if (!p)
		p = &f->paths[0];
	if (hog_checker(f->kind))
		hog_checker(f->kind)->message(&b, f, p);
	context(&b, p);
	if (f->batched)
		hog_buf_add(&b, " (once per per-CPU batch)");
	return b.s;
}

char *hog_path_text(const struct hog_finding *f, const struct hog_path *p)
{
	struct hog_buf b = { 0 };
	const char *names[64];
	int n = hog_path_names(f, p, names, 64), i;

	for (i = 0; i < n; i++) {
		if (i)
			hog_buf_add(&b, " -> ");
		hog_buf_add(&b, names[i]);
	}
	return b.s ? b.s : hog_xstrdup("");
}

static void emit(hog_line_fn fn, void *ctx, enum hog_line_kind kind, const char *file,
		 int line, int col, char *text)
{
	struct hog_line l = { kind, file, line, col, text };

	fn(ctx, &l);
	free(text);
}

/*
 * "f() calls on here" at each call of the way after the holder's own and
 * before the costly site's
 */
static void step_lines(const struct hog_finding *f, const struct hog_path *p,
		       hog_line_fn fn, void *ctx)
{
	int i;

	for (i = 1; i < p->nchain; i++) {
		const struct hog_step *s = &p->chain[i];
		int loops = i == p->nchain - 1 && hog_kind_at_site(f->kind);

		/* the last call or the loop itself: the reason line is there */
		if (s->line == f->site_line && s->col == f->site_col && s->file && f->site_file &&
		    !strcmp(s->file, f->site_file))
			continue;
		emit(fn, ctx, HOG_LINE_STEP, s->file, s->line, s->col,
		     hog_xasprintf("%s() %s here", s->func, loops ? "loops" : "calls on"));
	}
}

static void caller_lines(const struct hog_finding *f, int max, hog_line_fn fn, void *ctx)
{
	const struct hog_path *p = &f->paths[0];
	int i;

	for (i = 1; i < f->npaths && i <= max; i++) {
		const struct hog_path *q = &f->paths[i];
		char *c = hog_path_text(f, q);

		emit(fn, ctx, HOG_LINE_CALLER, q->file, q->line, q->col,
		     hog_xasprintf("also reached from %s()%s: %s", q->holder,
				   q->unbuilt ? ", which nothing in this build calls" : "", c));
		free(c);
	}
	if (f->npaths > max + 1)
		emit(fn, ctx, HOG_LINE_MORE, p->file, p->line, 0,
		     hog_xasprintf("and from %d more callers", f->npaths - max - 1));
}

void hog_finding_lines(const struct hog_finding *f, int max_callers, hog_line_fn fn,
		       void *ctx)
{
	const struct hog_path *p = &f->paths[0];
	char *msg = hog_finding_message(f, p);
	int max = max_callers > 0 ? max_callers : HOG_MAX_CALLERS_SHOWN;

	emit(fn, ctx, HOG_LINE_MESSAGE, p->file, p->line, p->col,
	     hog_xasprintf("%s [%s]", msg, hog_finding_option(f)));
	free(msg);
	msg = hog_path_text(f, p);
	emit(fn, ctx, HOG_LINE_CHAIN, p->file, p->line, p->col, hog_xasprintf("chain: %s", msg));
	free(msg);
	emit(fn, ctx, HOG_LINE_REASON, f->site_file, f->site_line, f->site_col,
	     hog_xasprintf("%s%s: %s", f->callee ? f->callee : f->site_func,
			   f->callee ? "()" : "", f->reason ? f->reason : f->cls));
	if (p->lock.reg.func)
		emit(fn, ctx, HOG_LINE_TAKEN, p->lock.reg.file, p->lock.reg.line, p->lock.reg.col,
		     hog_xasprintf(p->lock.reg_var ?
				   "%s() runs as %s: registered here, by the initializer of %s (rules: context)" :
				   "%s() runs as %s: registered here, in %s() (rules: context)",
				   p->holder, p->lock.name, p->lock.reg.func));
	else if (p->lock.line > 0 && p->lock.name)
		emit(fn, ctx, HOG_LINE_TAKEN, p->file, p->lock.line, 0,
		     p->lock.entry ?
		     hog_xasprintf("%s held on entry, by %s()'s annotation or assert", p->lock.name,
				   p->holder) :
		     hog_xasprintf("%s taken here", p->lock.name));
	step_lines(f, p, fn, ctx);
	caller_lines(f, max, fn, ctx);
	if (f->demoted)
		emit(fn, ctx, HOG_LINE_DEMOTED, p->file, p->line, p->col,
		     hog_xasprintf("a note because %s", f->demoted));
	else if (f->sev == HS_WARNING && hog_kind_sleeps(f->kind) && p->lock.maybe_rel)
		emit(fn, ctx, HOG_LINE_DEMOTED, p->file, p->line, p->col,
		     hog_xasprintf("a warning, not an error: the chain gives up %s, a lock of its class under another name, which may be this one",
				   p->lock.maybe_rel));
	else if (f->sev == HS_WARNING && hog_kind_sleeps(f->kind) && p->lastput)
		emit(fn, ctx, HOG_LINE_DEMOTED, p->file, p->line, p->col,
		     hog_xasprintf("a warning, not an error: it is a release, reached only when %s() finds the count dropped to zero; it runs under the lock only if this put can drop the last reference",
				   p->lastput));
	if (f->limits) {
		msg = hog_limit_text(f->limits);
		emit(fn, ctx, HOG_LINE_INCOMPLETE, p->file, p->line, p->col,
		     hog_xasprintf("incomplete: the analysis on the way to it was cut short (%s)",
				   msg));
		free(msg);
	}
}
