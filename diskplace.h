/* diskplace.h - where a file begins on its disk.
 *
 * So that the files of a spinning disk can be read in the order the disk
 * holds them, which spares it the seeks between them (disk.h).  Where the
 * file system tells it (Linux: FIEMAP), the place is its first extent's
 * physical offset; else its inode number, which file systems tend to hand
 * out in the order they place files.  Places of the one kind on the one
 * disk compare as the disk's order; a physical offset and an inode number
 * do not compare.  A leaf; thread-safe. */
#ifndef DISKPLACE_H
#define DISKPLACE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The place of the file open as fd, whose inode is ino: its physical
 * offset with *placed true, else ino with *placed false. */
uint64_t diskplace_of(int fd, ino_t ino, bool *placed);

/* A run of the disk: files that follow on from each other, with at most
 * DISKPLACE_GAP bytes between one's end and the next one's start, read
 * in one pass.  A wider gap ends the run where files may still come into
 * it: just after a file among the DISKPLACE_FRESH latest handed in, for
 * a list in disk order is opened in more than one place at once (a batch
 * of it a thread), and the files to come of one place would be read
 * between the others, a seek there and one back for each.  Past a file
 * handed in before those, the gap is one no file is coming into. */
enum { DISKPLACE_GAP = 32 * 1024, DISKPLACE_FRESH = 32 };

/* Whether a file that begins at where (a physical offset) goes on the run
 * that ends at end, whose last file was handed in ago files before the
 * latest.  Pure. */
bool diskplace_runs_on(uint64_t end, uint64_t where, uint64_t ago);

#endif
