// SPDX-License-Identifier: GPL-2.0
/*
 * lockhog's userspace runtime: $LOCKHOG_OUT written whole or not at all.
 * The JSON goes to a temporary file beside the target, renamed into
 * place; the target must be a regular file or a new name (a symlink is
 * followed to one): a rename onto a device or a FIFO would replace it,
 * and as root a rename onto /dev/null destroys it for the whole machine.
 * A failure is one line on stderr; the program's exit status is its own.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "user.h"

static notrace int rt_fail(const char *path, const char *why)
{
	fprintf(stderr, "lockhog-rt: LOCKHOG_OUT=%s: %s, no report written\n", path, why);
	return -1;
}

/* the temporary's name: ".NAME.XXXXXX" in the target's directory */
static notrace char *rt_temp_name(const char *target)
{
	const char *slash = strrchr(target, '/');
	size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
	char *t = malloc(strlen(target) + sizeof(".XXXXXX") + 1);

	if (t)
		sprintf(t, "%.*s.%s.XXXXXX", (int)dir, target, target + dir);
	return t;
}

/* the mode a new file gets: 0666 less the umask */
static notrace mode_t rt_new_mode(void)
{
	mode_t m = umask(0);

	umask(m);
	return 0666 & ~m;
}

static notrace int rt_dump(const char *tmp, int fd, mode_t mode, const json_t *root)
{
	FILE *f;
	int bad;

	if (fchmod(fd, mode)) {
		close(fd);
		return -1;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -1;
	}
	bad = json_dumpf(root, f, 0) || fputc('\n', f) == EOF;
	bad |= ferror(f);
	bad |= fclose(f) != 0;
	if (bad && !errno)
		errno = EIO;
	return bad ? -1 : 0;
}

static notrace int rt_write_target(const char *path, const char *target, const json_t *root)
{
	struct stat st;
	mode_t mode;
	char *tmp;
	int fd, err;

	if (stat(target, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return rt_fail(path, "not a regular file");
		mode = st.st_mode & 07777;
	} else if (errno == ENOENT) {
		mode = rt_new_mode();
	} else {
		return rt_fail(path, strerror(errno));
	}
	tmp = rt_temp_name(target);
	if (!tmp)
		return rt_fail(path, strerror(ENOMEM));
	fd = mkstemp(tmp);
	if (fd < 0 || rt_dump(tmp, fd, mode, root) || rename(tmp, target)) {
		err = errno;
		if (fd >= 0)
			unlink(tmp);
		free(tmp);
		return rt_fail(path, strerror(err));
	}
	free(tmp);
	return 0;
}

notrace int rt_write_file(const char *path, const json_t *root)
{
	struct stat st;
	char *real;
	int rc;

	if (lstat(path, &st) || !S_ISLNK(st.st_mode))
		return rt_write_target(path, path, root);
	real = realpath(path, NULL);
	if (!real)
		return rt_fail(path, "a symlink to nothing");
	rc = rt_write_target(path, real, root);
	free(real);
	return rc;
}
