/* sums.h - md5sum FILE...: hash each file and print its line, in order:
 * "DIGEST  NAME", "DIGEST *NAME" (binary) or "MD5 (NAME) = DIGEST" (tag),
 * with a leading backslash when NAME is escaped; a file that cannot be
 * read gets GNU's message on standard error instead. */
#ifndef SUMS_H
#define SUMS_H

#include <stdbool.h>
#include <stddef.h>

#include "jobs/results.h"
#include "run/schedule.h"


/* Hash names[0..count) ("-" is standard input) through s and print a line
 * for each: OUTCOME_FAILED when some file could not be read,
 * OUTCOME_NO_MEMORY as schedule_run says.  Sets *read_stdin when one of
 * the names is "-". */
enum outcome print_sums(const struct sums_format *f, const struct schedule *s,
			char **names, size_t count, bool *read_stdin);

#endif
