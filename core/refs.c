// SPDX-License-Identifier: GPL-2.0
/*
 * References a function takes and gives back itself (rules: ref-get).
 * A put that balances a get of the same object earlier on the path is
 * not the last reference: the get needed one already, so the put only
 * decrements, and its release path (the cost a put is charged with)
 * cannot run.  isolate_lru_folios()'s folio_put() after a successful
 * folio_try_get() and a failed folio_test_clear_lru() is such a put.
 *
 * It can still be the last one if another holder drops its reference
 * in between; a try-get succeeds on a live reference that may be
 * dropped at once.  That race is what the kernel's own comments accept
 * at such puts, and it is not what a lock hold is charged with here.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"

/* The variable an argument is read from: v78, or the root of &v78/folio.lru. */
static int arg_var(const struct hog_val *v)
{
	const char *a;
	int n = -1;

	if (v->kind == HV_VAR)
		return v->var;
	if (v->kind != HV_ADDR || !v->addr)
		return -1;
	a = v->addr + (v->addr[0] == '&');
	if (a[0] == 'v' && sscanf(a + 1, "%d", &n) == 1)
		return n;
	return -1;
}

static int own_find(const struct tup *t, const char *key)
{
	int i;

	for (i = 0; key && i < t->nown; i++)
		if (t->own[i].key == key)
			return i;
	return -1;
}

static void own_add(struct tup *t, const char *key, int var, int rule)
{
	if (!key || own_find(t, key) >= 0 || t->nown == MAX_OWN)
		return;
	t->own[t->nown].key = key;
	t->own[t->nown].var = var;
	t->own[t->nown].rule = rule;
	t->nown++;
}

static void own_del(struct tup *t, int i)
{
	t->own[i] = t->own[--t->nown];
}

void ref_forget_var(struct tup *t, int var)
{
	int i;

	for (i = 0; var >= 0 && i < t->nown; i++)
		if (t->own[i].var == var)
			own_del(t, i--);
}

/*
 * After a get: the reference is ours on every path (a plain get), or on
 * the paths where a try-get's result is non-zero, which a test of the
 * result then tells apart.  A try-get whose result is dropped gives us
 * nothing we could tell.
 */
void ref_get_split(struct fs *fs, struct tset *set, const struct callv *cv)
{
	const struct hog_event *e = cv->ev;
	struct tset out = { 0 };
	const char *key;
	int arg, try, rule, i;

	rule = hog_rules_ref_get(fs->c->rules, e->callee, &arg, &try);
	if (rule < 0 || arg >= cv->nargs || !(key = eng_arg_addr(cv, arg)) || (try && e->dst < 0))
		return;
	for (i = 0; i < set->n; i++) {
		struct tup t = set->t[i];

		if (try) {
			struct tup fail = t;

			fact_set(&fail, e->dst, FK_ZERO, 0);
			tset_add(&out, &fail);
			fact_set(&t, e->dst, FK_NONZERO, 0);
		}
		own_add(&t, key, arg_var(&e->args[arg]), rule);
		tset_add(&out, &t);
	}
	tset_free(set);
	*set = out;
}

/* The argument the call gives a reference back on (rules: ref-get), or -1. */
int ref_put_arg(struct fs *fs, const struct callv *cv)
{
	return hog_rules_ref_put(fs->c->rules, cv->ev->callee);
}

/* The reference of t that the put of argument arg gives back: its index, or -1. */
int ref_owned(struct fs *fs, const struct tup *t, const struct callv *cv, int arg)
{
	int i = own_find(t, eng_arg_addr(cv, arg));

	return i >= 0 && hog_rules_ref_put_of(fs->c->rules, t->own[i].rule, cv->ev->callee) ?
	       i : -1;
}

void ref_put_done(struct fs *fs, struct tset *set, const struct callv *cv)
{
	int arg = ref_put_arg(fs, cv);
	int i, k;

	for (i = 0; arg >= 0 && i < set->n; i++)
		if ((k = ref_owned(fs, &set->t[i], cv, arg)) >= 0)
			own_del(&set->t[i], k);
}

int own_eq(const struct tup *a, const struct tup *b)
{
	int i;

	if (a->nown != b->nown)
		return 0;
	for (i = 0; i < a->nown; i++)
		if (own_find(b, a->own[i].key) < 0)
			return 0;
	return 1;
}

/* Ours where every path took it. */
void own_meet(struct tup *a, const struct tup *b)
{
	int i;

	for (i = 0; i < a->nown; i++)
		if (own_find(b, a->own[i].key) < 0)
			own_del(a, i--);
}

/*
 * A dec-and-test (rules: last-put: atomic_dec_and_test(),
 * refcount_dec_and_lock()): its non-zero result says this put dropped
 * the last reference, and the way past that test is the release.
 * Each state splits in two, one per result, as a trylock's does, so
 * that the test of the result keeps only its own way.
 */
void last_put_call(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	struct tset out = { 0 };
	int i;

	if (e->dst < 0 || !e->callee || !hog_rules_is_last_put(fs->c->rules, e->callee))
		return;
	for (i = 0; i < set->n; i++) {
		struct tup t = set->t[i];
		const struct fact *f = fact_get(&t, e->dst);
		int k = f ? f->kind : FK_NONE;

		if (k != FK_ZERO && k != FK_NONZERO) {
			struct tup z = t;

			fact_set(&z, e->dst, FK_ZERO, 0);
			tset_add(&out, &z);
			fact_set(&t, e->dst, FK_NONZERO, 0);
		}
		if (k != FK_ZERO && !t.lastput)
			t.lastput = e->callee;
		tset_add(&out, &t);
	}
	tset_free(set);
	*set = out;
}
