// SPDX-License-Identifier: GPL-2.0
/*
 * The rules catalogue parser: what each directive records, and one test
 * per class of error with the exact "PATH:LINE: message" it gives.
 */
#include <unistd.h>
#include "hogtest.h"

struct rt {
	struct hog_strtab *strs;
	struct hog_rules *r;
	char *err;
};

static int setup(void **state)
{
	struct rt *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	t->strs = hog_strtab_new();
	t->r = hog_rules_new(t->strs);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct rt *t = *state;

	free(t->err);
	hog_rules_free(t->r);
	hog_strtab_free(t->strs);
	free(t);
	return 0;
}

static int parse(struct rt *t, const char *text)
{
	free(t->err);
	t->err = NULL;
	return hog_rules_parse(t->r, "t.rules", text, strlen(text), &t->err);
}

/* Parsing text must fail with exactly msg. */
static void expect_err(struct rt *t, const char *text, const char *msg)
{
	int ret = parse(t, text);

	if (ret != -1 || !t->err || strcmp(t->err, msg))
		print_error("text: %s\n got: %d '%s'\nwant: '%s'\n", text, ret,
			    t->err ? t->err : "(none)", msg);
	assert_int_equal(ret, -1);
	assert_non_null(t->err);
	assert_string_equal(t->err, msg);
}

static const struct hog_rule *find(struct rt *t, const char *name,
				   enum hog_rule_kind k)
{
	return hog_rules_find(t->r, hog_intern(t->strs, name), k);
}

/* ---- valid rules ---- */

static void test_lock_fields(void **state)
{
	struct rt *t = *state;
	const struct hog_rule *x;

	assert_int_equal(parse(t,
		"lock spin_lock op=acquire arg=0 kind=spin\n"
		"lock spin_unlock_irqrestore op=release arg=0 kind=spin irq=restore flags=arg1\n"
		"lock _raw_spin_lock_irqsave op=acquire arg=0 kind=spin irq=save\n"
		"lock bit_spin_lock op=acquire arg=1 kind=bit bit=0\n"), 0);
	x = find(t, "spin_lock", HR_LOCK);
	assert_non_null(x);
	assert_int_equal(x->kind, HR_LOCK);
	assert_int_equal(x->op, HOP_ACQUIRE);
	assert_int_equal(x->arg, 0);
	assert_ptr_equal(x->lock_kind, hog_intern(t->strs, "spin"));
	assert_int_equal(x->sleeping, 0);
	assert_int_equal(x->irq, HIRQ_NONE);
	assert_int_equal(x->flags, -1);
	assert_int_equal(x->bit_arg, -1);
	assert_string_equal(x->file, "t.rules");
	assert_int_equal(x->line, 1);

	x = find(t, "spin_unlock_irqrestore", HR_LOCK);
	assert_int_equal(x->op, HOP_RELEASE);
	assert_int_equal(x->irq, HIRQ_RESTORE);
	assert_int_equal(x->flags, 1);
	assert_int_equal(x->line, 2);

	/* irq=save without flags: the flags come back as the return value */
	x = find(t, "_raw_spin_lock_irqsave", HR_LOCK);
	assert_int_equal(x->irq, HIRQ_SAVE);
	assert_int_equal(x->flags, -2);

	x = find(t, "bit_spin_lock", HR_LOCK);
	assert_int_equal(x->arg, 1);
	assert_int_equal(x->bit_arg, 0);
	assert_string_equal(x->lock_kind, "bit");
	assert_int_equal(t->r->all.n, 4);
}

static void test_lock_trylock_and_sleeping(void **state)
{
	struct rt *t = *state;

	assert_int_equal(parse(t,
		"lock spin_trylock op=trylock arg=0 kind=spin cond=nonzero\n"
		"lock pcp_spin_trylock op=trylock arg=0 kind=spin cond=nonnull\n"
		"lock mutex_lock_killable op=trylock arg=0 kind=mutex cond=zero\n"
		"lock down_read op=acquire arg=0 kind=rwsem_read\n"
		"lock down_write op=acquire arg=0 kind=rwsem_write\n"
		"lock rcu_read_lock op=acquire arg=0 kind=rcu\n"
		"lock local_lock op=acquire arg=0 kind=local\n"), 0);
	assert_int_equal(find(t, "spin_trylock", HR_LOCK)->op, HOP_TRYLOCK);
	assert_int_equal(find(t, "spin_trylock", HR_LOCK)->cond, HTRY_NONZERO);
	assert_int_equal(find(t, "pcp_spin_trylock", HR_LOCK)->cond, HTRY_NONNULL);
	assert_int_equal(find(t, "mutex_lock_killable", HR_LOCK)->cond, HTRY_ZERO);
	assert_int_equal(find(t, "mutex_lock_killable", HR_LOCK)->sleeping, 1);
	assert_int_equal(find(t, "down_read", HR_LOCK)->sleeping, 1);
	assert_int_equal(find(t, "down_write", HR_LOCK)->sleeping, 1);
	assert_int_equal(find(t, "rcu_read_lock", HR_LOCK)->sleeping, 0);
	assert_int_equal(find(t, "local_lock", HR_LOCK)->sleeping, 0);
	assert_int_equal(find(t, "spin_trylock", HR_LOCK)->sleeping, 0);
}

static void test_irq_preempt(void **state)
{
	struct rt *t = *state;
	const struct hog_rule *x;

	assert_int_equal(parse(t,
		"irq arch_local_irq_save op=save flags=ret\n"
		"irq local_irq_save op=save flags=arg0\n"
		"irq local_irq_restore op=restore flags=arg0\n"
		"irq local_irq_disable op=disable\n"
		"irq local_irq_enable op=enable\n"
		"irq bare_save op=save\n"
		"preempt __preempt_count_add op=disable when=arg0==1\n"
		"preempt __preempt_count_sub op=enable when=arg0==1\n"
		"preempt preempt_enable op=enable\n"), 0);
	assert_int_equal(find(t, "arch_local_irq_save", HR_IRQ)->op, HIRQ_SAVE);
	assert_int_equal(find(t, "arch_local_irq_save", HR_IRQ)->flags, -2);
	assert_int_equal(find(t, "local_irq_save", HR_IRQ)->flags, 0);
	assert_int_equal(find(t, "local_irq_restore", HR_IRQ)->op, HIRQ_RESTORE);
	assert_int_equal(find(t, "local_irq_restore", HR_IRQ)->flags, 0);
	assert_int_equal(find(t, "local_irq_disable", HR_IRQ)->op, HIRQ_DISABLE);
	assert_int_equal(find(t, "local_irq_enable", HR_IRQ)->op, HIRQ_ENABLE);
	assert_int_equal(find(t, "bare_save", HR_IRQ)->flags, -2);

	x = find(t, "__preempt_count_add", HR_PREEMPT);
	assert_int_equal(x->op, 1);
	assert_int_equal(x->when.arg, 0);
	assert_int_equal(x->when.op, '=');
	assert_int_equal(x->when.val, 1);
	assert_int_equal(find(t, "__preempt_count_sub", HR_PREEMPT)->op, -1);
	x = find(t, "preempt_enable", HR_PREEMPT);
	assert_int_equal(x->op, -1);
	assert_int_equal(x->when.arg, -1);
}

static void test_cost_and_others(void **state)
{
	struct rt *t = *state;
	const struct hog_rule *x;

	assert_int_equal(parse(t,
		"cost kmalloc class=sleep when=arg1&0x400 \"may enter reclaim\"\n"
		"cost css_put class=refcount-release \"a \\\"quoted\\\" reason\"\n"
		"lockbreak cond_resched_lock op=break arg=0\n"
		"lockbreak need_resched op=test\n"
		"lockbreak plain_break arg=2\n"
		"passthrough spinlock_check arg=0\n"
		"atomic atomic_long_add arg=arg1\n"
		"cheap find_next_bit\n"
		"cost vfree class=sleep unless=in-interrupt \"may sleep\"\n"
		"lock spin_lock_bh op=acquire arg=0 kind=spin bh=disable\n"), 0);
	assert_true(find(t, "vfree", HR_COST)->unless_intr);
	assert_true(find(t, "spin_lock_bh", HR_LOCK)->bh_off);
	assert_false(find(t, "css_put", HR_COST)->unless_intr);
	x = find(t, "kmalloc", HR_COST);
	assert_non_null(x);
	assert_ptr_equal(x->cls, hog_intern(t->strs, "sleep"));
	assert_string_equal(x->reason, "may enter reclaim");
	assert_int_equal(x->when.arg, 1);
	assert_int_equal(x->when.op, '&');
	assert_int_equal(x->when.val, 0x400);
	x = find(t, "css_put", HR_COST);
	assert_string_equal(x->cls, "refcount-release");
	assert_string_equal(x->reason, "a \"quoted\" reason");
	assert_int_equal(x->when.arg, -1);

	assert_int_equal(find(t, "cond_resched_lock", HR_LOCKBREAK)->op, HBRK_BREAK);
	assert_int_equal(find(t, "cond_resched_lock", HR_LOCKBREAK)->arg, 0);
	assert_int_equal(find(t, "need_resched", HR_LOCKBREAK)->op, HBRK_TEST);
	assert_int_equal(find(t, "need_resched", HR_LOCKBREAK)->arg, -1);
	assert_int_equal(find(t, "plain_break", HR_LOCKBREAK)->op, HBRK_BREAK);
	assert_int_equal(find(t, "plain_break", HR_LOCKBREAK)->arg, 2);
	assert_int_equal(find(t, "spinlock_check", HR_PASSTHROUGH)->arg, 0);
	assert_int_equal(find(t, "atomic_long_add", HR_ATOMIC)->arg, 1);
	assert_non_null(find(t, "find_next_bit", HR_CHEAP));
	/* asking for another kind finds nothing */
	assert_null(find(t, "find_next_bit", HR_COST));
	assert_null(find(t, "no_such_function", HR_LOCK));
}

static void test_strip_and_loop_policy(void **state)
{
	struct rt *t = *state;

	/* defaults before any loop line */
	assert_int_equal(t->r->loop.max_bound, 64);
	assert_int_equal(t->r->loop.listwalk, 0);
	assert_int_equal(t->r->loop.min_calls, 1);
	assert_int_equal(t->r->loop.max_chain, 8);
	assert_int_equal(t->r->loop.nest_fold, 1);
	assert_int_equal(parse(t,
		"strip rlock raw_lock\n"
		"loop bound=16 listwalk=report calls=2 chain=4 nest=report\n"), 0);
	assert_int_equal(t->r->loop.nest_fold, 0);
	assert_true(hog_rules_is_strip(t->r, hog_intern(t->strs, "rlock")));
	assert_true(hog_rules_is_strip(t->r, hog_intern(t->strs, "raw_lock")));
	assert_false(hog_rules_is_strip(t->r, hog_intern(t->strs, "lock")));
	assert_int_equal(t->r->loop.max_bound, 16);
	assert_int_equal(t->r->loop.listwalk, 1);
	assert_int_equal(t->r->loop.min_calls, 2);
	assert_int_equal(t->r->loop.max_chain, 4);
	assert_int_equal(parse(t, "loop listwalk=ignore nest=fold\n"), 0);
	assert_int_equal(t->r->loop.listwalk, 0);
	assert_int_equal(t->r->loop.nest_fold, 1);
	assert_int_equal(t->r->loop.max_bound, 16);
}

static void test_frontend_names(void **state)
{
	struct rt *t = *state;

	assert_int_equal(parse(t,
		"lock-type struct spinlock mutex\n"
		"lock-type typedef rwlock_t\n"
		"parent-field page_counter.parent\n"
		"parent-call parent_mem_cgroup\n"
		"percpu-asm x86_64 %gs: \"%fs:\"\n"), 0);
	/* exact names, in their own namespace: tags are not typedefs */
	assert_true(hog_rules_is_lock_type(t->r, 0, "spinlock"));
	assert_true(hog_rules_is_lock_type(t->r, 0, "mutex"));
	assert_false(hog_rules_is_lock_type(t->r, 1, "spinlock"));
	assert_true(hog_rules_is_lock_type(t->r, 1, "rwlock_t"));
	assert_false(hog_rules_is_lock_type(t->r, 0, "block_device"));
	assert_false(hog_rules_is_lock_type(t->r, 0, "spinlock_t"));
	assert_false(hog_rules_is_lock_type(t->r, 0, NULL));
	assert_true(hog_rules_is_parent_field(t->r, "page_counter", "parent"));
	assert_false(hog_rules_is_parent_field(t->r, "page_counte", "parent"));
	assert_false(hog_rules_is_parent_field(t->r, "page_counter", "parents"));
	assert_false(hog_rules_is_parent_field(t->r, "xa_node", "parent"));
	assert_false(hog_rules_is_parent_field(t->r, NULL, "parent"));
	assert_true(hog_rules_is_parent_call(t->r, "parent_mem_cgroup"));
	assert_false(hog_rules_is_parent_call(t->r, "parent_lruvec"));
	assert_true(hog_rules_asm_is_percpu(t->r, "x86_64", "movl %%gs:%1, %0"));
	assert_true(hog_rules_asm_is_percpu(t->r, "x86_64", "movl %%fs:%1, %0"));
	assert_false(hog_rules_asm_is_percpu(t->r, "aarch64", "movl %%gs:%1, %0"));
	assert_false(hog_rules_asm_is_percpu(t->r, "x86_64", "lock; incl %0"));
	/* a lock prefix or xchg is atomic, a bare cmpxchg is not, nor this CPU's data */
	assert_true(hog_rules_asm_is_atomic(t->r, "x86_64", "lock; incl %0"));
	assert_true(hog_rules_asm_is_atomic(t->r, "x86_64", "xchgl %0, %1"));
	assert_true(hog_rules_asm_is_atomic(t->r, "x86_64", "lock; cmpxchgl %2, %1"));
	assert_false(hog_rules_asm_is_atomic(t->r, "x86_64", "cmpxchgl %2, %1"));
	assert_false(hog_rules_asm_is_atomic(t->r, "x86_64", "cmpxchgl %2, %%gs:%1"));
	assert_false(hog_rules_asm_is_atomic(t->r, "x86_64", "xchgl %0, %%gs:%1"));
	assert_true(hog_rules_asm_is_atomic(t->r, "aarch64", "xchgl %0, %%gs:%1"));
	assert_false(hog_rules_asm_is_atomic(t->r, "x86_64", "movl %1, %0"));
	assert_false(hog_rules_asm_is_atomic(t->r, "x86_64", NULL));
}

static void test_layout_comments_crlf(void **state)
{
	struct rt *t = *state;

	assert_int_equal(parse(t,
		"# a comment\n"
		"\n"
		"   \t\n"
		"cheap\tmemset  # trailing comment\r\n"
		"    cheap memcpy\r\n"
		"cost msleep class=sleep \"has # inside\"   # and a comment\n"
		"cheap last_line_without_newline"), 0);
	assert_int_equal(t->r->all.n, 4);
	assert_int_equal(find(t, "memset", HR_CHEAP)->line, 4);
	assert_int_equal(find(t, "memcpy", HR_CHEAP)->line, 5);
	assert_string_equal(find(t, "msleep", HR_COST)->reason, "has # inside");
	assert_int_equal(find(t, "last_line_without_newline", HR_CHEAP)->line, 7);
}

static void test_same_name_other_kind(void **state)
{
	struct rt *t = *state;

	/* mutex_lock is both a lock and a sleeping call, as in kernel.rules */
	assert_int_equal(parse(t,
		"lock mutex_lock op=acquire arg=0 kind=mutex\n"
		"cost mutex_lock class=sleep \"takes a mutex\"\n"), 0);
	assert_non_null(find(t, "mutex_lock", HR_LOCK));
	assert_non_null(find(t, "mutex_lock", HR_COST));
	assert_int_equal(find(t, "mutex_lock", HR_COST)->line, 2);
}

static void test_empty_and_names_interned(void **state)
{
	struct rt *t = *state;
	const struct hog_rule *x;

	assert_int_equal(parse(t, ""), 0);
	assert_int_equal(parse(t, "\n\n# nothing\n"), 0);
	assert_int_equal(t->r->all.n, 0);
	assert_int_equal(t->r->nfiles, 2);
	assert_int_equal(parse(t, "cheap memset\n"), 0);
	x = t->r->all.v[0];
	assert_ptr_equal(x->name, hog_intern(t->strs, "memset"));
	assert_ptr_equal(hog_map_get(t->r->byname, x->name), x);
	assert_string_equal(hog_rule_kind_name(HR_LOCKBREAK), "lockbreak");
	assert_string_equal(hog_rule_kind_name(HR_CHEAP), "cheap");
}

static void test_digest_changes(void **state)
{
	struct rt *t = *state;
	struct hog_rules *r2 = hog_rules_new(t->strs);
	char *err = NULL;
	unsigned long long d1;

	assert_int_equal(parse(t, "cheap memset\n"), 0);
	d1 = t->r->digest;
	assert_int_equal(hog_rules_parse(r2, "t.rules", "cheap memset\n", 13, &err), 0);
	assert_true(d1 == r2->digest);
	assert_int_equal(parse(t, "cheap memcpy\n"), 0);
	assert_true(d1 != t->r->digest);
	hog_rules_free(r2);
}

/* the catalogue's own lines, as the unit tests keep them (HT_RULES), read back */
static void test_catalogue_excerpt(void **state)
{
	struct rt *t = *state;
	const struct hog_rule *x;

	ht_rules_text(t->r, HT_RULES);
	assert_true(t->r->all.n > 40);
	x = find(t, "spin_lock_irqsave", HR_LOCK);
	assert_non_null(x);
	assert_int_equal(x->irq, HIRQ_SAVE);
	assert_int_equal(x->flags, 1);
	x = find(t, "kmalloc", HR_COST);
	assert_string_equal(x->cls, HOG_CLS_SLEEP);
	assert_int_equal(x->when.arg, 1);
	assert_int_equal(x->when.val, 0x400);
	assert_string_equal(find(t, "page_counter_uncharge", HR_COST)->cls, HOG_CLS_HIER);
	assert_int_equal(find(t, "spinlock_check", HR_PASSTHROUGH)->arg, 0);
	assert_non_null(find(t, "mutex_lock", HR_LOCK));
	assert_non_null(find(t, "mutex_lock", HR_COST));
	assert_true(hog_rules_is_strip(t->r, hog_intern(t->strs, "rlock")));
	assert_int_equal(t->r->loop.max_bound, 64);
	assert_int_equal(t->r->loop.max_chain, 12);
	assert_string_equal(x->file, "inline.rules");
}

/* ---- errors: file and line ---- */

static void test_err_prefix_line(void **state)
{
	struct rt *t = *state;

	expect_err(t, "cheap a\ncheap b\n# c\nfrob x\ncheap after\n",
		   "t.rules:4: unknown directive 'frob'");
	/* what came before the error is kept, what comes after is not */
	assert_non_null(find(t, "a", HR_CHEAP));
	assert_non_null(find(t, "b", HR_CHEAP));
	assert_null(find(t, "after", HR_CHEAP));
}

static void test_err_unknown_directive(void **state)
{
	expect_err(*state, "spinlock foo op=acquire\n",
		   "t.rules:1: unknown directive 'spinlock'");
}

static void test_err_unknown_key(void **state)
{
	struct rt *t = *state;

	expect_err(t, "lock a op=acquire arg=0 kind=spin colour=red\n",
		   "t.rules:1: lock does not take 'colour'");
	expect_err(t, "cheap memset arg=0\n", "t.rules:1: cheap does not take 'arg'");
	expect_err(t, "cost a class=sleep arg=1 \"r\"\n", "t.rules:1: cost does not take 'arg'");
	expect_err(t, "irq a op=save when=arg0&1\n", "t.rules:1: irq does not take 'when'");
	expect_err(t, "loop bound=3 depth=2\n", "t.rules:1: unknown loop setting 'depth'");
}

static void test_err_cost_reason(void **state)
{
	struct rt *t = *state;

	expect_err(t, "cost synchronize_rcu class=sleep\n",
		   "t.rules:1: cost needs a \"reason\"");
	expect_err(t, "cost synchronize_rcu \"waits\"\n",
		   "t.rules:1: cost needs class=CLASS");
	expect_err(t, "cost synchronize_rcu class=sleep \"one\" \"two\"\n",
		   "t.rules:1: two reasons given");
	expect_err(t, "cost a class=a.b \"r\"\n", "t.rules:1: bad class 'a.b'");
}

static void test_err_duplicate(void **state)
{
	struct rt *t = *state;

	expect_err(t,
		   "lock spin_lock op=acquire arg=0 kind=spin\n"
		   "cheap memset\n"
		   "lock spin_lock op=acquire arg=0 kind=raw_spin\n",
		   "t.rules:3: 'spin_lock' already has a lock rule at t.rules:1");
}

static void test_err_duplicate_across_files(void **state)
{
	struct rt *t = *state;
	char *err = NULL;
	const char *b = "\ncost msleep class=sleep \"again\"\n";

	assert_int_equal(parse(t, "cost msleep class=sleep \"sleeps\"\n"), 0);
	assert_int_equal(hog_rules_parse(t->r, "local.rules", b, strlen(b), &err), -1);
	assert_string_equal(err, "local.rules:2: 'msleep' already has a cost rule at t.rules:1");
	free(err);
}

static void test_err_unterminated(void **state)
{
	struct rt *t = *state;

	expect_err(t, "cheap a\ncost msleep class=sleep \"sleeps\n",
		   "t.rules:2: unterminated string");
	expect_err(t, "cost msleep class=\"sleep\n",
		   "t.rules:1: unterminated string");
	expect_err(t, "cost msleep class=sleep \"ends in a backslash\\\"\n",
		   "t.rules:1: unterminated string");
	expect_err(t, "cost msleep class=sleep \"r\"x\n",
		   "t.rules:1: text after closing quote");
}

static void test_err_binary(void **state)
{
	struct rt *t = *state;
	static const char bin[] = "\0\x7f" "ELF\x02\x01";
	static const char late[] = "cheap a\ncheap b\ncheap\0c\n";

	free(t->err);
	t->err = NULL;
	assert_int_equal(hog_rules_parse(t->r, "t.rules", bin, sizeof(bin) - 1, &t->err), -1);
	assert_string_equal(t->err, "t.rules:1: binary data in rules file");
	free(t->err);
	t->err = NULL;
	/* a NUL anywhere rejects the whole file: nothing from it is kept */
	assert_int_equal(hog_rules_parse(t->r, "t.rules", late, sizeof(late) - 1, &t->err), -1);
	assert_non_null(t->err);
	assert_true(!strncmp(t->err, "t.rules:", 8));
	assert_non_null(strstr(t->err, ": binary data in rules file"));
	assert_int_equal(t->r->all.n, 0);
}

static void test_err_bytes_never_crash(void **state)
{
	struct rt *t = *state;
	char buf[64];
	int i, c;

	/* every byte value in a few positions: an error or a rule, never a crash */
	for (c = 1; c < 256; c++)
		for (i = 0; i < 3; i++) {
			struct hog_rules *r = hog_rules_new(t->strs);
			char *err = NULL;
			int n, ret;

			n = snprintf(buf, sizeof(buf), "cost kmalloc class=sleep \"r\"\n");
			buf[i == 0 ? 0 : i == 1 ? 13 : n - 3] = (char)c;
			ret = hog_rules_parse(r, "t.rules", buf, n, &err);
			assert_true(ret == 0 || ret == -1);
			if (ret)
				assert_true(err && !strncmp(err, "t.rules:", 8));
			free(err);
			hog_rules_free(r);
		}
}

static void test_err_names(void **state)
{
	struct rt *t = *state;

	expect_err(t, "cheap\n", "t.rules:1: cheap needs a function name");
	expect_err(t, "lock op=acquire arg=0 kind=spin\n",
		   "t.rules:1: lock needs a function name");
	expect_err(t, "cheap \"memset\"\n", "t.rules:1: cheap needs a function name");
	expect_err(t, "cheap 1abc\n", "t.rules:1: '1abc' is not a C identifier");
	expect_err(t, "cheap mem-set\n", "t.rules:1: 'mem-set' is not a C identifier");
	expect_err(t, "cheap memset memcpy\n",
		   "t.rules:1: unexpected word 'memcpy' (want key=value)");
	expect_err(t, "op=acquire lock\n", "t.rules:1: line must start with a directive");
	expect_err(t, "\"lock\" a\n", "t.rules:1: line must start with a directive");
}

static void test_err_values(void **state)
{
	struct rt *t = *state;

	expect_err(t, "passthrough a arg=x\n", "t.rules:1: bad number 'x' for 'arg'");
	expect_err(t, "passthrough a arg=16\n", "t.rules:1: bad number '16' for 'arg'");
	expect_err(t, "passthrough a arg=-1\n", "t.rules:1: bad number '-1' for 'arg'");
	expect_err(t, "passthrough a arg=ret\n", "t.rules:1: bad number 'ret' for 'arg'");
	expect_err(t, "passthrough a arg=\n", "t.rules:1: empty value for 'arg'");
	expect_err(t, "passthrough a =0\n", "t.rules:1: missing key before '='");
	expect_err(t, "loop bound=-1\n", "t.rules:1: bad number '-1' for 'bound'");
	expect_err(t, "loop chain=0\n", "t.rules:1: bad number '0' for 'chain'");
	expect_err(t, "loop listwalk=maybe\n",
		   "t.rules:1: listwalk is ignore or report, not 'maybe'");
	expect_err(t, "loop nest=flat\n", "t.rules:1: nest is fold or report, not 'flat'");
	expect_err(t, "loop 64\n", "t.rules:1: loop takes key=value settings, not '64'");
	expect_err(t, "lock a op=acquire arg=0 kind=spin bh=on\n",
		   "t.rules:1: bad bh 'on' (bh=disable)");
	expect_err(t, "cost a class=sleep unless=bh \"why\"\n",
		   "t.rules:1: bad unless 'bh' (unless=in-interrupt)");
	expect_err(t, "irq a op=disable bh=disable\n", "t.rules:1: irq does not take 'bh'");
}

static void test_err_when(void **state)
{
	struct rt *t = *state;

	expect_err(t, "cost a class=sleep when=x1&4 \"r\"\n",
		   "t.rules:1: bad condition 'x1&4' (want argN&MASK or argN==VALUE)");
	expect_err(t, "cost a class=sleep when=arg1 \"r\"\n",
		   "t.rules:1: bad condition 'arg1' (want argN&MASK or argN==VALUE)");
	expect_err(t, "preempt a op=disable when=arg0=1\n",
		   "t.rules:1: bad condition 'arg0=1' (use ==)");
	expect_err(t, "cost a class=sleep when=argx&4 \"r\"\n",
		   "t.rules:1: bad number 'x' for 'when'");
	expect_err(t, "cost a class=sleep when=arg1&zz \"r\"\n",
		   "t.rules:1: bad number 'zz' for 'when'");
}

static void test_err_lock_incomplete(void **state)
{
	struct rt *t = *state;

	expect_err(t, "lock a arg=0 kind=spin\n",
		   "t.rules:1: lock needs op=acquire|release|trylock");
	expect_err(t, "lock a op=acquire kind=spin\n",
		   "t.rules:1: lock needs arg=N naming the lock argument");
	expect_err(t, "lock a op=acquire arg=0\n",
		   "t.rules:1: lock needs kind=spin|raw_spin|read|write|local|bit|mutex|rwsem_read|rwsem_write|rcu");
	expect_err(t, "lock a op=release arg=0 kind=spin irq=restore\n",
		   "t.rules:1: irq=restore needs flags=argN");
	expect_err(t, "lock a op=release arg=0 kind=spin irq=restore flags=ret\n",
		   "t.rules:1: irq=restore needs flags=argN");
	expect_err(t, "lock a op=grab arg=0 kind=spin\n", "t.rules:1: unknown lock op 'grab'");
	expect_err(t, "lock a op=acquire arg=0 kind=seqlock\n",
		   "t.rules:1: unknown lock kind 'seqlock'");
	expect_err(t, "lock a op=acquire arg=0 kind=spin irq=off\n",
		   "t.rules:1: unknown irq form 'off'");
	expect_err(t, "lock a op=trylock arg=0 kind=spin cond=positive\n",
		   "t.rules:1: unknown trylock condition 'positive'");
}

static void test_err_other_directives(void **state)
{
	struct rt *t = *state;

	expect_err(t, "irq a flags=arg0\n",
		   "t.rules:1: irq needs op=save|restore|disable|enable");
	expect_err(t, "irq a op=none\n", "t.rules:1: irq needs op=save|restore|disable|enable");
	expect_err(t, "irq a op=restore\n", "t.rules:1: irq op=restore needs flags=argN");
	expect_err(t, "irq a op=toggle\n", "t.rules:1: unknown irq op 'toggle'");
	expect_err(t, "preempt a op=off\n", "t.rules:1: unknown preempt op 'off'");
	expect_err(t, "lockbreak a op=break\n", "t.rules:1: lockbreak op=break needs arg=N");
	expect_err(t, "lockbreak a\n", "t.rules:1: lockbreak op=break needs arg=N");
	expect_err(t, "lockbreak a op=yield arg=0\n", "t.rules:1: unknown lockbreak op 'yield'");
	expect_err(t, "passthrough a\n", "t.rules:1: passthrough needs arg=N");
	expect_err(t, "atomic a\n", "t.rules:1: atomic needs arg=N");
	expect_err(t, "strip\n", "t.rules:1: strip needs field names");
	expect_err(t, "strip 9lives\n", "t.rules:1: strip takes field names, not '9lives'");
}

static void test_err_frontend_directives(void **state)
{
	struct rt *t = *state;

	expect_err(t, "lock-type spinlock\n",
		   "t.rules:1: lock-type needs 'struct' or 'typedef', then type names");
	expect_err(t, "lock-type\n",
		   "t.rules:1: lock-type needs 'struct' or 'typedef', then type names");
	expect_err(t, "lock-type struct\n", "t.rules:1: lock-type struct needs type names");
	expect_err(t, "lock-type typedef spin-lock\n",
		   "t.rules:1: 'spin-lock' is not a C identifier");
	expect_err(t, "lock-type struct a kind=spin\n",
		   "t.rules:1: lock-type takes bare words, not 'kind=spin'");
	expect_err(t, "parent-field\n", "t.rules:1: parent-field needs STRUCT.FIELD names");
	expect_err(t, "parent-field parent\n",
		   "t.rules:1: parent-field takes STRUCT.FIELD, not 'parent'");
	expect_err(t, "parent-field a.b.c\n",
		   "t.rules:1: parent-field takes STRUCT.FIELD, not 'a.b.c'");
	expect_err(t, "parent-field *.parent\n",
		   "t.rules:1: parent-field takes STRUCT.FIELD, not '*.parent'");
	expect_err(t, "parent-call\n", "t.rules:1: parent-call needs function names");
	expect_err(t, "parent-call \"x\"\n", "t.rules:1: parent-call takes bare words, not 'x'");
	expect_err(t, "parent-call *parent*\n", "t.rules:1: '*parent*' is not a C identifier");
	expect_err(t, "percpu-asm x86_64\n",
		   "t.rules:1: percpu-asm needs an architecture and asm prefixes");
	expect_err(t, "percpu-asm x86-64 %gs:\n",
		   "t.rules:1: percpu-asm needs an architecture name, not 'x86-64'");
	expect_err(t, "percpu-asm x86_64 seg=%gs:\n",
		   "t.rules:1: percpu-asm takes asm prefixes, not 'seg=%gs:'");
	expect_err(t, "percpu-asm x86_64 \"\"\n", "t.rules:1: empty asm prefix");
}

static void test_err_too_many_fields(void **state)
{
	struct rt *t = *state;
	struct hog_buf b = { 0 };
	int i;

	hog_buf_add(&b, "cheap a");
	for (i = 0; i < 40; i++)
		hog_buf_add(&b, " x=1");
	hog_buf_add(&b, "\n");
	expect_err(t, b.s, "t.rules:1: too many fields");
	hog_buf_free(&b);
}

static void test_err_load_missing(void **state)
{
	struct rt *t = *state;

	assert_int_equal(hog_rules_load(t->r, "tests/unit/no-such.rules", &t->err), -1);
	assert_string_equal(t->err, "tests/unit/no-such.rules: No such file or directory");
}

/* what the frontend matches in types, fields and asm: exact names */
static void test_frontend_words(void **state)
{
	struct rt *t = *state;

	assert_int_equal(parse(t, "lock-type struct raw_spinlock spinlock\n"
				  "lock-type typedef local_lock_t\n"
				  "parent-field page_counter.parent\n"
				  "parent-call parent_mem_cgroup\n"
				  "percpu-asm x86_64 %gs:\n"), 0);
	assert_true(hog_rules_is_lock_type(t->r, 0, "raw_spinlock"));
	assert_true(hog_rules_is_lock_type(t->r, 1, "local_lock_t"));
	assert_false(hog_rules_is_lock_type(t->r, 0, "block_device"));
	assert_false(hog_rules_is_lock_type(t->r, 0, "clock_event_device"));
	assert_true(hog_rules_is_parent_field(t->r, "page_counter", "parent"));
	assert_false(hog_rules_is_parent_field(t->r, "page_counter", "parent_id"));
	assert_true(hog_rules_is_parent_call(t->r, "parent_mem_cgroup"));
	assert_true(hog_rules_asm_is_percpu(t->r, "x86_64", "addl %1, %%gs:%0"));
	assert_false(hog_rules_asm_is_percpu(t->r, "aarch64", "addl %1, %%gs:%0"));
}

static void test_bound_and_scales(void **state)
{
	struct rt *t = *state;

	assert_int_equal(parse(t, "bound folio_batch_count max=15 \"PAGEVEC_SIZE\"\n"
				  "bound per_cpu_pages.batch max=0x3f \"zone_batchsize()\"\n"
				  "scales nr_cpu_ids hstate.hugepage_freelists\n"), 0);
	assert_int_equal(hog_rules_bound(t->r, NULL, "folio_batch_count"), 15);
	assert_int_equal(hog_rules_bound(t->r, "per_cpu_pages", "batch"), 63);
	assert_int_equal(hog_rules_bound(t->r, NULL, "batch"), -1);
	assert_int_equal(hog_rules_bound(t->r, "per_cpu_pages", "high"), -1);
	assert_true(hog_rules_scales(t->r, NULL, "nr_cpu_ids"));
	assert_true(hog_rules_scales(t->r, "hstate", "hugepage_freelists"));
	assert_false(hog_rules_scales(t->r, "hstate", "hugepage_activelist"));
	assert_false(hog_rules_scales(t->r, NULL, "hugepage_freelists"));
	/* the rule replaces no body: it is no rule of a kind */
	assert_null(find(t, "folio_batch_count", HR_CHEAP));
	/* one table's entries: a pointer walk along pte_t */
	assert_int_equal(parse(t, "bound pte_t[] max=512 \"one page table\"\n"), 0);
	assert_int_equal(hog_rules_bound(t->r, NULL, "pte_t[]"), 512);
	assert_int_equal(hog_rules_bound(t->r, NULL, "pte_t"), -1);
}

static void test_bound_min(void **state)
{
	struct rt *t = *state;
	long long m = 7;

	assert_int_equal(parse(t, "bound hugepage_subpool.min_hpages min=-1 \"-1: no minimum\"\n"
				  "bound pool.pages min=0 max=512 \"a count\"\n"
				  "bound per_cpu_pages.batch max=63 \"r\"\n"), 0);
	assert_true(hog_rules_bound_min(t->r, "hugepage_subpool.min_hpages", &m));
	assert_int_equal(m, -1);
	/* a floor alone caps nothing */
	assert_int_equal(hog_rules_bound(t->r, "hugepage_subpool", "min_hpages"), -1);
	assert_true(hog_rules_bound_min(t->r, "pool.pages", &m));
	assert_int_equal(m, 0);
	assert_int_equal(hog_rules_bound(t->r, "pool", "pages"), 512);
	assert_false(hog_rules_bound_min(t->r, "per_cpu_pages.batch", &m));
	assert_false(hog_rules_bound_min(t->r, "pool.spare", &m));
	assert_false(hog_rules_bound_min(t->r, "pages", &m));
}

static void test_not_root(void **state)
{
	struct rt *t = *state;
	const char *parent = "x";

	assert_int_equal(parse(t, "not-root cgroup_subsys.css_offline parent=cgroup_subsys_state.parent \"r\"\n"
				  "not-root grp_reparent arg=1 \"r\"\n"), 0);
	assert_int_equal(hog_rules_not_root(t->r, "cgroup_subsys.css_offline", &parent), 0);
	assert_string_equal(parent, "cgroup_subsys_state.parent");
	assert_int_equal(hog_rules_not_root(t->r, "grp_reparent", &parent), 1);
	assert_null(parent);
	assert_int_equal(hog_rules_not_root(t->r, "cgroup_subsys.css_online", NULL), -1);
	/* its note: what runs only for a root is demoted, saying why */
	assert_true(hog_rules_not_root_key(t->r, "cgroup_subsys.css_offline") >= 0);
	assert_string_equal(hog_rules_static_key_at(t->r, hog_rules_not_root_key(t->r, "grp_reparent"))->note,
			    "it runs only for the root of a hierarchy, which %s is never handed: r "
			    "(rules: not-root)");
	assert_int_equal(hog_rules_static_key(t->r, "cgroup_subsys.css_offline"), -1);
	assert_int_equal(hog_rules_unset_field(t->r, "cgroup_subsys.css_offline"), -1);
	/* the frontends write what an initializer stores in such a field */
	assert_true(hog_rules_callback_field(t->r, "cgroup_subsys.css_offline"));
	assert_false(hog_rules_callback_field(t->r, "grp_reparent"));
	expect_err(t, "not-root\n", "t.rules:1: not-root needs a function name or STRUCT.FIELD");
	expect_err(t, "not-root a.b.c \"r\"\n",
		   "t.rules:1: not-root needs a function name or STRUCT.FIELD");
	expect_err(t, "not-root f\n", "t.rules:1: not-root needs one \"reason\"");
	expect_err(t, "not-root f \"r\" \"s\"\n", "t.rules:1: not-root needs one \"reason\"");
	expect_err(t, "not-root f arg=16 \"r\"\n", "t.rules:1: bad number '16' for 'arg'");
	expect_err(t, "not-root f parent=p \"r\"\n",
		   "t.rules:1: not-root parent= takes STRUCT.FIELD, not 'p'");
	expect_err(t, "not-root f lock=x \"r\"\n",
		   "t.rules:1: not-root takes arg=N, parent=STRUCT.FIELD and a reason, not 'lock=x'");
	expect_err(t, "not-root f \"r\"\nnot-root f arg=1 \"s\"\n",
		   "t.rules:2: 'f' already has a not-root");
}

static void test_err_bound_and_scales(void **state)
{
	struct rt *t = *state;

	expect_err(t, "bound\n", "t.rules:1: bound needs a function name, STRUCT.FIELD, TYPE[] or FUNC(PARAM)");
	expect_err(t, "bound a.b.c max=1 \"r\"\n",
		   "t.rules:1: bound needs a function name, STRUCT.FIELD, TYPE[] or FUNC(PARAM)");
	expect_err(t, "bound f max=1\n", "t.rules:1: bound needs max=N or min=N and one \"reason\"");
	expect_err(t, "bound [] max=1 \"r\"\n",
		   "t.rules:1: bound needs a function name, STRUCT.FIELD, TYPE[] or FUNC(PARAM)");
	expect_err(t, "bound a.b[] max=1 \"r\"\n",
		   "t.rules:1: bound needs a function name, STRUCT.FIELD, TYPE[] or FUNC(PARAM)");
	expect_err(t, "bound f(a.b) max=1 \"r\"\n",
		   "t.rules:1: bound needs a function name, STRUCT.FIELD, TYPE[] or FUNC(PARAM)");
	expect_err(t, "bound f() max=1 \"r\"\n",
		   "t.rules:1: bound needs a function name, STRUCT.FIELD, TYPE[] or FUNC(PARAM)");
	assert_int_equal(parse(t, "bound get_page_from_freelist(order) max=10 \"r\"\n"), 0);
	assert_int_equal(hog_rules_bound(t->r, NULL, "get_page_from_freelist(order)"), 10);
	assert_int_equal(hog_rules_bound(t->r, NULL, "get_page_from_freelist"), -1);
	expect_err(t, "bound f \"r\"\n", "t.rules:1: bound needs max=N or min=N and one \"reason\"");
	expect_err(t, "bound f max=-1 \"r\"\n",
		   "t.rules:1: bad number '-1' for 'max'");
	expect_err(t, "bound f arg=1 \"r\"\n", "t.rules:1: bound takes max=N, min=N and a reason, not '1'");
	/* a floor is a field's only, and not above the cap */
	expect_err(t, "bound f min=0 \"r\"\n", "t.rules:1: bound's min=N is for a STRUCT.FIELD only");
	expect_err(t, "bound f(a) min=0 \"r\"\n", "t.rules:1: bound's min=N is for a STRUCT.FIELD only");
	expect_err(t, "bound a.b min=5 max=4 \"r\"\n", "t.rules:1: bound's min=5 is above its max=4");
	expect_err(t, "bound a.b min=x \"r\"\n", "t.rules:1: bad number 'x' for 'min'");
	expect_err(t, "scales\n", "t.rules:1: scales needs names or STRUCT.FIELD");
	expect_err(t, "scales *.x\n", "t.rules:1: scales takes NAME or STRUCT.FIELD, not '*.x'");
	expect_err(t, "scales k=v\n", "t.rules:1: scales takes bare words, not 'k=v'");
}

static void test_iterator(void **state)
{
	struct rt *t = *state;
	int step = -1;

	assert_int_equal(parse(t, "iterator find_next_bit arg=2 step=0 \"the next set bit\"\n"
				  "iterator __next_node arg=0 step=1 \"after n\"\n"), 0);
	assert_int_equal(hog_rules_iterator(t->r, "find_next_bit", &step), 2);
	assert_int_equal(step, 0);
	assert_int_equal(hog_rules_iterator(t->r, "__next_node", &step), 0);
	assert_int_equal(step, 1);
	assert_int_equal(hog_rules_iterator(t->r, "cpumask_next", &step), -1);
	expect_err(t, "iterator\n", "t.rules:1: iterator needs a function name");
	expect_err(t, "iterator f arg=1 \"r\"\n",
		   "t.rules:1: iterator needs arg=N, step=0|1 and one \"reason\"");
	expect_err(t, "iterator f arg=1 step=2 \"r\"\n", "t.rules:1: bad number '2' for 'step'");
	expect_err(t, "iterator f max=1 \"r\"\n",
		   "t.rules:1: iterator takes arg=N, step=0|1 and a reason, not '1'");
}

static void test_rank_and_release_words(void **state)
{
	struct rt *t = *state;
	const struct hog_rank_policy *k = &t->r->rank;

	/* the defaults are the catalogue's, for rules that say nothing */
	assert_int_equal(hog_rules_rank_base(t->r, HOG_CLS_FLUSH), 55);
	assert_int_equal(hog_rules_rank_base(t->r, "made-up"), 35);
	assert_false(hog_rules_release_by_name(t->r, "folio_unlock"));
	assert_int_equal(k->unsure, -30);
	assert_int_equal(parse(t, "rank tree-flush=7 made-up=9 other=1\n"
				  "rank adjust irqs-off=3 per-step=-5 unsure=-4\n"
				  "release-by-name unlock drop_lock\n"), 0);
	assert_int_equal(hog_rules_rank_base(t->r, HOG_CLS_FLUSH), 7);
	assert_int_equal(hog_rules_rank_base(t->r, "made-up"), 9);
	assert_int_equal(hog_rules_rank_base(t->r, "unknown"), 1);
	assert_int_equal(hog_rules_rank_base(t->r, HOG_CLS_REF), 40);
	assert_int_equal(k->irqs_off, 3);
	assert_int_equal(k->per_step, -5);
	assert_int_equal(k->unsure, -4);
	assert_int_equal(k->listed, 5);
	assert_true(hog_rules_release_by_name(t->r, "folio_unlock"));
	assert_true(hog_rules_release_by_name(t->r, "xa_drop_lock_irq"));
	assert_false(hog_rules_release_by_name(t->r, "folio_lock"));
	assert_false(hog_rules_is_boot(t->r, "start_kernel"));
	assert_int_equal(parse(t, "boot-phase start_kernel\n"), 0);
	assert_true(hog_rules_is_boot(t->r, "start_kernel"));
	assert_false(hog_rules_is_boot(t->r, "start_kernel_late"));
	assert_false(hog_rules_is_anyctx(t->r, "kfree"));
	assert_int_equal(parse(t, "any-context kfree kmem_cache_free\n"), 0);
	assert_true(hog_rules_is_anyctx(t->r, "kmem_cache_free"));
	assert_false(hog_rules_is_anyctx(t->r, "kvfree"));
	expect_err(t, "any-context\n", "t.rules:1: any-context needs words");
	assert_int_equal(parse(t, "static-branch arch_static_branch\n"
			       "static-key memory_cgrp_subsys_on_dfl_key on \"v2 100%\"\n"), 0);
	assert_true(hog_rules_is_static_branch(t->r, "arch_static_branch"));
	assert_false(hog_rules_is_static_branch(t->r, "arch_static_branch_jump"));
	assert_int_equal(hog_rules_static_key(t->r, "memory_cgrp_subsys_on_dfl_key"), 0);
	assert_int_equal(hog_rules_static_key(t->r, "io_cgrp_subsys_on_dfl_key"), -1);
	assert_true(hog_rules_static_key_at(t->r, 0)->on);
	/* the reason is text in the note's format: its % are doubled */
	assert_string_equal(hog_rules_static_key_at(t->r, 0)->note,
			    "it runs only when the static key %s is off: v2 100%% (rules: static-key)");
	assert_null(hog_rules_static_key_at(t->r, 1));
	expect_err(t, "static-key memory_cgrp_subsys_on_dfl_key off \"again\"\n",
		   "t.rules:1: 'memory_cgrp_subsys_on_dfl_key' already has a static-key");
	expect_err(t, "static-key k maybe \"why\"\n",
		   "t.rules:1: static-key needs a key's name, on or off, and a quoted reason");
	expect_err(t, "static-key k on\n",
		   "t.rules:1: static-key needs a key's name, on or off, and a quoted reason");
	expect_err(t, "static-key k on why\n",
		   "t.rules:1: static-key needs a key's name, on or off, and a quoted reason");
	expect_err(t, "static-branch\n", "t.rules:1: static-branch needs words");
	assert_int_equal(parse(t, "unset-field mem_cgroup_thresholds.primary \"v1 only\"\n"), 0);
	assert_int_equal(hog_rules_unset_field(t->r, "mem_cgroup_thresholds.primary"), 1);
	assert_int_equal(hog_rules_static_key(t->r, "mem_cgroup_thresholds.primary"), -1);
	assert_string_equal(hog_rules_static_key_at(t->r, 1)->note,
			    "it runs only when %s is set: v1 only (rules: unset-field)");
	expect_err(t, "unset-field primary \"why\"\n",
		   "t.rules:1: unset-field needs STRUCT.FIELD and a quoted reason");
	expect_err(t, "unset-field a.b.c \"why\"\n",
		   "t.rules:1: unset-field needs STRUCT.FIELD and a quoted reason");
	expect_err(t, "unset-field a.b\n",
		   "t.rules:1: unset-field needs STRUCT.FIELD and a quoted reason");
	expect_err(t, "unset-field mem_cgroup_thresholds.primary \"again\"\n",
		   "t.rules:1: 'mem_cgroup_thresholds.primary' already has an unset-field");
	assert_int_equal(parse(t, "ref-release swap_info_struct.users \"completes si->comp\"\n"), 0);
	assert_string_equal(hog_rules_ref_release(t->r, "swap_info_struct.users"),
			    "completes si->comp");
	assert_null(hog_rules_ref_release(t->r, "swap_info_struct.busy"));
	assert_true(hog_rules_release_reason(t->r, "completes si->comp"));
	assert_false(hog_rules_release_reason(t->r, "css reference drop"));
	expect_err(t, "ref-release users \"why\"\n",
		   "t.rules:1: ref-release needs STRUCT.FIELD and a quoted reason");
	expect_err(t, "ref-release a.b.c \"why\"\n",
		   "t.rules:1: ref-release takes STRUCT.FIELD, not 'a.b.c'");
	expect_err(t, "ref-release a.b\n",
		   "t.rules:1: ref-release needs STRUCT.FIELD and a quoted reason");
	expect_err(t, "ref-release swap_info_struct.users \"again\"\n",
		   "t.rules:1: 'swap_info_struct.users' already has a ref-release");
	assert_int_equal(parse(t, "rare list_lru_destroy bdi_unregister\n"), 0);
	assert_true(hog_rules_is_rare(t->r, "bdi_unregister"));
	assert_false(hog_rules_is_rare(t->r, "bdi_register"));
	expect_err(t, "rare\n", "t.rules:1: rare needs words");
	assert_int_equal(parse(t, "rare kobj_attribute.store\n"), 0);
	assert_true(hog_rules_is_rare(t->r, "kobj_attribute.store"));
	expect_err(t, "rare kobj_attribute.\n",
		   "t.rules:1: rare takes function names or STRUCT.FIELD, not 'kobj_attribute.'");
	expect_err(t, "rare a.b.c\n",
		   "t.rules:1: rare takes function names or STRUCT.FIELD, not 'a.b.c'");
	/* the function a registration call passes as argument N */
	assert_int_equal(parse(t, "rare call=register_sys_off_handler arg=2\n"
				  "rare call=__cpuhp_setup_state arg=3\n"
				  "rare call=__cpuhp_setup_state arg=4\n"), 0);
	assert_non_null(hog_rules_rare_call(t->r, "register_sys_off_handler", 0));
	assert_int_equal(hog_rules_rare_call(t->r, "register_sys_off_handler", 0)->arg, 2);
	assert_string_equal(hog_rules_rare_call(t->r, "register_sys_off_handler", 0)->word,
			    "call=register_sys_off_handler arg=2");
	assert_null(hog_rules_rare_call(t->r, "register_sys_off_handler", 1));
	assert_int_equal(hog_rules_rare_call(t->r, "__cpuhp_setup_state", 1)->arg, 4);
	assert_null(hog_rules_rare_call(t->r, "register_reboot_notifier", 0));
	assert_false(hog_rules_is_rare(t->r, "register_sys_off_handler"));
	expect_err(t, "rare call=register_sys_off_handler\n",
		   "t.rules:1: rare call= needs call=NAME and arg=N");
	expect_err(t, "rare call=f arg=2 extra\n",
		   "t.rules:1: rare call= takes call=NAME arg=N, not 'extra'");
	expect_err(t, "rare call=f arg=2 when=x\n",
		   "t.rules:1: rare call= takes call=NAME arg=N, not 'when=x'");
	expect_err(t, "rank adjust bogus=1\n", "t.rules:1: unknown rank adjustment 'bogus'");
	expect_err(t, "rank sleep\n", "t.rules:1: rank takes key=value settings, not 'sleep'");
	assert_int_equal(parse(t, "last-put atomic_dec_and_test refcount_dec_and_lock\n"), 0);
	assert_true(hog_rules_is_last_put(t->r, "refcount_dec_and_lock"));
	assert_false(hog_rules_is_last_put(t->r, "atomic_dec"));
	expect_err(t, "last-put\n", "t.rules:1: last-put needs words");
	expect_err(t, "last-put a.b\n", "t.rules:1: last-put takes identifier words, not 'a.b'");
	expect_err(t, "release-by-name\n", "t.rules:1: release-by-name needs words");
	expect_err(t, "release-by-name un-lock\n",
		   "t.rules:1: release-by-name takes identifier words, not 'un-lock'");
}

/* ---- kernel versions: since= and until= ---- */

static void test_kversion_parse(void **state)
{
	unsigned v = 7;
	char buf[32];

	(void)state;
	assert_int_equal(hog_kversion_parse("6.12", &v), 0);
	assert_int_equal(v, HOG_KVERSION(6, 12, 0));
	assert_int_equal(hog_kversion_parse("6.12.117", &v), 0);
	assert_int_equal(v, (6 << 16) + (12 << 8) + 117);
	/* kbuild's releases: a local version after the numbers */
	assert_int_equal(hog_kversion_parse("6.1.0-28-amd64", &v), 0);
	assert_int_equal(v, HOG_KVERSION(6, 1, 0));
	assert_int_equal(hog_kversion_parse("6.13.0-rc1+", &v), 0);
	/* the sublevel saturates at 255, as LINUX_VERSION_CODE does */
	assert_int_equal(hog_kversion_parse("4.9.337", &v), 0);
	assert_int_equal(v, HOG_KVERSION(4, 9, 255));
	v = 7;
	assert_int_equal(hog_kversion_parse("6", &v), -1);
	assert_int_equal(hog_kversion_parse("6.", &v), -1);
	assert_int_equal(hog_kversion_parse("v6.12", &v), -1);
	assert_int_equal(hog_kversion_parse("6.12x", &v), -1);
	assert_int_equal(hog_kversion_parse("6.12.", &v), -1);
	assert_int_equal(hog_kversion_parse("6.256", &v), -1);
	assert_int_equal(hog_kversion_parse("0.9", &v), -1);
	assert_int_equal(hog_kversion_parse("", &v), -1);
	assert_int_equal(hog_kversion_parse(NULL, &v), -1);
	assert_int_equal(v, 7);
	hog_kversion_text(HOG_KVERSION(6, 12, 117), buf, sizeof(buf));
	assert_string_equal(buf, "6.12.117");
	hog_kversion_text(HOG_KVERSION(6, 12, 0), buf, sizeof(buf));
	assert_string_equal(buf, "6.12");
	hog_kversion_text(0, buf, sizeof(buf));
	assert_string_equal(buf, "unknown");
}

static const char kv_text[] =
	"cost __alloc_pages class=sleep until=6.10 \"old name\"\n"
	"cost __alloc_pages_noprof class=sleep since=6.10 \"alloc_hooks rename\"\n"
	"lock local_trylock op=trylock arg=0 kind=local cond=nonzero since=6.15\n"
	"cost put_page class=refcount-release \"any version\"\n"
	"cost folio_put class=refcount-release since=5.16 until=6.12.3 \"a range\"\n"
	"bound pagevec_count max=15 until=6.5 \"PAGEVEC_SIZE\"\n";

/* Parses kv_text for kernel version v (0: unknown). */
static void kv_parse(struct rt *t, unsigned v)
{
	assert_int_equal(hog_rules_set_kversion(t->r, v), 0);
	assert_int_equal(parse(t, kv_text), 0);
}

static void test_kversion_filters(void **state)
{
	struct rt *t = *state;
	const struct hog_rule *x;

	kv_parse(t, HOG_KVERSION(6, 1, 192));
	x = find(t, "__alloc_pages", HR_COST);
	assert_non_null(x);
	assert_int_equal(x->since, 0);
	assert_int_equal(x->until, HOG_KVERSION(6, 10, 0));
	assert_null(find(t, "__alloc_pages_noprof", HR_COST));
	assert_null(find(t, "local_trylock", HR_LOCK));
	assert_non_null(find(t, "put_page", HR_COST));
	x = find(t, "folio_put", HR_COST);
	assert_non_null(x);
	assert_int_equal(x->since, HOG_KVERSION(5, 16, 0));
	assert_int_equal(x->until, HOG_KVERSION(6, 12, 3));
	assert_true(hog_rule_applies(t->r, x));
	assert_int_equal(hog_rules_bound(t->r, NULL, "pagevec_count"), 15);
	assert_int_equal(t->r->all.n, 3);
	assert_int_equal(t->r->noutside, 2);
}

static void test_kversion_bounds_inclusive(void **state)
{
	struct rt *t = *state;

	/* since= is the first version a rule applies to, until= the first it does not */
	kv_parse(t, HOG_KVERSION(6, 10, 0));
	assert_null(find(t, "__alloc_pages", HR_COST));
	assert_non_null(find(t, "__alloc_pages_noprof", HR_COST));
	assert_non_null(find(t, "folio_put", HR_COST));
	assert_int_equal(hog_rules_bound(t->r, NULL, "pagevec_count"), -1);
}

static void test_kversion_612(void **state)
{
	struct rt *t = *state;

	kv_parse(t, HOG_KVERSION(6, 12, 117));
	assert_null(find(t, "__alloc_pages", HR_COST));
	assert_non_null(find(t, "__alloc_pages_noprof", HR_COST));
	assert_null(find(t, "local_trylock", HR_LOCK));
	/* 6.12.117 is past until=6.12.3 */
	assert_null(find(t, "folio_put", HR_COST));
	assert_non_null(find(t, "put_page", HR_COST));
}

static void test_kversion_unknown(void **state)
{
	struct rt *t = *state;

	/* no version: every rule, of a renamed pair both names */
	kv_parse(t, 0);
	assert_non_null(find(t, "__alloc_pages", HR_COST));
	assert_non_null(find(t, "__alloc_pages_noprof", HR_COST));
	assert_non_null(find(t, "local_trylock", HR_LOCK));
	assert_non_null(find(t, "folio_put", HR_COST));
	assert_int_equal(hog_rules_bound(t->r, NULL, "pagevec_count"), 15);
	assert_int_equal(t->r->noutside, 0);
}

static void test_kversion_one_name_two_ranges(void **state)
{
	struct rt *t = *state;
	const char *text =
		"cost kvfree_call_rcu class=sleep until=6.12 \"before\"\n"
		"cost kvfree_call_rcu class=global-atomic since=6.12 \"after\"\n";

	assert_int_equal(parse(t, text), 0);
	/* unknown version: the first listed */
	assert_string_equal(find(t, "kvfree_call_rcu", HR_COST)->reason, "before");
	hog_rules_free(t->r);
	t->r = hog_rules_new(t->strs);
	hog_rules_set_kversion(t->r, HOG_KVERSION(6, 12, 1));
	assert_int_equal(parse(t, text), 0);
	assert_string_equal(find(t, "kvfree_call_rcu", HR_COST)->reason, "after");
	assert_int_equal(t->r->all.n, 1);
}

static void test_kversion_digest_and_late_set(void **state)
{
	struct rt *t = *state;
	struct hog_rules *b = hog_rules_new(t->strs);
	char *err = NULL;

	/* the same text read for another version is another catalogue */
	hog_rules_set_kversion(t->r, HOG_KVERSION(6, 1, 0));
	hog_rules_set_kversion(b, HOG_KVERSION(6, 12, 0));
	assert_int_equal(parse(t, kv_text), 0);
	assert_int_equal(hog_rules_parse(b, "t.rules", kv_text, strlen(kv_text), &err), 0);
	assert_true(t->r->digest != b->digest);
	/* too late once a file is read */
	assert_int_equal(hog_rules_set_kversion(b, HOG_KVERSION(6, 13, 0)), -1);
	assert_int_equal(b->kversion, HOG_KVERSION(6, 12, 0));
	hog_rules_free(b);
}

static void test_kversion_of_tree(void **state)
{
	char dir[] = "/tmp/hogtest-kv.XXXXXX", *mk;
	FILE *f;
	unsigned v = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* no Makefile: no version */
	assert_int_equal(hog_kversion_of_tree(dir, &v), -1);
	mk = hog_xasprintf("%s/Makefile", dir);
	f = fopen(mk, "w");
	assert_non_null(f);
	fputs("# SPDX-License-Identifier: GPL-2.0\nVERSION = 6\nPATCHLEVEL = 12\n"
	      "SUBLEVEL = 117\nEXTRAVERSION =\nNAME = Baby Opossum Posse\n", f);
	fclose(f);
	assert_int_equal(hog_kversion_of_tree(dir, &v), 0);
	assert_int_equal(v, HOG_KVERSION(6, 12, 117));
	/* a Makefile without the three is not a kernel's */
	f = fopen(mk, "w");
	fputs("VERSION = 6\nPATCHLEVEL = 12\n", f);
	fclose(f);
	assert_int_equal(hog_kversion_of_tree(dir, &v), -1);
	unlink(mk);
	rmdir(dir);
	free(mk);
}

static void test_err_kversion(void **state)
{
	struct rt *t = *state;

	expect_err(t, "cost f class=sleep since=6 \"r\"\n",
		   "t.rules:1: bad kernel version '6' for 'since' (want e.g. 6.12 or 6.12.3)");
	expect_err(t, "cost f class=sleep until=6.1.0-rc1 \"r\"\n",
		   "t.rules:1: bad kernel version '6.1.0-rc1' for 'until' (want e.g. 6.12 or 6.12.3)");
	expect_err(t, "cost f class=sleep since=6.12 until=6.12 \"r\"\n",
		   "t.rules:1: since=6.12 is not before until=6.12");
	expect_err(t, "bound f max=3 since=6.12 until=6.1 \"r\"\n",
		   "t.rules:1: since=6.12 is not before until=6.1");
	/* overlapping versions for one name and kind */
	expect_err(t, "cost g class=sleep until=6.10 \"a\"\n"
		      "cost g class=sleep since=6.9 \"b\"\n",
		   "t.rules:2: 'g' already has a cost rule for these kernel versions at t.rules:1");
	/* a range against an unranged rule overlaps too, and is caught whatever the version */
	hog_rules_free(t->r);
	t->r = hog_rules_new(t->strs);
	hog_rules_set_kversion(t->r, HOG_KVERSION(6, 1, 0));
	expect_err(t, "cost h class=sleep since=6.12 \"a\"\n"
		      "cost h class=sleep \"b\"\n",
		   "t.rules:2: 'h' already has a cost rule for these kernel versions at t.rules:1");
	expect_err(t, "loop since=6.1\n", "t.rules:1: unknown loop setting 'since'");
}

static void test_callback_break(void **state)
{
	struct rt *t = *state;
	const char *lock = (const char *)1;
	int irqs = -1;

	assert_false(hog_rules_callback_break(t->r, "walk", &irqs, &lock));
	assert_int_equal(parse(t, "strip rlock\n"
			      "callback-break walk lock=$0/lru.node^[]/lru_node.lock/spinlock.rlock irqs=on \"why\"\n"
			      "callback-break walk2 \"why\"\n"), 0);
	assert_true(hog_rules_callback_break(t->r, "walk", &irqs, &lock));
	assert_int_equal(irqs, 1);
	/* normalised as the engine writes addresses: the strip field gone */
	assert_string_equal(lock, "$0/lru.node^[]/lru_node.lock");
	assert_true(hog_rules_callback_break(t->r, "walk2", &irqs, &lock));
	assert_int_equal(irqs, 0);
	assert_null(lock);
	/* a contract is no rule on calls to the function */
	assert_null(hog_rules_find(t->r, hog_intern(t->strs, "walk"), HR_LOCKBREAK));
	expect_err(t, "callback-break\n", "t.rules:1: callback-break needs a function name");
	expect_err(t, "callback-break w irqs=on\n", "t.rules:1: callback-break needs one \"reason\"");
	expect_err(t, "callback-break w lock=nlru \"r\"\n",
		   "t.rules:1: callback-break takes lock=$N..., irqs=on and a reason, not 'nlru'");
	expect_err(t, "callback-break w \"r\"\ncallback-break w \"r\"\n",
		   "t.rules:2: 'w' already has a callback-break");
	assert_int_equal(parse(t, "callback-release put_locked lock=$2 \"release drops it\"\n"), 0);
	assert_string_equal(hog_rules_callback_release(t->r, "put_locked"), "$2");
	assert_null(hog_rules_callback_release(t->r, "walk"));
	expect_err(t, "callback-release f \"r\"\n",
		   "t.rules:1: callback-release needs lock=$N... and one \"reason\"");
	expect_err(t, "callback-release f irqs=on lock=$0 \"r\"\n",
		   "t.rules:1: callback-release takes lock=$N... and a reason, not 'on'");
}

static void test_ref_get(void **state)
{
	struct rt *t = *state;
	int arg = -1, is_try = -1;

	assert_int_equal(hog_rules_ref_get(t->r, "css_tryget", &arg, &is_try), -1);
	assert_int_equal(parse(t, "ref-get css_get put=css_put \"r\"\n"
			      "ref-get css_tryget put=css_put,css_put_many try \"r\"\n"
			      "ref-get kref_get_x put=kref_put_x arg=1 \"r\"\n"), 0);
	assert_int_equal(hog_rules_ref_get(t->r, "css_get", &arg, &is_try), 0);
	assert_int_equal(arg, 0);
	assert_int_equal(is_try, 0);
	assert_int_equal(hog_rules_ref_get(t->r, "css_tryget", &arg, &is_try), 1);
	assert_int_equal(is_try, 1);
	assert_true(hog_rules_ref_put_of(t->r, 1, "css_put_many"));
	assert_true(hog_rules_ref_put_of(t->r, 1, "css_put"));
	/* whole names only: a prefix of one is not a put */
	assert_false(hog_rules_ref_put_of(t->r, 1, "css_pu"));
	assert_false(hog_rules_ref_put_of(t->r, 0, "css_put_many"));
	assert_int_equal(hog_rules_ref_put(t->r, "kref_put_x"), 1);
	assert_int_equal(hog_rules_ref_put(t->r, "folio_put"), -1);
	/* a contract on references is no rule on calls to the function */
	assert_null(hog_rules_find(t->r, hog_intern(t->strs, "css_get"), HR_COST));
	expect_err(t, "ref-get\n", "t.rules:1: ref-get needs a function name");
	expect_err(t, "ref-get g \"r\"\n", "t.rules:1: ref-get needs put=NAME[,NAME] and one \"reason\"");
	expect_err(t, "ref-get g put=p, \"r\"\n",
		   "t.rules:1: ref-get takes put=NAME[,NAME], arg=N, try and a reason, not 'p,'");
	expect_err(t, "ref-get g put=p maybe \"r\"\n",
		   "t.rules:1: ref-get takes put=NAME[,NAME], arg=N, try and a reason, not 'maybe'");
	expect_err(t, "ref-get g put=p \"r\"\nref-get g put=q \"r\"\n",
		   "t.rules:2: 'g' already has a ref-get");
}

static void test_context(void **state)
{
	struct rt *t = *state;
	const struct hog_ctx_rule *c;

	assert_null(hog_rules_ctx_call(t->r, "init_timer_key"));
	assert_int_equal(parse(t, "context softirq call=init_timer_key arg=1 \"timer callback\"\n"
			      "context hardirq field=hrtimer.function \"hrtimer callback\"\n"), 0);
	c = hog_rules_ctx_call(t->r, "init_timer_key");
	assert_non_null(c);
	assert_int_equal(c->arg, 1);
	assert_int_equal(c->kind, HOG_IN_SOFTIRQ);
	assert_string_equal(c->label, "timer callback (softirq)");
	c = hog_rules_ctx_field(t->r, "hrtimer.function");
	assert_non_null(c);
	assert_int_equal(c->kind, HOG_IN_HARDIRQ);
	assert_null(c->call);
	assert_string_equal(c->label, "hrtimer callback (hard IRQ)");
	/* an IPI callback: IRQs off, in hard IRQ or in its caller's context */
	assert_int_equal(parse(t, "context irqs-off call=smp_call_function arg=0 \"IPI callback\"\n"), 0);
	c = hog_rules_ctx_call(t->r, "smp_call_function");
	assert_int_equal(c->kind, HOG_IN_IRQS_OFF);
	assert_string_equal(c->label, "IPI callback (IRQs off)");
	assert_string_equal(hog_ctx_kind_name(c->kind), "irqs-off");
	/* a field is its class: another struct's field of that name is not it */
	assert_null(hog_rules_ctx_field(t->r, "phy_ops.function"));
	assert_null(hog_rules_ctx_call(t->r, "hrtimer.function"));
	expect_err(t, "context \"x\"\n", "t.rules:1: context needs hardirq, softirq or irqs-off first");
	expect_err(t, "context nmi call=f arg=0 \"x\"\n",
		   "t.rules:1: context needs hardirq, softirq or irqs-off first");
	/* an hrtimer's mode picks hard IRQ or softirq, nothing else */
	expect_err(t, "context-mode irqs-off call=hrtimer_init obj=0 mode=2 mask=8 \"x\"\n",
		   "t.rules:1: context-mode needs hardirq or softirq first");
	expect_err(t, "context softirq call=f arg=0\n",
		   "t.rules:1: context needs one \"what it registers\"");
	expect_err(t, "context softirq call=f \"x\"\n",
		   "t.rules:1: context needs either call=NAME arg=N or field=TAG.FIELD");
	expect_err(t, "context softirq field=f \"x\"\n",
		   "t.rules:1: context takes call=NAME arg=N or field=TAG.FIELD, not 'field=f'");
	expect_err(t, "context softirq call=f arg=1 field=a.b \"x\"\n",
		   "t.rules:1: context needs either call=NAME arg=N or field=TAG.FIELD");
	expect_err(t, "context softirq call=f arg=0 \"x\"\ncontext hardirq call=f arg=1 \"y\"\n",
		   "t.rules:2: 'f' already has a context");
	expect_err(t, "context hardirq field=a.b per-call \"x\"\n",
		   "t.rules:1: context: per-call needs call=NAME arg=N");
	expect_err(t, "context hardirq call=f arg=0 per-call per-call \"x\"\n",
		   "t.rules:1: context: unexpected 'per-call'");
}

/* on_each_cpu(fn, ...) runs fn in the call: as rare as who calls it */
static void test_context_per_call(void **state)
{
	struct rt *t = *state;
	const struct hog_ctx_rule *c;

	assert_int_equal(parse(t, "context hardirq call=on_each_cpu arg=0 per-call \"IPI callback\"\n"
			      "context hardirq call=init_irq_work arg=1 \"irq_work callback\"\n"), 0);
	c = hog_rules_ctx_call(t->r, "on_each_cpu");
	assert_non_null(c);
	assert_int_equal(c->arg, 0);
	assert_int_equal(c->per_call, 1);
	assert_string_equal(c->label, "IPI callback (hard IRQ)");
	c = hog_rules_ctx_call(t->r, "init_irq_work");
	assert_non_null(c);
	assert_int_equal(c->per_call, 0);
}

static void test_context_test(void **state)
{
	struct rt *t = *state;
	const struct hog_ctx_test *c;

	assert_int_equal(hog_rules_ctx_test(t->r, "preempt_count"), -1);
	assert_int_equal(parse(t, "context-test preempt_count softirq=0x100 hardirq=0x10000 "
			      "atomic=0xff\n"
			      "context-test arch_local_save_flags source\n"
			      "context-test arch_irqs_disabled_flags irqs-off\n"), 0);
	c = hog_rules_ctx_test_at(t->r, hog_rules_ctx_test(t->r, "preempt_count"));
	assert_non_null(c);
	assert_int_equal(c->softirq, 0x100);
	assert_int_equal(c->hardirq, 0x10000);
	assert_int_equal(c->atomic, 0xff);
	assert_int_equal(c->irqs_off + c->source, 0);
	c = hog_rules_ctx_test_at(t->r, hog_rules_ctx_test(t->r, "arch_local_save_flags"));
	assert_non_null(c);
	assert_int_equal(c->source, 1);
	c = hog_rules_ctx_test_at(t->r, hog_rules_ctx_test(t->r, "arch_irqs_disabled_flags"));
	assert_non_null(c);
	assert_int_equal(c->irqs_off, 1);
	assert_null(hog_rules_ctx_test_at(t->r, -1));
	expect_err(t, "context-test f\n",
		   "t.rules:1: context-test needs a function name and what it tells");
	expect_err(t, "context-test f nmi=1\n",
		   "t.rules:1: context-test takes softirq=, hardirq=, atomic=, irqs-off or source, "
		   "not 'nmi'");
	expect_err(t, "context-test f softirq=0\n", "t.rules:1: bad number '0' for 'softirq'");
	expect_err(t, "context-test f source irqs-off\n",
		   "t.rules:1: context-test needs one of: bits (softirq=, hardirq=, atomic=), "
		   "irqs-off, source");
	expect_err(t, "context-test f source\ncontext-test f irqs-off\n",
		   "t.rules:2: 'f' already has a context-test");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_callback_break),
		T(test_ref_get),
		T(test_context),
		T(test_context_per_call),
		T(test_context_test),
		T(test_lock_fields),
		T(test_lock_trylock_and_sleeping),
		T(test_irq_preempt),
		T(test_cost_and_others),
		T(test_strip_and_loop_policy),
		T(test_frontend_names),
		T(test_layout_comments_crlf),
		T(test_same_name_other_kind),
		T(test_empty_and_names_interned),
		T(test_digest_changes),
		T(test_catalogue_excerpt),
		T(test_err_prefix_line),
		T(test_err_unknown_directive),
		T(test_err_unknown_key),
		T(test_err_cost_reason),
		T(test_err_duplicate),
		T(test_err_duplicate_across_files),
		T(test_err_unterminated),
		T(test_err_binary),
		T(test_err_bytes_never_crash),
		T(test_err_names),
		T(test_err_values),
		T(test_err_when),
		T(test_err_lock_incomplete),
		T(test_err_other_directives),
		T(test_err_frontend_directives),
		T(test_err_too_many_fields),
		T(test_err_load_missing),
		T(test_rank_and_release_words),
		T(test_frontend_words),
		T(test_bound_and_scales),
		T(test_bound_min),
		T(test_not_root),
		T(test_iterator),
		T(test_err_bound_and_scales),
		T(test_kversion_parse),
		T(test_kversion_filters),
		T(test_kversion_bounds_inclusive),
		T(test_kversion_612),
		T(test_kversion_unknown),
		T(test_kversion_one_name_two_ranges),
		T(test_kversion_digest_and_late_set),
		T(test_err_kversion),
		cmocka_unit_test(test_kversion_of_tree),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
