// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the .lockhog sections the plugin leaves in objects, with
 * libelf.  The section travels with the object, so objects built on
 * other machines (distcc, icecream) carry their analysis back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>
#include <libelf.h>
#include <gelf.h>
#include "lockhog.h"

/* The next section called want in e after "after" (NULL: the first), or NULL. */
static Elf_Scn *find_scn(Elf *e, size_t shstrndx, const char *want, Elf_Scn *after)
{
	Elf_Scn *scn = after;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

static char *scn_copy(const char *path, Elf_Scn *scn, size_t *len, char **err)
{
	Elf_Data *d = elf_rawdata(scn, NULL);
	char *out;

	if (!d || !d->d_buf || !d->d_size) {
		*err = hog_xasprintf("%s: empty " HOG_IR_SECTION " section", path);
		return NULL;
	}
	out = hog_xmalloc(d->d_size + 1);
	memcpy(out, d->d_buf, d->d_size);
	out[d->d_size] = 0;
	*len = d->d_size;
	return out;
}

/*
 * ld -r merges same-named sections only when their types and flags agree:
 * one added by objcopy (a NOTE) beside the plugin's (PROGBITS) stays a
 * section of its own.  Every section of the name is read, in order.
 */
static char *scn_copy_all(const char *path, Elf *e, size_t shstrndx, Elf_Scn *scn,
			  size_t *len, char **err)
{
	struct hog_buf b = { 0 };

	for (; scn; scn = find_scn(e, shstrndx, HOG_IR_SECTION, scn)) {
		size_t n = 0;
		char *one = scn_copy(path, scn, &n, err);

		if (!one) {
			hog_buf_free(&b);
			return NULL;
		}
		hog_buf_addn(&b, one, n);
		hog_buf_addn(&b, "", 1);
		free(one);
	}
	*len = b.len;
	return b.s;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t l = strlen(s), n = strlen(suf);

	return l >= n && !strcmp(s + l - n, suf);
}

enum frontend frontend_parse(const char *s)
{
	if (!strcmp(s, "gcc"))
		return FE_GCC;
	if (!strcmp(s, "clang"))
		return FE_CLANG;
	if (!strcmp(s, "any"))
		return FE_ANY;
	die("--frontend: unknown frontend '%s' (gcc or clang)", s);
}

/* lockhog-check's sidecar: the payload as the section would hold it */
static char *sidecar_read(const char *path, size_t *len, char **err)
{
	char *text = hog_read_file(path, len);

	if (!text)
		*err = hog_xasprintf("%s: %s", path, strerror(errno));
	else if (!*len) {
		*err = hog_xasprintf("%s: empty sidecar", path);
		free(text);
		text = NULL;
	}
	return text;
}

char *object_section(const char *path, size_t *len, char **err)
{
	int fd;
	Elf *e;
	Elf_Scn *scn;
	size_t shstrndx;
	char *out = NULL;

	*err = NULL;
	if (has_suffix(path, SIDECAR_SUFFIX))
		return sidecar_read(path, len, err);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		*err = hog_xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		*err = hog_xstrdup("libelf is too old");
		close(fd);
		return NULL;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		*err = hog_xasprintf("%s: not an ELF object", path);
		goto out;
	}
	if (elf_getshdrstrndx(e, &shstrndx)) {
		*err = hog_xasprintf("%s: %s", path, elf_errmsg(-1));
		goto out;
	}
	if ((scn = find_scn(e, shstrndx, HOG_IR_SECTION, NULL)))
		out = scn_copy_all(path, e, shstrndx, scn, len, err);
	else if (find_scn(e, shstrndx, HOG_IR_OLD_SECTION, NULL))
		*err = hog_xasprintf("%s: built by an older lockhog (lockhog-ir 1); rebuild it", path);
out:
	if (e)
		elf_end(e);
	close(fd);
	return out;
}

/* mm/.memcontrol.o.lockhog: lockhog-check wrote it for mm/memcontrol.o */
static int is_sidecar(const char *n)
{
	return n[0] == '.' && has_suffix(n, SIDECAR_SUFFIX) && strlen(n) > strlen(SIDECAR_SUFFIX) + 1;
}

static int skip_name(const char *n)
{
	size_t l = strlen(n);

	if (is_sidecar(n))
		return 0;
	if (l < 3 || strcmp(n + l - 2, ".o"))
		return 1;
	/* kbuild's module glue and temporaries carry nothing of ours */
	if (l > 6 && !strcmp(n + l - 6, ".mod.o"))
		return 1;
	return n[0] == '.';
}

/* FE_ANY: found in a directory, the sidecar of an object that carries its own section is that unit again */
static int sidecar_shadowed(const struct objset *s, const char *p)
{
	const char *slash = strrchr(p, '/'), *base = slash ? slash + 1 : p;
	char *obj, *text, *err = NULL;
	size_t len;

	if (s->fe != FE_ANY || !is_sidecar(base))
		return 0;
	obj = hog_xasprintf("%.*s%.*s.o", (int)(base - p), p,
			    (int)(strlen(base) - strlen(SIDECAR_SUFFIX) - 1), base + 1);
	text = object_section(obj, &len, &err);
	free(obj);
	free(err);
	free(text);
	return text != NULL;
}

static void walk(struct objset *s, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *p;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = hog_xasprintf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
				  de->d_name);
		if (lstat(p, &st)) {
			free(p);
			continue;
		}
		if (S_ISDIR(st.st_mode) && de->d_name[0] != '.') {
			walk(s, p);
			free(p);
		} else if (S_ISREG(st.st_mode) && !skip_name(de->d_name) &&
			   (is_sidecar(de->d_name) ? s->fe != FE_GCC : s->fe != FE_CLANG) &&
			   !sidecar_shadowed(s, p)) {
			hog_vec_push(&s->paths, p);
		} else {
			free(p);
		}
	}
	closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void objset_add(struct objset *s, const char *path)
{
	struct stat st;
	int start = s->paths.n;

	if (stat(path, &st))
		die("%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		walk(s, path);
		hog_vec_push(&s->dirs, hog_xstrdup(path));
	} else
		hog_vec_push(&s->paths, hog_xstrdup(path));
	/* the order objects are read in must not change the report */
	qsort(s->paths.v + start, s->paths.n - start, sizeof(void *), cmp_str);
}

/* The kernel tree dir is in: the nearest directory up with a versioned Makefile. */
static char *tree_around(const char *dir)
{
	char *d = realpath(dir, NULL);
	unsigned v;

	while (d && *d) {
		char *slash;

		if (!hog_kversion_of_tree(d, &v))
			return d;
		slash = strrchr(d, '/');
		if (!slash || slash == d)
			break;
		*slash = 0;
	}
	free(d);
	return NULL;
}

void objset_tree(struct objset *s, struct hog_prog *prog, const char *tree)
{
	char *t = tree ? hog_xstrdup(tree) : s->dirs.n ? tree_around(s->dirs.v[0]) : NULL;

	if (t)
		hog_prog_set_tree(prog, t, (const char *const *)s->dirs.v, s->dirs.n);
	free(t);
}

/*
 * A composite object (vmlinux.o, a module made with ld -r) repeats the
 * payloads of the objects it was linked from: a payload seen before, byte
 * for byte, is the same unit and is read once.
 */
static int seen_before(struct hog_map *seen, struct hog_strtab *strs, const char *pl,
		       size_t len)
{
	char key[17];
	unsigned long long h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)pl[i]) * 1099511628211ULL;
	snprintf(key, sizeof(key), "%016llx", h ^ len);
	if (hog_map_get(seen, hog_intern(strs, key)))
		return 1;
	hog_map_put(seen, hog_intern(strs, key), (void *)1);
	return 0;
}

/* Every payload of one object's section; returns the units added, -1 on a bad one. */
static int load_section(const char *p, const char *text, size_t len, struct hog_prog *prog,
			struct hog_strtab *strs, struct hog_map *seen)
{
	size_t off = 0, pllen;
	const char *pl;
	int n = 0;

	while (hog_section_next(text, len, &off, &pl, &pllen)) {
		char *perr = NULL;
		struct hog_module *m;

		if (seen_before(seen, strs, pl, pllen))
			continue;
		m = hog_module_read(strs, pl, pllen, &perr);
		if (!m) {
			warnx_("%s: bad " HOG_IR_SECTION " section (payload at byte %zu): %s", p,
			       (size_t)(pl - text), perr);
			free(perr);
			return -1;
		}
		hog_prog_add_module(prog, m);
		n++;
	}
	return n;
}

int objset_load(struct objset *s, struct hog_prog *prog, struct hog_strtab *strs,
		int *skipped)
{
	struct hog_map *seen = hog_map_new();
	int i, n = 0, got = 0;

	*skipped = 0;
	for (i = 0; i < s->paths.n; i++) {
		const char *p = s->paths.v[i];
		size_t len = 0;
		char *err = NULL;
		char *text;
		int k;

		text = object_section(p, &len, &err);

		if (!text) {
			if (err && !strstr(err, "not an ELF"))
				warnx_("%s", err);
			free(err);
			(*skipped)++;
			continue;
		}
		k = load_section(p, text, len, prog, strs, seen);
		free(text);
		if (k < 0)
			(*skipped)++;
		else
			n += k, got++;
	}
	hog_map_free(seen);
	return got ? n : 0;
}
