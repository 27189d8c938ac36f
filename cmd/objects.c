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

char *object_section(const char *path, size_t *len, char **err)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	char *out = NULL;

	*err = NULL;
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
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".lockhog"))
			continue;
		d = elf_rawdata(scn, NULL);
		if (!d || !d->d_buf) {
			*err = hog_xasprintf("%s: empty .lockhog section", path);
			break;
		}
		out = hog_xmalloc(d->d_size + 1);
		memcpy(out, d->d_buf, d->d_size);
		out[d->d_size] = 0;
		*len = d->d_size;
		break;
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	return out;
}

static int skip_name(const char *n)
{
	size_t l = strlen(n);

	if (l < 3 || strcmp(n + l - 2, ".o"))
		return 1;
	/* kbuild's module glue and temporaries carry nothing of ours */
	if (l > 6 && !strcmp(n + l - 6, ".mod.o"))
		return 1;
	return n[0] == '.';
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
		} else if (S_ISREG(st.st_mode) && !skip_name(de->d_name)) {
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
	if (S_ISDIR(st.st_mode))
		walk(s, path);
	else
		hog_vec_push(&s->paths, hog_xstrdup(path));
	/* the order objects are read in must not change the report */
	qsort(s->paths.v + start, s->paths.n - start, sizeof(void *), cmp_str);
}

int objset_load(struct objset *s, struct hog_prog *prog, struct hog_strtab *strs,
		int *skipped)
{
	int i, n = 0;

	*skipped = 0;
	for (i = 0; i < s->paths.n; i++) {
		const char *p = s->paths.v[i];
		size_t len = 0;
		char *err = NULL, *perr = NULL;
		char *text = object_section(p, &len, &err);
		struct hog_module *m;

		if (!text) {
			if (err && !strstr(err, "not an ELF"))
				warnx_("%s", err);
			free(err);
			(*skipped)++;
			continue;
		}
		m = hog_module_read(strs, text, len, &perr);
		free(text);
		if (!m) {
			warnx_("%s: bad .lockhog section: %s", p, perr);
			free(perr);
			(*skipped)++;
			continue;
		}
		hog_prog_add_module(prog, m);
		n++;
	}
	return n;
}
