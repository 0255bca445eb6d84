/* msg.c - messages on standard error; see msg.h. */
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "out/msg.h"
#include "out/term.h"

/* The status line of --progress, if any, is cleared first, and is not
 * drawn again in the middle of a message written in pieces. */
static void msg_write(struct msg *m)
{
	term_pause();
	(void)write_all(STDERR_FILENO, m->buf, m->len);
	term_resume(m->len > 0 && m->buf[m->len - 1] == '\n');
	m->len = 0;
}

void msg_add(struct msg *m, const char *s)
{
	msg_add_n(m, s, strlen(s));
}

void msg_add_n(struct msg *m, const char *s, size_t n)
{
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
