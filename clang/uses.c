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
	if (lc_in_unit(clang_Cursor_getTranslationUnit(c), c))
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
 * (G records, docs/ir.md; the GCC frontend's plugin/inits.c), and the
 * stores a struct assigned or declared from one makes in code.  The
 * visitor sees the initializer as written: ".a.b[2].f = v" is a
 * designator (an unexposed expression of type void whose children are
 * a MemberRef for each field, an index for each element, then the
 * value); anything else takes the next field or element in order.
 */
#define INIT_DEPTH 8	/* nested lists, as plugin/inits.c counts constructors */
#define STORE_DEPTH 32	/* GCC splits a store in code field by field, at any depth */

struct inits {
	CXTranslationUnit tu;
	struct hog_module *m;
	const struct hog_rules *rules;
	const char *var;
	int line;
	/* in code (lc_init_stores()): each store found, by its field path */
	void (*store)(void *arg, const char *path, CXCursor fn);
	void *arg;
	char *path;	/* "/T.f[]/U.g" down to the list being walked, or NULL */
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

/* A member of anonymous struct or union type: its fields are the outer struct's */
static int anon_member(CXCursor field)
{
	return clang_Cursor_isAnonymousRecordDecl(clang_getTypeDeclaration(lc_canon(field)));
}

/* .f = v, [2] = v, .a.b[2].f = v: an unexposed expression of type void */
static int designator(CXCursor c, const struct kids *d)
{
	return clang_getCursorKind(c) == CXCursor_UnexposedExpr &&
	       clang_getCursorType(c).kind == CXType_Void && d->n >= 2;
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

/*
 * The field's class, "TAG.FIELD", or NULL for an anonymous member.  A
 * field of an anonymous struct or union is the named struct's around
 * it, and one of a named member of an unnamed type is "?"'s, as GCC
 * spells them: anon.csd for struct anon { union { call_single_data_t
 * csd; }; }, ?.csd for struct s2 { union { ... } u; }.
 */
static char *field_class(CXCursor field)
{
	CXCursor p = clang_getCursorSemanticParent(field);
	char *s = lc_spell(p), *f = lc_spell(field), *cls = NULL;
	int depth = 0;

	while (lc_anonymous(s) && clang_Cursor_isAnonymousRecordDecl(p) && depth++ < INIT_DEPTH) {
		free(s);
		p = clang_getCursorSemanticParent(p);
		s = lc_spell(p);
	}
	if (!lc_anonymous(f))
		cls = hog_xasprintf("%s.%s", lc_anonymous(s) ? "?" : s, f);
	free(s);
	free(f);
	return cls;
}

/* A positional value for a struct or array field that is not one: braces elided */
static int elided(CXCursor field, CXCursor v)
{
	CXType ft = lc_canon(field), vt = lc_canon(v);

	if (ft.kind != CXType_Record && !lc_is_array_type(ft))
		return 0;
	return clang_Cursor_isNull(list_of(v)) && !clang_equalTypes(ft, vt);
}

/*
 * The path of a store in code, "/T.f[]/U.g", one step at a time.  A
 * walk down takes a copy of its own (path_push()) and gives it back
 * (path_pop()).
 */
static char *path_push(struct inits *in)
{
	char *up = in->path;

	in->path = up ? hog_xstrdup(up) : NULL;
	return up;
}

static void path_pop(struct inits *in, char *up)
{
	free(in->path);
	in->path = up;
}

static void path_add(struct inits *in, const char *step)
{
	char *p = hog_xasprintf("%s%s", in->path ? in->path : "", step);

	free(in->path);
	in->path = p;
}

/* Into a field: a store in code names it on the path; 0 if it cannot */
static int path_field(struct inits *in, CXCursor field)
{
	char *cls, *step;

	if (!in->store || anon_member(field))
		return 1;
	cls = field_class(field);
	if (!cls)
		return 0;
	step = hog_xasprintf("/%s", cls);
	path_add(in, step);
	free(step);
	free(cls);
	return 1;
}

static void init_list(struct inits *in, CXCursor list, int depth);

static int too_deep(const struct inits *in, int depth)
{
	return depth > (in->store ? STORE_DEPTH : INIT_DEPTH);
}

/* fn in field cls: a store in code (in->store), else a static initializer's G record */
static void init_found(struct inits *in, const char *cls, CXCursor fn)
{
	char *s;

	if (!hog_rules_callback_field(in->rules, cls))
		return;
	if (in->store) {
		s = hog_xasprintf("%s/%s", in->path ? in->path : "", cls);
		in->store(in->arg, s, fn);
	} else {
		s = lc_spell(fn);
		hog_module_add_reg(in->m, in->var, in->line, cls, s);
	}
	free(s);
}

/* v for field: a list to go into, or a function stored there */
static void init_value(struct inits *in, CXCursor field, CXCursor v, int depth)
{
	CXCursor l = list_of(v), fn;
	char *cls, *up;

	if (!clang_Cursor_isNull(l)) {
		up = path_push(in);
		if (path_field(in, field))
			init_list(in, l, depth + 1);
		path_pop(in, up);
		return;
	}
	cls = field_class(field);
	if (cls && !clang_Cursor_isNull(fn = value_function(v)))
		init_found(in, cls, fn);
	free(cls);
}

/* v for an element of an array: only a list holds a field */
static void init_elem(struct inits *in, CXCursor v, int depth)
{
	CXCursor l = list_of(v);
	char *up;

	if (clang_Cursor_isNull(l))
		return;
	up = path_push(in);
	path_add(in, "[]");
	init_list(in, l, depth + 1);
	path_pop(in, up);
}

/*
 * A designator into a list of type t: each MemberRef a field, each index
 * of an array an element (an index past the element type is the end of
 * a GNU range, [1 ... 3]), then the value.  Each step is a list level,
 * as GCC nests the constructors.
 */
static void designated(struct inits *in, const struct kids *d, CXType t, int depth)
{
	CXCursor field = clang_getNullCursor(), v = d->c[d->n - 1];
	char *up = path_push(in);
	int i, ok = 1;

	for (i = 0; i < d->n - 1 && ok; i++) {
		/* the field before this step is on the way down */
		if (!clang_Cursor_isNull(field)) {
			ok = path_field(in, field);
			depth++;
		}
		if (clang_getCursorKind(d->c[i]) == CXCursor_MemberRef) {
			field = clang_getCursorReferenced(d->c[i]);
			t = lc_canon(field);
		} else if (lc_is_array_type(t)) {
			field = clang_getNullCursor();
			path_add(in, "[]");
			t = clang_getCanonicalType(clang_getArrayElementType(t));
			depth++;
		}
	}
	if (ok && !too_deep(in, depth)) {
		if (!clang_Cursor_isNull(field))
			init_value(in, field, v, depth);
		else if (!clang_Cursor_isNull(list_of(v)))
			init_list(in, list_of(v), depth + 1);
	}
	path_pop(in, up);
}

static void init_list(struct inits *in, CXCursor list, int depth)
{
	CXType t = lc_canon(list);
	struct fields fs = { .n = 0 };
	struct kids k;
	int i, j, idx = 0, rec = t.kind == CXType_Record;

	if (too_deep(in, depth))
		return;
	if (rec)
		clang_Type_visitFields(t, add_field, &fs);
	k = lc_kids_of(list);
	for (i = 0; i < k.n; i++, idx++) {
		CXCursor c = k.c[i], field = clang_getNullCursor();
		struct kids d = lc_kids_of(c);

		if (designator(c, &d)) {
			field = clang_getCursorReferenced(d.c[0]);
			for (j = 0; j < fs.n; j++)
				if (clang_equalCursors(fs.f[j], field))
					idx = j;
			designated(in, &d, t, depth);
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
			else
				init_value(in, field, c, depth);
		} else if (lc_is_array_type(t)) {
			init_elem(in, c, depth);
		}
		free(d.c);
	}
	free(k.c);
}

/*
 * *csd = CSD_INIT(fn, info): the functions a struct assignment in code
 * stores to the fields the rules name (context), each with its path
 * from the struct assigned ("/__call_single_data.func"), and to those
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

/*
 * The line in the main file where c is expanded, 0 if it is not there:
 * HSTATE_ATTR_WO(demote) names demote_attr by token pasting, which clang
 * spells in its scratch space, and so do SYSCALL_DEFINE2(kill, ...) its
 * __do_sys_kill() and DEFINE_IDTENTRY(exc_int3) the handler's parts.
 */
unsigned lc_in_main_file(CXTranslationUnit tu, CXCursor c)
{
	CXFile file;
	unsigned line, col, off;

	clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, &col, &off);
	if (!file || !clang_Location_isFromMainFile(clang_getLocationForOffset(tu, file, off)))
		return 0;
	return line;
}

/*
 * A function of the unit: defined in the main file, or in a .c file it
 * includes (kernel/sched/build_policy.c includes rt.c, deadline.c and
 * syscalls.c, and has no function of its own), as the GCC plugin
 * lowers every body of the unit.
 */
int lc_in_unit(CXTranslationUnit tu, CXCursor c)
{
	static CXFile last;
	static int last_r;
	CXSourceLocation loc = clang_getCursorLocation(c);
	CXFile file;
	CXString name;
	const char *s;
	size_t n;

	(void)tu;
	if (clang_Location_isFromMainFile(loc))
		return 1;
	/* only the file: a line number costs a walk of the file's text */
	clang_getExpansionLocation(loc, &file, NULL, NULL, NULL);
	if (!file)
		return 0;
	/* the cursors of one file come together: most are a header's */
	if (last && clang_File_isEqual(file, last))
		return last_r;
	name = clang_getFileName(file);
	s = clang_getCString(name);
	n = s ? strlen(s) : 0;
	last = file;
	last_r = n > 2 && !strcmp(s + n - 2, ".c");
	clang_disposeString(name);
	return last_r;
}

/* A static variable's initializer, if it is defined in the main file */
static void static_var(struct inits *in, CXCursor c)
{
	unsigned line;
	char *n;

	if (!clang_isCursorDefinition(c) || !(line = lc_in_main_file(in->tu, c)))
		return;
	n = lc_spell(c);
	in->var = hog_intern(in->m->strs, n);
	in->line = (int)line;
	free(n);
	clang_visitChildren(c, var_init, in);
}

/*
 * A function's static variables, at any depth of its body, the
 * initializers of its other variables included:
 * static DEFINE_IRQ_WORK(w, fn) is a static initializer too.
 */
static enum CXChildVisitResult fn_var(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_VarDecl ||
	    clang_Cursor_getStorageClass(c) != CX_SC_Static)
		return CXChildVisit_Recurse;
	static_var(d, c);
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult top_decl(CXCursor c, CXCursor parent, CXClientData d)
{
	struct inits *in = d;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_VarDecl)
		static_var(in, c);
	else if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
		 lc_in_main_file(in->tu, c))
		clang_visitChildren(c, fn_var, in);
	return CXChildVisit_Continue;
}

void lc_inits_scan(CXTranslationUnit tu, struct hog_module *m, const struct hog_rules *rules)
{
	struct inits in = { .tu = tu, .m = m, .rules = rules };

	clang_visitChildren(clang_getTranslationUnitCursor(tu), top_decl, &in);
}
