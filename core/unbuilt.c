// SPDX-License-Identifier: GPL-2.0
/*
 * Functions this configuration never calls.  split_free_page() is
 * defined in mm/page_alloc.c for everyone, but its one caller is in
 * mm/page_isolation.c, which kbuild builds only with
 * CONFIG_MEMORY_ISOLATION; free_nmi()'s callers are arm64 drivers.  A
 * lock held there is held nowhere in this build.
 *
 * The IR sees every call and every address taken in the units it
 * covers; a global function may still be reached from a unit it does
 * not (assembly, a unit built without the plugin, a directory the
 * report does not read), or from a module through an export.  So the
 * tree's text decides: the name, as a word outside comments, may appear
 * in its own definition and in declarations (a type before it, a '('
 * after), anywhere in its own unit but an export, and in .c and .S
 * files under the report's directories that have no object.  Any other
 * use keeps the function live, and so does a name that its definition
 * does not spell (SYSCALL_DEFINE, token pasting).  Host programs
 * (tools/, scripts/, usr/) and Documentation/ cannot call the kernel.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util.h"
#include "unbuilt.h"

#define BLOOM_BITS (1u << 16)

struct cand {
	char *name;
	char *def;
	int line;
	int defseen;		/* the definition spells the name at its line */
	int live;
	struct hog_vec unbuilt;	/* char *: the units with no object that use it */
	int lastfile;		/* the serial of the last one */
	unsigned h;
	struct cand *next;
};

struct hog_unbuilt {
	char *tree;
	struct hog_vec roots;	/* tree-relative, "" for the whole tree */
	struct hog_vec covered;	/* sorted once the walk starts */
	unsigned long long bloom[BLOOM_BITS / 64];
	struct cand *tab[1024];
	int ncand;
	int nfiles;		/* files read so far: each one's serial */
	struct hog_vec incl;	/* char *: "a.c\1b.c", b.c includes the .c file a.c */
};

/* The file being read: where it is and what kbuild made of it. */
struct src {
	struct hog_unbuilt *u;
	const char *path;	/* tree-relative */
	int kind;		/* 0 not asked yet, 1 uses keep a name live, 2 unbuilt */
	int rust;		/* a .rs file: read for words only */
	/* where the reader is */
	int depth;		/* braces open: 0 at file scope */
	int directive;		/* inside a preprocessor line (or an assembler comment) */
	int in_string;		/* inside a string literal */
};

/*
 * Of a word's length and four of its characters: no work per
 * character, which matters over a whole tree; lookup() compares.
 */
static unsigned name_hash(const char *s, size_t n)
{
	unsigned h = (unsigned)n * 2654435761u;

	h ^= (unsigned char)s[0] | (unsigned char)s[n / 2] << 8 |
	     (unsigned char)s[n - 1] << 16 | (unsigned char)s[n > 1 ? 1 : 0] << 24;
	return h * 2246822519u ^ h >> 15;
}

static struct cand *lookup(const struct hog_unbuilt *u, const char *s, size_t n, unsigned h)
{
	struct cand *c;

	if (!(u->bloom[(h % BLOOM_BITS) / 64] & (1ull << (h % 64))))
		return NULL;
	for (c = u->tab[h % 1024]; c; c = c->next)
		if (c->h == h && !strncmp(c->name, s, n) && !c->name[n])
			return c;
	return NULL;
}

/* tree-relative form of dir, or NULL if it is not inside the tree */
static char *relative(const char *tree, const char *dir)
{
	char *t = realpath(tree, NULL), *d = realpath(dir, NULL), *r = NULL;
	size_t n;

	if (t && d) {
		n = strlen(t);
		if (!strncmp(t, d, n) && (!d[n] || d[n] == '/'))
			r = hog_xstrdup(d[n] ? d + n + 1 : "");
	}
	free(t);
	free(d);
	return r;
}

struct hog_unbuilt *hog_unbuilt_new(const char *tree, const char *const *roots, int nroots)
{
	struct hog_unbuilt *u = hog_xcalloc(1, sizeof(*u));
	int i;

	u->tree = hog_xstrdup(tree);
	for (i = 0; i < nroots; i++) {
		char *r = relative(tree, roots[i]);

		if (r)
			hog_vec_push(&u->roots, r);
	}
	return u;
}

void hog_unbuilt_want(struct hog_unbuilt *u, const char *name, const char *def, int line)
{
	unsigned h = name_hash(name, strlen(name));
	struct cand *c;

	if (lookup(u, name, strlen(name), h))
		return;		/* two definitions of one name: the first's file */
	c = hog_xcalloc(1, sizeof(*c));
	c->name = hog_xstrdup(name);
	c->def = hog_xstrdup(def);
	c->line = line;
	c->h = h;
	c->next = u->tab[h % 1024];
	u->tab[h % 1024] = c;
	u->bloom[(h % BLOOM_BITS) / 64] |= 1ull << (h % 64);
	u->ncand++;
}

void hog_unbuilt_covered(struct hog_unbuilt *u, const char *file)
{
	hog_vec_push(&u->covered, hog_xstrdup(file));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_covered(const struct hog_unbuilt *u, const char *path)
{
	return bsearch(&path, u->covered.v, u->covered.n, sizeof(void *), cmp_str) != NULL;
}

static int exists(const struct hog_unbuilt *u, const char *rel)
{
	char *p = hog_xasprintf("%s/%s", u->tree, rel);
	struct stat st;
	int r = !stat(p, &st);

	free(p);
	return r;
}

/*
 * A .c that a unit of its directory includes (kernel/sched/fair.c in
 * build_policy.c) has no object of its own; kbuild's command files list
 * it among the unit's dependencies.
 */
static int included(const struct hog_unbuilt *u, const char *path, size_t dir)
{
	char *abs = hog_xasprintf("%s/%.*s", u->tree, (int)dir, path);
	DIR *d = opendir(abs);
	struct dirent *e;
	int r = 0;

	while (d && !r && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char *p, *text;

		if (e->d_name[0] != '.' || n < 6 || strcmp(e->d_name + n - 4, ".cmd"))
			continue;
		p = hog_xasprintf("%s/%s", abs, e->d_name);
		text = hog_read_file(p, NULL);
		r = text && strstr(text, path);
		free(text);
		free(p);
	}
	if (d)
		closedir(d);
	free(abs);
	return r;
}

/* kbuild built this .c or .S: its object, its command file, or a unit including it */
static int built(const struct hog_unbuilt *u, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path + 1) : 0, base = strlen(path) - 2 - dir;
	char *obj = hog_xasprintf("%.*s.o", (int)(dir + base), path);
	char *cmd = hog_xasprintf("%.*s.%.*s.o.cmd", (int)dir, path, (int)base, path + dir);
	int r = is_covered(u, path) || exists(u, obj) || exists(u, cmd) || included(u, path, dir);

	free(obj);
	free(cmd);
	return r;
}

static int under_root(const struct hog_unbuilt *u, const char *path)
{
	int i;

	for (i = 0; i < u->roots.n; i++) {
		const char *r = u->roots.v[i];
		size_t n = strlen(r);

		if (!n || (!strncmp(path, r, n) && path[n] == '/'))
			return 1;
	}
	return 0;
}

/*
 * kbuild finished a directory on the way to path: a built-in.a or
 * modules.order in it or above it, or a vmlinux.o at the top.  A unit
 * with no object is one the configuration leaves out only then, not
 * one an interrupted build, or a build of another directory, left
 * undone.
 */
static int finished_above(const struct hog_unbuilt *u, const char *path)
{
	char *d = hog_xstrdup(path), *slash;
	int r = exists(u, "vmlinux.o");

	while (!r && (slash = strrchr(d, '/'))) {
		char *a, *b;

		*slash = 0;
		a = hog_xasprintf("%s/built-in.a", d);
		b = hog_xasprintf("%s/modules.order", d);
		r = exists(u, a) || exists(u, b);
		free(a);
		free(b);
	}
	free(d);
	return r;
}

/* What a use in this file says: 1 the name is live, 2 the unit is not built. */
static int src_kind(struct src *s)
{
	size_t n = strlen(s->path);

	if (!s->kind)
		s->kind = s->path[n - 1] != 'h' && !s->rust && !built(s->u, s->path) &&
			  under_root(s->u, s->path) && finished_above(s->u, s->path) ? 2 : 1;
	return s->kind;
}

/* the whole tree is read: a table, not comparisons, per character */
static unsigned char ident_char[256];

static void init_ident(void)
{
	int c;

	for (c = 0; c < 256; c++)
		ident_char[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				(c >= '0' && c <= '9') || c == '_';
}


/* words that may stand before a call but never a type */
static int not_type(const char *s, size_t n)
{
	static const char *const kw[] = { "return", "case", "goto", "sizeof", "else", "do",
					  "typeof", "__typeof__", "if", "while", "for",
					  "switch", NULL };
	int i;

	for (i = 0; kw[i]; i++)
		if (strlen(kw[i]) == n && !strncmp(kw[i], s, n))
			return 1;
	return 0;
}

/* The tokens before a name: enough to tell a declaration and an export. */
struct before {
	char kind[2];		/* 'i' a word, '*', '(', 0 anything else */
	const char *word[2];
	size_t len[2];
};

static int type_word(const struct before *b, int i)
{
	return b->kind[i] == 'i' && !not_type(b->word[i], b->len[i]);
}

static void push_tok(struct before *b, char kind, const char *w, size_t n)
{
	b->kind[1] = b->kind[0];
	b->word[1] = b->word[0];
	b->len[1] = b->len[0];
	b->kind[0] = kind;
	b->word[0] = w;
	b->len[0] = n;
}

/*
 * A declaration stands at file scope, outside a preprocessor line: a
 * type word (or a '*' after one) before the name and '(' after it.  In
 * a body, a macro or after a directive's last word, a name before '(' is
 * a call.
 */
static int is_decl(const struct src *s, const struct before *b, const char *after)
{
	while (*after == ' ' || *after == '\t' || *after == '\n')
		after++;
	return !s->depth && !s->directive && !s->in_string && *after == '(' &&
	       (type_word(b, 0) || (b->kind[0] == '*' && (type_word(b, 1) || b->kind[1] == '*')));
}

/*
 * In its own unit the IR sees every call and address, but not a
 * string (an alias() attribute, an asm() call) nor a macro at file
 * scope that takes the name (EXPORT_SYMBOL() and its wrappers:
 * ACPI_EXPORT_SYMBOL(), EXPORT_INDIRECT_CALLABLE()).
 */
static int own_unit_use(const struct src *s, const struct before *b)
{
	return s->in_string || s->directive ||
	       (!s->depth && (b->kind[0] == '(' || b->kind[0] == ','));
}

static void use(struct src *s, struct cand *c, const struct before *b, const char *after,
		int line)
{
	if (!strcmp(s->path, c->def)) {
		if (line == c->line)
			c->defseen = 1;
		if (own_unit_use(s, b))
			c->live = 1;
		return;
	}
	if (is_decl(s, b, after))
		return;
	if (src_kind(s) == 1) {
		c->live = 1;
		return;
	}
	if (c->lastfile == s->u->nfiles)
		return;
	c->lastfile = s->u->nfiles;
	hog_vec_push(&c->unbuilt, hog_xstrdup(s->path));
}

/* A literal ends at its quote, or at the end of the line: an apostrophe in prose. */
static const char *skip_literal(const char *p, char q)
{
	for (p++; *p && *p != q && *p != '\n'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p == q ? p + 1 : p;
}

/* Lines are counted only where a name is found: the tree is large. */
static int line_at(const char *text, const char *p)
{
	int line = 1;

	while ((text = memchr(text, '\n', p - text)))
		line++, text++;
	return line;
}

static struct cand *word_at(const struct src *s, const char *w, const char *p, unsigned h)
{
	struct cand *c = lookup(s->u, w, p - w, h);

	return c && !c->live ? c : NULL;
}

static const char *scan_word(const char *p, unsigned *h)
{
	const char *w = p;

	do
		p++;
	while (ident_char[(unsigned char)*p]);
	*h = name_hash(w, p - w);
	return p;
}

/* a string's words count: asm() calls functions by name */
static void string_uses(struct src *s, const char *text, const char *p, const char *end)
{
	struct before none;
	unsigned h;

	memset(&none, 0, sizeof(none));
	s->in_string = 1;
	while (p < end) {
		const char *w = p;
		struct cand *c;

		if (!ident_char[(unsigned char)*p]) {
			p++;
			continue;
		}
		p = scan_word(p, &h);
		if ((c = word_at(s, w, p, h)))
			use(s, c, &none, "", line_at(text, w));
	}
	s->in_string = 0;
}

/* "#include "../common.c"": which .c file, as a path from the tree's top */
static void note_include(struct src *s, const char *p)
{
	const char *q = p + strspn(p, " \t");
	const char *end, *slash = strrchr(s->path, '/');
	char *rel, *full, *c;

	if (strncmp(q, "include", 7))
		return;
	q += 7;
	q += strspn(q, " \t");
	if (*q != '"' || !(end = strchr(q + 1, '"')) || end - q < 3 || strncmp(end - 2, ".c", 2))
		return;
	rel = hog_xasprintf("%.*s%.*s", slash ? (int)(slash - s->path + 1) : 0, s->path,
			    (int)(end - q - 1), q + 1);
	/* fold "dir/../" */
	while ((c = strstr(rel, "/../"))) {
		char *start = c;

		while (start > rel && start[-1] != '/')
			start--;
		memmove(start, c + 4, strlen(c + 4) + 1);
	}
	full = hog_xasprintf("%s\1%s", rel, s->path);
	hog_vec_push(&s->u->incl, full);
	free(rel);
}

static void read_src(struct src *s, const char *text)
{
	struct before b;
	const char *p = text, *q;
	unsigned char ch;
	unsigned h;
	int bol = 1;		/* only blanks since the line began */

	memset(&b, 0, sizeof(b));
	while ((ch = (unsigned char)*p)) {
		if (ident_char[ch]) {
			const char *w = p;
			struct cand *c;

			p = scan_word(p, &h);
			if (ch > '9' && (c = word_at(s, w, p, h)))
				use(s, c, &b, p, line_at(text, w));
			push_tok(&b, ch > '9' ? 'i' : 0, w, p - w);
			bol = 0;
			continue;
		}
		switch (ch) {
		case '\n':
			if (s->directive && !(p > text && p[-1] == '\\')) {
				s->directive = 0;
				memset(&b, 0, sizeof(b));
			}
			bol = 1;
			p++;
			continue;
		case ' ': case '\t': case '\r': case '\\':
			p++;
			continue;
		case '#':
			if (bol && !s->rust) {
				s->directive = 1;
				note_include(s, p + 1);
			}
			push_tok(&b, 0, NULL, 0);
			p++;
			break;
		case '{':
		case '}':
			if (!s->directive && !s->rust)
				s->depth += ch == '{' ? 1 : s->depth > 0 ? -1 : 0;
			push_tok(&b, 0, NULL, 0);
			p++;
			break;
		case '/':
			if (p[1] == '*') {
				q = strstr(p + 2, "*/");
				p = q ? q + 2 : p + strlen(p);
				continue;
			} else if (p[1] == '/') {
				q = strchr(p, '\n');
				p = q ? q : p + strlen(p);
				continue;
			}
			push_tok(&b, 0, NULL, 0);
			p++;
			break;
		case '\'':
			p = skip_literal(p, '\'');
			push_tok(&b, 0, NULL, 0);
			break;
		case '"':
			q = p;
			p = skip_literal(p, '"');
			string_uses(s, text, q, p);
			push_tok(&b, 0, NULL, 0);
			break;
		default:
			push_tok(&b, ch == '*' || ch == '(' || ch == ',' ? ch : 0, NULL, 0);
			p++;
		}
		bol = 0;
	}
}

static int wanted_file(const char *name)
{
	size_t n = strlen(name);

	return (n > 2 && name[n - 2] == '.' && strchr("chS", name[n - 1])) ||
	       (n > 3 && !strcmp(name + n - 3, ".rs"));
}

/* host programs and prose: nothing there calls into the kernel */
static int skipped_dir(const char *rel)
{
	return !strcmp(rel, "tools") || !strcmp(rel, "scripts") || !strcmp(rel, "usr") ||
	       !strcmp(rel, "Documentation");
}

static void walk(struct hog_unbuilt *u, const char *rel)
{
	char *abs = *rel ? hog_xasprintf("%s/%s", u->tree, rel) : hog_xstrdup(u->tree);
	DIR *d = opendir(abs);
	struct dirent *e;

	free(abs);
	if (!d)
		return;
	while ((e = readdir(d))) {
		char *sub;
		struct stat st;
		int isdir, isreg;

		if (e->d_name[0] == '.')
			continue;
		sub = *rel ? hog_xasprintf("%s/%s", rel, e->d_name) : hog_xstrdup(e->d_name);
		isdir = e->d_type == DT_DIR;
		isreg = e->d_type == DT_REG;
		if (e->d_type == DT_UNKNOWN) {
			char *p = hog_xasprintf("%s/%s", u->tree, sub);

			if (!lstat(p, &st)) {
				isdir = S_ISDIR(st.st_mode);
				isreg = S_ISREG(st.st_mode);
			}
			free(p);
		}
		if (isdir && !skipped_dir(sub)) {
			walk(u, sub);
		} else if (isreg && wanted_file(e->d_name)) {
			char *p = hog_xasprintf("%s/%s", u->tree, sub);
			char *text = hog_read_file(p, NULL);
			struct src s = { .u = u, .path = sub };

			s.rust = strlen(sub) > 3 && !strcmp(sub + strlen(sub) - 3, ".rs");
			u->nfiles++;
			if (text)
				read_src(&s, text);
			free(text);
			free(p);
		}
		free(sub);
	}
	closedir(d);
}

/*
 * A unit with no object that a built one includes (#include "../x.c"
 * from another directory) is built: its uses keep the name live.
 */
static int included_by_built(struct hog_unbuilt *u, const char *path)
{
	size_t n = strlen(path);
	int i;

	for (i = 0; i < u->incl.n; i++) {
		const char *e = u->incl.v[i];

		if (!strncmp(e, path, n) && e[n] == '\1' && built(u, e + n + 1))
			return 1;
	}
	return 0;
}

void hog_unbuilt_run(struct hog_unbuilt *u)
{
	int i, k;

	if (!u->ncand)
		return;
	init_ident();
	qsort(u->covered.v, u->covered.n, sizeof(void *), cmp_str);
	walk(u, "");
	for (i = 0; i < 1024; i++) {
		struct cand *c;

		for (c = u->tab[i]; c; c = c->next)
			for (k = 0; !c->live && k < c->unbuilt.n; k++)
				if (included_by_built(u, c->unbuilt.v[k]))
					c->live = 1;
	}
}

char *hog_unbuilt_reason(const struct hog_unbuilt *u, const char *name)
{
	const struct cand *c = lookup(u, name, strlen(name), name_hash(name, strlen(name)));

	if (!c || c->live || !c->defseen)
		return NULL;
	if (!c->unbuilt.n)
		return hog_xstrdup("nothing in the tree calls it");
	if (c->unbuilt.n == 1)
		return hog_xasprintf("the tree calls it only from %s, which this configuration does not build",
				     (char *)c->unbuilt.v[0]);
	return hog_xasprintf("the tree calls it only from %s and %d more units, which this configuration does not build",
			     (char *)c->unbuilt.v[0], c->unbuilt.n - 1);
}

void hog_unbuilt_free(struct hog_unbuilt *u)
{
	int i, k;

	if (!u)
		return;
	for (i = 0; i < 1024; i++) {
		struct cand *c = u->tab[i], *next;

		for (; c; c = next) {
			next = c->next;
			free(c->name);
			free(c->def);
			for (k = 0; k < c->unbuilt.n; k++)
				free(c->unbuilt.v[k]);
			hog_vec_free(&c->unbuilt);
			free(c);
		}
	}
	for (i = 0; i < u->roots.n; i++)
		free(u->roots.v[i]);
	for (i = 0; i < u->covered.n; i++)
		free(u->covered.v[i]);
	for (i = 0; i < u->incl.n; i++)
		free(u->incl.v[i]);
	hog_vec_free(&u->incl);
	hog_vec_free(&u->roots);
	hog_vec_free(&u->covered);
	free(u->tree);
	free(u);
}
