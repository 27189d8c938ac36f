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
