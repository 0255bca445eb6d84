/* listread.c - checksum lists read line by line; see listread.h.  Not stdio:
 * it would take the static build over its budget. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/grow.h"
#include "jobs/listread.h"
#include "os/features.h"

/* glibc's stdio buffer: the block size, below its BUFSIZ. */
enum { BUF_MAX = 8192 };

bool listread_init(struct listread *l, int fd)
{
	struct stat st;

	*l = (struct listread){ .fd = fd, .size = BUF_MAX };
	if (fstat(fd, &st) == 0) {
		if (st.st_blksize > 0 && st.st_blksize < BUF_MAX)
			l->size = (size_t)st.st_blksize;
		l->never_waits = S_ISREG(st.st_mode) || S_ISBLK(st.st_mode);
	}
	l->buf = malloc(l->size);
	return l->buf != NULL;
}

void listread_free(struct listread *l)
{
	free(l->buf);
	free(l->line);
}

/* Whether a read of l would return at once: data, the end or an error
 * are there.  The small build (make static) has no room to ask. */
static bool readable(const struct listread *l)
{
	struct pollfd p = { .fd = l->fd, .events = POLLIN };

	return !HAS_NO_WAIT_READS || l->never_waits || poll(&p, 1, 0) != 0;
}

/* Refill the buffer when it is empty: 1 when it holds bytes, 0 at the
 * end or on an error, LISTREAD_LATER when it would wait and may not. */
static int fill(struct listread *l, bool wait)
{
	ssize_t n;

	if (l->pos < l->len)
		return 1;
	if (l->eof || l->err)
		return 0;
	if (!wait && !readable(l))
		return LISTREAD_LATER;
	n = read(l->fd, l->buf, l->size);
	if (n <= 0) {
		l->eof = n == 0;
		l->err = n < 0 ? errno : 0;
		return 0;
	}
	l->pos = 0;
	l->len = (size_t)n;
	return 1;
}

ssize_t listread_line(struct listread *l, bool wait)
{
	char *nl = NULL;
	size_t len;
	int more;

	l->short_of_memory = false;
	if (l->err)
		return -1;
	while (!nl && (more = fill(l, wait)) == 1) {
		char *p = l->buf + l->pos;
		size_t k = l->len - l->pos;

		if ((nl = memchr(p, '\n', k)))
			k = (size_t)(nl - p) + 1;
		if (!grow(&l->line, &l->line_size, l->line_len, k + 1)) {
			l->short_of_memory = true;
			return -1;
		}
		memcpy(l->line + l->line_len, p, k);
		l->line_len += k;
		l->pos += k;
	}
	if (!nl && more == LISTREAD_LATER)
		return LISTREAD_LATER;
	len = l->line_len;
	l->line_len = 0;
	if (len == 0)
		return -1;
	l->line[len] = '\0';
	return (ssize_t)len;
}

char *listread_take_line(struct listread *l)
{
	char *line = l->line;

	l->line = NULL;
	l->line_size = l->line_len = 0;
	return line;
}
