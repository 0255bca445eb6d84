/* listread.c - checksum lists read line by line; see listread.h.  Not stdio:
 * it would take the static build over its budget. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "listread.h"

/* glibc's stdio buffer: the block size, below its BUFSIZ. */
enum { BUF_MAX = 8192 };

bool listread_init(struct listread *l, int fd)
{
	struct stat st;

	*l = (struct listread){ .fd = fd, .size = BUF_MAX };
	if (fstat(fd, &st) == 0 && st.st_blksize > 0 && st.st_blksize < BUF_MAX)
		l->size = (size_t)st.st_blksize;
	l->buf = malloc(l->size);
	return l->buf != NULL;
}

void listread_free(struct listread *l)
{
	free(l->buf);
	free(l->line);
}

/* Refill the buffer when it is empty: false at the end or on an error. */
static bool fill(struct listread *l)
{
	ssize_t n;

	if (l->pos < l->len)
		return true;
	if (l->eof || l->err)
		return false;
	n = read(l->fd, l->buf, l->size);
	if (n <= 0) {
		l->eof = n == 0;
		l->err = n < 0 ? errno : 0;
		return false;
	}
	l->pos = 0;
	l->len = (size_t)n;
	return true;
}

ssize_t listread_line(struct listread *l)
{
	size_t len = 0;
	char *nl = NULL;

	if (l->err)
		return -1;
	while (!nl && fill(l)) {
		char *p = l->buf + l->pos;
		size_t k = l->len - l->pos;

		if ((nl = memchr(p, '\n', k)))
			k = (size_t)(nl - p) + 1;
		if (!grow(&l->line, &l->line_size, len, k + 1))
			return -1;
		memcpy(l->line + len, p, k);
		len += k;
		l->pos += k;
	}
	if (len == 0)
		return -1;
	l->line[len] = '\0';
	return (ssize_t)len;
}
