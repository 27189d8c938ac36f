// SPDX-License-Identifier: GPL-2.0
/*
 * lockhog's GCC plugin: lowers every function right after the "ssa"
 * pass (before inlining, while the kernel's lock wrappers are still
 * calls), analyses the translation unit when it is done, prints
 * findings as warnings, and stores the lowered functions in a .note.lockhog
 * section of the object so that "lockhog scan" can compose them across
 * files, the way LTO keeps its bytecode in the object.
 *
 * Options (-fplugin-arg-lockhog-KEY=VALUE):
 *   rules=FILE    the rules catalogue (default: ../rules/kernel.rules
 *                 next to the plugin)
 *   diag=warn|note|none
 *                 how findings are shown; warnings are never turned
 *                 into errors by -Werror, the plugin must not fail a build
 *   section=0|1   store the IR in the object (default 1)
 *   json=FILE     also write the unit's findings there as JSON (atomically)
 *   instrument=all|FILE
 *                 place probes for a lockhog runtime (instrument.c,
 *                 docs/runtime.md): the one option that changes the code
 *   tag=...       ignored; lets kbuild see a new plugin as a new command
 *   fault=FUNC, fault-ice=FUNC
 *                 for tests: crash (SIGSEGV) or fail a GCC assertion while
 *                 lowering FUNC; FUNC "@analysis" is the unit's analysis
 *   Wlockhog[-KIND], Wno-lockhog[-KIND]
 *                 show or silence a kind's diagnostics, like GCC's own
 *                 -Wno-lockhog-KIND (see read_warning_options())
 *
 * Nothing the plugin does may break a build or change the code GCC
 * generates.  Lowering a function with loops uses GCC's loop machinery,
 * which rewrites the CFG (preheaders, simple latches: the code then
 * differs, e.g. in mm/compaction.o), so it runs in a forked copy of the
 * compiler that hands the IR back as text and dies with its changes; a
 * crash or a failed assertion there is a note and that function is
 * skipped.  The unit's analysis runs in such a copy too.  A function
 * without loops is lowered in the compiler itself, which only reads its
 * IL; a crash there is caught, but what it interrupted may be the
 * plugin's own tables, so the plugin stops for the unit: one note, no
 * section.  A bad option or rules file is a note and the plugin turns
 * itself off.
 */
#include "gcc-compat.h"
#include "opts.h"
#include "plugin-version.h"
#include <signal.h>
#include <setjmp.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include "lower.h"
#include "annot.h"
#include "instrument.h"
#include "../core/analysis.h"
#include "../core/message.h"
#include "../core/report.h"
#include "../core/checker.h"

int plugin_is_GPL_compatible;

static struct plugin_info lockhog_info = {
	.version = "1",
	.help = "lockhog: finds expensive work done while a lock is held\n"
		"  -fplugin-arg-lockhog-rules=FILE\n"
		"  -fplugin-arg-lockhog-diag=warn|note|none\n"
		"  -fplugin-arg-lockhog-section=0|1\n"
		"  -fplugin-arg-lockhog-json=FILE\n"
		"  -fplugin-arg-lockhog-instrument=all|REPORT.json|FUNCS  probes for the runtime\n"
		"  -fplugin-arg-lockhog-tag=X       (ignored: for kbuild's rebuilds)\n"
		"  -fplugin-arg-lockhog-fault=FUNC  (tests: SIGSEGV while lowering FUNC,\n"
		"                                    or in the analysis if FUNC is @analysis)\n"
		"  -fplugin-arg-lockhog-fault-ice=FUNC  (the same, a failed GCC assertion)\n"
		"  -Wno-lockhog[-KIND]              silence the findings of KIND (call, loop,\n"
		"                                   sleep, atomic; none: all) in diagnostics\n"
		"  -fplugin-arg-lockhog-Wlockhog[-KIND], -fplugin-arg-lockhog-Wno-lockhog[-KIND]\n"
		"                                   the same as a plugin argument; the last wins\n",
};

enum diag_mode { DIAG_WARN, DIAG_NOTE, DIAG_NONE };

static struct {
	enum diag_mode diag;
	int section;
	int disabled;
	const char *rules_path;
	unsigned kversion;	/* kversion=: the tree's kernel version, 0 unknown */
	const char *json_path;
	const char *instrument;	/* instrument=: all, a report, a list of functions */
	struct hog_strtab *strs;
	struct hog_rules *rules;
	struct hog_module *mod;
	struct lh_locs locs;
	const char *main_file;
	const char *fault;	/* fault=: SIGSEGV there */
	const char *fault_ice;	/* fault-ice=: a GCC assertion there */
	int broken;		/* a fault in-process, or no child: no more for this unit */
	struct hog_vec parts;	/* modules the children's IR was read into */
	bool silenced[HOG_MAX_KINDS];	/* -Wno-lockhog-KIND: no diagnostics of the kind */
} lh;

/* ---- isolation: analysis in a forked copy of the compiler ---- */

/* How a child that did not finish tells why. */
#define CHILD_ICE	90	/* GCC's internal_error(), an assertion */
#define CHILD_EXIT	91	/* it called exit(): a fatal error inside GCC */

static int in_child;

/*
 * exit() in the child would flush the compiler's stdio buffers, the
 * assembly among them, a second time: leave before it does.  Registered
 * last, so it runs before anything else atexit() holds.
 */
static void child_atexit(void)
{
	if (in_child)
		_exit(CHILD_EXIT);
}

static void child_ice(diagnostic_context *dc, const char *msg, va_list *ap)
{
	_exit(CHILD_ICE);
}

static void child_setup(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP };
	struct rlimit nocore = { 0, 0 };
	unsigned i;

	in_child = 1;
	/* GCC's crash handler would print an ICE and exit(): die quietly instead */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	setrlimit(RLIMIT_CORE, &nocore);
	global_dc->internal_error = child_ice;
}

static void fault_here(const char *where)
{
	static int *volatile nowhere;

	if (lh.fault && !strcmp(lh.fault, where))
		*nowhere = 1;
	if (lh.fault_ice && !strcmp(lh.fault_ice, where))
		fancy_abort(__FILE__, __LINE__, __FUNCTION__);
}

static bool write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		s += w;
		n -= w;
	}
	return true;
}

/*
 * Runs fn in a child process, which sees the compiler as it is now and
 * whose changes to it die with it; what fn puts in its buffer comes back
 * in *out.  Returns 0; 1 when the child failed, -1 when there could be
 * no child; why says why.
 */
static int isolate(void (*fn)(void *arg, struct hog_buf *out), void *arg,
		   struct hog_buf *out, char *why, size_t whylen)
{
	struct sigaction dfl, old;
	char buf[65536];
	int pfd[2], st, rc;
	ssize_t n;
	pid_t pid;

	if (pipe(pfd)) {
		snprintf(why, whylen, "pipe: %s", xstrerror(errno));
		return -1;
	}
	/* an ignored SIGCHLD, inherited from whoever ran GCC, would reap the child */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &dfl, &old);
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", xstrerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		sigaction(SIGCHLD, &old, NULL);
		return -1;
	}
	if (!pid) {
		struct hog_buf b = { 0 };

		close(pfd[0]);
		child_setup();
		fn(arg, &b);
		_exit(write_all(pfd[1], b.s ? b.s : "", b.len) ? 0 : 1);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		hog_buf_addn(out, buf, n);
	}
	close(pfd[0]);
	while ((rc = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	sigaction(SIGCHLD, &old, NULL);
	if (rc < 0) {
		snprintf(why, whylen, "waitpid: %s", xstrerror(errno));
		return -1;
	}
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	hog_buf_free(out);
	if (WIFSIGNALED(st))
		snprintf(why, whylen, "%s", strsignal(WTERMSIG(st)));
	else if (WEXITSTATUS(st) == CHILD_ICE)
		snprintf(why, whylen, "compiler assertion");
	else if (WEXITSTATUS(st) == CHILD_EXIT)
		snprintf(why, whylen, "fatal error in the compiler");
	else
		snprintf(why, whylen, "exit status %d", WEXITSTATUS(st));
	return 1;
}

/* ---- in-process guard, for lowering that only reads the IL ---- */

static sigjmp_buf guard_env;
static volatile sig_atomic_t guard_on;
static struct sigaction old_segv, old_bus, old_fpe;
static void (*old_ice_hook)(diagnostic_context *, const char *, va_list *);
static int guard_lock;

static void guard_signal(int sig)
{
	if (guard_on)
		siglongjmp(guard_env, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard_ice(diagnostic_context *dc, const char *msg, va_list *ap)
{
	if (guard_on)
		siglongjmp(guard_env, 1000);
	if (old_ice_hook)
		old_ice_hook(dc, msg, ap);
}

static void guard_enter(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = guard_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	sigaction(SIGFPE, &sa, &old_fpe);
	old_ice_hook = global_dc->internal_error;
	global_dc->internal_error = guard_ice;
	guard_lock = global_dc->lock;
	guard_on = 1;
}

static void guard_leave(void)
{
	guard_on = 0;
	global_dc->internal_error = old_ice_hook;
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	sigaction(SIGFPE, &old_fpe, NULL);
}

/* ---- the pass ---- */

static const pass_data lockhog_pass_data = {
	.type = GIMPLE_PASS,
	.name = "lockhog",
	.optinfo_flags = OPTGROUP_NONE,
	.tv_id = TV_NONE,
	.properties_required = PROP_ssa | PROP_cfg,
	.properties_provided = 0,
	.properties_destroyed = 0,
	.todo_flags_start = 0,
	.todo_flags_finish = 0,
};

namespace {
class lockhog_pass : public gimple_opt_pass {
public:
	lockhog_pass(gcc::context *ctx) : gimple_opt_pass(lockhog_pass_data, ctx) {}
	bool gate(function *) final override { return !lh.disabled; }
	unsigned int execute(function *fn) final override;
	opt_pass *clone() final override { return new lockhog_pass(m_ctxt); }
};
}

/* main_input_filename is only known once compilation has started. */
static void start_unit(void)
{
	if (lh.mod)
		return;
	lh.main_file = main_input_filename ? main_input_filename : "";
	while (lh.main_file[0] == '.' && lh.main_file[1] == '/')
		lh.main_file += 2;
	lh.mod = hog_module_new(lh.strs, lh.main_file);
	/* the pass runs after the unit is analysed: every initializer is there */
	lh_lower_inits(lh.mod, lh.rules, &lh.locs);
}

/*
 * In the child: lowers cfun and sends back its IR (one payload), then
 * the locations it noted as they are in the map, key and value, each
 * NUL-ended.
 */
static void lower_child(void *arg, struct hog_buf *out)
{
	struct hog_module *m = hog_module_new(lh.strs, lh.main_file);
	struct lh_locs locs = { lh.strs, hog_map_new() };
	const void *key;
	void *val;
	size_t it = 0;

	lh_lower(m, &locs, lh.rules);
	fault_here((const char *)arg);
	hog_module_write(m, out);
	while (hog_map_next(locs.map, &it, &key, &val)) {
		hog_buf_addn(out, (const char *)key, strlen((const char *)key) + 1);
		hog_buf_printf(out, "%lu", (unsigned long)(uintptr_t)val);
		hog_buf_addn(out, "", 1);
	}
}

/* The locations after the payload, first noted first kept, as lh_locs_note() keeps them. */
static void adopt_locs(const struct hog_buf *b, size_t off)
{
	while (off < b->len) {
		const char *k = b->s + off, *v = k + strnlen(k, b->len - off) + 1;
		const char *key;

		if (v >= b->s + b->len)
			break;
		off = v - b->s + strnlen(v, b->s + b->len - v) + 1;
		key = hog_intern(lh.strs, k);
		if (!hog_map_get(lh.locs.map, key))
			hog_map_put(lh.locs.map, key, (void *)(uintptr_t)strtoul(v, NULL, 10));
	}
}

/* Back in the compiler: the child's function joins the unit. */
static const char *adopt(const struct hog_buf *b)
{
	static char err[256];
	size_t plen = b->s ? strnlen(b->s, b->len) : 0;
	struct hog_module *part;
	char *perr = NULL;
	int i;

	if (!b->s || plen == b->len) {
		snprintf(err, sizeof(err), "no IR from the lowering");
		return err;
	}
	part = hog_module_read(lh.strs, b->s, plen, &perr);
	if (!part) {
		snprintf(err, sizeof(err), "bad IR from the lowering: %s", perr);
		free(perr);
		return err;
	}
	for (i = 0; i < part->nfuncs; i++) {
		struct hog_module *m = lh.mod;

		if (m->nfuncs == m->cap) {
			m->cap = m->cap ? m->cap * 2 : 64;
			m->funcs = (struct hog_func **)hog_xrealloc(m->funcs,
								   m->cap * sizeof(*m->funcs));
		}
		m->funcs[m->nfuncs++] = part->funcs[i];
	}
	/* the functions live in part's arena: keep it as long as the unit */
	hog_vec_push(&lh.parts, part);
	adopt_locs(b, plen + 1);
	return NULL;
}

/* A function whose lowering rewrites it: lowered in a child. */
static void lower_isolated(const char *name)
{
	struct hog_buf out = { 0 };
	const char *bad = NULL;
	char why[256];
	int rc;

	rc = isolate(lower_child, (void *)name, &out, why, sizeof(why));
	if (rc < 0) {
		/* no child to keep the rewrite away from the compiler: stop */
		lh.broken = 1;
		inform(UNKNOWN_LOCATION, "lockhog: cannot isolate the analysis (%s); "
		       "no analysis for this unit", why);
	} else if (rc > 0) {
		bad = why;
	} else {
		bad = adopt(&out);
	}
	if (bad)
		inform(DECL_SOURCE_LOCATION(current_function_decl),
		       "lockhog: internal error (%s) while lowering %qD; function skipped",
		       bad, current_function_decl);
	hog_buf_free(&out);
}

/*
 * A function lowering only reads, lowered here.  GCC's state is as it
 * was if this faults, but the plugin's tables (strings, locations, the
 * module) may be half-updated: stop for the unit rather than use them.
 */
static void lower_guarded(const char *name)
{
	int sig;

	guard_enter();
	sig = sigsetjmp(guard_env, 1);
	if (!sig) {
		lh_lower(lh.mod, &lh.locs, lh.rules);
		fault_here(name);
	} else {
		guard_on = 0;
		global_dc->lock = guard_lock;
	}
	guard_leave();
	if (sig) {
		lh.broken = 1;
		inform(DECL_SOURCE_LOCATION(current_function_decl),
		       "lockhog: internal error (%s) while lowering %qD; no analysis for this unit",
		       sig == 1000 ? "compiler assertion" : strsignal(sig), current_function_decl);
	}
}

/* cfun is the function: the pass manager set it */
unsigned int lockhog_pass::execute(function *)
{
	const char *name = IDENTIFIER_POINTER(DECL_NAME(current_function_decl));

	start_unit();
	if (lh.broken)
		return lh_instrument_function(NULL);
	if (lh_lower_changes_cfg())
		lower_isolated(name);
	else
		lower_guarded(name);
	/* after the lowering: the IR is of the code as written */
	return lh_instrument_function(lh.broken ? NULL : lh.mod);
}

/* ---- at the end of the unit ---- */

static void emit_section(void)
{
	struct hog_buf b = { 0 };
	size_t i;
	int col = 0;

	if (!asm_out_file || !lh.section || !lh.mod->nfuncs)
		return;
	hog_module_write(lh.mod, &b);
	/*
	 * "e" is SHF_EXCLUDE: kept in objects and in ld -r output, dropped
	 * from any final link, like the LTO sections.  A .note.* name,
	 * because modpost warns about any other non-allocated section.
	 */
	fputs("\t.pushsection " HOG_IR_SECTION ",\"e\",@progbits\n\t.ascii \"", asm_out_file);
	for (i = 0; i < b.len; i++) {
		unsigned char c = b.s[i];

		if (col > 400) {
			fputs("\"\n\t.ascii \"", asm_out_file);
			col = 0;
		}
		if (c == '"' || c == '\\') {
			fputc('\\', asm_out_file);
			fputc(c, asm_out_file);
			col += 2;
		} else if (c < ' ' || c >= 0x7f) {
			fprintf(asm_out_file, "\\%03o", c);
			col += 4;
		} else {
			fputc(c, asm_out_file);
			col++;
		}
	}
	fputs("\"\n\t.popsection\n", asm_out_file);
	hog_buf_free(&b);
}

static void say(location_t loc, bool warn, const char *fmt, ...)
	ATTRIBUTE_GCC_DIAG(3, 4);

static void say(location_t loc, bool warn, const char *fmt, ...)
{
	diagnostic_info d;
	va_list ap;
	rich_location rl(line_table, loc);

	bool werror = global_dc->warning_as_error_requested;

	/*
	 * Our warnings stay warnings under -Werror (CONFIG_WERROR): a
	 * checker that fails the build gets switched off.
	 */
	global_dc->warning_as_error_requested = false;
	va_start(ap, fmt);
	diagnostic_set_info(&d, fmt, &ap, &rl, warn ? DK_WARNING : DK_NOTE);
	/*
	 * Nor are they counted as the compiler's warnings: GCC would take a
	 * -Wno-lockhog-KIND that did its work for a misspelt option ("may
	 * have been intended to silence earlier diagnostics").
	 */
	if (diagnostic_report_diagnostic(global_dc, &d) && warn &&
	    d.kind == DK_WARNING && diagnostic_kind_count(global_dc, DK_WARNING) > 0)
		diagnostic_kind_count(global_dc, DK_WARNING)--;
	va_end(ap);
	global_dc->warning_as_error_requested = werror;
}

/*
 * In the analysis child, a diagnostic for the compiler to print once the
 * child is done: 'W' or 'N', the location, the text, each NUL-ended.
 */
static void tell(struct hog_buf *out, location_t loc, bool warn, const char *fmt, ...)
	ATTRIBUTE_PRINTF(4, 5);

static void tell(struct hog_buf *out, location_t loc, bool warn, const char *fmt, ...)
{
	va_list ap;

	hog_buf_printf(out, "%c%u", warn ? 'W' : 'N', (unsigned)loc);
	hog_buf_addn(out, "", 1);
	va_start(ap, fmt);
	hog_buf_vprintf(out, fmt, ap);
	va_end(ap);
	hog_buf_addn(out, "", 1);
}

/* Back in the compiler: what the child told, all of it or nothing. */
static void replay(const struct hog_buf *b)
{
	size_t off = 0;

	while (b->s && off < b->len) {
		const char *rec = b->s + off, *loc = rec + 1;
		const char *text = loc + strnlen(loc, b->len - off - 1) + 1;

		if (text >= b->s + b->len)
			break;
		off = text - b->s + strnlen(text, b->s + b->len - text) + 1;
		say((location_t)strtoul(loc, NULL, 10), *rec == 'W', "%s", text);
	}
}

static location_t find_loc(const char *file, int line, int col)
{
	return lh_locs_find(&lh.locs, file ? file : "", line, col);
}

struct finding_out {
	struct hog_buf *out;
	bool warn;		/* the finding's own line is a warning, else a note */
	location_t primary;	/* where the finding is: for lines with no place of their own */
};

/*
 * One line of a finding (hog_finding_lines()), as lockhog's text report
 * has it: the finding a warning or a note, the rest notes.  A line whose
 * place the unit never saw goes with the finding, but a chain step or
 * the acquire would then point at the wrong place and is left out.
 */
static void finding_line(void *ctx, const struct hog_line *l)
{
	struct finding_out *o = (struct finding_out *)ctx;
	location_t at = find_loc(l->file, l->line, l->col);

	if (l->kind == HOG_LINE_MESSAGE) {
		o->primary = at != UNKNOWN_LOCATION ? at : input_location;
		tell(o->out, o->primary, o->warn, "%s", l->text);
		return;
	}
	if (at == UNKNOWN_LOCATION && (l->kind == HOG_LINE_STEP || l->kind == HOG_LINE_TAKEN))
		return;
	tell(o->out, at != UNKNOWN_LOCATION ? at : o->primary, false, "%s", l->text);
}

static void report_finding(struct hog_buf *out, const struct hog_finding *f, bool warn)
{
	struct finding_out o = { out, warn, UNKNOWN_LOCATION };

	hog_finding_lines(f, HOG_MAX_CALLERS_SHOWN, finding_line, &o);
}

/* Machine-readable findings of this unit, written whole or not at all. */
static void write_json(struct hog_buf *out, struct hog_prog *prog)
{
	int n = hog_prog_nfindings(prog), i;
	struct hog_report_item *items = XCNEWVEC(struct hog_report_item, n + 1);
	struct hog_report_opts o;
	struct hog_buf b = { 0 };
	char *err = NULL;

	memset(&o, 0, sizeof(o));
	for (i = 0; i < n; i++)
		items[i].f = hog_prog_finding(prog, i);
	if (hog_report(items, n, &o, HOG_FMT_JSON, &b, &err) ||
	    hog_write_file_atomic(lh.json_path, b.s ? b.s : "[]\n", b.len))
		tell(out, UNKNOWN_LOCATION, false, "lockhog: cannot write %s: %s", lh.json_path,
		     err ? err : xstrerror(errno));
	free(err);
	hog_buf_free(&b);
	XDELETEVEC(items);
}

/* In the child: the unit's analysis; the process ends with it, nothing is freed. */
static void analysis_child(void *, struct hog_buf *out)
{
	struct hog_prog *prog = hog_prog_new(lh.strs, lh.rules);
	bool warn = lh.diag == DIAG_WARN;
	int i;

	hog_prog_add_module(prog, lh.mod);
	hog_prog_solve(prog);
	fault_here("@analysis");
	for (i = 0; i < hog_prog_nfindings(prog); i++) {
		const struct hog_finding *f = hog_prog_finding(prog, i);

		/* header findings belong to the whole-tree scan, not every unit */
		if (f->paths[0].file && lh.main_file && strcmp(f->paths[0].file, lh.main_file))
			continue;
		if (lh.diag != DIAG_NONE && !lh.silenced[f->kind])
			report_finding(out, f, warn && f->sev >= HS_WARNING);
	}
	if (lh.json_path)
		write_json(out, prog);
}

static void finish_unit(void *, void *)
{
	struct hog_buf out = { 0 };
	char why[256];
	int i, rc;

	if (lh.disabled || !lh.mod || lh.broken)
		return;
	emit_section();
	if ((lh.diag != DIAG_NONE || lh.json_path) && !seen_error()) {
		rc = isolate(analysis_child, NULL, &out, why, sizeof(why));
		if (!rc)
			replay(&out);
		else if (rc < 0)
			inform(UNKNOWN_LOCATION, "lockhog: cannot isolate the analysis (%s); "
			       "no findings for this unit", why);
		else
			inform(UNKNOWN_LOCATION, "lockhog: internal error (%s) during analysis; "
			       "no findings for this unit", why);
		hog_buf_free(&out);
	}
	hog_module_free(lh.mod);
	lh.mod = NULL;
	for (i = 0; i < lh.parts.n; i++)
		hog_module_free((struct hog_module *)lh.parts.v[i]);
	hog_vec_free(&lh.parts);
}

static const char *default_rules(const char *plugin_path)
{
	char *dir = xstrdup(plugin_path), *slash = strrchr(dir, '/');
	char *p;

	if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	p = concat(dir, "/../rules/kernel.rules", NULL);
	free(dir);
	return p;
}

/*
 * "Wno-lockhog-loop", "Wlockhog", ...: the kinds it names (a mask of
 * 1 << kind, the checkers' names) and whether it shows them, or -1 when
 * it is no such option.
 */
static int warning_option(const char *opt, bool *show)
{
	const char *k;
	int i;

	*show = strncmp(opt, "Wno-", 4) != 0;
	k = *show ? opt + 1 : opt + 4;
	if (opt[0] != 'W' || strncmp(k, "lockhog", 7))
		return -1;
	k += 7;
	if (!*k)
		return (1 << hog_nkinds()) - 1;
	for (i = 0; *k == '-' && i < hog_nkinds(); i++)
		if (!strcmp(k + 1, hog_kind_name((enum hog_kind)i)))
			return 1 << i;
	return -1;
}

/* -Wno-lockhog... and -fplugin-arg-lockhog-W... options read, at most */
#define MAX_WARNING_OPTIONS 64

/* Our warning options, "Wno-lockhog-call" and the like, in some order. */
struct wopts {
	const char *v[MAX_WARNING_OPTIONS];
	int n;
};

/* Keeps opt if it is one of ours: "-Wno-lockhog-KIND" or "-fplugin-arg-BASE-W..." */
static void wopts_add(struct wopts *w, const char *opt, const char *base)
{
	size_t n = strlen(base);
	bool show;

	if (opt[0] != '-')
		return;
	opt++;
	if (!strncmp(opt, "fplugin-arg-", 12) && !strncmp(opt + 12, base, n) &&
	    opt[12 + n] == '-')
		opt += 12 + n + 1;
	if (warning_option(opt, &show) > 0 && w->n < MAX_WARNING_OPTIONS)
		w->v[w->n++] = opt;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether a and b hold the same options, whatever their order. */
static bool wopts_same(const struct wopts *a, const struct wopts *b)
{
	struct wopts x = *a, y = *b;
	int i;

	if (x.n != y.n)
		return false;
	qsort(x.v, x.n, sizeof(x.v[0]), cmp_str);
	qsort(y.v, y.n, sizeof(y.v[0]), cmp_str);
	for (i = 0; i < x.n; i++)
		if (strcmp(x.v[i], y.v[i]))
			return false;
	return true;
}

/*
 * The driver's own command line, COLLECT_GCC_OPTIONS: 'opt' 'opt' ...,
 * a quote inside written '\''.  Its words are kept in buf.
 */
static void driver_options(struct wopts *w, const char *base, char *buf, size_t len)
{
	const char *e = getenv("COLLECT_GCC_OPTIONS");
	char *o = buf, *end = buf + len - 1, *word;

	while (e && *e) {
		while (*e == ' ')
			e++;
		if (*e != '\'')
			return;
		word = o;
		for (e++; *e && o < end; ) {
			if (!strncmp(e, "'\\''", 4)) {
				*o++ = '\'';
				e += 4;
			} else if (*e == '\'') {
				e++;
				break;
			} else {
				*o++ = *e++;
			}
		}
		if (o >= end)
			return;
		*o++ = 0;
		wopts_add(w, word, base);
	}
}

/*
 * -Wno-lockhog-KIND silences KIND's diagnostics (-Wno-lockhog: every
 * kind), -Wlockhog-KIND shows them again, and the last one given wins,
 * as with GCC's own warnings.  GCC lets an unknown -Wno-* through to the
 * compiler proper, which keeps it in the decoded options as
 * OPT_SPECIAL_unknown; but both the driver and cc1 refuse an unknown
 * -Wlockhog-KIND, so that form (and -Wno- too) is also taken as a plugin
 * argument, -fplugin-arg-lockhog-Wlockhog-KIND.  The driver hands cc1
 * every -W option before every -f option, so the order they were given
 * in is the driver's (COLLECT_GCC_OPTIONS, in the environment of what it
 * runs), when that holds the same options; else cc1's own (cc1 run by
 * hand).  Only what the plugin prints is silenced: the analysis still
 * goes into the object and into the json= file.
 */
static void read_warning_options(const char *base)
{
	static char buf[8192];
	struct wopts cc1 = { {}, 0 }, drv = { {}, 0 };
	const struct wopts *w = &cc1;
	unsigned i;
	int j, k;

	for (i = 0; i < save_decoded_options_count; i++) {
		const struct cl_decoded_option *o = &save_decoded_options[i];

		if (o->opt_index == OPT_SPECIAL_unknown || o->opt_index == OPT_fplugin_arg_)
			wopts_add(&cc1, o->orig_option_with_args_text, base);
	}
	driver_options(&drv, base, buf, sizeof(buf));
	if (wopts_same(&cc1, &drv))
		w = &drv;
	for (j = 0; j < w->n; j++) {
		bool show;
		int mask = warning_option(w->v[j], &show);

		for (k = 0; k < hog_nkinds(); k++)
			if (mask & (1 << k))
				lh.silenced[k] = !show;
	}
}

static bool parse_args(struct plugin_name_args *info)
{
	bool show;
	int i;

	lh.diag = DIAG_WARN;
	lh.section = 1;
	lh.rules_path = default_rules(info->full_name);
	for (i = 0; i < info->argc; i++) {
		const char *k = info->argv[i].key, *v = info->argv[i].value;

		if (!strcmp(k, "rules") && v) {
			lh.rules_path = v;
		} else if (!strcmp(k, "kversion") && v) {
			/* which since=/until= rules apply: lockhog scan passes the tree's */
			if (hog_kversion_parse(v, &lh.kversion)) {
				inform(UNKNOWN_LOCATION, "lockhog: bad kernel version %<%s%> for %<-fplugin-arg-lockhog-kversion%>; plugin disabled", v);
				return false;
			}
		} else if (!strcmp(k, "diag") && v) {
			if (!strcmp(v, "warn"))
				lh.diag = DIAG_WARN;
			else if (!strcmp(v, "note"))
				lh.diag = DIAG_NOTE;
			else if (!strcmp(v, "none"))
				lh.diag = DIAG_NONE;
			else
				goto bad;
		} else if (!strcmp(k, "section") && v) {
			if (strcmp(v, "0") && strcmp(v, "1"))
				goto bad;
			lh.section = v[0] == '1';
		} else if (!strcmp(k, "instrument") && v) {
			lh.instrument = v;
		} else if (!strcmp(k, "json") && v) {
			lh.json_path = v;
		} else if (!strcmp(k, "fault") && v) {
			lh.fault = v;
		} else if (!strcmp(k, "fault-ice") && v) {
			lh.fault_ice = v;
		} else if (!strcmp(k, "tag")) {
			/* for kbuild's command-line tracking only */
		} else if (!v && warning_option(k, &show) > 0) {
			/* read in order with GCC's options: read_warning_options() */
		} else {
bad:
			inform(UNKNOWN_LOCATION, "lockhog: unknown option %<-fplugin-arg-lockhog-%s%s%s%>; plugin disabled",
			       k, v ? "=" : "", v ? v : "");
			return false;
		}
	}
	return true;
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	struct register_pass_info pass;
	char *err = NULL;

	if (!plugin_default_version_check(version, &gcc_version)) {
		inform(UNKNOWN_LOCATION, "lockhog: built for another GCC; plugin disabled");
		return 0;
	}
	register_callback(info->base_name, PLUGIN_INFO, NULL, &lockhog_info);
	if (!parse_args(info)) {
		lh.disabled = 1;
		return 0;
	}
	read_warning_options(info->base_name);
	lh.strs = hog_strtab_new();
	lh.rules = hog_rules_new(lh.strs);
	hog_rules_set_kversion(lh.rules, lh.kversion);
	if (hog_rules_load(lh.rules, lh.rules_path, &err)) {
		inform(UNKNOWN_LOCATION, "lockhog: %s; plugin disabled", err);
		free(err);
		lh.disabled = 1;
		return 0;
	}
	if (lh.instrument) {
		char ierr[512];

		if (lh_instrument_init(lh.instrument, lh.strs, lh.rules, ierr, sizeof(ierr))) {
			inform(UNKNOWN_LOCATION, "lockhog: %s; plugin disabled", ierr);
			lh.disabled = 1;
			return 0;
		}
	}
	lh.locs.strs = lh.strs;
	lh.locs.map = hog_map_new();
	lh_annot_init();
	atexit(child_atexit);

	pass.pass = new lockhog_pass(g);
	pass.reference_pass_name = "ssa";
	pass.ref_pass_instance_number = 1;
	pass.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
	register_callback(info->base_name, PLUGIN_FINISH_UNIT, finish_unit, NULL);
	return 0;
}
