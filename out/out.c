/* out.c - standard output in whole lines; see out.h. */
#include <errno.h>
#include <stdatomic.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "os/monotime.h"
#include "out/out.h"
#include "out/term.h"

static int_least64_t now_ms(void)
{
	return (int_least64_t)monotime_coarse_ms();
}

/* Everything in buf is whole lines: mark them so, and when they begin to
 * wait. */
static void mark_whole(struct out *o)
{
	o->done = o->len;
	if (!o->until_full && o->done > 0 &&
	    atomic_load_explicit(&o->waiting_since, memory_order_relaxed) == 0)
		atomic_store_explicit(&o->waiting_since, now_ms(), memory_order_relaxed);
}

/* Not by a compound literal, which unoptimized builds would put whole,
 * buffer and all, on the stack. */
void out_init(struct out *o, int fd, bool until_full)
{
	memset(o, 0, offsetof(struct out, buf));
	o->fd = fd;
	o->until_full = until_full;
	o->line_buffered = isatty(fd);
}

/* Write buf[0..n) in pieces of whole lines, each at most PIPE_BUF bytes
 * when the lines allow: a pipe takes such a write whole or not at all, so
 * a run killed by a signal never leaves part of a line behind (GNU writes
 * line by line).  Lines end in NUL when kept until the buffer is full (-z), else in newline.  A
 * piece that fails is dropped and the next is tried, as stdio does: 0 or
 * the first errno. */
static int write_lines(const struct out *o, size_t n)
{
	char end = out_line_end(o);
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

/* write_lines, with the status line of --progress cleared first when the
 * terminal it is on may be this one (term.h). */
static int write_shown(const struct out *o, size_t n)
{
	int err;

	if (!o->line_buffered || n == 0)
		return write_lines(o, n);
	term_pause();
	err = write_lines(o, n);
	term_resume(o->buf[n - 1] == '\n');
	return err;
}

/* Write buf[0..n), n at most done, and keep the rest; remember the first
 * failure. */
static void write_front(struct out *o, size_t n)
{
	int err = write_shown(o, n);

	if (err && !o->err)
		o->err = err;
	memmove(o->buf, o->buf + n, o->len - n);
	o->len -= n;
	o->done -= n;
	if (o->done == 0)
		atomic_store_explicit(&o->waiting_since, 0, memory_order_relaxed);
}

char out_line_end(const struct out *o)
{
	return o->until_full ? '\0' : '\n';
}


bool out_waited(struct out *o, int ms)
{
	int_least64_t since = atomic_load_explicit(&o->waiting_since, memory_order_relaxed);

	return since && now_ms() - since >= ms;
}

void out_flush_waited(struct out *o, int ms)
{
	if (out_waited(o, ms))
		out_flush(o);
}

void out_flush(struct out *o)
{
	if (!o->until_full)
		write_front(o, o->done);
}

void out_before_message(struct out *o)
{
	write_front(o, o->done);
}

void out_put(struct out *o, const void *p, size_t n)
{
	const char *from = p;

	while (o->len + n > sizeof o->buf) {
		/* No whole line to make room: the line being put is longer
		 * than the buffer, and goes out a bufferful at a time, each
		 * as if whole. */
		if (o->done == 0) {
			size_t k = sizeof o->buf - o->len;

			memcpy(o->buf + o->len, from, k);
			from += k;
			n -= k;
			o->len = o->done = sizeof o->buf;
		}
		write_front(o, o->done);
	}
	memcpy(o->buf + o->len, from, n);
	o->len += n;
}

void out_str(struct out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

/* Lines that do not fit in the buffer go in one by one, so that each
 * still goes out whole. */
void out_lines(struct out *o, const void *p, size_t n)
{
	const char *line = p, *end;

	while (n > sizeof o->buf - o->len &&
	       (end = memchr(line, out_line_end(o), n)) != NULL &&
	       (size_t)(end - line) + 1 < n) {
		size_t k = (size_t)(end - line) + 1;

		out_put(o, line, k);
		mark_whole(o);
		line += k;
		n -= k;
	}
	out_put(o, line, n);
	mark_whole(o);
	if (o->line_buffered)
		out_flush(o);
}

void out_end_line(struct out *o, char end)
{
	out_lines(o, &end, 1);
}

/* As GNU's close of stdout: an error is told when an earlier write failed,
 * or when the last write or the close fails, unless that is only a closed
 * standard output that nothing was left to go to. */
bool out_close(struct out *o)
{
	bool pending = o->len > 0;
	int last = write_shown(o, o->len);

	if (close(o->fd) != 0 && last == 0)
		last = errno;
	o->len = o->done = 0;
	errno = last;
	return !(o->err || (last && (pending || last != EBADF)));
}
