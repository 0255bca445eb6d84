/* md5sum - print or check MD5 (128-bit) checksums, as GNU coreutils does.
 *
 * usage: md5sum [-bctwz] [-j N] [FILE]...
 *
 * Print the MD5 digest of each FILE, or of standard input when FILE is "-"
 * or absent.  With -c, each FILE is a list of digests and names to verify.
 *
 * -b	binary mode: mark lines with '*'	-t  text mode (default)
 * -c	check the digests listed in FILEs	-z  end lines with NUL, no escaping
 * -w	warn about improperly formatted lines	-j  hash N files at once
 * --tag	BSD-style lines: MD5 (NAME) = DIGEST
 * --disk=hdd|ssd|auto	read files as on a spinning disk, or not
 * --progress	a status line on standard error, when it is a terminal
 * --ignore-missing, --quiet, --status, --strict: see --help */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "errtext.h"
#include "lanes.h"
#include "msg.h"
#include "opts.h"
#include "out.h"
#include "progress.h"
#include "schedule.h"
#include "sums.h"
#include "thread.h"

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

/* The command line, once parsed. */
struct cmdline {
	int binary;		/* -b: 1, -t: 0, neither: -1 */
	bool tag;		/* --tag: BSD-style lines */
	bool zero;		/* -z: NUL-ended lines, no name escaping */
	bool check;		/* -c: the files are checksum lists */
	struct check_options c;	/* the options of -c alone */
	unsigned jobs;		/* -j: worker threads; 0 when not given */
	enum disk_choice disk;	/* --disk */
	bool progress;		/* --progress */
};

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

/* Standard output.  Not on main's stack, which ulimit -s may keep
 * smaller than its buffer. */
static struct out standard_output;

static _Noreturn void usage_error(const char *prog, const char *msg)
{
	struct msg m = { 0 };

	if (msg)
		complain(prog, msg, (char *)NULL);
	msg_add(&m, "Try '");
	msg_add(&m, prog);
	msg_add(&m, " --help' for more information.");
	msg_end(&m);
	exit(EXIT_FAILURE);
}

/* Say that standard output failed, with errno's reason when there is one. */
static void complain_write_error(const char *prog)
{
	if (errno)
		complain(prog, "write error: ", error_text(errno), (char *)NULL);
	else
		complain(prog, "write error", (char *)NULL);
}

/* Print text, with the program's name for its "%s", and exit.  The text
 * goes out before the close, so a failure to write it is told as GNU tells
 * it: "write error", without a reason. */
static _Noreturn void print_and_exit(const char *prog, const char *text)
{
	struct out *o = &standard_output;
	/* The only '%' in the texts is that of "%s". */
	const char *mark = strchr(text, '%');

	out_init(o, STDOUT_FILENO, false);
	if (mark) {
		out_put(o, text, (size_t)(mark - text));
		out_str(o, prog);
		text = mark + 2;
	}
	out_put(o, text, strlen(text) - 1);
	out_end_line(o, '\n');
	out_flush(o);
	if (!out_close(o)) {
		complain_write_error(prog);
		exit(EXIT_FAILURE);
	}
	exit(EXIT_SUCCESS);
}

/* A number from 1 to 256, in decimal, as strtol reads it: after blanks,
 * with an optional '+' (a '-' could only make it less than 1). */
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
	}
	return n;
}

/* "auto", "hdd" or "ssd", or a prefix of just one of them, given as what
 * (--disk, MD5SUM_DISK); anything else is refused as coreutils refuses
 * such arguments. */
static enum disk_choice parse_disk(const char *prog, const char *arg,
				   const char *what)
{
	static const char *const names[] = {
		[DISK_AUTO] = "auto", [DISK_HDD] = "hdd", [DISK_SSD] = "ssd",
	};
	enum { N = sizeof names / sizeof names[0] };
	size_t len = strlen(arg), found = N, matches = 0;
	struct msg m;

	for (size_t i = 0; i < N; i++) {
		if (strncmp(arg, names[i], len) == 0) {
			found = i;
			matches++;
		}
	}
	if (matches == 1)
		return (enum disk_choice)found;
	msg_start(&m, prog);
	msg_add(&m, matches ? "ambiguous argument '" : "invalid argument '");
	msg_add(&m, arg);
	msg_add(&m, "' for '");
	msg_add(&m, what);
	msg_add(&m, "'\nValid arguments are:");
	for (size_t i = 0; i < N; i++) {
		msg_add(&m, "\n  - '");
		msg_add(&m, names[i]);
		msg_add(&m, "'");
	}
	msg_end(&m);
	usage_error(prog, NULL);
}

/* -c's display options override each other: the last one given wins. */
static void set_verbosity(struct check_options *opt, int c)
{
	opt->status = c == OPT_STATUS;
	opt->quiet = c == OPT_QUIET;
	opt->warn = c == 'w';
}

/* Reject the combinations GNU rejects, with its words, in its order. */
static void check_combinations(const char *prog, const struct cmdline *opt)
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
}

/* Fill in opt from the command line; return the index of the first FILE,
 * once the FILEs are moved after the options. */
static int parse_options(int argc, char **argv, const char *prog,
			 struct cmdline *opt)
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
		case 'j': opt->jobs = parse_jobs(prog, o.arg); break;
		case OPT_DISK: opt->disk = parse_disk(prog, o.arg, "--disk"); disk_given = true; break;
		case OPT_PROGRESS: opt->progress = true; break;
		/* --tag implies binary, and a later -t is refused. */
		case OPT_TAG: opt->tag = true; opt->binary = 1; break;
		case OPT_IGNORE_MISSING: opt->c.ignore_missing = true; break;
		case OPT_STRICT: opt->c.strict = true; break;
		case OPT_QUIET: case OPT_STATUS: case 'w': set_verbosity(&opt->c, c); break;
		case OPT_HELP: print_and_exit(prog, help_text);
		case OPT_VERSION: print_and_exit(prog, version_text);
		default: usage_error(prog, NULL);
		}
	}
	check_combinations(prog, opt);
	if (opt->jobs == 0 && getenv("MD5SUM_JOBS"))
		opt->jobs = parse_jobs(prog, getenv("MD5SUM_JOBS"));
	if (!disk_given && getenv("MD5SUM_DISK"))
		opt->disk = parse_disk(prog, getenv("MD5SUM_DISK"), "MD5SUM_DISK");
	return o.ind;
}

/* Close standard input when it was read, and standard output; false
 * when that reveals an error. */
static bool finish(const char *prog, struct out *out, bool read_stdin,
		   bool stdin_closed)
{
	bool ok = true;

	out_flush(out);
	if (read_stdin && (stdin_closed || close(STDIN_FILENO) != 0)) {
		int err = stdin_closed ? EBADF : errno;

		out_before_message(out);
		complain(prog, "standard input: ", error_text(err), (char *)NULL);
		ok = false;
	}
	if (!out_close(out)) {
		complain_write_error(prog);
		ok = false;
	}
	return ok;
}

/* The name for messages, as GNU's: argv[0], except that a libtool wrapper's
 * "DIR/.libs/lt-NAME" is called NAME. */
static const char *program_name(const char *argv0)
{
	const char *base = strrchr(argv0, '/');

	if (base && base - argv0 >= 6 && strncmp(base - 6, "/.libs", 6) == 0) {
		argv0 = base + 1;
		if (strncmp(argv0, "lt-", 3) == 0)
			argv0 += 3;
	}
	return argv0;
}

/* GNU reads standard input through stdio, so a closed one fails with EBADF
 * even when a list opened later takes descriptor 0.  Keep 0 taken by
 * /dev/null, and remember that it was closed. */
static bool stdin_was_closed(void)
{
	if (fcntl(STDIN_FILENO, F_GETFD) != -1 || errno != EBADF)
		return false;
	(void)open("/dev/null", O_RDONLY);
	return true;
}

/* The command: options, then hashing or checking; the exit status. */
static int run_command(int argc, char **argv)
{
	static char stdin_name[] = "-";
	char *just_stdin[] = { stdin_name };
	const char *prog = program_name(argv[0]);
	bool stdin_closed = stdin_was_closed(), read_stdin = false;
	struct cmdline opt;
	int first = parse_options(argc, argv, prog, &opt);
	char **names = first < argc ? argv + first : just_stdin;
	size_t n = first < argc ? (size_t)(argc - first) : 1;
	struct out *out = &standard_output;
	struct schedule s;
	bool ok;

	out_init(out, STDOUT_FILENO, opt.zero);
	s = schedule_for(&(struct schedule_asked){ .threads = opt.jobs, .disk = opt.disk,
						   .many = opt.check || n > 1,
						   .stdin_closed = stdin_closed }, out, prog);
	if (opt.progress) {
		schedule_prepare(&s);
		progress_start(&(struct progress_plan){ .check = opt.check,
							.names = names, .count = n });
	}
	if (opt.check) {
		struct check_run c = { .opt = &opt.c, .sched = &s, .form = FORM_UNKNOWN };

		ok = check_lists(&c, names, n);
		read_stdin = c.read_stdin;
	} else {
		struct sums_format f = { .binary = opt.binary == 1, .tag = opt.tag,
					 .zero = opt.zero };

		ok = print_sums(&f, &s, names, n, &read_stdin);
	}
	progress_end();
	ok &= finish(prog, out, read_stdin, stdin_closed);
	return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

#ifndef MD5SUM_SMALL
/* Below this limit on the stack (ulimit -s), where GNU still runs, the
 * command runs on a thread of its own, whose stack is ours to size
 * (thread.h): our calls go deeper than GNU's (lanes, threads, messages),
 * and the limit is one of the main thread's alone. */
enum { STACK_LIMIT_SMALL = 256 * 1024 };

static bool stack_is_small(void)
{
	struct rlimit lim;

	return getrlimit(RLIMIT_STACK, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
	       lim.rlim_cur < STACK_LIMIT_SMALL;
}

struct command {
	int argc;
	char **argv;
	int status;
	sigset_t mask;		/* the signals the main thread let through */
};

static void *command_thread(void *arg)
{
	struct command *c = arg;

	pthread_sigmask(SIG_SETMASK, &c->mask, NULL);
	c->status = run_command(c->argc, c->argv);
	return NULL;
}

/* Run the command on a thread with a stack of our size, the main thread
 * taking no signal while it waits, as its stack may not hold a handler's
 * frame: false, having run nothing, when no thread can be had. */
static bool run_on_own_stack(struct command *c)
{
	sigset_t all;
	pthread_t t;

	sigfillset(&all);
	if (pthread_sigmask(SIG_BLOCK, &all, &c->mask) != 0)
		return false;
	if (thread_start(&t, command_thread, c) != 0) {
		pthread_sigmask(SIG_SETMASK, &c->mask, NULL);
		return false;
	}
	pthread_join(t, NULL);
	return true;
}

#endif

int main(int argc, char **argv)
{
#ifndef MD5SUM_SMALL
	struct command c = { .argc = argc, .argv = argv };

	if (stack_is_small() && run_on_own_stack(&c))
		return c.status;
#endif
	return run_command(argc, argv);
}
