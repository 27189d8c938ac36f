/* SPDX-License-Identifier: GPL-2.0 */
/* GIMPLE to lockhog IR, and what it needs to say where things are. */
#ifndef LOCKHOG_LOWER_H
#define LOCKHOG_LOWER_H

#include "../core/ir.h"
#include "../core/rules.h"

struct lh_locs {
	struct hog_strtab *strs;
	struct hog_map *map;	/* interned "file:line:col" -> location_t + 1; col 0: the line */
};

void lh_locs_note(struct lh_locs *l, const char *file, int line, int col,
		  location_t loc);
location_t lh_locs_find(struct lh_locs *l, const char *file, int line, int col);

/* "mm/x.c" for "./mm/x.c"; "" for none. */
const char *lh_clean_path(const char *f);
/* Where a statement is, as the user wrote it (the macro's expansion point). */
bool lh_user_loc(location_t loc, location_t *out, int *line, int *col);
/* __atomic_fetch_add, __sync_fetch_and_or, ...: a builtin atomic RMW. */
bool lh_atomic_builtin(tree fn);

/* Value and address tracing (value.c). */
struct hog_val lh_value(struct hog_module *m, tree t);
const char *lh_address(struct hog_module *m, tree ref);
int lh_cond_var(tree t);
/* the integer parameter a test of t against zero tests whole, or NULL_TREE */
tree lh_tested_param(tree t);
const char *lh_struct_name(tree type);

/* The unit's static initializers that store a function in a field the rules name (inits.c). */
void lh_lower_inits(struct hog_module *m, const struct hog_rules *rules, struct lh_locs *locs);

/*
 * Lowers the current function (cfun) into m.  rules says which types are
 * locks, which fields and calls lead to a parent, which asm reads per-CPU
 * data (lock-type, parent-field, parent-call, percpu-asm).
 */
struct hog_func *lh_lower(struct hog_module *m, struct lh_locs *locs,
			  const struct hog_rules *rules);
/*
 * Whether lowering cfun rewrites it: its loops are normalised (preheaders,
 * simple latches) and their bounds recorded.  Otherwise lowering only
 * reads the IL.
 */
bool lh_lower_changes_cfg(void);

#endif
