// SPDX-License-Identifier: GPL-2.0
/*
 * The words of a finding, shared by the plugin's diagnostics and the
 * lockhog command so that both say the same thing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "message.h"

const char *hog_finding_option(const struct hog_finding *f)
{
	static const char *const o[] = {
		"-Wlockhog-call", "-Wlockhog-loop", "-Wlockhog-sleep", "-Wlockhog-atomic",
	};

	return f->kind <= HK_ATOMIC ? o[f->kind] : "-Wlockhog";
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
	hog_buf_printf(b, "with %s held", p->lock.name ? p->lock.name : "a lock");
	if (p->irqs_off)
		hog_buf_add(b, " and IRQs off");
}

char *hog_finding_message(const struct hog_finding *f, const struct hog_path *p)
{
	struct hog_buf b = { 0 };
	const char *callee = f->callee ? f->callee : "?";

	if (!p)
		p = &f->paths[0];
	switch (f->kind) {
	case HK_CALL:
		hog_buf_printf(&b, "%s() %s ", callee, p->nchain > 1 ? "reached" : "called");
		break;
	case HK_SLEEP:
		hog_buf_printf(&b, "%s() may sleep, %s ", callee,
			       p->nchain > 1 ? "reached" : "called");
		break;
	case HK_LOOP:
		hog_buf_printf(&b, "unbounded loop in %s() calling %s() runs ", f->site_func, callee);
		break;
	case HK_ATOMIC:
		if (f->callee)
			hog_buf_printf(&b, "atomic RMW on a global in %s() via %s() runs ",
				       f->site_func, callee);
		else
			hog_buf_printf(&b, "atomic RMW on a global in %s() runs ", f->site_func);
		break;
	}
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
