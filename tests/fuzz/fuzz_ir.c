// SPDX-License-Identifier: GPL-2.0
/*
 * AFL++ harness for the section reader: fuzz_ir SECTION [RULES].
 *
 * SECTION is the raw content of a .note.lockhog section.  Each payload
 * in it is read as "lockhog report" reads it; an error must be one line,
 * "line N: ..." or a "rebuild" word.  The payloads that read are then
 * analysed together with RULES (default: none), so that what the reader
 * accepts reaches the analysis.  Exit 0 when every payload reads, 1 when
 * one does not.
 */
#include "fuzz.h"
#include "analysis.h"

static struct hog_rules *rules(struct hog_strtab *strs, const char *path)
{
	struct hog_rules *r = hog_rules_new(strs);
	char *err = NULL;

	if (path && hog_rules_load(r, path, &err)) {
		fprintf(stderr, "fuzz: %s\n", err);
		exit(2);
	}
	return r;
}

/* Every payload of the section; returns 1 if one does not read. */
static int read_section(struct hog_prog *prog, struct hog_strtab *strs,
			const char *text, size_t len)
{
	size_t off = 0, pllen;
	const char *pl;
	char *err;
	struct hog_module *m;

	while (hog_section_next(text, len, &off, &pl, &pllen)) {
		err = NULL;
		m = hog_module_read(strs, pl, pllen, &err);
		if (!m) {
			if (strstr(err, "rebuild"))
				fuzz_check_msg(err, "built by ");
			else
				fuzz_check_msg(err, "line ");
			free(err);
			return 1;
		}
		hog_prog_add_module(prog, m);
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* the catalogue is read once: a round only adds interned names */
	struct hog_strtab *strs = hog_strtab_new();
	struct hog_rules *r;
	int rc = 0;

	if (argc < 2 || argc > 3) {
		fputs("usage: fuzz_ir SECTION [RULES]\n", stderr);
		return 2;
	}
	r = rules(strs, argc == 3 ? argv[2] : NULL);
	while (__AFL_LOOP(10000)) {
		struct hog_prog *prog = hog_prog_new(strs, r);
		size_t len;
		char *text = fuzz_input(argv[1], &len);

		rc = read_section(prog, strs, text, len);
		if (!rc)
			hog_prog_solve(prog);
		hog_prog_free(prog);
		free(text);
	}
	hog_rules_free(r);
	hog_strtab_free(strs);
	return rc;
}
