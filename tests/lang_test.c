/* lang_test.c - lang.c's check of a catalog's formats, and format.c's walk that
 * puts them into messages, printing TAP: a translation whose conversions
 * are not the English message's (a corrupt or hostile catalog) is refused,
 * every form a real catalog uses is taken.  Whether ours says what GNU
 * says in each language is tests/lang.bats's. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "out/format.h"
#include "out/lang.h"
#include "tap.h"

static const char bad_line[] = "%s: %" PRIuMAX ": improperly formatted %s checksum line";
static const char argmatch[] = "invalid argument %s for %s";

static void fits(const char *msgid, const char *tr, int want)
{
	ok(lang_fits(msgid, tr) == want, "%s \"%s\" for \"%s\"", want ? "takes" : "refuses", tr,
	   msgid);
}

/* What format_put makes of fmt with args. */
static void puts_as(const char *fmt, const char *const *args, int n, const char *want)
{
	struct msg m = { 0 };

	format_put(&m, fmt, args, n);
	ok(m.len == strlen(want) && memcmp(m.buf, want, m.len) == 0, "\"%s\" is put as \"%s\"",
	   fmt, want);
}

int main(void)
{
	const char *two[] = { "a", "b" }, *three[] = { "list", "3", "MD5" };

	fits("OK", "Réussi", 1);
	fits("FAILED", "100%% faux", 1);
	fits(bad_line, "%s : %lu : ligne de somme de contrôle %s mal formatée", 1);
	fits(bad_line, "%1$s: %2$lu: %3$s 行", 1);
	fits(argmatch, "%2$s に対する引数 %1$s が間違っています", 1);
	fits(argmatch, "%2$s %1$s %2$s", 1);
	fits("OK", "%s", 0);
	fits("OK", "%n", 0);
	fits("FAILED", "50%", 0);
	fits(bad_line, "%s: %s: %s", 0);
	fits(bad_line, "%lu: %s: %s", 0);
	fits(bad_line, "%s: %lu", 0);
	fits(bad_line, "%s: %lu: %s %s", 0);
	fits(bad_line, "%s: %d: %s", 0);
	fits(bad_line, "%30s: %lu: %s", 0);
	fits(bad_line, "%-s: %lu: %s", 0);
	fits(bad_line, "%.99s: %lu: %s", 0);
	fits(argmatch, "%1$s %s", 0);
	fits(argmatch, "%s %2$s", 0);
	fits(argmatch, "%3$s %1$s %2$s", 0);
	fits(argmatch, "%1$s %1$s", 0);
	fits(argmatch, "%0$s %1$s", 0);
	fits(argmatch, "%2$lu %1$s", 0);
	fits("%s: invalid option -- '%c'", "%s: ungültige Option -- %c", 1);
	fits("%s: invalid option -- '%c'", "%s: ungültige Option -- %s", 0);
	puts_as("%2$s-%1$s", two, 2, "b-a");
	puts_as("%s, %s", two, 2, "a, b");
	puts_as("100%% %s", two, 1, "100% a");
	puts_as(bad_line, three, 3, "list: 3: improperly formatted MD5 checksum line");
	puts_as("%s %s", two, 1, "a ");
	puts_as("trailing %", two, 0, "trailing %");
	return tap_done();
}
