/* cmdline.h - the command line of md5sum read into what the run is asked
 * to do, as GNU md5sum 9.1 reads it.
 *
 * GNU's options mean what they mean to GNU, abbreviated or not; ours
 * (-j, --disk, --progress) are read only where none of GNU's matches
 * (opts.h).  A wrong option, a wrong argument, or a combination that GNU
 * refuses is told on standard error in GNU's words, and handed back, the
 * command to exit with status 1: nothing of the run has begun by then.
 * The command's environment is read here, and nowhere else but opts.h's
 * POSIXLY_CORRECT and the locale's variables (lang.h, and the C
 * library's setlocale and gettext): MD5SUM_JOBS and MD5SUM_DISK stand for -j and --disk
 * when these are not given; MD5SUM_ENGINE and MD5_TRANSFORM are handed
 * on.  --help and --version are not printed here: standard output is the
 * command's (md5sum.c), so their text is handed back to print. */
#ifndef CMDLINE_H
#define CMDLINE_H

#include <stdbool.h>

#include "jobs/results.h"
#include "run/decide.h"

/* The command line, once read. */
struct cmdline {
	int binary;		/* -b: 1, -t: 0, neither: -1 */
	bool tag;		/* --tag: BSD-style lines */
	bool zero;		/* -z: NUL-ended lines, no name escaping */
	bool check;		/* -c: the files are checksum lists */
	struct check_options c;	/* the options of -c alone */
	unsigned jobs;		/* -j: worker threads; 0 when not given */
	enum disk_choice disk;	/* --disk */
	bool progress;		/* --progress */
	const char *engine;	/* MD5SUM_ENGINE: the one lane engine to use
				 * (schedule.h), or NULL */
	const char *transform;	/* MD5_TRANSFORM: the one-stream transform
				 * to use (md5.h), or NULL */
	const char *text;	/* --help or --version: the text to print
				 * instead of a run, with the program's name
				 * for its one "%s"; the rest is then unread.
				 * NULL for a run. */
};

/* Read argc and argv, and the environment, into opt, prog naming the
 * program in messages; return the index of the first FILE, once the FILEs
 * are moved after the options, or -1 when the command line is refused
 * (said on standard error). */
int cmdline_read(struct cmdline *opt, int argc, char **argv, const char *prog);

#endif
