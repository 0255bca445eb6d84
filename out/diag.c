/* diag.c - diagnostics about files; see diag.h. */
#include <inttypes.h>

#include "out/diag.h"
#include "out/lang.h"
#include "out/msg.h"
#include "out/quote.h"

/* The quoted name goes into the message a piece at a time: no memory in
 * proportion to the name, which may be as long as a list's line. */
static void put_in_msg(void *m, const char *p, size_t n)
{
	msg_put(m, p, n);
}

/* Add name to m, quoted. */
static void add_quoted(struct msg *m, const char *name)
{
	/* Which bytes print as they are depends on the locale's character set;
	 * it is loaded when a name is first shown, here or by --progress. */
	quote_use_locale();
	quote_put(name, put_in_msg, m);
}

void error_file(const char *prog, const char *name, const char *text)
{
	struct msg m;

	text = lang_libc(text);
	msg_start(&m, prog);
	add_quoted(&m, name);
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

void error_about(const char *prog, const char *msgid, const char *const *args, int n)
{
	struct lang_walk w = { lang_text(msgid), 0 };
	struct lang_piece p;
	struct msg m;

	msg_start(&m, prog);
	while (lang_step(&w, &p)) {
		if (p.arg < 0)
			msg_put(&m, p.text, p.len);
		else if (p.arg == 0)
			add_quoted(&m, args[0]);
		else if (p.arg < n)
			msg_add(&m, args[p.arg]);
	}
	msg_end(&m);
}

void report_about(struct out *out, const char *prog, const char *msgid,
		  const char *const *args, int n)
{
	out_before_message(out);
	error_about(prog, msgid, args, n);
}

void report_bad_line(struct out *out, const char *prog, const char *list, const char *line)
{
	report_about(out, prog, "%s: %" PRIuMAX ": improperly formatted %s checksum line",
		     (const char *const[]){ list, line, "MD5" }, 3);
}
