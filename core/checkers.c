// SPDX-License-Identifier: GPL-2.0
/*
 * The checkers the engine runs, one per finding kind.  A kind's number
 * is its place in this table: HK_CALL..HK_ATOMIC name the built-in ones
 * for the code that must tell them apart (fix choice, tests).
 */
#include <string.h>
#include "checker.h"

extern const struct hog_checker check_call, check_loop, check_sleep, check_atomic;

static const struct hog_checker *table[HOG_MAX_KINDS] = {
	[HK_CALL] = &check_call,
	[HK_LOOP] = &check_loop,
	[HK_SLEEP] = &check_sleep,
	[HK_ATOMIC] = &check_atomic,
	/* a new kind: its checker here, in a file of its own */
};
static int nkinds = HK_ATOMIC + 1;

int hog_nkinds(void)
{
	return nkinds;
}

const struct hog_checker *hog_checker(enum hog_kind k)
{
	return (int)k >= 0 && (int)k < nkinds ? table[k] : NULL;
}

int hog_checker_register(const struct hog_checker *c)
{
	if (nkinds == HOG_MAX_KINDS || !c || !c->name || hog_kind_by_name(c->name) >= 0)
		return -1;
	table[nkinds] = c;
	return nkinds++;
}

int hog_kind_by_name(const char *name)
{
	int k;

	for (k = 0; k < nkinds; k++)
		if (!strcmp(table[k]->name, name))
			return k;
	return -1;
}

int hog_cls_sleeps(const char *cls)
{
	return cls && (!strcmp(cls, HOG_CLS_SLEEP) || !strcmp(cls, HOG_CLS_FAULT));
}

int hog_kind_at_site(enum hog_kind k)
{
	const struct hog_checker *c = hog_checker(k);

	return c && (c->flags & HOG_CK_AT_SITE);
}

int hog_kind_sleeps(enum hog_kind k)
{
	const struct hog_checker *c = hog_checker(k);

	return c && (c->flags & HOG_CK_SLEEPS);
}
