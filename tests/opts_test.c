/* opts_test.c - opts.c on what md5sum's own table cannot show, printing
 * TAP: a long name given whole beats the longer names it begins.  The rest
 * is the differential suite's (tests/diff_hash.bats, against GNU md5sum and
 * so against glibc's getopt_long). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"
#include "tap.h"

static const struct opt_long longs[] = {
	{ "tag", false, 'T' },
	{ "tagged", true, 'G' },
	{ "text", false, 'X' },
	{ NULL, false, 0 },
};

/* Read the words of line (split at spaces) as a command line named "p"
 * with short options "bj:", and tell what came of it: each option's letter
 * (=ARG when it has one), then "|" and the operands; its messages go to
 * err. */
static void parse(const char *line, char *got, char *err, size_t size)
{
	char words[256], *argv[16] = { "p" }, *w;
	int argc = 1, c, saved = dup(STDERR_FILENO);
	FILE *f = tmpfile();
	struct opts o;

	snprintf(words, sizeof words, "%s", line);
	for (w = strtok(words, " "); w && argc < 15; w = strtok(NULL, " "))
		argv[argc++] = w;
	dup2(fileno(f), STDERR_FILENO);
	*got = '\0';
	opts_init(&o, argc, argv, "bj:", longs);
	while ((c = opts_next(&o)) != -1) {
		snprintf(got + strlen(got), size - strlen(got), "%c%s%s ", c,
			 o.arg ? "=" : "", o.arg ? o.arg : "");
		if (c == '?')
			break;
	}
	if (c == -1) {
		strcat(got, "|");
		for (int i = o.ind; i < argc; i++)
			snprintf(got + strlen(got), size - strlen(got), " %s", argv[i]);
	}
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	err[fread(err, 1, size - 1, f)] = '\0';
	fclose(f);
}

static void expect(const char *line, const char *want, const char *want_err)
{
	char got[256], err[256], what[512];

	parse(line, got, err, sizeof got);
	snprintf(what, sizeof what, "%s: %s", line, want);
	ok(strcmp(got, want) == 0 && strcmp(err, want_err) == 0, "%s", what);
	if (strcmp(got, want) != 0 || strcmp(err, want_err) != 0)
		printf("# got: %s\n# stderr: %s", got, err);
}

int main(void)
{
	unsetenv("POSIXLY_CORRECT");
	expect("--tag a", "T | a", "");
	expect("--tagg=x a", "G=x | a", "");
	expect("--tagged x a", "G=x | a", "");
	expect("--ta a", "? ",
	       "p: option '--ta' is ambiguous; possibilities: '--tag' '--tagged'\n");
	expect("--t a", "? ",
	       "p: option '--t' is ambiguous; possibilities: '--tag' '--tagged' '--text'\n");
	expect("a -bj4 b -- -b c", "b j=4 | a b -b c", "");
	expect("a --tagged", "? ", "p: option '--tagged' requires an argument\n");
	setenv("POSIXLY_CORRECT", "", 1);
	expect("-b a -b -- c", "b | a -b -- c", "");
	return tap_done();
}
