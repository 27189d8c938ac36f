// SPDX-License-Identifier: GPL-2.0
/*
 * The text of a lock annotation to the lock's address expression, once
 * for both frontends (annot.h).  The grammar is the one the kernel's
 * annotations use:
 *
 *	lock   = [ "&" ] path | "this_cpu_ptr(" lock ")"
 *	path   = name { ( "->" | "." ) name }
 *
 * A path without "&" is the lock it points to, or, when it is a lock
 * itself (sparse's contexts are names: __releases(nommu_region_sem)),
 * that lock.
 *
 * A name is a parameter or a global; a local, a call, an index or any
 * arithmetic makes the text unreadable here (the annotation is then
 * ignored, never guessed at).  The expression is spelt as the frontends
 * spell an address (docs/ir.md §5.1): &zone->lock in a function whose
 * parameter 0 is zone is "$0/zone.lock"; vmf->ptl (the pointer, not its
 * address) is "$0/vm_fault.ptl^"; a lock pointer parameter is "$N".
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "annot.h"

/* the longest expression written; kernel annotations are under 100 bytes */
#define MAX_EXPR 512
/* names in a path, at most (&vma->vm_file->f_mapping->i_mmap_rwsem has 4) */
#define MAX_STEPS 16

static const struct {
	const char *name;
	enum hog_annot_kind kind;
} annot_names[] = {
	/* sparse's context annotations (include/linux/compiler_types.h) */
	{ "__must_hold", HA_MUST_HOLD },
	{ "__acquires", HA_ACQUIRES },
	{ "__releases", HA_RELEASES },
	{ "__cond_acquires", HA_COND_ACQUIRES },
	/* 7.0's context analysis macros, shared forms */
	{ "__must_hold_shared", HA_MUST_HOLD },
	{ "__acquires_shared", HA_ACQUIRES },
	{ "__releases_shared", HA_RELEASES },
	{ "__cond_acquires_shared", HA_COND_ACQUIRES },
	/* clang's capability attributes, which 7.0's macros expand to */
	{ "requires_capability", HA_MUST_HOLD },
	{ "requires_shared_capability", HA_MUST_HOLD },
	{ "acquire_capability", HA_ACQUIRES },
	{ "acquire_shared_capability", HA_ACQUIRES },
	{ "release_capability", HA_RELEASES },
	{ "release_shared_capability", HA_RELEASES },
	{ "release_generic_capability", HA_RELEASES },
	{ "try_acquire_capability", HA_COND_ACQUIRES },
	{ "try_acquire_shared_capability", HA_COND_ACQUIRES },
};

int hog_annot_kind_of(const char *name)
{
	size_t i;

	if (!name)
		return -1;
	/* __attribute__((__requires_capability__(x))) is the same attribute */
	for (i = 0; i < sizeof(annot_names) / sizeof(annot_names[0]); i++) {
		size_t n = strlen(annot_names[i].name);

		if (!strcmp(name, annot_names[i].name) ||
		    (!strncmp(name, "__", 2) && !strncmp(name + 2, annot_names[i].name, n) &&
		     !strcmp(name + 2 + n, "__")))
			return annot_names[i].kind;
	}
	return -1;
}

int hog_annot_is_assert(const char *name)
{
	static const char *const names[] = {
		"lockdep_assert_held", "lockdep_assert_held_once",
		"lockdep_assert_held_write", "lockdep_assert_held_read",
	};
	size_t i;

	for (i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

char *hog_annot_macro_arg(const char *src, size_t len)
{
	size_t i = 0, start, depth = 0;
	char *out;
	int k = 0;

	while (i < len && (isalnum((unsigned char)src[i]) || src[i] == '_'))
		i++;
	while (i < len && isspace((unsigned char)src[i]))
		i++;
	if (i >= len || src[i] != '(')
		return NULL;
	start = ++i;
	for (; i < len; i++) {
		if (src[i] == '(')
			depth++;
		else if (src[i] == ')' && depth-- == 0)
			break;
	}
	if (i >= len)
		return NULL;
	out = hog_xcalloc(1, i - start + 1);
	for (; start < i; start++)
		if (!isspace((unsigned char)src[start]))
			out[k++] = src[start];
	return out;
}

struct parse {
	const struct hog_annot_env *env;
	char expr[MAX_EXPR];
	size_t len;
	const void *type;	/* of the lvalue expr denotes, or of the value for a parameter */
	int is_param;		/* expr is a parameter's value, not an lvalue */
};

static int add(struct parse *p, const char *s)
{
	size_t n = strlen(s);

	if (p->len + n >= sizeof(p->expr))
		return -1;
	memcpy(p->expr + p->len, s, n + 1);
	p->len += n;
	return 0;
}

static const char *ident(const char *s, char *buf, size_t max)
{
	size_t n = 0;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return NULL;
	while ((isalnum((unsigned char)s[n]) || s[n] == '_') && n + 1 < max)
		n++;
	memcpy(buf, s, n);
	buf[n] = 0;
	return s + n;
}

static int root(struct parse *p, const char *name)
{
	char buf[64];
	int param;

	if (p->env->lookup(p->env->ctx, name, &param, &p->type))
		return -1;
	if (param >= 0) {
		snprintf(buf, sizeof(buf), "$%d", param);
		p->is_param = 1;
		return add(p, buf);
	}
	p->is_param = 0;
	return add(p, "@") || add(p, name);
}

/* One "->f" or ".f": the lvalue of the member. */
static int step(struct parse *p, int arrow, const char *field)
{
	const void *st = p->type, *ft;
	const char *tname;

	if (arrow) {
		st = p->env->pointee(p->env->ctx, p->type);
		/* a parameter's value is the address already; an lvalue is loaded */
		if (!st || (!p->is_param && add(p, "^")))
			return -1;
	} else if (p->is_param) {
		return -1;	/* a struct passed by value holds no lock of the caller's */
	}
	if (p->env->member(p->env->ctx, st, field, &tname, &ft))
		return -1;
	p->type = ft;
	p->is_param = 0;
	return add(p, "/") || add(p, tname) || add(p, ".") || add(p, field);
}

/* path: sets expr to the lvalue (or a parameter's value); returns the rest */
static const char *path(struct parse *p, const char *s)
{
	char name[128];
	int n = 0;

	if (!(s = ident(s, name, sizeof(name))) || *s == '(' || root(p, name))
		return NULL;
	while (*s && n++ < MAX_STEPS) {
		int arrow = s[0] == '-' && s[1] == '>';

		if (!arrow && *s != '.')
			break;
		s += arrow ? 2 : 1;
		if (!(s = ident(s, name, sizeof(name))) || step(p, arrow, name))
			return NULL;
	}
	return s;
}

/* lock: the address of the lock in expr, its type in p->type */
static const char *lock(struct parse *p, const char *s)
{
	static const char tcp[] = "this_cpu_ptr(";

	if (!strncmp(s, tcp, sizeof(tcp) - 1)) {
		s = lock(p, s + sizeof(tcp) - 1);
		if (!s || *s != ')' || add(p, "#"))
			return NULL;
		return s + 1;
	}
	if (*s == '&') {
		s = path(p, s + 1);
		return s && !p->is_param ? s : NULL;
	}
	if (!(s = path(p, s)))
		return NULL;
	/*
	 * A lock itself, not a pointer to one: sparse's contexts are names,
	 * and __releases(nommu_region_sem) or __must_hold(zone->lock) mean
	 * that lock.
	 */
	if (!p->is_param && p->env->lock_type(p->env->ctx, p->type))
		return s;
	/* a pointer to the lock: its value */
	if (!(p->type = p->env->pointee(p->env->ctx, p->type)))
		return NULL;
	if (!p->is_param && add(p, "^"))
		return NULL;
	return s;
}

/* 7.0's __cond_acquires(ret, lock) and try_acquire_capability(ret, lock): the lock is last */
static const char *last_arg(const char *text)
{
	const char *s, *last = text;
	int depth = 0;

	for (s = text; *s; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')')
			depth--;
		else if (*s == ',' && !depth)
			last = s + 1;
	}
	while (isspace((unsigned char)*last))
		last++;
	return last;
}

int hog_annot_parse(struct hog_strtab *strs, const struct hog_annot_env *env,
		    const char *text, const char **expr, const char **type)
{
	struct parse p = { .env = env };
	const char *s, *t;

	if (!text)
		return -1;
	s = lock(&p, last_arg(text));
	while (s && isspace((unsigned char)*s))
		s++;
	if (!s || *s || !p.len || !(t = env->lock_type(env->ctx, p.type)))
		return -1;
	*expr = hog_intern(strs, p.expr);
	*type = hog_intern(strs, t);
	return 0;
}
