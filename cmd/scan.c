// SPDX-License-Identifier: GPL-2.0
/* lockhog scan, report, rules and dump. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <getopt.h>
#include <unistd.h>
#include <limits.h>
#include <sys/stat.h>
#include <jansson.h>
#include "lockhog.h"
#include "../core/runtime.h"
#include "../core/html.h"

struct hog_rules *load_rules(struct hog_strtab *strs, const struct tools *t)
{
	struct hog_rules *r = hog_rules_new(strs);
	char *err = NULL;

	hog_rules_set_kversion(r, t->kversion);
	if (hog_rules_load(r, t->rules, &err))
		die("%s", err);
	return r;
}

/* To FILE, whole or not at all, or to stdout. */
void write_out(const char *out, const struct hog_buf *b)
{
	if (out) {
		if (hog_write_file_atomic(out, b->s ? b->s : "", b->len))
			die("%s: %s", out, strerror(errno));
	} else if (b->len) {
		if (fwrite(b->s, 1, b->len, stdout) != b->len || fflush(stdout))
			die("standard output: %s", strerror(errno));
	}
}

int emit(struct hog_prog *prog, const struct output *o)
{
	int n = hog_prog_nfindings(prog), i, worst = -1;
	struct hog_report_item *items = hog_xcalloc(n + 1, sizeof(*items));
	struct hog_report_opts ro = {
		.min_sev = o->min_sev,
		.srcroot = o->srcroot,
		.tool_version = LOCKHOG_VERSION,
		.scope = o->scope,
	};
	struct hog_buf b = { 0 };
	char *err = NULL;
	int k = 0;

	ro.nlimited = hog_prog_nincomplete(prog);
	ro.limited = hog_xcalloc(ro.nlimited + 1, sizeof(*ro.limited));
	for (i = 0; i < ro.nlimited; i++)
		((const struct hog_summary **)ro.limited)[i] = hog_prog_incomplete(prog, i);
	for (i = 0; i < n; i++) {
		const struct hog_finding *f = hog_prog_finding(prog, i);

		if (hog_baseline_accepts(o->baseline, f))
			continue;
		items[k++].f = f;
		if ((int)f->sev > worst)
			worst = f->sev;
	}
	n = k;
	if (hog_report(items, n, &ro, o->fmt, &b, &err))
		die("%s", err);
	write_out(o->out, &b);
	hog_buf_free(&b);
	free((void *)ro.limited);
	free(items);
	return o->fail_on >= 0 && worst >= o->fail_on ? EXIT_FINDINGS : 0;
}

enum { OPT_PLUGIN = 256, OPT_RULES, OPT_FAIL_ON, OPT_ALL, OPT_MIN, OPT_BASELINE,
       OPT_WRITE_BASELINE, OPT_CC, OPT_CC_PLUGIN, OPT_STATIC, OPT_FRONTEND, OPT_KVERSION };

static const struct option scan_opts[] = {
	{ "kernel", required_argument, NULL, 'k' },
	{ "format", required_argument, NULL, 'f' },
	{ "out", required_argument, NULL, 'o' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "min-severity", required_argument, NULL, OPT_MIN },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "plugin", required_argument, NULL, OPT_PLUGIN },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "write-baseline", required_argument, NULL, OPT_WRITE_BASELINE },
	{ "cc", required_argument, NULL, OPT_CC },
	{ "cc-loads-plugin", no_argument, NULL, OPT_CC_PLUGIN },
	{ "frontend", required_argument, NULL, OPT_FRONTEND },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static void scan_usage(FILE *f)
{
	fputs("usage: lockhog scan --kernel DIR [options] [PATH...]\n"
	      "  Builds PATHs (directories or .c files of the tree; default: the whole\n"
	      "  kernel) with the lockhog plugin and reports what runs under locks.\n"
	      "  A tree without .config is configured: defconfig plus MEMCG.\n"
	      "\n"
	      "  --format text|json|sarif|html  output format (text)\n"
	      "  --out FILE                 write there instead of stdout\n"
	      "  --all                      text: show notes too (same as --min-severity note)\n"
	      "  --min-severity SEV         text: hide findings below SEV (warning)\n"
	      "  --fail-on SEV              exit 1 if a finding is at or above SEV (none)\n"
	      "  --jobs N                   parallel kbuild jobs (all CPUs)\n"
	      "  --verbose                  show kbuild's output\n"
	      "  --cc CMD                   kbuild's compiler, e.g. \"distcc gcc\" (HOSTCC stays)\n"
	      "  --cc-loads-plugin          CMD loads the plugin itself (scripts/lockhog-gcc,\n"
	      "                             for distccd, which refuses -fplugin=)\n"
	      "  --frontend gcc|clang       whose IR to read: the plugin's sections (gcc), or\n"
	      "                             lockhog-check's sidecars, run as C=2 CHECK= (clang)\n"
	      "  --write-baseline FILE      record every finding as accepted\n"
	      "  --baseline FILE            hide findings the baseline accepts\n"
	      "  --plugin FILE, --rules FILE  override the plugin and catalogue\n", f);
}

static int common_opt(int c, const char *arg, struct output *o, const char **plugin,
		      const char **rules)
{
	int v;

	switch (c) {
	case 'f':
		v = hog_format_parse(arg);
		if (v < 0)
			die("unknown format '%s' (text, json, sarif or html)", arg);
		o->fmt = v;
		return 1;
	case 'o':
		o->out = arg;
		return 1;
	case OPT_ALL:
		o->min_sev = HS_NOTE;
		return 1;
	case OPT_MIN:
		v = parse_sev(arg);
		o->min_sev = v < 0 ? HS_ERROR + 1 : v;
		return 1;
	case OPT_FAIL_ON:
		o->fail_on = parse_sev(arg);
		return 1;
	case OPT_PLUGIN:
		*plugin = arg;
		return 1;
	case OPT_RULES:
		*rules = arg;
		return 1;
	case OPT_BASELINE: {
		char *err = NULL;

		o->baseline = hog_baseline_load(arg, &err);
		if (!o->baseline)
			die("%s", err);
		return 1;
	}
	}
	return 0;
}

static char *abspath(const char *p)
{
	char buf[PATH_MAX];

	return realpath(p, buf) ? hog_xstrdup(buf) : hog_xstrdup(p);
}

/* The command line of scan, the options report shares with it in o. */
static void scan_args(int argc, char **argv, struct output *o, struct kbuild *k,
		      const char **plugin, const char **rules, const char **dir,
		      const char **write_base, enum frontend *fe)
{
	int c;

	k->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	optind = 1;
	while ((c = getopt_long(argc, argv, "k:f:o:j:vh", scan_opts, NULL)) != -1) {
		if (common_opt(c, optarg, o, plugin, rules))
			continue;
		switch (c) {
		case 'k':
			*dir = optarg;
			break;
		case 'j':
			k->jobs = atoi(optarg);
			if (k->jobs < 1)
				die("--jobs needs a positive number");
			break;
		case 'v':
			k->verbose = 1;
			break;
		case OPT_WRITE_BASELINE:
			*write_base = optarg;
			break;
		case OPT_CC:
			if (!*optarg || strspn(optarg, " \t") == strlen(optarg))
				die("--cc needs a compiler command");
			k->cc = optarg;
			break;
		case OPT_CC_PLUGIN:
			k->cc_loads_plugin = 1;
			break;
		case OPT_FRONTEND:
			*fe = frontend_parse(optarg);
			k->check = *fe == FE_CLANG;
			break;
		case 'h':
			scan_usage(stdout);
			exit(0);
		default:
			scan_usage(stderr);
			exit(EXIT_ERROR);
		}
	}
}

/* Builds the PATHs (none: the whole tree) and adds their objects to objs; the scope in scope. */
static void build_paths(struct kbuild *k, int argc, char **argv, struct objset *objs,
			struct hog_buf *scope)
{
	const char **targets = hog_xcalloc(argc + 1, sizeof(*targets));
	int i, ntargets = 0;

	for (i = optind; i < argc; i++) {
		int isdir;

		targets[ntargets++] = kbuild_target(k->dir, argv[i], &isdir);
		if (scope->len)
			hog_buf_add(scope, " ");
		hog_buf_add(scope, targets[ntargets - 1]);
	}
	kbuild_build(k, targets, ntargets);
	if (!ntargets) {
		objset_add(objs, k->dir);
		hog_buf_add(scope, k->dir);
	}
	for (i = 0; i < ntargets; i++) {
		char *p = hog_xasprintf("%s/%s", k->dir, targets[i]);

		objset_add(objs, p);
		free(p);
	}
	free(targets);
}

int cmd_scan(int argc, char **argv)
{
	struct output o = { .fmt = HOG_FMT_TEXT, .min_sev = HS_WARNING, .fail_on = -1 };
	struct kbuild k = { 0 };
	struct tools t;
	struct objset objs = { 0 };
	const char *plugin = NULL, *rules = NULL, *dir = NULL, *write_base = NULL;
	struct hog_strtab *strs;
	struct hog_rules *r;
	struct hog_prog *prog;
	struct hog_buf scope = { 0 };
	int skipped, loaded, rc;

	objs.fe = FE_GCC;
	scan_args(argc, argv, &o, &k, &plugin, &rules, &dir, &write_base, &objs.fe);
	if (!dir)
		die("scan needs --kernel DIR");
	if (k.cc_loads_plugin && !k.cc)
		die("--cc-loads-plugin needs --cc CMD");
	tools_locate(&t, plugin, rules);
	strs = hog_strtab_new();
	r = load_rules(strs, &t);	/* a bad catalogue fails here, before any build */
	kbuild_check_tree(dir);
	k.dir = dir;
	k.tools = &t;
	kbuild_configure(&k);
	/* read again for the tree's version; a catalogue's errors do not depend on it */
	hog_rules_free(r);
	tools_kversion(&t, dir);
	r = load_rules(strs, &t);
	k.llvm = kbuild_llvm(dir);
	if (k.llvm && objs.fe != FE_CLANG)
		die("%s: built by clang (LLVM=%s): the GCC plugin cannot run there; "
		    "use --frontend clang", dir, k.llvm);
	build_paths(&k, argc, argv, &objs, &scope);

	prog = hog_prog_new(strs, r);
	loaded = objset_load(&objs, prog, strs, &skipped);
	if (!loaded)
		die("%s: no object carries lockhog's analysis (was the plugin loaded?)",
		    scope.s ? scope.s : dir);
	objset_tree(&objs, prog, dir);
	hog_prog_solve(prog);
	o.scope = scope.s;
	o.srcroot = abspath(dir);
	if (write_base && hog_baseline_write(prog, write_base))
		die("%s: %s", write_base, strerror(errno));
	rc = emit(prog, &o);
	hog_prog_free(prog);
	return rc;
}

static const struct option report_opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "out", required_argument, NULL, 'o' },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "min-severity", required_argument, NULL, OPT_MIN },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "srcroot", required_argument, NULL, 's' },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "static", required_argument, NULL, OPT_STATIC },
	{ "frontend", required_argument, NULL, OPT_FRONTEND },
	{ "kversion", required_argument, NULL, OPT_KVERSION },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static void report_usage(FILE *f)
{
	fputs("usage: lockhog report [--format text|json|sarif|html] [--out FILE] [--all]\n"
	      "                      [--fail-on SEV] [--srcroot DIR] [--frontend gcc|clang]\n"
	      "                      [--kversion X.Y[.Z]] OBJ|SIDECAR|DIR...\n"
	      "       lockhog report [--format text|json|html] [--out FILE]\n"
	      "                      [--static SCAN.json] RUNTIME.json|-\n"
	      "  The second form renders run-time data (docs/runtime.md: the kernel's\n"
	      "  /sys/kernel/debug/lockhog/json, or $LOCKHOG_OUT of the userspace\n"
	      "  runtime), joined to the findings of SCAN.json (lockhog scan --format json).\n",
	      f);
}

/*
 * The one input named is run-time data: "-", or a file that is not an
 * object and holds a JSON object or is named *.json.  Its text in *text.
 */
static int is_runtime(const char *path, char **text, size_t *len)
{
	size_t n = strlen(path);
	struct stat st;

	*text = NULL;
	if (!strcmp(path, "-")) {
		*text = hog_read_file("/dev/stdin", len);
		if (!*text)
			die("standard input: %s", strerror(errno));
		return 1;
	}
	if (stat(path, &st) || S_ISDIR(st.st_mode))
		return 0;	/* the object path says why, or walks it */
	*text = hog_read_file(path, len);
	if (!*text)
		die("%s: %s", path, strerror(errno));
	/* a pipe (<(ssh host cat .../lockhog/json)) is read once: it must be the data */
	if (!S_ISREG(st.st_mode))
		return 1;
	if (!(*len >= 4 && !memcmp(*text, "\177ELF", 4)) &&
	    (hog_rt_looks_like(*text, *len) || (n > 5 && !strcmp(path + n - 5, ".json"))))
		return 1;
	free(*text);
	*text = NULL;
	return 0;
}

/* Run-time data, joined to a static scan if one is given, rendered. */
static int report_runtime(const char *path, char *text, size_t len, const char *scan,
			  const struct output *o)
{
	const char *name = strcmp(path, "-") ? path : "standard input";
	struct hog_buf b = { 0 };
	struct hog_rt *rt;
	char *err = NULL;

	if (o->fmt == HOG_FMT_SARIF)
		die("%s: run-time data renders as text, json or html, not sarif", name);
	if (o->fail_on >= 0 || o->baseline)
		die("%s: --fail-on and --baseline go with findings, not run-time data", name);
	rt = hog_rt_parse(text, len, name, &err);
	if (!rt)
		die("%s", err);
	if (scan) {
		size_t slen;
		char *stext = hog_read_file(scan, &slen);

		if (!stext)
			die("%s: %s", scan, strerror(errno));
		if (hog_rt_join(rt, stext, slen, scan, &err))
			die("%s", err);
		free(stext);
	}
	if (o->fmt == HOG_FMT_HTML)
		hog_html_runtime(rt, LOCKHOG_VERSION, &b);
	else if (o->fmt == HOG_FMT_JSON && hog_rt_json(rt, &b, &err))
		die("%s", err);
	else if (o->fmt == HOG_FMT_TEXT)
		hog_rt_text(rt, &b);
	write_out(o->out, &b);
	hog_buf_free(&b);
	hog_rt_free(rt);
	free(text);
	return 0;
}

/* One object named alone: its own problem is the one line to say. */
static void one_object_usable(const char *path)
{
	size_t len, off = 0, pllen;
	char *err = NULL, *text = object_section(path, &len, &err);
	const char *pl;

	if (!text && err && !strstr(err, "not an ELF"))
		die("%s", err);
	while (text && hog_section_next(text, len, &off, &pl, &pllen)) {
		struct hog_module *m = hog_module_read(NULL, pl, pllen, &err);

		if (!m)
			die("%s: bad " HOG_IR_SECTION " section (payload at byte %zu): %s", path,
			    (size_t)(pl - text), err);
		hog_module_free(m);
	}
	free(text);
	free(err);
}

int cmd_report(int argc, char **argv)
{
	struct output o = { .fmt = HOG_FMT_TEXT, .min_sev = HS_WARNING, .fail_on = -1 };
	struct objset objs = { 0 };
	struct tools t;
	const char *plugin = NULL, *rules = NULL, *scan = NULL, *kver = NULL;
	struct hog_strtab *strs;
	struct hog_prog *prog;
	int c, i, skipped, rc;
	char *text;
	size_t len;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:s:h", report_opts, NULL)) != -1) {
		if (common_opt(c, optarg, &o, &plugin, &rules))
			continue;
		if (c == 's') {
			o.srcroot = optarg;
			continue;
		}
		if (c == OPT_STATIC) {
			scan = optarg;
			continue;
		}
		if (c == OPT_FRONTEND) {
			objs.fe = frontend_parse(optarg);
			continue;
		}
		if (c == OPT_KVERSION) {
			kver = optarg;
			continue;
		}
		if (c == 'h') {
			report_usage(stdout);
			return 0;
		}
		return EXIT_ERROR;
	}
	if (optind >= argc)
		die("report needs objects or directories, or run-time data");
	if (argc - optind == 1 && is_runtime(argv[optind], &text, &len))
		return report_runtime(argv[optind], text, len, scan, &o);
	if (scan)
		die("--static goes with run-time data (a JSON file with \"lockhog_runtime\": %d)",
		    HOG_RT_VERSION);
	tools_locate(&t, plugin, rules);
	/* the objects' tree is not known here: the version they were built from */
	if (kver)
		tools_kversion_arg(&t, kver);
	strs = hog_strtab_new();
	prog = hog_prog_new(strs, load_rules(strs, &t));
	for (i = optind; i < argc; i++)
		objset_add(&objs, argv[i]);
	if (objs.paths.n == 1)
		one_object_usable(objs.paths.v[0]);
	if (!objset_load(&objs, prog, strs, &skipped))
		die("no object carries lockhog's analysis (was the plugin loaded?)");
	objset_tree(&objs, prog, o.srcroot);
	hog_prog_solve(prog);
	o.scope = argc - optind == 1 ? argv[optind] : "objects";
	rc = emit(prog, &o);
	hog_prog_free(prog);
	return rc;
}

int cmd_dump(int argc, char **argv)
{
	size_t len = 0, off = 0, pllen;
	char *err = NULL, *text;
	const char *pl;

	if (argc != 2)
		die("usage: lockhog dump OBJ");
	text = object_section(argv[1], &len, &err);
	if (!text)
		die("%s", err ? err : hog_xasprintf("%s: no " HOG_IR_SECTION " section", argv[1]));
	/* the payloads as text, one after the other, without their NULs */
	while (hog_section_next(text, len, &off, &pl, &pllen))
		fwrite(pl, 1, pllen, stdout);
	free(text);
	if (fflush(stdout))
		die("standard output: %s", strerror(errno));
	return 0;
}

/* ---- rules ---- */

static void kversion_json(json_t *o, const char *key, unsigned v)
{
	char buf[32];

	if (!v)
		return;
	hog_kversion_text(v, buf, sizeof(buf));
	json_object_set_new(o, key, json_string(buf));
}

static json_t *rule_json(const struct hog_rule *x)
{
	json_t *o = json_pack("{s:s,s:s,s:s,s:i}", "kind", hog_rule_kind_name(x->kind),
			      "name", x->name, "file", x->file, "line", x->line);
	static const char *const lops[] = { "acquire", "release", "trylock" };
	static const char *const iops[] = { "none", "save", "restore", "disable", "enable" };

	if (x->kind == HR_LOCK) {
		json_object_set_new(o, "op", json_string(lops[x->op]));
		json_object_set_new(o, "lock_kind", json_string(x->lock_kind));
		json_object_set_new(o, "irq", json_string(iops[x->irq]));
		json_object_set_new(o, "sleeping", json_boolean(x->sleeping));
		if (x->bh_off)
			json_object_set_new(o, "bh", json_string("disable"));
	}
	if (x->kind == HR_IRQ)
		json_object_set_new(o, "op", json_string(iops[x->op]));
	if (x->kind == HR_LOCKBREAK)
		json_object_set_new(o, "op", json_string(x->op == HBRK_TEST ? "test" : "break"));
	if (x->kind == HR_PREEMPT || x->kind == HR_PAGEFAULT)
		json_object_set_new(o, "op", json_string(x->op > 0 ? "disable" : "enable"));
	if (x->arg >= 0)
		json_object_set_new(o, "arg", json_integer(x->arg));
	if (x->flags >= 0)
		json_object_set_new(o, "flags_arg", json_integer(x->flags));
	if (x->cls)
		json_object_set_new(o, "class", json_string(x->cls));
	if (x->reason)
		json_object_set_new(o, "reason", json_string(x->reason));
	if (x->release_defers)
		json_object_set_new(o, "release", json_string("defer"));
	if (x->preempt_held)
		json_object_set_new(o, "preempt", json_integer(x->preempt_held));
	if (x->unless_intr)
		json_object_set_new(o, "unless", json_string("in-interrupt"));
	if (x->when.arg >= 0)
		json_object_set_new(o, "when", json_pack("{s:i,s:s#,s:I}", "arg", x->when.arg,
							 "op", &x->when.op, 1,
							 "value", (json_int_t)x->when.val));
	kversion_json(o, "since", x->since);
	kversion_json(o, "until", x->until);
	return o;
}

static void rules_print_json(const struct hog_rules *r)
{
	json_t *a = json_array();
	char *s;
	int i;

	for (i = 0; i < r->all.n; i++)
		json_array_append_new(a, rule_json(r->all.v[i]));
	s = json_dumps(a, JSON_INDENT(1));
	puts(s);
	free(s);
	json_decref(a);
}

/* Does rule x have this op (its JSON "op")? */
static int rule_has_op(const struct hog_rule *x, const char *op)
{
	json_t *o = rule_json(x);
	const char *xop = json_string_value(json_object_get(o, "op"));
	int yes = xop && !strcmp(xop, op);

	json_decref(o);
	return yes;
}

/* The names of the rules of one kind, and of this op and class if given. */
static void rules_print_list(const struct hog_rules *r, const char *list, const char *op,
			     const char *cls)
{
	int i;

	for (i = 0; i < r->all.n; i++) {
		const struct hog_rule *x = r->all.v[i];

		if (strcmp(hog_rule_kind_name(x->kind), list))
			continue;
		if (cls && (!x->cls || strcmp(x->cls, cls)))
			continue;
		if (op && !rule_has_op(x, op))
			continue;
		puts(x->name);
	}
}

int cmd_rules(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rules", required_argument, NULL, OPT_RULES },
		{ "check", no_argument, NULL, 'c' },
		{ "list", required_argument, NULL, 'l' },
		{ "op", required_argument, NULL, 'p' },
		{ "class", required_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ "kversion", required_argument, NULL, OPT_KVERSION },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *rules = NULL, *list = NULL, *op = NULL, *cls = NULL, *kver = NULL;
	int c, json = 0;
	struct tools t;
	struct hog_strtab *strs;
	struct hog_rules *r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_RULES:
			rules = optarg;
			break;
		case 'c':
			break;
		case 'l':
			list = optarg;
			break;
		case 'p':
			op = optarg;
			break;
		case 'C':
			cls = optarg;
			break;
		case 'J':
			json = 1;
			break;
		case OPT_KVERSION:
			kver = optarg;
			break;
		case 'h':
			fputs("usage: lockhog rules [--rules FILE] [--check] [--kversion X.Y[.Z]]\n"
			      "       lockhog rules --list KIND [--op OP] [--class CLASS]\n"
			      "       lockhog rules --json\n"
			      "  --kversion: only the rules that apply to that kernel version\n", stdout);
			return 0;
		default:
			return EXIT_ERROR;
		}
	}
	tools_locate(&t, NULL, rules);
	if (kver)
		tools_kversion_arg(&t, kver);
	strs = hog_strtab_new();
	r = load_rules(strs, &t);
	if (json) {
		rules_print_json(r);
		return 0;
	}
	if (list) {
		rules_print_list(r, list, op, cls);
		return 0;
	}
	printf("%s: %d rules, loop bound %lld, chains up to %d calls\n", t.rules, r->all.n,
	       r->loop.max_bound, r->loop.max_chain);
	return 0;
}

/* ---- summary: what the analysis concluded about functions ---- */

/* " when arg3 in {3,4}": a switch's cases (op 'i'), or "not in" them (op 'x') */
static void print_set(int arg, char op, long long mask)
{
	const char *sep = "";
	int v;

	printf(" when arg%d %sin {", arg, op == 'x' ? "not " : "");
	for (v = 0; v < 64; v++)
		if ((unsigned long long)mask >> v & 1) {
			printf("%s%d", sep, v);
			sep = ",";
		}
	printf("}");
}

static void print_when(const struct hog_when *w)
{
	if (w->arg >= 0 && (w->op == 'i' || w->op == 'x'))
		print_set(w->arg, w->op, w->val);
	else if (w->arg >= 0 && w->field)
		printf(" when arg%d%s %s 0", w->arg, w->field, w->op == 'n' ? "!=" : "==");
	else if (w->arg >= 0)
		printf(" when arg%d%c%lld", w->arg, w->op, w->val);
}

static void print_summary(const char *name, const struct hog_summary *s)
{
	char *lim = hog_limit_text(s->limits);
	int i, j, k;

	printf("%s (%s):%s%s%s\n", name, s->fn ? s->fn->file : "?",
	       s->trivial ? " trivial" : "", s->limits ? " incomplete: " : "", lim);
	free(lim);
	for (i = 0; i < s->nacq; i++)
		printf("  acquires %s [%s%s]\n", s->acq[i].expr ? s->acq[i].expr : "?",
		       s->acq[i].cls ? s->acq[i].cls : "?",
		       s->acq[i].cond == 1 ? ", iff it returns non-zero" :
		       s->acq[i].cond == 2 ? ", iff it returns zero" : "");
	for (i = 0; i < s->nrel; i++)
		printf("  releases %s\n", s->rel[i]);
	for (i = 0; i < s->nbrk; i++)
		printf("  breaks %s\n", s->brk[i]);
	if (s->irq_exit == HOG_IRQ_ASLOCK) {
		printf("  irq at exit: as before the irqsave of %s", s->irq_lock[0]);
		for (i = 1; i < s->nirq_lock; i++)
			printf(" or %s", s->irq_lock[i]);
		printf("\n");
	} else if (s->irq_exit)
		printf("  irq at exit %d\n", s->irq_exit);
	if (s->irq_break)
		printf("  turns IRQs on inside\n");
	if (s->preempt_delta)
		printf("  preempt %+d\n", s->preempt_delta);
	if (s->ret_addr)
		printf("  returns %s\n", s->ret_addr);
	if (s->pure)
		printf("  only reads\n");
	if (s->ret_mask)
		printf("  returns non-zero iff $%d & %#llx\n", s->ret_mparam, s->ret_mask);
	for (i = 0; i < s->natomic; i++)
		printf("  atomic on %s\n", s->atomic[i]);
	if (s->self)
		printf("  is costly: %s\n", s->self->cls);
	for (i = 0; i < s->ncost; i++) {
		const struct hog_cost *c = &s->cost[i];

		printf("  cost %s %s via", hog_kind_name(c->kind), c->cls);
		for (j = 0; j < c->nchain; j++)
			printf(" %s:%d", c->chain[j].func, c->chain[j].line);
		printf(" -> %s%s%s", c->callee ? c->callee : "-", c->irqs_off ? " irqs-off" : "",
		       c->irq_on ? " irq-on" : "");
		for (j = 0; j < c->nrel; j++)
			printf(" rel=%s", c->rel[j]);
		for (j = 0; j < c->nbreak; j++)
			printf(" brk=%s", c->brk[j]);
		print_when(&c->when);
		printf("\n");
		for (k = 0; k < c->nways; k++) {
			printf("    way via");
			for (j = 0; j < c->ways[k].nchain; j++)
				printf(" %s:%d", c->ways[k].chain[j].func, c->ways[k].chain[j].line);
			print_when(&c->ways[k].when);
			printf("\n");
		}
	}
}

int cmd_summary(int argc, char **argv)
{
	struct objset objs = { 0 };
	struct tools t;
	struct hog_strtab *strs;
	struct hog_prog *prog;
	const char *tu = NULL;
	struct hog_vec funcs = { 0 };
	int i, skipped;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--function") && i + 1 < argc)
			hog_vec_push(&funcs, argv[++i]);
		else if (!strcmp(argv[i], "--tu") && i + 1 < argc)
			tu = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1])
			die("summary: unknown option '%s' (usage: lockhog summary [--tu FILE.c] --function NAME... OBJ|DIR...)",
			    argv[i]);
		else
			objset_add(&objs, argv[i]);
	}
	if (!funcs.n || !objs.paths.n)
		die("usage: lockhog summary [--tu FILE.c] --function NAME... OBJ|DIR...");
	tools_locate(&t, NULL, NULL);
	strs = hog_strtab_new();
	prog = hog_prog_new(strs, load_rules(strs, &t));
	objset_load(&objs, prog, strs, &skipped);
	hog_prog_solve(prog);
	for (i = 0; i < funcs.n; i++) {
		const struct hog_summary *s = hog_prog_summary(prog, tu, funcs.v[i]);

		if (!s)
			printf("%s: no summary\n", (const char *)funcs.v[i]);
		else
			print_summary(funcs.v[i], s);
	}
	hog_vec_free(&funcs);
	return 0;
}
