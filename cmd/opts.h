/* opts.h - the command line read as glibc's getopt_long reads it, with its
 * messages, whatever the libc: musl's getopt_long words its messages
 * otherwise and ignores POSIXLY_CORRECT.
 *
 * Options and operands may come in any order; the operands keep theirs.
 * "--" ends the options, "-" is an operand, short options cluster (-bz)
 * and take their argument attached or as the next element (-j4, -j 4), long
 * ones take it after '=' or as the next element, and any unambiguous prefix
 * of a long option names it.  With POSIXLY_CORRECT set the options end at
 * the first operand.
 *
 * A program may add long options to a set that another program defines
 * (md5sum adds its own to GNU md5sum's) without changing what that set
 * means: the added ones are read only for a name that no option of the set
 * begins, so the set's abbreviations and its list of an ambiguous one stay
 * as they were. */
#ifndef OPTS_H
#define OPTS_H

#include <stdbool.h>

struct opt_long {
	const char *name;	/* without the "--" */
	bool has_arg;		/* takes an argument, which is required */
	int val;		/* what opts_next returns for it */
};

/* The state of one reading of a command line. */
struct opts {
	int argc;
	char **argv;		/* argv[0] begins every message, as given */
	const char *shorts;	/* "bcj:": letters, ':' after one with an argument */
	const struct opt_long *longs;	/* in the order messages list them;
					 * a NULL name ends them */
	const struct opt_long *added;	/* the same, read only for a name
					 * that begins none of longs; or NULL */
	bool posix;		/* the options end at the first operand */
	int ind;		/* the next element to read */
	int operands;		/* operands met so far, moved to argv[1..] */
	char *cluster;		/* the rest of a cluster of short options */
	char *arg;		/* the argument of the option just returned */
};

void opts_init(struct opts *o, int argc, char **argv, const char *shorts,
	       const struct opt_long *longs, const struct opt_long *added);

/* The next option: its letter or val, with its argument in o->arg.  '?'
 * when it is wrong, after a message on standard error.  -1 at the end; the
 * operands, in order, are then argv[o->ind..argc). */
int opts_next(struct opts *o);

#endif
