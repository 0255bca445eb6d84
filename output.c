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

void out_init(struct out *o, int fd, bool hold)
{
	*o = (struct out){ .fd = fd, .hold = hold, .line_buffered = isatty(fd) };
}

/* Write n bytes at p, whatever write(2) takes at a time: 0 or an errno.
 * What could not be written is dropped, as stdio drops it. */
static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno != EINTR)
			return errno;
		if (w > 0) {
			p += w;
			n -= (size_t)w;
		}
	}
	return 0;
}

/* Write buf[0..n) and keep the rest; remember the first failure. */
static void write_front(struct out *o, size_t n)
{
	int err = write_all(o->fd, o->buf, n);

	if (err && !o->err)
		o->err = err;
	memmove(o->buf, o->buf + n, o->len - n);
	o->len -= n;
	o->done -= n;
}

void out_flush(struct out *o)
{
	if (!o->hold)
		write_front(o, o->done);
}

void out_put(struct out *o, const void *p, size_t n)
{
	if (o->len + n > sizeof o->buf)
		write_front(o, o->done);
	if (o->len + n > sizeof o->buf) {
		/* A line longer than the buffer cannot go out in one piece. */
		write_front(o, o->len);
		if (write_all(o->fd, p, n) && !o->err)
			o->err = errno;
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

/* As GNU's close of stdout: an error is told when an earlier write failed,
 * or when the last write or the close fails, unless that is only a closed
 * standard output that nothing was left to go to. */
bool out_close(struct out *o)
{
	bool pending = o->len > 0;
	int last = write_all(o->fd, o->buf, o->len);

	if (close(o->fd) != 0 && last == 0)
		last = errno;
	o->len = o->done = 0;
	errno = last;
	return !(o->err || (last && (pending || last != EBADF)));
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
