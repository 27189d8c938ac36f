// SPDX-License-Identifier: GPL-2.0
/*
 * Static keys (rules: static-key, static-branch): branches patched at
 * run time into a jump or a no-op, which the kernel uses for settings
 * decided once per boot,
 *
 *	if (!cgroup_subsys_on_dfl(memory_cgrp_subsys))	cgroup v1 only
 *		page_counter_uncharge(&memcg->kmem, nr_pages);
 *
 * The test is a call arch_static_branch(&key, branch) whose result is
 * the key's state XOR branch; it is a fact (FK_KEY) that follows the
 * value through "!", copies and returns (do_memsw_account()).  On the
 * way out of a test that needs the key in the state the rules say it
 * is not in, the path is marked (tup.offkey), and a cost reached only
 * on such paths is a note that names the key: the code is real, but it
 * runs only on systems configured otherwise.  A pointer field that only
 * an optional interface sets (rules: unset-field) marks the way past a
 * test that it is set in the same way.
 */
#include <string.h>
#include "engine.h"

/* The global a's address names: "&@memory_cgrp_subsys_on_dfl_key/static_key_true.key". */
static const char *key_name(const struct hog_val *a, char *name, size_t size)
{
	const char *s, *e;

	if (!a || a->kind != HV_ADDR || !a->addr)
		return NULL;
	s = a->addr;
	if (*s == '&')
		s++;
	if (*s != '@')
		return NULL;
	s++;
	for (e = s; *e && *e != '/' && *e != '^' && *e != '#' && *e != '['; e++)
		;
	if (e == s || (size_t)(e - s) >= size)
		return NULL;
	memcpy(name, s, e - s);
	name[e - s] = 0;
	return name;
}

/* At a call: a static-branch function's result is the fact on its variable. */
void static_key_call(struct fs *fs, struct tset *set, const struct hog_event *e)
{
	const struct hog_val *b = e->nargs > 1 ? &e->args[1] : NULL;
	char name[128];
	int k, i;

	if (e->dst < 0 || !hog_rules_is_static_branch(fs->c->rules, e->callee) ||
	    !b || b->kind != HV_CONST)
		return;
	k = hog_rules_static_key(fs->c->rules, key_name(&e->args[0], name, sizeof(name)));
	if (k < 0)
		return;
	for (i = 0; i < set->n; i++)
		static_key_fact(&set->t[i], e->dst, KEY_FACT(k, b->cst & 1));
}

void static_key_fact(struct tup *t, int var, int key)
{
	struct fact f = { .var = var, .kind = FK_KEY, .irq = key };

	fact_copy(t, var, &f);
}

/*
 * A test of f's variable against zero, on the way where it is non-zero
 * (want_nz) or zero: marks the path if that way needs the key in the
 * state the rules say it is not in.
 */
void static_key_edge(struct fs *fs, struct tup *t, const struct fact *f, int want_nz)
{
	const struct hog_static_key *k = hog_rules_static_key_at(fs->c->rules, f->irq / 2);
	int on = want_nz ^ (f->irq & 1);

	if (k && on != k->on && !t->offkey)
		t->offkey = f->irq / 2 + 1;
}

/*
 * "unset-field": the rule a variable's value is the field of, if it is
 * loaded from one (every way into a phi: thresholds.primary or
 * memsw_thresholds.primary), as 1 + its index; 0 none.
 */
static int field_rule(const struct hog_rules *r, const struct hog_val *v)
{
	const char *a, *s, *end;
	char name[160];

	if (v->kind != HV_ADDR || !(a = v->addr))
		return 0;
	end = a + strlen(a);
	if (end - a < 2 || end[-1] != '^')
		return 0;
	end--;
	for (s = end; s > a && s[-1] != '/'; s--)
		if (strchr("^#[]$@%&", s[-1]))
			return 0;
	if (s == a || (size_t)(end - s) >= sizeof(name))
		return 0;
	memcpy(name, s, end - s);
	name[end - s] = 0;
	return hog_rules_unset_field(r, name) + 1;
}

char *unset_vars(const struct hog_rules *r, const struct hog_func *f)
{
	char *m = NULL;
	int b, i, k;

	if (!r->static_keys.n)
		return NULL;
	for (b = 0; b < f->nblocks; b++) {
		const struct hog_block *bl = &f->blocks[b];

		for (i = 0; i < bl->nphi; i++) {
			const struct hog_phi *p = &bl->phi[i];
			int rule = p->n > 0 ? field_rule(r, &p->val[0]) : 0;

			for (k = 1; rule && k < p->n; k++)
				if (field_rule(r, &p->val[k]) != rule)
					rule = 0;
			if (rule && p->dst >= 0 && p->dst <= f->nvars) {
				if (!m)
					m = hog_xcalloc(f->nvars + 1, 1);
				m[p->dst] = rule;
			}
		}
		for (i = 0; i < bl->nev; i++) {
			const struct hog_event *e = &bl->ev[i];
			int rule;

			if (e->kind != HE_ASSIGN || e->nargs != 1 || e->dst < 0 || e->dst > f->nvars ||
			    (e->callee && strcmp(e->callee, "=")))
				continue;
			rule = field_rule(r, &e->args[0]);
			if (rule) {
				if (!m)
					m = hog_xcalloc(f->nvars + 1, 1);
				m[e->dst] = rule;
			}
		}
	}
	return m;
}

/* A test of a variable loaded from an unset-field: its non-zero way is marked. */
void unset_field_edge(struct fs *fs, struct tup *t, int var, int want_nz)
{
	if (want_nz && fs->unset && var >= 0 && var <= fs->f->nvars && fs->unset[var] &&
	    !t->offkey)
		t->offkey = fs->unset[var];
}
