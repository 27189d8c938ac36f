// SPDX-License-Identifier: GPL-2.0
/*
 * Context tests (rules: context-test): code that asks which context it
 * runs in before it sleeps,
 *
 *	if (!in_interrupt())			preempt_count() & (NMI|HARDIRQ|SOFTIRQ)
 *		request_module(...);
 *	bool not_atomic = !in_atomic() && !irqs_disabled();
 *
 * The result of a context-test function is a fact (FK_CTX) that follows
 * the value through "&" masks and "!"; on the way out of a test where
 * it is zero, the contexts whose bits the mask keeps are ruled out: a
 * path that is in one of them (holds a spinning lock, has IRQs off, is
 * a callback of that context) cannot take that way and is dropped, and
 * the others remember what was ruled out, so that a cost past the test
 * reaches no caller in such a context (hog_cost.ctxclear).
 */
#include <string.h>
#include "engine.h"

static const struct hog_ctx_test *fact_rule(struct fs *fs, const struct fact *f)
{
	return f && f->kind == FK_CTX ? hog_rules_ctx_test_at(fs->c->rules, f->irq / 2) : NULL;
}

/* At a call: a context-test function's result is the fact on its variable. */
void ctx_test_call(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	int k = hog_rules_ctx_test(fs->c->rules, e->callee), i;
	const struct hog_ctx_test *r = hog_rules_ctx_test_at(fs->c->rules, k);

	if (!r || e->dst < 0)
		return;
	for (i = 0; i < set->n; i++) {
		struct tup *t = &set->t[i];
		struct fact f = { .var = e->dst, .kind = FK_CTX, .irq = CTX_FACT(k, 0), .mask = -1 };

		/* irqs_disabled(): only of the flags a source just returned */
		if (r->irqs_off) {
			const struct hog_val *a = e->nargs > 0 ? &e->args[0] : NULL;
			const struct fact *src = a && a->kind == HV_VAR ? fact_get(t, a->var) : NULL;
			const struct hog_ctx_test *sr = fact_rule(fs, src);

			if (!sr || !sr->source)
				continue;
		}
		fact_copy(t, e->dst, &f);
	}
}

/* "&" with a constant, "!" and "!!" of a context test's result: 1 if handled. */
int ctx_test_assign(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	const struct hog_val *a = e->nargs > 0 ? &e->args[0] : NULL;
	const struct hog_val *m = e->nargs > 1 ? &e->args[1] : NULL;
	int i, any = 0;

	if (!e->callee || !a || a->kind != HV_VAR || e->dst < 0)
		return 0;
	for (i = 0; i < set->n; i++) {
		const struct fact *f = fact_get(&set->t[i], a->var);
		struct fact g;

		/* a static key's state (statickey.c) goes the same way, but for masks */
		if (!f || (f->kind != FK_CTX && f->kind != FK_KEY))
			continue;
		g = *f;
		g.var = e->dst;
		if (!strcmp(e->callee, "&") && m && m->kind == HV_CONST && !(f->irq & 1) &&
		    f->kind == FK_CTX)
			g.mask &= m->cst;
		else if (!strcmp(e->callee, "!"))
			g.irq ^= 1;
		else if (strcmp(e->callee, "!!") && strcmp(e->callee, "="))
			continue;
		fact_copy(&set->t[i], e->dst, &g);
		any = 1;
	}
	return any;
}

/* What a zero result of rule r, masked by mask, rules out: HOG_CTX_*. */
static int ruled_out(const struct hog_ctx_test *r, long long mask)
{
	int c = 0;

	if (r->irqs_off)
		return HOG_CTX_IRQS_ON;
	if (mask & r->softirq)
		c |= HOG_CTX_NOT_SOFTIRQ;
	if (mask & r->hardirq)
		c |= HOG_CTX_NOT_HARDIRQ;
	if (mask & r->atomic)
		c |= HOG_CTX_NOT_ATOMIC;
	return c;
}

/*
 * The bits of ctxclear that rule out a registered callback's context.
 * An IRQs-off callback (an IPI's) is in hard IRQ or has preemption
 * off: only a test that finds neither rules it out.
 */
static int ctx_bits(enum hog_ctx_kind kind)
{
	switch (kind) {
	case HOG_IN_SOFTIRQ:
		return HOG_CTX_NOT_SOFTIRQ;
	case HOG_IN_HARDIRQ:
		return HOG_CTX_NOT_HARDIRQ;
	default:
		return HOG_CTX_NOT_HARDIRQ | HOG_CTX_NOT_ATOMIC;
	}
}

/* Is the path in a context that ctxclear rules out? */
int ctx_excluded(const struct fs *fs, const struct tup *t, int ctxclear)
{
	int j;

	if ((ctxclear & HOG_CTX_IRQS_ON) && t->irq == HOG_IRQ_OFF)
		return 1;
	if ((ctxclear & HOG_CTX_NOT_ATOMIC) && t->preempt > 0)
		return 1;
	for (j = 0; j < t->nheld; j++) {
		const struct held *h = &t->held[j];

		/* a held context is the callback's we analyse (seed_context()) */
		if (h->ctx && fs->c->entry) {
			enum hog_ctx_kind kind = fs->c->entry->rule->kind;
			int bits = ctx_bits(kind);

			if ((ctxclear & bits) == bits)
				return 1;
			/* IRQs stay off in a hard IRQ or IRQs-off callback, unless it turned them on */
			if ((ctxclear & HOG_CTX_IRQS_ON) && kind != HOG_IN_SOFTIRQ &&
			    t->irq != HOG_IRQ_ON)
				return 1;
		}
		if (!h->ctx && !h->sleeping && (ctxclear & HOG_CTX_NOT_ATOMIC))
			return 1;
	}
	return 0;
}

/*
 * A test of f's variable against zero, on the way where it is non-zero
 * (want_nz) or zero: 0 if the path cannot take it, else 1 with what
 * the way rules out added to the path.
 */
int ctx_test_edge(struct fs *fs, struct tup *t, const struct fact *f, int want_nz)
{
	const struct hog_ctx_test *r = fact_rule(fs, f);
	int c;

	/* a negated result is zero where the test's is not */
	if (!r || want_nz == !(f->irq & 1))
		return 1;
	c = ruled_out(r, f->mask);
	/* IRQs this function turned on: the test says nothing of its callers' */
	if (t->irq == HOG_IRQ_ON)
		c &= ~HOG_CTX_IRQS_ON;
	if (ctx_excluded(fs, t, c))
		return 0;
	t->ctxclear |= c;
	return 1;
}
