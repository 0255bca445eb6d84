/* opts_test.c - opts.c on what md5sum's own tables cannot show, printing
 * TAP: a long name given whole beats the longer names it begins, and added
 * options that share a prefix with the others change nothing of what that
 * prefix means.  The rest is the differential suite's (tests/diff_hash.bats,
 * against GNU md5sum and so against glibc's getopt_long). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/opts.h"
#include "tap.h"

static const struct opt_long longs[] = {
	{ "tag", false, 'T' },
	{ "tagged", true, 'G' },
	{ "text", false, 'X' },
	{ NULL, false, 0 },
};

/* A program's own set, and the options another adds to it: "tagged" and
 * "texts" begin as the set's "tag" and "text" do; "extra" is an exact name
 * listed after two longer names that it begins. */
static const struct opt_long set[] = {
	{ "tag", false, 'T' },
	{ "text", false, 'X' },
	{ "status", false, 'S' },
	{ NULL, false, 0 },
};
static const struct opt_long added[] = {
	{ "tagged", true, 'G' },
	{ "texts", false, 'Y' },
	{ "extra-long", false, 'L' },
	{ "extra-more", false, 'M' },
	{ "extra", false, 'E' },
	{ NULL, false, 0 },
};

/* Read the words of line (split at spaces) as a command line named "p"
 * with short options "bj:" and the long ones of table and more, and tell
 * what came of it: each option's letter (=ARG when it has one), then "|"
 * and the operands; its messages go to err. */
static void parse(const struct opt_long *table, const struct opt_long *more,
		  const char *line, char *got, char *err, size_t size)
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
	opts_init(&o, argc, argv, "bj:", table, more);
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

static void expect_of(const struct opt_long *table, const struct opt_long *more,
		      const char *line, const char *want, const char *want_err)
{
	char got[256], err[256], what[512];

	parse(table, more, line, got, err, sizeof got);
	snprintf(what, sizeof what, "%s: %s", line, want);
	ok(strcmp(got, want) == 0 && strcmp(err, want_err) == 0, "%s", what);
	if (strcmp(got, want) != 0 || strcmp(err, want_err) != 0)
		printf("# got: %s\n# stderr: %s", got, err);
}

static void expect(const char *line, const char *want, const char *want_err)
{
	expect_of(longs, NULL, line, want, want_err);
}

/* The same, for the set and the options added to it. */
static void expect_added(const char *line, const char *want, const char *want_err)
{
	expect_of(set, added, line, want, want_err);
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
	/* The set's prefixes mean what they meant without the added ones. */
	expect_added("--ta a", "T | a", "");
	expect_added("--t a", "? ",
		     "p: option '--t' is ambiguous; possibilities: '--tag' '--text'\n");
	expect_added("--t=x a", "? ",
		     "p: option '--t=x' is ambiguous; possibilities: '--tag' '--text'\n");
	expect_added("--=x a", "? ", "p: option '--=x' is ambiguous; "
		     "possibilities: '--tag' '--text' '--status'\n");
	expect_added("--= a", "? ", "p: option '--=' is ambiguous; "
		     "possibilities: '--tag' '--text' '--status'\n");
	expect_added("--text a", "X | a", "");
	expect_added("--s a", "S | a", "");
	expect_added("--tag=1 a", "? ", "p: option '--tag' doesn't allow an argument\n");
	/* The added ones, where no name of the set begins as they do. */
	expect_added("--tagg=x a", "G=x | a", "");
	expect_added("--tagged x a", "G=x | a", "");
	expect_added("a --tagg", "? ", "p: option '--tagged' requires an argument\n");
	expect_added("--texts a", "Y | a", "");
	expect_added("--e a", "? ", "p: option '--e' is ambiguous; "
		     "possibilities: '--extra-long' '--extra-more' '--extra'\n");
	expect_added("--extra a", "E | a", "");
	expect_added("--extra-m a", "M | a", "");
	expect_added("--extra=1 a", "? ", "p: option '--extra' doesn't allow an argument\n");
	expect_added("--tagz a", "? ", "p: unrecognized option '--tagz'\n");
	expect_added("--x=1 a", "? ", "p: unrecognized option '--x=1'\n");
	expect_added("-- --t --=x", "| --t --=x", "");
	setenv("POSIXLY_CORRECT", "", 1);
	expect("-b a -b -- c", "b | a -b -- c", "");
	expect_added("--tagg x a --t", "G=x | a --t", "");
	return tap_done();
}
