/* msg.h - messages on standard error, "PROG: ..." and a newline.
 *
 * A message goes out in one write(2) when it fits in the buffer, so the
 * messages of concurrent runs do not mix; a longer one in several, which
 * callers that write from several threads serialize (window.h's write
 * lock).  A failure to write one has
 * nowhere to be told and is ignored.  The status line of --progress is
 * cleared before it (term.h). */
#ifndef MSG_H
#define MSG_H

#include <stddef.h>

/* A message, built piece by piece. */
struct msg {
	size_t len;
	char buf[1024];
};

/* Begin m with "PROG: ". */
void msg_start(struct msg *m, const char *prog);
void msg_add(struct msg *m, const char *s);
/* Add n bytes at s: a message longer than the buffer goes out in several
 * writes, a buffer at a time. */
void msg_put(struct msg *m, const char *s, size_t n);
/* End m with a newline and write it. */
void msg_end(struct msg *m);
/* Write m as it is: for a text that ends its own lines (getopt's). */
void msg_send(struct msg *m);

/* Print "PROG: ", then the strings given up to a null pointer, then a
 * newline. */
#if defined(__GNUC__)
__attribute__((sentinel))
#endif
void complain(const char *prog, ...);

#endif
