// SPDX-License-Identifier: GPL-2.0
/*
 * __attribute__((cleanup(fn))): fn(&var) runs whenever var leaves its
 * scope, at the end of its block and on every break, continue, return
 * and goto that leaves it, innermost variable first.  GCC inserts those
 * calls itself, so the plugin sees them; here lower.c keeps a stack of
 * the variables in scope (F->cln) and asks for the calls at each exit.
 * cleanup.h's guard() and scoped_guard() are the kernel's users.
 */
#include <stdlib.h>
#include <string.h>
#include "lc.h"

/* how clang prints the attribute, each on its own, before the initialiser */
#define CLEANUP_ATTR "__attribute__((cleanup("

/*
 * The cleanup function's name.  libclang shows the attribute only as a
 * CXCursor_UnexposedAttr with no name or argument, and its tokens are
 * the macro's (class_##_name##_destructor): read it from the
 * declaration as clang prints it.
 */
static char *cleanup_name(CXCursor var)
{
	CXPrintingPolicy pol = clang_getCursorPrintingPolicy(var);
	CXString s = clang_getCursorPrettyPrinted(var, pol);
	const char *t = clang_getCString(s), *p, *q;
	char *r = NULL;

	p = t ? strstr(t, CLEANUP_ATTR) : NULL;
	if (p) {
		p += strlen(CLEANUP_ATTR);
		q = strchr(p, ')');
		if (q && q > p)
			r = hog_xasprintf("%.*s", (int)(q - p), p);
	}
	clang_disposeString(s);
	clang_PrintingPolicy_dispose(pol);
	return r;
}

static enum CXChildVisitResult has_attr(CXCursor c, CXCursor parent, CXClientData d)
{
	if (clang_isAttribute(clang_getCursorKind(c))) {
		*(int *)d = 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

struct find_fn {
	const char *name;
	CXCursor def;
};

static enum CXChildVisitResult find_def(CXCursor c, CXCursor parent, CXClientData d)
{
	struct find_fn *ff = d;
	CXString s;
	int same;

	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	s = clang_getCursorSpelling(c);
	same = !strcmp(clang_getCString(s), ff->name);
	clang_disposeString(s);
	if (!same)
		return CXChildVisit_Continue;
	ff->def = c;
	return CXChildVisit_Break;
}

/* does var have a cleanup?  Its address is taken then (fn(&var)): it lives in memory */
int lc_has_cleanup(CXCursor var)
{
	int attr = 0;
	char *n;

	clang_visitChildren(var, has_attr, &attr);
	if (!attr)
		return 0;
	n = cleanup_name(var);
	free(n);
	return n != NULL;
}

/* var declared in scope (a block or a for): its cleanup, if it has one, now runs at exits */
void lc_cleanup_decl(struct lc_fn *F, CXCursor var, CXCursor scope)
{
	struct find_fn ff;
	struct lc_cleanup *e;
	CXSourceLocation l;
	int attr = 0;
	char *n;

	clang_visitChildren(var, has_attr, &attr);
	if (!attr)
		return;
	n = cleanup_name(var);
	if (!n)
		return;
	if (F->ncln >= F->ccln) {
		F->ccln = F->ccln ? 2 * F->ccln : 8;
		F->cln = hog_xrealloc(F->cln, sizeof(*F->cln) * F->ccln);
	}
	e = &F->cln[F->ncln++];
	e->fn = hog_intern(F->m->strs, n);
	free(n);
	{
		CXString s = clang_getCursorSpelling(var);
		char *t = hog_xasprintf("%%%s", clang_getCString(s));

		e->addr = hog_intern(F->m->strs, t);
		free(t);
		clang_disposeString(s);
	}
	lc_where(F, var, NULL, &e->line, &e->col);
	clang_getExpansionLocation(clang_getCursorLocation(var), NULL, NULL, NULL, &e->from);
	l = clang_getRangeEnd(clang_getCursorExtent(scope));
	clang_getExpansionLocation(l, NULL, NULL, NULL, &e->to);
	/* lower the cleanup function's body too, as for any call */
	ff.name = e->fn;
	ff.def = clang_getNullCursor();
	clang_visitChildren(clang_getTranslationUnitCursor(F->tu), find_def, &ff);
	if (!clang_Cursor_isNull(ff.def)) {
		CXCursor *p = hog_xmalloc(sizeof(*p));

		*p = ff.def;
		hog_vec_push(&F->called, p);
	}
}

/* the calls for the variables above height n, innermost first (a jump out of their scope) */
void lc_cleanup_run(struct lc_fn *F, int n)
{
	int i;

	if (F->cur < 0)
		return;
	for (i = F->ncln - 1; i >= n; i--) {
		struct lc_ev *ev;
		struct lc_cleanup *e = &F->cln[i];

		F->line = e->line;
		F->col = e->col;
		ev = lc_emit(F, HE_CALL, e->fn, -1, 1);
		ev->a[0].kind = HV_ADDR;
		ev->a[0].var = 0;
		ev->a[0].cst = 0;
		ev->a[0].addr = e->addr;
	}
}

/* the end of a scope: its variables' calls, and they leave the stack */
void lc_cleanup_pop(struct lc_fn *F, int n)
{
	if (n >= F->ncln)
		return;
	lc_cleanup_run(F, n);
	F->ncln = n;
}

/* goto lab: the variables whose scope does not hold lab (one cannot jump into one) */
void lc_cleanup_goto(struct lc_fn *F, CXCursor lab)
{
	unsigned int off;
	int n = F->ncln;

	clang_getExpansionLocation(clang_getCursorLocation(lab), NULL, NULL, NULL, &off);
	while (n > 0 && !(off >= F->cln[n - 1].from && off < F->cln[n - 1].to))
		n--;
	lc_cleanup_run(F, n);
}
