/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions the configuration never calls: every use the source tree
 * has of the name lies in a unit kbuild did not build (core/unbuilt.c).
 */
#ifndef LOCKHOG_UNBUILT_H
#define LOCKHOG_UNBUILT_H

struct hog_unbuilt;

/*
 * tree: the kernel tree the objects were built in; roots: the
 * directories the report reads, where a unit with no object is one the
 * configuration does not build.  Outside them nothing is known.
 */
struct hog_unbuilt *hog_unbuilt_new(const char *tree, const char *const *roots, int nroots);
/* A function with no caller and no address in the IR, defined in def. */
void hog_unbuilt_want(struct hog_unbuilt *u, const char *name, const char *def, int line);
/* A source file the IR covers (a unit, or a .c a unit includes). */
void hog_unbuilt_covered(struct hog_unbuilt *u, const char *file);
/* Reads the tree once for every name wanted. */
void hog_unbuilt_run(struct hog_unbuilt *u);
/* Why name has no caller in this build (malloc'ed), or NULL. */
char *hog_unbuilt_reason(const struct hog_unbuilt *u, const char *name);
void hog_unbuilt_free(struct hog_unbuilt *u);

#endif
