// SPDX-License-Identifier: GPL-2.0
/*
 * lockhog-check: lockhog's frontend on libclang, run by kbuild as a
 * checker (make C=1 CHECK=lockhog-check: $(CHECK) $(CHECKFLAGS)
 * $(c_flags) file.c).  It parses the unit with clang, lowers every
 * function the unit defines (and the static inlines they use) to the
 * IR, writes it beside the object (mm/.memcontrol.o.lockhog) for
 * `lockhog scan` and `report`, and prints the unit's own findings as
 * gcc-style diagnostics on stderr.  Like sparse it exits 0 with
 * findings, so the build goes on, unless --fail-on is given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <pthread.h>
#include "lc.h"
#include "../core/analysis.h"
#include "../core/message.h"

/* exit codes: 0 fine, 1 findings at or above --fail-on, 2 usage or I/O error */
#define EXIT_FINDINGS 1
#define EXIT_USAGE 2

struct opts {
	const char *file;	/* the unit */
	const char *obj;	/* -o, if kbuild passed it */
	const char *rules;
	unsigned kversion;	/* --kversion=: the tree's kernel version, 0 unknown */
	const char *sidecar;	/* --sidecar=FILE: instead of the derived name */
	int print_ir;		/* --ir: the payload on stdout, no sidecar */
	int quiet;		/* --diag=none */
	int fail_on;		/* -1: never */
	struct hog_vec cargs;	/* for clang */
};

static const char *prog = "lockhog-check";

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [--rules=FILE] [--kversion=X.Y[.Z]] [--fail-on=note|warning|error]\n"
		"       [--ir] [--diag=none] [--sidecar=FILE] [compiler flags] FILE.c\n"
		"  kbuild: make C=1 CHECK=%s (C=2: every unit)\n", prog, prog);
	exit(EXIT_USAGE);
}

/* options clang's parse needs; everything else GCC or sparse gets is dropped */
static int keep_joined(const char *a)
{
	static const char *const pre[] = { "-D", "-U", "-I", "-std=", "-iquote", "-isystem",
					   "-idirafter", "-include", "-imacros", "--target=",
					   "-nostdinc", "-m32", "-m64", "-funsigned-char",
					   "-fsigned-char", "-fshort-wchar", "-ffreestanding",
					   "-fms-extensions", "-fno-builtin", "-x",
					   /* __OPTIMIZE__: the kernel's compiletime_assert() */
					   "-O" };
	unsigned i;

	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(a, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

/* options whose value is the next argument */
static int takes_value(const char *a)
{
	static const char *const two[] = { "-D", "-U", "-I", "-include", "-imacros", "-isystem",
					   "-iquote", "-idirafter", "-x", "-o", "-MF", "-MT",
					   "-MQ", "--param", "-target" };
	unsigned i;

	for (i = 0; i < sizeof(two) / sizeof(two[0]); i++)
		if (!strcmp(a, two[i]))
			return 1;
	return 0;
}

static int sev_of(const char *s)
{
	int v = hog_sev_parse(s);

	if (v >= 0)
		return v;
	fprintf(stderr, "%s: --fail-on: unknown severity '%s'\n", prog, s);
	exit(EXIT_USAGE);
}

static int own_option(struct opts *o, const char *a)
{
	if (!strncmp(a, "--rules=", 8))
		o->rules = a + 8;
	else if (!strncmp(a, "--kversion=", 11)) {
		if (hog_kversion_parse(a + 11, &o->kversion)) {
			fprintf(stderr, "%s: --kversion: bad kernel version '%s'\n", prog, a + 11);
			exit(EXIT_USAGE);
		}
	} else if (!strncmp(a, "--fail-on=", 10))
		o->fail_on = sev_of(a + 10);
	else if (!strncmp(a, "--sidecar=", 10))
		o->sidecar = a + 10;
	else if (!strcmp(a, "--ir"))
		o->print_ir = 1;
	else if (!strcmp(a, "--diag=none"))
		o->quiet = 1;
	else if (!strcmp(a, "--help") || !strcmp(a, "-h"))
		usage();
	else
		return 0;
	return 1;
}

/*
 * With __CHECKER__ the kernel's headers turn __user and friends into
 * sparse's address_space attributes, which clang refuses: never define it.
 */
static int checker_define(const char *a)
{
	return !strncmp(a, "__CHECKER__", 11) && (!a[11] || a[11] == '=');
}

static void parse_args(struct opts *o, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t l = strlen(a);

		if (own_option(o, a))
			continue;
		if (a[0] != '-' && l > 2 && !strcmp(a + l - 2, ".c")) {
			o->file = a;
			continue;
		}
		if (!strncmp(a, "-D", 2) && checker_define(a[2] ? a + 2 :
							     i + 1 < argc ? argv[i + 1] : "")) {
			i += !a[2];
			continue;
		}
		if (takes_value(a) && i + 1 < argc) {
			if (!strcmp(a, "-o"))
				o->obj = argv[i + 1];
			else if (strcmp(a, "-MF") && strcmp(a, "-MT") && strcmp(a, "-MQ") &&
				 strcmp(a, "--param")) {
				hog_vec_push(&o->cargs, hog_xstrdup(a));
				hog_vec_push(&o->cargs, hog_xstrdup(argv[i + 1]));
			}
			i++;
			continue;
		}
		if (keep_joined(a))
			hog_vec_push(&o->cargs, hog_xstrdup(a));
	}
	if (!o->file) {
		fprintf(stderr, "%s: no C file to check\n", prog);
		usage();
	}
}

static const char *default_rules(const char *argv0)
{
	static char buf[PATH_MAX + 64];
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (getenv("LOCKHOG_RULES"))
		return getenv("LOCKHOG_RULES");
	if (n <= 0)
		return "rules/kernel.rules";
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(buf, sizeof(buf), "%s/../rules/kernel.rules", self);
	if (access(buf, R_OK))
		snprintf(buf, sizeof(buf), "%s/../share/lockhog/kernel.rules", self);
	return buf;
}

/* mm/memcontrol.c (or -o mm/memcontrol.o) -> mm/.memcontrol.o.lockhog */
static char *sidecar_path(const struct opts *o)
{
	const char *src = o->obj ? o->obj : o->file, *slash = strrchr(src, '/');
	size_t dir = slash ? (size_t)(slash - src + 1) : 0, l;
	const char *base = src + dir;

	l = strlen(base);
	if (o->obj)
		return hog_xasprintf("%.*s.%s.lockhog", (int)dir, src, base);
	return hog_xasprintf("%.*s.%.*s.o.lockhog", (int)dir, src,
			     (int)(l > 2 ? l - 2 : l), base);
}

struct unit {
	struct hog_module *m;
	const struct hog_rules *rules;
	CXTranslationUnit tu;
	struct hog_map *done;	/* USR -> 1 */
	struct hog_strtab *strs;
	struct hog_vec work;	/* CXCursor * */
	struct hog_map *addr;	/* names of functions whose address is taken (uses.c) */
	int dropped;
};

static enum CXChildVisitResult top(CXCursor c, CXCursor parent, CXClientData d)
{
	struct unit *u = d;
	CXCursor *p;

	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
	    !lc_in_unit(u->tu, c))
		return CXChildVisit_Continue;
	p = hog_xmalloc(sizeof(*p));
	*p = c;
	hog_vec_push(&u->work, p);
	return CXChildVisit_Continue;
}

static const char *usr_of(struct unit *u, CXCursor c)
{
	CXString s = clang_getCursorUSR(c);
	const char *r = hog_intern(u->strs, clang_getCString(s));

	clang_disposeString(s);
	return r;
}

/* the unit's functions, then every function they reference that has a body here */
static void lower_all(struct unit *u)
{
	int i, j;

	clang_visitChildren(clang_getTranslationUnitCursor(u->tu), top, u);
	u->addr = lc_uses_scan(u->tu, u->strs);
	for (i = 0; i < u->work.n; i++) {
		CXCursor *c = u->work.v[i];
		const char *usr = usr_of(u, *c), *err = NULL;
		struct hog_vec called = { 0 };
		struct hog_func *f;

		if (hog_map_get(u->done, usr) || clang_isInvalidDeclaration(*c))
			continue;
		hog_map_put(u->done, usr, (void *)1);
		f = lc_lower_function(u->m, u->rules, u->tu, *c, &called, &err);
		if (f)
			f->flags = (hog_map_get(u->addr, f->name) ? HOG_FN_ADDR : 0) |
				   (hog_map_get(u->addr, f->name) == LC_ADDR_ARGS ? HOG_FN_ARGS : 0) |
				   (lc_is_cold(u->tu, *c) ? HOG_FN_COLD : 0);
		else if (err && strcmp(err, "no body"))
			u->dropped++;
		for (j = 0; j < called.n; j++)
			hog_vec_push(&u->work, called.v[j]);
		free(called.v);
	}
}

static int parse_errors(CXTranslationUnit tu, const char *file)
{
	unsigned i, n = clang_getNumDiagnostics(tu), errors = 0;
	char first[1024] = "";

	for (i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);

		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			if (!errors++) {
				CXString s = clang_formatDiagnostic(d,
						CXDiagnostic_DisplaySourceLocation |
						CXDiagnostic_DisplayColumn);

				snprintf(first, sizeof(first), "%s", clang_getCString(s));
				clang_disposeString(s);
			}
		}
		clang_disposeDiagnostic(d);
	}
	if (errors)
		fprintf(stderr, "%s: warning: lockhog-check: clang cannot parse it "
			"(%u errors; first: %s); functions with errors are skipped\n",
			file, errors, first);
	return errors;
}

struct diag_ctx {
	int warn;
};

static void diag_line(void *ctx, const struct hog_line *l)
{
	struct diag_ctx *d = ctx;
	const char *what = l->kind == HOG_LINE_MESSAGE && d->warn ? "warning" : "note";

	if (l->file && l->line && l->col)
		fprintf(stderr, "%s:%d:%d: %s: %s\n", l->file, l->line, l->col, what, l->text);
	else if (l->file && l->line)
		fprintf(stderr, "%s:%d: %s: %s\n", l->file, l->line, what, l->text);
	else
		fprintf(stderr, "%s: %s\n", what, l->text);
}

/* the unit's own findings, as the plugin prints them; the worst severity */
static int diagnose(struct hog_module *m, struct hog_strtab *strs,
		    const struct hog_rules *rules, const char *main_file, int quiet)
{
	struct hog_prog *p = hog_prog_new(strs, rules);
	int i, worst = -1;

	hog_prog_add_module(p, m);
	hog_prog_solve(p);
	for (i = 0; i < hog_prog_nfindings(p); i++) {
		const struct hog_finding *f = hog_prog_finding(p, i);
		struct diag_ctx d = { f->sev >= HS_WARNING };

		if (f->paths[0].file && strcmp(f->paths[0].file, main_file))
			continue;
		if ((int)f->sev > worst)
			worst = f->sev;
		if (!quiet)
			hog_finding_lines(f, HOG_MAX_CALLERS_SHOWN, diag_line, &d);
	}
	hog_prog_free(p);
	return worst;
}

static int write_sidecar(const char *path, const struct hog_buf *b)
{
	struct stat st;

	if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: error: lockhog-check: not a regular file; not written\n",
			path);
		return -1;
	}
	if (hog_write_file_atomic(path, b->s, b->len)) {
		fprintf(stderr, "%s: error: lockhog-check: cannot write: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

static CXTranslationUnit parse(CXIndex idx, const struct opts *o)
{
	const char **args = hog_xcalloc(o->cargs.n + 4, sizeof(*args));
	CXTranslationUnit tu = NULL;
	int i, n = 0;
	enum CXErrorCode rc;

	for (i = 0; i < o->cargs.n; i++)
		args[n++] = o->cargs.v[i];
	/* warnings are the compiler's business; this is a checker */
	args[n++] = "-w";
	args[n++] = "-ferror-limit=0";
	rc = clang_parseTranslationUnit2(idx, o->file, args, n, NULL, 0,
					 CXTranslationUnit_KeepGoing |
					 CXTranslationUnit_DetailedPreprocessingRecord, &tu);
	free(args);
	return rc == CXError_Success ? tu : NULL;
}

static int check(const struct opts *o)
{
	struct hog_strtab *strs = hog_strtab_new();
	struct hog_rules *rules = hog_rules_new(strs);
	char *err = NULL;
	CXIndex idx;
	struct unit u;
	struct hog_buf b = { 0 };
	const char *main_file = lc_clean_path(o->file);
	int worst, rc = 0;

	hog_rules_set_kversion(rules, o->kversion);
	if (hog_rules_load(rules, o->rules, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return EXIT_USAGE;
	}
	idx = clang_createIndex(0, 0);
	memset(&u, 0, sizeof(u));
	u.tu = parse(idx, o);
	if (!u.tu) {
		fprintf(stderr, "%s: warning: lockhog-check: clang cannot parse it; not checked\n",
			o->file);
		clang_disposeIndex(idx);
		return 0;
	}
	parse_errors(u.tu, o->file);
	u.m = hog_module_new(strs, main_file);
	u.rules = rules;
	u.strs = strs;
	u.done = hog_map_new();
	lower_all(&u);
	lc_inits_scan(u.tu, u.m, rules);
	hog_map_free(u.addr);
	hog_map_free(u.done);
	hog_module_write(u.m, &b);
	if (o->print_ir)
		fwrite(b.s, 1, b.len ? b.len - 1 : 0, stdout);
	else {
		char *side = o->sidecar ? hog_xstrdup(o->sidecar) : sidecar_path(o);

		if (write_sidecar(side, &b))
			rc = EXIT_USAGE;
		free(side);
	}
	hog_buf_free(&b);
	worst = diagnose(u.m, strs, rules, main_file, o->quiet || o->print_ir);
	if (o->fail_on >= 0 && worst >= o->fail_on && !rc)
		rc = EXIT_FINDINGS;
	clang_disposeTranslationUnit(u.tu);
	clang_disposeIndex(idx);
	return rc;
}

/*
 * Reading a local back to its definitions (clang/cfg.c, Braun's SSA
 * construction) recurses once per join on the way: a function of tens
 * of thousands of branches in a row needs more than the main thread's
 * stack.  The check runs on a thread with room for that (address space,
 * touched only as used); without a thread, on this one.
 */
#define CHECK_STACK (256UL << 20)

struct run {
	const struct opts *o;
	int rc;
};

static void *run_check(void *p)
{
	struct run *r = p;

	r->rc = check(r->o);
	return NULL;
}

static int check_deep(const struct opts *o)
{
	struct run r = { o, EXIT_USAGE };
	pthread_attr_t a;
	pthread_t t;
	int ok;

	if (pthread_attr_init(&a))
		return check(o);
	ok = !pthread_attr_setstacksize(&a, CHECK_STACK) && !pthread_create(&t, &a, run_check, &r);
	pthread_attr_destroy(&a);
	if (!ok)
		return check(o);
	pthread_join(t, NULL);
	return r.rc;
}

/*
 * A checker that crashes fails the build: the work runs in a child, and
 * a crash is one diagnostic, no sidecar (not even a stale one), exit 0.
 */
static int isolated(const struct opts *o)
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return check_deep(o);
	if (!pid) {
		int rc = check_deep(o);

		fflush(NULL);
		_exit(rc);
	}
	if (waitpid(pid, &st, 0) < 0)
		return EXIT_USAGE;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	fprintf(stderr, "%s: warning: lockhog-check: internal error (signal %d); not checked\n",
		o->file, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	if (!o->print_ir) {
		char *side = o->sidecar ? hog_xstrdup(o->sidecar) : sidecar_path(o);
		struct stat sb;

		if (!lstat(side, &sb) && S_ISREG(sb.st_mode))
			unlink(side);
		free(side);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;

	memset(&o, 0, sizeof(o));
	o.fail_on = -1;
	parse_args(&o, argc, argv);
	if (!o.rules)
		o.rules = default_rules(argv[0]);
	return isolated(&o);
}
