/* SPDX-License-Identifier: GPL-2.0 */
/* Per-function analysis: internal to the core. */
#ifndef HOG_FLOW_H
#define HOG_FLOW_H

#include "analysis.h"

/* A finding before grouping: one holder, one lock, one path. */
struct hog_raw {
	enum hog_kind kind;
	const char *cls;
	const char *reason;
	const char *callee;
	int listed;
	int batched;
	int offkey;
	const char *inner;
	struct hog_path path;	/* chain ends at the costly site */
};

/*
 * The function runs as a registered callback in an atomic context that is
 * no lock (rules: context): it is analysed as a section entered with the
 * context held, named by the rule's label.
 */
struct hog_entry_ctx {
	const struct hog_ctx_rule *rule;
	struct hog_step reg;	/* the registration: function, file, line, col */
	int reg_var;		/* reg.func is a variable: a static initializer registers it */
};

/*
 * A callback never handed the root of its hierarchy (rules: not-root):
 * every call comes through such a registration (prog.c, mark_not_root()).
 */
struct hog_notroot {
	int arg;		/* 1 + the parameter; 0 none, -1 cancelled (prog.c) */
	const char *parent;	/* its parent field (not-root parent=), or NULL */
	int key;		/* 1 + the static key whose note says so (a cost's offkey) */
};

struct hog_flow_ctx {
	struct hog_strtab *strs;
	const struct hog_rules *rules;
	struct hog_arena *arena;	/* summaries and raws live here */
	/*
	 * The analysis's own allocations (the costs it carries from call
	 * to call, their chains), freed when the function is done; what
	 * the summary and the raws keep of them is copied to arena.  NULL:
	 * arena for both.
	 */
	struct hog_arena *scratch;
	hog_lookup_fn lookup;
	void *lookup_ctx;
	struct hog_vec *raws;		/* struct hog_raw *, NULL: none wanted */
	const struct hog_entry_ctx *entry;	/* NULL: called as usual */
	const struct hog_notroot *notroot;	/* NULL: handed anything */
	/*
	 * A member of a recursive group: its summary keeps no ways of a
	 * joined cost (summary.c add_ways()), which the group's fixed
	 * point does not follow.
	 */
	int recursive;
};

/* Fills *s (zeroed by the caller); returns 0, or -1 if it gave up. */
int hog_flow_function(struct hog_flow_ctx *c, const struct hog_func *f,
		      struct hog_summary *s);

#endif
