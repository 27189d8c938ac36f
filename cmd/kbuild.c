// SPDX-License-Identifier: GPL-2.0
/*
 * Driving kbuild: a scan is a kernel build with the plugin in KCFLAGS.
 * kbuild records each object's command line, so a new plugin or rules
 * file (a new tag) rebuilds what it must and nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include "lockhog.h"

static int is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

void kbuild_check_tree(const char *dir)
{
	static const char *const need[] = { "Makefile", "Kconfig", "scripts/kconfig",
					    "arch", "include/linux" };
	unsigned i;

	if (!dir || !*dir)
		die("--kernel needs a directory");
	if (!is_dir(dir)) {
		if (access(dir, F_OK))
			die("%s: no such directory", dir);
		die("%s: not a directory", dir);
	}
	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		char *p = hog_xasprintf("%s/%s", dir, need[i]);
		int ok = !access(p, F_OK);

		free(p);
		if (!ok)
			die("%s: not a kernel tree (no %s)", dir, need[i]);
	}
}

/* Runs argv with output to log; returns the exit status. */
static int run_logged(char *const argv[], const char *log, int verbose)
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		if (!verbose && log) {
			FILE *f = freopen(log, "a", stdout);

			if (!f)
				_exit(127);
			dup2(fileno(stdout), 2);
		} else {
			dup2(2, 1);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "lockhog: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		die("waitpid: %s", strerror(errno));
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int run_cmd(char *const argv[], const char *cwd, char **out, int with_stderr)
{
	int pfd[2], st;
	pid_t pid;
	struct hog_buf b = { 0 };
	char buf[65536];
	ssize_t n;

	if (pipe(pfd))
		die("pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		close(pfd[0]);
		dup2(pfd[1], 1);
		if (with_stderr) {
			dup2(pfd[1], 2);
		} else {
			int null = open("/dev/null", O_WRONLY);

			if (null >= 0)
				dup2(null, 2);
		}
		if (cwd && chdir(cwd))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], buf, sizeof(buf))) > 0)
		hog_buf_addn(&b, buf, n);
	close(pfd[0]);
	waitpid(pid, &st, 0);
	if (out)
		*out = b.s ? b.s : hog_xstrdup("");
	else
		hog_buf_free(&b);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int patch_tree(const char *dir, const char *patch, int dry, char **out)
{
	char *argv[] = { "patch", "-p1", "-s", "--batch", "--forward", "--no-backup-if-mismatch",
			 "-r", "-", "-i", (char *)patch, dry ? "--dry-run" : NULL, NULL };

	return run_cmd(argv, dir, out, 1);
}

/* The last line of the log that says what went wrong. */
static char *log_error(const char *log)
{
	FILE *f = fopen(log, "r");
	char line[1024], best[1024] = "";

	if (!f)
		return hog_xstrdup("see the build log");
	/* the tool's own complaint, not make's "make: *** [...] Error 1" echo of it */
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "make", 4) && strstr(line, "] Error ")) {
			if (!*best)
				snprintf(best, sizeof(best), "%s", line);
			continue;
		}
		if (strstr(line, "error") || strstr(line, "Error") || strstr(line, "***"))
			snprintf(best, sizeof(best), "%s", line);
	}
	fclose(f);
	return hog_xstrdup(*best ? best : "see the build log");
}

static char *log_path(struct kbuild *k)
{
	return hog_xasprintf("%s/.lockhog-build.log", k->dir);
}

void kbuild_configure(struct kbuild *k)
{
	/* what the analysis needs on top of defconfig: memcg and its kmem accounting */
	static const char *const opts[] = { "CGROUPS", "MEMCG", "MEMCG_KMEM", "NUMA", "SMP" };
	char *cfg = hog_xasprintf("%s/.config", k->dir);
	char *log = log_path(k);
	char *argv[16];
	unsigned i;
	int rc;

	if (is_file(cfg)) {
		free(cfg);
		free(log);
		return;
	}
	unlink(log);
	fprintf(stderr, "lockhog: %s has no .config: configuring (defconfig + MEMCG)\n", k->dir);
	argv[0] = "make";
	argv[1] = "-C";
	argv[2] = (char *)k->dir;
	argv[3] = "defconfig";
	argv[4] = NULL;
	rc = run_logged(argv, log, k->verbose);
	if (rc || !is_file(cfg)) {
		char *why = log_error(log);

		die("%s: make defconfig failed: %s", k->dir, why);
	}
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		char *sc = hog_xasprintf("%s/scripts/config", k->dir);

		argv[0] = sc;
		argv[1] = "--file";
		argv[2] = cfg;
		argv[3] = "-e";
		argv[4] = (char *)opts[i];
		argv[5] = NULL;
		rc = run_logged(argv, log, k->verbose);
		free(sc);
		if (rc)
			die("%s: scripts/config -e %s failed", k->dir, opts[i]);
	}
	argv[0] = "make";
	argv[1] = "-C";
	argv[2] = (char *)k->dir;
	argv[3] = "olddefconfig";
	argv[4] = NULL;
	if (run_logged(argv, log, k->verbose)) {
		char *why = log_error(log);

		unlink(cfg);
		die("%s: make olddefconfig failed: %s", k->dir, why);
	}
	free(cfg);
	free(log);
}

char *kbuild_target(const char *dir, const char *path, int *isdir)
{
	char *p = hog_xstrdup(path), *full, *t;
	size_t l;

	while (p[0] == '.' && p[1] == '/')
		memmove(p, p + 2, strlen(p + 2) + 1);
	l = strlen(p);
	while (l > 1 && p[l - 1] == '/')
		p[--l] = 0;
	if (p[0] == '/' || strstr(p, ".."))
		die("%s: give paths relative to the kernel tree", path);
	full = hog_xasprintf("%s/%s", dir, p);
	*isdir = 0;
	if (is_dir(full)) {
		*isdir = 1;
		t = hog_xasprintf("%s/", p);
	} else if (l > 2 && !strcmp(p + l - 2, ".c") && is_file(full)) {
		p[l - 1] = 'o';
		t = hog_xstrdup(p);
	} else if (l > 2 && !strcmp(p + l - 2, ".o")) {
		char *c = hog_xasprintf("%s/%.*s.c", dir, (int)(l - 2), p);

		if (!is_file(c))
			die("%s: no source %s.c for it", path, p);
		free(c);
		t = hog_xstrdup(p);
	} else {
		die("%s: not a directory or C file in %s", path, dir);
	}
	free(full);
	free(p);
	return t;
}

/*
 * A tree configured by clang (LLVM=1) cannot load a GCC plugin: it is
 * analysed by lockhog-check alone.  CONFIG_CLANG_VERSION names the
 * clang; Debian installs clang 19 as clang-19, which LLVM=-19 selects.
 */
const char *kbuild_llvm(const char *dir)
{
	char *cfg = hog_xasprintf("%s/.config", dir), line[256];
	FILE *f = fopen(cfg, "r");
	long ver = 0;
	static char suffix[32];

	free(cfg);
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CONFIG_CLANG_VERSION=", 21))
			ver = strtol(line + 21, NULL, 10);
	fclose(f);
	if (ver <= 0)
		return NULL;
	snprintf(suffix, sizeof(suffix), "-%ld", ver / 10000);
	{
		char *bin = hog_xasprintf("/usr/bin/clang%s", suffix);
		int versioned = !access(bin, X_OK);

		free(bin);
		return versioned ? suffix : "1";
	}
}

/*
 * Both frontends read the catalogue for the tree's kernel version, and
 * are told it alike: the option (with its leading space) or "".
 */
static char *kversion_arg(const struct tools *t, const char *opt)
{
	char v[32];

	if (!t->kversion)
		return hog_xstrdup("");
	hog_kversion_text(t->kversion, v, sizeof(v));
	return hog_xasprintf("%s%s", opt, v);
}

/*
 * Units lockhog-check could not read: a crash leaves no sidecar, a parse
 * error leaves out the functions it stopped in.  They are missing from
 * the report; say so once, not per unit (the build log names them).
 */
static void check_gaps(const char *log)
{
	FILE *f = fopen(log, "r");
	char line[4096];
	int crashed = 0, partial = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "lockhog-check: internal error"))
			crashed++;
		else if (strstr(line, "lockhog-check: clang cannot parse"))
			partial++;
	}
	fclose(f);
	if (crashed)
		warnx_("warning: lockhog-check failed on %d unit%s, which the report leaves out; "
		       "see %s", crashed, crashed == 1 ? "" : "s", log);
	if (partial)
		warnx_("warning: clang could not parse %d unit%s whole; lockhog-check skipped "
		       "the functions with errors; see %s", partial, partial == 1 ? "" : "s", log);
}

void kbuild_build(struct kbuild *k, const char *const *targets, int n)
{
	char *tag = tools_tag(k->tools);
	char *user = getenv("KCFLAGS");
	/*
	 * distccd refuses any command line with -fplugin=: a compiler that
	 * loads the plugin itself (scripts/lockhog-gcc on the server) gets
	 * only the plugin's arguments.
	 */
	char *load = k->cc_loads_plugin ? hog_xstrdup("") :
			hog_xasprintf("-fplugin=%s ", k->tools->plugin);
	char *kv_plugin = kversion_arg(k->tools, " -fplugin-arg-lockhog-kversion=");
	char *kv_check = kversion_arg(k->tools, " --kversion=");
	char *kcflags = hog_xasprintf("KCFLAGS=%s%s%s-fplugin-arg-lockhog-rules=%s%s "
				      "-fplugin-arg-lockhog-diag=none -fplugin-arg-lockhog-tag=%s%s%s",
				      user ? user : "", user ? " " : "", load,
				      k->tools->rules, kv_plugin, tag, k->extra_cflags ? " " : "",
				      k->extra_cflags ? k->extra_cflags : "");
	/* HOSTCC stays kbuild's own: host tools run here, whatever compiles the kernel */
	char *cc = k->cc ? hog_xasprintf("CC=%s", k->cc) : NULL;
	char *jobs = hog_xasprintf("-j%d", k->jobs > 0 ? k->jobs : 1);
	char *log = log_path(k);
	char **argv = hog_xcalloc(n + 11, sizeof(*argv));
	/* the checker on every unit, rebuilt or not; its sidecar beside the object */
	char *check = k->check ? hog_xasprintf("CHECK=%s --rules=%s%s --diag=none",
					       k->tools->check, k->tools->rules, kv_check) : NULL;
	char *llvm = k->llvm ? hog_xasprintf("LLVM=%s", k->llvm) : NULL;
	int i, a = 0, rc;

	if (!llvm && access(k->tools->plugin, R_OK))
		die("%s: plugin not found (run make first)", k->tools->plugin);
	unlink(log);
	argv[a++] = "make";
	argv[a++] = "-C";
	argv[a++] = (char *)k->dir;
	argv[a++] = jobs;
	argv[a++] = llvm ? llvm : kcflags;
	if (cc)
		argv[a++] = cc;
	if (check) {
		if (access(k->tools->check, X_OK))
			die("%s: lockhog-check not found (run make first)", k->tools->check);
		argv[a++] = "C=2";
		argv[a++] = check;
	}
	for (i = 0; i < n; i++)
		argv[a++] = (char *)targets[i];
	argv[a] = NULL;
	rc = run_logged(argv, log, k->verbose);
	if (rc) {
		char *why = log_error(log);

		die("%s: kbuild failed (%s); log in %s", k->dir, why, log);
	}
	if (check && !k->verbose)
		check_gaps(log);
	free(argv);
	free(log);
	free(jobs);
	free(cc);
	free(check);
	free(llvm);
	free(kcflags);
	free(kv_plugin);
	free(kv_check);
	free(load);
	free(tag);
}
