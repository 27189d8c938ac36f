// SPDX-License-Identifier: GPL-2.0
/*
 * A callee that takes a lock exactly when it returns non-NULL makes the
 * pointer it returns the "is it held" flag (6.12's swapin walk):
 *
 *	if (!ptep++) {
 *		ptep = pte_offset_map_lock(mm, pmd, addr, &ptl);
 *		if (!ptep)
 *			break;
 *	}
 *	...
 *	pte_unmap_unlock(ptep, ptl);
 *	ptep = NULL;
 *	...
 *	if (ptep)
 *		pte_unmap_unlock(ptep, ptl);
 *
 * The flags of a lock are variables, not names: the call's result, and
 * the phis whose every value is NULL, a flag, or a variable all of whose
 * versions are flags (ptep++ and start_pte = pte = ... reach the phis
 * by the variable's name).  One version of the name that holds
 * anything else ("ret = validate(o)") and the name is no flag.  A
 * flag's zero edge ends the lock.
 */
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "expr.h"

/* The lock the call takes on its non-zero returns, in our terms; NULL if none. */
static const char *cond_lock(struct fs *fs, const struct hog_event *e)
{
	const struct hog_summary *s;
	struct callv cv;
	int k;

	if (e->kind != HE_CALL || e->dst < 0 || e->dst > fs->f->nvars || !e->callee ||
	    has_any_rule(fs, e->callee) || !(s = summary_of(fs, e->callee)))
		return NULL;
	for (k = 0; k < s->nacq; k++)
		if (s->acq[k].cond == 1 && s->acq[k].expr) {
			call_prepare(fs, e, &cv);
			return hog_expr_subst(fs->c->strs, fs->c->rules, s->acq[k].expr, cv.addr,
					      cv.nargs, NULL);
		}
	return NULL;
}

/* Variables the IR defines, tests or reads: a name's versions (dead ones are not) */
static char *present_vars(const struct hog_func *f)
{
	char *p = hog_xcalloc(f->nvars + 1, 1);
	int b, i, k;

#define MARK(v) do { if ((v) >= 0 && (v) <= f->nvars) p[v] = 1; } while (0)
	for (b = 0; b < f->nblocks; b++) {
		const struct hog_block *bl = &f->blocks[b];

		MARK(bl->cond_var);
		for (i = 0; i < bl->nev; i++) {
			MARK(bl->ev[i].dst);
			for (k = 0; k < bl->ev[i].nargs; k++)
				if (bl->ev[i].args[k].kind == HV_VAR)
					MARK(bl->ev[i].args[k].var);
		}
		for (i = 0; i < bl->nphi; i++) {
			MARK(bl->phi[i].dst);
			for (k = 0; k < bl->phi[i].n; k++)
				if (bl->phi[i].val[k].kind == HV_VAR)
					MARK(bl->phi[i].val[k].var);
		}
	}
#undef MARK
	return p;
}

/*
 * Per name, whether every present version of it is a flag (in[]):
 * (void *)1 yes, (void *)2 no; none present, not in the map.
 */
static struct hog_map *name_flags(const struct hog_func *f, const char *in, const char *present)
{
	struct hog_map *m = hog_map_new();
	int v;

	for (v = 0; v < f->nvnames && v <= f->nvars; v++) {
		const char *n = f->vnames[v];

		if (!n || !*n || !present[v] || hog_map_get(m, n) == (void *)2)
			continue;
		hog_map_put(m, n, in[v] ? (void *)1 : (void *)2);
	}
	return m;
}

/* A phi's value that keeps it a flag: NULL, a flag, a name whose versions all are. */
static int flag_value(struct fs *fs, const struct hog_val *v, const char *in, int *some,
		      const struct hog_map *names)
{
	const char *a;

	switch (v->kind) {
	case HV_CONST:
		return v->cst == 0;
	case HV_VAR:
		*some = 1;
		return v->var >= 0 && v->var <= fs->f->nvars && in[v->var];
	case HV_ADDR:
		a = v->addr;
		if (a[0] != '%' || strpbrk(a + 1, "/^#[$@%&"))
			return 0;
		*some = 1;
		return hog_map_get(names, hog_intern(fs->c->strs, a + 1)) == (void *)1;
	default:
		return 0;
	}
}

static int is_copy(const struct hog_event *e)
{
	return e->kind == HE_ASSIGN && e->nargs == 1 && e->callee && !strcmp(e->callee, "=");
}

/* in[]: the calls' results, then the phis that stay flags, largest set first */
static void flags_of(struct fs *fs, const char *lock, const char **taken, char *in,
		     const char *present)
{
	const struct hog_func *f = fs->f;
	int b, i, k, changed = 1;

	for (b = 0; b < f->nblocks; b++) {
		for (i = 0; i < f->blocks[b].nev; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];

			if (e->dst < 0 || e->dst > f->nvars)
				continue;
			if (e->kind == HE_CALL && taken[e->dst] == lock)
				in[e->dst] = 1;
			/* a copy (lockhog-check's ptep++) stays a flag while its value is one */
			else if (is_copy(e))
				in[e->dst] = 2;
		}
		for (i = 0; i < f->blocks[b].nphi; i++)
			if (f->blocks[b].phi[i].dst >= 0 && f->blocks[b].phi[i].dst <= f->nvars)
				in[f->blocks[b].phi[i].dst] = 2;
	}
	while (changed) {
		struct hog_map *names = name_flags(f, in, present);

		changed = 0;
		for (b = 0; b < f->nblocks; b++) {
			for (i = 0; i < f->blocks[b].nev; i++) {
				const struct hog_event *e = &f->blocks[b].ev[i];
				int some = 0;

				if (is_copy(e) && e->dst >= 0 && e->dst <= f->nvars &&
				    in[e->dst] == 2 && !flag_value(fs, &e->args[0], in, &some, names)) {
					in[e->dst] = 0;
					changed = 1;
				}
			}
			for (i = 0; i < f->blocks[b].nphi; i++) {
				const struct hog_phi *p = &f->blocks[b].phi[i];
				int ok = 1, some = 0;

				if (p->dst < 0 || p->dst > f->nvars || in[p->dst] != 2)
					continue;
				for (k = 0; ok && k < p->n; k++)
					ok = flag_value(fs, &p->val[k], in, &some, names);
				if (!ok || !some) {
					in[p->dst] = 0;
					changed = 1;
				}
			}
		}
		hog_map_free(names);
	}
}

void find_result_flags(struct fs *fs)
{
	const struct hog_func *f = fs->f;
	const char **taken = hog_xcalloc(f->nvars + 1, sizeof(*taken));
	char *in, *present;
	int b, i, v, r;

	/* [dst]: the lock the call defining dst takes on its non-zero returns */
	for (b = 0; b < f->nblocks; b++)
		for (i = 0; i < f->blocks[b].nev; i++) {
			const struct hog_event *e = &f->blocks[b].ev[i];
			const char *l = cond_lock(fs, e);

			if (!l)
				continue;
			taken[e->dst] = l;
			for (r = 0; r < fs->nrlock && fs->rlock[r] != l; r++)
				;
			/* more locks than kept: the others keep no flag (precision only) */
			if (r == fs->nrlock && fs->nrlock < MAX_COOKIES)
				fs->rlock[fs->nrlock++] = l;
		}
	if (fs->nrlock) {
		fs->rflag = hog_xcalloc(f->nvars + 1, sizeof(*fs->rflag));
		in = hog_xmalloc(f->nvars + 1);
		present = present_vars(f);
		for (r = 0; r < fs->nrlock; r++) {
			memset(in, 0, f->nvars + 1);
			flags_of(fs, fs->rlock[r], taken, in, present);
			for (v = 0; v <= f->nvars; v++)
				if (in[v] && !fs->rflag[v])
					fs->rflag[v] = r + 1;
		}
		free(in);
		free(present);
	}
	free(taken);
}

/* On the way where var is zero: the lock it is the flag of is not held. */
void drop_result_flag(struct fs *fs, struct tup *t, int var)
{
	const char *l;
	int j;

	if (!fs->rflag || var < 0 || var > fs->f->nvars || !fs->rflag[var])
		return;
	l = fs->rlock[fs->rflag[var] - 1];
	for (j = t->nheld - 1; j >= 0; j--)
		if (held_is(&t->held[j], l))
			drop_held(t, j);
}
