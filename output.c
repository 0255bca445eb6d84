/* output.c - standard output in whole lines, and error messages. */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
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

/* Write buf[0..n) in pieces of whole lines, each at most PIPE_BUF bytes
 * when the lines allow: a pipe takes such a write whole or not at all, so
 * a run killed by a signal never leaves part of a line behind (GNU writes
 * line by line).  Lines end in NUL when held (-z), else in newline.  A
 * piece that fails is dropped and the next is tried, as stdio does: 0 or
 * the first errno. */
static int write_lines(const struct out *o, size_t n)
{
	char end = o->hold ? '\0' : '\n';
	const char *p = o->buf;
	int first = 0;

	while (n > 0) {
		size_t k = n;
		int err;

		if (k > PIPE_BUF) {
			for (k = PIPE_BUF; k > 0 && p[k - 1] != end; k--)
				;
			if (k == 0) {	/* a line longer than PIPE_BUF: alone */
				const char *e = memchr(p + PIPE_BUF, end, n - PIPE_BUF);

				k = e ? (size_t)(e - p) + 1 : n;
			}
		}
		err = write_all(o->fd, p, k);
		if (err && !first)
			first = err;
		p += k;
		n -= k;
	}
	return first;
}

/* Write buf[0..n) and keep the rest; remember the first failure. */
static void write_front(struct out *o, size_t n)
{
	int err = write_lines(o, n);

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
	int last = write_lines(o, o->len);

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

/* Errors only Linux has. */
#ifdef __linux__
#define LINUX_ERRORS(X) \
	X(EUCLEAN, "Structure needs cleaning") \
	X(EREMOTEIO, "Remote I/O error") \
	X(ENOMEDIUM, "No medium found")
#else
#define LINUX_ERRORS(X)
#endif

/* glibc's words for the errors that opening, reading and closing files
 * and writing output can meet.  GNU md5sum says these whatever libc we are
 * linked with: musl says "I/O error" for "Input/output error", "Filename
 * too long" for "File name too long", and more. */
#define GLIBC_ERRORS(X) \
	X(EPERM, "Operation not permitted") \
	X(ENOENT, "No such file or directory") \
	X(EINTR, "Interrupted system call") \
	X(EIO, "Input/output error") \
	X(ENXIO, "No such device or address") \
	X(EBADF, "Bad file descriptor") \
	X(EAGAIN, "Resource temporarily unavailable") \
	X(ENOMEM, "Cannot allocate memory") \
	X(EACCES, "Permission denied") \
	X(EFAULT, "Bad address") \
	X(EBUSY, "Device or resource busy") \
	X(EXDEV, "Invalid cross-device link") \
	X(ENODEV, "No such device") \
	X(ENOTDIR, "Not a directory") \
	X(EISDIR, "Is a directory") \
	X(EINVAL, "Invalid argument") \
	X(ENFILE, "Too many open files in system") \
	X(EMFILE, "Too many open files") \
	X(ETXTBSY, "Text file busy") \
	X(EFBIG, "File too large") \
	X(ENOSPC, "No space left on device") \
	X(EROFS, "Read-only file system") \
	X(EPIPE, "Broken pipe") \
	X(ENAMETOOLONG, "File name too long") \
	X(ENOLCK, "No locks available") \
	X(ENOSYS, "Function not implemented") \
	X(ELOOP, "Too many levels of symbolic links") \
	X(EOVERFLOW, "Value too large for defined data type") \
	X(EOPNOTSUPP, "Operation not supported") \
	X(ECONNRESET, "Connection reset by peer") \
	X(ENOTCONN, "Transport endpoint is not connected") \
	X(ETIMEDOUT, "Connection timed out") \
	X(ESTALE, "Stale file handle") \
	X(EDQUOT, "Disk quota exceeded") \
	LINUX_ERRORS(X)

/* The numbers in one array and the texts in one string, one after the
 * other: no pointer per entry. */
#define ERROR_CODE(e, text) e,
#define ERROR_TEXT(e, text) text "\0"
static const short error_codes[] = { GLIBC_ERRORS(ERROR_CODE) };
static const char error_texts[] = GLIBC_ERRORS(ERROR_TEXT);

const char *error_text(int err)
{
	const char *text = error_texts;

	for (size_t i = 0; i < sizeof error_codes / sizeof *error_codes; i++) {
		if (error_codes[i] == err)
			return text;
		text += strlen(text) + 1;
	}
	return strerror(err);
}

/* Standard error gets each message in one write(2), as long as it fits in
 * the buffer: messages of concurrent runs do not mix.  A failure to write
 * it has nowhere to be told. */
static void msg_write(struct msg *m)
{
	(void)write_all(STDERR_FILENO, m->buf, m->len);
	m->len = 0;
}

void msg_add(struct msg *m, const char *s)
{
	size_t n = strlen(s);

	while (n > 0) {
		size_t k = sizeof m->buf - m->len;

		if (k == 0) {
			msg_write(m);
			continue;
		}
		k = k < n ? k : n;
		memcpy(m->buf + m->len, s, k);
		m->len += k;
		s += k;
		n -= k;
	}
}

void msg_start(struct msg *m, const char *prog)
{
	m->len = 0;
	msg_add(m, prog);
	msg_add(m, ": ");
}

void msg_end(struct msg *m)
{
	msg_add(m, "\n");
	msg_write(m);
}

void complain(const char *prog, ...)
{
	struct msg m;
	va_list ap;
	const char *s;

	msg_start(&m, prog);
	va_start(ap, prog);
	while ((s = va_arg(ap, const char *)))
		msg_add(&m, s);
	va_end(ap);
	msg_end(&m);
}

void error_file(const char *prog, const char *name, const char *msg)
{
	char *quoted;

	/* Which bytes print as they are depends on the locale's character set;
	 * it is loaded only here, when a name is first shown. */
	setlocale(LC_CTYPE, "");
	quoted = quote_name(name);
	complain(prog, quoted ? quoted : name, ": ", msg, (char *)NULL);
	free(quoted);
}

void die_no_memory(const char *prog)
{
	complain(prog, "memory exhausted", (char *)NULL);
	exit(EXIT_FAILURE);
}

void report_error(struct run *run, const char *name, const char *msg)
{
	out_flush(&run->out);
	error_file(run->prog, name, msg);
}
