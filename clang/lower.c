// SPDX-License-Identifier: GPL-2.0
/*
 * The clang AST of one function lowered into the CFG of cfg.c, in the
 * IR's terms (docs/ir.md), the way plugin/lower.c and plugin/value.c
 * lower pre-inline GIMPLE: calls with their arguments' values, atomics,
 * the tests the engine follows, phis of locals, loops.  Macros are
 * already expanded in the AST, so spin_lock_irqsave() is the calls it
 * expands to, and static inline wrappers stay calls as they do before
 * GCC inlines.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "lc.h"
#include "../core/expr.h"

/* the rules' percpu-asm lines name the target so */
#define LC_ARCH "x86_64"
/* GCC's display columns: a tab moves to the next multiple of this, plus one */
#define TABSTOP 8
/* asm operands read from the pretty-printed statement, at most */
#define MAX_ASM_OPS 64

static enum CXChildVisitResult add_kid(CXCursor c, CXCursor parent, CXClientData d)
{
	struct kids *k = d;

	if (k->n >= k->cap) {
		k->cap = k->cap ? 2 * k->cap : 8;
		k->c = hog_xrealloc(k->c, sizeof(CXCursor) * k->cap);
	}
	k->c[k->n++] = c;
	return CXChildVisit_Continue;
}

struct kids lc_kids_of(CXCursor c)
{
	struct kids k = { NULL, 0, 0 };

	clang_visitChildren(c, add_kid, &k);
	return k;
}

/* the expression children only (a cast's TypeRef is not one) */
static struct kids expr_kids(CXCursor c)
{
	struct kids k = lc_kids_of(c);
	int i, n = 0;

	for (i = 0; i < k.n; i++)
		if (clang_isExpression(clang_getCursorKind(k.c[i])) ||
		    clang_isStatement(clang_getCursorKind(k.c[i])))
			k.c[n++] = k.c[i];
	k.n = n;
	return k;
}

/* clang spells an anonymous member "struct page::(anonymous at ...)" */
int lc_anonymous(const char *n)
{
	return !*n || strstr(n, "(anonymous") || strstr(n, "(unnamed");
}

char *lc_spell(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = hog_xstrdup(clang_getCString(s) ? clang_getCString(s) : "");

	clang_disposeString(s);
	return r;
}

const char *lc_clean_path(const char *f)
{
	if (!f)
		return "";
	while (f[0] == '.' && f[1] == '/')
		f += 2;
	return f;
}

static int display_col(CXTranslationUnit tu, CXFile file, unsigned col, unsigned off);

int lc_display_col(CXTranslationUnit tu, CXFile file, unsigned col, unsigned off)
{
	return display_col(tu, file, col, off);
}

static int display_col(CXTranslationUnit tu, CXFile file, unsigned col, unsigned off)
{
	size_t size = 0;
	const char *buf = clang_getFileContents(tu, file, &size);
	unsigned start, i;
	int d = 0;

	if (!buf || col < 1 || off < col - 1 || off > size)
		return col;
	start = off - (col - 1);
	for (i = start; i < off; i++) {
		unsigned char ch = buf[i];

		if (ch == '\t')
			d = (d / TABSTOP + 1) * TABSTOP;
		else if ((ch & 0xc0) != 0x80)
			d++;
	}
	return d + 1;
}

int lc_where(struct lc_fn *F, CXCursor c, const char **file, int *line, int *col)
{
	CXSourceLocation loc = clang_getCursorLocation(c);
	CXFile f;
	unsigned l, cl, off;
	CXString name;

	clang_getExpansionLocation(loc, &f, &l, &cl, &off);
	if (!f || !l)
		return 0;
	if (file) {
		name = clang_getFileName(f);
		*file = hog_intern(F->m->strs, lc_clean_path(clang_getCString(name)));
		clang_disposeString(name);
	}
	*line = l;
	*col = display_col(F->tu, f, cl, off);
	return 1;
}

static void at(struct lc_fn *F, CXCursor c)
{
	int line, col;

	if (lc_where(F, c, NULL, &line, &col)) {
		F->line = line;
		F->col = col;
	}
}

/*
 * Where a binary operator is, as GCC places it: its operator, found in
 * the text after the left operand; the macro's place inside a macro.
 */
static int op_where(struct lc_fn *F, CXCursor e, int *line, int *col)
{
	struct kids ch = expr_kids(e);
	CXSourceLocation end;
	CXFile f, f2;
	unsigned l, c, off, l2, c2, off2;
	size_t size = 0;
	const char *buf, *p;

	if (ch.n != 2) {
		free(ch.c);
		return lc_where(F, e, NULL, line, col);
	}
	end = clang_getRangeEnd(clang_getCursorExtent(ch.c[0]));
	free(ch.c);
	clang_getExpansionLocation(clang_getCursorLocation(e), &f2, &l2, &c2, &off2);
	clang_getSpellingLocation(clang_getCursorLocation(e), NULL, NULL, NULL, &off);
	if (off != off2)	/* written by a macro */
		return lc_where(F, e, NULL, line, col);
	clang_getExpansionLocation(end, &f, &l, &c, &off);
	buf = f ? clang_getFileContents(F->tu, f, &size) : NULL;
	if (!buf || off >= size || !clang_File_isEqual(f, f2))
		return lc_where(F, e, NULL, line, col);
	for (p = buf + off; p < buf + size && (*p == ' ' || *p == '\t' || *p == '\n' ||
					     *p == ')'); p++) {
		if (*p == '\n') {
			l++;
			c = 1;
			off = p - buf + 1;
		} else if (p > buf + off) {
			c++;
		} else {
			c++;
		}
	}
	off = p - buf;
	/* c counted bytes from the left operand's end: recount from the line start */
	{
		const char *ls = p;

		while (ls > buf && ls[-1] != '\n')
			ls--;
		*line = l;
		*col = display_col(F->tu, f, (unsigned)(p - ls) + 1, off);
	}
	return 1;
}

static void at_op(struct lc_fn *F, CXCursor e)
{
	int line, col;

	if (op_where(F, e, &line, &col)) {
		F->line = line;
		F->col = col;
	}
}

/* ---- types and constants ---- */

CXType lc_canon(CXCursor c)
{
	return clang_getCanonicalType(clang_getCursorType(c));
}

static int is_ptr_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_Pointer || t.kind == CXType_BlockPointer;
}

int lc_is_array_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
	       t.kind == CXType_VariableArray || t.kind == CXType_DependentSizedArray;
}

static int is_scalar_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return is_ptr_type(t) || t.kind == CXType_Enum ||
	       (t.kind >= CXType_Bool && t.kind <= CXType_LongDouble);
}

/* signed and unsigned integer types, as the sign lowering needs them */
static int is_signed_int(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_SChar || t.kind == CXType_Char_S || t.kind == CXType_Short ||
	       t.kind == CXType_Int || t.kind == CXType_Long || t.kind == CXType_LongLong;
}

/* integers and bool and enums: what a test of a whole parameter's value is on */
static int is_int_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_Bool || t.kind == CXType_Enum ||
	       (t.kind >= CXType_Char_U && t.kind <= CXType_Int128 && t.kind != CXType_Char16 &&
		t.kind != CXType_Char32 && t.kind != CXType_WChar) || is_signed_int(t);
}

static int is_unsigned_int(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_UChar || t.kind == CXType_Char_U || t.kind == CXType_UShort ||
	       t.kind == CXType_UInt || t.kind == CXType_ULong || t.kind == CXType_ULongLong;
}

/*
 * An aggregate is never the integer asked for, and libclang 19 crashes
 * evaluating some (a struct's initializer list that holds a designated
 * array initializer and a non-constant member: 6.12's read_kcore_iter()).
 */
static int aggregate(CXCursor e)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(e));

	return clang_getCursorKind(e) == CXCursor_InitListExpr || t.kind == CXType_Record ||
	       t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
	       t.kind == CXType_VariableArray || t.kind == CXType_Vector ||
	       t.kind == CXType_ExtVector;
}

static int constant(CXCursor e, long long *v)
{
	CXEvalResult r;
	int ok = 0;

	if (aggregate(e))
		return 0;
	r = clang_Cursor_Evaluate(e);
	if (!r)
		return 0;
	if (clang_EvalResult_getKind(r) == CXEval_Int) {
		*v = clang_EvalResult_isUnsignedInt(r) ?
		     (long long)clang_EvalResult_getAsUnsigned(r) :
		     clang_EvalResult_getAsLongLong(r);
		ok = 1;
	}
	clang_EvalResult_dispose(r);
	return ok;
}

/* __builtin_constant_p(x) of a non-constant x: clang folds it to 0, GCC keeps it */
static enum CXChildVisitResult find_bcp(CXCursor c, CXCursor parent, CXClientData d)
{
	if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) == 1) {
		CXString s = clang_getCursorSpelling(c);
		int bcp = !strcmp(clang_getCString(s), "__builtin_constant_p");
		long long v;

		clang_disposeString(s);
		if (bcp && !constant(clang_Cursor_getArgument(c, 0), &v)) {
			*(int *)d = 1;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/*
 * A constant as GCC's "ssa" pass sees it: before inlining nothing folds
 * __builtin_constant_p() of a variable, so both of its ways are code
 */
static int fold(CXCursor e, long long *v)
{
	int bcp = 0;

	if (!constant(e, v))
		return 0;
	if (clang_getCursorKind(e) == CXCursor_IntegerLiteral)
		return 1;
	clang_visitChildren(e, find_bcp, &bcp);
	return !bcp;
}

static struct hog_val cval(long long c)
{
	struct hog_val v = { HV_CONST, 0, c, NULL };

	return v;
}

static struct hog_val aval(const char *a)
{
	struct hog_val v = { a ? HV_ADDR : HV_UNKNOWN, 0, 0, a };

	return v;
}

static struct hog_val fresh(struct lc_fn *F, enum lc_vkind k)
{
	return lc_varval(lc_new_var(F, k));
}

/* Do a and b hold the same integers (one width, one signedness)? */
static int same_int_type(CXType a, CXType b)
{
	return clang_Type_getSizeOf(clang_getCanonicalType(a)) ==
	       clang_Type_getSizeOf(clang_getCanonicalType(b)) &&
	       is_signed_int(a) == is_signed_int(b);
}

/*
 * Is e a field read right here, through parentheses and implicit casts
 * that keep its value (an lvalue's read): not a copy read earlier, not
 * a narrowed one?  A "load" at e then stands where the read is (the
 * plugin's read_here()).  *m: the member expression.
 */
static int plain_field_read(CXCursor e, CXCursor *m)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(e);
		struct kids ch;

		if (k == CXCursor_MemberRefExpr) {
			*m = e;
			return 1;
		}
		if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr)
			return 0;
		ch = expr_kids(e);
		if (ch.n != 1 || !same_int_type(clang_getCursorType(e), clang_getCursorType(ch.c[0]))) {
			free(ch.c);
			return 0;
		}
		e = ch.c[0];
		free(ch.c);
	}
}

static CXCursor strip(CXCursor e);

/* Is e a literal constant (or an enumerator), whose value has no side effect? */
static int plain_constant(CXCursor e)
{
	enum CXCursorKind k;
	struct kids ch;
	int r;

	e = strip(e);
	k = clang_getCursorKind(e);
	if (k == CXCursor_IntegerLiteral || k == CXCursor_CharacterLiteral)
		return 1;
	if (k == CXCursor_DeclRefExpr)
		return clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_EnumConstantDecl;
	if (k != CXCursor_UnaryOperator || (clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_Minus &&
					    clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_Plus))
		return 0;
	ch = expr_kids(e);
	r = ch.n == 1 && plain_constant(ch.c[0]);
	free(ch.c);
	return r;
}

/* parens, implicit casts and __extension__: the expression that matters */
static CXCursor strip(CXCursor e)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(e);
		struct kids ch;

		if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr &&
		    !(k == CXCursor_UnaryOperator &&
		      clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Extension))
			return e;
		ch = expr_kids(e);
		if (ch.n != 1) {
			free(ch.c);
			return e;
		}
		e = ch.c[0];
		free(ch.c);
	}
}

/* ---- locals ---- */

static int find_local(struct lc_fn *F, CXCursor d)
{
	int i;

	for (i = 0; i < F->nloc; i++)
		if (clang_equalCursors(F->loc[i].decl, d))
			return i;
	return -1;
}

static int add_local(struct lc_fn *F, CXCursor d, int param)
{
	struct lc_local *l;
	char *n;

	if (F->nloc >= F->cloc) {
		F->cloc = F->cloc ? 2 * F->cloc : 16;
		F->loc = hog_xrealloc(F->loc, sizeof(*F->loc) * F->cloc);
	}
	l = &F->loc[F->nloc];
	l->decl = d;
	n = lc_spell(d);
	l->name = *n ? hog_intern(F->m->strs, n) : NULL;
	free(n);
	l->memory = !is_scalar_type(clang_getCursorType(d));
	l->ptr = is_ptr_type(clang_getCursorType(d));
	l->param = param;
	l->test_var = -1;
	l->percpu = 0;
	return F->nloc++;
}

static int is_auto_var(CXCursor d)
{
	enum CX_StorageClass sc = clang_Cursor_getStorageClass(d);

	return clang_getCursorKind(d) == CXCursor_VarDecl && sc != CX_SC_Static &&
	       sc != CX_SC_Extern &&
	       clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_TranslationUnit;
}

static enum CXChildVisitResult prescan(CXCursor c, CXCursor parent, CXClientData d)
{
	struct lc_fn *F = d;
	enum CXCursorKind k = clang_getCursorKind(c);

	if (k == CXCursor_VarDecl && is_auto_var(c) && find_local(F, c) < 0) {
		int li = add_local(F, c, -1);

		if (lc_has_cleanup(c))
			F->loc[li].memory = 1;
	}
	if (k == CXCursor_UnaryOperator &&
	    clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf) {
		struct kids ch = expr_kids(c);

		if (ch.n == 1 && clang_getCursorKind(strip(ch.c[0])) == CXCursor_DeclRefExpr) {
			int li = find_local(F, clang_getCursorReferenced(strip(ch.c[0])));

			if (li >= 0)
				F->loc[li].memory = 1;
		}
		free(ch.c);
	}
	return CXChildVisit_Recurse;
}

/* an SSA local, or -1 */
static int ssa_local(struct lc_fn *F, CXCursor e)
{
	int li;

	e = strip(e);
	if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
		return -1;
	li = find_local(F, clang_getCursorReferenced(e));
	return li >= 0 && !F->loc[li].memory ? li : -1;
}

static const char *decl_addr(struct lc_fn *F, CXCursor d)
{
	char *n = lc_spell(d), *t;
	const char *r;
	int global = !is_auto_var(d) && clang_getCursorKind(d) == CXCursor_VarDecl;

	if (!*n) {
		free(n);
		return NULL;
	}
	t = hog_xasprintf("%c%s", global ? '@' : '%', n);
	r = hog_intern(F->m->strs, t);
	free(t);
	free(n);
	return r;
}

/* ---- expressions ---- */

static struct hog_val rv(struct lc_fn *F, CXCursor e, int used);
static int percpu_val(struct lc_fn *F, struct hog_val v, int depth);
static void cond(struct lc_fn *F, CXCursor e, int t, int f);
static void stmt(struct lc_fn *F, CXCursor c);

static const char *lv(struct lc_fn *F, CXCursor e);

/*
 * A local kept in memory because its address is taken is per-CPU if a
 * per-CPU value was stored to it by name (6.12's this_cpu_try_cmpxchg(*p,
 * &o, n) loop in mod_zone_state(); plugin: percpu_stored()).
 */
static int percpu_memory(struct lc_fn *F, const char *a)
{
	int i, n = 0, percpu = 0;

	/* by name, as the address is: two locals of one name are neither */
	for (i = 0; a && a[0] == '%' && i < F->nloc; i++)
		if (F->loc[i].memory && F->loc[i].name && !strcmp(a + 1, F->loc[i].name)) {
			n++;
			percpu |= F->loc[i].percpu;
		}
	return n == 1 && percpu;
}

static void store_percpu(struct lc_fn *F, int li, struct hog_val v)
{
	if (li >= 0 && F->loc[li].memory && percpu_val(F, v, 0))
		F->loc[li].percpu = 1;
}

/* what a value read from memory at a is */
static struct hog_val load(struct lc_fn *F, const char *a, CXType t)
{
	struct hog_val v;

	if (clang_isVolatileQualifiedType(t))
		lc_moved(F, a);

	if (lc_is_array_type(t))
		return aval(a);
	if (is_ptr_type(t))
		return aval(lc_cat(F, a, "^"));
	v = fresh(F, VK_LOAD);
	F->var[v.var].load = a;
	F->var[v.var].small = clang_Type_getSizeOf(clang_getCanonicalType(t)) == 1;
	F->var[v.var].width = (int)clang_Type_getSizeOf(clang_getCanonicalType(t));
	/* or through a __seg_gs pointer, x86's this_cpu_read() from 6.8 on (plugin: percpu_walk()) */
	if ((a && strchr(a, '#')) || clang_getAddressSpace(t) || percpu_memory(F, a))
		F->var[v.var].percpu = 1;
	return v;
}

static const char *raw_at(struct lc_fn *F, CXCursor c, const char **end);
static const char *skip_blank(const char *p, const char *end);

/*
 * typedef struct { int counter; } atomic_t: clang spells the struct by
 * its typedef, GCC leaves it anonymous ("?"); the text tells: "struct {"
 */
static int untagged(struct lc_fn *F, CXCursor d)
{
	const char *end = NULL, *p = raw_at(F, d, &end);

	if (!p)
		return 0;
	if (end - p > 6 && !strncmp(p, "struct", 6))
		p += 6;
	else if (end - p > 5 && !strncmp(p, "union", 5))
		p += 5;
	else
		return 0;
	p = skip_blank(p, end);
	return p < end && *p == '{';
}

static const char *record_tag(struct lc_fn *F, CXType t)
{
	CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(t));
	char *n = lc_spell(d);
	const char *r;

	if (!*n || strchr(n, ' ') || strchr(n, '(') || clang_Cursor_isAnonymous(d) ||
	    untagged(F, d))
		r = "?";
	else
		r = hog_intern(F->m->strs, n);
	free(n);
	return r;
}

const char *lc_record_tag(struct lc_fn *F, CXType t)
{
	return record_tag(F, t);
}

static int field_anonymous(CXCursor member)
{
	char *n = lc_spell(clang_getCursorReferenced(member));
	int anon = lc_anonymous(n);

	free(n);
	return anon;
}

static CXType base_record(CXCursor base)
{
	CXType t = lc_canon(base);

	return t.kind == CXType_Pointer ? clang_getCanonicalType(clang_getPointeeType(t)) : t;
}

/* the struct holding a field, looking through anonymous members (mm->mmap_lock) */
static const char *container(struct lc_fn *F, CXCursor base)
{
	const char *n = record_tag(F, base_record(base));

	base = strip(base);
	while (!strcmp(n, "?") && clang_getCursorKind(base) == CXCursor_MemberRefExpr &&
	       field_anonymous(base)) {
		struct kids ch = expr_kids(base);

		if (ch.n != 1) {
			free(ch.c);
			break;
		}
		base = strip(ch.c[0]);
		free(ch.c);
		n = record_tag(F, base_record(base));
	}
	return n;
}

static int is_union(CXType t)
{
	return clang_getCursorKind(clang_getTypeDeclaration(t)) == CXCursor_UnionDecl;
}

/*
 * A member of an anonymous union, at any depth of anonymous records
 * (struct { union { void *file; long raw; }; }): GCC's in_union() sees
 * the union in the access path that clang's AST leaves out.
 */
static int in_anon_union(CXCursor field)
{
	CXCursor p = clang_getCursorSemanticParent(field);
	int depth;

	for (depth = 0; depth < 8 && !clang_Cursor_isNull(p); depth++) {
		if (clang_getCursorKind(p) == CXCursor_UnionDecl)
			return 1;
		if (clang_getCursorKind(p) != CXCursor_StructDecl || !clang_Cursor_isAnonymous(p))
			return 0;
		p = clang_getCursorSemanticParent(p);
	}
	return 0;
}

static const char *member_addr(struct lc_fn *F, CXCursor e)
{
	struct kids ch = expr_kids(e);
	CXCursor base;
	const char *b;
	char *fname, *step;

	if (ch.n != 1) {
		free(ch.c);
		return NULL;
	}
	base = ch.c[0];
	free(ch.c);
	if (is_ptr_type(clang_getCursorType(base)))
		b = lc_addr_of(F, rv(F, base, 1));
	else
		b = lv(F, base);
	if (!b)
		return NULL;
	/* a union's members share its bytes: no read through it is one value */
	if (is_union(base_record(base)) || in_anon_union(clang_getCursorReferenced(e))) {
		lc_moved(F, b);
		lc_other_write(F, b);
	}
	fname = lc_spell(clang_getCursorReferenced(e));
	if (lc_anonymous(fname)) {
		free(fname);
		return b;	/* an anonymous member adds no step */
	}
	step = hog_xasprintf("/%s.%s", container(F, base), fname);
	b = lc_cat(F, b, step);
	free(step);
	free(fname);
	return b;
}

static const char *index_addr(struct lc_fn *F, CXCursor e)
{
	struct kids ch = expr_kids(e);
	const char *b = NULL;
	struct hog_val idx;

	if (ch.n == 2) {
		if (lc_is_array_type(clang_getCursorType(strip(ch.c[0])))) {
			b = lc_cat(F, lv(F, strip(ch.c[0])), "[]");
			rv(F, ch.c[1], 1);
		} else {
			b = lc_addr_of(F, rv(F, ch.c[0], 1));
			idx = rv(F, ch.c[1], 1);
			if (idx.kind != HV_CONST)
				b = lc_cat(F, b, "[]");
		}
	}
	free(ch.c);
	return b;
}

/*
 * A function named as a value (cb, &cb): "@cb", as GCC spells it, so
 * that registrations name it; its body, if here, is lowered too.
 */
static const char *func_addr(struct lc_fn *F, CXCursor d)
{
	CXCursor def = clang_getCursorDefinition(d);
	char *n, *t;
	const char *r;

	if (!clang_Cursor_isNull(def)) {
		CXCursor *p = hog_xmalloc(sizeof(*p));

		*p = def;
		hog_vec_push(&F->called, p);
	}
	n = lc_spell(d);
	t = hog_xasprintf("@%s", n);
	r = *n ? hog_intern(F->m->strs, t) : NULL;
	free(t);
	free(n);
	return r;
}

/* the address of an lvalue, its subexpressions lowered */
static const char *lv(struct lc_fn *F, CXCursor e)
{
	e = strip(e);
	switch (clang_getCursorKind(e)) {
	case CXCursor_DeclRefExpr: {
		CXCursor d = clang_getCursorReferenced(e);

		if (clang_getCursorKind(d) == CXCursor_VarDecl ||
		    clang_getCursorKind(d) == CXCursor_ParmDecl)
			return decl_addr(F, d);
		if (clang_getCursorKind(d) == CXCursor_FunctionDecl)
			return func_addr(F, d);
		return NULL;
	}
	case CXCursor_MemberRefExpr:
		return member_addr(F, e);
	case CXCursor_ArraySubscriptExpr:
		return index_addr(F, e);
	case CXCursor_UnaryOperator:
		if (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref) {
			struct kids ch = expr_kids(e);
			const char *a = ch.n == 1 ? lc_addr_of(F, rv(F, ch.c[0], 1)) : NULL;

			free(ch.c);
			return a;
		}
		break;
	default:
		break;
	}
	rv(F, e, 0);
	return NULL;
}

static struct hog_val read_decl(struct lc_fn *F, CXCursor e)
{
	CXCursor d = clang_getCursorReferenced(e);
	enum CXCursorKind k = clang_getCursorKind(d);
	long long c;
	int li;

	if (k == CXCursor_EnumConstantDecl && constant(e, &c))
		return cval(c);
	if (k == CXCursor_FunctionDecl)
		return aval(func_addr(F, d));
	if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
		return fresh(F, VK_NONE);
	li = find_local(F, d);
	if (li >= 0 && !F->loc[li].memory)
		return lc_read(F, lc_here(F), li);
	if (li >= 0 && F->loc[li].param >= 0 && F->clean >= 0 && F->cur == F->clean &&
	    is_scalar_type(clang_getCursorType(d)) && !is_ptr_type(clang_getCursorType(d))) {
		char buf[32];

		/* an addressable parameter read before any write or call */
		snprintf(buf, sizeof(buf), "$%d", F->loc[li].param);
		return aval(hog_intern(F->m->strs, buf));
	}
	if (!is_scalar_type(clang_getCursorType(d)) && !lc_is_array_type(clang_getCursorType(d)))
		return fresh(F, VK_NONE);
	return load(F, decl_addr(F, d), clang_getCursorType(d));
}

static struct hog_val not_of(struct lc_fn *F, struct hog_val v, const char *op)
{
	struct lc_ev *e;
	int dst;

	if (v.kind == HV_CONST)
		return cval(!strcmp(op, "!") ? !v.cst : !!v.cst);
	if (v.kind == HV_UNKNOWN)
		return fresh(F, VK_NONE);
	dst = lc_new_var(F, VK_NONE);
	e = lc_emit(F, HE_ASSIGN, op, dst, 1);
	e->a[0] = v;
	return lc_varval(dst);
}

/* x++, --x on an SSA local: x + step */
static struct hog_val incdec(struct lc_fn *F, CXCursor e, CXCursor x, int step, int pre)
{
	int li = ssa_local(F, x);
	struct hog_val old, nv;

	if (li < 0) {
		const char *a = lv(F, x);

		lc_moved(F, a);
		F->clean = -1;
		lc_field_store(F, a, cval(0), 0);
		return fresh(F, VK_NONE);
	}
	old = lc_read(F, lc_here(F), li);
	nv = fresh(F, VK_ADD);
	F->var[nv.var].arg0 = old;
	F->var[nv.var].step = step;
	F->var[nv.var].ptr = F->loc[li].ptr;
	/*
	 * ptep++ on a pointer: NULL or not as it was, a copy for the core
	 * (the plugin names the step by its variable, %ptep)
	 */
	if (F->loc[li].ptr) {
		struct lc_ev *ev = lc_emit(F, HE_ASSIGN, "=", nv.var, 1);

		ev->a[0] = old;
	}
	lc_write(F, lc_here(F), li, nv);
	return pre ? nv : old;
}

/*
 * A sign step's fact (1 "neg", 2 "u>>", 3 "negu") does not survive
 * converting from to to: a count's negation stays negative narrowed
 * (the plugin sees -(int)count), not widened.
 */
static int sign_width_lost(int sign, CXType to, CXType from)
{
	long long a = clang_Type_getSizeOf(to), b = clang_Type_getSizeOf(from);

	return sign == 2 ? a < b : sign == 3 ? a > b : a != b;
}

/* dst = OP v, for the sign steps "neg" and "u>>" */
static struct hog_val sign_op(struct lc_fn *F, CXCursor e, const char *op, struct hog_val v)
{
	int dst = lc_new_var(F, VK_NONE);
	struct lc_ev *ev;

	at_op(F, e);
	ev = lc_emit(F, HE_ASSIGN, op, dst, 1);
	ev->a[0] = v;
	F->var[dst].sign = !strcmp(op, "negu") ? 3 : op[0] == 'n' ? 1 : 2;
	return lc_varval(dst);
}

/* "$N" (or "&$N"): the value of parameter N */
static int is_param_value(const char *a)
{
	if (!a)
		return 0;
	if (a[0] == '&')
		a++;
	if (a[0] != '$' || !a[1])
		return 0;
	return strspn(a + 1, "0123456789") == strlen(a + 1);
}

static void load_copy(struct lc_fn *F, const char *a, int var);

static struct hog_val unary(struct lc_fn *F, CXCursor e, int used)
{
	struct kids ch = expr_kids(e);
	enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
	struct hog_val v = { HV_UNKNOWN, 0, 0, NULL };
	long long c;
	CXCursor x;

	if (ch.n != 1) {
		free(ch.c);
		return fresh(F, VK_NONE);
	}
	x = ch.c[0];
	free(ch.c);
	switch (op) {
	case CXUnaryOperator_AddrOf: {
		const char *a = lv(F, x);

		lc_moved(F, a);
		return aval(a);
	}
	case CXUnaryOperator_Deref: {
		const char *a = lc_addr_of(F, rv(F, x, 1));

		if (!is_scalar_type(clang_getCursorType(e)) && !lc_is_array_type(clang_getCursorType(e)))
			return fresh(F, VK_NONE);
		return load(F, a, clang_getCursorType(e));
	}
	case CXUnaryOperator_LNot:
		return not_of(F, rv(F, x, 1), "!");
	case CXUnaryOperator_PreInc: return incdec(F, e, x, 1, 1);
	case CXUnaryOperator_PreDec: return incdec(F, e, x, -1, 1);
	case CXUnaryOperator_PostInc: return incdec(F, e, x, 1, 0);
	case CXUnaryOperator_PostDec: return incdec(F, e, x, -1, 0);
	case CXUnaryOperator_Extension:
	case CXUnaryOperator_Plus:
		return rv(F, x, used);
	case CXUnaryOperator_Minus:
		if (constant(e, &c))
			return cval(c);
		v = rv(F, x, 1);
		/* -nr_pages: the core flips a known sign (the plugin's "neg"); -count ("negu") */
		/* a parameter's value is the parameter itself, $N */
		if (v.kind == HV_ADDR && !is_param_value(v.addr))
			return fresh(F, VK_NONE);
		if (v.kind != HV_VAR && v.kind != HV_ADDR)
			return fresh(F, VK_NONE);
		if (is_unsigned_int(clang_getCursorType(e)))
			return sign_op(F, e, "negu", v);
		if (is_signed_int(clang_getCursorType(e))) {
			CXCursor m;

			/*
			 * -count of a field with a floor: the field's read, for
			 * the floor.  Not the value a test of it read: without
			 * the plugin's memory state (same_load()) nothing tells
			 * that no asm, later argument or alias wrote it between.
			 */
			if (v.kind == HV_VAR && F->var[v.var].kind == VK_LOAD && plain_field_read(x, &m) &&
			    same_int_type(clang_getCursorType(e), clang_getCursorType(x)))
				load_copy(F, F->var[v.var].load, v.var);
			return sign_op(F, e, "neg", v);
		}
		return fresh(F, VK_NONE);
	default:
		if (constant(e, &c))
			return cval(c);
		rv(F, x, 1);
		return fresh(F, VK_NONE);
	}
	return v;
}

/* p + i, RELOC_HIDE's integer add of an address: the element, or the same object */
static struct hog_val ptr_plus(struct lc_fn *F, struct hog_val p, struct hog_val off)
{
	const char *a = lc_addr_of(F, p);

	if (off.kind == HV_CONST)
		return aval(a);
	if (a && a[0] == '@')
		return aval(lc_cat(F, a, "#"));
	return aval(lc_cat(F, a, "[]"));
}

/* an address, not an integer parameter's value (which is "$N" too) */
static int addr_val(struct hog_val v, CXCursor e)
{
	if (v.kind != HV_ADDR)
		return 0;
	if (v.addr[0] == '$' && !strpbrk(v.addr, "/^[#") && !is_ptr_type(clang_getCursorType(e)))
		return 0;
	return 1;
}

/* v = a op b, kept for the caps of loop bounds */
static struct hog_val with_op(struct lc_fn *F, struct hog_val v, int op, struct hog_val a,
			      struct hog_val b)
{
	if (v.kind == HV_VAR) {
		F->var[v.var].cop = op;
		F->var[v.var].ca = a;
		F->var[v.var].cb = b;
	}
	return v;
}

static struct hog_val arith_val(struct lc_fn *F, CXCursor e, int op, struct hog_val a,
				struct hog_val b, CXCursor l, CXCursor r);

static struct hog_val arith(struct lc_fn *F, CXCursor e, int op, CXCursor l, CXCursor r)
{
	struct hog_val a = rv(F, l, 1), b = rv(F, r, 1);

	if (is_ptr_type(clang_getCursorType(e)))
		return arith_val(F, e, op, a, b, l, r);
	return with_op(F, arith_val(F, e, op, a, b, l, r), op, a, b);
}

static struct hog_val arith_val(struct lc_fn *F, CXCursor e, int op, struct hog_val a,
				struct hog_val b, CXCursor l, CXCursor r)
{
	struct hog_val v;
	int ptr = is_ptr_type(clang_getCursorType(e));
	int pa = is_ptr_type(clang_getCursorType(l)) || addr_val(a, l);
	int pb = is_ptr_type(clang_getCursorType(r)) || addr_val(b, r);

	if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) && (ptr || pa || pb)) {
		if (pa)
			return ptr_plus(F, a, b);
		return ptr_plus(F, b, a);
	}
	if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) &&
	    b.kind == HV_CONST && a.kind == HV_VAR) {
		v = fresh(F, VK_ADD);
		F->var[v.var].arg0 = a;
		F->var[v.var].step = op == CXBinaryOperator_Add ? b.cst : -b.cst;
		F->var[v.var].percpu = F->var[a.var].percpu;
		return v;
	}
	if (op == CXBinaryOperator_Shr && b.kind == HV_CONST && b.cst >= 1 &&
	    is_unsigned_int(clang_getCursorType(e)) && (a.kind == HV_VAR || a.kind == HV_ADDR))
		/* bytes >> PAGE_SHIFT: the top bit is clear (the plugin's "u>>") */
		return sign_op(F, e, "u>>", a);
	if ((op == CXBinaryOperator_And || op == CXBinaryOperator_Or) && b.kind == HV_CONST &&
	    (a.kind == HV_VAR || a.kind == HV_ADDR)) {
		int dst = lc_new_var(F, VK_NONE);
		struct lc_ev *ev;

		at_op(F, e);
		ev = lc_emit(F, HE_ASSIGN, op == CXBinaryOperator_And ? "&" : "|", dst, 2);

		ev->a[0] = a;
		ev->a[1] = b;
		return lc_varval(dst);
	}
	v = fresh(F, VK_NONE);
	if ((a.kind == HV_VAR && F->var[a.var].percpu) || (b.kind == HV_VAR && F->var[b.var].percpu))
		F->var[v.var].percpu = 1;
	return v;
}

/* the name a call's result takes from the local it lands in */
static void name_var(struct lc_fn *F, struct hog_val v, int li)
{
	if (v.kind == HV_VAR && F->var[v.var].kind == VK_CALL && F->loc[li].name &&
	    (!F->vname[v.var] || strchr(F->vname[v.var], '(')))
		F->vname[v.var] = F->loc[li].name;
}

static int lock_pointer(struct lc_fn *F, CXType t);
static int holder_pointer(struct lc_fn *F, CXType t);

/* *p = ... through a parameter p: an out-parameter (as the plugin's out_param()) */
static int out_param(CXCursor l, const char *a)
{
	l = strip(l);
	return clang_getCursorKind(l) == CXCursor_UnaryOperator &&
	       clang_getCursorUnaryOperatorKind(l) == CXUnaryOperator_Deref &&
	       a[0] == '$' && is_param_value(a);
}

/*
 * storage->file = NULL: a constant to a field of something other than
 * a local, not volatile, not an array element nor another CPU's copy
 * (the plugin's const_store(); a union is lc_other_write()'s).
 */
static int const_field_store(CXCursor l, const char *a)
{
	l = strip(l);
	return clang_getCursorKind(l) == CXCursor_MemberRefExpr && a[0] != '%' &&
	       !strpbrk(a, "[#") && !clang_isVolatileQualifiedType(clang_getCursorType(l)) &&
	       !in_anon_union(clang_getCursorReferenced(l));
}

/* The constant as the field holds it: "dirty:1 = 2" and "u8 x = 256" are 0, as GCC folds them. */
static struct hog_val field_value(CXCursor l, struct hog_val v)
{
	CXCursor fd = clang_getCursorReferenced(strip(l));
	int bits = clang_getFieldDeclBitWidth(fd);
	long long size = clang_Type_getSizeOf(clang_getCursorType(strip(l)));

	if (bits <= 0 && size > 0 && size < 8)
		bits = (int)size * 8;
	if (bits > 0 && bits < 64)
		v.cst &= (1LL << bits) - 1;
	return v;
}

/* timer->function = cb: a function's address stored (the plugin's lower_callback_store()) */
static int callback_store(CXCursor r, struct hog_val v)
{
	CXCursor e = strip(r);

	if (clang_getCursorKind(e) == CXCursor_UnaryOperator &&
	    clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_AddrOf) {
		struct kids ch = expr_kids(e);

		e = ch.n == 1 ? strip(ch.c[0]) : clang_getNullCursor();
		free(ch.c);
	}
	return v.kind == HV_ADDR && !clang_Cursor_isNull(e) &&
	       clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
	       clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_FunctionDecl;
}

struct init_at {
	struct lc_fn *F;
	CXCursor e;
	const char *a;
};

/* *csd = CSD_INIT(fn, info): csd->func = fn, as GCC splits the assignment (path "/T.f") */
static void init_store(void *arg, const char *path, CXCursor fn)
{
	struct init_at *at = arg;
	struct lc_fn *F = at->F;
	const char *f = func_addr(F, fn);
	struct lc_ev *ev;

	if (f) {
		/* a declaration is at its name, as GCC puts it; an assignment at its operator */
		if (clang_getCursorKind(at->e) == CXCursor_VarDecl)
			lc_where(F, at->e, NULL, &F->line, &F->col);
		else
			at_op(F, at->e);
		ev = lc_emit(F, HE_STORE, NULL, -1, 2);
		ev->a[0] = aval(hog_expr_append(F->m->strs, at->a, path));
		ev->a[1] = aval(f);
	}
}

static struct hog_val assign(struct lc_fn *F, CXCursor e, CXCursor l, CXCursor r)
{
	int li = ssa_local(F, l);
	struct hog_val v;
	const char *a;

	if (li >= 0) {
		v = rv(F, r, 1);
		name_var(F, v, li);
		lc_write(F, lc_here(F), li, v);
		return v;
	}
	a = lv(F, l);
	lc_moved(F, a);
	v = rv(F, r, 1);
	F->clean = -1;
	if (clang_getCursorKind(strip(l)) == CXCursor_DeclRefExpr)
		store_percpu(F, find_local(F, clang_getCursorReferenced(strip(l))), v);
	if (a) {
		struct init_at at = { F, e, a };

		lc_init_stores(r, F->rules, init_store, &at);
	}
	if (a && callback_store(r, v) && hog_rules_callback_field(F->rules, hog_expr_class(F->m->strs, a))) {
		struct lc_ev *ev;

		at_op(F, e);
		ev = lc_emit(F, HE_STORE, NULL, -1, 2);
		ev->a[0] = aval(a);
		ev->a[1] = v;
	} else if (a && (lock_pointer(F, clang_getCursorType(r)) ||
			 (out_param(l, a) && holder_pointer(F, clang_getCursorType(r))))) {
		struct lc_ev *ev;

		at_op(F, e);
		ev = lc_emit(F, HE_STORE, NULL, -1, 2);
		ev->a[0] = aval(a);
		ev->a[1] = v;
	} else if (a) {
		at_op(F, e);
		if (v.kind == HV_CONST && const_field_store(l, a))
			lc_field_store(F, a, field_value(l, v), 1);
		else
			lc_field_store(F, a, v, 0);
	}
	return v;
}

static struct hog_val logic_value(struct lc_fn *F, CXCursor e)
{
	int t = lc_new_block(F), f = lc_new_block(F), j = lc_new_block(F), pred[2], n = 0;
	struct hog_val val[2];

	cond(F, e, t, f);
	lc_seal(F, t);
	lc_seal(F, f);
	if (F->b[t].npred) {
		lc_edge(F, t, j);
		pred[n] = t;
		val[n++] = cval(1);
	}
	if (F->b[f].npred) {
		lc_edge(F, f, j);
		pred[n] = f;
		val[n++] = cval(0);
	}
	lc_seal(F, j);
	F->cur = j;
	if (n == 1)
		return val[0];
	return lc_varval(lc_value_phi(F, j, n, pred, val));
}

static struct hog_val compare(struct lc_fn *F, CXCursor e, int op, CXCursor l, CXCursor r)
{
	struct hog_val a = rv(F, l, 1), b = rv(F, r, 1);

	at_op(F, e);
	if (op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE) {
		if (b.kind == HV_CONST && b.cst == 0)
			return not_of(F, a, op == CXBinaryOperator_EQ ? "!" : "!!");
		if (a.kind == HV_CONST && a.cst == 0)
			return not_of(F, b, op == CXBinaryOperator_EQ ? "!" : "!!");
	}
	/* kept for a flag that holds it ("++nr_loops > 2" in RB_WARN_ON(), cfg.c) */
	return with_op(F, fresh(F, VK_NONE), op, a, b);
}

static struct hog_val binary(struct lc_fn *F, CXCursor e, int used)
{
	struct kids ch = expr_kids(e);
	int op = clang_getCursorBinaryOperatorKind(e);
	CXCursor l, r;
	long long c;

	if (ch.n != 2) {
		free(ch.c);
		return fresh(F, VK_NONE);
	}
	l = ch.c[0];
	r = ch.c[1];
	free(ch.c);
	switch (op) {
	case CXBinaryOperator_Assign:
		return assign(F, e, l, r);
	case CXBinaryOperator_Comma:
		rv(F, l, 0);
		return rv(F, r, used);
	case CXBinaryOperator_LAnd:
	case CXBinaryOperator_LOr:
		if (fold(e, &c))
			return cval(c);
		return logic_value(F, e);
	default:
		break;
	}
	if (fold(e, &c))
		return cval(c);
	if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE)
		return compare(F, e, op, l, r);
	return arith(F, e, op, l, r);
}

/* x op= y as x = x op y */
static int assign_op(int op)
{
	switch (op) {
	case CXBinaryOperator_MulAssign: return CXBinaryOperator_Mul;
	case CXBinaryOperator_DivAssign: return CXBinaryOperator_Div;
	case CXBinaryOperator_AddAssign: return CXBinaryOperator_Add;
	case CXBinaryOperator_SubAssign: return CXBinaryOperator_Sub;	/* no cap; a countdown's step */
	case CXBinaryOperator_ShlAssign: return CXBinaryOperator_Shl;
	case CXBinaryOperator_ShrAssign: return CXBinaryOperator_Shr;
	case CXBinaryOperator_AndAssign: return CXBinaryOperator_And;
	default: return -1;	/* raises it or not known: no cap */
	}
}

static struct hog_val compound(struct lc_fn *F, CXCursor e)
{
	struct kids ch = expr_kids(e);
	int op = clang_getCursorBinaryOperatorKind(e), li, uadd, iaddr;
	struct hog_val old, b, v;

	if (ch.n != 2) {
		free(ch.c);
		return fresh(F, VK_NONE);
	}
	li = ssa_local(F, ch.c[0]);
	if (li < 0) {
		const char *a = lv(F, ch.c[0]);

		lc_moved(F, a);
		rv(F, ch.c[1], 1);
		F->clean = -1;
		free(ch.c);
		lc_field_store(F, a, cval(0), 0);
		return fresh(F, VK_NONE);
	}
	old = lc_read(F, lc_here(F), li);
	b = rv(F, ch.c[1], 1);
	uadd = op == CXBinaryOperator_AddAssign && is_unsigned_int(clang_getCursorType(ch.c[1]));
	/* an integer local plus an address: the address, moved */
	iaddr = !is_ptr_type(clang_getCursorType(ch.c[0])) && !addr_val(old, ch.c[0]) &&
		addr_val(b, ch.c[1]);
	free(ch.c);
	if (op == CXBinaryOperator_AddAssign && iaddr) {
		/*
		 * 6.12's this_cpu_ptr(): "tcp_ptr__ += (unsigned long)(ptr)"
		 * on this CPU's offset, as arith_val() names the plain "+"
		 */
		v = ptr_plus(F, b, old);
		lc_write(F, lc_here(F), li, v);
		return v;
	}
	if ((op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign) &&
	    b.kind == HV_CONST && old.kind == HV_VAR) {
		v = fresh(F, VK_ADD);
		F->var[v.var].arg0 = old;
		F->var[v.var].step = op == CXBinaryOperator_AddAssign ? b.cst : -b.cst;
	} else if ((op == CXBinaryOperator_AndAssign || op == CXBinaryOperator_OrAssign) &&
		   b.kind == HV_CONST && old.kind != HV_CONST && old.kind != HV_UNKNOWN) {
		int dst = lc_new_var(F, VK_NONE);
		struct lc_ev *ev = lc_emit(F, HE_ASSIGN,
					   op == CXBinaryOperator_AndAssign ? "&" : "|", dst, 2);

		ev->a[0] = old;
		ev->a[1] = b;
		v = lc_varval(dst);
	} else {
		v = fresh(F, VK_NONE);
		F->var[v.var].percpu = (old.kind == HV_VAR && F->var[old.var].percpu) ||
				       (b.kind == HV_VAR && F->var[b.var].percpu);
	}
	F->var[v.var].ptr = F->loc[li].ptr;
	if (!F->loc[li].ptr)
		with_op(F, v, assign_op(op), old, b);
	F->var[v.var].uadd = uadd;
	lc_write(F, lc_here(F), li, v);
	return v;
}

/* c ? a : b as control flow, the value a phi */
static struct hog_val ternary(struct lc_fn *F, CXCursor e, int used)
{
	struct kids ch = expr_kids(e);
	int bt, bf, j, pred[2], n = 0;
	struct hog_val val[2], v;
	long long c;

	if (ch.n != 3) {
		int i;

		for (i = 0; i < ch.n; i++)
			rv(F, ch.c[i], 1);
		free(ch.c);
		return fresh(F, VK_NONE);
	}
	if (fold(ch.c[0], &c)) {
		v = rv(F, ch.c[c ? 1 : 2], used);
		free(ch.c);
		return v;
	}
	bt = lc_new_block(F);
	bf = lc_new_block(F);
	j = lc_new_block(F);
	cond(F, ch.c[0], bt, bf);
	lc_seal(F, bt);
	lc_seal(F, bf);
	F->cur = bt;
	val[n] = rv(F, ch.c[1], 1);
	if (F->cur >= 0) {
		lc_edge(F, F->cur, j);
		pred[n++] = F->cur;
	}
	F->cur = bf;
	val[n] = rv(F, ch.c[2], 1);
	if (F->cur >= 0) {
		lc_edge(F, F->cur, j);
		pred[n++] = F->cur;
	}
	free(ch.c);
	lc_seal(F, j);
	F->cur = n ? j : -1;
	if (n < 2)
		return n ? val[0] : fresh(F, VK_NONE);
	v = lc_varval(lc_value_phi(F, j, n, pred, val));
	F->var[v.var].ptr = is_ptr_type(clang_getCursorType(e));
	return v;
}

static struct hog_val stmt_expr(struct lc_fn *F, CXCursor e, int used)
{
	struct kids ch = lc_kids_of(e), body;
	struct hog_val v = { HV_UNKNOWN, 0, 0, NULL };
	CXCursor scope;
	int i, ncln = F->ncln;

	if (ch.n != 1 || clang_getCursorKind(ch.c[0]) != CXCursor_CompoundStmt) {
		free(ch.c);
		return fresh(F, VK_NONE);
	}
	body = lc_kids_of(ch.c[0]);
	scope = F->scope;
	F->scope = ch.c[0];
	free(ch.c);
	for (i = 0; i < body.n; i++) {
		if (i == body.n - 1 && clang_isExpression(clang_getCursorKind(body.c[i])))
			v = rv(F, body.c[i], used);
		else
			stmt(F, body.c[i]);
	}
	lc_cleanup_pop(F, ncln);
	F->scope = scope;
	free(body.c);
	return v.kind == HV_UNKNOWN && used ? fresh(F, VK_NONE) : v;
}

/* ---- calls ---- */

static int atomic_builtin(const char *n)
{
	if (!strncmp(n, "__sync_", 7))
		return 1;
	if (!strncmp(n, "__atomic_", 9) && !strstr(n, "load") && !strstr(n, "thread_fence") &&
	    !strstr(n, "signal_fence") && !strstr(n, "is_lock_free") &&
	    !strstr(n, "always_lock_free"))
		return strstr(n, "store") == NULL || strstr(n, "exchange") != NULL;
	return 0;
}

/* GCC's BUILT_IN_NORMAL functions the kernel calls under their own names */
static int builtin(const char *n)
{
	static const char *const lib[] = {
		"memcpy", "memset", "memmove", "memcmp", "memchr", "strlen", "strcmp",
		"strncmp", "strcpy", "strncpy", "strcat", "strncat", "strchr", "strrchr",
		"strnlen", "strstr", "abort", "alloca", "ffs", "ffsl", "bcmp",
	};
	unsigned i;

	if (!strncmp(n, "__builtin", 9) || atomic_builtin(n))
		return 1;
	for (i = 0; i < sizeof(lib) / sizeof(lib[0]); i++)
		if (!strcmp(n, lib[i]))
			return 1;
	return 0;
}

static int noreturn_fn(CXCursor d)
{
	CXString s = clang_getTypeSpelling(clang_getCursorType(d));
	int r = strstr(clang_getCString(s), "noreturn") != NULL;

	clang_disposeString(s);
	return r;
}

static struct hog_val builtin_call(struct lc_fn *F, CXCursor e, const char *n, int used)
{
	int i, na = clang_Cursor_getNumArguments(e);
	struct hog_val v = { HV_UNKNOWN, 0, 0, NULL };

	if (!strncmp(n, "__builtin_expect", 16) && na >= 1) {
		v = rv(F, clang_Cursor_getArgument(e, 0), 1);
		for (i = 1; i < na; i++)
			rv(F, clang_Cursor_getArgument(e, i), 0);
		return v;
	}
	if (!strcmp(n, "__builtin_constant_p")) {
		long long c;

		return na == 1 && constant(clang_Cursor_getArgument(e, 0), &c) ? cval(1) :
		       fresh(F, VK_NONE);
	}
	for (i = 0; i < na; i++) {
		struct hog_val a = rv(F, clang_Cursor_getArgument(e, i), 1);

		if (!i)
			v = a;
	}
	/* memset(o, ...), memcpy(o, ...): what the first argument points to is written */
	if (na && v.kind == HV_ADDR && hog_call_fills(n)) {
		lc_moved(F, v.addr);
		lc_other_write(F, v.addr);
	}
	if (atomic_builtin(n) && na > 0) {
		struct lc_ev *ev;

		at(F, e);
		ev = lc_emit(F, HE_ATOMIC, NULL, -1, 1);
		ev->a[0] = v;
	}
	if (!strcmp(n, "__builtin_unreachable") || !strcmp(n, "__builtin_trap"))
		F->cur = -1;
	return fresh(F, VK_NONE);
}

static CXCursor generic_fn(CXCursor g);

static CXCursor callee_decl(CXCursor e)
{
	struct kids ch = expr_kids(e);
	CXCursor r = clang_getNullCursor();

	if (ch.n >= 1) {
		CXCursor c = strip(ch.c[0]);

		if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
		    clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_FunctionDecl)
			r = clang_getCursorReferenced(c);
		else if (clang_getCursorKind(c) == CXCursor_GenericSelectionExpr)
			r = generic_fn(c);
	}
	free(ch.c);
	return r;
}

static struct hog_val call(struct lc_fn *F, CXCursor e, int used)
{
	CXCursor d = callee_decl(e);
	int na = clang_Cursor_getNumArguments(e), i, dst = -1, line, col;
	struct hog_val args[LC_MAX_ARGS];
	struct lc_ev *ev;
	char *n;
	int is_void = clang_getCanonicalType(clang_getCursorType(e)).kind == CXType_Void;

	if (clang_Cursor_isNull(d)) {
		struct kids ch = expr_kids(e);

		for (i = 0; i < ch.n; i++)
			rv(F, ch.c[i], 1);
		free(ch.c);
		at(F, e);
		if (used && !is_void)
			dst = lc_new_var(F, VK_CALL);
		lc_emit(F, HE_ICALL, NULL, dst, 0);
		return dst >= 0 ? lc_varval(dst) : fresh(F, VK_NONE);
	}
	n = lc_spell(d);
	if (builtin(n)) {
		struct hog_val v = builtin_call(F, e, n, used);

		free(n);
		return v;
	}
	lc_where(F, e, NULL, &line, &col);
	{
		CXCursor def = clang_getCursorDefinition(d);

		if (!clang_Cursor_isNull(def)) {
			CXCursor *p = hog_xmalloc(sizeof(*p));

			*p = def;
			hog_vec_push(&F->called, p);
		}
	}
	for (i = 0; i < na; i++) {
		struct hog_val a = rv(F, clang_Cursor_getArgument(e, i), 1);

		if (i < LC_MAX_ARGS)
			args[i] = a;
	}
	F->line = line;
	F->col = col;
	if (na && args[0].kind == HV_ADDR && hog_call_fills(n))
		lc_moved(F, args[0].addr);
	if (used && !is_void) {
		dst = lc_new_var(F, VK_CALL);
		F->var[dst].callee = hog_intern(F->m->strs, n);
		F->var[dst].ptr = is_ptr_type(clang_getCursorType(e));
		if (na)
			F->var[dst].arg0 = args[0];
		F->vname[dst] = lc_cat(F, F->var[dst].callee, "()");
	}
	ev = lc_emit(F, HE_CALL, n, dst, na);
	for (i = 0; i < ev->nargs; i++)
		ev->a[i] = args[i];
	if (noreturn_fn(d))
		F->cur = -1;
	free(n);
	return dst >= 0 ? lc_varval(dst) : fresh(F, VK_NONE);
}

/* ---- raw source text ---- */

/*
 * libclang prints no statements and leaves a for's missing parts and an
 * asm's strings out of the AST it shows: read them from the text where
 * the statement is spelt, the macro's body when a macro wrote it.
 */
static const char *raw_at(struct lc_fn *F, CXCursor c, const char **end)
{
	CXFile f;
	unsigned off;
	size_t size = 0;
	const char *buf;

	clang_getSpellingLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
	if (!f)
		return NULL;
	buf = clang_getFileContents(F->tu, f, &size);
	if (!buf || off >= size)
		return NULL;
	*end = buf + size;
	return buf + off;
}

/* past a comment or a line continuation at p, or p */
static const char *skip_blank(const char *p, const char *end)
{
	for (;;) {
		if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *q = p + 2;

			while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
				q++;
			p = q + 2 < end ? q + 2 : end;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (p < end && (*p == '\\' || *p == ' ' || *p == '\t' || *p == '\n' ||
				       *p == '\r')) {
			p++;
		} else {
			return p;
		}
	}
}

/* ---- inline asm ---- */

struct asm_info {
	char tmpl[2048];
	int nout, nin;
	char cons[MAX_ASM_OPS][16];
};

/* the string literal at *p, its text appended to out (escapes kept) */
static const char *take_string(const char *p, char *out, size_t n)
{
	size_t l = strlen(out);

	p++;
	while (*p && *p != '"') {
		if (*p == '\\' && p[1]) {
			if (l + 2 < n) {
				out[l++] = p[0];
				out[l++] = p[1];
			}
			p += 2;
			continue;
		}
		if (l + 1 < n)
			out[l++] = *p;
		p++;
	}
	out[l] = 0;
	return *p ? p + 1 : p;
}

/* macros the kernel spells asm templates with, as GCC sees them expanded */
static void template_word(struct asm_info *ai, const char *w, size_t n)
{
	size_t l = strlen(ai->tmpl);
	const char *t = NULL;

	if (n == 12 && !strncmp(w, "__percpu_arg", n))
		t = "%%gs:";
	else if ((n == 11 && !strncmp(w, "LOCK_PREFIX", n)) || (n == 4 && !strncmp(w, "lock", n)))
		t = "lock; ";
	else if (n == 16 && !strncmp(w, "LOCK_PREFIX_HERE", n))
		t = ".smp_locks";
	if (!t)
		t = "?";
	snprintf(ai->tmpl + l, sizeof(ai->tmpl) - l, "%s", t);
}

/* asm ("tmpl" : "=r" (x) : "0" (y)): template and constraints, from the source text */
static void parse_asm(const char *p, const char *end, struct asm_info *ai)
{
	int section = 0, depth = 0;

	memset(ai, 0, sizeof(*ai));
	while (p < end && *p != '(')
		p++;
	for (p++; p < end; p++) {
		p = skip_blank(p, end);
		if (p >= end)
			break;
		if (*p == '"') {
			char buf[64] = "";

			if (section == 0) {
				p = take_string(p, ai->tmpl, sizeof(ai->tmpl)) - 1;
				continue;
			}
			p = take_string(p, buf, sizeof(buf)) - 1;
			if (depth == 0 && (section == 1 || section == 2) &&
			    ai->nout + ai->nin < MAX_ASM_OPS) {
				snprintf(ai->cons[ai->nout + ai->nin], 16, "%s", buf);
				if (section == 1)
					ai->nout++;
				else
					ai->nin++;
			}
			continue;
		}
		if (section == 0 && depth == 0 && (*p == '_' || (*p >= 'A' && *p <= 'Z') ||
						   (*p >= 'a' && *p <= 'z'))) {
			const char *w = p;

			while (p < end && (*p == '_' || (*p >= 'A' && *p <= 'Z') ||
					   (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
				p++;
			template_word(ai, w, p - w);
			p--;
			continue;
		}
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth-- == 0)
			break;
		else if (*p == ':' && depth == 0)
			section++;
		else if (*p == ';' || *p == '{')
			break;
	}
}

static const char *mem_operand(struct lc_fn *F, struct asm_info *ai, struct kids *ops)
{
	int i;

	for (i = 0; i < ai->nout + ai->nin && i < ops->n; i++)
		if (strchr(ai->cons[i], 'm'))
			return lv(F, ops->c[i]);
	return NULL;
}

static void asm_outputs(struct lc_fn *F, struct asm_info *ai, struct kids *ops,
			const struct hog_val *in)
{
	int i, j;

	for (i = 0; i < ai->nout && i < ops->n; i++) {
		int li = ssa_local(F, ops->c[i]);
		struct hog_val v;
		char tie[16];

		if (li < 0) {
			/* "=m" (b->storage.file): no constant stored there stays */
			lc_other_write(F, lv(F, ops->c[i]));
			continue;
		}
		snprintf(tie, sizeof(tie), "%d", i);
		v = fresh(F, VK_ASM);
		F->var[v.var].percpu = hog_rules_asm_is_percpu(F->rules, LC_ARCH, ai->tmpl);
		for (j = ai->nout; j < ai->nout + ai->nin && j < ops->n; j++)
			if (!strcmp(ai->cons[j], tie) && in[j - ai->nout].kind == HV_ADDR) {
				/* this_cpu_ptr(): the gs-relative add moves it, RELOC_HIDE's "" does not */
				v = aval(*ai->tmpl ? lc_cat(F, in[j - ai->nout].addr, "#") :
					 in[j - ai->nout].addr);
			}
		if (v.kind == HV_VAR)
			F->var[v.var].ptr = F->loc[li].ptr;
		lc_write(F, lc_here(F), li, v);
	}
}

static int label_block(struct lc_fn *F, CXCursor lab);

static void asm_stmt(struct lc_fn *F, CXCursor c)
{
	struct asm_info ai;
	struct kids ops = expr_kids(c);
	struct hog_val in[MAX_ASM_OPS];
	const char *t, *end = NULL, *raw = raw_at(F, c, &end);
	int i, next;

	memset(&ai, 0, sizeof(ai));
	if (raw)
		parse_asm(raw, end, &ai);
	at(F, c);
	for (i = ai.nout; i < ai.nout + ai.nin && i < ops.n; i++)
		in[i - ai.nout] = strchr(ai.cons[i], 'm') ? aval(NULL) : rv(F, ops.c[i], 1);
	t = ai.tmpl;
	if (hog_rules_asm_is_atomic(F->rules, LC_ARCH, t)) {
		const char *m = mem_operand(F, &ai, &ops);

		if (m) {
			struct lc_ev *e = lc_emit(F, HE_ATOMIC, NULL, -1, 1);

			e->a[0] = aval(m);
		}
	}
	asm_outputs(F, &ai, &ops, in);
	/* asm goto: its labels are the last operands */
	next = -1;
	for (i = ai.nout + ai.nin; i < ops.n; i++) {
		CXCursor l = clang_getCursorReferenced(ops.c[i]);

		if (clang_getCursorKind(l) != CXCursor_LabelStmt)
			continue;
		if (next < 0)
			next = lc_new_block(F);
		lc_edge(F, lc_here(F), label_block(F, l));
	}
	if (next >= 0) {
		lc_edge(F, lc_here(F), next);
		lc_seal(F, next);
		F->cur = next;
	}
	free(ops.c);
}

/* ---- the lock-type test for stores ---- */

static int lock_type(struct lc_fn *F, CXType pt)
{
	CXType cur;
	int n = 0;

	if (clang_getCanonicalType(pt).kind != CXType_Record)
		return 0;
	for (cur = pt; n++ < 8;) {
		CXCursor d;
		char *nm;
		int hit;

		if (cur.kind == CXType_Elaborated)
			cur = clang_Type_getNamedType(cur);
		if (cur.kind != CXType_Typedef)
			break;
		d = clang_getTypeDeclaration(cur);
		nm = lc_spell(d);
		hit = hog_rules_is_lock_type(F->rules, 1, nm);
		free(nm);
		if (hit)
			return 1;
		cur = clang_getTypedefDeclUnderlyingType(d);
	}
	return hog_rules_is_lock_type(F->rules, 0, record_tag(F, pt));
}

static int lock_pointer(struct lc_fn *F, CXType t)
{
	return clang_getCanonicalType(t).kind == CXType_Pointer &&
	       lock_type(F, clang_getPointeeType(t));
}

struct holder_seen {
	struct lc_fn *F;
	int hit;
};

static enum CXVisitorResult holder_field(CXCursor c, CXClientData d)
{
	struct holder_seen *h = d;

	h->hit = lock_type(h->F, clang_getCursorType(c));
	return h->hit ? CXVisit_Break : CXVisit_Continue;
}

/* as the plugin's: a pointer to a struct one of whose members is a lock */
static int holder_pointer(struct lc_fn *F, CXType t)
{
	struct holder_seen h = { F, 0 };
	CXType pt;

	if (clang_getCanonicalType(t).kind != CXType_Pointer)
		return 0;
	pt = clang_getCanonicalType(clang_getPointeeType(t));
	if (pt.kind != CXType_Record)
		return 0;
	clang_Type_visitFields(pt, holder_field, &h);
	return h.hit;
}

/* ---- _Generic ---- */

static CXType plain(CXType t)
{
	return clang_getUnqualifiedType(clang_getCanonicalType(t));
}

/*
 * _Generic(*(s), seqcount_t: f((void *)(s)), ...): libclang shows every
 * association and not which one is chosen.  The kernel's selections call
 * a helper taking the controlling type by pointer: that one is taken.
 */
static int generic_pick(CXCursor e, struct kids *ch)
{
	CXType ctl;
	int i;

	if (ch->n < 2)
		return -1;
	ctl = plain(clang_getCursorType(ch->c[0]));
	for (i = 1; i < ch->n; i++) {
		CXCursor a = strip(ch->c[i]), d;
		CXType pt;

		if (clang_getCursorKind(a) != CXCursor_CallExpr)
			continue;
		d = callee_decl(a);
		if (clang_Cursor_isNull(d) || clang_Cursor_getNumArguments(d) < 1)
			continue;
		pt = clang_getCursorType(clang_Cursor_getArgument(d, 0));
		if (is_ptr_type(pt) && clang_equalTypes(plain(clang_getPointeeType(
						clang_getCanonicalType(pt))), ctl))
			return i;
	}
	return -1;
}

/*
 * _Generic(*(s), seqcount_t: __seqprop_preemptible, ...)(s): 6.12's
 * seqprop helpers select a function and call it.  The one taking the
 * controlling type by pointer is the callee; a null cursor if none.
 */
static CXCursor generic_fn(CXCursor g)
{
	struct kids ch = expr_kids(g);
	CXCursor r = clang_getNullCursor();
	CXType ctl;
	int i;

	for (i = 1; ch.n >= 2 && i < ch.n; i++) {
		CXCursor a = strip(ch.c[i]), d;
		CXType pt;

		if (clang_getCursorKind(a) != CXCursor_DeclRefExpr)
			continue;
		d = clang_getCursorReferenced(a);
		if (clang_getCursorKind(d) != CXCursor_FunctionDecl ||
		    clang_Cursor_getNumArguments(d) < 1)
			continue;
		ctl = plain(clang_getCursorType(ch.c[0]));
		pt = clang_getCursorType(clang_Cursor_getArgument(d, 0));
		if (is_ptr_type(pt) && clang_equalTypes(plain(clang_getPointeeType(
						clang_getCanonicalType(pt))), ctl)) {
			r = d;
			break;
		}
	}
	free(ch.c);
	return r;
}

static struct hog_val generic(struct lc_fn *F, CXCursor e, int used)
{
	struct kids ch = expr_kids(e);
	int i = generic_pick(e, &ch);
	struct hog_val v;
	long long c;

	if (constant(e, &c))
		v = cval(c);
	else if (i > 0)
		v = rv(F, ch.c[i], used);
	else
		v = fresh(F, VK_NONE);
	free(ch.c);
	return v;
}

/* ---- values ---- */

static struct hog_val rv(struct lc_fn *F, CXCursor e, int used)
{
	long long c;
	struct kids ch;
	struct hog_val v;
	int i;

	switch (clang_getCursorKind(e)) {
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_UnaryExpr:
	case CXCursor_GNUNullExpr:
		return constant(e, &c) ? cval(c) : fresh(F, VK_NONE);
	case CXCursor_ParenExpr:
	case CXCursor_UnexposedExpr:
	case CXCursor_CStyleCastExpr:
		ch = expr_kids(e);
		/* __builtin_choose_expr(c, a, b): only the one chosen is code */
		if (ch.n == 3 && clang_getCursorKind(e) == CXCursor_UnexposedExpr &&
		    constant(ch.c[0], &c)) {
			v = rv(F, ch.c[c ? 1 : 2], used);
			free(ch.c);
			return v;
		}
		if (ch.n == 1 || (ch.n > 1 && clang_getCursorKind(e) == CXCursor_CStyleCastExpr)) {
			CXCursor ch_last = ch.c[ch.n - 1];

			v = rv(F, ch_last, used);
			free(ch.c);
			/* offsetof() folds only at the cast around it */
			if (v.kind == HV_VAR && F->var[v.var].kind == VK_NONE && constant(e, &c))
				return cval(c);
			if (v.kind == HV_VAR && is_ptr_type(clang_getCursorType(e)))
				F->var[v.var].ptr = 1;
			/*
			 * (long)-nr_pages of an unsigned int is positive: not that
			 * sign (the plugin's width_kept(); a top-clear value stays
			 * positive when widened)
			 */
			if (v.kind == HV_VAR && F->var[v.var].sign &&
			    sign_width_lost(F->var[v.var].sign, clang_getCursorType(e),
					    clang_getCursorType(ch_last)))
				return fresh(F, VK_NONE);
			return v;
		}
		free(ch.c);	/* evaluated with the other kids below */
		break;
	case CXCursor_DeclRefExpr:
		return read_decl(F, e);
	case CXCursor_MemberRefExpr:
	case CXCursor_ArraySubscriptExpr: {
		const char *a = lv(F, e);

		if (!is_scalar_type(clang_getCursorType(e)) &&
		    !lc_is_array_type(clang_getCursorType(e)))
			return fresh(F, VK_NONE);
		return load(F, a, clang_getCursorType(e));
	}
	case CXCursor_UnaryOperator:
		return unary(F, e, used);
	case CXCursor_BinaryOperator:
		return binary(F, e, used);
	case CXCursor_CompoundAssignOperator:
		return compound(F, e);
	case CXCursor_ConditionalOperator:
		return ternary(F, e, used);
	case CXCursor_CallExpr:
		return call(F, e, used);
	case CXCursor_StmtExpr:
		return stmt_expr(F, e, used);
	case CXCursor_GenericSelectionExpr:
		return generic(F, e, used);
	default:
		break;
	}
	if (constant(e, &c))
		return cval(c);
	ch = expr_kids(e);
	for (i = 0; i < ch.n; i++) {
		if (clang_isExpression(clang_getCursorKind(ch.c[i])))
			rv(F, ch.c[i], 1);
		else
			stmt(F, ch.c[i]);
	}
	free(ch.c);
	return fresh(F, VK_NONE);
}

/* ---- conditions ---- */

static int percpu_val(struct lc_fn *F, struct hog_val v, int depth)
{
	struct lc_phi *p;
	int i;

	if (v.kind != HV_VAR || depth > 10)
		return 0;
	if (F->var[v.var].percpu)
		return 1;
	if (F->var[v.var].kind == VK_ADD)
		return percpu_val(F, F->var[v.var].arg0, depth + 1);
	if (F->var[v.var].kind != VK_PHI)
		return 0;
	p = &F->phi[F->var[v.var].phi];
	for (i = 0; i < p->n; i++)
		if (percpu_val(F, p->val[i], depth + 1))
			return 1;
	return 0;
}

static void branch(struct lc_fn *F, int t, int f)
{
	int b = lc_here(F);

	lc_edge(F, b, t);
	lc_edge(F, b, f);
	F->cur = -1;
}

/*
 * if (!on) on an integer parameter as it came in: an "=" copy of its
 * value into the test's variable first, as the plugin does, so the core
 * knows the test is on that parameter.
 */
static void param_copy(struct lc_fn *F, struct hog_val pv, struct hog_val tv)
{
	struct lc_ev *ev;
	int i;

	if (tv.kind != HV_VAR || pv.addr[0] != '$' || strpbrk(pv.addr, "/^[#"))
		return;
	for (i = 0; i < F->nloc; i++)
		if (F->loc[i].param == atoi(pv.addr + 1))
			break;
	if (i == F->nloc || F->loc[i].ptr ||
	    !is_int_type(clang_getCursorType(F->loc[i].decl)))
		return;
	ev = lc_emit(F, HE_ASSIGN, "=", tv.var, 1);
	ev->a[0] = pv;
}

static int in_loop(struct lc_fn *F)
{
	int i;

	for (i = 0; i < F->ntgt; i++)
		if (F->tgt[i].sw < 0)
			return 1;
	return 0;
}

/*
 * "if (mapping->host != NULL)" again after a call: a "load" of the
 * field into the test's variable, as the plugin's load_copy() does, so
 * that the core takes the second test the way the first went.  Outside
 * loops, not for a local's field; lc_tie_loads() drops it for a field
 * the function writes, hands out or reads volatile.
 */
static void load_copy(struct lc_fn *F, const char *a, int var)
{
	struct lc_ev *ev;
	int h;

	if (!a || a[0] == '%' || var < 0 || in_loop(F))
		return;
	h = lc_here(F);
	ev = lc_emit(F, HE_ASSIGN, "load", var, 2);
	ev->a[0].kind = HV_UNKNOWN;
	ev->a[1] = aval(a);
	lc_tie(F, h, F->b[h].nev - 1, a);
}

/* The field a pointer value was read from ("…/T.f^"): its address, else NULL. */
static const char *read_field(struct lc_fn *F, const char *v)
{
	size_t n = v ? strlen(v) : 0;

	if (n < 2 || v[n - 1] != '^' || !strchr(v, '/') || strchr("^#[]", v[n - 2]))
		return NULL;
	return hog_intern_n(F->m->strs, v, n - 1);
}

/* a test of v against zero: succ[0] when it is not zero */
static void test_var(struct lc_fn *F, struct hog_val v, int t, int f, int eqz)
{
	int h = lc_here(F);	/* may grow F->b: index it after */
	struct lc_blk *b = &F->b[h];

	if (v.kind == HV_CONST) {	/* a local set to a constant: the way taken */
		lc_edge(F, h, (v.cst != 0) != eqz ? t : f);
		F->cur = -1;
		return;
	}

	b->cmp.op = eqz ? CXBinaryOperator_EQ : CXBinaryOperator_NE;
	b->cmp.l = v;
	b->cmp.r = cval(0);
	if (v.kind == HV_ADDR) {
		struct hog_val pv = v;

		v = lc_varval(lc_test_var(F, v.addr));
		param_copy(F, pv, v);
		load_copy(F, read_field(F, pv.addr), v.var);
		b = &F->b[h];
	} else if (v.kind == HV_VAR && F->var[v.var].kind == VK_LOAD) {
		load_copy(F, F->var[v.var].load, v.var);
		b = &F->b[h];
	}
	if (v.kind == HV_VAR) {
		b->cond = eqz ? HC_EQZ : HC_NEZ;
		b->cond_var = v.var;
	}
	branch(F, t, f);
}

/*
 * if (nr_pages > 0) on a signed integer: HC_GTZ or HC_LEZ on its
 * variable; a parameter's value is copied into one first ("=", as the
 * plugin does), so the core knows which parameter the test is on.
 */
static int sign_test(struct lc_fn *F, struct hog_val v, int gtz, int t, int f)
{
	int h, var;

	if (v.kind == HV_ADDR && v.addr[0] == '$' && !strpbrk(v.addr, "/^[#")) {
		struct lc_ev *ev;

		var = lc_new_var(F, VK_NONE);
		ev = lc_emit(F, HE_ASSIGN, "=", var, 1);
		ev->a[0] = v;
	} else if (v.kind == HV_VAR) {
		var = v.var;
	} else {
		return 0;
	}
	h = lc_here(F);
	F->b[h].cmp.op = gtz ? CXBinaryOperator_GT : CXBinaryOperator_LE;
	F->b[h].cmp.l = v;
	F->b[h].cmp.r = cval(0);
	F->b[h].cond = gtz ? HC_GTZ : HC_LEZ;
	F->b[h].cond_var = var;
	branch(F, t, f);
	return 1;
}

/*
 * if (mode == M_FREE) on a variable: HC_EQK, succ[0] the equal way (the
 * plugin's const_cond()); != swaps the successors.
 */
static int const_test(struct lc_fn *F, int op, struct hog_val a, struct hog_val b, int t, int f,
		      CXCursor l, CXCursor r)
{
	CXCursor m;
	int h;

	if (a.kind == HV_CONST) {
		struct hog_val x = a;
		CXCursor y = l;

		a = b;
		b = x;
		l = r;
		r = y;
	}
	if (b.kind != HV_CONST || !b.cst || a.kind != HV_VAR)
		return 0;
	/* "!= -1" on a field with a floor (rules: bound min=), read in the test */
	if (F->var[a.var].kind == VK_LOAD && plain_field_read(l, &m) && plain_constant(r))
		load_copy(F, F->var[a.var].load, a.var);
	h = lc_here(F);
	F->b[h].cmp.op = CXBinaryOperator_EQ;	/* succ[0]: the equal way */
	F->b[h].cmp.l = a;
	F->b[h].cmp.r = b;
	F->b[h].cond = HC_EQK;
	F->b[h].cond_var = a.var;
	F->b[h].cond_val = F->b[h].cond_hi = b.cst;
	if (op == CXBinaryOperator_NE)
		branch(F, f, t);
	else
		branch(F, t, f);
	return 1;
}

/*
 * Both sides of == or != constant (a local set to one, `size = 1; if (size ==
 * CLUSTER)`): only the way taken, as the plugin's lower_const_cond().
 */
static int both_const(struct lc_fn *F, int op, struct hog_val a, struct hog_val b, int t, int f)
{
	if (a.kind != HV_CONST || b.kind != HV_CONST)
		return 0;
	lc_edge(F, lc_here(F), (a.cst == b.cst) == (op == CXBinaryOperator_EQ) ? t : f);
	F->cur = -1;
	return 1;
}

/*
 * -t or -64, through parentheses and casts: a limit read as it is and
 * negated, or a negative one (vmstat's "v < -t"; plugin: negated_read())
 */
static int negated(CXCursor e)
{
	struct kids ch;
	enum CXCursorKind k;

	e = strip(e);
	if (clang_getCursorKind(e) != CXCursor_UnaryOperator ||
	    clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_Minus)
		return 0;
	ch = expr_kids(e);
	k = ch.n == 1 ? clang_getCursorKind(strip(ch.c[0])) : CXCursor_InvalidCode;
	free(ch.c);
	return k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr ||
	       k == CXCursor_IntegerLiteral;
}

/*
 * Is the value tested in l narrower than where it came from (int d =
 * delta with delta a long parameter, or a long field read into an int)?
 * Its sign is then not the parameter's nor the field's: the plugin tests
 * the converted value, which is neither.
 */
static int narrowed_test(struct lc_fn *F, struct hog_val v, CXCursor l)
{
	long long w = clang_Type_getSizeOf(clang_getCanonicalType(clang_getCursorType(l)));
	long long from = 0;
	int i, n;

	/* the narrowest conversion on the way: (long)(int)delta */
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(l);
		struct kids ch;
		long long x;

		if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr)
			break;
		ch = expr_kids(l);
		if (ch.n != 1) {
			free(ch.c);
			break;
		}
		l = ch.c[0];
		free(ch.c);
		x = clang_Type_getSizeOf(clang_getCanonicalType(clang_getCursorType(l)));
		if (x > 0 && (w <= 0 || x < w))
			w = x;
	}

	if (v.kind == HV_VAR && F->var[v.var].kind == VK_LOAD)
		from = F->var[v.var].width;
	else if (v.kind == HV_ADDR && v.addr[0] == '$' && (n = atoi(v.addr + 1)) >= 0)
		for (i = 0; i < F->nloc; i++)
			if (F->loc[i].param == n)
				from = clang_Type_getSizeOf(clang_getCanonicalType(
					clang_getCursorType(F->loc[i].decl)));
	return w > 0 && from > w;
}

static void relational(struct lc_fn *F, int op, CXCursor l, CXCursor r, int t, int f)
{
	struct hog_val a = rv(F, l, 1), b = rv(F, r, 1);
	struct lc_blk *bl;
	int h;

	if (op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE) {
		if (both_const(F, op, a, b, t, f))
			return;
		if (b.kind == HV_CONST && b.cst == 0) {
			test_var(F, a, t, f, op == CXBinaryOperator_EQ);
			return;
		}
		if (a.kind == HV_CONST && a.cst == 0) {
			test_var(F, b, t, f, op == CXBinaryOperator_EQ);
			return;
		}
		if (const_test(F, op, a, b, t, f, l, r))
			return;
	}
	if ((op == CXBinaryOperator_GT || op == CXBinaryOperator_LE) &&
	    b.kind == HV_CONST && b.cst == 0 && is_signed_int(clang_getCursorType(strip(l))) &&
	    !narrowed_test(F, a, l) && sign_test(F, a, op == CXBinaryOperator_GT, t, f))
		return;
	h = lc_here(F);
	bl = &F->b[h];
	bl->cmp.op = op;
	bl->cmp.l = a;
	bl->cmp.r = b;
	if (op != CXBinaryOperator_EQ && op != CXBinaryOperator_NE) {
		int pl = percpu_val(F, a, 0), pr = percpu_val(F, b, 0);
		int nl = negated(l), nr = negated(r);

		/* the negated side is the limit (plugin: batch_cond()) */
		if ((pr && !pl) || (pl && pr && nl && !nr)) {
			op = op == CXBinaryOperator_LT ? CXBinaryOperator_GT :
			     op == CXBinaryOperator_GT ? CXBinaryOperator_LT :
			     op == CXBinaryOperator_LE ? CXBinaryOperator_GE : CXBinaryOperator_LE;
			pl = 1;
			nr = nl;
		}
		/* below a negated limit ("v < -t") the rare way is the other one */
		if (pl)
			bl->cond = (op == CXBinaryOperator_GT || op == CXBinaryOperator_GE) != nr ?
				   HC_BATCH0 : HC_BATCH1;
	}
	branch(F, t, f);
}

static CXCursor strip_expect(CXCursor e)
{
	for (;;) {
		CXCursor d;
		char *n;
		int ex;

		e = strip(e);
		if (clang_getCursorKind(e) != CXCursor_CallExpr)
			return e;
		d = callee_decl(e);
		if (clang_Cursor_isNull(d))
			return e;
		n = lc_spell(d);
		ex = !strncmp(n, "__builtin_expect", 16) && clang_Cursor_getNumArguments(e) >= 1;
		free(n);
		if (!ex)
			return e;
		e = clang_Cursor_getArgument(e, 0);
	}
}

static void cond(struct lc_fn *F, CXCursor e, int t, int f)
{
	long long c;
	int m, op;
	struct kids ch;

	/*
	 * The whole condition first: clang evaluates "if (__builtin_types_
	 * compatible_p(typeof(*x), struct static_key_true))" (static_branch_
	 * likely()) through its implicit cast, not the bare trait inside.
	 */
	if (fold(e, &c) || fold(e = strip_expect(e), &c)) {
		lc_edge(F, lc_here(F), c ? t : f);
		F->cur = -1;
		return;
	}
	if (clang_getCursorKind(e) == CXCursor_UnaryOperator &&
	    clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_LNot) {
		ch = expr_kids(e);
		if (ch.n == 1)
			cond(F, ch.c[0], f, t);
		free(ch.c);
		return;
	}
	if (clang_getCursorKind(e) != CXCursor_BinaryOperator) {
		test_var(F, rv(F, e, 1), t, f, 0);
		return;
	}
	op = clang_getCursorBinaryOperatorKind(e);
	ch = expr_kids(e);
	if (ch.n != 2) {
		free(ch.c);
		test_var(F, rv(F, e, 1), t, f, 0);
		return;
	}
	if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
		m = lc_new_block(F);
		if (op == CXBinaryOperator_LAnd)
			cond(F, ch.c[0], m, f);
		else
			cond(F, ch.c[0], t, m);
		lc_seal(F, m);
		F->cur = m;
		cond(F, ch.c[1], t, f);
	} else if (op == CXBinaryOperator_Comma) {
		rv(F, ch.c[0], 0);
		cond(F, ch.c[1], t, f);
	} else if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE) {
		relational(F, op, ch.c[0], ch.c[1], t, f);
	} else {
		free(ch.c);
		test_var(F, rv(F, e, 1), t, f, 0);
		return;
	}
	free(ch.c);
}

/* ---- statements ---- */

static void closing_brace(struct lc_fn *F, CXCursor fn);

static void push_target(struct lc_fn *F, int brk, int cont, int sw)
{
	if (F->ntgt >= F->ctgt) {
		F->ctgt = F->ctgt ? 2 * F->ctgt : 8;
		F->tgt = hog_xrealloc(F->tgt, sizeof(*F->tgt) * F->ctgt);
	}
	F->tgt[F->ntgt].brk = brk;
	F->tgt[F->ntgt].cont = cont;
	F->tgt[F->ntgt].sw = sw;
	F->tgt[F->ntgt].has_default = 0;
	F->tgt[F->ntgt].konst = 0;
	F->tgt[F->ntgt].kmatch = 0;
	F->tgt[F->ntgt].ncase = 0;
	F->tgt[F->ntgt].brk_cln = F->ncln;
	F->tgt[F->ntgt].cont_cln = F->ncln;
	F->ntgt++;
}

static void jump(struct lc_fn *F, int to)
{
	if (F->cur >= 0 && to >= 0)
		lc_edge(F, F->cur, to);
	F->cur = -1;
}

static int label_block(struct lc_fn *F, CXCursor lab)
{
	int i;

	for (i = 0; i < F->nlab; i++)
		if (clang_equalCursors(F->lab[i].c, lab))
			return F->lab[i].blk;
	if (F->nlab >= F->clab) {
		F->clab = F->clab ? 2 * F->clab : 8;
		F->lab = hog_xrealloc(F->lab, sizeof(*F->lab) * F->clab);
	}
	F->lab[F->nlab].c = lab;
	F->lab[F->nlab].blk = lc_new_block(F);
	return F->lab[F->nlab++].blk;
}

/* where a loop's test is: its operator, as GCC places a comparison */
static void test_at(struct lc_fn *F, int b, CXCursor c)
{
	int line, col;

	c = strip_expect(c);
	if (clang_getCursorKind(c) == CXCursor_BinaryOperator ? op_where(F, c, &line, &col) :
	    lc_where(F, c, NULL, &line, &col)) {
		F->b[b].line = line;
		F->b[b].col = col;
	}
}

static void while_stmt(struct lc_fn *F, CXCursor c, CXCursor body)
{
	int h = lc_new_block(F), bb = lc_new_block(F), ex = lc_new_block(F);

	jump(F, h);
	F->cur = h;
	test_at(F, h, c);
	cond(F, c, bb, ex);
	lc_seal(F, bb);
	F->cur = bb;
	push_target(F, ex, h, -1);
	stmt(F, body);
	F->ntgt--;
	jump(F, h);
	lc_seal(F, h);
	lc_seal(F, ex);
	F->cur = ex;
}

static void do_stmt(struct lc_fn *F, CXCursor body, CXCursor c)
{
	int bb = lc_new_block(F), cb = lc_new_block(F), ex = lc_new_block(F);

	jump(F, bb);
	F->cur = bb;
	push_target(F, ex, cb, -1);
	stmt(F, body);
	F->ntgt--;
	jump(F, cb);
	lc_seal(F, cb);
	F->cur = cb;
	if (F->b[cb].npred) {
		test_at(F, cb, c);
		cond(F, c, bb, ex);
	} else {
		F->cur = -1;
	}
	lc_seal(F, bb);
	lc_seal(F, ex);
	F->cur = ex;
}

/* libclang leaves out a for's missing parts: which there are shows in its text */
static void for_parts(struct lc_fn *F, CXCursor c, int *has)
{
	const char *end = NULL, *p = raw_at(F, c, &end);
	int part = 0, depth = 0;

	has[0] = has[1] = has[2] = 1;
	if (!p)
		return;
	while (p < end && *p != '(' && *p != ';')
		p++;
	if (p >= end || *p != '(')
		return;
	has[0] = has[1] = has[2] = 0;
	for (p++; p < end && part < 3; p++) {
		p = skip_blank(p, end);
		if (p >= end)
			break;
		if (*p == '"' || *p == '\'') {
			char q = *p;

			for (p++; p < end && *p != q; p++)
				if (*p == '\\' && p + 1 < end)
					p++;
			has[part] = 1;
			continue;
		}
		if (*p == '(' || *p == '[' || *p == '{')
			depth++;
		else if ((*p == ')' || *p == ']' || *p == '}') && depth-- == 0)
			break;
		else if (*p == ';' && depth == 0)
			part++;
		else
			has[part] = 1;
	}
}

static void for_stmt(struct lc_fn *F, CXCursor c)
{
	struct kids ch = lc_kids_of(c);
	int has[3], k = 0, h, bb, ib, ex, ninit;
	CXCursor init = clang_getNullCursor(), cnd = init, inc = init, scope = F->scope;
	int ncln = F->ncln;	/* the init's cleanup variables live to the for's end */

	F->scope = c;
	for_parts(F, c, has);
	if (has[0] && k < ch.n - 1)
		init = ch.c[k++];
	if (has[1] && k < ch.n - 1)
		cnd = ch.c[k++];
	if (has[2] && k < ch.n - 1)
		inc = ch.c[k++];
	if (!clang_Cursor_isNull(init))
		stmt(F, init);
	ninit = F->ncln;
	h = lc_new_block(F);
	bb = lc_new_block(F);
	ib = lc_new_block(F);
	ex = lc_new_block(F);
	jump(F, h);
	F->cur = h;
	if (!clang_Cursor_isNull(cnd)) {
		test_at(F, h, cnd);
		cond(F, cnd, bb, ex);
	} else {
		jump(F, bb);
	}
	lc_seal(F, bb);
	F->cur = bb;
	push_target(F, ex, ib, -1);
	/*
	 * A break leaves the body's variables; the init's run once, at ex,
	 * where the break and the test's way out meet (scoped_guard()'s
	 * "({ goto _label; })" ends in a break).
	 */
	F->tgt[F->ntgt - 1].brk_cln = ninit;
	if (ch.n)
		stmt(F, ch.c[ch.n - 1]);
	F->ntgt--;
	jump(F, ib);
	lc_seal(F, ib);
	F->cur = ib;
	if (F->b[ib].npred && !clang_Cursor_isNull(inc))
		rv(F, inc, 0);
	if (!F->b[ib].npred)
		F->cur = -1;
	jump(F, h);
	lc_seal(F, h);
	lc_seal(F, ex);
	F->cur = ex;
	lc_cleanup_pop(F, ncln);
	F->scope = scope;
	free(ch.c);
}

static void if_stmt(struct lc_fn *F, struct kids *ch)
{
	int t = lc_new_block(F), f = lc_new_block(F), j = lc_new_block(F);

	cond(F, ch->c[0], t, f);
	lc_seal(F, t);
	lc_seal(F, f);
	F->cur = F->b[t].npred ? t : -1;
	stmt(F, ch->c[1]);
	jump(F, j);
	F->cur = F->b[f].npred ? f : -1;
	if (ch->n > 2)
		stmt(F, ch->c[2]);
	jump(F, j);
	lc_seal(F, j);
	F->cur = F->b[j].npred ? j : -1;
}

/* case c's values lo..hi (a GNU range, or one value); 0 when not constant */
static int case_range(CXCursor c, long long *lo, long long *hi)
{
	struct kids ch = lc_kids_of(c);
	int ok = ch.n >= 2 && constant(ch.c[0], lo);

	*hi = *lo;
	if (ok && ch.n == 3 && !constant(ch.c[1], hi))
		ok = 0;
	free(ch.c);
	return ok && *hi >= *lo;
}

/* does case c (GNU ranges too) take v? */
static int case_takes(CXCursor c, long long v)
{
	struct kids ch = lc_kids_of(c);
	long long lo, hi;
	int r = 0;

	if (ch.n >= 2 && constant(ch.c[0], &lo)) {
		hi = lo;
		if (ch.n == 3 && !constant(ch.c[1], &hi))
			hi = lo;
		r = v >= lo && v <= hi;
	}
	free(ch.c);
	return r;
}

struct kscan {
	long long v;
	int match;
};

static enum CXChildVisitResult scan_cases(CXCursor c, CXCursor parent, CXClientData d)
{
	struct kscan *k = d;

	if (clang_getCursorKind(c) == CXCursor_SwitchStmt)
		return CXChildVisit_Continue;
	if (clang_getCursorKind(c) == CXCursor_CaseStmt && case_takes(c, k->v))
		k->match = 1;
	return CXChildVisit_Recurse;
}

/* switch (sizeof(*ptr)), as GCC folds it: the other cases are dead code */
static void switch_const(struct lc_fn *F, CXCursor cnd, CXCursor body)
{
	struct lc_target *t = &F->tgt[F->ntgt - 1];
	struct kscan k = { 0, 0 };

	if (!constant(cnd, &k.v))
		return;
	clang_visitChildren(body, scan_cases, &k);
	t->konst = 1;
	t->kval = k.v;
	t->kmatch = k.match;
}

/* the cases of this switch (not of switches inside it), in source order */
struct case_list {
	CXCursor *c;
	int n, cap, bad;
};

static enum CXChildVisitResult list_cases(CXCursor c, CXCursor parent, CXClientData d)
{
	struct case_list *l = d;
	long long lo, hi;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_SwitchStmt)
		return CXChildVisit_Continue;
	if (clang_getCursorKind(c) == CXCursor_CaseStmt) {
		if (!case_range(c, &lo, &hi))
			l->bad = 1;
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 8;
			l->c = hog_xrealloc(l->c, l->cap * sizeof(*l->c));
		}
		l->c[l->n++] = c;
	}
	return CXChildVisit_Recurse;
}

/* a switch's value as the variable the tests are on, or -1 */
static int switch_var(struct lc_fn *F, struct hog_val v, CXCursor cnd)
{
	struct hog_val tv;

	if (!is_int_type(clang_getCursorType(strip(cnd))))
		return -1;
	if (v.kind == HV_VAR)
		return v.var;
	if (v.kind != HV_ADDR || v.addr[0] != '$' || strpbrk(v.addr, "/^[#"))
		return -1;
	tv = lc_varval(lc_test_var(F, v.addr));
	param_copy(F, v, tv);
	return tv.var;
}

#define SWITCH_TESTS 64

/* the chain's blocks, made before the body: each case wires its own test */
static void switch_chain(struct lc_fn *F, struct lc_target *t, int s, struct hog_val v,
			 CXCursor cnd, CXCursor body)
{
	struct case_list l = { 0 };
	int i, var;

	if (t->konst)
		return;
	clang_visitChildren(body, list_cases, &l);
	if (!l.n || l.bad || l.n > SWITCH_TESTS || (var = switch_var(F, v, cnd)) < 0) {
		free(l.c);
		return;
	}
	t->swvar = var;
	t->ncase = l.n;
	t->cases = l.c;
	t->test = hog_xmalloc(l.n * sizeof(int));
	t->wired = hog_xcalloc(l.n, 1);
	t->test[0] = s;
	for (i = 1; i < l.n; i++)
		t->test[i] = lc_new_block(F);
	t->dflt = lc_new_block(F);
}

/* case i met: its test goes to it, or on to the next test */
static void wire_case(struct lc_fn *F, struct lc_target *t, int i, int to)
{
	int h = t->test[i], next = i + 1 < t->ncase ? t->test[i + 1] : t->dflt;
	long long lo = 0, hi = 0;

	case_range(t->cases[i], &lo, &hi);
	F->b[h].cond = HC_EQK;
	F->b[h].cond_var = t->swvar;
	F->b[h].cond_val = lo;
	F->b[h].cond_hi = hi;
	lc_edge(F, h, to);
	lc_edge(F, h, next);
	t->wired[i] = 1;
	if (next != t->dflt)
		lc_seal(F, next);
}

static void switch_end(struct lc_fn *F, struct lc_target *t, int ex)
{
	int i;

	for (i = 0; i < t->ncase; i++)
		if (!t->wired[i]) {
			/* a case the walk never met: no test, straight on */
			F->b[t->test[i]].cond = HC_NONE;
			lc_edge(F, t->test[i], i + 1 < t->ncase ? t->test[i + 1] : t->dflt);
			if (i + 1 < t->ncase)
				lc_seal(F, t->test[i + 1]);
		}
	if (!t->has_default)
		lc_edge(F, t->dflt, ex);
	lc_seal(F, t->dflt);
	free(t->cases);
	free(t->test);
	free(t->wired);
}

static void switch_stmt(struct lc_fn *F, struct kids *ch)
{
	int s, ex = lc_new_block(F), reached;
	struct hog_val v;
	struct lc_target *t;

	v = rv(F, ch->c[0], 1);
	s = lc_here(F);
	push_target(F, ex, -1, s);
	switch_const(F, ch->c[0], ch->c[ch->n - 1]);
	/* still in s: a parameter's copy goes before the first test */
	switch_chain(F, &F->tgt[F->ntgt - 1], s, v, ch->c[0], ch->c[ch->n - 1]);
	F->cur = -1;
	stmt(F, ch->c[ch->n - 1]);
	jump(F, ex);
	t = &F->tgt[F->ntgt - 1];
	if (t->ncase) {
		switch_end(F, t, ex);
	} else {
		reached = t->konst ? t->kmatch || t->has_default : t->has_default;
		if (!reached)
			lc_edge(F, s, ex);
	}
	F->ntgt--;
	lc_seal(F, ex);
	F->cur = F->b[ex].npred ? ex : -1;
}

static void case_stmt(struct lc_fn *F, CXCursor c, struct kids *ch, int is_default)
{
	int i, b, k;

	for (i = F->ntgt - 1; i >= 0 && F->tgt[i].sw < 0; i--)
		;
	b = lc_new_block(F);
	if (i >= 0 && F->tgt[i].ncase) {
		struct lc_target *t = &F->tgt[i];

		if (is_default)
			lc_edge(F, t->dflt, b);
		for (k = 0; !is_default && k < t->ncase; k++)
			if (!t->wired[k] && clang_equalCursors(t->cases[k], c))
				wire_case(F, t, k, b);
		t->has_default |= is_default;
	} else if (i >= 0) {
		struct lc_target *t = &F->tgt[i];

		if (!t->konst || (is_default ? !t->kmatch : case_takes(c, t->kval)))
			lc_edge(F, t->sw, b);
		t->has_default |= is_default;
	}
	jump(F, b);
	lc_seal(F, b);
	F->cur = b;
	if (ch->n)
		stmt(F, ch->c[ch->n - 1]);
}

static void break_continue(struct lc_fn *F, int is_break)
{
	int i;

	for (i = F->ntgt - 1; i >= 0; i--) {
		int to = is_break ? F->tgt[i].brk : F->tgt[i].cont;

		if (to >= 0) {
			lc_cleanup_run(F, is_break ? F->tgt[i].brk_cln : F->tgt[i].cont_cln);
			jump(F, to);
			return;
		}
	}
	F->cur = -1;
}

/*
 * GCC gives a function one return block, the returned values meeting in
 * a phi there: every return jumps to it (ret_finish() makes it).
 */
static const char *guard_place(struct lc_fn *F, CXCursor var);

static void return_stmt(struct lc_fn *F, CXCursor c, struct kids *ch)
{
	struct hog_val v = { HV_UNKNOWN, 0, 0, NULL };
	int from;

	if (ch->n) {
		CXCursor e = strip(ch->c[0]);
		const char *place = NULL;

		/* a guard constructor returns its class: the lock in it */
		if (clang_getCursorKind(e) == CXCursor_DeclRefExpr)
			place = guard_place(F, clang_getCursorReferenced(e));
		if (place)
			v = aval(lc_cat(F, place, "^"));
		else if (lc_canon(ch->c[0]).kind == CXType_Record)
			rv(F, ch->c[0], 0);	/* a struct returned: GCC's value is none */
		else
			v = rv(F, ch->c[0], 1);
		F->ret_has_val = 1;
	}
	from = lc_here(F);
	lc_cleanup_run(F, 0);
	if (F->ret < 0)
		F->ret = lc_new_block(F);
	if (F->nret >= F->cret) {
		F->cret = F->cret ? 2 * F->cret : 8;
		F->ret_pred = hog_xrealloc(F->ret_pred, sizeof(int) * F->cret);
		F->ret_val = hog_xrealloc(F->ret_val, sizeof(*F->ret_val) * F->cret);
	}
	F->ret_pred[F->nret] = from;
	F->ret_val[F->nret++] = v;
	at(F, ch->n ? ch->c[0] : c);
	jump(F, F->ret);
}

/* the return block: falling off the end returns too */
static void ret_finish(struct lc_fn *F, CXCursor fn)
{
	struct lc_ev *e;

	if (F->cur >= 0) {
		struct kids none = { NULL, 0, 0 };

		closing_brace(F, fn);
		return_stmt(F, fn, &none);
	}
	if (F->ret < 0)
		return;
	lc_seal(F, F->ret);
	F->cur = F->ret;
	if (!F->ret_has_val) {
		lc_emit(F, HE_RETURN, NULL, -1, 0);
	} else if (F->nret == 1) {
		e = lc_emit(F, HE_RETURN, NULL, -1, 1);
		e->a[0] = F->ret_val[0];
	} else {
		int v = lc_value_phi(F, F->ret, F->nret, F->ret_pred, F->ret_val);

		F->var[v].ptr = is_ptr_type(clang_getResultType(clang_getCursorType(fn)));
		e = lc_emit(F, HE_RETURN, NULL, -1, 1);
		e->a[0] = lc_varval(v);
	}
	F->cur = -1;
}

/*
 * Where a guard class keeps its lock, as the plugin's guard_class_place():
 * guard() and scoped_guard() of cleanup.h write "class_spinlock_t scope =
 * class_spinlock_constructor(l)", the class the lock pointer itself
 * (DEFINE_GUARD) or a struct whose first field is (DEFINE_LOCK_GUARD_1:
 * scope.lock).  The address of that place, or NULL for any other local.
 */
static const char *guard_place(struct lc_fn *F, CXCursor var)
{
	CXType t = clang_getCursorType(var);
	struct kids ch;
	int li = find_local(F, var);
	const char *a, *r = NULL;

	/* &scope is taken: an SSA local (spinlock_t *ptl = ...) is no guard */
	if (li < 0 || !F->loc[li].memory)
		return NULL;
	a = decl_addr(F, var);
	if (!a)
		return NULL;
	if (lock_pointer(F, t))
		return a;
	if (clang_getCanonicalType(t).kind != CXType_Record)
		return NULL;
	ch = lc_kids_of(clang_getTypeDeclaration(clang_getCanonicalType(t)));
	if (ch.n && clang_getCursorKind(ch.c[0]) == CXCursor_FieldDecl &&
	    lock_pointer(F, clang_getCursorType(ch.c[0]))) {
		char *n = lc_spell(ch.c[0]), *step;

		step = hog_xasprintf("/%s.%s", record_tag(F, t), n);
		r = lc_cat(F, a, step);
		free(step);
		free(n);
	}
	free(ch.c);
	return r;
}

/*
 * A guard class initialised: from its constructor's call ("scope =
 * class_spinlock_constructor(l)") or in the constructor ("_t = { .lock
 * = l }").  The lock pointer is stored to its place, as the plugin
 * stores it, so that the destructor's release through &scope finds the
 * lock the constructor took.  Returns whether it was one.
 */
static int guard_init(struct lc_fn *F, CXCursor var, CXCursor init)
{
	const char *place = guard_place(F, var);
	CXCursor e = strip(init);
	struct hog_val v;
	struct lc_ev *ev;

	if (!place)
		return 0;
	if (clang_getCursorKind(e) == CXCursor_InitListExpr) {
		struct kids ch = expr_kids(e);

		e = ch.n ? strip(ch.c[0]) : clang_getNullCursor();
		free(ch.c);
		if (clang_Cursor_isNull(e) || !lock_pointer(F, clang_getCursorType(e))) {
			rv(F, init, 0);
			return 1;
		}
	} else if (clang_getCursorKind(e) != CXCursor_CallExpr) {
		return 0;
	}
	v = rv(F, e, 1);
	lc_where(F, var, NULL, &F->line, &F->col);
	ev = lc_emit(F, HE_STORE, NULL, -1, 2);
	ev->a[0] = aval(place);
	ev->a[1] = v;
	return 1;
}

/* struct irq_work w = IRQ_WORK_INIT(fn): w.func = fn, at w, as GCC splits it */
static void local_init(struct lc_fn *F, CXCursor var, CXCursor init)
{
	struct init_at at = { F, var, decl_addr(F, var) };

	rv(F, init, 0);
	if (at.a)
		lc_init_stores(init, F->rules, init_store, &at);
}

static void decl_stmt(struct lc_fn *F, CXCursor c)
{
	struct kids ch = lc_kids_of(c);
	int i;

	for (i = 0; i < ch.n; i++) {
		CXCursor d = ch.c[i], init;
		int li;

		if (clang_getCursorKind(d) != CXCursor_VarDecl || !is_auto_var(d))
			continue;
		init = clang_Cursor_getVarDeclInitializer(d);
		li = find_local(F, d);
		if (clang_Cursor_isNull(init) || guard_init(F, d, init)) {
			/* nothing to evaluate, or done */
		} else if (li >= 0 && !F->loc[li].memory) {
			struct hog_val v = rv(F, init, 1);

			name_var(F, v, li);
			lc_write(F, lc_here(F), li, v);
		} else if (li >= 0 && is_scalar_type(clang_getCursorType(d))) {
			store_percpu(F, li, rv(F, init, 1));
		} else {
			local_init(F, d, init);
		}
		lc_cleanup_decl(F, d, F->scope);
	}
	free(ch.c);
}

/* { ... }: a scope, its cleanup variables' calls at its end */
static void block(struct lc_fn *F, CXCursor c, struct kids *ch)
{
	CXCursor scope = F->scope;
	int ncln = F->ncln, i;

	F->scope = c;
	for (i = 0; i < ch->n; i++)
		stmt(F, ch->c[i]);
	lc_cleanup_pop(F, ncln);
	F->scope = scope;
}

static void stmt(struct lc_fn *F, CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	struct kids ch;
	int i;

	lc_assert_at(F, c);
	if (clang_isExpression(k)) {
		rv(F, c, 0);
		return;
	}
	if (k == CXCursor_ForStmt) {
		for_stmt(F, c);
		return;
	}
	if (k == CXCursor_DeclStmt) {
		decl_stmt(F, c);
		return;
	}
	if (k == CXCursor_AsmStmt) {
		asm_stmt(F, c);
		return;
	}
	ch = lc_kids_of(c);
	switch (k) {
	case CXCursor_CompoundStmt:
		block(F, c, &ch);
		break;
	case CXCursor_IfStmt:
		if (ch.n >= 2)
			if_stmt(F, &ch);
		break;
	case CXCursor_WhileStmt:
		if (ch.n == 2)
			while_stmt(F, ch.c[0], ch.c[1]);
		break;
	case CXCursor_DoStmt:
		if (ch.n == 2)
			do_stmt(F, ch.c[0], ch.c[1]);
		break;
	case CXCursor_SwitchStmt:
		if (ch.n >= 2)
			switch_stmt(F, &ch);
		break;
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		case_stmt(F, c, &ch, k == CXCursor_DefaultStmt);
		break;
	case CXCursor_BreakStmt:
	case CXCursor_ContinueStmt:
		break_continue(F, k == CXCursor_BreakStmt);
		break;
	case CXCursor_ReturnStmt:
		return_stmt(F, c, &ch);
		break;
	case CXCursor_GotoStmt:
		lc_cleanup_goto(F, clang_getCursorReferenced(c));
		jump(F, label_block(F, clang_getCursorReferenced(c)));
		break;
	case CXCursor_LabelStmt: {
		int b = label_block(F, c);

		jump(F, b);
		F->cur = b;
		for (i = 0; i < ch.n; i++)
			stmt(F, ch.c[i]);
		break;
	}
	case CXCursor_IndirectGotoStmt:
		for (i = 0; i < ch.n; i++)
			rv(F, ch.c[i], 1);
		F->cur = -1;
		break;
	default:
		for (i = 0; i < ch.n; i++)
			stmt(F, ch.c[i]);
		break;
	}
	free(ch.c);
}

/* ---- a function ---- */

static void entry(struct lc_fn *F, CXCursor fn)
{
	int n = clang_Cursor_getNumArguments(fn), i, b0, b1;

	for (i = 0; i < n; i++)
		add_local(F, clang_Cursor_getArgument(fn, i), i);
	clang_visitChildren(fn, prescan, F);
	b0 = lc_new_block(F);
	b1 = lc_new_block(F);
	F->b[b0].sealed = 1;
	for (i = 0; i < F->nloc; i++) {
		char buf[32];

		if (F->loc[i].param < 0 || F->loc[i].memory)
			continue;
		snprintf(buf, sizeof(buf), "$%d", F->loc[i].param);
		lc_write(F, b0, i, aval(hog_intern(F->m->strs, buf)));
	}
	lc_edge(F, b0, b1);
	lc_seal(F, b1);
	F->cur = b1;
	F->clean = b1;
}

static CXCursor body_of(CXCursor fn)
{
	struct kids ch = lc_kids_of(fn);
	CXCursor b = clang_getNullCursor();
	int i;

	for (i = 0; i < ch.n; i++)
		if (clang_getCursorKind(ch.c[i]) == CXCursor_CompoundStmt)
			b = ch.c[i];
	free(ch.c);
	return b;
}

/* the closing brace: where a void function returns */
static void closing_brace(struct lc_fn *F, CXCursor fn)
{
	CXSourceRange r = clang_getCursorExtent(fn);
	CXSourceLocation end = clang_getRangeEnd(r);
	CXFile f;
	unsigned l, c, off;

	clang_getExpansionLocation(end, &f, &l, &c, &off);
	if (f && l && c > 1) {
		F->line = l;
		F->col = display_col(F->tu, f, c - 1, off - 1);
	}
}

struct hog_func *lc_lower_function(struct hog_module *m, const struct hog_rules *rules,
				   CXTranslationUnit tu, CXCursor fn, struct hog_vec *called,
				   const char **err)
{
	struct lc_fn F;
	CXCursor body = body_of(fn);
	struct hog_func *f;
	char *name;
	int line = 0, col = 0;

	memset(&F, 0, sizeof(F));
	F.m = m;
	F.rules = rules;
	F.tu = tu;
	F.decl = fn;
	if (clang_Cursor_isNull(body) || !lc_where(&F, fn, &F.file, &line, &col)) {
		*err = "no body";
		return NULL;
	}
	F.line = line;
	F.col = col;
	F.ret = -1;
	F.scope = body;
	lc_annots_scan(&F, fn);
	entry(&F, fn);
	stmt(&F, body);
	ret_finish(&F, fn);
	name = lc_spell(fn);
	f = lc_finish(&F, name, clang_getCursorLinkage(fn) == CXLinkage_Internal, line, err);
	lc_annots_finish(&F, f);
	free(name);
	*called = F.called;
	free(F.cln);
	lc_fn_free(&F);
	return f;
}
