// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "expr.h"

/* Length of the root at the start of e. */
static size_t root_len(const char *e)
{
	size_t n = 1;

	if (!e || !*e)
		return 0;
	switch (e[0]) {
	case '$':
		if (e[1] == 'R')
			return 2;
		/* fall through */
	case 'v':
		while (isdigit((unsigned char)e[n]))
			n++;
		return n;
	case '@':
	case '%':
		while (e[n] && e[n] != '/' && e[n] != '^' && e[n] != '#' && e[n] != '[')
			n++;
		return n;
	}
	return 0;
}

/* Length of the step at s: "/T.F", "^", "#", "[]". */
static size_t step_len(const char *s)
{
	size_t n = 1;

	switch (s[0]) {
	case '^':
	case '#':
		return 1;
	case '[':
		while (s[n] && s[n] != ']')
			n++;
		return s[n] ? n + 1 : n;
	case '/':
		while (s[n] && s[n] != '/' && s[n] != '^' && s[n] != '#' && s[n] != '[')
			n++;
		return n;
	}
	return strlen(s);
}

int hog_expr_param(const char *e)
{
	if (!e || e[0] != '$' || !isdigit((unsigned char)e[1]))
		return -1;
	return atoi(e + 1);
}

int hog_expr_is_ret(const char *e)
{
	return e && e[0] == '$' && e[1] == 'R';
}

int hog_expr_var(const char *e)
{
	if (!e || e[0] != 'v' || !isdigit((unsigned char)e[1]))
		return -1;
	return atoi(e + 1);
}

int hog_expr_is_percpu(const char *e)
{
	return e && strchr(e, '#') != NULL;
}

/* Memory of a global variable itself, not of what a global points to. */
int hog_expr_is_global(const char *e)
{
	return e && e[0] == '@' && !hog_expr_is_percpu(e) && !strchr(e, '^');
}

int hog_expr_portable(const char *e)
{
	return e && (e[0] == '$' || e[0] == '@');
}

int hog_expr_has_prefix_n(const char *e, const char *prefix, size_t n)
{
	if (strncmp(e, prefix, n))
		return 0;
	return e[n] == 0 || e[n] == '/' || e[n] == '^' || e[n] == '#' || e[n] == '[';
}

int hog_expr_has_prefix(const char *e, const char *prefix)
{
	return hog_expr_has_prefix_n(e, prefix, strlen(prefix));
}

int hog_call_fills(const char *callee)
{
	return callee && (strstr(callee, "memset") || strstr(callee, "memcpy") ||
			  strstr(callee, "memmove"));
}

/* Field name of a "/T.F" step (points into the step), length in *n. */
static const char *step_field(const char *s, size_t len, size_t *n)
{
	const char *dot = memchr(s, '.', len);
	const char *f = dot ? dot + 1 : s + 1;

	*n = len - (f - s);
	return f;
}

const char *hog_expr_norm(struct hog_strtab *st, const struct hog_rules *r,
			  const char *e)
{
	struct hog_buf b = { 0 };
	const char *s, *res;
	size_t rl, n;
	/*
	 * Steps after the root and after each load: a per-cpu mark moves
	 * left over field steps to just after the root or load, because
	 * this_cpu_ptr(&x.f) and &this_cpu_ptr(&x)->f are the same lock.
	 */
	size_t seg_start;
	int pending_pcpu = 0;

	if (!e)
		return NULL;
	rl = root_len(e);
	if (!rl)
		return hog_intern(st, e);
	hog_buf_addn(&b, e, rl);
	seg_start = b.len;
	s = e + rl;
	while (*s) {
		n = step_len(s);
		if (s[0] == '#') {
			if (!pending_pcpu) {
				/* insert at seg_start */
				hog_buf_add(&b, " ");
				memmove(b.s + seg_start + 1, b.s + seg_start, b.len - seg_start - 1);
				b.s[seg_start] = '#';
				pending_pcpu = 1;
			}
		} else {
			hog_buf_addn(&b, s, n);
			if (s[0] == '^') {
				seg_start = b.len;
				pending_pcpu = 0;
			}
		}
		s += n;
	}
	/* Drop wrapper fields at the end: spinlock_t's rlock and the like. */
	if (r) {
		for (;;) {
			char *last = NULL;
			char *p = b.s + rl;
			size_t fl;
			const char *f;

			while (*p) {
				size_t sl = step_len(p);

				if (p[0] == '/')
					last = p;
				else
					last = NULL;
				p += sl;
			}
			if (!last)
				break;
			f = step_field(last, strlen(last), &fl);
			if (!hog_rules_is_strip(r, hog_intern_n(st, f, fl)))
				break;
			*last = 0;
			b.len = last - b.s;
		}
	}
	res = hog_intern(st, b.s);
	hog_buf_free(&b);
	return res;
}

const char *hog_expr_append(struct hog_strtab *s, const char *e, const char *steps)
{
	char *t = hog_xasprintf("%s%s", e, steps);
	const char *r = hog_intern(s, t);

	free(t);
	return r;
}

const char *hog_expr_subst(struct hog_strtab *st, const struct hog_rules *r,
			   const char *e, const char *const *args, int nargs,
			   const char *ret)
{
	const char *base;
	size_t rl;
	char *t;
	const char *res;

	if (!e)
		return NULL;
	if (e[0] == '@')
		return hog_expr_norm(st, r, e);
	if (e[0] != '$')
		return NULL;
	rl = root_len(e);
	if (e[1] == 'R') {
		base = ret;
	} else {
		int i = atoi(e + 1);

		base = i < nargs ? args[i] : NULL;
	}
	if (!base)
		return NULL;
	t = hog_xasprintf("%s%s", base, e + rl);
	res = hog_expr_norm(st, r, t);
	free(t);
	return res;
}

const char *hog_expr_rebase_var(struct hog_strtab *st, const char *e, int var,
				const char *addr)
{
	char *t;
	const char *res;

	if (hog_expr_var(e) != var)
		return NULL;
	t = hog_xasprintf("%s%s", addr, e + root_len(e));
	res = hog_intern(st, t);
	free(t);
	return res;
}

/*
 * Display: field steps print as ".f" after an object that has a name
 * (a global or a field of one) and as "->f" after a pointer value.
 */
char *hog_expr_display(const char *e, const char *const *params, int nparams,
		       const char *const *vnames, int nvars)
{
	struct hog_buf b = { 0 };
	size_t rl;
	const char *s;
	int is_object;	/* what we printed names an object, not a pointer */

	if (!e || !*e)
		return hog_xstrdup("?");
	rl = root_len(e);
	switch (e[0]) {
	case '$':
		if (e[1] == 'R') {
			hog_buf_add(&b, "<return>");
		} else {
			int i = atoi(e + 1);

			if (i < nparams && params && params[i] && *params[i])
				hog_buf_add(&b, params[i]);
			else
				hog_buf_printf(&b, "arg%d", i);
		}
		is_object = 0;
		break;
	case 'v': {
		int i = atoi(e + 1);

		if (vnames && i < nvars && vnames[i] && *vnames[i])
			hog_buf_add(&b, vnames[i]);
		else
			hog_buf_add(&b, "?");
		is_object = 0;
		break;
	}
	case '@':
		hog_buf_addn(&b, e + 1, rl - 1);
		is_object = 1;
		break;
	case '%':
		hog_buf_addn(&b, e + 1, rl - 1);
		is_object = 0;
		break;
	default:
		return hog_xstrdup(e);
	}
	s = e + rl;
	while (*s) {
		size_t n = step_len(s), fl;
		const char *f;

		switch (s[0]) {
		case '/':
			f = step_field(s, n, &fl);
			hog_buf_add(&b, is_object ? "." : "->");
			hog_buf_addn(&b, f, fl);
			is_object = 1;
			break;
		case '^':
			/* the object's value is now a pointer */
			is_object = 0;
			break;
		case '[':
			/* p[i] and a[i] are objects: their fields print with '.' */
			hog_buf_add(&b, "[]");
			is_object = 1;
			break;
		default:
			break;
		}
		s += n;
	}
	if (!is_object && e[0] != '@') {
		/* a bare pointer: the lock is what it points to */
		char *r = b.s;

		return r ? r : hog_xstrdup("?");
	}
	return b.s ? b.s : hog_xstrdup("?");
}

const char *hog_expr_class(struct hog_strtab *st, const char *e)
{
	const char *s, *last = NULL;
	size_t lastn = 0, rl;

	if (!e)
		return NULL;
	rl = root_len(e);
	s = e + rl;
	while (*s) {
		size_t n = step_len(s);

		if (s[0] == '/') {
			last = s;
			lastn = n;
		}
		s += n;
	}
	if (last) {
		/* "/T.F": T may be "?" for an anonymous struct */
		if (last[1] == '?' && last[2] == '.')
			return hog_intern_n(st, last + 3, lastn - 3);
		return hog_intern_n(st, last + 1, lastn - 1);
	}
	if (e[0] == '@')
		return hog_intern_n(st, e + 1, rl - 1);
	return NULL;
}
