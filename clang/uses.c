// SPDX-License-Identifier: GPL-2.0
/*
 * What the unit says of a function beyond its body (HOG_FN_*, docs/ir.md),
 * as the GCC frontend reads it off the call graph and the attributes.
 *
 * Address taken: a reference to the function that is not the callee of
 * a direct call (&f, .store = f, f passed as an argument).  Every
 * DeclRefExpr to a function is counted, and every direct call; more of
 * the first than of the second is an address.  When each of those is a
 * call's argument (on_each_cpu(f, ...)), the address goes nowhere else
 * (HOG_FN_ARGS).  Only the main file is
 * walked: a static function of the unit cannot be named in a header
 * included before it, and the engine never passes rarity to a header's
 * static inline anyway (core/prog.c, mark_rare()).
 *
 * Cold: libclang does not expose the attribute, so the token that names
 * it is read (__cold__, or cold).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lc.h"

struct uses {
	struct hog_strtab *strs;
	struct hog_map *refs;	/* name -> references, as (void *)(intptr_t) */
	struct hog_map *calls;	/* name -> direct calls */
	struct hog_map *args;	/* name -> references that are a call's argument */
};

/* The function an argument names (f, &f, (void *)f), or a null cursor. */
static CXCursor arg_function(CXCursor a)
{
	int n = 0;

	while (n++ < 6) {
		enum CXCursorKind k = clang_getCursorKind(a);
		struct kids d;
		int one;

		if (k == CXCursor_DeclRefExpr)
			return clang_getCursorKind(clang_getCursorReferenced(a)) ==
			       CXCursor_FunctionDecl ? clang_getCursorReferenced(a) :
			       clang_getNullCursor();
		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
		    k != CXCursor_UnaryOperator && k != CXCursor_CStyleCastExpr)
			break;
		d = lc_kids_of(a);
		/* a cast's kids are its type's TypeRef, then the operand */
		one = d.n == 1 || (k == CXCursor_CStyleCastExpr && d.n == 2);
		if (one)
			a = d.c[d.n - 1];
		free(d.c);
		if (!one)
			break;
	}
	return clang_getNullCursor();
}

static void count(struct uses *u, struct hog_map *m, CXCursor fn)
{
	char *n = lc_spell(fn);
	const char *k = hog_intern(u->strs, n);

	free(n);
	hog_map_put(m, k, (void *)((intptr_t)hog_map_get(m, k) + 1));
}

static enum CXChildVisitResult walk(CXCursor c, CXCursor parent, CXClientData d)
{
	struct uses *u = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor r;

	(void)parent;
	if (k != CXCursor_DeclRefExpr && k != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	r = clang_getCursorReferenced(c);
	if (clang_getCursorKind(r) == CXCursor_FunctionDecl)
		count(u, k == CXCursor_CallExpr ? u->calls : u->refs, r);
	if (k == CXCursor_CallExpr) {
		int i, n = clang_Cursor_getNumArguments(c);

		for (i = 0; i < n; i++) {
			CXCursor f = arg_function(clang_Cursor_getArgument(c, (unsigned)i));

			if (!clang_Cursor_isNull(f))
				count(u, u->args, f);
		}
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult top(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	if (clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		clang_visitChildren(c, walk, d);
	return CXChildVisit_Continue;
}

struct hog_map *lc_uses_scan(CXTranslationUnit tu, struct hog_strtab *strs)
{
	struct uses u = { strs, hog_map_new(), hog_map_new(), hog_map_new() };
	struct hog_map *addr = hog_map_new();
	size_t it = 0;
	const void *k;
	void *v;

	clang_visitChildren(clang_getTranslationUnitCursor(tu), top, &u);
	while (hog_map_next(u.refs, &it, &k, &v)) {
		intptr_t taken = (intptr_t)v - (intptr_t)hog_map_get(u.calls, k);

		if (taken > 0)
			hog_map_put(addr, k, (void *)(taken ==
				(intptr_t)hog_map_get(u.args, k) ? LC_ADDR_ARGS : LC_ADDR));
	}
	hog_map_free(u.refs);
	hog_map_free(u.calls);
	hog_map_free(u.args);
	return addr;
}

/*
 * An attribute's extent is where its macro was used, which tokenizes to
 * nothing; its start's spelling location is the attribute's own name
 * (__cold__ in compiler_attributes.h's __cold, however many macros deep
 * it was used from).  The first token there says what it is.
 */
static int attr_cold(CXTranslationUnit tu, CXCursor a)
{
	CXSourceLocation at;
	CXToken *toks = NULL;
	CXFile file;
	unsigned line, col, off, n = 0;
	int cold = 0;

	clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(a)), &file, &line,
				  &col, &off);
	if (!file)
		return 0;
	at = clang_getLocation(tu, file, line, col);
	clang_tokenize(tu, clang_getRange(at, at), &toks, &n);
	if (n) {
		CXString s = clang_getTokenSpelling(tu, toks[0]);
		const char *t = clang_getCString(s);

		cold = t && (!strcmp(t, "cold") || !strcmp(t, "__cold__"));
		clang_disposeString(s);
	}
	clang_disposeTokens(tu, toks, n);
	return cold;
}

struct cold_ctx {
	CXTranslationUnit tu;
	int cold;
};

static enum CXChildVisitResult attr(CXCursor c, CXCursor parent, CXClientData d)
{
	struct cold_ctx *x = d;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_UnexposedAttr && attr_cold(x->tu, c))
		x->cold = 1;
	return x->cold ? CXChildVisit_Break : CXChildVisit_Continue;
}

int lc_is_cold(CXTranslationUnit tu, CXCursor fn)
{
	struct cold_ctx x = { tu, 0 };

	clang_visitChildren(fn, attr, &x);
	return x.cold;
}

/*
 * Static initializers that store a function in a field the rules name
 * (G records, docs/ir.md; the GCC frontend's plugin/inits.c).  The
 * visitor sees the initializer as written: ".store = f" is a designator
 * (an unexposed expression whose first child is the field's MemberRef),
 * anything else takes the next field in order.
 */
#define INIT_DEPTH 8

struct inits {
	CXTranslationUnit tu;
	struct hog_module *m;
	const struct hog_rules *rules;
	const char *var;
	int line;
	/* in code (lc_init_stores()): each store found, by its field path */
	void (*store)(void *arg, const char *path, CXCursor fn);
	void *arg;
	const char *path;	/* "T.f/U.g" down to the list being walked, or NULL */
};

struct fields {
	CXCursor f[256];
	int n;
};

static enum CXVisitorResult add_field(CXCursor c, CXClientData d)
{
	struct fields *fs = d;

	if (fs->n < 256)
		fs->f[fs->n++] = c;
	return CXVisit_Continue;
}

/* The function a value names (f, &f, (void *)f), or a null cursor. */
static CXCursor value_function(CXCursor v)
{
	int n = 0, one;

	while (n++ < 4) {
		CXCursor r = clang_getCursorReferenced(v);
		struct kids k;

		if (clang_getCursorKind(r) == CXCursor_FunctionDecl)
			return r;
		k = lc_kids_of(v);
		one = k.n == 1;
		if (one)
			v = k.c[0];
		free(k.c);
		if (!one)
			break;
	}
	return clang_getNullCursor();
}

static void init_value(struct inits *in, CXCursor field, CXCursor v, int depth);
static CXCursor list_of(CXCursor v);

/* A positional value for a struct or array field that is not one: braces elided */
static int elided(CXCursor field, CXCursor v)
{
	CXType ft = clang_getCanonicalType(clang_getCursorType(field));
	CXType vt = clang_getCanonicalType(clang_getCursorType(v));

	if (ft.kind != CXType_Record && ft.kind != CXType_ConstantArray)
		return 0;
	return clang_Cursor_isNull(list_of(v)) && !clang_equalTypes(ft, vt);
}

static void init_list(struct inits *in, CXCursor list, int depth)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(list));
	struct fields fs = { .n = 0 };
	struct kids k;
	int i, j, idx = 0, rec = t.kind == CXType_Record;

	if (depth > INIT_DEPTH)
		return;
	if (rec)
		clang_Type_visitFields(t, add_field, &fs);
	k = lc_kids_of(list);
	for (i = 0; i < k.n; i++, idx++) {
		CXCursor c = k.c[i], field = clang_getNullCursor();
		struct kids d = lc_kids_of(c);

		if (clang_getCursorKind(c) == CXCursor_UnexposedExpr && d.n == 2 &&
		    clang_getCursorKind(d.c[0]) == CXCursor_MemberRef) {
			field = clang_getCursorReferenced(d.c[0]);
			for (j = 0; j < fs.n; j++)
				if (clang_equalCursors(fs.f[j], field))
					idx = j;
			c = d.c[1];
		} else if (rec && idx < fs.n) {
			field = fs.f[idx];
			/*
			 * { "e", 0644, e_show, e_store } with the first two
			 * filling a struct member's fields (brace elision):
			 * the visitor sees the list as written, so the
			 * positions no longer name fields; only a designator
			 * names one again.
			 */
			if (elided(field, c))
				idx = fs.n;
			if (idx >= fs.n)
				field = clang_getNullCursor();
		}
		free(d.c);
		init_value(in, field, c, depth);
	}
	free(k.c);
}

/*
 * The initializer list a value is, through a compound literal and the
 * wrappers around it ((struct irq_work){ .func = f }, what
 * IRQ_WORK_INIT() and CSD_INIT() expand to), or a null cursor.
 */
static CXCursor list_of(CXCursor v)
{
	int n = 0;

	while (n++ < 4 && clang_getCursorKind(v) != CXCursor_InitListExpr) {
		enum CXCursorKind k = clang_getCursorKind(v);
		struct kids d;
		int one;

		if (k != CXCursor_CompoundLiteralExpr && k != CXCursor_UnexposedExpr &&
		    k != CXCursor_ParenExpr)
			break;
		/* a compound literal's kids are its type's TypeRef, then the list */
		d = lc_kids_of(v);
		one = d.n == 1 || (k == CXCursor_CompoundLiteralExpr && d.n == 2);
		if (one)
			v = d.c[d.n - 1];
		free(d.c);
		if (!one)
			break;
	}
	return clang_getCursorKind(v) == CXCursor_InitListExpr ? v : clang_getNullCursor();
}

/* The field's class, "TAG.FIELD", or NULL (an anonymous struct's) */
static char *field_class(CXCursor field)
{
	char *s = lc_spell(clang_getCursorSemanticParent(field)), *f = lc_spell(field);
	char *cls = *s && *f ? hog_xasprintf("%s.%s", s, f) : NULL;

	free(s);
	free(f);
	return cls;
}

/* The path one field further down: "T.f" below the list walked, or "T.f/U.g" */
static char *path_down(const struct inits *in, const char *cls)
{
	return in->path ? hog_xasprintf("%s/%s", in->path, cls) : hog_xstrdup(cls);
}

/* fn in field cls: a store in code (in->store), else a static initializer's G record */
static void init_found(struct inits *in, const char *cls, CXCursor fn)
{
	char *s;

	if (!hog_rules_callback_field(in->rules, cls))
		return;
	if (in->store) {
		s = path_down(in, cls);
		in->store(in->arg, s, fn);
	} else {
		s = lc_spell(fn);
		hog_module_add_reg(in->m, in->var, in->line, cls, s);
	}
	free(s);
}

static void init_value(struct inits *in, CXCursor field, CXCursor v, int depth)
{
	int isfield = !clang_Cursor_isNull(field) && clang_getCursorKind(field) == CXCursor_FieldDecl;
	char *cls = isfield ? field_class(field) : NULL;
	CXCursor l = list_of(v), fn;

	if (!clang_Cursor_isNull(l)) {
		const char *up = in->path;
		char *path = NULL;

		/* a store in code needs the way down; a static one only the field */
		if (in->store && cls) {
			path = path_down(in, cls);
			in->path = path;
		}
		if (!in->store || cls)
			init_list(in, l, depth + 1);
		in->path = up;
		free(path);
	} else if (cls && !clang_Cursor_isNull(fn = value_function(v))) {
		init_found(in, cls, fn);
	}
	free(cls);
}

/*
 * *csd = CSD_INIT(fn, info): the functions a struct assignment in code
 * stores to the fields the rules name (context), each with its path
 * from the struct assigned ("__call_single_data.func"), and to those
 * of "rare" rules (*attr = __ATTR(...)).
 */
void lc_init_stores(CXCursor init, const struct hog_rules *rules,
		    void (*store)(void *arg, const char *path, CXCursor fn), void *arg)
{
	struct inits in = { .rules = rules, .store = store, .arg = arg };
	CXCursor l = list_of(init);

	if (!clang_Cursor_isNull(l))
		init_list(&in, l, 0);
}

static enum CXChildVisitResult var_init(CXCursor c, CXCursor parent, CXClientData d)
{
	struct inits *in = d;

	(void)parent;
	if (!clang_Cursor_isNull(c = list_of(c)))
		init_list(in, c, 0);
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult top_var(CXCursor c, CXCursor parent, CXClientData d)
{
	struct inits *in = d;
	CXFile file;
	unsigned line, col, off;
	char *n;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_VarDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	/*
	 * Where it is expanded: HSTATE_ATTR_WO(demote) names demote_attr by
	 * token pasting, which clang spells in its scratch space.
	 */
	clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, &col, &off);
	if (!file || !clang_Location_isFromMainFile(clang_getLocationForOffset(in->tu, file, off)))
		return CXChildVisit_Continue;
	n = lc_spell(c);
	in->var = hog_intern(in->m->strs, n);
	in->line = (int)line;
	free(n);
	clang_visitChildren(c, var_init, in);
	return CXChildVisit_Continue;
}

void lc_inits_scan(CXTranslationUnit tu, struct hog_module *m, const struct hog_rules *rules)
{
	struct inits in = { .tu = tu, .m = m, .rules = rules };

	clang_visitChildren(clang_getTranslationUnitCursor(tu), top_var, &in);
}
