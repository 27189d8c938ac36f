// SPDX-License-Identifier: GPL-2.0
/*
 * Lock annotations in lockhog-check.  Without __CHECKER__ (never defined
 * for the parse, lc.h) sparse's __must_hold(x) and friends expand to
 * nothing, and lockdep_assert_held(x) with CONFIG_LOCKDEP off to
 * "do { (void)(x); } while (0)": what they say is only in the macro
 * uses.  The function's tokens are scanned for them; a name counts when
 * the detailed preprocessing record says it is a macro expansion there
 * (CXCursor_MacroExpansion), or, for clang's capability attributes
 * (requires_capability(x), 7.0's spelling), wherever it is written.
 * The text of the argument goes to core/annot.c, which owns its meaning;
 * this file answers its questions about names and types.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lc.h"
#include "../core/annot.h"

/* types handed to core/annot.c at once, at most (one per step of a path) */
#define MAX_TYPES 64

struct env_ctx {
	struct lc_fn *F;
	CXType types[MAX_TYPES];
	int ntypes;
};

static const void *keep(struct env_ctx *x, CXType t)
{
	if (t.kind == CXType_Invalid || x->ntypes == MAX_TYPES)
		return NULL;
	x->types[x->ntypes] = t;
	return &x->types[x->ntypes++];
}

struct find_var {
	const char *name;
	CXCursor hit;
	int found;
};

static enum CXChildVisitResult find_global(CXCursor c, CXCursor parent, CXClientData d)
{
	struct find_var *fv = d;
	char *n;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_VarDecl)
		return CXChildVisit_Continue;
	n = lc_spell(c);
	if (!strcmp(n, fv->name)) {
		fv->hit = c;
		fv->found = 1;
	}
	free(n);
	return fv->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

static int env_lookup(void *ctx, const char *name, int *param, const void **type)
{
	struct env_ctx *x = ctx;
	CXCursor fn = x->F->decl;
	struct find_var fv = { .name = name };
	int i, n = clang_Cursor_getNumArguments(fn);

	for (i = 0; i < n; i++) {
		CXCursor a = clang_Cursor_getArgument(fn, i);
		char *an = lc_spell(a);
		int hit = !strcmp(an, name);

		free(an);
		if (hit) {
			*param = i;
			*type = keep(x, clang_getCursorType(a));
			return *type ? 0 : -1;
		}
	}
	clang_visitChildren(clang_getTranslationUnitCursor(x->F->tu), find_global, &fv);
	if (!fv.found)
		return -1;
	*param = -1;
	*type = keep(x, clang_getCursorType(fv.hit));
	return *type ? 0 : -1;
}

static const void *env_pointee(void *ctx, const void *type)
{
	CXType t = clang_getCanonicalType(*(const CXType *)type);

	if (t.kind != CXType_Pointer)
		return NULL;
	return keep(ctx, clang_getPointeeType(*(const CXType *)type));
}

struct find_field {
	const char *name;
	CXType type;
	int found;
};

static enum CXVisitorResult visit_field(CXCursor c, CXClientData d)
{
	struct find_field *ff = d;
	char *n = lc_spell(c);

	if (!strcmp(n, ff->name)) {
		ff->type = clang_getCursorType(c);
		ff->found = 1;
	} else if (lc_anonymous(n) || clang_Cursor_isAnonymousRecordDecl(c)) {
		/* a member of an anonymous struct or union is the outer struct's */
		clang_Type_visitFields(clang_getCanonicalType(clang_getCursorType(c)),
				       visit_field, ff);
	}
	free(n);
	return ff->found ? CXVisit_Break : CXVisit_Continue;
}

static int env_member(void *ctx, const void *type, const char *field, const char **tname,
		      const void **ftype)
{
	struct env_ctx *x = ctx;
	CXType t = clang_getCanonicalType(*(const CXType *)type);
	struct find_field ff = { .name = field };

	if (t.kind != CXType_Record)
		return -1;
	clang_Type_visitFields(t, visit_field, &ff);
	if (!ff.found || !(*ftype = keep(x, ff.type)))
		return -1;
	*tname = lc_record_tag(x->F, t);
	return 0;
}

/* as lower.c's lock_pointer(): typedef names outermost first, then the tag */
static const char *env_lock_type(void *ctx, const void *type)
{
	struct env_ctx *x = ctx;
	CXType cur = *(const CXType *)type;
	const char *tag;
	int n = 0;

	if (clang_getCanonicalType(cur).kind != CXType_Record)
		return NULL;
	while (n++ < 8) {
		CXCursor d;
		char *nm;
		const char *hit = NULL;

		if (cur.kind == CXType_Elaborated)
			cur = clang_Type_getNamedType(cur);
		if (cur.kind != CXType_Typedef)
			break;
		d = clang_getTypeDeclaration(cur);
		nm = lc_spell(d);
		if (hog_rules_is_lock_type(x->F->rules, 1, nm))
			hit = hog_intern(x->F->m->strs, nm);
		free(nm);
		if (hit)
			return hit;
		cur = clang_getTypedefDeclUnderlyingType(d);
	}
	tag = lc_record_tag(x->F, *(const CXType *)type);
	return hog_rules_is_lock_type(x->F->rules, 0, tag) ? tag : NULL;
}

static int parse_lock(struct lc_fn *F, const char *text, const char **expr, const char **type)
{
	struct env_ctx x = { .F = F };
	struct hog_annot_env env = {
		&x, env_lookup, env_pointee, env_member, env_lock_type,
	};

	return hog_annot_parse(F->m->strs, &env, text, expr, type);
}

static char *token_text(CXTranslationUnit tu, CXToken t)
{
	CXString s = clang_getTokenSpelling(tu, t);
	char *r = hog_xstrdup(clang_getCString(s) ? clang_getCString(s) : "");

	clang_disposeString(s);
	return r;
}

/* The tokens between the "(" at toks[i] and its ")", joined; NULL if unbalanced. */
static char *arg_text(CXTranslationUnit tu, CXToken *toks, unsigned n, unsigned i)
{
	struct hog_buf b = { 0 };
	int depth = 0;

	if (i >= n)
		return NULL;
	{
		char *s = token_text(tu, toks[i]);
		int open = !strcmp(s, "(");

		free(s);
		if (!open)
			return NULL;
	}
	for (i++; i < n; i++) {
		char *s = token_text(tu, toks[i]);

		if (!strcmp(s, "("))
			depth++;
		else if (!strcmp(s, ")") && depth-- == 0) {
			free(s);
			if (!b.s)
				hog_buf_add(&b, "");
			return b.s;
		}
		hog_buf_add(&b, s);
		free(s);
	}
	hog_buf_free(&b);
	return NULL;
}

static int is_macro_use(CXTranslationUnit tu, CXToken t)
{
	CXCursor c = clang_getCursor(tu, clang_getTokenLocation(tu, t));

	return clang_getCursorKind(c) == CXCursor_MacroExpansion;
}

static void add_assert(struct lc_fn *F, unsigned off, int line, int col, const char *expr,
		       const char *type)
{
	struct lc_assert *a;

	if (F->nassert == F->cassert) {
		F->cassert = F->cassert ? 2 * F->cassert : 4;
		F->assert = hog_xrealloc(F->assert, F->cassert * sizeof(*F->assert));
	}
	a = &F->assert[F->nassert++];
	a->off = off;
	a->line = line;
	a->col = col;
	a->expr = expr;
	a->type = type;
	a->done = 0;
}

static void add_annot(struct lc_fn *F, int kind, int line, int col, const char *expr,
		      const char *type)
{
	struct lc_annot *a;

	if (F->nannot == F->cannot) {
		F->cannot = F->cannot ? 2 * F->cannot : 4;
		F->annot = hog_xrealloc(F->annot, F->cannot * sizeof(*F->annot));
	}
	a = &F->annot[F->nannot++];
	a->kind = kind;
	a->line = line;
	a->col = col;
	a->expr = expr;
	a->type = type;
}

/* One token: an annotation or an assert, kept if its lock reads. */
static void scan_token(struct lc_fn *F, CXToken *toks, unsigned n, unsigned i)
{
	char *name = token_text(F->tu, toks[i]), *text;
	int kind = hog_annot_kind_of(name), as = hog_annot_is_assert(name);
	const char *expr, *type;
	CXFile file;
	unsigned line, col, off;

	if ((kind < 0 && !as) ||
	    ((as || !strstr(name, "capability")) && !is_macro_use(F->tu, toks[i]))) {
		free(name);
		return;
	}
	free(name);
	text = arg_text(F->tu, toks, n, i + 1);
	if (text && !parse_lock(F, text, &expr, &type)) {
		clang_getExpansionLocation(clang_getTokenLocation(F->tu, toks[i]), &file,
					   &line, &col, &off);
		col = lc_display_col(F->tu, file, col, off);
		if (as)
			add_assert(F, off, line, col, expr, type);
		else
			add_annot(F, kind, line, col, expr, type);
	}
	free(text);
}

void lc_annots_scan(struct lc_fn *F, CXCursor fn)
{
	CXToken *toks = NULL;
	unsigned n = 0, i;

	clang_tokenize(F->tu, clang_getCursorExtent(fn), &toks, &n);
	for (i = 0; i < n; i++)
		if (clang_getTokenKind(toks[i]) == CXToken_Identifier)
			scan_token(F, toks, n, i);
	clang_disposeTokens(F->tu, toks, n);
}

/* A statement that a lockdep_assert_held() expands to: the lock is held from here. */
void lc_assert_at(struct lc_fn *F, CXCursor c)
{
	CXSourceLocation loc;
	CXFile file;
	unsigned line, col, off;
	int i;

	if (!F->nassert)
		return;
	loc = clang_getRangeStart(clang_getCursorExtent(c));
	clang_getExpansionLocation(loc, &file, &line, &col, &off);
	for (i = 0; i < F->nassert; i++) {
		struct lc_assert *a = &F->assert[i];
		struct lc_ev *e;

		if (a->done || a->off != off || a->line != (int)line)
			continue;
		a->done = 1;
		F->line = a->line;
		F->col = a->col;
		e = lc_emit(F, HE_HELD, a->type, -1, 1);
		e->a[0].kind = HV_ADDR;
		e->a[0].addr = a->expr;
	}
}

void lc_annots_finish(struct lc_fn *F, struct hog_func *f)
{
	int i;

	for (i = 0; f && i < F->nannot; i++)
		hog_func_add_annot(F->m, f, F->annot[i].kind, F->annot[i].line, F->annot[i].col,
				   F->annot[i].type, F->annot[i].expr);
	free(F->annot);
	free(F->assert);
}
