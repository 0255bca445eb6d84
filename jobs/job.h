/* job.h - one input, as it passes from where names come from (source.h)
 * through the stages that hash it to what it prints (results.h).
 *
 * A data header: no module of its own. */
#ifndef JOB_H
#define JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/md5.h"

/* One file to hash and, once hashed, what came of it. */
struct job {
	char *name;		/* the file; "-" is standard input */
	bool no_file;		/* a list's line that names no file: nothing
				 * to hash, only the line to report */
	int err;		/* result: 0, or the errno that stopped it */
	uint8_t digest[MD5_DIGEST_LENGTH];	/* result: when err is 0 */
	/* Where a list's line named it (-c): source.c writes this, results.c
	 * reads it, and no stage between looks at it. */
	struct {
		uintmax_t line;	/* number of the line in its list */
		uintmax_t end;	/* bytes of the list up to the line's end */
		uint8_t digest[MD5_DIGEST_LENGTH];	/* the digest listed */
	} listed;
};

#endif
