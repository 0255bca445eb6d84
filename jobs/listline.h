/* listline.h - one line of a checksum list, parsed as md5sum -c reads it.
 *
 * A line is "DIGEST  NAME" or "DIGEST *NAME", as md5sum prints it, or
 * "MD5 (NAME) = DIGEST", as md5sum --tag and BSD md5 print it; blanks may
 * lead it.  A leading backslash means NAME is escaped: \\, \n and \r
 * stand for a backslash, a newline and a carriage return.  Empty lines and
 * those that begin with '#' are skipped, not counted as bad.
 *
 * Pure: no I/O and no state but what the caller passes in, the line form
 * (line_form), which carries from line to line and list to list.  -c
 * refuses -z, so no option changes how a line is read. */
#ifndef LISTLINE_H
#define LISTLINE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/md5.h"

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
