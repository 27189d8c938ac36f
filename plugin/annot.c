// SPDX-License-Identifier: GPL-2.0
/*
 * Lock annotations in the GCC frontend.  In 6.1, without __CHECKER__,
 * __must_hold(x) and friends expand to nothing, and lockdep_assert_held(x)
 * with CONFIG_LOCKDEP off to "do { (void)(x); } while (0)", of which
 * nothing reaches GIMPLE.  What they say is only in the macro uses:
 * libcpp's "used" callback reports each use with its location, and the
 * argument is read back from the source file at that location (balanced
 * parentheses; core/annot.c).  core/annot.c owns what the text means;
 * this file answers its questions about names and types from trees.
 *
 * What this cannot see: a unit compiled from preprocessed text (distcc's
 * remote compiles, -save-temps' .i, ccache's preprocessor mode) has no
 * macro uses left, and a source file that is gone or changed since the
 * preprocessing gives no argument (the use is then ignored).
 */
#include "gcc-compat.h"
#include "lower.h"
#include "annot.h"
#include "../core/annot.h"

/* annotation and assert uses kept per unit, at most (mm/hugetlb.c has under 40) */
#define MAX_USES 4096
/* the longest argument text read back (kernel ones are under 100 bytes) */
#define MAX_ARG_TEXT 1024

struct use {
	location_t loc;		/* the macro's name, in the source file */
	int kind;		/* enum hog_annot_kind, or -1 for an assert */
};

/* the C front end's reader (c-family/c-common.h, which must come before diagnostic-core.h) */
extern cpp_reader *parse_in;

static struct use uses[MAX_USES];
static int nuses;
static void (*prev_used)(cpp_reader *, location_t, cpp_hashnode *);

static void on_used(cpp_reader *r, location_t loc, cpp_hashnode *node)
{
	const char *name = (const char *)NODE_NAME(node);
	int kind;

	if (prev_used)
		prev_used(r, loc, node);
	/* every macro use of the unit comes here: the names start with one of these */
	if (name[0] != '_' && name[0] != 'l')
		return;
	kind = hog_annot_kind_of(name);
	if ((kind >= 0 || hog_annot_is_assert(name)) && nuses < MAX_USES) {
		uses[nuses].loc = linemap_resolve_location(line_table, loc,
							   LRK_MACRO_EXPANSION_POINT, NULL);
		uses[nuses].kind = kind;
		nuses++;
	}
}

void lh_annot_init(void)
{
	cpp_callbacks *cb = cpp_get_callbacks(parse_in);

	prev_used = cb->used;
	cb->used = on_used;
}

/* ---- the argument's text, read back from the file ---- */

static char *cached_file;
static char *cached_text;
static size_t cached_len;

static const char *file_text(const char *file, size_t *len)
{
	FILE *fp;
	long n;

	if (cached_file && !strcmp(cached_file, file)) {
		*len = cached_len;
		return cached_text;
	}
	free(cached_file);
	free(cached_text);
	cached_file = NULL;
	cached_text = NULL;
	fp = fopen(file, "rb");
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET)) {
		fclose(fp);
		return NULL;
	}
	cached_text = (char *)hog_xcalloc(1, n + 1);
	cached_len = fread(cached_text, 1, n, fp);
	fclose(fp);
	cached_file = hog_xstrdup(file);
	*len = cached_len;
	return cached_text;
}

/* The argument of the macro named at x (a byte column): NULL if unreadable. */
static char *arg_at(expanded_location x)
{
	size_t len, off = 0;
	const char *t = x.file ? file_text(x.file, &len) : NULL;
	int line = 1;

	if (!t || x.line < 1 || x.column < 1)
		return NULL;
	while (off < len && line < x.line)
		if (t[off++] == '\n')
			line++;
	off += x.column - 1;
	if (off >= len)
		return NULL;
	return hog_annot_macro_arg(t + off, MIN(len - off, (size_t)MAX_ARG_TEXT));
}

/* ---- names and types for core/annot.c ---- */

struct env_ctx {
	tree fn;
	const struct hog_rules *rules;
};

static int env_lookup(void *ctx, const char *name, int *param, const void **type)
{
	struct env_ctx *x = (struct env_ctx *)ctx;
	varpool_node *v;
	int i = 0;

	for (tree p = DECL_ARGUMENTS(x->fn); p; p = DECL_CHAIN(p), i++)
		if (DECL_NAME(p) && !strcmp(IDENTIFIER_POINTER(DECL_NAME(p)), name)) {
			*param = i;
			*type = TREE_TYPE(p);
			return 0;
		}
	FOR_EACH_VARIABLE(v) {
		tree d = v->decl;

		if (DECL_CONTEXT(d) && TREE_CODE(DECL_CONTEXT(d)) == FUNCTION_DECL)
			continue;	/* a function's static: not a global */
		if (DECL_NAME(d) && !strcmp(IDENTIFIER_POINTER(DECL_NAME(d)), name)) {
			*param = -1;
			*type = TREE_TYPE(d);
			return 0;
		}
	}
	return -1;
}

static const void *env_pointee(void *ctx, const void *type)
{
	tree t = (tree)type;

	(void)ctx;
	return t && POINTER_TYPE_P(t) ? TREE_TYPE(t) : NULL;
}

static tree find_field(tree type, const char *name)
{
	if (!type || !RECORD_OR_UNION_TYPE_P(type))
		return NULL_TREE;
	for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f)) {
		if (TREE_CODE(f) != FIELD_DECL)
			continue;
		if (DECL_NAME(f) && !strcmp(IDENTIFIER_POINTER(DECL_NAME(f)), name))
			return f;
		if (!DECL_NAME(f)) {
			/* a member of an anonymous struct or union is the outer struct's */
			tree in = find_field(TREE_TYPE(f), name);

			if (in)
				return in;
		}
	}
	return NULL_TREE;
}

static int env_member(void *ctx, const void *type, const char *field, const char **tname,
		      const void **ftype)
{
	tree t = (tree)type, f;

	(void)ctx;
	if (!t || !(f = find_field(TYPE_MAIN_VARIANT(t), field)))
		return -1;
	*tname = lh_struct_name(t);
	*ftype = TREE_TYPE(f);
	return 0;
}

/* as lower.c's lock_pointer(): typedef names outermost first, then the tag */
static const char *env_lock_type(void *ctx, const void *type)
{
	struct env_ctx *x = (struct env_ctx *)ctx;
	tree ty = (tree)type;
	tree n;
	int k = 0;

	if (!ty || TREE_CODE(ty) != RECORD_TYPE)
		return NULL;
	for (tree c = ty; c && k++ < 8; c = DECL_ORIGINAL_TYPE(TYPE_NAME(c))) {
		tree d = TYPE_NAME(c);

		if (!d || TREE_CODE(d) != TYPE_DECL || DECL_ARTIFICIAL(d) || !DECL_NAME(d))
			break;
		if (hog_rules_is_lock_type(x->rules, 1, IDENTIFIER_POINTER(DECL_NAME(d))))
			return IDENTIFIER_POINTER(DECL_NAME(d));
	}
	n = TYPE_NAME(TYPE_MAIN_VARIANT(ty));
	if (n && TREE_CODE(n) == TYPE_DECL)
		n = DECL_NAME(n);
	if (n && TREE_CODE(n) == IDENTIFIER_NODE &&
	    hog_rules_is_lock_type(x->rules, 0, IDENTIFIER_POINTER(n)))
		return IDENTIFIER_POINTER(n);
	return NULL;
}

static int parse_use(struct hog_module *m, const struct hog_rules *rules, const struct use *u,
		     const char **expr, const char **type)
{
	struct env_ctx x = { current_function_decl, rules };
	struct hog_annot_env env = { &x, env_lookup, env_pointee, env_member, env_lock_type };
	char *text = arg_at(expand_location(u->loc));
	int r = text ? hog_annot_parse(m->strs, &env, text, expr, type) : -1;

	free(text);
	return r;
}

/* ---- the current function ---- */

/* an assert placed before the first statement at or after it */
struct placed {
	gimple *stmt;
	int line, col;
	const char *expr, *type;
};

static struct placed *placed;
static int nplaced;

static bool same_file(expanded_location a, expanded_location b)
{
	return a.file && b.file && !strcmp(a.file, b.file);
}

static bool before(expanded_location a, expanded_location b)
{
	return a.line < b.line || (a.line == b.line && a.column < b.column);
}

/* The first statement of the function at or after x in its file, in source order. */
static gimple *first_after(expanded_location x)
{
	gimple *best = NULL;
	expanded_location bx = { 0 };
	basic_block bb;

	FOR_EACH_BB_FN(bb, cfun)
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			location_t l = gimple_location(s);
			expanded_location sx;

			if (l == UNKNOWN_LOCATION || is_gimple_debug(s))
				continue;
			l = linemap_resolve_location(line_table, l, LRK_MACRO_EXPANSION_POINT, NULL);
			sx = expand_location(l);
			if (!same_file(sx, x) || before(sx, x))
				continue;
			if (!best || before(sx, bx)) {
				best = s;
				bx = sx;
			}
		}
	return best;
}

/* the plugin prints "held on entry" at the annotation's line: it must know the place */
static struct lh_locs *cur_locs;
static const char *cur_file;

static void note_place(location_t loc, int line, int col)
{
	if (cur_locs && cur_file)
		lh_locs_note(cur_locs, cur_file, line, col, loc);
}

static void take_assert(struct hog_module *m, const struct hog_rules *rules, struct use *u)
{
	const char *expr, *type;
	location_t out;
	int line, col;
	gimple *s;

	if (parse_use(m, rules, u, &expr, &type) || !lh_user_loc(u->loc, &out, &line, &col))
		return;
	s = first_after(expand_location(u->loc));
	if (!s)
		return;
	note_place(out, line, col);
	placed = (struct placed *)hog_xrealloc(placed, (nplaced + 1) * sizeof(*placed));
	placed[nplaced].stmt = s;
	placed[nplaced].line = line;
	placed[nplaced].col = col;
	placed[nplaced].expr = expr;
	placed[nplaced].type = type;
	nplaced++;
}

static void take_annot(struct hog_module *m, struct hog_func *f, const struct hog_rules *rules,
		       struct use *u)
{
	const char *expr, *type;
	location_t out;
	int line, col;

	if (parse_use(m, rules, u, &expr, &type) || !lh_user_loc(u->loc, &out, &line, &col))
		return;
	note_place(out, line, col);
	hog_func_add_annot(m, f, (enum hog_annot_kind)u->kind, line, col, type, expr);
}

/*
 * The uses that are the current function's: annotations from the line of
 * its name to its "{", asserts inside its body, in its file.
 */
void lh_annot_begin(struct hog_module *m, struct hog_func *f, const struct hog_rules *rules,
		    struct lh_locs *locs)
{
	expanded_location name = expand_location(DECL_SOURCE_LOCATION(current_function_decl));
	expanded_location open = expand_location(cfun->function_start_locus);
	expanded_location close = expand_location(cfun->function_end_locus);
	int i;

	nplaced = 0;
	cur_locs = locs;
	cur_file = f->file;
	for (i = 0; i < nuses; i++) {
		struct use *u = &uses[i];
		expanded_location x = expand_location(u->loc);

		/* ranges, not marks: a function may be lowered twice (lockhog_plugin.c) */
		if (!same_file(x, name))
			continue;
		if (u->kind >= 0 && x.line >= name.line && x.line <= open.line)
			take_annot(m, f, rules, u);
		else if (u->kind < 0 && same_file(x, open) && !before(x, open) &&
			 before(x, close))
			take_assert(m, rules, u);
	}
}

void lh_annot_before(struct hog_module *m, struct hog_block *b, gimple *s)
{
	int i;

	for (i = 0; i < nplaced; i++) {
		struct hog_event *e;

		if (placed[i].stmt != s)
			continue;
		e = hog_block_add_event(m, b, HE_HELD, placed[i].line, placed[i].col,
					placed[i].type, -1, 1);
		e->args[0].kind = HV_ADDR;
		e->args[0].addr = placed[i].expr;
	}
}

void lh_annot_end(void)
{
	nplaced = 0;
}
