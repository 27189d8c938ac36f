/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the unit tests: a terse way to build IR functions
 * with the builder API, rules from a frozen excerpt of the catalogue
 * (HT_RULES) or from inline text, and look-ups over findings.  Include after <cmocka.h>.
 *
 * Values are written the way the IR text form writes them:
 *   "?"        unknown
 *   "#N"       constant (any base strtoll takes: "#0xcc0")
 *   "vN"       variable N
 *   "&EXPR"    address expression, "&$0/zone.lock"
 *
 * The Makefile does not track this header: after changing it, remove
 * build/tests/ (or touch the test files) before "make unit".
 */
#ifndef HOGTEST_H
#define HOGTEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util.h"
#include "ir.h"
#include "rules.h"
#include "expr.h"
#include "analysis.h"
#include "message.h"

#define HT_UNUSED __attribute__((unused))
#define HT_COL 2

/* ---- rules ---- */

/*
 * The catalogue the unit tests analyse against: an excerpt of
 * rules/kernel.rules frozen here, so that editing the real catalogue
 * (a class, a reason, a primitive dropped) does not change what the
 * core tests expect.  Add a line when a test needs a new primitive.
 */
static const char HT_RULES[] =
	"strip rlock\n"
	"passthrough spinlock_check arg=0\n"
	"lock spin_lock op=acquire arg=0 kind=spin\n"
	"lock spin_lock_irq op=acquire arg=0 kind=spin irq=disable\n"
	"lock spin_lock_irqsave op=acquire arg=0 kind=spin irq=save flags=arg1\n"
	"lock spin_lock_nested op=acquire arg=0 kind=spin\n"
	"lock spin_trylock op=trylock arg=0 kind=spin cond=nonzero\n"
	"lock spin_unlock op=release arg=0 kind=spin\n"
	"lock spin_unlock_irq op=release arg=0 kind=spin irq=enable\n"
	"lock spin_unlock_irqrestore op=release arg=0 kind=spin irq=restore flags=arg1\n"
	"lock _raw_spin_lock op=acquire arg=0 kind=spin\n"
	"lock _raw_spin_lock_irqsave op=acquire arg=0 kind=spin irq=save flags=ret\n"
	"lock local_lock_acquire op=acquire arg=0 kind=local\n"
	"lock local_lock_release op=release arg=0 kind=local\n"
	"lock local_lock_irqsave op=acquire arg=0 kind=local irq=save flags=arg1\n"
	"lock mutex_lock op=acquire arg=0 kind=mutex\n"
	"lock mutex_lock_interruptible op=trylock arg=0 kind=mutex cond=zero\n"
	"lock mutex_unlock op=release arg=0 kind=mutex\n"
	"lock down_write op=acquire arg=0 kind=rwsem_write\n"
	"lock up_write op=release arg=0 kind=rwsem_write\n"
	"irq arch_local_irq_save op=save flags=ret\n"
	"irq arch_local_irq_restore op=restore flags=arg0\n"
	"irq local_irq_disable op=disable\n"
	"irq local_irq_enable op=enable\n"
	"preempt __preempt_count_add op=disable when=arg0==1\n"
	"preempt __preempt_count_sub op=enable when=arg0==1\n"
	"preempt preempt_disable op=disable\n"
	"preempt preempt_enable op=enable\n"
	"preempt get_cpu op=disable\n"
	"preempt put_cpu op=enable\n"
	"cost page_counter_uncharge class=hier-atomic \"atomic RMW walk up the page_counter hierarchy, one contended cache line per level\"\n"
	"cost css_put class=refcount-release \"css reference drop; the last one runs the css release path (RCU callback, cgroup teardown)\"\n"
	"cost mmdrop class=refcount-release \"mm_struct reference drop; the last one frees the pgd, the arch context and the mm\"\n"
	"cost synchronize_rcu class=sleep \"waits for an RCU grace period\"\n"
	"cost msleep class=sleep \"sleeps\"\n"
	"cost _cond_resched class=sleep \"may schedule\"\n"
	"cost mutex_lock class=sleep \"takes a mutex\"\n"
	"cost mutex_lock_interruptible class=sleep \"takes a mutex\"\n"
	"cost down_write class=sleep \"takes an rwsem\"\n"
	"cost down class=sleep \"takes a semaphore\"\n"
	"cost kmalloc class=sleep when=arg1&0x400 \"allocation that may enter direct reclaim\"\n"
	"lockbreak cond_resched_lock op=break arg=0\n"
	"loop bound=64 listwalk=ignore calls=1 chain=12\n"
	"cheap find_next_bit\n"
	"cheap memset\n"
	"cheap memcpy\n"
	"cheap strlen\n";


static HT_UNUSED void ht_rules_load(struct hog_rules *r, const char *path)
{
	char *err = NULL;

	if (hog_rules_load(r, path, &err)) {
		print_error("loading %s: %s\n", path, err ? err : "?");
		free(err);
		fail();
	}
}

static HT_UNUSED void ht_rules_text(struct hog_rules *r, const char *text)
{
	char *err = NULL;

	if (hog_rules_parse(r, "inline.rules", text, strlen(text), &err)) {
		print_error("inline rules: %s\n", err ? err : "?");
		free(err);
		fail();
	}
}

/* ---- values ---- */

static HT_UNUSED struct hog_val ht_val(struct hog_strtab *s, const char *spec)
{
	struct hog_val v;
	char *end;

	memset(&v, 0, sizeof(v));
	switch (spec[0]) {
	case '?':
		v.kind = HV_UNKNOWN;
		break;
	case '#':
		v.kind = HV_CONST;
		v.cst = strtoll(spec + 1, &end, 0);
		assert_true(*end == 0);
		break;
	case 'v':
		v.kind = HV_VAR;
		v.var = (int)strtol(spec + 1, &end, 10);
		assert_true(*end == 0);
		break;
	case '&':
		v.kind = HV_ADDR;
		v.addr = hog_intern(s, spec + 1);
		break;
	default:
		print_error("bad value spec '%s'\n", spec);
		fail();
	}
	return v;
}

/* ---- functions ---- */

/*
 * A function of module m: ht_fn(m, "name", is_static, line, nvars,
 * nblocks, "param0", "param1", NULL).  Its file is the module's unit.
 */
static HT_UNUSED struct hog_func *ht_fn(struct hog_module *m, const char *name,
					int is_static, int line, int nvars,
					int nblocks, ...)
{
	const char *params[16];
	struct hog_func *f;
	const char *p;
	int n = 0;
	va_list ap;

	va_start(ap, nblocks);
	while ((p = va_arg(ap, const char *)) && n < 16)
		params[n++] = p;
	va_end(ap);
	f = hog_func_new(m, name, m->tu, line, is_static, n, params);
	f->nvars = nvars;
	hog_func_set_blocks(m, f, nblocks);
	return f;
}

/* Same, with the body in another file (a header's static inline). */
static HT_UNUSED struct hog_func *ht_fn_in(struct hog_module *m, const char *file,
					   const char *name, int is_static,
					   int line, int nvars, int nblocks,
					   const char *param)
{
	const char *params[1] = { param };
	struct hog_func *f;

	f = hog_func_new(m, name, file, line, is_static, param ? 1 : 0, params);
	f->nvars = nvars;
	hog_func_set_blocks(m, f, nblocks);
	return f;
}

static HT_UNUSED struct hog_event *ht_vev(struct hog_module *m, struct hog_func *f,
					  int b, enum hog_ev_kind kind, int line,
					  const char *callee, int dst, va_list ap)
{
	const char *args[16];
	struct hog_event *e;
	const char *a;
	int n = 0, i;

	while ((a = va_arg(ap, const char *)) && n < 16)
		args[n++] = a;
	assert_true(b >= 0 && b < f->nblocks);
	e = hog_block_add_event(m, &f->blocks[b], kind, line, HT_COL, callee, dst, n);
	for (i = 0; i < n; i++)
		e->args[i] = ht_val(m->strs, args[i]);
	return e;
}

/* ht_call(m, f, block, line, "callee", dst, "arg"..., NULL) */
static HT_UNUSED struct hog_event *ht_call(struct hog_module *m, struct hog_func *f,
					   int b, int line, const char *callee,
					   int dst, ...)
{
	struct hog_event *e;
	va_list ap;

	va_start(ap, dst);
	e = ht_vev(m, f, b, HE_CALL, line, callee, dst, ap);
	va_end(ap);
	return e;
}

/* dst = op arg: op NULL copies, "!" negates, "!!" normalises */
static HT_UNUSED void ht_assign(struct hog_module *m, struct hog_func *f, int b,
				int line, const char *op, int dst, const char *arg)
{
	struct hog_event *e;

	e = hog_block_add_event(m, &f->blocks[b], HE_ASSIGN, line, HT_COL, op, dst, 1);
	e->args[0] = ht_val(m->strs, arg);
}

static HT_UNUSED void ht_atomic(struct hog_module *m, struct hog_func *f, int b,
				int line, const char *arg)
{
	struct hog_event *e;

	e = hog_block_add_event(m, &f->blocks[b], HE_ATOMIC, line, HT_COL, NULL, -1, 1);
	e->args[0] = ht_val(m->strs, arg);
}

static HT_UNUSED void ht_icall(struct hog_module *m, struct hog_func *f, int b,
			       int line)
{
	hog_block_add_event(m, &f->blocks[b], HE_ICALL, line, HT_COL, NULL, -1, 0);
}

/* arg NULL: a void return */
static HT_UNUSED void ht_ret(struct hog_module *m, struct hog_func *f, int b,
			     int line, const char *arg)
{
	struct hog_event *e;

	e = hog_block_add_event(m, &f->blocks[b], HE_RETURN, line, HT_COL, NULL, -1,
				arg ? 1 : 0);
	if (arg)
		e->args[0] = ht_val(m->strs, arg);
}

/* ht_succ(m, f, block, n, succ...) */
static HT_UNUSED void ht_succ(struct hog_module *m, struct hog_func *f, int b,
			      int n, ...)
{
	int succ[16], i;
	va_list ap;

	va_start(ap, n);
	for (i = 0; i < n && i < 16; i++)
		succ[i] = va_arg(ap, int);
	va_end(ap);
	hog_block_set_succ(m, &f->blocks[b], n, succ);
}

/* if (cond var) goto yes; else goto no; */
static HT_UNUSED void ht_branch(struct hog_module *m, struct hog_func *f, int b,
				enum hog_cond c, int var, int yes, int no)
{
	ht_succ(m, f, b, 2, yes, no);
	f->blocks[b].cond = c;
	f->blocks[b].cond_var = var;
}

/* ht_loop(m, f, header, line, bound, shape, nblocks, block...) */
static HT_UNUSED void ht_loop(struct hog_module *m, struct hog_func *f, int header,
			      int line, long long bound, enum hog_loop_shape shape,
			      int n, ...)
{
	int blocks[16], i;
	va_list ap;

	va_start(ap, n);
	for (i = 0; i < n && i < 16; i++)
		blocks[i] = va_arg(ap, int);
	va_end(ap);
	hog_func_add_loop(m, f, header, line, HT_COL, bound, shape, n, blocks);
}

static HT_UNUSED void ht_done(struct hog_module *m, struct hog_func *f)
{
	const char *err = NULL;

	if (hog_func_finish(m, f, &err)) {
		print_error("%s: %s\n", f->name, err ? err : "?");
		fail();
	}
}

/* ---- a whole program ---- */

struct ht_world {
	struct hog_strtab *strs;
	struct hog_rules *rules;
	struct hog_prog *prog;
	struct hog_module *mods[8];
	int nmods;
};

/* The tests' catalogue (HT_RULES) if kernel, then extra (may be NULL). */
static HT_UNUSED struct ht_world *ht_world_new(const char *extra, int kernel)
{
	struct ht_world *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	w->strs = hog_strtab_new();
	w->rules = hog_rules_new(w->strs);
	if (kernel)
		ht_rules_text(w->rules, HT_RULES);
	if (extra)
		ht_rules_text(w->rules, extra);
	return w;
}

static HT_UNUSED struct hog_module *ht_module(struct ht_world *w, const char *tu)
{
	struct hog_module *m = hog_module_new(w->strs, tu);

	assert_true(w->nmods < 8);
	w->mods[w->nmods++] = m;
	return m;
}

static HT_UNUSED void ht_solve(struct ht_world *w)
{
	int i;

	w->prog = hog_prog_new(w->strs, w->rules);
	for (i = 0; i < w->nmods; i++)
		hog_prog_add_module(w->prog, w->mods[i]);
	w->nmods = 0;
	hog_prog_solve(w->prog);
}

static HT_UNUSED void ht_world_free(struct ht_world *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; i < w->nmods; i++)
		hog_module_free(w->mods[i]);
	hog_prog_free(w->prog);
	hog_rules_free(w->rules);
	hog_strtab_free(w->strs);
	free(w);
}

static HT_UNUSED int ht_streq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

/* The findings of one kind (any kind if kind < 0) with this callee (NULL: any). */
static HT_UNUSED int ht_count(const struct hog_prog *p, int kind, const char *callee)
{
	int i, n = 0;

	for (i = 0; i < hog_prog_nfindings(p); i++) {
		const struct hog_finding *f = hog_prog_finding(p, i);

		if ((kind < 0 || (int)f->kind == kind) &&
		    (!callee || ht_streq(f->callee, callee)))
			n++;
	}
	return n;
}

static HT_UNUSED const struct hog_finding *ht_find(const struct hog_prog *p, int kind,
						    const char *callee)
{
	int i;

	for (i = 0; i < hog_prog_nfindings(p); i++) {
		const struct hog_finding *f = hog_prog_finding(p, i);

		if ((kind < 0 || (int)f->kind == kind) &&
		    (!callee || ht_streq(f->callee, callee)))
			return f;
	}
	return NULL;
}

static HT_UNUSED void ht_dump(const struct hog_prog *p)
{
	int i, j;

	for (i = 0; i < hog_prog_nfindings(p); i++) {
		const struct hog_finding *f = hog_prog_finding(p, i);
		char *msg = hog_finding_message(f, NULL);

		print_message("# finding %d: %s %s [%s] %s\n", i, hog_kind_name(f->kind),
			      hog_sev_name(f->sev), f->cls ? f->cls : "-", msg);
		free(msg);
		for (j = 0; j < f->npaths; j++) {
			char *t = hog_path_text(f, &f->paths[j]);

			print_message("#   path %d: %s (line %d, lock %s)\n", j, t,
				      f->paths[j].line,
				      f->paths[j].lock.name ? f->paths[j].lock.name : "-");
			free(t);
		}
	}
}

/* The chain of a path as "a -> b -> c". */
static HT_UNUSED void ht_assert_path(const struct hog_finding *f, int pi,
				     const char *want)
{
	char *t;

	assert_non_null(f);
	assert_true(pi < f->npaths);
	t = hog_path_text(f, &f->paths[pi]);
	if (strcmp(t, want))
		print_error("path %d is '%s', want '%s'\n", pi, t, want);
	assert_string_equal(t, want);
	free(t);
}

#endif
