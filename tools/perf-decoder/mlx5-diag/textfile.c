// SPDX-License-Identifier: GPL-2.0
/* The exporter's textfile mode: an atomic replace of DIR/NAME (textfile.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "textfile.h"

int textfile_write(const char *dir, const char *name, const char *text,
		   size_t len, char *err, size_t errlen)
{
	char tmp[4096], path[4096];
	const char *step;
	size_t done = 0;
	int fd, e;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) >= sizeof(tmp) ||
	    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path)) {
		snprintf(err, errlen, "%s: the path is too long", dir);
		return -1;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create a file there: %s", dir,
			 strerror(errno));
		return -1;
	}
	step = "writing";
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		done += (size_t)n;
	}
	step = "making it readable";
	if (fchmod(fd, 0644))
		goto fail;
	step = "closing";
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	step = "renaming it";
	if (rename(tmp, path))
		goto fail;
	return 0;
fail:
	e = errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	snprintf(err, errlen, "%s: %s %s: %s", path, step, tmp, strerror(e));
	return -1;
}
