// SPDX-License-Identifier: GPL-2.0
/*
 * lockhog review: what a patch series changes in the findings.
 *
 * The patches are applied to a scratch view of the tree: a farm of
 * symlinks into it, with real directories only along the paths the
 * series touches, so the tree itself is never written.  Only the
 * translation units the series touches (its .c files, and those whose
 * kbuild dependency list names a header it touches) are compiled again,
 * by replaying kbuild's own command line from their .cmd files with the
 * plugin added; every other unit's analysis is read from the tree's
 * objects, left there by an earlier scan.  Summaries are composed
 * across all of them before and after, so a changed helper shows up in
 * its callers in other files too, and findings are compared by
 * fingerprint.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <jansson.h>
#include "lockhog.h"
#include "../core/message.h"
#include "../core/compare.h"
#include "../core/fixplan.h"

struct review {
	const char *dir;		/* the kernel tree, absolute */
	char *scratch;			/* mkdtemp root */
	char *after;			/* scratch view with the series applied */
	char *before;			/* scratch view without (when objects must be rebuilt) */
	struct hog_vec touched;		/* char *: paths the series touches */
	struct hog_vec units;		/* char *: "mm/foo.o" units to compile again */
	struct hog_vec scope;		/* char *: top directories to load ("mm") */
	struct tools tools;
	int jobs;
	int keep;
	struct hog_vec notes;		/* char *: things the reader should know */
};

static char *xstrndup(const char *s, size_t n)
{
	char *p = hog_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

static int is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

static void vec_add_unique(struct hog_vec *v, const char *s)
{
	if (!hog_vec_has_str(v, s))
		hog_vec_push(v, hog_xstrdup(s));
}

/* ---- patches ---- */

static char *diff_path(const char *line)
{
	const char *p = line + 4, *e;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "/dev/null", 9))
		return NULL;
	e = p;
	while (*e && *e != '\t' && *e != '\n' && *e != '\r')
		e++;
	while (e > p && e[-1] == ' ')
		e--;
	/* a/ and b/ prefixes, as -p1 takes them off */
	if ((p[0] == 'a' || p[0] == 'b') && p[1] == '/')
		p += 2;
	return xstrndup(p, e - p);
}

/* Checks that text is a patch and records the files it touches. */
static void patch_files(const char *name, const char *text, size_t len, struct hog_vec *files)
{
	const char *p = text, *end = text + len;
	int diffs = 0, hunks = 0;

	if (!len)
		die("%s: empty patch", name);
	if (memchr(text, 0, len))
		die("%s: binary data, not a patch", name);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = (nl ? nl : end) - p;

		if (l >= 16 && !strncmp(p, "GIT binary patch", 16))
			die("%s: binary diff (GIT binary patch): lockhog reviews source changes only", name);
		if (l > 13 && !strncmp(p, "Binary files ", 13))
			die("%s: binary diff: lockhog reviews source changes only", name);
		if (l > 4 && (!strncmp(p, "+++ ", 4) || !strncmp(p, "--- ", 4))) {
			char *line = xstrndup(p, l);
			char *f = diff_path(line);

			if (f && strstr(f, ".."))
				die("%s: refers to %s outside the tree", name, f);
			if (f)
				vec_add_unique(files, f);
			if (!strncmp(p, "+++ ", 4))
				diffs++;
			free(line);
			free(f);
		}
		if (l > 3 && !strncmp(p, "@@ ", 3))
			hunks++;
		p = nl ? nl + 1 : end;
	}
	if (!diffs || !hunks)
		die("%s: not a patch (no unified diff in it)", name);
}

/* ---- the scratch view ---- */

/* Makes dst/rel a real directory whose entries link to src/rel's. */
static void mirror_dir(const char *src, const char *dst, const char *rel)
{
	char *sp = hog_xasprintf("%s%s%s", src, *rel ? "/" : "", rel);
	char *dp = hog_xasprintf("%s%s%s", dst, *rel ? "/" : "", rel);
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (!lstat(dp, &st) && S_ISDIR(st.st_mode))
		goto out;		/* already real */
	if (!lstat(dp, &st) && unlink(dp))
		die("%s: %s", dp, strerror(errno));
	if (mkdir(dp, 0755))
		die("%s: %s", dp, strerror(errno));
	d = opendir(sp);
	while (d && (de = readdir(d))) {
		char *s, *t;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		s = hog_xasprintf("%s/%s", sp, de->d_name);
		t = hog_xasprintf("%s/%s", dp, de->d_name);
		if (symlink(s, t))
			die("%s: %s", t, strerror(errno));
		free(s);
		free(t);
	}
	if (d)
		closedir(d);
out:
	free(sp);
	free(dp);
}

/* Real directories from the root down to path's directory. */
static void mirror_path(const char *src, const char *dst, const char *path)
{
	char *p = hog_xstrdup(path), *s;

	for (s = strchr(p, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mirror_dir(src, dst, p);
		*s = '/';
	}
	free(p);
}

/* A private, writable copy of one file in the view. */
static void own_file(const char *src, const char *dst, const char *path)
{
	char *from = hog_xasprintf("%s/%s", src, path), *to = hog_xasprintf("%s/%s", dst, path);
	size_t len = 0;
	char *text;

	mirror_path(src, dst, path);
	unlink(to);
	text = hog_read_file(from, &len);
	if (text && hog_write_file_atomic(to, text, len))
		die("%s: %s", to, strerror(errno));
	free(text);
	free(from);
	free(to);
}

/* A view of the tree: to begin with, one link for each of its top entries. */
static char *make_view(struct review *r, const char *name)
{
	char *v = hog_xasprintf("%s/%s", r->scratch, name);

	mirror_dir(r->dir, v, "");
	return v;
}

static char *first_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return xstrndup(s, nl ? (size_t)(nl - s) : strlen(s));
}

static void apply(struct review *r, const char *patch, const char *name)
{
	char *out = NULL;

	if (patch_tree(r->after, patch, 0, &out))
		die("%s does not apply to %s: %s", name, r->dir, first_line(out));
	free(out);
}

/* ---- which units to compile again ---- */

struct unit_cmd {
	char *obj;		/* mm/foo.o */
	char *cmd;		/* kbuild's compile command */
	char *deps;		/* the dependency list text */
};

static struct unit_cmd *read_cmd(const char *dir, const char *dotcmd)
{
	char *text = hog_read_file(dotcmd, NULL), *p, *q;
	struct unit_cmd *u;

	(void)dir;
	if (!text || strncmp(text, "cmd_", 4)) {
		free(text);
		return NULL;
	}
	p = strstr(text, " := ");
	q = strchr(text, '\n');
	if (!p || !q || p > q) {
		free(text);
		return NULL;
	}
	u = hog_xcalloc(1, sizeof(*u));
	u->obj = xstrndup(text + 4, p - text - 4);
	u->cmd = xstrndup(p + 4, q - p - 4);
	u->deps = hog_xstrdup(q);
	free(text);
	return u;
}

static void free_cmd(struct unit_cmd *u)
{
	if (!u)
		return;
	free(u->obj);
	free(u->cmd);
	free(u->deps);
	free(u);
}

/* Does the dependency list name this file as a whole word? */
static int deps_name(const char *deps, const char *file)
{
	size_t l = strlen(file);
	const char *p = deps;

	while ((p = strstr(p, file))) {
		int before = p == deps || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '/';
		int after = p[l] == ' ' || p[l] == '\n' || p[l] == '\\' || p[l] == 0;

		if (before && after)
			return 1;
		p += l;
	}
	return 0;
}

/* Calls visit for every compile kbuild recorded below rel (its .o.cmd files). */
static void walk_cmds(const char *dir, const char *rel, int depth,
		      void (*visit)(const struct unit_cmd *u, void *arg), void *arg)
{
	char *path = hog_xasprintf("%s/%s", dir, rel);
	DIR *d = opendir(path);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		const char *n = de->d_name;
		size_t l = strlen(n);
		char *sub;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		sub = hog_xasprintf("%s%s%s", rel, *rel ? "/" : "", n);
		if (n[0] == '.' && l > 6 && !strcmp(n + l - 6, ".o.cmd")) {
			char *full = hog_xasprintf("%s/%s", dir, sub);
			struct unit_cmd *u = read_cmd(dir, full);

			if (u && strstr(u->cmd, " -c "))
				visit(u, arg);
			free_cmd(u);
			free(full);
		} else if (de->d_type == DT_DIR && n[0] != '.' && depth < 12 &&
			   strcmp(n, "Documentation") && strcmp(n, "tools") &&
			   strcmp(n, "scripts") && strcmp(n, "usr")) {
			walk_cmds(dir, sub, depth + 1, visit, arg);
		}
		free(sub);
	}
	if (d)
		closedir(d);
	free(path);
}

struct header_units {
	struct review *r;
	const struct hog_vec *headers;
};

/* a unit whose dependency list names a touched header is compiled again */
static void add_if_includes(const struct unit_cmd *u, void *arg)
{
	struct header_units *h = arg;
	int i;

	for (i = 0; i < h->headers->n; i++)
		if (deps_name(u->deps, h->headers->v[i]))
			vec_add_unique(&h->r->units, u->obj);
}

static void find_units(struct review *r)
{
	struct hog_vec headers = { 0 };
	int i;

	for (i = 0; i < r->touched.n; i++) {
		const char *f = r->touched.v[i];
		size_t l = strlen(f);
		char *slash = strchr(f, '/');
		char *top = slash ? xstrndup(f, slash - f) :
				    hog_xstrdup(".");

		if (l > 2 && !strcmp(f + l - 2, ".c")) {
			char *o = hog_xasprintf("%.*s.o", (int)(l - 2), f);
			char *dot = strrchr(o, '/');
			char *cmd = dot ? hog_xasprintf("%s/%.*s/.%s.cmd", r->dir, (int)(dot - o), o,
							dot + 1) :
					  hog_xasprintf("%s/.%s.cmd", r->dir, o);

			if (!access(cmd, R_OK))
				vec_add_unique(&r->units, o);
			else
				hog_vec_push(&r->notes, hog_xasprintf(
					"%s is not built in this configuration (no %s): not analysed", f,
					cmd + strlen(r->dir) + 1));
			free(o);
			free(cmd);
			if (strcmp(top, "."))
				vec_add_unique(&r->scope, top);
		} else if (l > 2 && !strcmp(f + l - 2, ".h")) {
			vec_add_unique(&headers, f);
		}
		free(top);
	}
	if (headers.n) {
		struct header_units h = { r, &headers };

		walk_cmds(r->dir, "", 0, add_if_includes, &h);
		for (i = 0; i < r->units.n; i++) {
			char *u = r->units.v[i], *slash = strchr(u, '/');
			char *top = slash ? xstrndup(u, slash - u) :
					    hog_xstrdup(".");

			if (strcmp(top, "."))
				vec_add_unique(&r->scope, top);
			free(top);
		}
	}
	for (i = 0; i < headers.n; i++)
		free(headers.v[i]);
	hog_vec_free(&headers);
}

/* ---- the tree's own analysis, the comparison's base ---- */

struct unit_count {
	const char *tag;
	int units, stale;
};

/* counts the units, and those compiled by another plugin or rules (not the .mod.o glue) */
static void count_unit(const struct unit_cmd *u, void *arg)
{
	struct unit_count *c = arg;
	size_t l = strlen(u->obj);

	if (l > 6 && !strcmp(u->obj + l - 6, ".mod.o"))
		return;
	c->units++;
	c->stale += !strstr(u->cmd, c->tag);
}

/*
 * Review compares against the tree's own analysis.  A tree that was
 * never configured or scanned, or was scanned by another plugin or rules
 * version, is prepared the way scan prepares it: a gate must never pass
 * because it compared nothing.  kbuild then rebuilds exactly what is out
 * of date, sources edited since the last scan included.
 */
static void prepare_tree(struct review *r, const struct hog_vec *dirs)
{
	struct kbuild k = { .dir = r->dir, .jobs = r->jobs, .tools = &r->tools };
	char *tag = tools_tag(&r->tools), *want = hog_xasprintf("-fplugin-arg-lockhog-tag=%s", tag);
	const char **targets = hog_xcalloc(dirs->n + 1, sizeof(*targets));
	int i;

	kbuild_configure(&k);
	for (i = 0; i < dirs->n; i++) {
		struct unit_count c = { want, 0, 0 };

		targets[i] = hog_xasprintf("%s/", (char *)dirs->v[i]);
		walk_cmds(r->dir, dirs->v[i], 0, count_unit, &c);
		if (!c.units || c.stale)
			fprintf(stderr, "lockhog: %s has no current analysis in %s: building it with the plugin\n",
				targets[i], r->dir);
	}
	if (dirs->n)
		kbuild_build(&k, targets, dirs->n);
	for (i = 0; i < dirs->n; i++)
		free((char *)targets[i]);
	free(targets);
	free(want);
	free(tag);
}

/*
 * How many C sources and headers the series touches; the top directories
 * of the sources go into dirs (a header's units are found from what is
 * built, by find_units).
 */
static int touched_c(const struct review *r, struct hog_vec *dirs)
{
	int i, n = 0;

	for (i = 0; i < r->touched.n; i++) {
		const char *f = r->touched.v[i], *slash = strchr(f, '/');
		size_t l = strlen(f);
		char *top;

		if (l < 3 || (strcmp(f + l - 2, ".c") && strcmp(f + l - 2, ".h")))
			continue;
		n++;
		if (!slash || !strcmp(f + l - 2, ".h"))
			continue;
		top = xstrndup(f, slash - f);
		vec_add_unique(dirs, top);
		free(top);
	}
	return n;
}

/* ---- compiling units again ---- */

/* kbuild's command, minus its dependency file and any earlier plugin, plus ours. */
static char *compile_cmd(struct review *r, const char *cmd)
{
	struct hog_buf b = { 0 };
	const char *p = cmd;
	char q = 0;

	while (*p) {
		const char *w = p;

		/* stop at the first ';' outside quotes: objtool and friends follow */
		if (!q && *p == ';')
			break;
		if (!q && *p != ' ') {
			const char *e = p;

			while (*e && (q || (*e != ' ' && *e != ';'))) {
				if (!q && (*e == '\'' || *e == '"'))
					q = *e;
				else if (q && *e == q)
					q = 0;
				e++;
			}
			if (!strncmp(w, "-Wp,-MMD,", 9) || !strncmp(w, "-Wp,-MD,", 8) ||
			    !strncmp(w, "-fplugin", 8)) {
				p = e;
				continue;
			}
			hog_buf_addn(&b, w, e - w);
			p = e;
			continue;
		}
		hog_buf_addn(&b, p, 1);
		p++;
	}
	hog_buf_printf(&b, " -fplugin=%s -fplugin-arg-lockhog-rules=%s -fplugin-arg-lockhog-diag=none",
		       r->tools.plugin, r->tools.rules);
	return b.s;
}

struct job {
	pid_t pid;
	const char *unit;
	char *log;
};

/* Starts the compile of unit u in the view into a free slot of jobs; 0 if it has no .cmd. */
static int start_job(struct review *r, const char *view, const char *u, struct job *jobs)
{
	char *dot = strrchr(u, '/');
	char *cmdf = dot ? hog_xasprintf("%s/%.*s/.%s.cmd", r->dir, (int)(dot - u), u, dot + 1) :
			   hog_xasprintf("%s/.%s.cmd", r->dir, u);
	struct unit_cmd *c = read_cmd(r->dir, cmdf);
	char *out, *cmd, *log;
	struct job *j;
	pid_t pid;

	free(cmdf);
	if (!c)
		return 0;
	/* the object is written in the view: make it ours, not a link into the tree */
	mirror_path(r->dir, view, u);
	out = hog_xasprintf("%s/%s", view, u);
	unlink(out);
	free(out);
	cmd = compile_cmd(r, c->cmd);
	free_cmd(c);
	log = hog_xasprintf("%s/%s.log", r->scratch, u);
	for (char *s = log + strlen(r->scratch) + 1; *s; s++)
		if (*s == '/')
			*s = '_';
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (chdir(view))
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	free(cmd);
	for (j = jobs; j->pid; j++)
		;
	j->pid = pid;
	j->unit = u;
	j->log = log;
	return 1;
}

/*
 * Waits for one compile: *running drops when it was one of jobs.
 * Returns 1 if it failed, the first failure's reason in *why.
 */
static int reap_job(struct review *r, struct job *jobs, int *running, char **why)
{
	int st, i, failed = 0;
	pid_t pid = wait(&st);

	for (i = 0; i < r->jobs; i++) {
		struct job *j = &jobs[i];

		if (j->pid != pid)
			continue;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			char *text = hog_read_file(j->log, NULL);
			const char *e = text ? strstr(text, "error:") : NULL;

			failed = 1;
			if (!*why)
				*why = hog_xasprintf("%s: %s", j->unit,
						     e ? first_line(e) : "compiler failed");
			free(text);
		}
		free(j->log);
		j->pid = 0;
		(*running)--;
	}
	return failed;
}

/* Compiles every unit in the view, jobs at a time; returns failures' logs in *why. */
static int compile_units(struct review *r, const char *view, const struct hog_vec *units,
			 char **why)
{
	struct job *jobs = hog_xcalloc(r->jobs, sizeof(*jobs));
	int next = 0, running = 0, failed = 0;

	*why = NULL;
	while (next < units->n || running) {
		while (running < r->jobs && next < units->n)
			running += start_job(r, view, units->v[next++], jobs);
		if (running)
			failed += reap_job(r, jobs, &running, why);
	}
	free(jobs);
	return failed;
}

/* ---- analysis ---- */

static int ends_with(const char *s, const char *t)
{
	size_t a = strlen(s), b = strlen(t);

	return a >= b && !strcmp(s + a - b, t);
}

/*
 * The program: every object of the scope directories in the tree,
 * except the units compiled again, which come from the view.
 */
static struct hog_prog *load(struct review *r, struct hog_strtab *strs,
			     const struct hog_rules *rules, const char *view, int *nmods)
{
	struct hog_prog *prog = hog_prog_new(strs, rules);
	struct objset all = { 0 }, mine = { 0 };
	int i, j, skipped;

	for (i = 0; i < r->scope.n; i++) {
		char *p = hog_xasprintf("%s/%s", r->dir, (char *)r->scope.v[i]);

		if (is_dir(p))
			objset_add(&all, p);
		free(p);
	}
	for (i = 0; i < all.paths.n; i++) {
		const char *p = all.paths.v[i];
		int replaced = 0;

		for (j = 0; j < r->units.n && !replaced; j++) {
			char *full = hog_xasprintf("%s/%s", r->dir, (char *)r->units.v[j]);

			replaced = !strcmp(full, p) || ends_with(p, full);
			free(full);
		}
		if (!replaced || !view)
			hog_vec_push(&mine.paths, hog_xstrdup(p));
	}
	for (i = 0; view && i < r->units.n; i++) {
		char *p = hog_xasprintf("%s/%s", view, (char *)r->units.v[i]);

		if (!access(p, R_OK))
			hog_vec_push(&mine.paths, p);
		else
			free(p);
	}
	*nmods = objset_load(&mine, prog, strs, &skipped);
	hog_prog_solve(prog);
	return prog;
}

/*
 * Functions the series changed: those of the touched files, as the
 * recompiled units define them before and after (hog_compare counts
 * only the ways that pass through one of them).
 */
static void changed_functions(struct review *r, const char *view, struct hog_vec *out)
{
	int i;

	for (i = 0; i < r->units.n; i++) {
		char *o = view ? hog_xasprintf("%s/%s", view, (char *)r->units.v[i]) :
				 hog_xasprintf("%s/%s", r->dir, (char *)r->units.v[i]);
		size_t len = 0;
		char *err = NULL, *perr = NULL, *text = object_section(o, &len, &err);
		struct hog_module *m = text ? hog_module_read(NULL, text, len, &perr) : NULL;

		hog_changed_functions(m, &r->touched, out);
		hog_module_free(m);
		free(text);
		free(err);
		free(perr);
		free(o);
	}
}

/* ---- output ---- */

/*
 * Text reads like checkpatch: a "NEW WARNING: ..." or "FIXED: ..." line
 * for each finding, then the finding as lockhog scan shows it (core's
 * rendering) with the other new costs from its spot under it, the fix
 * lockhog fix would make, and a closing total.  The total counts
 * findings as scan does, a spot each.
 */
static void text_finding(struct hog_buf *b, const char *tag, const struct hog_report_item *items,
			 int i, const int *lead, int n, int with_fix)
{
	const struct hog_finding *f = items[i].f;
	struct hog_report_opts o = { .min_sev = HS_NOTE };
	struct hog_fix fix;
	char *msg = hog_finding_message(f, &f->paths[0]);
	int j;

	hog_buf_printf(b, "%s: %s [%s]\n", tag, msg, hog_finding_option(f));
	hog_report_text_item(&items[i], &o, b);
	for (j = i + 1; lead && j < n; j++)
		if (lead[j] == i)
			hog_report_text_also(&items[j], b);
	if (with_fix && hog_fix_choice(f, &fix))
		hog_buf_printf(b, "    fix: lockhog fix: %s (cocci/%s)\n", fix.what, fix.cocci);
	hog_buf_add(b, "\n");
	free(msg);
}

static void render_text(const struct review *r, const struct hog_diff *d, int nobjs,
			struct hog_buf *b)
{
	int *lead = hog_report_leads(d->fresh, d->nfresh), cnt[3] = { 0 }, also = 0, i;

	for (i = 0; i < d->nfresh; i++) {
		const struct hog_finding *f = d->fresh[i].f;
		char tag[32];

		if (lead[i] != i) {
			also++;
			continue;
		}
		cnt[f->sev]++;
		snprintf(tag, sizeof(tag), "NEW %s", hog_sev_name(f->sev));
		for (char *s = tag; *s; s++)
			*s = *s >= 'a' && *s <= 'z' ? *s - 32 : *s;
		text_finding(b, tag, d->fresh, i, lead, d->nfresh, 1);
	}
	free(lead);
	for (i = 0; i < d->ngone; i++)
		text_finding(b, "FIXED", d->gone, i, NULL, d->ngone, 0);
	for (i = 0; i < r->notes.n; i++)
		hog_buf_printf(b, "NOTE: %s\n", (char *)r->notes.v[i]);
	hog_buf_printf(b, "total: %d errors, %d warnings, %d notes new; %d fixed; %d unchanged",
		       cnt[HS_ERROR], cnt[HS_WARNING], cnt[HS_NOTE], d->nfixed, d->nunchanged);
	if (also)
		hog_buf_printf(b, "; %d more new cost%s at the same spots shown under them", also,
			       also == 1 ? "" : "s");
	hog_buf_printf(b, " (%d units compiled, %d objects read)\n", r->units.n, nobjs);
}

static const struct option review_opts[] = {
	{ "kernel", required_argument, NULL, 'k' },
	{ "range", required_argument, NULL, 'r' },
	{ "format", required_argument, NULL, 'f' },
	{ "out", required_argument, NULL, 'o' },
	{ "fail-on", required_argument, NULL, 'F' },
	{ "baseline", required_argument, NULL, 'B' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "plugin", required_argument, NULL, 'P' },
	{ "rules", required_argument, NULL, 'R' },
	{ "keep", no_argument, NULL, 'K' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static void review_usage(FILE *f)
{
	fputs("usage: lockhog review --kernel DIR [options] PATCH...\n"
	      "       lockhog review --kernel DIR --range A..B [options]\n"
	      "  Reports the findings a patch series introduces and those it fixes.\n"
	      "  PATCHes are mbox files from git format-patch or unified diffs, applied\n"
	      "  in order to a scratch view of DIR (DIR itself is never written).\n"
	      "\n"
	      "  --format text|json|sarif|html  output (text, in the style of checkpatch)\n"
	      "  --out FILE                 write there instead of stdout\n"
	      "  --fail-on SEV              exit 1 if a new finding is at or above SEV (warning)\n"
	      "  --baseline FILE            findings accepted earlier (lockhog scan --write-baseline)\n"
	      "  --jobs N, --plugin FILE, --rules FILE, --keep (keep the scratch view)\n"
	      "exit: 0 nothing new at or above --fail-on, 1 something is, 2 error\n", f);
}

static void cleanup(struct review *r)
{
	char *argv[] = { "rm", "-rf", r->scratch, NULL };

	if (r->scratch && !r->keep)
		run_cmd(argv, NULL, NULL, 1);
}

static struct review *g_review;

static void at_exit(void)
{
	if (g_review)
		cleanup(g_review);
}

/*
 * The units to compile again, in a tree prepared for the comparison.  A
 * series that touches no C at all has nothing to review; one that does,
 * but reaches no unit this configuration builds, is an error: a gate that
 * compared nothing must not pass.
 */
static void find_units_prepared(struct review *r)
{
	struct hog_vec dirs = { 0 };
	int i, nc = touched_c(r, &dirs), more;

	if (!nc) {
		fprintf(stderr, "lockhog: the series touches no C source or header: nothing to review\n");
		return;
	}
	prepare_tree(r, &dirs);
	find_units(r);
	/* units reached through a header may live in directories not yet prepared */
	more = dirs.n;
	for (i = 0; i < r->scope.n; i++)
		vec_add_unique(&dirs, r->scope.v[i]);
	if (dirs.n > more) {
		struct hog_vec extra = { dirs.v + more, dirs.n - more, 0 };

		prepare_tree(r, &extra);
	}
	if (!r->units.n)
		die("the series reaches no unit built in %s (%s): nothing was compared", r->dir,
		    r->notes.n ? (char *)r->notes.v[0] :
				 "for a header, run lockhog scan on the tree first");
	for (i = 0; i < dirs.n; i++)
		free(dirs.v[i]);
	hog_vec_free(&dirs);
}


/* --range A..B in a git tree: the series as format-patch would give it. */
static char *range_patch(struct review *r, const char *range)
{
	char *argv[] = { "git", "-C", (char *)r->dir, "format-patch", "--stdout",
			 "--no-signature", (char *)range, NULL };
	char *out = NULL, *path;

	if (!strstr(range, ".."))
		die("--range wants A..B, not '%s'", range);
	if (run_cmd(argv, NULL, &out, 1))
		die("%s: git format-patch %s failed: %s", r->dir, range, first_line(out));
	if (!*out)
		die("%s: %s holds no commits", r->dir, range);
	path = hog_xasprintf("%s/range.patch", r->scratch);
	if (hog_write_file_atomic(path, out, strlen(out)))
		die("%s: %s", path, strerror(errno));
	free(out);
	return path;
}


/* What the command line asked for. */
struct review_args {
	const char *plugin, *rules, *range, *out, *baseline;
	enum hog_format fmt;
	int fail_on;
	int first_patch;	/* argv index of the first PATCH */
};

static void parse_args(int argc, char **argv, struct review *r, struct review_args *a)
{
	int c;

	r->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	a->fmt = HOG_FMT_TEXT;
	a->fail_on = HS_WARNING;
	optind = 1;
	while ((c = getopt_long(argc, argv, "k:r:f:o:j:h", review_opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			r->dir = optarg;
			break;
		case 'r':
			a->range = optarg;
			break;
		case 'f':
			if (hog_format_parse(optarg) < 0)
				die("unknown format '%s' (text, json, sarif or html)", optarg);
			a->fmt = hog_format_parse(optarg);
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'F':
			a->fail_on = parse_sev(optarg);
			break;
		case 'B':
			a->baseline = optarg;
			break;
		case 'j':
			r->jobs = atoi(optarg);
			if (r->jobs < 1)
				die("--jobs needs a positive number");
			break;
		case 'P':
			a->plugin = optarg;
			break;
		case 'R':
			a->rules = optarg;
			break;
		case 'K':
			r->keep = 1;
			break;
		case 'h':
			review_usage(stdout);
			exit(0);
		default:
			review_usage(stderr);
			exit(EXIT_ERROR);
		}
	}
	a->first_patch = optind;
}

/* The tree, the tools, the baseline and the scratch directory. */
static struct hog_accepted *set_up(struct review *r, const struct review_args *a, int argc,
				   struct hog_strtab **strs, struct hog_rules **rules)
{
	char dirbuf[PATH_MAX], tmpl[] = "/tmp/lockhog-review.XXXXXX", *err = NULL;
	struct hog_accepted *base = NULL;

	if (!r->dir)
		die("review needs --kernel DIR");
	if (a->first_patch >= argc && !a->range)
		die("review needs patches or --range A..B");
	if (a->first_patch < argc && a->range)
		die("give patches or --range, not both");
	tools_locate(&r->tools, a->plugin, a->rules);
	*strs = hog_strtab_new();
	*rules = load_rules(*strs, &r->tools);
	kbuild_check_tree(r->dir);
	/* read again for the tree's version; a catalogue's errors do not depend on it */
	hog_rules_free(*rules);
	tools_kversion(&r->tools, r->dir);
	*rules = load_rules(*strs, &r->tools);
	if (!realpath(r->dir, dirbuf))
		die("%s: %s", r->dir, strerror(errno));
	r->dir = hog_xstrdup(dirbuf);
	if (a->baseline && !(base = hog_baseline_load(a->baseline, &err)))
		die("%s", err);
	if (!mkdtemp(tmpl))
		die("cannot make a scratch directory: %s", strerror(errno));
	r->scratch = hog_xstrdup(tmpl);
	g_review = r;
	atexit(at_exit);
	return base;
}

/* Every patch is read and checked, and its files recorded, before anything is applied. */
static void read_patches(struct review *r, const struct review_args *a, int argc, char **argv,
			 struct hog_vec *patches, struct hog_vec *names)
{
	int i;

	if (a->range) {
		hog_vec_push(patches, range_patch(r, a->range));
		hog_vec_push(names, (void *)a->range);
	}
	for (i = a->first_patch; i < argc; i++) {
		char abs[PATH_MAX];

		if (!realpath(argv[i], abs))
			die("%s: %s", argv[i], strerror(errno));
		if (is_dir(abs))
			die("%s: a directory, not a patch", argv[i]);
		hog_vec_push(patches, hog_xstrdup(abs));
		hog_vec_push(names, argv[i]);
	}
	for (i = 0; i < patches->n; i++) {
		size_t len = 0;
		char *text = hog_read_file(patches->v[i], &len);

		if (!text)
			die("%s: %s", (char *)names->v[i], strerror(errno));
		patch_files(names->v[i], text, len, &r->touched);
		free(text);
	}
}

/* The "after" view: private copies of what the series touches, then the series. */
static void apply_series(struct review *r, const struct hog_vec *patches,
			 const struct hog_vec *names)
{
	int i;

	r->after = make_view(r, "after");
	for (i = 0; i < r->touched.n; i++) {
		char *src = hog_xasprintf("%s/%s", r->dir, (char *)r->touched.v[i]);

		if (!access(src, F_OK))
			own_file(r->dir, r->after, r->touched.v[i]);
		else
			mirror_path(r->dir, r->after, r->touched.v[i]);
		free(src);
	}
	for (i = 0; i < patches->n; i++)
		apply(r, patches->v[i], names->v[i]);
}

/*
 * Compiles the units before and after.  The tree's own objects are
 * "before" when the last scan left them; a unit without one is compiled
 * in a "before" view too.
 */
static void compile_both(struct review *r)
{
	char *why = NULL;
	int i;

	for (i = 0; i < r->units.n && !r->before; i++) {
		char *o = hog_xasprintf("%s/%s", r->dir, (char *)r->units.v[i]);
		size_t len;
		char *err = NULL, *sec = object_section(o, &len, &err);

		if (!sec)
			r->before = make_view(r, "before");
		free(sec);
		free(err);
		free(o);
	}
	if (r->before && compile_units(r, r->before, &r->units, &why))
		die("%s does not build before the series: %s", r->dir, why);
	if (compile_units(r, r->after, &r->units, &why))
		die("the series breaks the build: %s", why);
}

/* JSON and SARIF: one result a finding, new, absent, updated or unchanged. */
static void render_machine(const struct review *r, const struct hog_diff *d,
			   enum hog_format fmt, struct hog_buf *b)
{
	struct hog_report_opts o = {
		.min_sev = HS_NOTE, .srcroot = r->dir, .tool_version = LOCKHOG_VERSION,
		.scope = "review",
	};
	char *err = NULL;

	if (hog_report(d->items, d->nitems, &o, fmt, b, &err))
		die("%s", err);
}

int cmd_review(int argc, char **argv)
{
	struct review r = { 0 };
	struct review_args a = { 0 };
	struct hog_vec patches = { 0 }, names = { 0 }, changed = { 0 };
	struct hog_strtab *strs;
	struct hog_rules *rules;
	struct hog_prog *before, *after;
	struct hog_accepted *base;
	struct hog_diff *d;
	struct hog_buf b = { 0 };
	int nb = 0, na = 0, rc;

	parse_args(argc, argv, &r, &a);
	base = set_up(&r, &a, argc, &strs, &rules);
	read_patches(&r, &a, argc, argv, &patches, &names);
	apply_series(&r, &patches, &names);
	find_units_prepared(&r);
	compile_both(&r);

	before = load(&r, strs, rules, r.before, &nb);
	after = load(&r, strs, rules, r.after, &na);
	changed_functions(&r, r.before, &changed);
	changed_functions(&r, r.after, &changed);
	d = hog_compare(before, after, &(struct hog_compare_opts){ &changed, base });
	if (a.fmt == HOG_FMT_TEXT)
		render_text(&r, d, na, &b);
	else
		render_machine(&r, d, a.fmt, &b);
	write_out(a.out, &b);
	rc = a.fail_on >= 0 && d->worst >= a.fail_on ? EXIT_FINDINGS : 0;
	hog_diff_free(d);
	hog_baseline_free(base);
	hog_buf_free(&b);
	return rc;
}
