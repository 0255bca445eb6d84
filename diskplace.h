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

#endif
