/* check.h - reading the lines of a checksum list (md5sum -c). */
#ifndef CHECK_H
#define CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "md5.h"

enum line_kind {
	LINE_SKIP,		/* blank line or comment: not counted */
	LINE_BAD,		/* improperly formatted */
	LINE_CHECKSUM,		/* a digest and a file name */
};

/* Which of GNU's "DIGEST  NAME" and "DIGEST NAME" forms the run has met
 * first: once one is seen, the other is taken as part of the name or
 * refused, across every list of the run. */
enum line_form { FORM_UNKNOWN = -1, FORM_TWO_SPACES = 0, FORM_ONE_SPACE = 1 };

/* Parse line s of len bytes (a trailing "\n" or "\r\n" is allowed; s[len]
 * must be writable).  For LINE_CHECKSUM, set *name to the file name, a
 * string inside s (unescaped, so s is changed), and digest to the listed
 * digest.  *form carries the line form from line to line. */
enum line_kind parse_check_line(char *s, size_t len, enum line_form *form,
				char **name, uint8_t digest[MD5_DIGEST_LENGTH]);

#endif
