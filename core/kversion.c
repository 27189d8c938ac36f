// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel versions, for the catalogue's since= and until= keys
 * (rules/README.md, "Kernel versions").  A version is kept as the
 * kernel's own LINUX_VERSION_CODE: KERNEL_VERSION(a, b, c), the sublevel
 * capped at 255 as include/linux/version.h does since 4.9.256.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "rules.h"

/* the largest version and patch level KERNEL_VERSION() can hold */
#define KV_MAX_MAJOR 255
#define KV_MAX_MINOR 255

static int kv_num(const char **s, long *out)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return -1;
	*out = strtol(*s, &end, 10);
	*s = end;
	return 0;
}

/*
 * "6.12", "6.12.117", and what kbuild appends to a release: "6.1.0-28-amd64",
 * "6.13.0-rc1+".  Anything after the numbers must start with '-' or '+'.
 */
int hog_kversion_parse(const char *s, unsigned *out)
{
	long a, b, c = 0;

	if (!s || kv_num(&s, &a) || *s++ != '.' || kv_num(&s, &b))
		return -1;
	if (*s == '.' && (s++, kv_num(&s, &c)))
		return -1;
	if (*s && *s != '-' && *s != '+')
		return -1;
	if (a < 1 || a > KV_MAX_MAJOR || b > KV_MAX_MINOR)
		return -1;
	*out = HOG_KVERSION(a, b, c);
	return 0;
}

void hog_kversion_text(unsigned v, char *buf, size_t n)
{
	if (!v)
		snprintf(buf, n, "unknown");
	else if (v & 0xff)
		snprintf(buf, n, "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
	else
		snprintf(buf, n, "%u.%u", v >> 16, (v >> 8) & 0xff);
}

/* The value of "NAME = N" in a top-level Makefile's text, or -1. */
static long makefile_var(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *l;

	for (l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *s = l + n;

		if (strncmp(l, name, n) || (*s != ' ' && *s != '\t' && *s != '='))
			continue;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s++ != '=')
			continue;
		while (*s == ' ' || *s == '\t')
			s++;
		return isdigit((unsigned char)*s) ? strtol(s, NULL, 10) : -1;
	}
	return -1;
}

/*
 * The version a kernel tree builds: VERSION, PATCHLEVEL and SUBLEVEL of
 * its top Makefile, which is what "make -s kernelversion" prints (and
 * what LINUX_VERSION_CODE is made of), read without running make, so an
 * unconfigured tree has one too.
 */
int hog_kversion_of_tree(const char *dir, unsigned *out)
{
	char *path = hog_xasprintf("%s/Makefile", dir);
	char *text = hog_read_file(path, NULL);
	long a = -1, b = -1, c = -1;

	free(path);
	if (text) {
		a = makefile_var(text, "VERSION");
		b = makefile_var(text, "PATCHLEVEL");
		c = makefile_var(text, "SUBLEVEL");
		free(text);
	}
	if (a < 1 || a > KV_MAX_MAJOR || b < 0 || b > KV_MAX_MINOR || c < 0)
		return -1;
	*out = HOG_KVERSION(a, b, c);
	return 0;
}
