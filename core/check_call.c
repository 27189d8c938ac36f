// SPDX-License-Identifier: GPL-2.0
/*
 * Costly calls under a lock: a callee the rules catalogue lists with a
 * cost class (hier-atomic, refcount-release, tree-flush, ...), and a
 * function the analysis finds to be one: a walk up a ->parent chain
 * doing an atomic read-modify-write at every level (page_counter_charge
 * and its kind), which is costly to call whatever its name.
 */
#include <string.h>
#include "checker.h"

static void call_call(struct fs *fs, const struct tset *set, const struct callv *cv)
{
	const struct hog_rule *cr = eng_rule(fs, cv->ev->callee, HR_COST);

	if (cr && !hog_cls_sleeps(cr->cls))
		eng_rule_cost(fs, set, cv, HK_CALL, cr);
}

/* Does a parent walk do an atomic RMW in its body; hot: not only past a per-CPU threshold. */
static int walk_atomics(struct fs *fs, const struct hog_loop *l, int *hot)
{
	struct eng_block b;
	int j, any = 0;

	*hot = 0;
	for (j = 0; j < l->nblocks; j++) {
		eng_block(fs, l->blocks[j], &b);
		*hot |= b.atomic_hot;
		any |= b.atomic;
	}
	return any;
}

static void call_done(struct fs *fs)
{
	const struct hog_func *f = eng_func(fs);
	struct hog_cost *c;
	int i, hot;

	for (i = 0; i < f->nloops && !eng_has_self(fs); i++) {
		const struct hog_loop *l = &f->loops[i];

		if (l->shape != HL_PARENT_WALK || !walk_atomics(fs, l, &hot))
			continue;
		c = eng_cost_new(fs, HK_CALL, eng_intern(fs, HOG_CLS_HIER),
				 eng_intern(fs, "walks up the ->parent chain doing an atomic read-modify-write at every level"),
				 NULL, 0, 0, 0, NULL);
		/* the atomics only run past a per-CPU threshold */
		c->batched = !hot;
		eng_set_self(fs, c);
	}
}

static void call_message(struct hog_buf *b, const struct hog_finding *f,
			 const struct hog_path *p)
{
	hog_buf_printf(b, "%s() %s ", f->callee ? f->callee : "?",
		       p->nchain > 1 ? "reached" : "called");
}

const struct hog_checker check_call = {
	.name = "call",
	.call = call_call,
	.done = call_done,
	.message = call_message,
};
