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

struct xform {
	const char *cocci;	/* file in cocci/ */
	const char *fn;		/* function it is restricted to */
	const char *file;	/* source file, relative to the tree */
	int nocond;		/* a caller holds a lock: no cond_resched() */
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

/* Which transformation fixes a finding; NULL for none. */
static struct xform *plan(const struct hog_finding *f)
{
	struct xform *x;
	int i;

	if (f->sev < HS_WARNING || !f->site_file)
		return NULL;
	x = hog_xcalloc(1, sizeof(*x));
	x->file = f->site_file;
	if (f->kind == HK_LOOP) {
		x->cocci = "lock_loop_break.cocci";
		x->fn = f->site_func;
		/* the engine knows the calling contexts: a caller holding a lock forbids sleeping */
		for (i = 0; i < f->npaths; i++)
			if (f->paths[i].nchain > 1 || strcmp(f->paths[i].holder, f->site_func))
				x->nocond = 1;
	} else if (f->kind == HK_CALL && f->paths[0].nchain == 1) {
		x->cocci = "lock_costly_call.cocci";
		x->fn = f->paths[0].holder;
		x->file = f->paths[0].file;
	} else if (f->kind == HK_CALL) {
		x->cocci = "lock_release_helper.cocci";
		x->fn = f->site_func;
	} else {
		free(x);
		return NULL;
	}
	return x;
}

static struct xform *same_xform(struct hog_vec *v, const struct xform *x)
{
	int i;

	for (i = 0; i < v->n; i++) {
		struct xform *y = v->v[i];

		if (!strcmp(y->cocci, x->cocci) && !strcmp(y->fn, x->fn) &&
		    !strcmp(y->file, x->file)) {
			y->nocond |= x->nocond;
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

int cmd_fix(int argc, char **argv)
{
	const char *dir = NULL, *out = NULL, *plugin = NULL, *rules = NULL;
	int apply = 0, jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), c, i, j, nfixed = 0;
	char dirbuf[PATH_MAX], tmpl[] = "/tmp/lockhog-fix.XXXXXX";
	struct kbuild k = { 0 };
	struct tools t;
	struct objset objs = { 0 };
	struct hog_strtab *strs;
	struct hog_prog *prog;
	struct hog_vec xforms = { 0 }, targets = { 0 }, copied = { 0 }, fixed = { 0 };
	struct hog_buf patch = { 0 };
	char *cocci = cocci_dir(), *scratch;
	int skipped;

	optind = 1;
	while ((c = getopt_long(argc, argv, "k:o:j:h", fix_opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			dir = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'a':
			apply = 1;
			break;
		case 'j':
			jobs = atoi(optarg);
			break;
		case 'P':
			plugin = optarg;
			break;
		case 'R':
			rules = optarg;
			break;
		case 'h':
			fputs("usage: lockhog fix --kernel DIR [--out FILE] [--apply] [PATH...]\n"
			      "  Writes a patch that restructures what lockhog scan finds in PATHs,\n"
			      "  each hunk group naming the findings it fixes.  --apply checks it\n"
			      "  with lockhog review (it must build, remove what it fixes and add\n"
			      "  nothing) and applies it, all or nothing.\n", stdout);
			return 0;
		default:
			return EXIT_ERROR;
		}
	}
	if (!dir)
		die("fix needs --kernel DIR");
	tools_locate(&t, plugin, rules);
	strs = hog_strtab_new();
	prog = hog_prog_new(strs, load_rules(strs, t.rules));
	kbuild_check_tree(dir);
	if (!realpath(dir, dirbuf))
		die("%s: %s", dir, strerror(errno));
	dir = dirbuf;
	{
		char *probe = hog_xasprintf("%s/lock_costly_call.cocci", cocci);

		if (access(probe, R_OK))
			die("%s: semantic patches not found (set LOCKHOG_COCCI)", cocci);
		free(probe);
	}
	k.dir = dir;
	k.tools = &t;
	k.jobs = jobs > 0 ? jobs : 1;
	kbuild_configure(&k);
	for (i = optind; i < argc; i++) {
		int isdir;

		hog_vec_push(&targets, kbuild_target(dir, argv[i], &isdir));
	}
	kbuild_build(&k, (const char *const *)targets.v, targets.n);
	if (!targets.n)
		objset_add(&objs, dir);
	for (i = 0; i < targets.n; i++) {
		char *p = hog_xasprintf("%s/%s", dir, (char *)targets.v[i]);

		objset_add(&objs, p);
		free(p);
	}
	if (!objset_load(&objs, prog, strs, &skipped))
		die("no object carries lockhog's analysis");
	hog_prog_solve(prog);

	for (i = 0; i < hog_prog_nfindings(prog); i++) {
		const struct hog_finding *f = hog_prog_finding(prog, i);
		struct xform *x = plan(f), *y;

		if (!x)
			continue;
		y = same_xform(&xforms, x);
		if (y) {
			free(x);
			x = y;
		} else {
			hog_vec_push(&xforms, x);
		}
		hog_vec_push(&x->findings, (void *)f);
	}

	if (!mkdtemp(tmpl))
		die("cannot make a scratch directory: %s", strerror(errno));
	scratch = tmpl;
	for (i = 0; i < xforms.n; i++) {
		struct xform *x = xforms.v[i];
		char *src = hog_xasprintf("%s/%s", dir, x->file);
		char *work = hog_xasprintf("%s/%s", scratch, x->file);
		char *sp = hog_xasprintf("%s/%s", cocci, x->cocci);
		char *fn = hog_xasprintf("fn=%s", x->fn);
		char *argv2[16], *diff = NULL, *lab, *one;
		int a = 0, rc;

		/* transformations of one file build on each other */
		if (!seen(&copied, x->file)) {
			char *wdir = hog_xstrdup(work);
			char *mk[] = { "mkdir", "-p", wdir, NULL };

			*strrchr(wdir, '/') = 0;
			if (run_cmd(mk, NULL, NULL, 0))
				die("cannot make %s", wdir);
			free(wdir);
			copy_file(src, work);
		}
		argv2[a++] = "spatch";
		argv2[a++] = "--very-quiet";
		argv2[a++] = "--no-includes";
		argv2[a++] = "--include-headers";
		argv2[a++] = "--sp-file";
		argv2[a++] = sp;
		argv2[a++] = "-D";
		argv2[a++] = "patch";
		argv2[a++] = "-D";
		argv2[a++] = fn;
		if (x->nocond) {
			argv2[a++] = "-D";
			argv2[a++] = "nocond";
		}
		argv2[a++] = (char *)x->file;	/* relative: tidy.py names it a/FILE */
		argv2[a] = NULL;
		rc = run_cmd(argv2, scratch, &diff, 0);
		if (rc || !strstr(diff, "\n@@")) {
			for (j = 0; j < x->findings.n; j++) {
				const struct hog_finding *f = x->findings.v[j];
				char *m = hog_finding_message(f, NULL);

				fprintf(stderr, "lockhog: not fixed: %s (%s refuses or does not match in %s())\n",
					m, x->cocci, x->fn);
				free(m);
			}
			free(diff);
			goto next;
		}
		lab = tidy(scratch, cocci, diff);
		for (j = 0; j < x->findings.n; j++) {
			const struct hog_finding *f = x->findings.v[j];
			char *m = hog_finding_message(f, NULL);

			hog_buf_printf(&patch, "lockhog: fixes %s: %s [%s]\n", f->fingerprint, m,
				       hog_finding_option(f));
			hog_vec_push(&fixed, (void *)f->fingerprint);
			free(m);
			nfixed++;
		}
		hog_buf_printf(&patch, "lockhog: generated by: spatch --no-includes --include-headers --sp-file cocci/%s -D patch -D fn=%s%s %s | cocci/tidy.py\n",
			       x->cocci, x->fn, x->nocond ? " -D nocond" : "", x->file);
		hog_buf_add(&patch, lab);
		/* apply it to the scratch copy so that the next one builds on it */
		one = hog_xasprintf("%s/one.patch", scratch);
		if (hog_write_file_atomic(one, lab, strlen(lab)) || patch_tree(scratch, one, 0, NULL))
			die("%s: spatch's patch for %s() does not apply to its own input", x->file,
			    x->fn);
		free(one);
		free(lab);
		free(diff);
next:
		free(src);
		free(work);
		free(sp);
		free(fn);
	}
	{
		char *argv3[] = { "rm", "-rf", scratch, NULL };

		run_cmd(argv3, NULL, NULL, 0);
	}
	if (!patch.len) {
		fprintf(stderr, "lockhog: nothing to fix (%d findings, none with a safe transformation)\n",
			hog_prog_nfindings(prog));
		return 0;
	}
	if (apply) {
		char ptmpl[] = "/tmp/lockhog-fix.XXXXXX", *p, *why;

		if (!mkdtemp(ptmpl))
			die("cannot make a scratch directory: %s", strerror(errno));
		p = hog_xasprintf("%s/fix.patch", ptmpl);
		if (hog_write_file_atomic(p, patch.s, patch.len))
			die("%s: %s", p, strerror(errno));
		/* all or nothing: a dry run of the whole patch, then its review */
		why = patch_tree(dir, p, 1, NULL) ? hog_xstrdup("it does not apply to the tree as it is now")
					     : verify(dir, p, &t, &fixed);
		if (why) {
			unlink(p);
			rmdir(ptmpl);
			die("%s: not applying the fix: %s; nothing changed", dir, why);
		}
		fprintf(stderr, "lockhog: verified: lockhog review finds the %d fixed findings gone or with fewer ways, nothing new\n",
			fixed.n);
		if (patch_tree(dir, p, 0, NULL))
			die("%s: applying the fix failed after a clean dry run; see %s", dir, p);
		unlink(p);
		rmdir(ptmpl);
		fprintf(stderr, "lockhog: applied fixes for %d findings to %s\n", nfixed, dir);
	}
	if (out || !apply)
		write_out(out, &patch);
	return 0;
}
