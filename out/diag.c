/* diag.c - diagnostics about files; see diag.h. */
#include "out/diag.h"
#include "out/msg.h"
#include "out/quote.h"

/* The quoted name goes into the message a piece at a time: no memory in
 * proportion to the name, which may be as long as a list's line. */
static void put_in_msg(void *m, const char *p, size_t n)
{
	msg_add_n(m, p, n);
}

void error_file(const char *prog, const char *name, const char *text)
{
	struct msg m;

	/* Which bytes print as they are depends on the locale's character set;
	 * it is loaded when a name is first shown, here or by --progress. */
	quote_use_locale();
	msg_start(&m, prog);
	quote_put(name, put_in_msg, &m);
	msg_add(&m, ": ");
	msg_add(&m, text);
	msg_end(&m);
}

void report_error(struct out *out, const char *prog, const char *name,
		  const char *text)
{
	out_before_message(out);
	error_file(prog, name, text);
}
