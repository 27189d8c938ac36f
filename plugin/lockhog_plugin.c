// SPDX-License-Identifier: GPL-2.0
/*
 * lockhog's GCC plugin: lowers every function right after the "ssa"
 * pass (before inlining, while the kernel's lock wrappers are still
 * calls), analyses the translation unit when it is done, prints
 * findings as warnings, and stores the lowered functions in a .lockhog
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
 *   tag=...       ignored; lets kbuild see a new plugin as a new command
 *
 * Nothing the plugin does may break a build: a bad option or rules file
 * is a note and the plugin turns itself off, and a crash inside the
 * analysis of a function is caught, reported as a note and the
 * function skipped.
 */
#include "gcc-compat.h"
#include "plugin-version.h"
#include <signal.h>
#include <setjmp.h>
#include "lower.h"
#include "../core/analysis.h"
#include "../core/message.h"
#include "../core/report.h"

int plugin_is_GPL_compatible;

static struct plugin_info lockhog_info = {
	.version = "1",
	.help = "lockhog: finds expensive work done while a lock is held\n"
		"  -fplugin-arg-lockhog-rules=FILE\n"
		"  -fplugin-arg-lockhog-diag=warn|note|none\n"
		"  -fplugin-arg-lockhog-section=0|1\n",
};

enum diag_mode { DIAG_WARN, DIAG_NOTE, DIAG_NONE };

static struct {
	enum diag_mode diag;
	int section;
	int disabled;
	const char *rules_path;
	const char *json_path;
	struct hog_strtab *strs;
	struct hog_rules *rules;
	struct hog_module *mod;
	struct lh_locs locs;
	const char *main_file;
} lh;

/* ---- crash guard ---- */

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

/* After a longjmp: put back what a half-done step may have left behind. */
static void guard_recover(void)
{
	global_dc->lock = guard_lock;
	if (scev_initialized_p())
		scev_finalize();
	if (current_loops && loops_state_satisfies_p(LOOPS_HAVE_PREHEADERS))
		loop_optimizer_finalize();
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
}

unsigned int lockhog_pass::execute(function *fn)
{
	int saved, sig;

	(void)fn;
	start_unit();
	saved = lh.mod->nfuncs;
	guard_enter();
	sig = sigsetjmp(guard_env, 1);
	if (!sig) {
		lh_lower(lh.mod, &lh.locs);
	} else {
		guard_on = 0;
		guard_recover();
		lh.mod->nfuncs = saved;
		inform(DECL_SOURCE_LOCATION(current_function_decl),
		       "lockhog: internal error (%s) while lowering %qD; function skipped",
		       sig == 1000 ? "compiler assertion" : strsignal(sig),
		       current_function_decl);
	}
	guard_leave();
	return 0;
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
	 * from any final link, like the LTO sections.
	 */
	fputs("\t.pushsection .lockhog,\"e\",@progbits\n\t.ascii \"", asm_out_file);
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
	diagnostic_report_diagnostic(global_dc, &d);
	va_end(ap);
	global_dc->warning_as_error_requested = werror;
}

static location_t find_loc(const char *file, int line, int col)
{
	return lh_locs_find(&lh.locs, file ? file : "", line, col);
}

static void report_finding(const struct hog_finding *f, bool warn)
{
	const struct hog_path *p = &f->paths[0];
	location_t loc = find_loc(p->file, p->line, p->col), at;
	char *msg = hog_finding_message(f, p), *chain = hog_path_text(f, p);
	int i;

	if (loc == UNKNOWN_LOCATION)
		loc = input_location;
	say(loc, warn, "%s [%s]", msg, hog_finding_option(f));
	say(loc, false, "%s: %s", f->callee ? f->callee : f->site_func,
	    f->reason ? f->reason : f->cls);
	if (p->nchain > 1 || f->kind != HK_LOOP)
		say(loc, false, "call chain: %s", chain);
	for (i = 1; i < p->nchain; i++) {
		at = find_loc(p->chain[i].file, p->chain[i].line, p->chain[i].col);
		if (at != UNKNOWN_LOCATION)
			say(at, false, "%s() %s here", p->chain[i].func,
			    i == p->nchain - 1 && f->kind == HK_LOOP ? "loops" : "calls on");
	}
	if (p->lock.line && p->lock.cls) {
		at = find_loc(p->file, p->lock.line, 0);
		(void)at;
	}
	for (i = 1; i < f->npaths && i < 6; i++) {
		char *c = hog_path_text(f, &f->paths[i]);

		say(loc, false, "also reached from %s() at %s:%d: %s", f->paths[i].holder,
		    f->paths[i].file, f->paths[i].line, c);
		free(c);
	}
	if (f->npaths > 6)
		say(loc, false, "and from %d more callers", f->npaths - 6);
	free(msg);
	free(chain);
}

/* Machine-readable findings of this unit, written whole or not at all. */
static void write_json(struct hog_prog *prog)
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
		inform(UNKNOWN_LOCATION, "lockhog: cannot write %s: %s", lh.json_path,
		       err ? err : xstrerror(errno));
	free(err);
	hog_buf_free(&b);
	XDELETEVEC(items);
}

static void finish_unit(void *gcc_data, void *user_data)
{
	struct hog_prog *prog;
	int i, sig;
	bool warn = lh.diag == DIAG_WARN;

	(void)gcc_data;
	(void)user_data;
	if (lh.disabled || !lh.mod)
		return;
	emit_section();
	if ((lh.diag == DIAG_NONE && !lh.json_path) || seen_error())
		return;
	prog = hog_prog_new(lh.strs, lh.rules);
	hog_prog_add_module(prog, lh.mod);
	lh.mod = NULL;
	guard_enter();
	sig = sigsetjmp(guard_env, 1);
	if (!sig) {
		hog_prog_solve(prog);
		for (i = 0; i < hog_prog_nfindings(prog); i++) {
			const struct hog_finding *f = hog_prog_finding(prog, i);

			/* header findings belong to the whole-tree scan, not every unit */
			if (f->paths[0].file && lh.main_file &&
			    strcmp(f->paths[0].file, lh.main_file))
				continue;
			if (lh.diag != DIAG_NONE)
				report_finding(f, warn && f->sev >= HS_WARNING);
		}
		if (lh.json_path)
			write_json(prog);
	} else {
		guard_on = 0;
		global_dc->lock = guard_lock;
		inform(UNKNOWN_LOCATION, "lockhog: internal error (%s) during analysis; no findings for this unit",
		       sig == 1000 ? "compiler assertion" : strsignal(sig));
	}
	guard_leave();
	/* the program leaks on purpose after a crash: its state is suspect */
	if (!sig)
		hog_prog_free(prog);
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

static bool parse_args(struct plugin_name_args *info)
{
	int i;

	lh.diag = DIAG_WARN;
	lh.section = 1;
	lh.rules_path = default_rules(info->full_name);
	for (i = 0; i < info->argc; i++) {
		const char *k = info->argv[i].key, *v = info->argv[i].value;

		if (!strcmp(k, "rules") && v) {
			lh.rules_path = v;
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
		} else if (!strcmp(k, "json") && v) {
			lh.json_path = v;
		} else if (!strcmp(k, "tag")) {
			/* for kbuild's command-line tracking only */
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
	lh.strs = hog_strtab_new();
	lh.rules = hog_rules_new(lh.strs);
	if (hog_rules_load(lh.rules, lh.rules_path, &err)) {
		inform(UNKNOWN_LOCATION, "lockhog: %s; plugin disabled", err);
		free(err);
		lh.disabled = 1;
		return 0;
	}
	lh.locs.strs = lh.strs;
	lh.locs.map = hog_map_new();

	pass.pass = new lockhog_pass(g);
	pass.reference_pass_name = "ssa";
	pass.ref_pass_instance_number = 1;
	pass.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
	register_callback(info->base_name, PLUGIN_FINISH_UNIT, finish_unit, NULL);
	return 0;
}
