/* SPDX-License-Identifier: GPL-2.0 */
/* Lock annotations and lockdep_assert_held() from the macro uses (annot.c). */
#ifndef LOCKHOG_ANNOT_H
#define LOCKHOG_ANNOT_H

#include "../core/ir.h"
#include "../core/rules.h"

/* Hooks libcpp's "used" callback (chaining any previous one): at plugin_init. */
void lh_annot_init(void);
/* The current function's annotations onto f, and where its asserts go. */
struct lh_locs;
void lh_annot_begin(struct hog_module *m, struct hog_func *f, const struct hog_rules *rules,
		    struct lh_locs *locs);
/* Before lowering statement s into b: the asserts placed there (HE_HELD). */
void lh_annot_before(struct hog_module *m, struct hog_block *b, gimple *s);
void lh_annot_end(void);

#endif
