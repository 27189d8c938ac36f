// SPDX-License-Identifier: GPL-2.0
/*
 * Building, writing and reading the intermediate form.
 *
 * The text form is line based so that a section can be read with
 * "lockhog dump x.o" or "readelf -p .note.lockhog x.o".  docs/ir.md
 * specifies it; in short:
 *
 *   lockhog-ir 3
 *   T mm/memcontrol.c
 *   F name static file line nvars nparams param...
 *   V var name                    source name of a variable
 *   C var max                     the most a variable can be (a cap)
 *   A what line col type expr     an annotation: lock held on entry, taken, given up
 *   B nsucc succ... cond          cond is -, nV or zV
 *   P dst n pred:val ...          a phi of the last block
 *   E kind line col callee dst nargs val...
 *   L header line col bound shape nblocks block...
 *
 * Values: ? unknown, #N constant, vN variable, &EXPR address.
 * A payload ends with a NUL byte, so that payloads concatenated by ld -r
 * can be told apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "ir.h"

struct hog_module *hog_module_new(struct hog_strtab *strs, const char *tu)
{
	struct hog_module *m = hog_xcalloc(1, sizeof(*m));

	if (!strs) {
		strs = hog_strtab_new();
		m->own_strs = 1;
	}
	m->strs = strs;
	m->tu = hog_intern(strs, tu ? tu : "");
	return m;
}

void hog_module_free(struct hog_module *m)
{
	if (!m)
		return;
	hog_arena_free(&m->arena);
	free(m->funcs);
	free(m->regs);
	if (m->own_strs)
		hog_strtab_free(m->strs);
	free(m);
}

void hog_module_add_reg(struct hog_module *m, const char *var, int line, const char *cls,
			const char *func)
{
	struct hog_init_reg *g;

	if (m->nregs == m->cregs) {
		m->cregs = m->cregs ? 2 * m->cregs : 8;
		m->regs = hog_xrealloc(m->regs, m->cregs * sizeof(*m->regs));
	}
	g = &m->regs[m->nregs++];
	g->var = hog_intern(m->strs, var);
	g->line = line;
	g->cls = hog_intern(m->strs, cls);
	g->func = hog_intern(m->strs, func);
}

struct hog_func *hog_func_new(struct hog_module *m, const char *name,
			      const char *file, int line, int is_static,
			      int nparams, const char **params)
{
	struct hog_func *f = hog_alloc(&m->arena, sizeof(*f));
	int i;

	f->name = hog_intern(m->strs, name);
	f->file = hog_intern(m->strs, file ? file : "");
	f->line = line;
	f->is_static = is_static;
	f->tu = m->tu;
	f->nparams = nparams;
	f->params = hog_alloc(&m->arena, sizeof(char *) * (nparams + 1));
	for (i = 0; i < nparams; i++)
		f->params[i] = hog_intern(m->strs, params && params[i] ? params[i] : "");
	if (m->nfuncs == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		m->funcs = hog_xrealloc(m->funcs, m->cap * sizeof(*m->funcs));
	}
	m->funcs[m->nfuncs++] = f;
	return f;
}

void hog_func_add_annot(struct hog_module *m, struct hog_func *f, enum hog_annot_kind kind,
			int line, int col, const char *type, const char *expr)
{
	struct hog_annot *a = hog_alloc(&m->arena, sizeof(*a) * (f->nannots + 1));

	if (f->nannots)
		memcpy(a, f->annots, sizeof(*a) * f->nannots);
	a[f->nannots].kind = kind;
	a[f->nannots].line = line;
	a[f->nannots].col = col;
	a[f->nannots].type = hog_intern(m->strs, type ? type : "");
	a[f->nannots].expr = hog_intern(m->strs, expr);
	f->annots = a;
	f->nannots++;
}

void hog_func_set_vname(struct hog_module *m, struct hog_func *f, int var,
			const char *name)
{
	if (var < 0 || var >= f->nvars || !name || !*name)
		return;
	if (!f->vnames) {
		f->vnames = hog_alloc(&m->arena, sizeof(char *) * f->nvars);
		f->nvnames = f->nvars;
	}
	if (var >= f->nvnames)
		return;
	f->vnames[var] = hog_intern(m->strs, name);
}

void hog_func_set_vcap(struct hog_module *m, struct hog_func *f, int var, long long max)
{
	int i;

	if (var < 0 || var >= f->nvars || max < 0)
		return;
	if (!f->vcaps) {
		f->vcaps = hog_alloc(&m->arena, sizeof(long long) * f->nvars);
		f->nvcaps = f->nvars;
		for (i = 0; i < f->nvcaps; i++)
			f->vcaps[i] = -1;
	}
	if (var < f->nvcaps)
		f->vcaps[var] = max;
}

long long hog_func_vcap(const struct hog_func *f, int var)
{
	return f->vcaps && var >= 0 && var < f->nvcaps ? f->vcaps[var] : -1;
}

void hog_func_set_blocks(struct hog_module *m, struct hog_func *f, int nblocks)
{
	f->nblocks = nblocks;
	f->blocks = hog_alloc(&m->arena, sizeof(*f->blocks) * (nblocks ? nblocks : 1));
}

/*
 * Events are appended one at a time; grow by doubling inside the arena
 * (the old array is simply abandoned, the arena frees it later).
 */
struct hog_event *hog_block_add_event(struct hog_module *m, struct hog_block *b,
				      enum hog_ev_kind kind, int line, int col,
				      const char *callee, int dst, int nargs)
{
	struct hog_event *e;

	if ((b->nev & (b->nev - 1)) == 0) {
		int cap = b->nev ? b->nev * 2 : 1;
		struct hog_event *n = hog_alloc(&m->arena, sizeof(*n) * cap);

		if (b->nev)
			memcpy(n, b->ev, sizeof(*n) * b->nev);
		b->ev = n;
	}
	e = &b->ev[b->nev++];
	e->kind = kind;
	e->line = line;
	e->col = col;
	e->callee = callee ? hog_intern(m->strs, callee) : NULL;
	e->dst = dst;
	e->nargs = nargs;
	e->args = hog_alloc(&m->arena, sizeof(*e->args) * (nargs ? nargs : 1));
	return e;
}

void hog_block_set_succ(struct hog_module *m, struct hog_block *b, int nsucc,
			const int *succ)
{
	b->nsucc = nsucc;
	b->succ = hog_alloc(&m->arena, sizeof(int) * (nsucc ? nsucc : 1));
	if (nsucc)
		memcpy(b->succ, succ, sizeof(int) * nsucc);
}

struct hog_phi *hog_block_add_phi(struct hog_module *m, struct hog_block *b,
				  int dst, int n)
{
	struct hog_phi *p;

	if ((b->nphi & (b->nphi - 1)) == 0) {
		int cap = b->nphi ? b->nphi * 2 : 1;
		struct hog_phi *np = hog_alloc(&m->arena, sizeof(*np) * cap);

		if (b->nphi)
			memcpy(np, b->phi, sizeof(*np) * b->nphi);
		b->phi = np;
	}
	p = &b->phi[b->nphi++];
	p->dst = dst;
	p->n = n;
	p->pred = hog_alloc(&m->arena, sizeof(int) * (n ? n : 1));
	p->val = hog_alloc(&m->arena, sizeof(*p->val) * (n ? n : 1));
	return p;
}

struct hog_loop *hog_func_add_loop(struct hog_module *m, struct hog_func *f,
				   int header, int line, int col, long long bound,
				   enum hog_loop_shape shape, int nblocks,
				   const int *blocks)
{
	struct hog_loop *l;

	if ((f->nloops & (f->nloops - 1)) == 0) {
		int cap = f->nloops ? f->nloops * 2 : 1;
		struct hog_loop *nl = hog_alloc(&m->arena, sizeof(*nl) * cap);

		if (f->nloops)
			memcpy(nl, f->loops, sizeof(*nl) * f->nloops);
		f->loops = nl;
	}
	l = &f->loops[f->nloops++];
	l->header = header;
	l->line = line;
	l->col = col;
	l->bound = bound;
	l->bound_param = -1;
	l->bound_shift = -1;
	l->shape = shape;
	l->nblocks = nblocks;
	l->blocks = hog_alloc(&m->arena, sizeof(int) * (nblocks ? nblocks : 1));
	if (nblocks)
		memcpy(l->blocks, blocks, sizeof(int) * nblocks);
	return l;
}

static int check_val(const struct hog_func *f, const struct hog_val *v)
{
	if (v->kind == HV_VAR)
		return v->var >= 0 && v->var < f->nvars;
	if (v->kind == HV_ADDR)
		return v->addr && *v->addr;
	return v->kind == HV_UNKNOWN || v->kind == HV_CONST;
}

/* One block's shape and events; NULL if it is well formed, else why not. */
static const char *check_block(const struct hog_func *f, const struct hog_block *b)
{
	int j, k;

	if (b->nsucc > HOG_MAX_SUCC)
		return "a block with more than " HOG_STR(HOG_MAX_SUCC) " successors";
	if ((b->cond == HC_NEZ || b->cond == HC_EQZ || b->cond == HC_GTZ ||
	     b->cond == HC_LEZ || b->cond == HC_EQK) && (b->nsucc != 2 || b->cond_var < 0 || b->cond_var >= f->nvars))
		return "conditional block needs two successors and a variable";
	if ((b->cond == HC_BATCH0 || b->cond == HC_BATCH1) && b->nsucc != 2)
		return "conditional block needs two successors and a variable";
	for (j = 0; j < b->nev; j++) {
		const struct hog_event *e = &b->ev[j];

		if (e->dst >= f->nvars)
			return "event result variable out of range";
		if (e->kind == HE_CALL && !e->callee)
			return "call without callee";
		for (k = 0; k < e->nargs; k++)
			if (!check_val(f, &e->args[k]))
				return "bad event argument";
	}
	for (j = 0; j < b->nsucc; j++)
		if (b->succ[j] < 0 || b->succ[j] >= f->nblocks)
			return "successor out of range";
	return NULL;
}

static const char *check_phis(const struct hog_func *f, const struct hog_block *b)
{
	int j, k;

	for (j = 0; j < b->nphi; j++) {
		if (b->phi[j].dst < 0 || b->phi[j].dst >= f->nvars)
			return "phi result out of range";
		for (k = 0; k < b->phi[j].n; k++)
			if (b->phi[j].pred[k] < 0 || b->phi[j].pred[k] >= f->nblocks ||
			    !check_val(f, &b->phi[j].val[k]))
				return "bad phi argument";
	}
	return NULL;
}

static const char *check_loops(const struct hog_func *f)
{
	int i, j;

	for (i = 0; i < f->nloops; i++) {
		const struct hog_loop *l = &f->loops[i];

		if (l->header < 0 || l->header >= f->nblocks)
			return "loop header out of range";
		for (j = 0; j < l->nblocks; j++)
			if (l->blocks[j] < 0 || l->blocks[j] >= f->nblocks)
				return "loop block out of range";
	}
	return NULL;
}

/* Predecessor lists, from the successors (which check_block() validated). */
static void link_preds(struct hog_module *m, struct hog_func *f)
{
	int i, j;

	for (i = 0; i < f->nblocks; i++)
		f->blocks[i].npred = 0;
	for (i = 0; i < f->nblocks; i++)
		for (j = 0; j < f->blocks[i].nsucc; j++)
			f->blocks[f->blocks[i].succ[j]].npred++;
	for (i = 0; i < f->nblocks; i++) {
		struct hog_block *b = &f->blocks[i];

		b->pred = hog_alloc(&m->arena, sizeof(int) * (b->npred ? b->npred : 1));
		b->npred = 0;
	}
	for (i = 0; i < f->nblocks; i++)
		for (j = 0; j < f->blocks[i].nsucc; j++) {
			struct hog_block *s = &f->blocks[f->blocks[i].succ[j]];

			s->pred[s->npred++] = i;
		}
}

int hog_loop_has(const struct hog_loop *l, int b)
{
	int i;

	for (i = 0; i < l->nblocks; i++)
		if (l->blocks[i] == b)
			return 1;
	return 0;
}

int hog_func_finish(struct hog_module *m, struct hog_func *f, const char **err)
{
	int i;

	*err = f->nblocks < 1 ? "function has no blocks" : NULL;
	for (i = 0; i < f->nblocks && !*err; i++)
		*err = check_block(f, &f->blocks[i]);
	if (*err)
		return -1;
	link_preds(m, f);
	for (i = 0; i < f->nblocks && !*err; i++)
		*err = check_phis(f, &f->blocks[i]);
	if (!*err)
		*err = check_loops(f);
	return *err ? -1 : 0;
}

/* ---- writer ---- */

/* Names never hold blanks in practice, but a path might: escape them. */
static void put_word(struct hog_buf *b, const char *s)
{
	if (!s || !*s) {
		hog_buf_add(b, "-");
		return;
	}
	if (!strcmp(s, "-")) {
		hog_buf_add(b, "%2D");
		return;
	}
	for (; *s; s++) {
		unsigned char c = *s;

		if (c <= ' ' || c == '%' || c >= 0x7f)
			hog_buf_printf(b, "%%%02X", c);
		else
			hog_buf_addn(b, s, 1);
	}
}

static void put_val(struct hog_buf *b, const struct hog_val *v)
{
	switch (v->kind) {
	case HV_CONST:
		hog_buf_printf(b, " #%lld", v->cst);
		break;
	case HV_VAR:
		hog_buf_printf(b, " v%d", v->var);
		break;
	case HV_ADDR:
		hog_buf_add(b, " &");
		put_word(b, v->addr);
		break;
	default:
		hog_buf_add(b, " ?");
	}
}
/* A variable test's letter: n var != 0, z var == 0, g var > 0, l var <= 0. */
static char cond_letter(enum hog_cond c)
{
	switch (c) {
	case HC_NEZ:
		return 'n';
	case HC_EQZ:
		return 'z';
	case HC_GTZ:
		return 'g';
	default:
		return 'l';
	}
}


static const char ev_chars[] = "ciasrwh";
/* indexed by enum hog_annot_kind */
static const char annot_chars[] = "marc";
static const char shape_chars[] = "ocphrs";

void hog_module_write(const struct hog_module *m, struct hog_buf *b)
{
	int fi, i, j, k;

	hog_buf_add(b, HOG_IR_MAGIC "\nT ");
	put_word(b, m->tu);
	hog_buf_add(b, "\n");
	for (i = 0; i < m->nregs; i++) {
		hog_buf_add(b, "G ");
		put_word(b, m->regs[i].var);
		hog_buf_printf(b, " %d ", m->regs[i].line);
		put_word(b, m->regs[i].cls);
		hog_buf_add(b, " ");
		put_word(b, m->regs[i].func);
		hog_buf_add(b, "\n");
	}
	for (fi = 0; fi < m->nfuncs; fi++) {
		const struct hog_func *f = m->funcs[fi];

		hog_buf_add(b, "F ");
		put_word(b, f->name);
		hog_buf_printf(b, " %u ", (unsigned)!!f->is_static | f->flags << 1);
		put_word(b, f->file);
		hog_buf_printf(b, " %d %d %d", f->line, f->nvars, f->nparams);
		for (i = 0; i < f->nparams; i++) {
			hog_buf_add(b, " ");
			put_word(b, f->params[i]);
		}
		hog_buf_add(b, "\n");
		for (i = 0; f->vnames && i < f->nvnames; i++) {
			if (!f->vnames[i] || !*f->vnames[i])
				continue;
			hog_buf_printf(b, "V %d ", i);
			put_word(b, f->vnames[i]);
			hog_buf_add(b, "\n");
		}
		for (i = 0; f->vcaps && i < f->nvcaps; i++)
			if (f->vcaps[i] >= 0)
				hog_buf_printf(b, "C %d %lld\n", i, f->vcaps[i]);
		for (i = 0; i < f->nannots; i++) {
			const struct hog_annot *a = &f->annots[i];

			hog_buf_printf(b, "A %c %d %d ", annot_chars[a->kind], a->line, a->col);
			put_word(b, a->type);
			hog_buf_add(b, " ");
			put_word(b, a->expr);
			hog_buf_add(b, "\n");
		}
		for (i = 0; i < f->nblocks; i++) {
			const struct hog_block *bb = &f->blocks[i];

			hog_buf_printf(b, "B %d", bb->nsucc);
			for (j = 0; j < bb->nsucc; j++)
				hog_buf_printf(b, " %d", bb->succ[j]);
			if (bb->cond == HC_NONE)
				hog_buf_add(b, " -\n");
			else if (bb->cond == HC_BATCH0 || bb->cond == HC_BATCH1)
				hog_buf_printf(b, " b%d\n", bb->cond == HC_BATCH0 ? 0 : 1);
			else if (bb->cond == HC_EQK && bb->cond_val == bb->cond_hi)
				hog_buf_printf(b, " e%d=%lld\n", bb->cond_var, bb->cond_val);
			else if (bb->cond == HC_EQK)
				hog_buf_printf(b, " e%d=%lld..%lld\n", bb->cond_var, bb->cond_val,
					       bb->cond_hi);
			else
				hog_buf_printf(b, " %c%d\n", cond_letter(bb->cond),
					       bb->cond_var);
			for (j = 0; j < bb->nphi; j++) {
				const struct hog_phi *p = &bb->phi[j];

				hog_buf_printf(b, "P %d %d", p->dst, p->n);
				for (k = 0; k < p->n; k++) {
					hog_buf_printf(b, " %d:", p->pred[k]);
					put_val(b, &p->val[k]);
				}
				hog_buf_add(b, "\n");
			}
			for (j = 0; j < bb->nev; j++) {
				const struct hog_event *e = &bb->ev[j];

				hog_buf_printf(b, "E %c %d %d ", ev_chars[e->kind],
					       e->line, e->col);
				put_word(b, e->callee);
				hog_buf_printf(b, " %d %d", e->dst, e->nargs);
				for (k = 0; k < e->nargs; k++)
					put_val(b, &e->args[k]);
				hog_buf_add(b, "\n");
			}
		}
		for (i = 0; i < f->nloops; i++) {
			const struct hog_loop *l = &f->loops[i];

			hog_buf_printf(b, "L %d %d %d %lld %c %d", l->header, l->line,
				       l->col, l->bound, shape_chars[l->shape],
				       l->nblocks);
			for (j = 0; j < l->nblocks; j++)
				hog_buf_printf(b, " %d", l->blocks[j]);
			if (l->bound_param >= 0 && l->bound_shift < 0)
				hog_buf_printf(b, " p%d", l->bound_param);
			else if (l->bound_param >= 0)
				hog_buf_printf(b, " s%d-%d", l->bound_param, l->bound_shift);
			hog_buf_add(b, "\n");
		}
	}
	hog_buf_addn(b, "", 1);
}

/* ---- reader ---- */

/* bytes of variable-name table a payload byte may buy (a real one uses under 8) */
#define NAME_BUDGET 64

struct rd {
	struct hog_module *m;
	const char *p, *end;	/* current line */
	int lineno;
	int was_dash;		/* the last word was a bare "-": the empty name */
	struct hog_vec blines;	/* line of each block record, for messages */
	size_t vbytes;		/* memory the variable names take so far */
	char *err;
	char word[4096];
};

static int rd_fail(struct rd *r, const char *what)
{
	if (!r->err)
		r->err = hog_xasprintf("line %d: %s", r->lineno, what);
	return -1;
}

static void skip_blanks(struct rd *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t'))
		r->p++;
}

static int at_eol(struct rd *r)
{
	skip_blanks(r);
	return r->p >= r->end;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Reads one blank-separated word, undoing put_word's escapes. */
static const char *get_word(struct rd *r)
{
	size_t n = 0;

	skip_blanks(r);
	if (r->p >= r->end) {
		rd_fail(r, "missing field");
		return NULL;
	}
	r->was_dash = *r->p == '-' && (r->p + 1 == r->end || r->p[1] == ' ' || r->p[1] == '\t');
	while (r->p < r->end && *r->p != ' ' && *r->p != '\t') {
		int c = *r->p++;

		if (c == '%' && r->end - r->p >= 2 && hexval(r->p[0]) >= 0 &&
		    hexval(r->p[1]) >= 0) {
			c = hexval(r->p[0]) * 16 + hexval(r->p[1]);
			r->p += 2;
		}
		if (n + 1 >= sizeof(r->word)) {
			rd_fail(r, "field too long");
			return NULL;
		}
		r->word[n++] = c;
	}
	r->word[n] = 0;
	return r->word;
}

static const char *get_name(struct rd *r)
{
	const char *w = get_word(r);

	if (!w)
		return NULL;
	/* "%2D" is a real "-"; only the bare word means empty */
	if (r->was_dash)
		return "";
	return w;
}

static int get_ll(struct rd *r, long long *out, long long lo, long long hi)
{
	const char *w = get_word(r);
	char *end;

	if (!w)
		return -1;
	*out = strtoll(w, &end, 10);
	if (*end || end == w || *out < lo || *out > hi)
		return rd_fail(r, "bad number");
	return 0;
}

static int get_int(struct rd *r, int *out, int lo, int hi)
{
	long long v;

	if (get_ll(r, &v, lo, hi))
		return -1;
	*out = (int)v;
	return 0;
}

static int get_val(struct rd *r, struct hog_val *v)
{
	const char *w = get_word(r);
	char *end;

	if (!w)
		return -1;
	memset(v, 0, sizeof(*v));
	switch (w[0]) {
	case '?':
		v->kind = HV_UNKNOWN;
		return w[1] ? rd_fail(r, "bad value") : 0;
	case '#':
		v->kind = HV_CONST;
		v->cst = strtoll(w + 1, &end, 10);
		return *end || end == w + 1 ? rd_fail(r, "bad constant") : 0;
	case 'v':
		v->kind = HV_VAR;
		v->var = (int)strtol(w + 1, &end, 10);
		return *end || end == w + 1 || v->var < 0 ? rd_fail(r, "bad variable") : 0;
	case '&':
		if (!w[1])
			return rd_fail(r, "empty address");
		v->kind = HV_ADDR;
		v->addr = hog_intern(r->m->strs, w + 1);
		return 0;
	}
	return rd_fail(r, "bad value");
}

#define MAXN 1000000

static int rd_func(struct rd *r, struct hog_func **fp, struct hog_vec *blocks)
{
	char name[4096], file[4096];
	const char *w;
	int is_static, line, nvars, nparams, i;
	const char **params;
	struct hog_func *f;

	if (!(w = get_name(r)))
		return -1;
	snprintf(name, sizeof(name), "%s", w);
	if (get_int(r, &is_static, 0, 15))
		return -1;
	if (!(w = get_name(r)))
		return -1;
	snprintf(file, sizeof(file), "%s", w);
	if (get_int(r, &line, 0, 1 << 30) || get_int(r, &nvars, 0, MAXN) ||
	    get_int(r, &nparams, 0, 1024))
		return -1;
	params = hog_xcalloc(nparams + 1, sizeof(*params));
	for (i = 0; i < nparams; i++) {
		if (!(w = get_name(r))) {
			free(params);
			return -1;
		}
		params[i] = hog_intern(r->m->strs, w);
	}
	f = hog_func_new(r->m, name, file, line, is_static & 1, nparams, params);
	free(params);
	f->flags = (unsigned)is_static >> 1;
	f->nvars = nvars;
	*fp = f;
	blocks->n = 0;
	return at_eol(r) ? 0 : rd_fail(r, "trailing text");
}

/*
 * Blocks arrive one line at a time before we know how many there are;
 * collect them on the heap and copy into the arena when the function ends.
 */
/*
 * A message names the function as the payload spells it: a decoded name
 * may hold a newline, and an error is one line.
 */
static int rd_func_fail(struct rd *r, int lineno, const struct hog_func *f,
			const char *what)
{
	struct hog_buf name = { 0 };

	put_word(&name, f->name);
	r->err = hog_xasprintf("line %d: function %s: %s", lineno, name.s, what);
	hog_buf_free(&name);
	return -1;
}

static int rd_end_func(struct rd *r, struct hog_func *f, struct hog_vec *blocks)
{
	const char *e;
	int i;

	if (!f)
		return 0;
	/* say which block is wrong, not where the function ends */
	for (i = 0; i < blocks->n; i++) {
		const struct hog_block *b = blocks->v[i];
		int j;

		for (j = 0; j < b->nsucc; j++)
			if (b->succ[j] >= blocks->n)
				return rd_func_fail(r, (int)(long)r->blines.v[i], f,
						    "successor out of range");
	}
	r->blines.n = 0;
	hog_func_set_blocks(r->m, f, blocks->n);
	for (i = 0; i < blocks->n; i++) {
		f->blocks[i] = *(struct hog_block *)blocks->v[i];
		free(blocks->v[i]);
	}
	blocks->n = 0;
	if (hog_func_finish(r->m, f, &e))
		return rd_func_fail(r, r->lineno, f, e);
	return 0;
}

static int rd_block(struct rd *r, struct hog_vec *blocks)
{
	struct hog_block *b = hog_xcalloc(1, sizeof(*b));
	int *succ, i;
	const char *w;

	hog_vec_push(blocks, b);
	hog_vec_push(&r->blines, (void *)(long)r->lineno);
	if (get_int(r, &b->nsucc, 0, HOG_MAX_SUCC))
		return -1;
	succ = hog_xcalloc(b->nsucc + 1, sizeof(*succ));
	for (i = 0; i < b->nsucc; i++)
		if (get_int(r, &succ[i], 0, MAXN)) {
			free(succ);
			return -1;
		}
	hog_block_set_succ(r->m, b, b->nsucc, succ);
	free(succ);
	if (!(w = get_word(r)))
		return -1;
	if (w[0] == 'b' && (w[1] == '0' || w[1] == '1') && !w[2]) {
		b->cond = w[1] == '0' ? HC_BATCH0 : HC_BATCH1;
		b->cond_var = -1;
	} else if (w[0] == 'e') {
		char *end, *eq;

		b->cond = HC_EQK;
		b->cond_var = (int)strtol(w + 1, &eq, 10);
		if (eq == w + 1 || *eq != '=')
			return rd_fail(r, "bad condition");
		b->cond_val = b->cond_hi = strtoll(eq + 1, &end, 10);
		if (end != eq + 1 && end[0] == '.' && end[1] == '.') {
			eq = end + 1;
			b->cond_hi = strtoll(eq + 1, &end, 10);
		}
		if (*end || end == eq + 1 || b->cond_hi < b->cond_val)
			return rd_fail(r, "bad condition");
	} else if (w[0] && strchr("nzgl", w[0])) {
		char *end;

		b->cond = w[0] == 'n' ? HC_NEZ : w[0] == 'z' ? HC_EQZ :
			  w[0] == 'g' ? HC_GTZ : HC_LEZ;
		b->cond_var = (int)strtol(w + 1, &end, 10);
		if (*end || end == w + 1)
			return rd_fail(r, "bad condition");
	} else if (strcmp(w, "-")) {
		return rd_fail(r, "bad condition");
	}
	return at_eol(r) ? 0 : rd_fail(r, "trailing text");
}

static int rd_phi(struct rd *r, struct hog_block *b)
{
	int dst, n, i;
	struct hog_phi *p;

	if (get_int(r, &dst, 0, MAXN) || get_int(r, &n, 0, 4096))
		return -1;
	p = hog_block_add_phi(r->m, b, dst, n);
	for (i = 0; i < n; i++) {
		long v = 0;
		int digits = 0;

		/* the line is not NUL-terminated: stay inside it */
		skip_blanks(r);
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9' && digits < 9) {
			v = v * 10 + (*r->p++ - '0');
			digits++;
		}
		if (!digits || r->p >= r->end || *r->p != ':')
			return rd_fail(r, "bad phi argument");
		r->p++;
		p->pred[i] = (int)v;
		if (get_val(r, &p->val[i]))
			return -1;
	}
	return at_eol(r) ? 0 : rd_fail(r, "trailing text");
}

static int rd_event(struct rd *r, struct hog_block *b)
{
	const char *w, *k;
	char callee[4096];
	int line, col, dst, nargs, i;
	struct hog_event *e;

	if (!(w = get_word(r)))
		return -1;
	k = strchr(ev_chars, w[0]);
	if (!k || !w[0] || w[1])
		return rd_fail(r, "bad event kind");
	if (get_int(r, &line, 0, 1 << 30) || get_int(r, &col, 0, 1 << 20))
		return -1;
	if (!(w = get_name(r)))
		return -1;
	snprintf(callee, sizeof(callee), "%s", w);
	if (get_int(r, &dst, -1, MAXN) || get_int(r, &nargs, 0, 256))
		return -1;
	e = hog_block_add_event(r->m, b, (enum hog_ev_kind)(k - ev_chars), line,
				col, *callee ? callee : NULL, dst, nargs);
	for (i = 0; i < nargs; i++)
		if (get_val(r, &e->args[i]))
			return -1;
	return at_eol(r) ? 0 : rd_fail(r, "trailing text");
}

static int rd_loop(struct rd *r, struct hog_func *f)
{
	struct hog_loop *l = NULL;
	int header, line, col, nblocks, i, ret = 0;
	long long bound;
	const char *w, *s;
	int *blocks;

	if (get_int(r, &header, 0, MAXN) || get_int(r, &line, 0, 1 << 30) ||
	    get_int(r, &col, 0, 1 << 20) || get_ll(r, &bound, -1, 0x7fffffffffffffffLL))
		return -1;
	if (!(w = get_word(r)))
		return -1;
	s = strchr(shape_chars, w[0]);
	if (!s || !w[0] || w[1])
		return rd_fail(r, "bad loop shape");
	if (get_int(r, &nblocks, 0, MAXN))
		return -1;
	blocks = hog_xcalloc(nblocks + 1, sizeof(int));
	for (i = 0; i < nblocks && !ret; i++)
		ret = get_int(r, &blocks[i], 0, MAXN);
	if (!ret)
		l = hog_func_add_loop(r->m, f, header, line, col, bound,
				      (enum hog_loop_shape)(s - shape_chars), nblocks, blocks);
	free(blocks);
	if (ret)
		return ret;
	if (!at_eol(r)) {
		/* the optional bound parameter: "pN", or "sN-K" for 1 << (it - K) */
		char *end;

		if (!(w = get_word(r)) || (w[0] != 'p' && w[0] != 's'))
			return rd_fail(r, "trailing text");
		l->bound_param = (int)strtol(w + 1, &end, 10);
		if (end == w + 1 || l->bound_param < 0 || l->bound_param >= f->nparams)
			return rd_fail(r, "bad loop bound parameter");
		if (w[0] == 's') {
			char *k = end;

			if (*k != '-' || (l->bound_shift = (int)strtol(k + 1, &end, 10)) < 0 ||
			    end == k + 1 || l->bound_shift > 63)
				return rd_fail(r, "bad loop bound shift");
		}
		if (*end)
			return rd_fail(r, "bad loop bound parameter");
	}
	return at_eol(r) ? 0 : rd_fail(r, "trailing text");
}

/* The first line: this version's magic, or a clear word about another one. */
static int rd_magic(struct rd *r, const char *le)
{
	static const char pre[] = "lockhog-ir ";
	size_t n = le - r->p, pl = sizeof(pre) - 1;
	long v;
	char *end;

	if (n == strlen(HOG_IR_MAGIC) && !memcmp(r->p, HOG_IR_MAGIC, n))
		return 0;
	if (n > pl && n < pl + 6 && !memcmp(r->p, pre, pl)) {
		v = strtol(r->p + pl, &end, 10);
		if (end == le && v > 0 && v != HOG_IR_VERSION) {
			r->err = hog_xasprintf("built by %s lockhog (lockhog-ir %ld, this one reads %d); rebuild it",
					       v < HOG_IR_VERSION ? "an older" : "a newer", v,
					       HOG_IR_VERSION);
			return -1;
		}
	}
	return rd_fail(r, "not a " HOG_IR_MAGIC " payload");
}

int hog_section_next(const char *data, size_t len, size_t *off,
		     const char **pl, size_t *pllen)
{
	const char *nul;
	size_t o = *off;

	while (o < len && data[o] == '\0')
		o++;
	if (o >= len) {
		*off = len;
		return 0;
	}
	nul = memchr(data + o, '\0', len - o);
	*pl = data + o;
	*pllen = nul ? (size_t)(nul - (data + o)) : len - o;
	*off = o + *pllen;
	return 1;
}

static void rd_tu(struct rd *r)
{
	const char *w = get_name(r);

	if (w)
		r->m->tu = hog_intern(r->m->strs, w);
}

static void rd_reg(struct rd *r, const struct hog_func *f)
{
	char var[4096], cls[4096];
	const char *w;
	int line;

	if (f) {
		rd_fail(r, "initializer record after a function");
		return;
	}
	if (!(w = get_name(r)))
		return;
	snprintf(var, sizeof(var), "%s", w);
	if (get_int(r, &line, 0, 1 << 30) || !(w = get_name(r)))
		return;
	snprintf(cls, sizeof(cls), "%s", w);
	if (!(w = get_name(r)))
		return;
	if (!*var || !*cls || !*w) {
		rd_fail(r, "empty word in an initializer record");
		return;
	}
	hog_module_add_reg(r->m, var, line, cls, w);
	if (!at_eol(r))
		rd_fail(r, "trailing text");
}

static void rd_vname(struct rd *r, struct hog_func *f, struct hog_vec *blocks, size_t len)
{
	const char *w;
	int var;

	if (!f || blocks->n) {
		rd_fail(r, "variable name outside a function header");
		return;
	}
	if (get_int(r, &var, 0, f->nvars - 1) || !(w = get_name(r)))
		return;
	/* names take a pointer per variable: a few bytes of a crafted
	 * payload must not cost megabytes */
	if (!f->vnames && (r->vbytes += (size_t)f->nvars * sizeof(char *)) >
			  NAME_BUDGET * len + (1 << 20)) {
		rd_fail(r, "more variables named than a payload of this size can hold");
		return;
	}
	hog_func_set_vname(r->m, f, var, w);
}

/* C var max: a variable's cap, before the function's first block, like V. */
static void rd_vcap(struct rd *r, struct hog_func *f, struct hog_vec *blocks, size_t len)
{
	long long max;
	int var;

	if (!f || blocks->n) {
		rd_fail(r, "variable cap outside a function header");
		return;
	}
	if (get_int(r, &var, 0, f->nvars - 1) || get_ll(r, &max, 0, 0x7fffffffffffffffLL))
		return;
	/* a table of caps per function, bought by payload bytes as names are */
	if (!f->vcaps && (r->vbytes += (size_t)f->nvars * sizeof(long long)) >
			 NAME_BUDGET * len + (1 << 20)) {
		rd_fail(r, "more variables capped than a payload of this size can hold");
		return;
	}
	hog_func_set_vcap(r->m, f, var, max);
	if (!at_eol(r))
		rd_fail(r, "trailing text");
}

/* A what line col type expr: before the function's first block, like V. */
static void rd_annot(struct rd *r, struct hog_func *f, struct hog_vec *blocks)
{
	const char *w, *k;
	char type[4096];
	int line, col;

	if (!f || blocks->n) {
		rd_fail(r, "annotation outside a function header");
		return;
	}
	if (!(w = get_word(r)))
		return;
	k = strchr(annot_chars, w[0]);
	if (!k || !w[0] || w[1]) {
		rd_fail(r, "bad annotation kind");
		return;
	}
	if (get_int(r, &line, 0, 1 << 30) || get_int(r, &col, 0, 1 << 20) ||
	    !(w = get_name(r)))
		return;
	snprintf(type, sizeof(type), "%s", w);
	if (!(w = get_name(r)))
		return;
	if (!*w) {
		rd_fail(r, "annotation without a lock");
		return;
	}
	hog_func_add_annot(r->m, f, (enum hog_annot_kind)(k - annot_chars), line, col, type, w);
	if (!at_eol(r))
		rd_fail(r, "trailing text");
}

/* One record line (docs/ir.md): its letter, a blank, then its fields. */
static void rd_record(struct rd *r, struct hog_func **f, struct hog_vec *blocks, size_t len)
{
	char kind = *r->p;

	r->p += 2;
	switch (kind) {
	case 'T':
		rd_tu(r);
		break;
	case 'G':
		rd_reg(r, *f);
		break;
	case 'F':
		if (rd_end_func(r, *f, blocks))
			break;
		*f = NULL;
		rd_func(r, f, blocks);
		break;
	case 'B':
		if (!*f)
			rd_fail(r, "block outside a function");
		else
			rd_block(r, blocks);
		break;
	case 'P':
	case 'E':
		if (!*f || !blocks->n)
			rd_fail(r, "line outside a block");
		else if (kind == 'P')
			rd_phi(r, blocks->v[blocks->n - 1]);
		else
			rd_event(r, blocks->v[blocks->n - 1]);
		break;
	case 'V':
		rd_vname(r, *f, blocks, len);
		break;
	case 'C':
		rd_vcap(r, *f, blocks, len);
		break;
	case 'A':
		rd_annot(r, *f, blocks);
		break;
	case 'L':
		if (!*f)
			rd_fail(r, "loop outside a function");
		else
			rd_loop(r, *f);
		break;
	default:
		r->p -= 2;
		rd_fail(r, "unknown record");
	}
}

/* The payload ends at its NUL; anything after it is another payload. */
static const char *payload_end(struct rd *r, const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len), *end;

	if (!nul)
		return text + len;
	end = nul;
	while (++nul < text + len)
		if (*nul && !r->err)
			r->err = hog_xstrdup("more than one payload: read the section with hog_section_next()");
	return end;
}

static void rd_lines(struct rd *r, const char *text, const char *end, size_t len,
		     struct hog_func **f, struct hog_vec *blocks)
{
	const char *p = text;
	int ok = 0;

	while (p < end && !r->err) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;

		r->lineno++;
		r->p = p;
		r->end = le;
		p = nl ? nl + 1 : end;
		if (r->lineno == 1) {
			if (rd_magic(r, le))
				return;
			ok = 1;
		} else if (r->p == le || *r->p == '\0') {
			continue;
		} else if (le - r->p < 2 || r->p[1] != ' ') {
			rd_fail(r, "malformed line");
		} else {
			rd_record(r, f, blocks, len);
		}
	}
	if (!r->err && !ok)
		rd_fail(r, "empty payload");
}

struct hog_module *hog_module_read(struct hog_strtab *strs, const char *text,
				   size_t len, char **err)
{
	struct rd r = { 0 };
	struct hog_vec blocks = { 0 };
	struct hog_func *f = NULL;
	const char *end;
	int i;

	r.m = hog_module_new(strs, NULL);
	end = payload_end(&r, text, len);
	rd_lines(&r, text, end, len, &f, &blocks);
	if (!r.err)
		rd_end_func(&r, f, &blocks);
	for (i = 0; i < blocks.n; i++)
		free(blocks.v[i]);
	hog_vec_free(&blocks);
	hog_vec_free(&r.blines);
	if (r.err) {
		*err = r.err;
		hog_module_free(r.m);
		return NULL;
	}
	for (i = 0; i < r.m->nfuncs; i++)
		r.m->funcs[i]->tu = r.m->tu;
	return r.m;
}
