/* diag.c - diagnostics about files; see diag.h. */
#include <stdlib.h>

#include "out/diag.h"
#include "out/msg.h"
#include "out/quote.h"

void error_file(const char *prog, const char *name, const char *text)
{
	char *quoted;

	/* Which bytes print as they are depends on the locale's character set;
	 * it is loaded when a name is first shown, here or by --progress. */
	quote_use_locale();
	quoted = quote_name(name);
	complain(prog, quoted ? quoted : name, ": ", text, (char *)NULL);
	free(quoted);
}

void report_error(struct out *out, const char *prog, const char *name,
		  const char *text)
{
	out_before_message(out);
	error_file(prog, name, text);
}
