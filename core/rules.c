// SPDX-License-Identifier: GPL-2.0
/*
 * Parser for the rules catalogue.  One rule a line:
 *
 *   DIRECTIVE NAME key=value ... ["reason"]
 *
 * with # comments.  Errors name FILE:LINE and never abort.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <ctype.h>
#include <stdint.h>
#include <limits.h>
#include "rules.h"
#include "expr.h"

static const char *const kind_names[HR_NKINDS] = {
	[HR_LOCK] = "lock",
	[HR_IRQ] = "irq",
	[HR_PREEMPT] = "preempt",
	[HR_COST] = "cost",
	[HR_LOCKBREAK] = "lockbreak",
	[HR_PASSTHROUGH] = "passthrough",
	[HR_ATOMIC] = "atomic",
	[HR_CHEAP] = "cheap",
	[HR_PAGEFAULT] = "pagefault",
};

const char *hog_rule_kind_name(enum hog_rule_kind k)
{
	return k < HR_NKINDS ? kind_names[k] : "?";
}

static int rank_set(struct hog_rank_policy *k, const char *cls, int score)
{
	int i;

	for (i = 0; i < k->nbase; i++)
		if (k->base[i].cls == cls)
			break;
	if (i == HOG_RANK_MAX_CLASSES)
		return -1;
	k->base[i].cls = cls;
	k->base[i].score = score;
	if (i == k->nbase)
		k->nbase++;
	return 0;
}

/* The ranking the catalogue states in its "rank" lines, for rules that do not. */
static void rank_defaults(struct hog_rules *r)
{
	static const struct {
		const char *cls;
		int score;
	} base[] = {
		{ HOG_CLS_SLEEP, 60 }, { HOG_CLS_FAULT, 60 }, { HOG_CLS_FLUSH, 55 },
		{ HOG_CLS_HIER, 50 }, { HOG_CLS_LOOP, 50 }, { HOG_CLS_REF, 40 },
		{ HOG_CLS_GATOM, 15 },
	};
	struct hog_rank_policy *k = &r->rank;
	size_t i;

	memset(k, 0, sizeof(*k));
	for (i = 0; i < sizeof(base) / sizeof(base[0]); i++)
		rank_set(k, hog_intern(r->strs, base[i].cls), base[i].score);
	k->other = 35;
	k->irqs_off = 30;
	k->sleeping_lock = -40;
	k->preempt = -10;
	k->spinning_lock = 10;
	k->listed = 5;
	k->max_paths = 10;
	k->per_step = -2;
	k->batched = -40;
	k->unsure = -30;
}

struct hog_rules *hog_rules_new(struct hog_strtab *strs)
{
	struct hog_rules *r = hog_xcalloc(1, sizeof(*r));

	if (!strs) {
		strs = hog_strtab_new();
		r->own_strs = 1;
	}
	r->strs = strs;
	r->byname = hog_map_new();
	r->outside = hog_map_new();
	r->loop.max_bound = 64;
	r->loop.nest_fold = 1;
	r->loop.listwalk = 0;
	r->loop.min_calls = 1;
	r->loop.max_chain = 8;
	rank_defaults(r);
	return r;
}

void hog_rules_free(struct hog_rules *r)
{
	if (!r)
		return;
	hog_map_free(r->byname);
	hog_map_free(r->outside);
	hog_vec_free(&r->all);
	hog_vec_free(&r->strip);
	hog_vec_free(&r->release_words);
	hog_vec_free(&r->boot_funcs);
	hog_vec_free(&r->current_funcs);
	hog_vec_free(&r->quiesced_funcs);
	hog_vec_free(&r->diag_funcs);
	hog_vec_free(&r->anyctx_funcs);
	hog_vec_free(&r->static_keys);
	hog_vec_free(&r->rel_fields);
	hog_vec_free(&r->rel_reasons);
	hog_vec_free(&r->branch_funcs);
	hog_vec_free(&r->rare_funcs);
	hog_vec_free(&r->rare_calls);
	hog_vec_free(&r->notroot_names);
	hog_vec_free(&r->notroot_args);
	hog_vec_free(&r->notroot_fields);
	hog_vec_free(&r->lastput_funcs);
	hog_vec_free(&r->cb_funcs);
	hog_vec_free(&r->cb_irqs);
	hog_vec_free(&r->cb_locks);
	hog_vec_free(&r->rel_funcs);
	hog_vec_free(&r->rel_locks);
	hog_vec_free(&r->ref_gets);
	hog_vec_free(&r->ref_puts);
	hog_vec_free(&r->ref_put_rule);
	hog_vec_free(&r->ref_info);
	hog_vec_free(&r->ctx_rules);
	hog_vec_free(&r->ctx_modes);
	hog_vec_free(&r->ctx_tests);
	hog_vec_free(&r->fe.lock_tags);
	hog_vec_free(&r->fe.lock_typedefs);
	hog_vec_free(&r->fe.kind_types);
	hog_vec_free(&r->fe.kind_kinds);
	hog_vec_free(&r->fe.parent_fields);
	hog_vec_free(&r->fe.parent_calls);
	hog_vec_free(&r->fe.percpu_arch);
	hog_vec_free(&r->fe.percpu_prefix);
	hog_vec_free(&r->fe.bound_names);
	hog_vec_free(&r->fe.bound_max);
	hog_vec_free(&r->fe.bound_min);
	hog_vec_free(&r->fe.scales);
	hog_vec_free(&r->fe.iter_names);
	hog_vec_free(&r->fe.iter_arg);
	hog_arena_free(&r->arena);
	if (r->own_strs)
		hog_strtab_free(r->strs);
	free(r);
}

const struct hog_rule *hog_rules_find(const struct hog_rules *r,
				      const char *name, enum hog_rule_kind kind)
{
	const struct hog_rule *x = name ? hog_map_get(r->byname, name) : NULL;

	for (; x; x = x->next)
		if (x->kind == kind)
			return x;
	return NULL;
}

int hog_rules_is_strip(const struct hog_rules *r, const char *field)
{
	int i;

	for (i = 0; i < r->strip.n; i++)
		if (r->strip.v[i] == field)
			return 1;
	return 0;
}

static int in_list(const struct hog_vec *v, const char *name)
{
	int i;

	for (i = 0; name && i < v->n; i++)
		if (!strcmp(v->v[i], name))
			return 1;
	return 0;
}

int hog_rules_is_lock_type(const struct hog_rules *r, int is_typedef, const char *name)
{
	return in_list(is_typedef ? &r->fe.lock_typedefs : &r->fe.lock_tags, name);
}

const char *hog_rules_lock_kind(const struct hog_rules *r, const char *type)
{
	int i;

	for (i = 0; type && i < r->fe.kind_types.n; i++)
		if (!strcmp(r->fe.kind_types.v[i], type))
			return r->fe.kind_kinds.v[i];
	return NULL;
}

int hog_lock_kind_sleeps(const char *kind)
{
	return kind && (!strcmp(kind, "mutex") || !strncmp(kind, "rwsem", 5));
}

int hog_rules_is_parent_class(const struct hog_rules *r, const char *cls)
{
	return in_list(&r->fe.parent_fields, cls);
}

int hog_rules_is_parent_field(const struct hog_rules *r, const char *tag, const char *field)
{
	size_t n = tag ? strlen(tag) : 0;
	int i;

	for (i = 0; field && i < r->fe.parent_fields.n; i++) {
		const char *x = r->fe.parent_fields.v[i];

		if (!strncmp(x, tag, n) && x[n] == '.' && !strcmp(x + n + 1, field))
			return 1;
	}
	return 0;
}

/* Is x "name" (tag NULL) or "tag.name"? */
static int names_target(const char *x, const char *tag, const char *name)
{
	size_t n;

	if (!tag)
		return !strcmp(x, name);
	n = strlen(tag);
	return !strncmp(x, tag, n) && x[n] == '.' && !strcmp(x + n + 1, name);
}

long long hog_rules_bound(const struct hog_rules *r, const char *tag, const char *name)
{
	int i;

	for (i = 0; name && i < r->fe.bound_names.n; i++)
		if (names_target(r->fe.bound_names.v[i], tag, name))
			return (long long)(intptr_t)r->fe.bound_max.v[i];
	return -1;
}

int hog_rules_bound_min(const struct hog_rules *r, const char *cls, long long *min)
{
	int i;

	for (i = 0; cls && i < r->fe.bound_names.n; i++)
		if (!strcmp(r->fe.bound_names.v[i], cls)) {
			intptr_t m = (intptr_t)r->fe.bound_min.v[i];

			*min = m;
			return m != INTPTR_MIN;
		}
	return 0;
}

int hog_rules_iterator(const struct hog_rules *r, const char *name, int *step)
{
	int i;

	for (i = 0; name && i < r->fe.iter_names.n; i++)
		if (!strcmp(r->fe.iter_names.v[i], name)) {
			intptr_t a = (intptr_t)r->fe.iter_arg.v[i];

			*step = (int)(a & 1);
			return (int)(a >> 1);
		}
	return -1;
}

int hog_rules_scales(const struct hog_rules *r, const char *tag, const char *name)
{
	int i;

	for (i = 0; name && i < r->fe.scales.n; i++)
		if (names_target(r->fe.scales.v[i], tag, name))
			return 1;
	return 0;
}

int hog_rules_is_parent_call(const struct hog_rules *r, const char *func)
{
	return in_list(&r->fe.parent_calls, func);
}

int hog_rules_asm_is_percpu(const struct hog_rules *r, const char *arch, const char *tmpl)
{
	int i;

	for (i = 0; arch && tmpl && i < r->fe.percpu_prefix.n; i++)
		if (!strcmp(r->fe.percpu_arch.v[i], arch) &&
		    strstr(tmpl, r->fe.percpu_prefix.v[i]))
			return 1;
	return 0;
}

/* xchg, which locks by itself; not cmpxchg, which locks only with a prefix */
static int asm_xchg(const char *s)
{
	const char *x;

	for (x = strstr(s, "xchg"); x; x = strstr(x + 1, "xchg"))
		if (x == s || !isalpha((unsigned char)x[-1]))
			return 1;
	return 0;
}

/*
 * Inline asm with a lock prefix (LOCK_PREFIX, or xchg which locks by
 * itself) is an atomic read-modify-write on its memory operand.  Not
 * one that addresses this CPU's data (a percpu-asm prefix:
 * this_cpu_xchg(), preempt_count_set()'s cmpxchg on %gs:__preempt_count):
 * no other CPU shares that line.
 */
int hog_rules_asm_is_atomic(const struct hog_rules *r, const char *arch, const char *tmpl)
{
	if (!tmpl || (!strstr(tmpl, "lock;") && !strstr(tmpl, "lock ") &&
		      !strstr(tmpl, ".smp_locks") && !asm_xchg(tmpl)))
		return 0;
	return !hog_rules_asm_is_percpu(r, arch, tmpl);
}

/* ---- tokenizer ---- */

struct tok {
	char *key;	/* NULL for a bare word */
	char *val;
	int quoted;
};

struct parse {
	struct hog_rules *r;
	const char *path;
	int line;
	char *err;
	struct tok tok[32];
	int ntok;
};

static int perr(struct parse *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perr(struct parse *p, const char *fmt, ...)
{
	struct hog_buf b = { 0 };
	va_list ap;

	if (p->err)
		return -1;
	hog_buf_printf(&b, "%s:%d: ", p->path, p->line);
	va_start(ap, fmt);
	hog_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	p->err = b.s;
	return -1;
}

/* Splits a line in place into words, key=value pairs and one quoted string. */
static int tokenize(struct parse *p, char *s)
{
	p->ntok = 0;
	for (;;) {
		struct tok *t;

		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s || *s == '#')
			return 0;
		if (p->ntok == (int)(sizeof(p->tok) / sizeof(p->tok[0])))
			return perr(p, "too many fields");
		t = &p->tok[p->ntok++];
		memset(t, 0, sizeof(*t));
		if (*s == '"') {
			char *o = ++s;

			t->val = o;
			t->quoted = 1;
			while (*s && *s != '"') {
				if (*s == '\\' && s[1])
					s++;
				*o++ = *s++;
			}
			if (*s != '"')
				return perr(p, "unterminated string");
			s++;
			*o = 0;
			if (*s && *s != ' ' && *s != '\t' && *s != '\r')
				return perr(p, "text after closing quote");
			continue;
		}
		t->val = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '=')
			s++;
		if (*s == '=') {
			*s++ = 0;
			t->key = t->val;
			if (!*t->key)
				return perr(p, "missing key before '='");
			t->val = s;
			if (*s == '"') {
				char *o = ++s;

				t->val = o;
				t->quoted = 1;
				while (*s && *s != '"')
					*o++ = *s++;
				if (*s != '"')
					return perr(p, "unterminated string");
				s++;
				*o = 0;
				continue;
			}
			while (*s && *s != ' ' && *s != '\t' && *s != '\r')
				s++;
		}
		if (*s)
			*s++ = 0;
		if (t->key && !*t->val)
			return perr(p, "empty value for '%s'", t->key);
	}
}

static int is_ident(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static int parse_int(struct parse *p, const char *key, const char *s,
		     long long lo, long long hi, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 0);
	if (errno || *end || end == s || *out < lo || *out > hi)
		return perr(p, "bad number '%s' for '%s'", s, key);
	return 0;
}

/* arg=N, or for flags also "ret" */
static int parse_arg(struct parse *p, const char *key, const char *s, int allow_ret,
		     int *out)
{
	long long v;

	if (allow_ret && !strcmp(s, "ret")) {
		*out = -2;
		return 0;
	}
	if (!strncmp(s, "arg", 3))
		s += 3;
	if (parse_int(p, key, s, 0, 15, &v))
		return -1;
	*out = (int)v;
	return 0;
}

/* when=argN&MASK or when=argN==VAL */
static int parse_when(struct parse *p, const char *s, struct hog_when *w)
{
	char buf[128], *op;
	long long a;

	snprintf(buf, sizeof(buf), "%s", s);
	if (strncmp(buf, "arg", 3))
		return perr(p, "bad condition '%s' (want argN&MASK or argN==VALUE)", s);
	op = strpbrk(buf, "&=");
	if (!op)
		return perr(p, "bad condition '%s' (want argN&MASK or argN==VALUE)", s);
	w->op = *op;
	*op++ = 0;
	if (w->op == '=') {
		if (*op != '=')
			return perr(p, "bad condition '%s' (use ==)", s);
		op++;
	}
	if (parse_int(p, "when", buf + 3, 0, 15, &a) ||
	    parse_int(p, "when", op, -(1LL << 62), 1LL << 62, &w->val))
		return -1;
	w->arg = (int)a;
	return 0;
}

static int lookup(struct parse *p, const char *s, const char *const *names,
		  int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return i;
	return perr(p, "unknown %s '%s'", key, s), -1;
}

static const char *const lock_ops[] = { "acquire", "release", "trylock" };
static const char *const irq_ops[] = { "none", "save", "restore", "disable", "enable" };
static const char *const try_conds[] = { "nonzero", "nonnull", "zero" };
static const char *const break_ops[] = { "break", "test" };
static const char *const lock_kinds[] = {
	"spin", "raw_spin", "read", "write", "local", "bit", "mutex", "rwsem_read",
	"rwsem_write", "rcu",
};

/* the largest cap a "bound" rule may give, as for "loop bound=" */
#define MAX_LOOP_CAP (1LL << 40)
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

int hog_rules_set_kversion(struct hog_rules *r, unsigned v)
{
	if (r->nfiles)
		return -1;
	r->kversion = v;
	r->digest = hog_hash64(&v, sizeof(v), r->digest);
	return 0;
}

static int in_range(unsigned v, unsigned since, unsigned until)
{
	return (!since || v >= since) && (!until || v < until);
}

int hog_rule_applies(const struct hog_rules *r, const struct hog_rule *x)
{
	return !r->kversion || in_range(r->kversion, x->since, x->until);
}

/* Do the versions of two rules meet?  [since, until), 0 unbounded. */
static int ranges_meet(const struct hog_rule *a, const struct hog_rule *b)
{
	return (!a->until || b->since < a->until) && (!b->until || a->since < b->until);
}

/* A rule of x's name and kind whose versions meet x's, loaded or left out. */
static const struct hog_rule *clash(const struct hog_rules *r, const struct hog_rule *x,
				    const struct hog_rule **same)
{
	const struct hog_rule *y;
	int pass;

	*same = NULL;
	for (pass = 0; pass < 2; pass++)
		for (y = hog_map_get(pass ? r->outside : r->byname, x->name); y; y = y->next) {
			if (y->kind != x->kind)
				continue;
			if (!pass && !*same)
				*same = y;
			if (ranges_meet(x, y))
				return y;
		}
	return NULL;
}

/*
 * A rule outside the catalogue's kernel version, or one for a name and
 * kind an earlier rule of other versions already gives when the version
 * is unknown, is left out (kept for the clash checks of later rules).
 */
static int add_rule(struct parse *p, struct hog_rule *x)
{
	struct hog_rules *r = p->r;
	const struct hog_rule *y, *same;

	y = clash(r, x, &same);
	if (y && !x->since && !x->until && !y->since && !y->until)
		return perr(p, "'%s' already has a %s rule at %s:%d", x->name,
			    kind_names[x->kind], y->file, y->line);
	if (y)
		return perr(p, "'%s' already has a %s rule for these kernel versions at %s:%d",
			    x->name, kind_names[x->kind], y->file, y->line);
	if (!hog_rule_applies(r, x) || same) {
		x->next = hog_map_get(r->outside, x->name);
		hog_map_put(r->outside, x->name, x);
		r->noutside++;
		return 0;
	}
	x->next = hog_map_get(r->byname, x->name);
	hog_map_put(r->byname, x->name, x);
	hog_vec_push(&r->all, x);
	return 0;
}

/* since=A.B[.C] or until=A.B[.C] (a rule's kernel versions) */
static int parse_kversion_key(struct parse *p, const struct tok *t, unsigned *out)
{
	if (hog_kversion_parse(t->val, out) || t->val[strcspn(t->val, "-+")])
		return perr(p, "bad kernel version '%s' for '%s' (want e.g. 6.12 or 6.12.3)",
			    t->val, t->key);
	return 0;
}

static int is_kversion_key(const char *key)
{
	return !strcmp(key, "since") || !strcmp(key, "until");
}

static int kversion_key(struct parse *p, const struct tok *t, unsigned *since,
			unsigned *until)
{
	return parse_kversion_key(p, t, !strcmp(t->key, "since") ? since : until);
}

static int kversion_order(struct parse *p, unsigned since, unsigned until)
{
	char a[32], b[32];

	if (!since || !until || since < until)
		return 0;
	hog_kversion_text(since, a, sizeof(a));
	hog_kversion_text(until, b, sizeof(b));
	return perr(p, "since=%s is not before until=%s", a, b);
}

static int parse_loop(struct parse *p)
{
	int i;

	for (i = 1; i < p->ntok; i++) {
		struct tok *t = &p->tok[i];
		long long v;

		if (!t->key)
			return perr(p, "loop takes key=value settings, not '%s'", t->val);
		if (!strcmp(t->key, "bound")) {
			if (parse_int(p, t->key, t->val, 0, 1LL << 40, &v))
				return -1;
			p->r->loop.max_bound = v;
		} else if (!strcmp(t->key, "listwalk")) {
			if (!strcmp(t->val, "ignore"))
				p->r->loop.listwalk = 0;
			else if (!strcmp(t->val, "report"))
				p->r->loop.listwalk = 1;
			else
				return perr(p, "listwalk is ignore or report, not '%s'", t->val);
		} else if (!strcmp(t->key, "nest")) {
			if (!strcmp(t->val, "fold"))
				p->r->loop.nest_fold = 1;
			else if (!strcmp(t->val, "report"))
				p->r->loop.nest_fold = 0;
			else
				return perr(p, "nest is fold or report, not '%s'", t->val);
		} else if (!strcmp(t->key, "note-bound")) {
			if (parse_int(p, t->key, t->val, 0, 1LL << 40, &v))
				return -1;
			p->r->loop.note_bound = v;
		} else if (!strcmp(t->key, "irqs-on")) {
			if (!strcmp(t->val, "note"))
				p->r->loop.irqs_on_note = 1;
			else if (!strcmp(t->val, "warn"))
				p->r->loop.irqs_on_note = 0;
			else
				return perr(p, "irqs-on is note or warn, not '%s'", t->val);
		} else if (!strcmp(t->key, "calls")) {
			if (parse_int(p, t->key, t->val, 0, 1000, &v))
				return -1;
			p->r->loop.min_calls = (int)v;
		} else if (!strcmp(t->key, "chain")) {
			if (parse_int(p, t->key, t->val, 1, 64, &v))
				return -1;
			p->r->loop.max_chain = (int)v;
		} else {
			return perr(p, "unknown loop setting '%s'", t->key);
		}
	}
	return 0;
}

/* rank CLASS=N ... for base scores, rank adjust KEY=N ... for the context */
static int parse_rank(struct parse *p)
{
	static const struct {
		const char *key;
		size_t off;
	} adj[] = {
		{ "other", offsetof(struct hog_rank_policy, other) },
		{ "irqs-off", offsetof(struct hog_rank_policy, irqs_off) },
		{ "sleeping-lock", offsetof(struct hog_rank_policy, sleeping_lock) },
		{ "preempt", offsetof(struct hog_rank_policy, preempt) },
		{ "spinning-lock", offsetof(struct hog_rank_policy, spinning_lock) },
		{ "listed", offsetof(struct hog_rank_policy, listed) },
		{ "max-paths", offsetof(struct hog_rank_policy, max_paths) },
		{ "per-step", offsetof(struct hog_rank_policy, per_step) },
		{ "batched", offsetof(struct hog_rank_policy, batched) },
		{ "unsure", offsetof(struct hog_rank_policy, unsure) },
	};
	struct hog_rank_policy *k = &p->r->rank;
	int i, j, adjust = p->ntok > 1 && !p->tok[1].key &&
				     !strcmp(p->tok[1].val, "adjust");

	for (i = 1 + adjust; i < p->ntok; i++) {
		struct tok *t = &p->tok[i];
		long long v;

		if (!t->key)
			return perr(p, "rank takes key=value settings, not '%s'", t->val);
		if (parse_int(p, t->key, t->val, -1000, 1000, &v))
			return -1;
		if (adjust) {
			for (j = 0; j < (int)(sizeof(adj) / sizeof(adj[0])); j++)
				if (!strcmp(t->key, adj[j].key))
					break;
			if (j == (int)(sizeof(adj) / sizeof(adj[0])))
				return perr(p, "unknown rank adjustment '%s'", t->key);
			*(int *)((char *)k + adj[j].off) = (int)v;
			continue;
		}
		if (!strcmp(t->key, "other"))
			k->other = (int)v;
		else if (rank_set(k, hog_intern(p->r->strs, t->key), (int)v))
			return perr(p, "more than %d ranked classes", HOG_RANK_MAX_CLASSES);
	}
	return 0;
}

int hog_rules_rank_base(const struct hog_rules *r, const char *cls)
{
	int i;

	for (i = 0; cls && i < r->rank.nbase; i++)
		if (r->rank.base[i].cls == cls || !strcmp(r->rank.base[i].cls, cls))
			return r->rank.base[i].score;
	return r->rank.other;
}

static int parse_words(struct parse *p, struct hog_vec *v, const char *what)
{
	int i;

	if (p->ntok < 2)
		return perr(p, "%s needs words", what);
	for (i = 1; i < p->ntok; i++) {
		if (p->tok[i].key || !is_ident(p->tok[i].val))
			return perr(p, "%s takes identifier words, not '%s'", what, p->tok[i].val);
		hog_vec_push(v, (void *)hog_intern(p->r->strs, p->tok[i].val));
	}
	return 0;
}

/* "rare call=NAME arg=N": the function a call passes as argument N */
static int parse_rare_call(struct parse *p)
{
	struct hog_rare_call *c = hog_alloc(&p->r->arena, sizeof(*c));
	long long v = -1;
	char *w;
	int i;

	memset(c, 0, sizeof(*c));
	c->arg = -1;
	for (i = 1; i < p->ntok; i++) {
		const struct tok *t = &p->tok[i];

		if (t->key && !strcmp(t->key, "call") && is_ident(t->val) && !c->call) {
			c->call = hog_intern(p->r->strs, t->val);
		} else if (t->key && !strcmp(t->key, "arg") && c->arg < 0) {
			if (parse_int(p, "arg", t->val, 0, 15, &v))
				return -1;
			c->arg = (int)v;
		} else {
			return perr(p, "rare call= takes call=NAME arg=N, not '%s%s%s'",
				    t->key ? t->key : "", t->key ? "=" : "", t->val);
		}
	}
	if (!c->call || c->arg < 0)
		return perr(p, "rare call= needs call=NAME and arg=N");
	w = hog_xasprintf("call=%s arg=%d", c->call, c->arg);
	c->word = hog_intern(p->r->strs, w);
	free(w);
	hog_vec_push(&p->r->rare_calls, c);
	return 0;
}

/* Is w NAME or STRUCT.FIELD (dot 0), STRUCT.FIELD only (dot 1)? */
static int name_or_field(const char *w, int dot)
{
	const char *d = strchr(w, '.');
	char *head = hog_xstrdup(w);
	int ok;

	if (d)
		head[d - w] = 0;
	ok = is_ident(head) && (d ? is_ident(d + 1) : !dot);
	free(head);
	return ok;
}

/* "rare NAME|STRUCT.FIELD...": a function, or every function a static initializer stores there */
static int parse_rare(struct parse *p)
{
	int i;

	if (p->ntok < 2)
		return perr(p, "rare needs words");
	if (p->tok[1].key)
		return parse_rare_call(p);
	for (i = 1; i < p->ntok; i++) {
		const char *w = p->tok[i].val;

		if (p->tok[i].key || !name_or_field(w, 0))
			return perr(p, "rare takes function names or STRUCT.FIELD, not '%s'", w);
		hog_vec_push(&p->r->rare_funcs, (void *)hog_intern(p->r->strs, w));
	}
	return 0;
}

static const char *key_note(struct parse *p, const char *why, const char *head,
			    const char *directive);

/* not-root NAME|STRUCT.FIELD [arg=N] [parent=STRUCT.FIELD] "reason" */
static int parse_not_root(struct parse *p)
{
	const char *w = p->ntok > 1 ? p->tok[1].val : "", *parent = NULL, *reason_text = NULL;
	struct hog_static_key *k;
	long long arg = 0;
	int i, reason = 0, seen_arg = 0;

	if (p->ntok < 2 || p->tok[1].key || p->tok[1].quoted || !name_or_field(w, 0))
		return perr(p, "not-root needs a function name or STRUCT.FIELD");
	for (i = 2; i < p->ntok; i++) {
		const struct tok *t = &p->tok[i];

		if (t->quoted && !t->key) {
			reason++;
			reason_text = t->val;
		} else if (t->key && !strcmp(t->key, "arg") && !seen_arg++) {
			if (parse_int(p, "arg", t->val, 0, 15, &arg))
				return -1;
		} else if (t->key && !strcmp(t->key, "parent") && !parent) {
			if (!name_or_field(t->val, 1))
				return perr(p, "not-root parent= takes STRUCT.FIELD, not '%s'", t->val);
			parent = hog_intern(p->r->strs, t->val);
		} else {
			return perr(p, "not-root takes arg=N, parent=STRUCT.FIELD and a reason, not '%s%s%s'",
				    t->key ? t->key : "", t->key ? "=" : "", t->val);
		}
	}
	if (reason != 1)
		return perr(p, "not-root needs one \"reason\"");
	if (hog_rules_not_root(p->r, w, NULL) >= 0)
		return perr(p, "'%s' already has a not-root", w);
	hog_vec_push(&p->r->notroot_names, (void *)hog_intern(p->r->strs, w));
	hog_vec_push(&p->r->notroot_args, (void *)(intptr_t)arg);
	hog_vec_push(&p->r->notroot_fields, (void *)parent);
	/* what runs only for a root is a note that says why (hog_rules_not_root_key()) */
	k = hog_alloc(&p->r->arena, sizeof(*k));
	memset(k, 0, sizeof(*k));
	k->name = hog_intern(p->r->strs, w);
	k->field = 2;
	k->note = key_note(p, reason_text, "it runs only for the root of a hierarchy, which %s "
			   "is never handed", "not-root");
	hog_vec_push(&p->r->static_keys, k);
	return 0;
}

int hog_rules_not_root(const struct hog_rules *r, const char *name, const char **parent)
{
	int i;

	for (i = 0; name && i < r->notroot_names.n; i++)
		if (!strcmp(r->notroot_names.v[i], name)) {
			if (parent)
				*parent = r->notroot_fields.v[i];
			return (int)(intptr_t)r->notroot_args.v[i];
		}
	return -1;
}

int hog_rules_callback_break(const struct hog_rules *r, const char *name, int *irqs_on,
			     const char **lock)
{
	int i;

	for (i = 0; name && i < r->cb_funcs.n; i++)
		if (!strcmp(r->cb_funcs.v[i], name)) {
			*irqs_on = (int)(intptr_t)r->cb_irqs.v[i];
			*lock = r->cb_locks.v[i];
			return 1;
		}
	return 0;
}

static void push_name(struct parse *p, struct hog_vec *v, const char *name);

/* callback-break NAME [lock=$N...] [irqs=on] "reason" */
static int parse_callback_break(struct parse *p)
{
	const char *lock = NULL, *dummy;
	int i, reason = 0, irqs = 0;

	if (p->ntok < 2 || p->tok[1].key || p->tok[1].quoted || !is_ident(p->tok[1].val))
		return perr(p, "callback-break needs a function name");
	for (i = 2; i < p->ntok; i++) {
		const struct tok *t = &p->tok[i];

		if (t->quoted && !t->key)
			reason++;
		else if (t->key && !strcmp(t->key, "irqs") && !strcmp(t->val, "on"))
			irqs = 1;
		else if (t->key && !strcmp(t->key, "lock") && hog_expr_portable(t->val))
			lock = hog_expr_norm(p->r->strs, p->r, t->val);
		else
			return perr(p, "callback-break takes lock=$N..., irqs=on and a reason, not '%s'",
				    t->val);
	}
	if (reason != 1)
		return perr(p, "callback-break needs one \"reason\"");
	if (hog_rules_callback_break(p->r, p->tok[1].val, &i, &dummy))
		return perr(p, "'%s' already has a callback-break", p->tok[1].val);
	push_name(p, &p->r->cb_funcs, p->tok[1].val);
	hog_vec_push(&p->r->cb_irqs, (void *)(intptr_t)irqs);
	hog_vec_push(&p->r->cb_locks, (void *)lock);
	return 0;
}

const char *hog_rules_callback_release(const struct hog_rules *r, const char *name)
{
	int i;

	for (i = 0; name && i < r->rel_funcs.n; i++)
		if (!strcmp(r->rel_funcs.v[i], name))
			return r->rel_locks.v[i];
	return NULL;
}

/* callback-release NAME lock=$N... "reason" */
static int parse_callback_release(struct parse *p)
{
	const char *lock = NULL;
	int i, reason = 0;

	if (p->ntok < 2 || p->tok[1].key || p->tok[1].quoted || !is_ident(p->tok[1].val))
		return perr(p, "callback-release needs a function name");
	for (i = 2; i < p->ntok; i++) {
		const struct tok *t = &p->tok[i];

		if (t->quoted && !t->key)
			reason++;
		else if (t->key && !strcmp(t->key, "lock") && hog_expr_portable(t->val))
			lock = hog_expr_norm(p->r->strs, p->r, t->val);
		else
			return perr(p, "callback-release takes lock=$N... and a reason, not '%s'", t->val);
	}
	if (!lock || reason != 1)
		return perr(p, "callback-release needs lock=$N... and one \"reason\"");
	if (hog_rules_callback_release(p->r, p->tok[1].val))
		return perr(p, "'%s' already has a callback-release", p->tok[1].val);
	push_name(p, &p->r->rel_funcs, p->tok[1].val);
	hog_vec_push(&p->r->rel_locks, (void *)lock);
	return 0;
}

int hog_rules_ref_get(const struct hog_rules *r, const char *name, int *arg, int *is_try)
{
	int i;

	for (i = 0; name && i < r->ref_gets.n; i++)
		if (!strcmp(r->ref_gets.v[i], name)) {
			intptr_t v = (intptr_t)r->ref_info.v[i];

			*arg = v / 2;
			*is_try = v % 2;
			return i;
		}
	return -1;
}

int hog_rules_ref_put_of(const struct hog_rules *r, int i, const char *name)
{
	int k;

	for (k = 0; name && k < r->ref_puts.n; k++)
		if ((intptr_t)r->ref_put_rule.v[k] == i && !strcmp(r->ref_puts.v[k], name))
			return 1;
	return 0;
}

int hog_rules_ref_put(const struct hog_rules *r, const char *name)
{
	int k;

	for (k = 0; name && k < r->ref_puts.n; k++)
		if (!strcmp(r->ref_puts.v[k], name))
			return (intptr_t)r->ref_info.v[(intptr_t)r->ref_put_rule.v[k]] / 2;
	return -1;
}

/* A comma-separated list of identifiers, as put= takes. */
static int ident_list(const char *s)
{
	char b[256];
	char *q, *save = NULL;

	if (!s || !*s || strlen(s) >= sizeof(b) || s[strlen(s) - 1] == ',' || strstr(s, ",,"))
		return 0;
	snprintf(b, sizeof(b), "%s", s);
	for (q = strtok_r(b, ",", &save); q; q = strtok_r(NULL, ",", &save))
		if (!is_ident(q))
			return 0;
	return 1;
}

/* The puts of an ident_list(), each pushed as a put of ref-get rule i. */
static void push_puts(struct parse *p, const char *s, int i)
{
	char b[256];
	char *q, *save = NULL;

	snprintf(b, sizeof(b), "%s", s);
	for (q = strtok_r(b, ",", &save); q; q = strtok_r(NULL, ",", &save)) {
		push_name(p, &p->r->ref_puts, q);
		hog_vec_push(&p->r->ref_put_rule, (void *)(intptr_t)i);
	}
}

/* ref-get NAME put=PUT[,PUT] [arg=N] [try] "reason" */
static int parse_ref_get(struct parse *p)
{
	const char *puts = NULL;
	long long arg = 0;
	int i, try = 0, reason = 0, d1, d2;

	if (p->ntok < 2 || p->tok[1].key || p->tok[1].quoted || !is_ident(p->tok[1].val))
		return perr(p, "ref-get needs a function name");
	for (i = 2; i < p->ntok; i++) {
		const struct tok *t = &p->tok[i];

		if (t->quoted && !t->key)
			reason++;
		else if (t->key && !strcmp(t->key, "put") && ident_list(t->val))
			puts = t->val;
		else if (t->key && !strcmp(t->key, "arg")) {
			if (parse_int(p, t->key, t->val, 0, 15, &arg))
				return -1;
		} else if (!t->key && !t->quoted && !strcmp(t->val, "try"))
			try = 1;
		else
			return perr(p, "ref-get takes put=NAME[,NAME], arg=N, try and a reason, not '%s'",
				    t->val);
	}
	if (!puts || reason != 1)
		return perr(p, "ref-get needs put=NAME[,NAME] and one \"reason\"");
	if (hog_rules_ref_get(p->r, p->tok[1].val, &d1, &d2) >= 0)
		return perr(p, "'%s' already has a ref-get", p->tok[1].val);
	push_puts(p, puts, p->r->ref_gets.n);
	push_name(p, &p->r->ref_gets, p->tok[1].val);
	hog_vec_push(&p->r->ref_info, (void *)(intptr_t)(arg * 2 + try));
	return 0;
}

const struct hog_ctx_rule *hog_rules_ctx_call(const struct hog_rules *r, const char *name)
{
	int i;

	for (i = 0; name && i < r->ctx_rules.n; i++) {
		const struct hog_ctx_rule *c = r->ctx_rules.v[i];

		if (c->call && !strcmp(c->call, name))
			return c;
	}
	return NULL;
}

const struct hog_ctx_rule *hog_rules_ctx_field(const struct hog_rules *r, const char *cls)
{
	int i;

	for (i = 0; cls && i < r->ctx_rules.n; i++) {
		const struct hog_ctx_rule *c = r->ctx_rules.v[i];

		if (c->field && !strcmp(c->field, cls))
			return c;
	}
	return NULL;
}

int hog_rules_callback_field(const struct hog_rules *r, const char *cls)
{
	return hog_rules_ctx_field(r, cls) || hog_rules_is_rare(r, cls) ||
	       (cls && strchr(cls, '.') && hog_rules_not_root(r, cls, NULL) >= 0);
}

const struct hog_ctx_mode *hog_rules_ctx_mode(const struct hog_rules *r, const char *name)
{
	int i;

	for (i = 0; name && i < r->ctx_modes.n; i++) {
		const struct hog_ctx_mode *c = r->ctx_modes.v[i];

		if (!strcmp(c->call, name))
			return c;
	}
	return NULL;
}

/* A context's word in the rules and in findings, by enum hog_ctx_kind */
static const char *const ctx_names[] = { "softirq", "hardirq", "irqs-off" };
static const char *const ctx_words[] = { "softirq", "hard IRQ", "IRQs off" };

const char *hog_ctx_kind_name(enum hog_ctx_kind k)
{
	return ctx_names[k];
}

/*
 * "context" lines begin with hardirq, softirq or irqs-off, "context-mode"
 * lines with one of the first two (an hrtimer's mode picks one)
 */
static int ctx_kind(struct parse *p, const char *dir, int allow_irqs_off,
		    enum hog_ctx_kind *kind)
{
	int k, last = allow_irqs_off ? HOG_IN_IRQS_OFF : HOG_IN_HARDIRQ;

	if (p->ntok >= 2 && !p->tok[1].key && !p->tok[1].quoted)
		for (k = 0; k <= last; k++)
			if (!strcmp(p->tok[1].val, ctx_names[k])) {
				*kind = k;
				return 0;
			}
	return perr(p, allow_irqs_off ? "%s needs hardirq, softirq or irqs-off first" :
		    "%s needs hardirq or softirq first", dir);
}

/* as findings name it: "hrtimer callback (softirq)" */
static const char *ctx_label(struct parse *p, const char *what, enum hog_ctx_kind kind)
{
	char *l = hog_xasprintf("%s (%s)", what, ctx_words[kind]);
	const char *r = hog_intern(p->r->strs, l);

	free(l);
	return r;
}

static int ctx_mode_key(struct parse *p, struct hog_ctx_mode *c, const struct tok *t)
{
	long long v;

	if (!strcmp(t->key, "call") && is_ident(t->val) && !c->call) {
		c->call = hog_intern(p->r->strs, t->val);
		return 0;
	}
	if (!strcmp(t->key, "mask"))
		return parse_int(p, "mask", t->val, 1, LLONG_MAX, &c->mask);
	if (strcmp(t->key, "obj") && strcmp(t->key, "mode"))
		return perr(p, "context-mode takes call=, obj=, mode= and mask=, not '%s='", t->key);
	if (parse_int(p, t->key, t->val, 0, 15, &v))
		return -1;
	*(t->key[0] == 'o' ? &c->obj : &c->mode) = (int)v;
	return 0;
}

/* context-mode hardirq|softirq call=NAME obj=N mode=N mask=BITS "what it registers" */
static int parse_ctx_mode(struct parse *p)
{
	struct hog_ctx_mode *c = hog_alloc(&p->r->arena, sizeof(*c));
	const char *what = NULL;
	int i;

	memset(c, 0, sizeof(*c));
	c->obj = c->mode = -1;
	c->ctx.arg = -1;
	if (ctx_kind(p, "context-mode", 0, &c->ctx.kind))
		return -1;
	for (i = 2; i < p->ntok; i++) {
		const struct tok *t = &p->tok[i];

		if (t->quoted && !t->key && !what)
			what = t->val;
		else if (!t->key)
			return perr(p, "context-mode: unexpected '%s'", t->val);
		else if (ctx_mode_key(p, c, t))
			return -1;
	}
	if (!c->call || c->obj < 0 || c->mode < 0 || !c->mask || !what || !*what)
		return perr(p, "context-mode needs call=NAME obj=N mode=N mask=BITS and one \"what it registers\"");
	if (hog_rules_ctx_mode(p->r, c->call))
		return perr(p, "'%s' already has a context-mode", c->call);
	c->ctx.label = ctx_label(p, what, c->ctx.kind);
	hog_vec_push(&p->r->ctx_modes, c);
	return 0;
}

/* context-field TAG.FIELD: a struct tag, a dot, a field name */
static int is_tag_field(const char *s)
{
	const char *dot = strchr(s, '.');
	char tag[256];

	if (!dot || dot == s || (size_t)(dot - s) >= sizeof(tag))
		return 0;
	memcpy(tag, s, dot - s);
	tag[dot - s] = 0;
	return is_ident(tag) && is_ident(dot + 1);
}

static int ctx_key(struct parse *p, struct hog_ctx_rule *c, const struct tok *t)
{
	long long v;

	if (!strcmp(t->key, "call") && is_ident(t->val) && !c->call) {
		c->call = hog_intern(p->r->strs, t->val);
		return 0;
	}
	if (!strcmp(t->key, "field") && is_tag_field(t->val) && !c->field) {
		c->field = hog_intern(p->r->strs, t->val);
		return 0;
	}
	if (!strcmp(t->key, "arg") && !parse_int(p, "arg", t->val, 0, 15, &v)) {
		c->arg = (int)v;
		return 0;
	}
	return perr(p, "context takes call=NAME arg=N or field=TAG.FIELD, not '%s=%s'",
		    t->key, t->val);
}

/* context hardirq|softirq|irqs-off call=NAME arg=N [per-call]|field=TAG.FIELD "what it registers" */
static int parse_context(struct parse *p)
{
	struct hog_ctx_rule *c = hog_alloc(&p->r->arena, sizeof(*c));
	const char *what = NULL;
	int i;

	memset(c, 0, sizeof(*c));
	c->arg = -1;
	if (ctx_kind(p, "context", 1, &c->kind))
		return -1;
	for (i = 2; i < p->ntok; i++) {
		const struct tok *t = &p->tok[i];

		if (t->quoted && !t->key && !what)
			what = t->val;
		else if (!t->quoted && !t->key && !strcmp(t->val, "per-call") && !c->per_call)
			c->per_call = 1;
		else if (!t->key || ctx_key(p, c, t))
			return t->key ? -1 : perr(p, "context: unexpected '%s'", t->val);
	}
	if (!what || !*what)
		return perr(p, "context needs one \"what it registers\"");
	if (!!c->call == !!c->field || (c->call && c->arg < 0) || (c->field && c->arg >= 0))
		return perr(p, "context needs either call=NAME arg=N or field=TAG.FIELD");
	if (c->per_call && !c->call)
		return perr(p, "context: per-call needs call=NAME arg=N");
	if ((c->call && hog_rules_ctx_call(p->r, c->call)) ||
	    (c->field && hog_rules_ctx_field(p->r, c->field)))
		return perr(p, "'%s' already has a context", c->call ? c->call : c->field);
	c->label = ctx_label(p, what, c->kind);
	hog_vec_push(&p->r->ctx_rules, c);
	return 0;
}

int hog_rules_ctx_test(const struct hog_rules *r, const char *name)
{
	int i;

	for (i = 0; name && i < r->ctx_tests.n; i++)
		if (!strcmp(((const struct hog_ctx_test *)r->ctx_tests.v[i])->name, name))
			return i;
	return -1;
}

const struct hog_ctx_test *hog_rules_ctx_test_at(const struct hog_rules *r, int i)
{
	return i >= 0 && i < r->ctx_tests.n ? r->ctx_tests.v[i] : NULL;
}

static int ctx_test_key(struct parse *p, struct hog_ctx_test *c, const struct tok *t)
{
	long long *bits = !strcmp(t->key, "softirq") ? &c->softirq :
			  !strcmp(t->key, "hardirq") ? &c->hardirq :
			  !strcmp(t->key, "atomic") ? &c->atomic : NULL;

	if (!bits)
		return perr(p, "context-test takes softirq=, hardirq=, atomic=, irqs-off or "
			    "source, not '%s'", t->key);
	return parse_int(p, t->key, t->val, 1, LLONG_MAX, bits);
}

/* context-test NAME [softirq=BITS] [hardirq=BITS] [atomic=BITS] [irqs-off] [source] */
static int parse_ctx_test(struct parse *p)
{
	struct hog_ctx_test *c = hog_alloc(&p->r->arena, sizeof(*c));
	int i;

	memset(c, 0, sizeof(*c));
	if (p->ntok < 3 || p->tok[1].key || p->tok[1].quoted || !is_ident(p->tok[1].val))
		return perr(p, "context-test needs a function name and what it tells");
	if (hog_rules_ctx_test(p->r, p->tok[1].val) >= 0)
		return perr(p, "'%s' already has a context-test", p->tok[1].val);
	c->name = hog_intern(p->r->strs, p->tok[1].val);
	for (i = 2; i < p->ntok; i++) {
		const struct tok *t = &p->tok[i];

		if (t->key) {
			if (ctx_test_key(p, c, t))
				return -1;
		} else if (!t->quoted && !strcmp(t->val, "irqs-off")) {
			c->irqs_off = 1;
		} else if (!t->quoted && !strcmp(t->val, "source")) {
			c->source = 1;
		} else {
			return perr(p, "context-test: unexpected '%s'", t->val);
		}
	}
	if (c->source + c->irqs_off + !!(c->softirq | c->hardirq | c->atomic) != 1)
		return perr(p, "context-test needs one of: bits (softirq=, hardirq=, atomic=), "
			    "irqs-off, source");
	hog_vec_push(&p->r->ctx_tests, c);
	return 0;
}

static int find_key(const struct hog_rules *r, const char *name, int field)
{
	int i;

	for (i = 0; name && i < r->static_keys.n; i++) {
		const struct hog_static_key *k = r->static_keys.v[i];

		if (k->field == field && !strcmp(k->name, name))
			return i;
	}
	return -1;
}

int hog_rules_static_key(const struct hog_rules *r, const char *name)
{
	return find_key(r, name, 0);
}

int hog_rules_unset_field(const struct hog_rules *r, const char *name)
{
	return find_key(r, name, 1);
}

int hog_rules_not_root_key(const struct hog_rules *r, const char *name)
{
	return find_key(r, name, 2);
}

const struct hog_static_key *hog_rules_static_key_at(const struct hog_rules *r, int i)
{
	return i >= 0 && i < r->static_keys.n ? r->static_keys.v[i] : NULL;
}

int hog_rules_is_static_branch(const struct hog_rules *r, const char *name)
{
	return in_list(&r->branch_funcs, name);
}

/* The note's format: the reason is text, so its '%' are doubled. */
static const char *key_note(struct parse *p, const char *why, const char *head,
			    const char *directive)
{
	struct hog_buf b = { 0 };
	const char *s;
	char *t;

	for (s = why; *s; s++)
		hog_buf_addn(&b, *s == '%' ? "%%" : s, *s == '%' ? 2 : 1);
	t = hog_xasprintf("%s: %s (rules: %s)", head, b.s, directive);
	s = hog_intern(p->r->strs, t);
	free(t);
	free(b.s);
	return s;
}

/* static-key NAME on|off "why it is so" */
static int parse_static_key(struct parse *p)
{
	struct hog_static_key *k = hog_alloc(&p->r->arena, sizeof(*k));
	const struct tok *t = p->tok;

	if (p->ntok != 4 || t[1].key || t[1].quoted || !is_ident(t[1].val) || t[2].key ||
	    t[2].quoted || (strcmp(t[2].val, "on") && strcmp(t[2].val, "off")) || !t[3].quoted)
		return perr(p, "static-key needs a key's name, on or off, and a quoted reason");
	if (hog_rules_static_key(p->r, t[1].val) >= 0)
		return perr(p, "'%s' already has a static-key", t[1].val);
	memset(k, 0, sizeof(*k));
	k->name = hog_intern(p->r->strs, t[1].val);
	k->on = !strcmp(t[2].val, "on");
	k->note = key_note(p, t[3].val, k->on ? "it runs only when the static key %s is off" :
						"it runs only when the static key %s is on", "static-key");
	hog_vec_push(&p->r->static_keys, k);
	return 0;
}

/* ref-release STRUCT.FIELD "what its release does" */
static int parse_ref_release(struct parse *p)
{
	const struct tok *t = p->tok;
	const char *dot = p->ntok > 1 ? strchr(t[1].val, '.') : NULL;
	char *head;
	int ok;

	if (p->ntok != 3 || t[1].key || t[1].quoted || !dot || !t[2].quoted)
		return perr(p, "ref-release needs STRUCT.FIELD and a quoted reason");
	head = hog_xstrdup(t[1].val);
	head[dot - t[1].val] = 0;
	ok = is_ident(head) && is_ident(dot + 1);
	free(head);
	if (!ok)
		return perr(p, "ref-release takes STRUCT.FIELD, not '%s'", t[1].val);
	if (hog_rules_ref_release(p->r, t[1].val))
		return perr(p, "'%s' already has a ref-release", t[1].val);
	hog_vec_push(&p->r->rel_fields, (void *)hog_intern(p->r->strs, t[1].val));
	hog_vec_push(&p->r->rel_reasons, (void *)hog_intern(p->r->strs, t[2].val));
	return 0;
}

const char *hog_rules_ref_release(const struct hog_rules *r, const char *field)
{
	int i;

	for (i = 0; field && i < r->rel_fields.n; i++)
		if (!strcmp(r->rel_fields.v[i], field))
			return r->rel_reasons.v[i];
	return NULL;
}

int hog_rules_release_reason(const struct hog_rules *r, const char *reason)
{
	return reason && in_list(&r->rel_reasons, reason);
}

/* unset-field STRUCT.FIELD "why it is NULL" */
static int parse_unset_field(struct parse *p)
{
	struct hog_static_key *k = hog_alloc(&p->r->arena, sizeof(*k));
	const struct tok *t = p->tok;
	const char *dot = p->ntok > 1 ? strchr(t[1].val, '.') : NULL;

	if (p->ntok != 3 || t[1].key || t[1].quoted || !dot || dot == t[1].val ||
	    !is_ident(dot + 1) || strchr(dot + 1, '.') || !t[2].quoted)
		return perr(p, "unset-field needs STRUCT.FIELD and a quoted reason");
	if (hog_rules_unset_field(p->r, t[1].val) >= 0)
		return perr(p, "'%s' already has an unset-field", t[1].val);
	memset(k, 0, sizeof(*k));
	k->name = hog_intern(p->r->strs, t[1].val);
	k->field = 1;
	k->note = key_note(p, t[2].val, "it runs only when %s is set", "unset-field");
	hog_vec_push(&p->r->static_keys, k);
	return 0;
}

int hog_rules_is_boot(const struct hog_rules *r, const char *name)
{
	return in_list(&r->boot_funcs, name);
}

int hog_rules_is_quiesced(const struct hog_rules *r, const char *name)
{
	return in_list(&r->quiesced_funcs, name);
}

int hog_rules_is_diagnostic(const struct hog_rules *r, const char *name)
{
	return in_list(&r->diag_funcs, name);
}

int hog_rules_is_anyctx(const struct hog_rules *r, const char *name)
{
	return in_list(&r->anyctx_funcs, name);
}

const struct hog_rare_call *hog_rules_rare_call(const struct hog_rules *r, const char *callee, int k)
{
	int i;

	for (i = 0; callee && i < r->rare_calls.n; i++) {
		const struct hog_rare_call *c = r->rare_calls.v[i];

		if (!strcmp(c->call, callee) && k-- == 0)
			return c;
	}
	return NULL;
}

int hog_rules_is_rare(const struct hog_rules *r, const char *name)
{
	return in_list(&r->rare_funcs, name);
}

int hog_rules_is_last_put(const struct hog_rules *r, const char *name)
{
	return in_list(&r->lastput_funcs, name);
}

int hog_rules_is_current(const struct hog_rules *r, const char *name)
{
	return in_list(&r->current_funcs, name);
}

int hog_rules_release_by_name(const struct hog_rules *r, const char *name)
{
	int i;

	for (i = 0; name && i < r->release_words.n; i++)
		if (strstr(name, r->release_words.v[i]))
			return 1;
	return 0;
}

/* Which keys each directive accepts. */
static int key_allowed(enum hog_rule_kind k, const char *key)
{
	static const char *const allowed[HR_NKINDS] = {
		[HR_LOCK] = " op arg kind irq cond flags bit bh ",
		[HR_IRQ] = " op flags ",
		[HR_PREEMPT] = " op when ",
		[HR_COST] = " class when release preempt unless ",
		[HR_LOCKBREAK] = " op arg ",
		[HR_PASSTHROUGH] = " arg ",
		[HR_ATOMIC] = " arg ",
		[HR_CHEAP] = " ",
		[HR_PAGEFAULT] = " op ",
	};
	char pat[64];

	snprintf(pat, sizeof(pat), " %s ", key);
	return allowed[k] && strstr(allowed[k], pat) != NULL;
}

static int parse_op(struct parse *p, enum hog_rule_kind kind, const char *val, int *op)
{
	int v;

	if (kind == HR_LOCK)
		v = lookup(p, val, lock_ops, N(lock_ops), "lock op");
	else if (kind == HR_IRQ)
		v = lookup(p, val, irq_ops, N(irq_ops), "irq op");
	else if (kind == HR_LOCKBREAK)
		v = lookup(p, val, break_ops, N(break_ops), "lockbreak op");
	else if (!strcmp(val, "disable"))
		v = 1;
	else if (!strcmp(val, "enable"))
		v = -1;
	else
		return perr(p, "unknown %s op '%s'", kind_names[kind], val);
	if (v < 0 && kind != HR_PREEMPT && kind != HR_PAGEFAULT)
		return -1;
	*op = v;
	return 0;
}

/* One key=value of a rule (key_allowed() said the directive takes it). */
static int parse_key(struct parse *p, enum hog_rule_kind kind, struct hog_rule *x,
		     const struct tok *t)
{
	int v;

	if (!strcmp(t->key, "op"))
		return parse_op(p, kind, t->val, &x->op);
	if (!strcmp(t->key, "arg"))
		return parse_arg(p, t->key, t->val, 0, &x->arg);
	if (!strcmp(t->key, "flags"))
		return parse_arg(p, t->key, t->val, 1, &x->flags);
	if (!strcmp(t->key, "bit"))
		return parse_arg(p, t->key, t->val, 0, &x->bit_arg);
	if (!strcmp(t->key, "kind")) {
		if (lookup(p, t->val, lock_kinds, N(lock_kinds), "lock kind") < 0)
			return -1;
		x->lock_kind = hog_intern(p->r->strs, t->val);
		x->sleeping = hog_lock_kind_sleeps(t->val);
	} else if (!strcmp(t->key, "irq")) {
		if ((v = lookup(p, t->val, irq_ops, N(irq_ops), "irq form")) < 0)
			return -1;
		x->irq = (enum hog_irq_op)v;
	} else if (!strcmp(t->key, "cond")) {
		if ((v = lookup(p, t->val, try_conds, N(try_conds), "trylock condition")) < 0)
			return -1;
		x->cond = (enum hog_try_cond)v;
	} else if (!strcmp(t->key, "class")) {
		if (!is_ident(t->val) && !strchr(t->val, '-'))
			return perr(p, "bad class '%s'", t->val);
		x->cls = hog_intern(p->r->strs, t->val);
	} else if (!strcmp(t->key, "when")) {
		return parse_when(p, t->val, &x->when);
	} else if (!strcmp(t->key, "release")) {
		if (strcmp(t->val, "defer"))
			return perr(p, "bad release '%s' (release=defer)", t->val);
		x->release_defers = 1;
	} else if (!strcmp(t->key, "bh")) {
		if (strcmp(t->val, "disable"))
			return perr(p, "bad bh '%s' (bh=disable)", t->val);
		x->bh_off = 1;
	} else if (!strcmp(t->key, "unless")) {
		if (strcmp(t->val, "in-interrupt"))
			return perr(p, "bad unless '%s' (unless=in-interrupt)", t->val);
		x->unless_intr = 1;
	} else if (!strcmp(t->key, "preempt")) {
		char *end;
		long n = strtol(t->val, &end, 0);

		if (*end || n < 1 || n > MAX_PREEMPT_HELD)
			return perr(p, "bad preempt '%s' (1..%d)", t->val, MAX_PREEMPT_HELD);
		x->preempt_held = (int)n;
	}
	return 0;
}

/* What each directive requires once its keys are read; defaults that depend on them. */
static int rule_complete(struct parse *p, enum hog_rule_kind kind, struct hog_rule *x,
			 int have_op, int have_arg)
{
	switch (kind) {
	case HR_LOCK:
		if (!have_op)
			return perr(p, "lock needs op=acquire|release|trylock");
		if (!have_arg)
			return perr(p, "lock needs arg=N naming the lock argument");
		if (!x->lock_kind)
			return perr(p, "lock needs kind=spin|raw_spin|read|write|local|bit|mutex|rwsem_read|rwsem_write|rcu");
		if (x->irq == HIRQ_SAVE && x->flags == -1)
			x->flags = -2;
		if (x->irq == HIRQ_RESTORE && x->flags < 0)
			return perr(p, "irq=restore needs flags=argN");
		break;
	case HR_IRQ:
		if (!have_op || x->op == HIRQ_NONE)
			return perr(p, "irq needs op=save|restore|disable|enable");
		if (x->op == HIRQ_SAVE && x->flags == -1)
			x->flags = -2;
		if (x->op == HIRQ_RESTORE && x->flags < 0)
			return perr(p, "irq op=restore needs flags=argN");
		break;
	case HR_COST:
		if (!x->cls)
			return perr(p, "cost needs class=CLASS");
		if (!x->reason)
			return perr(p, "cost needs a \"reason\"");
		break;
	case HR_LOCKBREAK:
		if (!have_op)
			x->op = HBRK_BREAK;
		if (x->op == HBRK_BREAK && !have_arg)
			return perr(p, "lockbreak op=break needs arg=N");
		break;
	case HR_PASSTHROUGH:
	case HR_ATOMIC:
		if (!have_arg)
			return perr(p, "%s needs arg=N", kind_names[kind]);
		break;
	default:
		break;
	}
	return 0;
}

static struct hog_rule *rule_new(struct parse *p, enum hog_rule_kind kind, const char *name)
{
	struct hog_rules *r = p->r;
	struct hog_rule *x = hog_alloc(&r->arena, sizeof(*x));

	x->kind = kind;
	x->name = hog_intern(r->strs, name);
	x->file = hog_intern(r->strs, p->path);
	x->line = p->line;
	x->arg = -1;
	x->flags = -1;
	x->bit_arg = -1;
	x->when.arg = -1;
	x->op = kind == HR_PREEMPT || kind == HR_PAGEFAULT ? 1 : 0;
	return x;
}

static int parse_rule(struct parse *p, enum hog_rule_kind kind)
{
	struct hog_rule *x;
	int i, have_op = 0, have_arg = 0;

	if (p->ntok < 2 || p->tok[1].key || p->tok[1].quoted)
		return perr(p, "%s needs a function name", kind_names[kind]);
	if (!is_ident(p->tok[1].val))
		return perr(p, "'%s' is not a C identifier", p->tok[1].val);
	x = rule_new(p, kind, p->tok[1].val);
	for (i = 2; i < p->ntok; i++) {
		const struct tok *t = &p->tok[i];

		if (!t->key) {
			if (!t->quoted)
				return perr(p, "unexpected word '%s' (want key=value)", t->val);
			if (x->reason)
				return perr(p, "two reasons given");
			x->reason = hog_intern(p->r->strs, t->val);
			continue;
		}
		if (is_kversion_key(t->key)) {
			if (kversion_key(p, t, &x->since, &x->until))
				return -1;
			continue;
		}
		if (!key_allowed(kind, t->key))
			return perr(p, "%s does not take '%s'", kind_names[kind], t->key);
		have_op |= !strcmp(t->key, "op");
		have_arg |= !strcmp(t->key, "arg");
		if (parse_key(p, kind, x, t))
			return -1;
	}
	if (rule_complete(p, kind, x, have_op, have_arg) ||
	    kversion_order(p, x->since, x->until))
		return -1;
	return add_rule(p, x);
}

static void push_name(struct parse *p, struct hog_vec *v, const char *name)
{
	hog_vec_push(v, (void *)hog_intern(p->r->strs, name));
}

/* The fields after the directive (and its first word, from i on) are bare words. */
static int bare_words(struct parse *p, int i, const char *d)
{
	for (; i < p->ntok; i++)
		if (p->tok[i].key || p->tok[i].quoted)
			return perr(p, "%s takes bare words, not '%s%s%s'", d,
				    p->tok[i].key ? p->tok[i].key : "",
				    p->tok[i].key ? "=" : "", p->tok[i].val);
	return 0;
}

/* lock-type struct TAG... | lock-type typedef NAME... */
static int parse_lock_type(struct parse *p)
{
	struct hog_frontend_rules *fe = &p->r->fe;
	const char *ns = p->ntok > 1 ? p->tok[1].val : "";
	int i, td = !strcmp(ns, "typedef");

	if (bare_words(p, 1, "lock-type"))
		return -1;
	if (!td && strcmp(ns, "struct"))
		return perr(p, "lock-type needs 'struct' or 'typedef', then type names");
	if (p->ntok < 3)
		return perr(p, "lock-type %s needs type names", ns);
	for (i = 2; i < p->ntok; i++) {
		if (!is_ident(p->tok[i].val))
			return perr(p, "'%s' is not a C identifier", p->tok[i].val);
		push_name(p, td ? &fe->lock_typedefs : &fe->lock_tags, p->tok[i].val);
	}
	return 0;
}

/* lock-kind KIND TYPE...: the kind of a lock an annotation names by its type */
static int parse_lock_kind(struct parse *p)
{
	struct hog_frontend_rules *fe = &p->r->fe;
	int i;

	if (bare_words(p, 1, "lock-kind"))
		return -1;
	if (p->ntok < 3)
		return perr(p, "lock-kind needs a kind, then lock-type names");
	if (lookup(p, p->tok[1].val, lock_kinds, N(lock_kinds), "lock kind") < 0)
		return -1;
	for (i = 2; i < p->ntok; i++) {
		if (!is_ident(p->tok[i].val))
			return perr(p, "'%s' is not a C identifier", p->tok[i].val);
		push_name(p, &fe->kind_types, p->tok[i].val);
		push_name(p, &fe->kind_kinds, p->tok[1].val);
	}
	return 0;
}

/* parent-field STRUCT.FIELD... */
static int parse_parent_field(struct parse *p)
{
	int i;

	if (bare_words(p, 1, "parent-field"))
		return -1;
	if (p->ntok < 2)
		return perr(p, "parent-field needs STRUCT.FIELD names");
	for (i = 1; i < p->ntok; i++) {
		char buf[256], *dot;

		snprintf(buf, sizeof(buf), "%s", p->tok[i].val);
		dot = strchr(buf, '.');
		if (dot)
			*dot++ = 0;
		if (!dot || !is_ident(buf) || !is_ident(dot))
			return perr(p, "parent-field takes STRUCT.FIELD, not '%s'", p->tok[i].val);
		push_name(p, &p->r->fe.parent_fields, p->tok[i].val);
	}
	return 0;
}

/* NAME or STRUCT.FIELD, both C identifiers */
static int is_target(const char *s)
{
	char buf[256], *dot;

	snprintf(buf, sizeof(buf), "%s", s);
	dot = strchr(buf, '.');
	if (dot)
		*dot++ = 0;
	return is_ident(buf) && (!dot || is_ident(dot));
}

/*
 * A bound's target: is_target()'s, TYPE[] (a walk along one table of
 * TYPE entries) or FUNC(PARAM) (what every call passes as that parameter)
 */
static int is_bound_target(const char *s)
{
	char buf[256], *open;
	size_t n = strlen(s);

	if (n > 3 && n < sizeof(buf) && s[n - 1] == ')' && (open = strchr(strcpy(buf, s), '('))) {
		buf[n - 1] = 0;
		*open = 0;
		return is_ident(buf) && is_ident(open + 1);
	}
	if (n <= 2 || n >= sizeof(buf) || strcmp(s + n - 2, "[]"))
		return is_target(s);
	memcpy(buf, s, n - 2);
	buf[n - 2] = 0;
	return is_ident(buf);
}

/*
 * bound NAME|STRUCT.FIELD|TYPE[]|FUNC(PARAM) max=N [since=V] [until=V] "reason"
 * bound STRUCT.FIELD [max=N] min=N ... "reason"
 */
static int parse_bound(struct parse *p)
{
	long long v = -1, lo = LLONG_MIN;
	int i, reason = 0;
	unsigned since = 0, until = 0;

	if (p->ntok < 2 || p->tok[1].key || p->tok[1].quoted || !is_bound_target(p->tok[1].val))
		return perr(p, "bound needs a function name, STRUCT.FIELD, TYPE[] or FUNC(PARAM)");
	for (i = 2; i < p->ntok; i++) {
		const struct tok *t = &p->tok[i];

		if (t->quoted && !t->key)
			reason++;
		else if (t->key && !strcmp(t->key, "max")) {
			if (parse_int(p, t->key, t->val, 0, MAX_LOOP_CAP, &v))
				return -1;
		} else if (t->key && !strcmp(t->key, "min")) {
			if (parse_int(p, t->key, t->val, -MAX_LOOP_CAP, MAX_LOOP_CAP, &lo))
				return -1;
		} else if (t->key && is_kversion_key(t->key)) {
			if (kversion_key(p, t, &since, &until))
				return -1;
		} else {
			return perr(p, "bound takes max=N, min=N and a reason, not '%s'", t->val);
		}
	}
	if ((v < 0 && lo == LLONG_MIN) || reason != 1)
		return perr(p, "bound needs max=N or min=N and one \"reason\"");
	/* a floor is a field's: the value tests and negations read (docs/ir.md, "load") */
	if (lo != LLONG_MIN && (!strchr(p->tok[1].val, '.') || strchr(p->tok[1].val, '(')))
		return perr(p, "bound's min=N is for a STRUCT.FIELD only");
	if (v >= 0 && lo > v)
		return perr(p, "bound's min=%lld is above its max=%lld", lo, v);
	if (kversion_order(p, since, until))
		return -1;
	if (p->r->kversion && !in_range(p->r->kversion, since, until))
		return 0;
	push_name(p, &p->r->fe.bound_names, p->tok[1].val);
	hog_vec_push(&p->r->fe.bound_max, (void *)(intptr_t)v);
	hog_vec_push(&p->r->fe.bound_min, (void *)(lo == LLONG_MIN ? INTPTR_MIN : (intptr_t)lo));
	return 0;
}

/* iterator NAME arg=N step=0|1 [since=V] [until=V] "reason" */
static int parse_iterator(struct parse *p)
{
	long long arg = -1, step = -1;
	int i, reason = 0;
	unsigned since = 0, until = 0;

	if (p->ntok < 2 || p->tok[1].key || p->tok[1].quoted || !is_ident(p->tok[1].val))
		return perr(p, "iterator needs a function name");
	for (i = 2; i < p->ntok; i++) {
		const struct tok *t = &p->tok[i];

		if (t->quoted && !t->key)
			reason++;
		else if (t->key && !strcmp(t->key, "arg")) {
			if (parse_int(p, t->key, t->val, 0, 15, &arg))
				return -1;
		} else if (t->key && !strcmp(t->key, "step")) {
			if (parse_int(p, t->key, t->val, 0, 1, &step))
				return -1;
		} else if (t->key && is_kversion_key(t->key)) {
			if (kversion_key(p, t, &since, &until))
				return -1;
		} else {
			return perr(p, "iterator takes arg=N, step=0|1 and a reason, not '%s'", t->val);
		}
	}
	if (arg < 0 || step < 0 || reason != 1)
		return perr(p, "iterator needs arg=N, step=0|1 and one \"reason\"");
	if (kversion_order(p, since, until))
		return -1;
	if (p->r->kversion && !in_range(p->r->kversion, since, until))
		return 0;
	push_name(p, &p->r->fe.iter_names, p->tok[1].val);
	hog_vec_push(&p->r->fe.iter_arg, (void *)(intptr_t)(arg * 2 + step));
	return 0;
}

/* scales NAME|STRUCT.FIELD... */
static int parse_scales(struct parse *p)
{
	int i;

	if (bare_words(p, 1, "scales"))
		return -1;
	if (p->ntok < 2)
		return perr(p, "scales needs names or STRUCT.FIELD");
	for (i = 1; i < p->ntok; i++) {
		if (!is_target(p->tok[i].val))
			return perr(p, "scales takes NAME or STRUCT.FIELD, not '%s'", p->tok[i].val);
		push_name(p, &p->r->fe.scales, p->tok[i].val);
	}
	return 0;
}

/* parent-call NAME... */
static int parse_parent_call(struct parse *p)
{
	int i;

	if (bare_words(p, 1, "parent-call"))
		return -1;
	if (p->ntok < 2)
		return perr(p, "parent-call needs function names");
	for (i = 1; i < p->ntok; i++) {
		if (!is_ident(p->tok[i].val))
			return perr(p, "'%s' is not a C identifier", p->tok[i].val);
		push_name(p, &p->r->fe.parent_calls, p->tok[i].val);
	}
	return 0;
}

/* percpu-asm ARCH PREFIX... */
static int parse_percpu_asm(struct parse *p)
{
	struct hog_frontend_rules *fe = &p->r->fe;
	int i;

	if (p->ntok < 3)
		return perr(p, "percpu-asm needs an architecture and asm prefixes");
	if (p->tok[1].key || p->tok[1].quoted || !is_ident(p->tok[1].val))
		return perr(p, "percpu-asm needs an architecture name, not '%s'", p->tok[1].val);
	for (i = 2; i < p->ntok; i++) {
		if (p->tok[i].key)
			return perr(p, "percpu-asm takes asm prefixes, not '%s=%s'",
				    p->tok[i].key, p->tok[i].val);
		if (!p->tok[i].val[0])
			return perr(p, "empty asm prefix");
		push_name(p, &fe->percpu_arch, p->tok[1].val);
		push_name(p, &fe->percpu_prefix, p->tok[i].val);
	}
	return 0;
}

static const struct {
	const char *name;
	int (*parse)(struct parse *p);
} frontend_directives[] = {
	{ "lock-type", parse_lock_type },
	{ "lock-kind", parse_lock_kind },
	{ "parent-field", parse_parent_field },
	{ "parent-call", parse_parent_call },
	{ "percpu-asm", parse_percpu_asm },
	{ "bound", parse_bound },
	{ "scales", parse_scales },
	{ "iterator", parse_iterator },
};

static int parse_line(struct parse *p, char *s)
{
	const char *d;
	int k;

	if (tokenize(p, s))
		return -1;
	if (!p->ntok)
		return 0;
	if (p->tok[0].key || p->tok[0].quoted)
		return perr(p, "line must start with a directive");
	d = p->tok[0].val;
	if (!strcmp(d, "loop"))
		return parse_loop(p);
	if (!strcmp(d, "rank"))
		return parse_rank(p);
	if (!strcmp(d, "release-by-name"))
		return parse_words(p, &p->r->release_words, d);
	if (!strcmp(d, "boot-phase"))
		return parse_words(p, &p->r->boot_funcs, d);
	if (!strcmp(d, "checks-off"))
		return parse_words(p, &p->r->quiesced_funcs, d);
	if (!strcmp(d, "diagnostic"))
		return parse_words(p, &p->r->diag_funcs, d);
	if (!strcmp(d, "any-context"))
		return parse_words(p, &p->r->anyctx_funcs, d);
	if (!strcmp(d, "current-task"))
		return parse_words(p, &p->r->current_funcs, d);
	if (!strcmp(d, "rare"))
		return parse_rare(p);
	if (!strcmp(d, "not-root"))
		return parse_not_root(p);
	if (!strcmp(d, "last-put"))
		return parse_words(p, &p->r->lastput_funcs, d);
	if (!strcmp(d, "callback-break"))
		return parse_callback_break(p);
	if (!strcmp(d, "callback-release"))
		return parse_callback_release(p);
	if (!strcmp(d, "ref-get"))
		return parse_ref_get(p);
	if (!strcmp(d, "context"))
		return parse_context(p);
	if (!strcmp(d, "context-test"))
		return parse_ctx_test(p);
	if (!strcmp(d, "context-mode"))
		return parse_ctx_mode(p);
	if (!strcmp(d, "static-key"))
		return parse_static_key(p);
	if (!strcmp(d, "unset-field"))
		return parse_unset_field(p);
	if (!strcmp(d, "ref-release"))
		return parse_ref_release(p);
	if (!strcmp(d, "static-branch"))
		return parse_words(p, &p->r->branch_funcs, d);
	if (!strcmp(d, "strip")) {
		int i;

		if (p->ntok < 2)
			return perr(p, "strip needs field names");
		for (i = 1; i < p->ntok; i++) {
			if (p->tok[i].key || !is_ident(p->tok[i].val))
				return perr(p, "strip takes field names, not '%s'", p->tok[i].val);
			hog_vec_push(&p->r->strip,
				     (void *)hog_intern(p->r->strs, p->tok[i].val));
		}
		return 0;
	}
	for (k = 0; k < N(frontend_directives); k++)
		if (!strcmp(d, frontend_directives[k].name))
			return frontend_directives[k].parse(p);
	for (k = 0; k < HR_NKINDS; k++)
		if (!strcmp(d, kind_names[k]))
			return parse_rule(p, (enum hog_rule_kind)k);
	return perr(p, "unknown directive '%s'", d);
}

int hog_rules_parse(struct hog_rules *r, const char *path, const char *text,
		    size_t len, char **err)
{
	struct parse p = { .r = r, .path = path };
	const char *s = text, *end = text + len;
	char *line = NULL;
	size_t cap = 0;

	if (memchr(text, 0, len)) {
		p.line = 1;
		perr(&p, "binary data in rules file");
		*err = p.err;
		return -1;
	}
	while (s < end) {
		const char *nl = memchr(s, '\n', end - s);
		size_t n = (nl ? nl : end) - s;

		p.line++;
		if (n + 1 > cap) {
			cap = n + 1;
			line = hog_xrealloc(line, cap);
		}
		memcpy(line, s, n);
		line[n] = 0;
		s = nl ? nl + 1 : end;
		if (parse_line(&p, line))
			break;
	}
	free(line);
	r->digest = hog_hash64(text, len, r->digest);
	r->nfiles++;
	if (p.err) {
		*err = p.err;
		return -1;
	}
	return 0;
}

int hog_rules_load(struct hog_rules *r, const char *path, char **err)
{
	size_t len = 0;
	char *text = hog_read_file(path, &len);
	int ret;

	if (!text) {
		*err = hog_xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	ret = hog_rules_parse(r, path, text, len, err);
	free(text);
	return ret;
}
