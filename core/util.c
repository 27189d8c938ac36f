// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include <sys/stat.h>
#include "util.h"

void hog_oom(void)
{
	fputs("lockhog: out of memory\n", stderr);
	abort();
}

void *hog_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		hog_oom();
	return p;
}

void *hog_xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		hog_oom();
	return p;
}

void *hog_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		hog_oom();
	return p;
}

char *hog_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(hog_xmalloc(n), s, n);
}

char *hog_xasprintf(const char *fmt, ...)
{
	struct hog_buf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	hog_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return b.s ? b.s : hog_xstrdup("");
}

/* ---- arena ---- */

struct hog_chunk {
	struct hog_chunk *next;
	size_t used, size;
	max_align_t data[];
};

void *hog_alloc(struct hog_arena *a, size_t n)
{
	struct hog_chunk *c = a->head;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t sz = n > 65536 ? n : 65536;

		c = hog_xmalloc(sizeof(*c) + sz);
		c->size = sz;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	p = (char *)c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

char *hog_strndup(struct hog_arena *a, const char *s, size_t n)
{
	char *p = hog_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *hog_strdup(struct hog_arena *a, const char *s)
{
	return hog_strndup(a, s, strlen(s));
}

void hog_arena_free(struct hog_arena *a)
{
	struct hog_chunk *c = a->head, *n;

	for (; c; c = n) {
		n = c->next;
		free(c);
	}
	a->head = NULL;
}

/* ---- hashing ---- */

unsigned long long hog_hash64(const void *p, size_t n, unsigned long long h)
{
	const unsigned char *s = p;

	/* FNV-1a: stable across runs and hosts, which fingerprints need. */
	if (!h)
		h = 0xcbf29ce484222325ULL;
	while (n--) {
		h ^= *s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* ---- string table ---- */

struct hog_strtab {
	struct hog_arena arena;
	const char **slot;
	size_t cap, count;
};

struct hog_strtab *hog_strtab_new(void)
{
	struct hog_strtab *t = hog_xcalloc(1, sizeof(*t));

	t->cap = 1024;
	t->slot = hog_xcalloc(t->cap, sizeof(*t->slot));
	return t;
}

void hog_strtab_free(struct hog_strtab *t)
{
	if (!t)
		return;
	hog_arena_free(&t->arena);
	free(t->slot);
	free(t);
}

static void strtab_grow(struct hog_strtab *t)
{
	size_t ncap = t->cap * 2, i;
	const char **ns = hog_xcalloc(ncap, sizeof(*ns));

	for (i = 0; i < t->cap; i++) {
		const char *s = t->slot[i];
		size_t j;

		if (!s)
			continue;
		j = hog_hash64(s, strlen(s), 0) & (ncap - 1);
		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = s;
	}
	free(t->slot);
	t->slot = ns;
	t->cap = ncap;
}

const char *hog_intern_n(struct hog_strtab *t, const char *s, size_t n)
{
	size_t j;

	if (!s)
		return NULL;
	if (t->count * 2 >= t->cap)
		strtab_grow(t);
	j = hog_hash64(s, n, 0) & (t->cap - 1);
	while (t->slot[j]) {
		const char *c = t->slot[j];

		if (!strncmp(c, s, n) && c[n] == 0)
			return c;
		j = (j + 1) & (t->cap - 1);
	}
	t->slot[j] = hog_strndup(&t->arena, s, n);
	t->count++;
	return t->slot[j];
}

const char *hog_intern(struct hog_strtab *t, const char *s)
{
	return s ? hog_intern_n(t, s, strlen(s)) : NULL;
}

/* ---- pointer map ---- */

struct hog_map {
	const void **key;
	void **val;
	size_t cap, count;
};

static size_t ptr_hash(const void *p)
{
	unsigned long long x = (unsigned long long)(size_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x;
}

struct hog_map *hog_map_new(void)
{
	struct hog_map *m = hog_xcalloc(1, sizeof(*m));

	m->cap = 16;
	m->key = hog_xcalloc(m->cap, sizeof(*m->key));
	m->val = hog_xcalloc(m->cap, sizeof(*m->val));
	return m;
}

void hog_map_free(struct hog_map *m)
{
	if (!m)
		return;
	free(m->key);
	free(m->val);
	free(m);
}

static void map_insert(struct hog_map *m, const void *k, void *v)
{
	size_t j = ptr_hash(k) & (m->cap - 1);

	while (m->key[j] && m->key[j] != k)
		j = (j + 1) & (m->cap - 1);
	if (!m->key[j])
		m->count++;
	m->key[j] = k;
	m->val[j] = v;
}

void hog_map_put(struct hog_map *m, const void *key, void *val)
{
	if ((m->count + 1) * 2 >= m->cap) {
		const void **ok = m->key;
		void **ov = m->val;
		size_t oc = m->cap, i;

		m->cap *= 2;
		m->count = 0;
		m->key = hog_xcalloc(m->cap, sizeof(*m->key));
		m->val = hog_xcalloc(m->cap, sizeof(*m->val));
		for (i = 0; i < oc; i++)
			if (ok[i])
				map_insert(m, ok[i], ov[i]);
		free(ok);
		free(ov);
	}
	map_insert(m, key, val);
}

void *hog_map_get(const struct hog_map *m, const void *key)
{
	size_t j = ptr_hash(key) & (m->cap - 1);

	while (m->key[j]) {
		if (m->key[j] == key)
			return m->val[j];
		j = (j + 1) & (m->cap - 1);
	}
	return NULL;
}

int hog_map_next(const struct hog_map *m, size_t *it, const void **key, void **val)
{
	while (*it < m->cap) {
		size_t i = (*it)++;

		if (m->key[i]) {
			*key = m->key[i];
			*val = m->val[i];
			return 1;
		}
	}
	return 0;
}

size_t hog_map_count(const struct hog_map *m)
{
	return m->count;
}

/* ---- vector ---- */

void hog_vec_push(struct hog_vec *v, void *p)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 8;
		v->v = hog_xrealloc(v->v, v->cap * sizeof(*v->v));
	}
	v->v[v->n++] = p;
}

int hog_vec_has_str(const struct hog_vec *v, const char *s)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], s))
			return 1;
	return 0;
}

void hog_vec_free(struct hog_vec *v)
{
	free(v->v);
	v->v = NULL;
	v->n = v->cap = 0;
}

/* ---- buffer ---- */

void hog_buf_addn(struct hog_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = hog_xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void hog_buf_add(struct hog_buf *b, const char *s)
{
	hog_buf_addn(b, s, strlen(s));
}

void hog_buf_vprintf(struct hog_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = hog_xrealloc(b->s, b->cap);
	}
	vsnprintf(b->s + b->len, n + 1, fmt, ap);
	b->len += n;
}

void hog_buf_printf(struct hog_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	hog_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void hog_buf_free(struct hog_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

char *hog_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct hog_buf b = { 0 };
	char chunk[65536];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		hog_buf_addn(&b, chunk, n);
	if (ferror(f)) {
		fclose(f);
		hog_buf_free(&b);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	if (len)
		*len = b.len;
	return b.s ? b.s : hog_xstrdup("");
}

static int write_all(int fd, const char *data, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += w;
	}
	return 0;
}

/* The file a chain of symlinks ends at (which may not exist yet). */
static char *follow_links(const char *path)
{
	char *p = hog_xstrdup(path);
	int hops;

	for (hops = 0; hops < 40; hops++) {
		struct stat st;
		char target[4096], *slash, *next;
		ssize_t n;

		/* /proc's fd links (/dev/stdout) name open files, not paths */
		if (lstat(p, &st) || !S_ISLNK(st.st_mode) || !strncmp(p, "/proc/", 6))
			return p;
		n = readlink(p, target, sizeof(target) - 1);
		if (n < 0)
			break;
		target[n] = 0;
		slash = strrchr(p, '/');
		if (target[0] == '/' || !slash)
			next = hog_xstrdup(target);
		else
			next = hog_xasprintf("%.*s/%s", (int)(slash - p), p, target);
		free(p);
		p = next;
	}
	free(p);
	errno = ELOOP;
	return NULL;
}

/*
 * Anything that exists and is not a regular file is written in place, and
 * so is a file reached through /proc (/dev/stdout redirected to a file).
 */
static int write_in_place(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_NOCTTY), err = 0;

	if (fd < 0)
		return -1;
	if (write_all(fd, data, len))
		err = errno;
	if (close(fd) && !err && errno != EINVAL)
		err = errno;
	errno = err;
	return err ? -1 : 0;
}

static int write_replacing(const char *path, const char *data, size_t len, mode_t mode)
{
	const char *slash = strrchr(path, '/');
	char *tmp = slash ? hog_xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1)
			  : hog_xasprintf(".%s.XXXXXX", path);
	int fd = mkstemp(tmp), err = 0;

	if (fd < 0) {
		err = errno;
		free(tmp);
		errno = err;
		return -1;
	}
	if (fchmod(fd, mode) || write_all(fd, data, len) || fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (!err && rename(tmp, path))
		err = errno;
	if (err)
		unlink(tmp);
	free(tmp);
	errno = err;
	return err ? -1 : 0;
}

int hog_write_file_atomic(const char *path, const char *data, size_t len)
{
	struct stat st;
	mode_t mask;
	char *real;
	int rc;

	if (!strcmp(path, "-"))
		return write_all(STDOUT_FILENO, data, len);
	real = follow_links(path);
	if (!real)
		return -1;
	if (stat(real, &st)) {
		mask = umask(0);
		umask(mask);
		rc = errno == ENOENT ? write_replacing(real, data, len, 0666 & ~mask) : -1;
	} else if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		rc = -1;
	} else if (!S_ISREG(st.st_mode) || !strncmp(real, "/proc/", 6)) {
		rc = write_in_place(real, data, len);
	} else {
		rc = write_replacing(real, data, len, st.st_mode & 07777);
	}
	free(real);
	return rc;
}
