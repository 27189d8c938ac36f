// SPDX-License-Identifier: GPL-2.0
/*
 * lockhog: finds expensive work done while a lock is held.
 *
 *   lockhog scan   --kernel DIR [PATH...]   kbuild with the plugin, then report
 *   lockhog report OBJ|DIR...               report from objects already built
 *   lockhog report RUNTIME.json             run-time data, joined with --static SCAN.json
 *   lockhog rules  [--check|--list KIND]    the rules catalogue
 *   lockhog dump   OBJ                      the IR stored in an object
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <unistd.h>
#include <limits.h>
#include "lockhog.h"

void die(const char *fmt, ...)
{
	va_list ap;

	fputs("lockhog: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_ERROR);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;

	fputs("lockhog: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static char *self_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return hog_xstrdup(".");
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (slash)
		*slash = 0;
	return hog_xstrdup(buf);
}

static char *first_existing(const char *a, const char *b)
{
	if (!access(a, R_OK))
		return hog_xstrdup(a);
	return hog_xstrdup(b);
}

void tools_locate(struct tools *t, const char *plugin, const char *rules)
{
	char *dir = self_dir();
	char *p1 = hog_xasprintf("%s/lockhog.so", dir);
	char *p2 = hog_xasprintf("%s/../lib/lockhog/lockhog.so", dir);
	char *r1 = hog_xasprintf("%s/../rules/kernel.rules", dir);
	char *r2 = hog_xasprintf("%s/../share/lockhog/kernel.rules", dir);

	if (!plugin)
		plugin = getenv("LOCKHOG_PLUGIN");
	if (!rules)
		rules = getenv("LOCKHOG_RULES");
	t->plugin = plugin ? hog_xstrdup(plugin) : first_existing(p1, p2);
	t->rules = rules ? hog_xstrdup(rules) : first_existing(r1, r2);
	t->check = getenv("LOCKHOG_CHECK") ? hog_xstrdup(getenv("LOCKHOG_CHECK")) :
		   hog_xasprintf("%s/lockhog-check", dir);
	/* kbuild runs the compiler from the tree: paths must be absolute */
	{
		char buf[PATH_MAX];

		if (realpath(t->plugin, buf)) {
			free(t->plugin);
			t->plugin = hog_xstrdup(buf);
		}
		if (realpath(t->rules, buf)) {
			free(t->rules);
			t->rules = hog_xstrdup(buf);
		}
	}
	t->kversion = 0;
	free(dir);
	free(p1);
	free(p2);
	free(r1);
	free(r2);
}

void tools_kversion(struct tools *t, const char *dir)
{
	if (hog_kversion_of_tree(dir, &t->kversion))
		die("%s: its Makefile gives no kernel version (VERSION, PATCHLEVEL, SUBLEVEL)", dir);
}

void tools_kversion_arg(struct tools *t, const char *arg)
{
	if (hog_kversion_parse(arg, &t->kversion))
		die("bad kernel version '%s' (want e.g. 6.1 or 6.12.3)", arg);
}

static unsigned long long hash_file(const char *path, unsigned long long h)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t n;

	if (!f)
		return h;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		h = hog_hash64(buf, n, h);
	fclose(f);
	return h;
}

char *tools_tag(const struct tools *t)
{
	unsigned long long h = hash_file(t->plugin, 0);

	h = hash_file(t->rules, h);
	return hog_xasprintf("%012llx", h & 0xffffffffffffULL);
}

int parse_sev(const char *s)
{
	int v = hog_sev_parse(s);

	if (v >= 0 || !strcmp(s, "none"))
		return v;
	die("bad severity '%s' (note, warning, error or none)", s);
}

static void usage(FILE *f)
{
	fputs("usage: lockhog COMMAND [OPTIONS]\n"
	      "\n"
	      "  scan --kernel DIR [--format text|json|sarif|html] [--out FILE] [PATH...]\n"
	      "        build PATHs of a kernel tree with the plugin and report the findings\n"
	      "  fix --kernel DIR [--out FILE] [--apply] [PATH...]\n"
	      "        the restructured code, as a patch naming the findings it fixes\n"
	      "  review --kernel DIR [--format ...] PATCH... | --range A..B\n"
	      "        what a patch series introduces and fixes (exit 1 on new findings)\n"
	      "  report [--format ...] [--out FILE] OBJ|DIR...\n"
	      "        report from objects built earlier with the plugin\n"
	      "  report [--format text|json|html] [--static SCAN.json] RUNTIME.json|-\n"
	      "        run-time data (docs/runtime.md), joined to the scan that predicted it\n"
	      "  rules [--rules FILE] [--check | --list KIND]\n"
	      "        check the rules catalogue or list its names (for the cocci generator)\n"
	      "  summary [--tu FILE.c] --function NAME... OBJ|DIR...\n"
	      "        what the analysis concluded about functions (for triage)\n"
	      "  dump OBJ\n"
	      "        print the intermediate form an object carries\n"
	      "\n"
	      "Run 'lockhog COMMAND --help' for a command's options.\n", f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("lockhog %s\n", LOCKHOG_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "scan"))
		return cmd_scan(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "rules"))
		return cmd_rules(argc - 1, argv + 1);
	if (!strcmp(argv[1], "fix"))
		return cmd_fix(argc - 1, argv + 1);
	if (!strcmp(argv[1], "review"))
		return cmd_review(argc - 1, argv + 1);
	if (!strcmp(argv[1], "summary"))
		return cmd_summary(argc - 1, argv + 1);
	if (!strcmp(argv[1], "dump"))
		return cmd_dump(argc - 1, argv + 1);
	die("unknown command '%s' (try 'lockhog --help')", argv[1]);
}
