/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address expressions (grammar in ir.h): the identity of a lock or of
 * the target of an atomic, carried across calls by substituting the
 * caller's arguments for $N.
 */
#ifndef HOG_EXPR_H
#define HOG_EXPR_H

#include "ir.h"
#include "rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Canonical form: per-cpu marks moved next to their root, fields stripped. */
const char *hog_expr_norm(struct hog_strtab *s, const struct hog_rules *r,
			  const char *e);
/*
 * Replaces a $N or $R root by the address in args[N] (or ret).  Returns
 * NULL when the root cannot be mapped (the argument is not an address).
 * Expressions rooted at globals come through unchanged.
 */
const char *hog_expr_subst(struct hog_strtab *s, const struct hog_rules *r,
			   const char *e, const char *const *args, int nargs,
			   const char *ret);
/* Appends steps to an expression: hog_expr_append(s, "$0", "/zone.lock"). */
const char *hog_expr_append(struct hog_strtab *s, const char *e, const char *steps);
/* Replaces a root vN by addr (NULL if e is not rooted at vN). */
const char *hog_expr_rebase_var(struct hog_strtab *s, const char *e, int var,
				const char *addr);

/* Root classification. */
int hog_expr_param(const char *e);		/* N for $N, -1 otherwise */
int hog_expr_is_ret(const char *e);		/* rooted at $R */
int hog_expr_var(const char *e);		/* N for vN, -1 otherwise */
int hog_expr_is_global(const char *e);		/* @g, not per-cpu */
int hog_expr_is_percpu(const char *e);
int hog_expr_portable(const char *e);		/* rooted at $N, $R or @g */
/* e is rooted at prefix: prefix itself or prefix followed by steps. */
int hog_expr_has_prefix(const char *e, const char *prefix);
/* The same for the first n characters of prefix ("$1" of "$1/P.h()"). */
int hog_expr_has_prefix_n(const char *e, const char *prefix, size_t n);
/* memset(), memcpy(), memmove() and their variants: they write what argument 0 points to */
int hog_call_fills(const char *callee);

/* "zone->lock", "memcg_stock.stock_lock"; names: parameter names, vnames: variable names. */
char *hog_expr_display(const char *e, const char *const *params, int nparams,
		       const char *const *vnames, int nvars);
/* Lock class "zone.lock", or the global's name, or NULL. */
const char *hog_expr_class(struct hog_strtab *s, const char *e);

#ifdef __cplusplus
}
#endif
#endif
