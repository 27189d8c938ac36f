/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by every part of lockhog: an arena, interned
 * strings and a growable array.  The core is linked into a GCC plugin,
 * so nothing here may call exit() behind the compiler's back except
 * hog_oom(), and nothing may keep global state that a second
 * translation unit would trip over.
 */
#ifndef HOG_UTIL_H
#define HOG_UTIL_H

#include <stddef.h>
#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

void hog_oom(void) __attribute__((noreturn));
void *hog_xmalloc(size_t n);
void *hog_xcalloc(size_t n, size_t sz);
void *hog_xrealloc(void *p, size_t n);
char *hog_xstrdup(const char *s);
char *hog_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Bump allocator: everything a program owns is freed in one go. */
struct hog_arena {
	struct hog_chunk *head;
};
void *hog_alloc(struct hog_arena *a, size_t n);	/* zeroed */
char *hog_strndup(struct hog_arena *a, const char *s, size_t n);
char *hog_strdup(struct hog_arena *a, const char *s);
void hog_arena_free(struct hog_arena *a);

/*
 * Interned strings: equal text gives the same pointer, so names and
 * lock expressions compare with ==.
 */
struct hog_strtab;
struct hog_strtab *hog_strtab_new(void);
void hog_strtab_free(struct hog_strtab *t);
const char *hog_intern(struct hog_strtab *t, const char *s);
const char *hog_intern_n(struct hog_strtab *t, const char *s, size_t n);

/* Pointer-keyed hash map (keys are interned strings or other pointers). */
struct hog_map;
struct hog_map *hog_map_new(void);
void hog_map_free(struct hog_map *m);
void *hog_map_get(const struct hog_map *m, const void *key);
void hog_map_put(struct hog_map *m, const void *key, void *val);
/* Iterate: returns 0 at the end. *it starts at 0. */
int hog_map_next(const struct hog_map *m, size_t *it, const void **key, void **val);
size_t hog_map_count(const struct hog_map *m);

/* Growable array of pointers. */
struct hog_vec {
	void **v;
	int n, cap;
};
void hog_vec_push(struct hog_vec *v, void *p);
/* Does v (of strings) hold one equal to s? */
int hog_vec_has_str(const struct hog_vec *v, const char *s);
void hog_vec_free(struct hog_vec *v);

/* String builder. */
struct hog_buf {
	char *s;
	size_t len, cap;
};
void hog_buf_add(struct hog_buf *b, const char *s);
void hog_buf_addn(struct hog_buf *b, const char *s, size_t n);
void hog_buf_printf(struct hog_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void hog_buf_vprintf(struct hog_buf *b, const char *fmt, va_list ap);
void hog_buf_free(struct hog_buf *b);

unsigned long long hog_hash64(const void *p, size_t n, unsigned long long h);

/* A whole file, NUL-terminated; NULL with errno set on failure. */
char *hog_read_file(const char *path, size_t *len);

/*
 * Writes data to path, whole or not at all, and never replaces what is
 * not a regular file: "-" is standard output; a symlink is followed to
 * its target; a device, FIFO or socket is written in place (as root a
 * rename onto /dev/null would destroy the device); a regular file, or a
 * new one, is written to a temporary created O_EXCL beside it, fsync'd
 * and renamed over it, so a failure (full disk, read-only directory)
 * leaves the old file as it was.  Returns 0, or -1 with errno set.
 */
int hog_write_file_atomic(const char *path, const char *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
