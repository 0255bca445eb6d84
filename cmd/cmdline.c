/* cmdline.c - the command line of md5sum read; see cmdline.h.  The
 * messages and the order of the refusals are GNU md5sum 9.1's. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmdline.h"
#include "out/format.h"
#include "out/lang.h"
#include "out/msg.h"
#include "cmd/opts.h"

static const char help_text[] =
"Usage: %s [OPTION]... [FILE]...\n"
"Print or check MD5 (128-bit) checksums.\n"
"\n"
"With no FILE, or when FILE is -, read standard input.\n"
"  -b, --binary          read in binary mode\n"
"  -c, --check           read checksums from the FILEs and check them\n"
"      --disk=KIND       read files as stored on KIND: 'hdd' (spinning: one\n"
"                          file at a time, in disk order), 'ssd' (many reads\n"
"                          at once), or 'auto' (as reads are timed; the\n"
"                          default, or $MD5SUM_DISK)\n"
"  -j, --jobs=N          hash in N threads, several files side by side in each\n"
"                          (default: $MD5SUM_JOBS, or else one per CPU)\n"
"      --progress        show how far the run is on a line of standard error,\n"
"                          when that is a terminal\n"
"      --tag             create a BSD-style checksum\n"
"  -t, --text            read in text mode (default)\n"
"  -z, --zero            end each output line with NUL, not newline,\n"
"                          and disable file name escaping\n"
"\n"
"The following five options are useful only when verifying checksums:\n"
"      --ignore-missing  don't fail or report status for missing files\n"
"      --quiet           don't print OK for each successfully verified file\n"
"      --status          don't output anything, status code shows success\n"
"      --strict          exit non-zero for improperly formatted checksum lines\n"
"  -w, --warn            warn about improperly formatted checksum lines\n"
"\n"
"      --help        display this help and exit\n"
"      --version     output version information and exit\n"
"\n"
"The sums are computed as described in RFC 1321.\n"
"When checking, the input should be a former output of this program.\n"
"The default mode is to print a line with: checksum, a space,\n"
"a character indicating input mode ('*' for binary, ' ' for text\n"
"or where binary is insignificant), and name for each FILE.\n"
"\n"
"Note: There is no difference between binary mode and text mode on GNU systems.\n";

static const char version_text[] =
"md5sum (0BSD md5sum) 1.0\n"
"A clone of GNU coreutils md5sum 9.1, in C11 with libc only.\n"
"Licence 0BSD (Zero-Clause BSD): use, copy, modify and distribute freely,\n"
"with or without fee.  There is NO WARRANTY.\n";

enum {
	OPT_IGNORE_MISSING = CHAR_MAX + 1,
	OPT_QUIET,
	OPT_STATUS,
	OPT_STRICT,
	OPT_TAG,
	OPT_HELP,
	OPT_VERSION,
	OPT_DISK,
	OPT_PROGRESS,
};

/* GNU's, in GNU's order: an ambiguous prefix's matches are listed in this
 * order. */
static const struct opt_long gnu_options[] = {
	{ "check", false, 'c' },
	{ "ignore-missing", false, OPT_IGNORE_MISSING },
	{ "quiet", false, OPT_QUIET },
	{ "status", false, OPT_STATUS },
	{ "warn", false, 'w' },
	{ "strict", false, OPT_STRICT },
	{ "tag", false, OPT_TAG },
	{ "zero", false, 'z' },
	{ "binary", false, 'b' },
	{ "text", false, 't' },
	{ "help", false, OPT_HELP },
	{ "version", false, OPT_VERSION },
	{ NULL, false, 0 },
};

/* Ours, read only where no option of GNU's matches, so that an
 * abbreviation of GNU's means here what it means to GNU, and an ambiguous
 * one gets GNU's message. */
static const struct opt_long our_options[] = {
	{ "jobs", true, 'j' },
	{ "disk", true, OPT_DISK },
	{ "progress", false, OPT_PROGRESS },
	{ NULL, false, 0 },
};

/* Say what GNU says on a wrong command line: the message msgid, if any,
 * then where to find help, in the user's language. */
static void usage_error(const char *prog, const char *msgid)
{
	struct msg m = { 0 };

	if (msgid) {
		msg_start(&m, prog);
		format_put(&m, lang_text(msgid), NULL, 0);
		msg_end(&m);
	}
	format_put(&m, lang_text("Try '%s --help' for more information.\n"), &prog, 1);
	msg_send(&m);
}

/* Add s to m between quotes, as gnulib's quote() (coreutils' argmatch). */
static void add_quoted(struct msg *m, const char *s)
{
	msg_add(m, lang_quote(false));
	msg_add(m, s);
	msg_add(m, lang_quote(true));
}

/* A number from 1 to 256, in decimal, as strtol reads it: after blanks,
 * with an optional '+' (a '-' could only make it less than 1); 0, said,
 * for anything else. */
static unsigned parse_jobs(const char *prog, const char *arg)
{
	const char *p = arg;
	unsigned n = 0;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	p += *p == '+';
	for (; *p >= '0' && *p <= '9' && n <= 256; p++)
		n = 10 * n + (unsigned)(*p - '0');
	if (*p || n < 1 || n > 256) {
		complain(prog, "invalid number of jobs: '", arg, "'", (char *)NULL);
		usage_error(prog, NULL);
		return 0;
	}
	return n;
}

/* "auto", "hdd" or "ssd", or a prefix of just one of them, given as what
 * (--disk, MD5SUM_DISK), into *disk; anything else is refused as coreutils
 * refuses such arguments: false. */
static bool parse_disk(const char *prog, const char *arg, const char *what,
		       enum disk_choice *disk)
{
	static const char *const names[] = {
		[DISK_AUTO] = "auto", [DISK_HDD] = "hdd", [DISK_SSD] = "ssd",
	};
	enum { N = sizeof names / sizeof names[0] };
	size_t len = strlen(arg), found = N, matches = 0;
	struct lang_walk w = { NULL, 0 };
	struct lang_piece p;
	struct msg m;

	for (size_t i = 0; i < N; i++) {
		if (strncmp(arg, names[i], len) == 0) {
			found = i;
			matches++;
		}
	}
	if (matches == 1) {
		*disk = (enum disk_choice)found;
		return true;
	}
	w.at = lang_text(matches ? "ambiguous argument %s for %s" : "invalid argument %s for %s");
	msg_start(&m, prog);
	while (lang_step(&w, &p)) {
		if (p.arg < 0)
			msg_put(&m, p.text, p.len);
		else
			add_quoted(&m, p.arg == 0 ? arg : what);
	}
	msg_add(&m, "\n");
	msg_add(&m, lang_text("Valid arguments are:"));
	for (size_t i = 0; i < N; i++) {
		msg_add(&m, "\n  - ");
		add_quoted(&m, names[i]);
	}
	msg_end(&m);
	usage_error(prog, NULL);
	return false;
}

/* -c's display options override each other: the last one given wins. */
static void set_verbosity(struct check_options *opt, int c)
{
	opt->status = c == OPT_STATUS;
	opt->quiet = c == OPT_QUIET;
	opt->warn = c == 'w';
}

/* Refuse the combinations GNU refuses, with its words, in its order:
 * false. */
static bool check_combinations(const char *prog, const struct cmdline *opt)
{
	const char *msg = NULL;

	if (opt->tag && opt->binary == 0)
		msg = "--tag does not support --text mode";
	else if (opt->zero && opt->check)
		msg = "the --zero option is not supported when verifying checksums";
	else if (opt->tag && opt->check)
		msg = "the --tag option is meaningless when verifying checksums";
	else if (opt->binary >= 0 && opt->check)
		msg = "the --binary and --text options are meaningless when verifying checksums";
	else if (opt->c.ignore_missing && !opt->check)
		msg = "the --ignore-missing option is meaningful only when verifying checksums";
	else if (opt->c.status && !opt->check)
		msg = "the --status option is meaningful only when verifying checksums";
	else if (opt->c.warn && !opt->check)
		msg = "the --warn option is meaningful only when verifying checksums";
	else if (opt->c.quiet && !opt->check)
		msg = "the --quiet option is meaningful only when verifying checksums";
	else if (opt->c.strict && !opt->check)
		msg = "the --strict option is meaningful only when verifying checksums";
	if (msg)
		usage_error(prog, msg);
	return !msg;
}

/* What the environment asks for: -j and --disk where these are not given
 * (given), and ours for tests and benchmarks; false, said, when a value
 * is refused. */
static bool read_environment(const char *prog, struct cmdline *opt, bool disk_given)
{
	const char *jobs = getenv("MD5SUM_JOBS"), *disk = getenv("MD5SUM_DISK");

	opt->engine = getenv("MD5SUM_ENGINE");
	opt->transform = getenv("MD5_TRANSFORM");
	if (opt->jobs == 0 && jobs && !(opt->jobs = parse_jobs(prog, jobs)))
		return false;
	return disk_given || !disk || parse_disk(prog, disk, "MD5SUM_DISK", &opt->disk);
}

int cmdline_read(struct cmdline *opt, int argc, char **argv, const char *prog)
{
	struct opts o;
	bool disk_given = false;
	int c;

	*opt = (struct cmdline){ .binary = -1 };
	opts_init(&o, argc, argv, "bcj:twz", gnu_options, our_options);
	while ((c = opts_next(&o)) != -1) {
		switch (c) {
		case 'b': opt->binary = 1; break;
		case 't': opt->binary = 0; break;
		case 'c': opt->check = true; break;
		case 'z': opt->zero = true; break;
		case 'j':
			if (!(opt->jobs = parse_jobs(prog, o.arg)))
				return -1;
			break;
		case OPT_DISK:
			if (!parse_disk(prog, o.arg, "--disk", &opt->disk))
				return -1;
			disk_given = true;
			break;
		case OPT_PROGRESS: opt->progress = true; break;
		/* --tag implies binary, and a later -t is refused. */
		case OPT_TAG: opt->tag = true; opt->binary = 1; break;
		case OPT_IGNORE_MISSING: opt->c.ignore_missing = true; break;
		case OPT_STRICT: opt->c.strict = true; break;
		case OPT_QUIET: case OPT_STATUS: case 'w': set_verbosity(&opt->c, c); break;
		case OPT_HELP: opt->text = help_text; return o.ind;
		case OPT_VERSION: opt->text = version_text; return o.ind;
		default: usage_error(prog, NULL); return -1;
		}
	}
	if (!check_combinations(prog, opt) || !read_environment(prog, opt, disk_given))
		return -1;
	return o.ind;
}

