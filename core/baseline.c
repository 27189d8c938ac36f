// SPDX-License-Identifier: GPL-2.0
/*
 * Baselines: findings accepted earlier, kept in a JSON file beside the
 * code rather than as annotations in it.  Only the fingerprints are
 * read; the message, file and function are for people editing it.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "compare.h"
#include "message.h"

/* the format version written, and the only one read */
#define HOG_BASELINE_VERSION 1

struct hog_accepted {
	json_t *fps;		/* object: finding fingerprint -> array of path fingerprints */
};

/* The fingerprints of a parsed file into b; a message on what is wrong. */
static char *baseline_fill(struct hog_accepted *b, json_t *root, const char *path)
{
	json_t *arr = json_object_get(root, "findings");
	size_t i;

	if (!json_is_integer(json_object_get(root, "lockhog-baseline")) || !json_is_array(arr))
		return hog_xasprintf("%s: not a lockhog baseline (see README: Baselines)", path);
	for (i = 0; i < json_array_size(arr); i++) {
		json_t *x = json_array_get(arr, i);
		const char *fp = json_string_value(json_object_get(x, "fingerprint"));
		json_t *paths = json_object_get(x, "paths");

		if (!fp || (paths && !json_is_array(paths)))
			return hog_xasprintf("%s: finding %zu has no fingerprint", path, i);
		if (paths)
			json_object_set(b->fps, fp, paths);
		else
			json_object_set_new(b->fps, fp, json_array());
	}
	return NULL;
}

struct hog_accepted *hog_baseline_load(const char *path, char **err)
{
	struct hog_accepted *b;
	json_error_t e;
	json_t *root = json_load_file(path, 0, &e);

	if (!root) {
		*err = hog_xasprintf("%s:%d: %s", path, e.line, e.text);
		return NULL;
	}
	b = hog_xcalloc(1, sizeof(*b));
	b->fps = json_object();
	*err = baseline_fill(b, root, path);
	json_decref(root);
	if (*err) {
		hog_baseline_free(b);
		return NULL;
	}
	return b;
}

void hog_baseline_free(struct hog_accepted *b)
{
	if (!b)
		return;
	json_decref(b->fps);
	free(b);
}

static int listed(const json_t *paths, const char *fp)
{
	size_t i;

	for (i = 0; i < json_array_size(paths); i++)
		if (!strcmp(json_string_value(json_array_get(paths, i)) ?: "", fp))
			return 1;
	return 0;
}

int hog_baseline_accepts(const struct hog_accepted *b, const struct hog_finding *f)
{
	json_t *paths;
	int k;

	if (!b || !b->fps)
		return 0;
	paths = json_object_get(b->fps, f->fingerprint);
	if (!paths)
		return 0;
	for (k = 0; k < f->npaths; k++)
		if (!listed(paths, f->paths[k].fingerprint))
			return 0;
	return 1;
}

static json_t *accepted_json(const struct hog_finding *f)
{
	json_t *paths = json_array(), *o;
	char *msg = hog_finding_message(f, NULL);
	int k;

	for (k = 0; k < f->npaths; k++)
		json_array_append_new(paths, json_string(f->paths[k].fingerprint));
	o = json_pack("{s:s,s:o,s:s,s:s,s:s,s:s}", "fingerprint", f->fingerprint,
		      "paths", paths, "severity", hog_sev_name(f->sev), "message", msg,
		      "file", f->paths[0].file ?: "", "function", f->site_func);
	free(msg);
	return o;
}

void hog_baseline_render(const struct hog_prog *prog, struct hog_buf *out)
{
	json_t *root = json_object(), *arr = json_array();
	int i;
	char *s;

	for (i = 0; i < hog_prog_nfindings(prog); i++)
		json_array_append_new(arr, accepted_json(hog_prog_finding(prog, i)));
	json_object_set_new(root, "lockhog-baseline", json_integer(HOG_BASELINE_VERSION));
	json_object_set_new(root, "findings", arr);
	s = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	if (!s)
		hog_oom();
	hog_buf_add(out, s);
	free(s);
}

int hog_baseline_write(const struct hog_prog *prog, const char *path)
{
	struct hog_buf b = { 0 };
	int rc;

	hog_baseline_render(prog, &b);
	rc = hog_write_file_atomic(path, b.s, b.len);
	hog_buf_free(&b);
	return rc;
}
