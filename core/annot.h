/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock annotations read from the source: the text of a macro's argument
 * (__must_hold(&zone->lock), lockdep_assert_held(&hugetlb_lock)) turned
 * into the address expression of the lock (core/ir.h), the same one the
 * frontend writes for spin_lock(&zone->lock) in that function.  Both
 * frontends call this; each answers the questions about names and types
 * that only it can (struct hog_annot_env).
 */
#ifndef HOG_ANNOT_H
#define HOG_ANNOT_H

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A frontend's view of names and types.  Types are the frontend's own
 * handles (a GCC tree, a CXType copy), never looked into here.
 */
struct hog_annot_env {
	void *ctx;
	/*
	 * name is parameter *param (>= 0) of the function, or a global
	 * (*param = -1).  Returns 0 with *type set, -1 when it is neither.
	 */
	int (*lookup)(void *ctx, const char *name, int *param, const void **type);
	/* the type a pointer type points to, NULL if type is no pointer */
	const void *(*pointee)(void *ctx, const void *type);
	/*
	 * Member field of the struct or union type (through anonymous
	 * members): 0 with *tname the struct's name as the frontend spells
	 * it in "/T.F" steps and *ftype the member's type; -1 if none.
	 */
	int (*member)(void *ctx, const void *type, const char *field,
		      const char **tname, const void **ftype);
	/*
	 * The name of a lock type (the rules' lock-type, lock-kind names:
	 * "spinlock", "rwlock_t"), NULL if type is not a lock.
	 */
	const char *(*lock_type)(void *ctx, const void *type);
};

/* Which annotation a macro or attribute name is; -1 if none. */
int hog_annot_kind_of(const char *name);
/* Is name lockdep_assert_held() or one of its forms? */
int hog_annot_is_assert(const char *name);

/*
 * The lock text denotes ("&zone->lock", "vmf->ptl", "lock",
 * "this_cpu_ptr(&s->cpu_slab->lock)"): its address expression (interned
 * in strs) and its lock type's name.  Returns 0, or -1 for anything else
 * (a call, arithmetic, a local, a type that is not a lock).
 */
int hog_annot_parse(struct hog_strtab *strs, const struct hog_annot_env *env,
		    const char *text, const char **expr, const char **type);

/*
 * The argument of a macro use from its text at the macro's name
 * ("__must_hold(&zone->lock) ..."): what is between the balanced
 * parentheses, blanks squeezed; NULL if there are none.  Free it.
 */
char *hog_annot_macro_arg(const char *src, size_t len);

#ifdef __cplusplus
}
#endif

#endif
