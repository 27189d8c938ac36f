// SPDX-License-Identifier: GPL-2.0
/*
 * lockhog fix: the restructured code for what a scan found.
 *
 * Each finding is matched with one of the semantic patches in cocci/:
 *   a costly call made by the lock holder itself  -> lock_costly_call.cocci
 *   a costly call made by a helper it calls       -> lock_release_helper.cocci
 *   a long loop under the lock                    -> lock_loop_break.cocci
 * and spatch runs it in patch mode, restricted to the function concerned
 * (-D fn=NAME), on a scratch copy of the file, one transformation after
 * the other, so that the patch written applies in one go.  Every hunk
 * group is preceded by the findings it fixes and the command that made
 * it.  With --apply, the whole patch is checked against the tree first
 * and verified -- lockhog review compiles the files it touches with the
 * plugin, and every finding it fixes must be gone (or one of its ways,
 * for a loop that stays under an outer lock) with nothing new at warning
 * level -- and applied only if all of that holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <jansson.h>
#include "lockhog.h"
#include "../core/message.h"
#include "../core/fixplan.h"

/* One run of a semantic patch on one function, and the findings it fixes. */
struct xform {
	struct hog_fix fix;		/* hog_fix_choice: which patch, where */
	struct hog_vec findings;	/* const struct hog_finding * */
};

static char *cocci_dir(void)
{
	char buf[PATH_MAX], *d = getenv("LOCKHOG_COCCI");
	ssize_t n;

	if (d)
		return hog_xstrdup(d);
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return hog_xstrdup("cocci");
	buf[n] = 0;
	*strrchr(buf, '/') = 0;
	return hog_xasprintf("%s/../cocci", buf);
}

static struct xform *same_xform(struct hog_vec *v, const struct xform *x)
{
	int i;

	for (i = 0; i < v->n; i++) {
		struct xform *y = v->v[i];

		if (y->fix.kind == x->fix.kind && !strcmp(y->fix.fn, x->fix.fn) &&
		    !strcmp(y->fix.file, x->fix.file)) {
			y->fix.nocond |= x->fix.nocond;
			y->fix.always |= x->fix.always;
			return y;
		}
	}
	return NULL;
}

/* 1 if s was seen before; remembers it otherwise. */
static int seen(struct hog_vec *v, const char *s)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], s))
			return 1;
	hog_vec_push(v, (void *)s);
	return 0;
}

static void copy_file(const char *from, const char *to)
{
	size_t len = 0;
	char *text = hog_read_file(from, &len);

	if (!text)
		die("%s: %s", from, strerror(errno));
	if (hog_write_file_atomic(to, text, len))
		die("%s: %s", to, strerror(errno));
	free(text);
}

/*
 * Kernel-style whitespace for the lines spatch adds, and a/ b/ file names
 * (cocci/tidy.py --paths): spatch 1.1 prints "for(a;b;c)" and "...){" in
 * code it adds, and names its temporary output file.
 */
static char *tidy(const char *scratch, const char *cocci, const char *diff)
{
	char *raw = hog_xasprintf("%s/raw.diff", scratch);
	char *py = hog_xasprintf("%s/tidy.py", cocci);
	char *argv[] = { "python3", py, "--paths", raw, NULL };
	char *out = NULL;
	int rc;

	if (hog_write_file_atomic(raw, diff, strlen(diff)))
		die("%s: %s", raw, strerror(errno));
	rc = run_cmd(argv, NULL, &out, 0);
	if (rc)
		die("%s failed on spatch's output (%s)", py, raw);
	free(raw);
	free(py);
	return out;
}

/*
 * Verifies the patch at path before it is applied: lockhog review
 * compiles what it touches and compares the findings.  Returns why it
 * cannot be applied, or NULL when every fixed fingerprint went (absent)
 * or lost a way (updated) and nothing new at warning level came.
 */
static char *verify(const char *dir, const char *path, const struct tools *t,
		    const struct hog_vec *fixed)
{
	char exe[PATH_MAX], *json = hog_xasprintf("%s.review.json", path), *out = NULL;
	char *argv[] = { exe, "review", "--kernel", (char *)dir, "--format", "json",
			 "--fail-on", "warning", "--plugin", t->plugin, "--rules", t->rules,
			 "--out", json, (char *)path, NULL };
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *why = NULL;
	json_error_t je;
	json_t *root;
	size_t i, k;
	int rc;

	if (n <= 0)
		return hog_xstrdup("cannot find the lockhog executable to run lockhog review");
	exe[n] = 0;
	rc = run_cmd(argv, NULL, &out, 1);
	if (rc != 0 && rc != 1) {
		char *end = out ? out + strlen(out) : NULL, *line;

		while (end && end > out && end[-1] == '\n')
			*--end = 0;
		line = out ? strrchr(out, '\n') : NULL;
		why = hog_xasprintf("lockhog review cannot check it: %s",
				    line ? line + 1 : out && *out ? out : "it failed");
		goto done;
	}
	if (rc == 1) {
		why = hog_xasprintf("it makes lockhog report something new (lockhog review --kernel %s PATCH)",
				    dir);
		goto done;
	}
	root = json_load_file(json, 0, &je);
	if (!root || !json_is_array(root)) {
		why = hog_xasprintf("lockhog review wrote no findings (%s)", je.text);
		goto done;
	}
	for (k = 0; k < fixed->n && !why; k++) {
		const char *fp = fixed->v[k], *state = "unchanged";
		json_t *it;

		json_array_foreach(root, i, it) {
			const char *f = json_string_value(json_object_get(it, "fingerprint"));

			if (f && !strcmp(f, fp))
				state = json_string_value(json_object_get(it, "baseline"));
		}
		if (!state || (strcmp(state, "absent") && strcmp(state, "updated")))
			why = hog_xasprintf("finding %s is %s after it: it does not remove what it says it fixes",
					    fp, state ? state : "unknown");
	}
	json_decref(root);
done:
	unlink(json);
	free(json);
	free(out);
	return why;
}

static const struct option fix_opts[] = {
	{ "kernel", required_argument, NULL, 'k' },
	{ "out", required_argument, NULL, 'o' },
	{ "apply", no_argument, NULL, 'a' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "plugin", required_argument, NULL, 'P' },
	{ "rules", required_argument, NULL, 'R' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};


struct fix_args {
	const char *dir, *out, *plugin, *rules;
	int apply, jobs;
	int first_path;		/* argv index of the first PATH */
};

static void parse_args(int argc, char **argv, struct fix_args *a)
{
	int c;

	a->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	optind = 1;
	while ((c = getopt_long(argc, argv, "k:o:j:h", fix_opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			a->dir = optarg;
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'a':
			a->apply = 1;
			break;
		case 'j':
			a->jobs = atoi(optarg);
			break;
		case 'P':
			a->plugin = optarg;
			break;
		case 'R':
			a->rules = optarg;
			break;
		case 'h':
			fputs("usage: lockhog fix --kernel DIR [--out FILE] [--apply] [PATH...]\n"
			      "  Writes a patch that restructures what lockhog scan finds in PATHs,\n"
			      "  each hunk group naming the findings it fixes.  --apply checks it\n"
			      "  with lockhog review (it must build, remove what it fixes and add\n"
			      "  nothing) and applies it, all or nothing.\n", stdout);
			exit(0);
		default:
			exit(EXIT_ERROR);
		}
	}
	a->first_path = optind;
}

/* Builds the PATHs with the plugin, as lockhog scan does, and solves the program. */
static void scan_paths(const struct fix_args *a, int argc, char **argv, const struct tools *t,
		       struct hog_prog *prog, struct hog_strtab *strs)
{
	struct kbuild k = { .dir = a->dir, .tools = t, .jobs = a->jobs > 0 ? a->jobs : 1 };
	struct hog_vec targets = { 0 };
	struct objset objs = { 0 };
	int i, skipped;

	kbuild_configure(&k);
	for (i = a->first_path; i < argc; i++) {
		int isdir;

		hog_vec_push(&targets, kbuild_target(a->dir, argv[i], &isdir));
	}
	kbuild_build(&k, (const char *const *)targets.v, targets.n);
	if (!targets.n)
		objset_add(&objs, a->dir);
	for (i = 0; i < targets.n; i++) {
		char *p = hog_xasprintf("%s/%s", a->dir, (char *)targets.v[i]);

		objset_add(&objs, p);
		free(p);
	}
	if (!objset_load(&objs, prog, strs, &skipped))
		die("no object carries lockhog's analysis");
	objset_tree(&objs, prog, a->dir);
	hog_prog_solve(prog);
}

/* The transformations, one per semantic patch and function, each with the findings it fixes. */
static void plan_all(const struct hog_prog *prog, struct hog_vec *xforms)
{
	int i;

	for (i = 0; i < hog_prog_nfindings(prog); i++) {
		const struct hog_finding *f = hog_prog_finding(prog, i);
		struct xform *x = hog_xcalloc(1, sizeof(*x)), *y;

		if (!hog_fix_choice(f, &x->fix)) {
			free(x);
			continue;
		}
		y = same_xform(xforms, x);
		if (y) {
			free(x);
			x = y;
		} else {
			hog_vec_push(xforms, x);
		}
		hog_vec_push(&x->findings, (void *)f);
	}
}

/* The scratch copy of x's file, made once: transformations of one file build on each other. */
static void scratch_copy(const char *dir, const char *scratch, const char *file,
			 struct hog_vec *copied)
{
	char *src = hog_xasprintf("%s/%s", dir, file);
	char *work = hog_xasprintf("%s/%s", scratch, file);
	char *wdir = hog_xstrdup(work);
	char *mk[] = { "mkdir", "-p", wdir, NULL };

	if (!seen(copied, file)) {
		*strrchr(wdir, '/') = 0;
		if (run_cmd(mk, NULL, NULL, 0))
			die("cannot make %s", wdir);
		copy_file(src, work);
	}
	free(wdir);
	free(src);
	free(work);
}

/* spatch in patch mode on the scratch copy; its diff, or NULL when it made none. */
static char *run_spatch(const struct xform *x, const char *scratch, const char *cocci)
{
	char *sp = hog_xasprintf("%s/%s", cocci, x->fix.cocci);
	char *fn = hog_xasprintf("fn=%s", x->fix.fn);
	char *argv[20], *diff = NULL;
	int a = 0, rc;

	argv[a++] = "spatch";
	argv[a++] = "--very-quiet";
	argv[a++] = "--no-includes";
	argv[a++] = "--include-headers";
	argv[a++] = "--sp-file";
	argv[a++] = sp;
	argv[a++] = "-D";
	argv[a++] = "patch";
	argv[a++] = "-D";
	argv[a++] = fn;
	if (x->fix.nocond) {
		argv[a++] = "-D";
		argv[a++] = "nocond";
	}
	if (x->fix.always) {
		argv[a++] = "-D";
		argv[a++] = "always";
	}
	argv[a++] = (char *)x->fix.file;	/* relative: tidy.py names it a/FILE */
	argv[a] = NULL;
	rc = run_cmd(argv, scratch, &diff, 0);
	free(sp);
	free(fn);
	if (rc || !strstr(diff, "\n@@")) {
		free(diff);
		return NULL;
	}
	return diff;
}

static void not_fixed(const struct xform *x)
{
	int j;

	for (j = 0; j < x->findings.n; j++) {
		char *m = hog_finding_message(x->findings.v[j], NULL);

		fprintf(stderr, "lockhog: not fixed: %s (%s refuses or does not match in %s())\n",
			m, x->fix.cocci, x->fix.fn);
		free(m);
	}
}

/* The hunk group: the findings it fixes, how it was made, the tidied diff. */
static void add_hunks(struct hog_buf *patch, const struct xform *x, const char *lab,
		      struct hog_vec *fixed)
{
	int j;

	for (j = 0; j < x->findings.n; j++) {
		const struct hog_finding *f = x->findings.v[j];
		char *m = hog_finding_message(f, NULL);

		hog_buf_printf(patch, "lockhog: fixes %s: %s [%s]\n", f->fingerprint, m,
			       hog_finding_option(f));
		hog_vec_push(fixed, (void *)f->fingerprint);
		free(m);
	}
	hog_buf_printf(patch, "lockhog: generated by: spatch --no-includes --include-headers --sp-file cocci/%s -D patch -D fn=%s%s%s %s | cocci/tidy.py\n",
		       x->fix.cocci, x->fix.fn, x->fix.nocond ? " -D nocond" : "",
		       x->fix.always ? " -D always" : "", x->fix.file);
	hog_buf_add(patch, lab);
}

/* Runs every transformation on a scratch copy, one after the other; the patch in *patch. */
static void transform_all(const char *dir, const char *cocci, const struct hog_vec *xforms,
			  struct hog_buf *patch, struct hog_vec *fixed)
{
	char tmpl[] = "/tmp/lockhog-fix.XXXXXX", *scratch;
	char *rm[] = { "rm", "-rf", tmpl, NULL };
	struct hog_vec copied = { 0 };
	int i;

	if (!mkdtemp(tmpl))
		die("cannot make a scratch directory: %s", strerror(errno));
	scratch = tmpl;
	for (i = 0; i < xforms->n; i++) {
		const struct xform *x = xforms->v[i];
		char *diff, *lab, *one;

		scratch_copy(dir, scratch, x->fix.file, &copied);
		diff = run_spatch(x, scratch, cocci);
		if (!diff) {
			not_fixed(x);
			continue;
		}
		lab = tidy(scratch, cocci, diff);
		add_hunks(patch, x, lab, fixed);
		/* apply it to the scratch copy so that the next one builds on it */
		one = hog_xasprintf("%s/one.patch", scratch);
		if (hog_write_file_atomic(one, lab, strlen(lab)) || patch_tree(scratch, one, 0, NULL))
			die("%s: spatch's patch for %s() does not apply to its own input", x->fix.file,
			    x->fix.fn);
		free(one);
		free(lab);
		free(diff);
	}
	run_cmd(rm, NULL, NULL, 0);
	hog_vec_free(&copied);
}

/* --apply: all or nothing, a dry run of the whole patch, then its review, then the patch. */
static void apply_fix(const char *dir, const struct hog_buf *patch, const struct tools *t,
		      const struct hog_vec *fixed)
{
	char ptmpl[] = "/tmp/lockhog-fix.XXXXXX", *p, *why;

	if (!mkdtemp(ptmpl))
		die("cannot make a scratch directory: %s", strerror(errno));
	p = hog_xasprintf("%s/fix.patch", ptmpl);
	if (hog_write_file_atomic(p, patch->s, patch->len))
		die("%s: %s", p, strerror(errno));
	why = patch_tree(dir, p, 1, NULL) ? hog_xstrdup("it does not apply to the tree as it is now")
				     : verify(dir, p, t, fixed);
	if (why) {
		unlink(p);
		rmdir(ptmpl);
		die("%s: not applying the fix: %s; nothing changed", dir, why);
	}
	fprintf(stderr, "lockhog: verified: lockhog review finds the %d fixed findings gone or with fewer ways, nothing new\n",
		fixed->n);
	if (patch_tree(dir, p, 0, NULL))
		die("%s: applying the fix failed after a clean dry run; see %s", dir, p);
	unlink(p);
	rmdir(ptmpl);
	fprintf(stderr, "lockhog: applied fixes for %d findings to %s\n", fixed->n, dir);
}

int cmd_fix(int argc, char **argv)
{
	struct fix_args a = { 0 };
	char dirbuf[PATH_MAX], *cocci = cocci_dir(), *probe;
	struct tools t;
	struct hog_strtab *strs;
	struct hog_prog *prog;
	struct hog_vec xforms = { 0 }, fixed = { 0 };
	struct hog_buf patch = { 0 };

	parse_args(argc, argv, &a);
	if (!a.dir)
		die("fix needs --kernel DIR");
	tools_locate(&t, a.plugin, a.rules);
	strs = hog_strtab_new();
	hog_rules_free(load_rules(strs, &t));	/* a bad catalogue fails first */
	kbuild_check_tree(a.dir);
	tools_kversion(&t, a.dir);
	prog = hog_prog_new(strs, load_rules(strs, &t));
	if (!realpath(a.dir, dirbuf))
		die("%s: %s", a.dir, strerror(errno));
	a.dir = dirbuf;
	probe = hog_xasprintf("%s/lock_costly_call.cocci", cocci);
	if (access(probe, R_OK))
		die("%s: semantic patches not found (set LOCKHOG_COCCI)", cocci);
	free(probe);

	scan_paths(&a, argc, argv, &t, prog, strs);
	plan_all(prog, &xforms);
	transform_all(a.dir, cocci, &xforms, &patch, &fixed);
	if (!patch.len) {
		fprintf(stderr, "lockhog: nothing to fix (%d findings, none with a safe transformation)\n",
			hog_prog_nfindings(prog));
		return 0;
	}
	if (a.apply)
		apply_fix(a.dir, &patch, &t, &fixed);
	if (a.out || !a.apply)
		write_out(a.out, &patch);
	return 0;
}
