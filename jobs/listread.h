/* listread.h - a checksum list read a line at a time from a descriptor, as
 * GNU md5sum reads one through stdio's getline: a buffer of the file's
 * block size at a time (at most 8 KiB, as glibc's stdio), one read(2) per
 * buffer, none retried; each line whole with its newline and any NULs in
 * it, and a NUL after it.  A failed read ends the list, after the part of
 * a line read before it, as glibc's getline gives it.  A line that does
 * not fit in memory is kept as far as it was read, for the caller to try
 * again when it has freed memory of its own, or to take for the end of
 * the list, as GNU md5sum takes getline's failing. */
#ifndef LISTREAD_H
#define LISTREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct listread {
	int fd;
	bool never_waits;	/* a regular file: a read does not wait */
	int err;		/* the errno of a failed read, or 0 */
	bool eof;		/* the end was read: never read again */
	bool short_of_memory;	/* the last call's line did not fit: what
				 * was read of it is kept for the next */
	char *buf;		/* read but not yet given: buf[pos..len) */
	size_t size, pos, len;
	char *line;		/* the last line given, or the start of the
				 * next, line_len bytes, after a LISTREAD_LATER */
	size_t line_size, line_len;
};

/* listread_line's answer when it was not to wait, and a read would. */
enum { LISTREAD_LATER = -2 };

/* Read the list open at fd; false when there is no memory for it. */
bool listread_init(struct listread *l, int fd);
void listread_free(struct listread *l);

/* The next line, at l->line: its length, or -1 when there is none: at the
 * end (l->eof), after a failed read (l->err), or when the line does not
 * fit in memory (l->short_of_memory, until the next call).  Unless wait, LISTREAD_LATER when a read would wait
 * for the writer of a pipe, a FIFO or a terminal: what was read of the
 * line is kept for the next call. */
ssize_t listread_line(struct listread *l, bool wait);

/* The buffer that holds the line last given, for the caller to free: the
 * next line goes into one of its own.  For a long line, which is then
 * never copied. */
char *listread_take_line(struct listread *l);

#endif
