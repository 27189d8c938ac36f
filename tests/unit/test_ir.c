// SPDX-License-Identifier: GPL-2.0
/*
 * The IR: the builder and hog_func_finish()'s checks, the text form's
 * round trip, and malformed payloads, which must give NULL and a
 * "line N: ..." message, never a crash.
 */
#include <sys/mman.h>
#include <unistd.h>
#include "hogtest.h"

struct it {
	struct hog_strtab *strs;
	struct hog_module *m;
	struct hog_buf buf, buf2;
	char *err;
};

static int setup(void **state)
{
	struct it *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	t->strs = hog_strtab_new();
	t->m = hog_module_new(t->strs, "mm/test.c");
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct it *t = *state;

	hog_module_free(t->m);
	hog_buf_free(&t->buf);
	hog_buf_free(&t->buf2);
	free(t->err);
	hog_strtab_free(t->strs);
	free(t);
	return 0;
}

/*
 * A module using every feature of the text form:
 *
 *	void holder(struct zone *zone, unsigned long flags)
 *	{
 *		spin_lock(&zone->lock);
 *		p = kmalloc(n, GFP_KERNEL);
 *		ok = !p;
 *		ops->fn();
 *		atomic_inc(&nr_free);
 *		if (ok) { do { ... } while (x == 0); }
 *		return x;
 *	}
 */
static void build_rich(struct hog_module *m)
{
	struct hog_func *f, *g;
	struct hog_phi *p;

	f = ht_fn(m, "holder", 0, 10, 4, 3, "zone", "", NULL);
	hog_func_set_vname(m, f, 0, "flags");
	hog_func_set_vname(m, f, 2, "ok");
	ht_call(m, f, 0, 11, "spin_lock", -1, "&$0/zone.lock", NULL);
	ht_call(m, f, 0, 12, "kmalloc", 1, "?", "#0xcc0", NULL);
	ht_assign(m, f, 0, 13, "!", 2, "v1");
	ht_assign(m, f, 0, 13, "!!", 0, "v2");
	ht_assign(m, f, 0, 13, NULL, 0, "&@memcg_stock#/memcg_stock_pcp.stock_lock");
	ht_icall(m, f, 0, 14);
	ht_atomic(m, f, 0, 15, "&@nr_free");
	ht_call(m, f, 0, 16, "consume", -1, "#-5", "#9223372036854775807", "v0", "?",
		NULL);
	ht_branch(m, f, 0, HC_NEZ, 2, 1, 2);
	p = hog_block_add_phi(m, &f->blocks[1], 3, 2);
	p->pred[0] = 0;
	p->val[0] = ht_val(m->strs, "#1");
	p->pred[1] = 1;
	p->val[1] = ht_val(m->strs, "v2");
	ht_call(m, f, 1, 17, "work", -1, "&$0^/zone.pages[]", NULL);
	ht_branch(m, f, 1, HC_EQZ, 3, 1, 2);
	ht_ret(m, f, 2, 18, "v3");
	ht_loop(m, f, 1, 17, -1, HL_OTHER, 1, 1);
	ht_loop(m, f, 1, 17, 8, HL_COUNTED, 1, 1);
	ht_loop(m, f, 1, 17, 1LL << 40, HL_PTRCHASE, 1, 1);
	ht_loop(m, f, 1, 17, -1, HL_PARENT_WALK, 1, 1);
	ht_loop(m, f, 1, 17, -1, HL_RETRY, 1, 1);
	ht_done(m, f);

	/* a header's static inline in a path that needs escaping */
	g = ht_fn_in(m, "include/my dir/100%\xc3\xa9.h", "helper", 1, 20, 0, 1, "p");
	g->flags = HOG_FN_ADDR | HOG_FN_COLD;
	ht_ret(m, g, 0, 21, NULL);
	ht_done(m, g);
}

/* ---- builder ---- */

static void test_builder_preds(void **state)
{
	struct it *t = *state;
	struct hog_func *f;

	build_rich(t->m);
	f = t->m->funcs[0];
	assert_int_equal(t->m->nfuncs, 2);
	assert_int_equal(f->blocks[0].npred, 0);
	assert_int_equal(f->blocks[1].npred, 2);
	assert_int_equal(f->blocks[2].npred, 2);
	assert_int_equal(f->blocks[1].pred[0], 0);
	assert_int_equal(f->blocks[1].pred[1], 1);
	assert_int_equal(f->blocks[0].nev, 8);
	assert_ptr_equal(f->blocks[0].ev[0].callee, hog_intern(t->strs, "spin_lock"));
	assert_ptr_equal(f->name, hog_intern(t->strs, "holder"));
	assert_ptr_equal(f->tu, t->m->tu);
	assert_ptr_equal(f->file, t->m->tu);
	assert_string_equal(f->vnames[0], "flags");
	assert_null(f->vnames[1]);
	assert_string_equal(f->params[1], "");
	assert_int_equal(f->nloops, 5);
	assert_int_equal(f->loops[2].bound, 1LL << 40);
	assert_string_equal(t->m->funcs[1]->file, "include/my dir/100%\xc3\xa9.h");
}

static void test_builder_many_events(void **state)
{
	struct it *t = *state;
	struct hog_func *f = ht_fn(t->m, "f", 0, 1, 0, 1, NULL);
	char name[32];
	int i;

	/* the event array grows by doubling: none may be lost */
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "fn%d", i);
		ht_call(t->m, f, 0, i + 1, name, -1, NULL);
	}
	ht_ret(t->m, f, 0, 200, NULL);
	ht_done(t->m, f);
	assert_int_equal(f->blocks[0].nev, 101);
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "fn%d", i);
		assert_string_equal(f->blocks[0].ev[i].callee, name);
		assert_int_equal(f->blocks[0].ev[i].line, i + 1);
	}
}

static void expect_finish_err(struct it *t, struct hog_func *f, const char *msg)
{
	const char *err = NULL;

	assert_int_equal(hog_func_finish(t->m, f, &err), -1);
	assert_non_null(err);
	assert_string_equal(err, msg);
}

static void test_finish_errors(void **state)
{
	struct it *t = *state;
	struct hog_module *m = t->m;
	struct hog_func *f;
	struct hog_phi *p;

	f = ht_fn(m, "no_blocks", 0, 1, 0, 0, NULL);
	expect_finish_err(t, f, "function has no blocks");

	f = ht_fn(m, "one_succ_cond", 0, 1, 1, 2, NULL);
	ht_succ(m, f, 0, 1, 1);
	f->blocks[0].cond = HC_NEZ;
	f->blocks[0].cond_var = 0;
	expect_finish_err(t, f, "conditional block needs two successors and a variable");

	f = ht_fn(m, "cond_var", 0, 1, 1, 3, NULL);
	ht_branch(m, f, 0, HC_EQZ, 1, 1, 2);
	expect_finish_err(t, f, "conditional block needs two successors and a variable");

	f = ht_fn(m, "succ", 0, 1, 0, 2, NULL);
	ht_succ(m, f, 0, 1, 2);
	expect_finish_err(t, f, "successor out of range");

	f = ht_fn(m, "neg_succ", 0, 1, 0, 2, NULL);
	ht_succ(m, f, 0, 1, -1);
	expect_finish_err(t, f, "successor out of range");

	f = ht_fn(m, "dst", 0, 1, 2, 1, NULL);
	ht_call(m, f, 0, 1, "g", 2, NULL);
	expect_finish_err(t, f, "event result variable out of range");

	f = ht_fn(m, "callee", 0, 1, 0, 1, NULL);
	hog_block_add_event(m, &f->blocks[0], HE_CALL, 1, 1, NULL, -1, 0);
	expect_finish_err(t, f, "call without callee");

	f = ht_fn(m, "arg", 0, 1, 1, 1, NULL);
	ht_call(m, f, 0, 1, "g", -1, "v1", NULL);
	expect_finish_err(t, f, "bad event argument");

	f = ht_fn(m, "phi_dst", 0, 1, 1, 1, NULL);
	hog_block_add_phi(m, &f->blocks[0], 1, 0);
	expect_finish_err(t, f, "phi result out of range");

	f = ht_fn(m, "phi_pred", 0, 1, 1, 1, NULL);
	p = hog_block_add_phi(m, &f->blocks[0], 0, 1);
	p->pred[0] = 5;
	p->val[0] = ht_val(m->strs, "#0");
	expect_finish_err(t, f, "bad phi argument");

	f = ht_fn(m, "loop_header", 0, 1, 0, 1, NULL);
	ht_loop(m, f, 1, 1, -1, HL_OTHER, 1, 0);
	expect_finish_err(t, f, "loop header out of range");

	f = ht_fn(m, "loop_block", 0, 1, 0, 1, NULL);
	ht_loop(m, f, 0, 1, -1, HL_OTHER, 2, 0, 7);
	expect_finish_err(t, f, "loop block out of range");
}

/* ---- text form ---- */

static struct hog_module *read_buf(struct it *t, const char *s, size_t len)
{
	free(t->err);
	t->err = NULL;
	return hog_module_read(t->strs, s, len, &t->err);
}

static void test_round_trip(void **state)
{
	struct it *t = *state;
	struct hog_module *r;
	struct hog_func *f;

	build_rich(t->m);
	hog_module_write(t->m, &t->buf);
	assert_true(!strncmp(t->buf.s, HOG_IR_MAGIC "\n", strlen(HOG_IR_MAGIC) + 1));
	r = read_buf(t, t->buf.s, t->buf.len);
	if (!r)
		print_error("%s\n---\n%s", t->err, t->buf.s);
	assert_non_null(r);
	hog_module_write(r, &t->buf2);
	assert_string_equal(t->buf2.s, t->buf.s);

	/* and what came back is the same function */
	assert_ptr_equal(r->tu, t->m->tu);
	assert_int_equal(r->nfuncs, 2);
	f = r->funcs[0];
	assert_ptr_equal(f->name, hog_intern(t->strs, "holder"));
	assert_int_equal(f->is_static, 0);
	assert_int_equal(f->nvars, 4);
	assert_int_equal(f->nparams, 2);
	assert_string_equal(f->params[0], "zone");
	assert_string_equal(f->params[1], "");
	assert_string_equal(f->vnames[2], "ok");
	assert_ptr_equal(f->tu, r->tu);
	assert_int_equal(f->blocks[0].cond, HC_NEZ);
	assert_int_equal(f->blocks[0].cond_var, 2);
	assert_int_equal(f->blocks[1].npred, 2);
	assert_int_equal(f->blocks[1].nphi, 1);
	assert_int_equal(f->blocks[1].phi[0].val[1].kind, HV_VAR);
	assert_int_equal(f->blocks[0].ev[1].args[1].cst, 0xcc0);
	assert_int_equal(f->blocks[0].ev[7].args[0].cst, -5);
	assert_string_equal(f->blocks[0].ev[2].callee, "!");
	assert_null(f->blocks[0].ev[4].callee);
	assert_int_equal(f->blocks[0].ev[5].kind, HE_ICALL);
	assert_int_equal(f->blocks[0].ev[6].kind, HE_ATOMIC);
	assert_ptr_equal(f->blocks[0].ev[6].args[0].addr, hog_intern(t->strs, "@nr_free"));
	assert_int_equal(f->loops[3].shape, HL_PARENT_WALK);
	assert_int_equal(f->loops[0].bound, -1);
	assert_int_equal(r->funcs[1]->is_static, 1);
	assert_int_equal(r->funcs[1]->flags, HOG_FN_ADDR | HOG_FN_COLD);
	assert_int_equal(r->funcs[0]->flags, 0);
	assert_string_equal(r->funcs[1]->file, "include/my dir/100%\xc3\xa9.h");
	hog_module_free(r);
}

static void test_round_trip_text(void **state)
{
	struct it *t = *state;
	static const char text[] =
		HOG_IR_MAGIC "\n"
		"T mm/page_alloc.c\n"
		"F free_pcppages_bulk 1 mm/page_alloc.c 1450 2 3 zone count pcp\n"
		"V 1 page\n"
		"C 1 63\n"
		"A m 1451 2 spinlock $0/zone.lock\n"
		"A c 1451 20 mutex @m\n"
		"B 1 1 -\n"
		"E h 1452 2 spinlock -1 1 &@hugetlb_lock\n"
		"E c 1452 2 spin_lock -1 1 &$0/zone.lock\n"
		"B 2 1 2 n0\n"
		"P 1 2 0: ? 1: v1\n"
		"E c 1460 3 __free_one_page 0 2 v1 &$0\n"
		"B 0 -\n"
		"E c 1470 2 spin_unlock -1 1 &$0/zone.lock\n"
		"E r 1471 1 - -1 0\n"
		"L 1 1455 2 -1 o 1 1\n"
		"L 2 1456 2 -1 o 1 2 s1-9\n"
		"F empty 0 - 0 0 0\n"
		"B 0 -\n"
		/* sign tests and steps (version 3): if (n > 0) -n; if (x >> 12 <= 0) */
		"F sign 1 x.c 1 5 1 n\n"
		"B 1 1 -\n"
		"B 2 2 3 g1\n"
		"E s 2 6 = 1 1 &$0\n"
		"B 1 3 -\n"
		"E s 3 4 neg 2 1 v1\n"
		"E s 3 4 u>> 3 1 v2\n"
		"B 2 4 5 l3\n"
		"B 1 5 -\n"
		"B 0 -\n"
		"E r 4 1 - -1 0\n"
		"L 2 3 4 -1 c 2 2 3 p0\n";
	struct hog_module *r = read_buf(t, text, sizeof(text) - 1);

	if (!r)
		print_error("%s\n", t->err);
	assert_non_null(r);
	hog_module_write(r, &t->buf);
	/* the writer ends the payload with a NUL */
	assert_int_equal(t->buf.len, sizeof(text));
	assert_int_equal(t->buf.s[t->buf.len - 1], 0);
	assert_string_equal(t->buf.s, text);
	assert_int_equal(r->nfuncs, 3);
	assert_string_equal(r->funcs[1]->file, "");
	assert_int_equal(r->funcs[0]->nannots, 2);
	assert_int_equal(r->funcs[0]->annots[1].kind, HA_COND_ACQUIRES);
	assert_string_equal(r->funcs[0]->annots[0].expr, "$0/zone.lock");
	assert_int_equal(r->funcs[0]->blocks[0].ev[0].kind, HE_HELD);
	assert_int_equal(r->funcs[2]->blocks[1].cond, HC_GTZ);
	assert_int_equal(r->funcs[2]->blocks[1].cond_var, 1);
	assert_int_equal(r->funcs[2]->blocks[3].cond, HC_LEZ);
	assert_int_equal(r->funcs[2]->loops[0].bound_param, 0);
	assert_int_equal(r->funcs[0]->loops[0].bound_param, -1);
	assert_int_equal(r->funcs[2]->loops[0].bound_shift, -1);
	/* "for (nr = 1 << (count - 9); nr--; )": at most 1 << (count - 9) */
	assert_int_equal(r->funcs[0]->loops[1].bound_param, 1);
	assert_int_equal(r->funcs[0]->loops[1].bound_shift, 9);
	/* caps: the one written, none for the others, none at all elsewhere */
	assert_int_equal(hog_func_vcap(r->funcs[0], 1), 63);
	assert_int_equal(hog_func_vcap(r->funcs[0], 0), -1);
	assert_int_equal(hog_func_vcap(r->funcs[0], 5), -1);
	assert_int_equal(hog_func_vcap(r->funcs[2], 1), -1);
	hog_module_free(r);
}

static void test_round_trip_own_strtab(void **state)
{
	struct it *t = *state;
	struct hog_module *r;
	char *err = NULL;

	build_rich(t->m);
	hog_module_write(t->m, &t->buf);
	r = hog_module_read(NULL, t->buf.s, t->buf.len, &err);
	assert_non_null(r);
	assert_int_equal(r->own_strs, 1);
	hog_module_write(r, &t->buf2);
	assert_string_equal(t->buf2.s, t->buf.s);
	hog_module_free(r);
}

/* A name that is a lone dash must not come back as the empty name. */
static void test_round_trip_dash_name(void **state)
{
	struct it *t = *state;
	struct hog_module *m = hog_module_new(t->strs, "-");
	struct hog_func *f = ht_fn(m, "f", 0, 1, 1, 1, "-", NULL);
	struct hog_module *r;

	hog_func_set_vname(m, f, 0, "-");
	ht_ret(m, f, 0, 2, NULL);
	ht_done(m, f);
	hog_module_write(m, &t->buf);
	r = read_buf(t, t->buf.s, t->buf.len);
	assert_non_null(r);
	hog_module_write(r, &t->buf2);
	hog_module_free(m);
	if (strcmp(t->buf.s, t->buf2.s))
		print_error("wrote:\n%sread back as:\n%s", t->buf.s, t->buf2.s);
	assert_string_equal(r->tu, "-");
	assert_string_equal(r->funcs[0]->params[0], "-");
	hog_module_free(r);
	assert_string_equal(t->buf2.s, t->buf.s);
}

static void test_read_empty_module(void **state)
{
	struct it *t = *state;
	struct hog_module *r = read_buf(t, "lockhog-ir 3", 12);

	assert_non_null(r);
	assert_int_equal(r->nfuncs, 0);
	hog_module_free(r);
	r = read_buf(t, "lockhog-ir 3\n\nT a.c\n\n", 21);
	assert_non_null(r);
	assert_string_equal(r->tu, "a.c");
	hog_module_free(r);
}

/* ---- malformed payloads ---- */

static void expect_read_err(struct it *t, const char *text, const char *msg)
{
	struct hog_module *r = read_buf(t, text, strlen(text));

	if (r || !t->err || strcmp(t->err, msg))
		print_error("payload:\n%s\n got: %s\nwant: %s\n", text,
			    t->err ? t->err : "(none)", msg);
	assert_null(r);
	assert_non_null(t->err);
	assert_string_equal(t->err, msg);
}

#define HDR HOG_IR_MAGIC "\nT a.c\n"
#define FN HDR "F f 0 a.c 1 2 1 x\n"

static void test_read_bad_magic(void **state)
{
	struct it *t = *state;

	expect_read_err(t, "lockhog-ir 3 \n", "line 1: not a lockhog-ir 3 payload");
	expect_read_err(t, "lockhog-ir\n", "line 1: not a lockhog-ir 3 payload");
	expect_read_err(t, "lockhog-ir x\n", "line 1: not a lockhog-ir 3 payload");
	expect_read_err(t, "\x7f" "ELF\x02\x01\x01", "line 1: not a lockhog-ir 3 payload");
	expect_read_err(t, "T a.c\nlockhog-ir 3\n", "line 1: not a lockhog-ir 3 payload");
}

/* another version of the format is named, with what to do about it */
static void test_read_other_version(void **state)
{
	struct it *t = *state;

	expect_read_err(t, "lockhog-ir 1\nT a.c\n",
			"built by an older lockhog (lockhog-ir 1, this one reads 3); rebuild it");
	expect_read_err(t, "lockhog-ir 2\nT a.c\n",
			"built by an older lockhog (lockhog-ir 2, this one reads 3); rebuild it");
	expect_read_err(t, "lockhog-ir 7\nT a.c\n",
			"built by a newer lockhog (lockhog-ir 7, this one reads 3); rebuild it");
}

/* ld -r concatenates payloads, with zero padding between them */
static void test_section_payloads(void **state)
{
	static const char sec[] = "\0\0" HOG_IR_MAGIC "\nT a.c\n\0\0\0\0" HOG_IR_MAGIC
				  "\nT b.c\n\0" HOG_IR_MAGIC "\nT c.c\n";
	const char *tus[] = { "a.c", "b.c", "c.c" };
	struct it *t = *state;
	size_t off = 0, len;
	const char *pl;
	int n = 0;

	while (hog_section_next(sec, sizeof(sec) - 1, &off, &pl, &len)) {
		struct hog_module *r;

		assert_true(n < 3);
		assert_null(memchr(pl, 0, len));
		r = read_buf(t, pl, len);
		assert_non_null(r);
		assert_string_equal(r->tu, tus[n]);
		hog_module_free(r);
		n++;
	}
	assert_int_equal(n, 3);
	assert_int_equal(off, sizeof(sec) - 1);
	off = 0;
	assert_int_equal(hog_section_next("\0\0\0", 3, &off, &pl, &len), 0);
	/* one payload read as if it were the whole section is refused */
	{
		static const char two[] = HOG_IR_MAGIC "\nT a.c\n\0" HOG_IR_MAGIC "\nT b.c\n";

		assert_null(read_buf(t, two, sizeof(two) - 1));
		assert_string_equal(t->err, "more than one payload: read the section with hog_section_next()");
	}
}

static void test_read_empty_payload(void **state)
{
	struct it *t = *state;
	struct hog_module *r = read_buf(t, "", 0);

	assert_null(r);
	assert_non_null(t->err);
	assert_true(!strncmp(t->err, "line ", 5));
	assert_non_null(strstr(t->err, "empty payload"));
}

/* G: a function a static initializer stores in a field, read back as written */
static void test_init_regs(void **state)
{
	struct it *t = *state;
	static const char text[] = HDR "G pool_attr 12 kobj_attribute.store pool_store\n"
				   "F f 0 a.c 1 0 0\nB 0 -\n";
	struct hog_module *r = read_buf(t, text, sizeof(text) - 1);

	assert_non_null(r);
	assert_int_equal(r->nregs, 1);
	assert_string_equal(r->regs[0].var, "pool_attr");
	assert_int_equal(r->regs[0].line, 12);
	assert_string_equal(r->regs[0].cls, "kobj_attribute.store");
	assert_string_equal(r->regs[0].func, "pool_store");
	hog_module_write(r, &t->buf);
	assert_string_equal(t->buf.s, text);
	hog_module_free(r);
	expect_read_err(t, FN "G v 1 s.f fn\n", "line 4: initializer record after a function");
	expect_read_err(t, HDR "G v 1 - fn\n", "line 3: empty word in an initializer record");
	expect_read_err(t, HDR "G v 1 s.f fn x\n", "line 3: trailing text");
}

static void test_read_bad_values(void **state)
{
	struct it *t = *state;

	expect_read_err(t, FN "B 0 -\nE c 2 1 g -1 1 x\n", "line 5: bad value");
	expect_read_err(t, FN "B 0 -\nE c 2 1 g -1 1 ??\n", "line 5: bad value");
	expect_read_err(t, FN "B 0 -\nE c 2 1 g -1 1 #12a\n", "line 5: bad constant");
	expect_read_err(t, FN "B 0 -\nE c 2 1 g -1 1 #\n", "line 5: bad constant");
	expect_read_err(t, FN "B 0 -\nE c 2 1 g -1 1 v-1\n", "line 5: bad variable");
	expect_read_err(t, FN "B 0 -\nE c 2 1 g -1 1 vx\n", "line 5: bad variable");
	expect_read_err(t, FN "B 0 -\nE c 2 1 g -1 1 &\n", "line 5: empty address");
	expect_read_err(t, FN "B 0 -\nE c 2 1 g -1 2 ?\n", "line 5: missing field");
	expect_read_err(t, FN "B 0 -\nE c 2 1 g -1 1 ? ?\n", "line 5: trailing text");
	expect_read_err(t, FN "B 0 -\nE q 2 1 g -1 0\n", "line 5: bad event kind");
	expect_read_err(t, FN "B 0 -\nE cc 2 1 g -1 0\n", "line 5: bad event kind");
	expect_read_err(t, FN "B 0 -\nE c x 1 g -1 0\n", "line 5: bad number");
	expect_read_err(t, FN "B 0 -\nE c 2 1 g -2 0\n", "line 5: bad number");
	expect_read_err(t, FN "B 0 -\nE c 2 1 g -1 257\n", "line 5: bad number");
	expect_read_err(t, HDR "F f 16 a.c 1 0 0\n", "line 3: bad number");
	expect_read_err(t, HDR "F f 0 a.c 1 0 1\n", "line 3: missing field");
	expect_read_err(t, HDR "F f 0 a.c 1 0 0 extra\n", "line 3: trailing text");
	expect_read_err(t, HDR "F f 0 a.c 1 99999999999 0\n", "line 3: bad number");
}

static void test_read_bad_structure(void **state)
{
	struct it *t = *state;

	expect_read_err(t, HDR "B 0 -\n", "line 3: block outside a function");
	expect_read_err(t, HDR "E r 1 1 - -1 0\n", "line 3: line outside a block");
	expect_read_err(t, FN "E r 1 1 - -1 0\n", "line 4: line outside a block");
	expect_read_err(t, FN "P 0 0\n", "line 4: line outside a block");
	expect_read_err(t, HDR "L 0 1 1 -1 o 1 0\n", "line 3: loop outside a function");
	expect_read_err(t, HDR "V 0 x\n", "line 3: variable name outside a function header");
	expect_read_err(t, FN "B 0 -\nV 0 x\n",
			"line 5: variable name outside a function header");
	expect_read_err(t, FN "V 2 x\n", "line 4: bad number");
	expect_read_err(t, HDR "C 0 1\n", "line 3: variable cap outside a function header");
	expect_read_err(t, FN "B 0 -\nC 0 1\n", "line 5: variable cap outside a function header");
	expect_read_err(t, FN "C 2 1\n", "line 4: bad number");
	expect_read_err(t, FN "C 0 -1\n", "line 4: bad number");
	expect_read_err(t, FN "C 0 1 x\n", "line 4: trailing text");
	expect_read_err(t, HDR "X 1 2\n", "line 3: unknown record");
	expect_read_err(t, HDR "Fx\n", "line 3: malformed line");
	expect_read_err(t, HDR "F\n", "line 3: malformed line");
	expect_read_err(t, FN "B 1 0 q0\n", "line 4: bad condition");
	expect_read_err(t, FN "B 2 0 0 n\n", "line 4: bad condition");
	expect_read_err(t, FN "B 2 0 0 gx\n", "line 4: bad condition");
	expect_read_err(t, FN "B 1 0 - x\n", "line 4: trailing text");
	expect_read_err(t, FN "B 4097 0\n", "line 4: bad number");
	expect_read_err(t, FN "B 65 0\n", "line 4: missing field");
	expect_read_err(t, FN "B 0 -\nL 0 1 1 -1 x 1 0\n", "line 5: bad loop shape");
	expect_read_err(t, FN "B 0 -\nL 0 1 1 -2 o 1 0\n", "line 5: bad number");
	expect_read_err(t, FN "B 0 -\nL 0 1 1 -1 o 1 0 p9\n", "line 5: bad loop bound parameter");
	expect_read_err(t, FN "B 0 -\nL 0 1 1 -1 o 1 0 q0\n", "line 5: trailing text");
	expect_read_err(t, FN "B 0 -\nL 0 1 1 -1 o 1 0 s0\n", "line 5: bad loop bound shift");
	expect_read_err(t, FN "B 0 -\nL 0 1 1 -1 o 1 0 s0-64\n", "line 5: bad loop bound shift");
	expect_read_err(t, FN "B 0 -\nL 0 1 1 -1 o 1 0 s0-2x\n", "line 5: bad loop bound parameter");
	expect_read_err(t, FN "B 0 -\nP 0 1 0?\n", "line 5: bad phi argument");
	expect_read_err(t, FN "B 0 -\nP 0 1 x:?\n", "line 5: bad phi argument");
	expect_read_err(t, HDR "A m 1 1 spinlock $0\n", "line 3: annotation outside a function header");
	expect_read_err(t, FN "B 0 -\nA m 1 1 spinlock $0\n",
			"line 5: annotation outside a function header");
	expect_read_err(t, FN "A x 1 1 spinlock $0\n", "line 4: bad annotation kind");
	expect_read_err(t, FN "A m 1 1 spinlock -\n", "line 4: annotation without a lock");
	expect_read_err(t, FN "A m 1 1 spinlock $0 x\n", "line 4: trailing text");
}

/* hog_func_finish()'s checks, reached through the reader */
static void test_read_bad_function(void **state)
{
	struct it *t = *state;

	expect_read_err(t, FN "B 1 1 -\n", "line 4: function f: successor out of range");
	expect_read_err(t, FN, "line 3: function f: function has no blocks");
	expect_read_err(t, FN "B 2 0 0 n5\nE r 1 1 - -1 0\n",
			"line 5: function f: conditional block needs two successors and a variable");
	expect_read_err(t, FN "B 0 -\nE c 1 1 - -1 0\n", "line 5: function f: call without callee");
	expect_read_err(t, FN "B 0 -\nE c 1 1 g 2 0\n",
			"line 5: function f: event result variable out of range");
	expect_read_err(t, FN "B 0 -\nE c 1 1 g -1 1 v2\n", "line 5: function f: bad event argument");
	expect_read_err(t, FN "B 0 -\nP 0 1 3:?\n", "line 5: function f: bad phi argument");
	expect_read_err(t, FN "B 0 -\nL 1 1 1 -1 o 1 0\n",
			"line 5: function f: loop header out of range");
	expect_read_err(t, FN "B 0 -\nL 0 1 1 -1 o 1 4\n",
			"line 5: function f: loop block out of range");
}

/*
 * A bad successor in the middle of the payload: the message names the
 * function, and its line should be the block's own line.
 */
static void test_read_bad_successor_mid(void **state)
{
	struct it *t = *state;
	static const char text[] = FN
		"B 1 7 -\n"			/* line 4 */
		"E r 1 1 - -1 0\n"
		"F g 0 a.c 9 0 0\n"
		"B 0 -\n"
		"E r 9 1 - -1 0\n";
	struct hog_module *r = read_buf(t, text, sizeof(text) - 1);

	assert_null(r);
	assert_non_null(t->err);
	assert_true(!strncmp(t->err, "line ", 5));
	assert_non_null(strstr(t->err, "function f: successor out of range"));
}

static void test_read_bad_successor_line(void **state)
{
	struct it *t = *state;

	expect_read_err(t, FN
			"B 1 7 -\n"
			"E r 1 1 - -1 0\n"
			"F g 0 a.c 9 0 0\n"
			"B 0 -\n"
			"E r 9 1 - -1 0\n",
			"line 4: function f: successor out of range");
}

/*
 * A copy of text whose last byte is the last byte of a page, followed
 * by a page that cannot be read: any look past len faults at once.
 */
struct guarded {
	char *map;
	size_t maplen;
	char *text;
};

static void guarded_copy(struct guarded *g, const char *text, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = (len + pg - 1) / pg + 1;

	g->maplen = pages * pg;
	g->map = mmap(NULL, g->maplen, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(g->map != MAP_FAILED);
	assert_int_equal(mprotect(g->map + (pages - 1) * pg, pg, PROT_NONE), 0);
	g->text = g->map + (pages - 1) * pg - len;
	memcpy(g->text, text, len);
}

static void guarded_free(struct guarded *g)
{
	munmap(g->map, g->maplen);
}

/* The reader stops at len, even inside a larger buffer. */
static void test_read_respects_len(void **state)
{
	struct it *t = *state;
	static const char text[] = FN "B 0 -\nE r 2 1 - -1 0\n" "GARBAGE that is not IR\n";
	size_t len = strlen(FN "B 0 -\nE r 2 1 - -1 0\n");
	struct hog_module *r = read_buf(t, text, len);

	assert_non_null(r);
	assert_int_equal(r->nfuncs, 1);
	hog_module_free(r);
}

/*
 * A payload cut short inside a phi: nothing readable follows the last
 * byte, and the reader must not look past it.
 */
static void test_read_phi_at_end_exact_buffer(void **state)
{
	struct it *t = *state;
	static const char cut[] = FN "B 0 -\nP 0 1 ";
	static const char whole[] = FN "B 0 -\nP 0 1 0: ?\nE r 2 1 - -1 0\n";
	struct guarded g;
	struct hog_module *r;

	guarded_copy(&g, cut, sizeof(cut) - 1);
	r = read_buf(t, g.text, sizeof(cut) - 1);
	guarded_free(&g);
	assert_null(r);
	assert_true(t->err && !strncmp(t->err, "line 5: ", 8));
	/* the writer's own spelling, "0: ?", is fine */
	r = read_buf(t, whole, sizeof(whole) - 1);
	assert_non_null(r);
	hog_module_free(r);
}

/* Every prefix and many one-byte changes of a good payload: never a crash. */
/* every refusal says where, or says which payload rule it broke */
static int err_ok(const char *err)
{
	return err && (!strncmp(err, "line ", 5) || !strncmp(err, "built by ", 9) ||
		       !strncmp(err, "more than one payload", 21));
}

static void test_read_fuzz(void **state)
{
	struct it *t = *state;
	static const char bytes[] = { 0, ' ', '\n', '-', '#', '%', '&', '9', 'v', 'z', '\xff' };
	size_t len, i, k;
	char *copy;

	build_rich(t->m);
	hog_module_write(t->m, &t->buf);
	len = t->buf.len;
	for (i = 0; i <= len; i++) {
		struct hog_module *r;
		struct guarded g;

		guarded_copy(&g, t->buf.s, i);
		r = read_buf(t, g.text, i);
		guarded_free(&g);
		if (!r)
			assert_true(err_ok(t->err));
		hog_module_free(r);
	}
	for (i = 0; i < len; i++)
		for (k = 0; k < sizeof(bytes); k++) {
			struct hog_module *r;

			copy = malloc(len);
			memcpy(copy, t->buf.s, len);
			copy[i] = bytes[k];
			r = read_buf(t, copy, len);
			if (!r)
				assert_true(err_ok(t->err));
			hog_module_free(r);
			free(copy);
		}
}

/* ---- the support the IR is built on ---- */

static void test_util_intern(void **state)
{
	struct it *t = *state;
	char buf[32];
	const char *a, *b;
	int i;

	a = hog_intern(t->strs, "zone.lock");
	snprintf(buf, sizeof(buf), "zone.%s", "lock");
	b = hog_intern(t->strs, buf);
	assert_ptr_equal(a, b);
	assert_ptr_not_equal(a, buf);
	assert_ptr_equal(hog_intern_n(t->strs, "zone.lockXYZ", 9), a);
	assert_ptr_not_equal(hog_intern(t->strs, "zone.loc"), a);
	assert_string_equal(hog_intern(t->strs, ""), "");
	assert_null(hog_intern(t->strs, NULL));
	/* growing the table keeps every string where it was */
	for (i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "name%d", i);
		hog_intern(t->strs, buf);
	}
	assert_ptr_equal(hog_intern(t->strs, "zone.lock"), a);
	assert_string_equal(hog_intern(t->strs, "name4999"), "name4999");
}

static void test_util_map_vec(void **state)
{
	struct hog_map *m = hog_map_new();
	struct hog_vec v = { 0 };
	static int keys[300];
	size_t it = 0;
	const void *k;
	void *val;
	int i, n = 0;

	for (i = 0; i < 300; i++) {
		hog_map_put(m, &keys[i], &keys[299 - i]);
		hog_vec_push(&v, &keys[i]);
	}
	hog_map_put(m, &keys[0], &keys[7]);	/* replaces */
	assert_int_equal(hog_map_count(m), 300);
	assert_ptr_equal(hog_map_get(m, &keys[0]), &keys[7]);
	assert_ptr_equal(hog_map_get(m, &keys[150]), &keys[149]);
	assert_null(hog_map_get(m, &n));
	while (hog_map_next(m, &it, &k, &val))
		n++;
	assert_int_equal(n, 300);
	assert_int_equal(v.n, 300);
	assert_ptr_equal(v.v[299], &keys[299]);
	hog_vec_free(&v);
	assert_int_equal(v.n, 0);
	hog_map_free(m);
}

static void test_util_buf_hash(void **state)
{
	struct hog_buf b = { 0 };
	char *s;
	int i;

	for (i = 0; i < 1000; i++)
		hog_buf_printf(&b, "%d,", i);
	assert_int_equal(b.len, strlen(b.s));
	assert_true(!strncmp(b.s, "0,1,2,", 6));
	hog_buf_addn(&b, "xyz", 2);
	assert_string_equal(b.s + b.len - 6, "999,xy");
	hog_buf_free(&b);
	s = hog_xasprintf("%s-%d", "lock", 7);
	assert_string_equal(s, "lock-7");
	free(s);
	/* FNV-1a: fingerprints must not change between hosts or releases */
	assert_true(hog_hash64("", 0, 0) == 0xcbf29ce484222325ULL);
	assert_true(hog_hash64("a", 1, 0) == 0xaf63dc4c8601ec8cULL);
	assert_true(hog_hash64("foobar", 6, 0) == 0x85944171f73967e8ULL);
}

static void test_util_write_file_atomic(void **state)
{
	char path[] = "/tmp/lockhog-unit-XXXXXX";
	char buf[64];
	FILE *f;
	size_t n;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(hog_write_file_atomic(path, "lockhog-ir 1\n", 13), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	unlink(path);
	assert_int_equal(n, 13);
	assert_memory_equal(buf, "lockhog-ir 1\n", 13);
	assert_int_equal(hog_write_file_atomic("/nonexistent-dir/x", "a", 1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_builder_preds),
		T(test_builder_many_events),
		T(test_finish_errors),
		T(test_round_trip),
		T(test_round_trip_text),
		T(test_round_trip_own_strtab),
		T(test_round_trip_dash_name),
		T(test_read_empty_module),
		T(test_read_bad_magic),
		T(test_read_other_version),
		T(test_section_payloads),
		T(test_read_empty_payload),
		T(test_read_bad_values),
		T(test_init_regs),
		T(test_read_bad_structure),
		T(test_read_bad_function),
		T(test_read_bad_successor_mid),
		T(test_read_bad_successor_line),
		T(test_read_respects_len),
		T(test_read_phi_at_end_exact_buffer),
		T(test_read_fuzz),
		T(test_util_intern),
		T(test_util_map_vec),
		T(test_util_buf_hash),
		T(test_util_write_file_atomic),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
