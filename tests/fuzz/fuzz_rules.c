// SPDX-License-Identifier: GPL-2.0
/*
 * AFL++ harness for the rules parser: fuzz_rules RULES [PAYLOAD].
 *
 * Parses RULES as "lockhog rules --rules RULES --check" does; an error
 * must be one line, "RULES:LINE: ...".  A catalogue that parses is then
 * used to analyse PAYLOAD (one .note.lockhog payload), as "lockhog
 * report --rules RULES" would, so that odd but valid rules reach the
 * analysis too.  Exit 0 when the rules parse, 1 when they do not.
 */
#include "fuzz.h"
#include "analysis.h"

static void analyse(const struct hog_rules *r, struct hog_strtab *strs,
		    const char *pl, size_t len)
{
	struct hog_prog *prog = hog_prog_new(strs, r);
	struct hog_module *m;
	char *err = NULL;

	m = hog_module_read(strs, pl, len, &err);
	if (!m) {
		fprintf(stderr, "fuzz: the payload does not read: %s\n", err);
		exit(2);
	}
	hog_prog_add_module(prog, m);
	hog_prog_solve(prog);
	hog_prog_free(prog);
}

int main(int argc, char **argv)
{
	size_t plen = 0;
	char *pl = NULL;
	int rc = 0;

	if (argc < 2 || argc > 3) {
		fputs("usage: fuzz_rules RULES [PAYLOAD]\n", stderr);
		return 2;
	}
	if (argc == 3)
		pl = fuzz_input(argv[2], &plen);
	while (__AFL_LOOP(10000)) {
		struct hog_strtab *strs = hog_strtab_new();
		struct hog_rules *r = hog_rules_new(strs);
		char *err = NULL, *prefix;
		size_t len;
		char *text = fuzz_input(argv[1], &len);

		rc = 0;
		if (hog_rules_parse(r, argv[1], text, len, &err)) {
			prefix = hog_xasprintf("%s:", argv[1]);
			fuzz_check_msg(err, prefix);
			if (!strspn(err + strlen(prefix), "0123456789"))
				abort();	/* FILE:LINE: */
			free(prefix);
			free(err);
			rc = 1;
		} else if (pl) {
			analyse(r, strs, pl, plen);
		}
		hog_rules_free(r);
		hog_strtab_free(strs);
		free(text);
	}
	free(pl);
	return rc;
}
