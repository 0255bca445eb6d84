/* output.c - standard output in whole lines, and error messages. */
#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "md5sum.h"
#include "quote.h"

void out_init(struct out *o, int fd)
{
	o->fd = fd;
	o->err = 0;
	o->line_buffered = isatty(fd);
	o->len = 0;
	o->done = 0;
}

/* Write n bytes at p, whatever write(2) takes at a time.  After the first
 * error nothing more is written: the run ends with "write error". */
static void write_all(struct out *o, const char *p, size_t n)
{
	while (n > 0 && o->err == 0) {
		ssize_t w = write(o->fd, p, n);

		if (w < 0 && errno != EINTR)
			o->err = errno;
		if (w > 0) {
			p += w;
			n -= (size_t)w;
		}
	}
}

void out_flush(struct out *o)
{
	write_all(o, o->buf, o->done);
	memmove(o->buf, o->buf + o->done, o->len - o->done);
	o->len -= o->done;
	o->done = 0;
}

void out_put(struct out *o, const void *p, size_t n)
{
	if (o->len + n > sizeof o->buf)
		out_flush(o);
	if (o->len + n > sizeof o->buf) {
		/* A line longer than the buffer cannot go out in one piece. */
		write_all(o, o->buf, o->len);
		o->len = 0;
		write_all(o, p, n);
		return;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void out_str(struct out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

void out_end_line(struct out *o, char end)
{
	out_put(o, &end, 1);
	o->done = o->len;
	if (o->line_buffered)
		out_flush(o);
}

bool out_close(struct out *o)
{
	int close_err;

	write_all(o, o->buf, o->len);
	o->len = o->done = 0;
	close_err = close(o->fd) == 0 ? 0 : errno;
	/* As GNU: after a failed write, the error told is close's, if any; a
	 * closed standard output never written to is no error. */
	errno = close_err;
	return o->err == 0 && (close_err == 0 || close_err == EBADF);
}

void out_escaped(struct out *o, const char *name)
{
	for (const char *p = name; *p; p++) {
		size_t plain = strcspn(p, "\\\n\r");

		out_put(o, p, plain);
		p += plain;
		if (*p == '\0')
			break;
		out_put(o, *p == '\\' ? "\\\\" : *p == '\n' ? "\\n" : "\\r", 2);
	}
}

void complain(const char *prog, const char *fmt, ...)
{
	va_list ap;

	flockfile(stderr);
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	putc('\n', stderr);
	funlockfile(stderr);
}

void error_file(const char *prog, const char *name, const char *msg)
{
	char *quoted;

	/* Which bytes print as they are depends on the locale's character set;
	 * it is loaded only here, when a name is first shown. */
	setlocale(LC_CTYPE, "");
	quoted = quote_name(name);
	complain(prog, "%s: %s", quoted ? quoted : name, msg);
	free(quoted);
}

void die_no_memory(const char *prog)
{
	complain(prog, "memory exhausted");
	exit(EXIT_FAILURE);
}

void report_error(struct run *run, const char *name, const char *msg)
{
	out_flush(&run->out);
	error_file(run->prog, name, msg);
}
