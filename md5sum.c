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
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include <unistd.h>

#include "cmd/check.h"
#include "cmd/cmdline.h"
#include "out/errtext.h"
#include "out/lang.h"
#include "out/msg.h"
#include "out/out.h"
#include "out/progress.h"
#include "run/schedule.h"
#include "cmd/sums.h"
#include "lib/md5.h"
#include "os/thread.h"
#include "os/features.h"

/* Standard output.  Not on main's stack, which ulimit -s may keep
 * smaller than its buffer. */
static struct out standard_output;

/* Say that standard output failed, with errno's reason when there is one. */
static void complain_write_error(const char *prog)
{
	int err = errno;
	const char *text = lang_text("write error");

	if (err)
		complain(prog, text, ": ", lang_libc(error_text(err)), (char *)NULL);
	else
		complain(prog, text, (char *)NULL);
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
		complain(prog, lang_text("standard input"), ": ", lang_libc(error_text(err)),
			 (char *)NULL);
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

/* Hash the FILEs named, or with -c check them as lists, through s; how
 * they came out.  *read_stdin is set when standard input was read. */
static enum outcome hash_or_check(const struct cmdline *opt, const struct schedule *s,
				  char **names, size_t n, bool *read_stdin)
{
	if (opt->check) {
		struct check_run c = { .opt = &opt->c, .sched = s, .form = FORM_UNKNOWN };
		enum outcome o = check_lists(&c, names, n);

		*read_stdin = c.read_stdin;
		return o;
	}
	return print_sums(&(struct sums_format){ .binary = opt->binary == 1, .tag = opt->tag,
						  .zero = opt->zero },
			  s, names, n, read_stdin);
}

/* The run that opt asks for over the n FILEs names; the exit status.
 * Out of memory, the lines of the files before are out, and then GNU's
 * message: standard input is not closed then, as GNU's md5sum exits at
 * once; standard output is, as at any exit of GNU's. */
static int run(const struct cmdline *opt, char **names, size_t n, const char *prog,
	       bool stdin_closed)
{
	struct out *out = &standard_output;
	bool read_stdin = false;
	struct schedule s;
	enum outcome o;

	/* -c's verdicts are worded by the threads that hash, and the status
	 * line's thread quotes: the locale is loaded before they start. */
	if (HAS_TRANSLATIONS && (opt->check || opt->progress))
		lang_load();
	/* Standard output is ready before the schedule keeps a pointer to it. */
	out_init(out, STDOUT_FILENO, opt->zero);
	if (!schedule_for(&s, &(struct schedule_asked){ .threads = opt->jobs, .disk = opt->disk,
							.many = opt->check || n > 1,
							.stdin_closed = stdin_closed,
							.engine = opt->engine }, out, prog))
		return EXIT_FAILURE;
	if (opt->transform)
		md5_use_transform(opt->transform);
	if (opt->progress) {
		schedule_grow_fd_table(&s);
		progress_start(&(struct progress_plan){ .check = opt->check,
							.names = names, .count = n });
	}
	o = hash_or_check(opt, &s, names, n, &read_stdin);
	schedule_end(&s);
	if (o == OUTCOME_NO_MEMORY) {
		out_before_message(out);
		complain(prog, lang_text("memory exhausted"), (char *)NULL);
	}
	progress_end();
	if (!finish(prog, out, read_stdin && o != OUTCOME_NO_MEMORY, stdin_closed))
		o = OUTCOME_FAILED;
	return o == OUTCOME_OK ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* The command: options, then hashing or checking; the exit status. */
static int run_command(int argc, char **argv)
{
	static char stdin_name[] = "-";
	char *just_stdin[] = { stdin_name };
	const char *prog = program_name(argv[0]);
	bool stdin_closed = stdin_was_closed();
	struct cmdline opt;
	int first = cmdline_read(&opt, argc, argv, prog);

	if (first < 0)
		return EXIT_FAILURE;
	if (opt.text)
		print_and_exit(prog, opt.text);
	return run(&opt, first < argc ? argv + first : just_stdin,
		   first < argc ? (size_t)(argc - first) : 1, prog, stdin_closed);
}

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

int main(int argc, char **argv)
{
	struct command c = { .argc = argc, .argv = argv };

	if (HAS_OWN_STACK && stack_is_small() && run_on_own_stack(&c))
		return c.status;
	return run_command(argc, argv);
}
