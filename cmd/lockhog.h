/* SPDX-License-Identifier: GPL-2.0 */
/* The lockhog command: shared declarations. */
#ifndef LOCKHOG_CMD_H
#define LOCKHOG_CMD_H

#include "../core/analysis.h"
#include "../core/report.h"
#include "../core/compare.h"

#define LOCKHOG_VERSION "0.1"

/* Exit codes: 0 fine, 1 findings at or above --fail-on, 2 error. */
#define EXIT_FINDINGS 1
#define EXIT_ERROR 2

void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Where the plugin and rules live (next to the binary unless overridden). */
struct tools {
	char *plugin;
	char *rules;
	char *check;	/* lockhog-check, the libclang frontend */
	/*
	 * The kernel version the catalogue is read for (its since=/until=
	 * rules, rules/README.md), 0 unknown: the tree's, which kbuild
	 * passes on to the plugin and to lockhog-check.
	 */
	unsigned kversion;
};
void tools_locate(struct tools *t, const char *plugin, const char *rules);
/* t->kversion from the tree's top Makefile (make -s kernelversion); dies if it has none. */
void tools_kversion(struct tools *t, const char *dir);
/* t->kversion from an option's "6.12" or "6.12.3"; dies on another word. */
void tools_kversion_arg(struct tools *t, const char *arg);
/* A short hash of the plugin and rules, so kbuild rebuilds when they change. */
char *tools_tag(const struct tools *t);

/* objects.c: .note.lockhog sections and lockhog-check's sidecars */
enum frontend {
	FE_ANY,		/* sections, and sidecars of objects that carry none */
	FE_GCC,		/* sections only */
	FE_CLANG,	/* sidecars only (mm/.memcontrol.o.lockhog) */
};
#define SIDECAR_SUFFIX ".o.lockhog"
struct objset {
	struct hog_vec paths;	/* char * */
	struct hog_vec dirs;	/* char *: the directories added */
	enum frontend fe;
};
/* "gcc", "clang" (or "any"): dies on another word */
enum frontend frontend_parse(const char *s);
/* Adds FILE.o, or every object below DIR. */
void objset_add(struct objset *s, const char *path);
/*
 * Tells prog the kernel tree (tree, or the one around the directories
 * added if NULL) and the directories read, for core/unbuilt.c.
 */
void objset_tree(struct objset *s, struct hog_prog *prog, const char *tree);
/*
 * Reads every object's section into prog; objects without one are
 * skipped and counted.  Returns the number of modules loaded.
 */
int objset_load(struct objset *s, struct hog_prog *prog, struct hog_strtab *strs,
		int *skipped);
/* The .lockhog payload of one object or sidecar, or NULL (no section, not ELF). */
char *object_section(const char *path, size_t *len, char **err);

/* kbuild.c */
struct kbuild {
	const char *dir;	/* kernel tree */
	int jobs;
	int verbose;
	const struct tools *tools;
	const char *extra_cflags;
	const char *cc;		/* CC= for kbuild ("distcc gcc"), or NULL */
	int cc_loads_plugin;	/* cc adds -fplugin= itself: pass only its arguments */
	int check;		/* also run lockhog-check on every unit (C=2 CHECK=) */
	const char *llvm;	/* an LLVM=1 tree: LLVM=this, no plugin, the checker only */
};
/* "-19" for a tree whose .config says clang 19 built it, "1" for another clang, NULL for GCC */
const char *kbuild_llvm(const char *dir);
/* Checks that dir is a kernel tree; dies with a one-line message if not. */
void kbuild_check_tree(const char *dir);
/* Configures the tree if it has no .config: defconfig plus what the analysis needs. */
void kbuild_configure(struct kbuild *k);
/* Builds the given targets with the plugin loaded. */
void kbuild_build(struct kbuild *k, const char *const *targets, int n);
/* Runs argv in cwd; its output (and standard error if asked) in *out. */
int run_cmd(char *const argv[], const char *cwd, char **out, int with_stderr);
/* patch -p1 of the file patch in dir, all or nothing (--dry-run if dry); patch's messages in *out. */
int patch_tree(const char *dir, const char *patch, int dry, char **out);
/* "mm" -> "mm/", "mm/x.c" -> "mm/x.o"; dies if it is not in the tree. */
char *kbuild_target(const char *dir, const char *path, int *is_dir);

/* commands */
int cmd_scan(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_review(int argc, char **argv);
int cmd_fix(int argc, char **argv);

/* Shared by scan and report: rules, program, output. */
struct output {
	enum hog_format fmt;
	const char *out;
	enum hog_sev min_sev;
	int fail_on;		/* -1: never fail */
	const char *scope;
	const char *srcroot;
	const struct hog_accepted *baseline;	/* findings accepted earlier, not shown */
};
/* t's catalogue, read for t's kernel version; dies with its error. */
struct hog_rules *load_rules(struct hog_strtab *strs, const struct tools *t);
int emit(struct hog_prog *prog, const struct output *o);
void write_out(const char *out, const struct hog_buf *b);
int parse_sev(const char *s);

#endif
