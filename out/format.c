/* format.c - a message's format put into a message; see format.h. */
#include "out/format.h"

void format_put(struct msg *m, const char *fmt, const char *const *args, int n)
{
	struct lang_walk w = { fmt, 0 };
	struct lang_piece p;

	while (lang_step(&w, &p)) {
		if (p.arg < 0)
			msg_put(m, p.text, p.len);
		else if (p.arg < n)
			msg_add(m, args[p.arg]);
	}
}
