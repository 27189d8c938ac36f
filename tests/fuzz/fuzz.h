/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzz harnesses share: one input from a file (AFL's @@) or
 * standard input, read again per round in AFL's persistent mode, and a
 * check that an error is the one line lockhog prints for it.
 */
#ifndef HOG_FUZZ_H
#define HOG_FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

#ifndef __AFL_LOOP
#define __AFL_LOOP(n) (fuzz_once_ ? fuzz_once_-- : 0)
static int fuzz_once_ = 1;
#endif

static char *fuzz_input(const char *path, size_t *len)
{
	struct hog_buf b = { 0 };
	char chunk[65536];
	size_t n;
	FILE *f = path ? fopen(path, "rb") : stdin;

	if (!f) {
		perror(path);
		exit(2);
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		hog_buf_addn(&b, chunk, n);
	if (path)
		fclose(f);
	*len = b.len;
	return b.s ? b.s : hog_xstrdup("");
}

/* An error is one line, starting with prefix: anything else is a bug AFL must see. */
static void fuzz_check_msg(const char *msg, const char *prefix)
{
	if (!msg || !*msg || strchr(msg, '\n') ||
	    (prefix && strncmp(msg, prefix, strlen(prefix)))) {
		fprintf(stderr, "fuzz: bad message: %s\n", msg ? msg : "(null)");
		abort();
	}
	fprintf(stderr, "%s\n", msg);
}

#endif
