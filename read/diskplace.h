/* diskplace.h - where a file begins on its disk, and whether files come
 * in the disk's order.
 *
 * So that the files of a spinning disk can be read in the order the disk
 * holds them, which spares it the seeks between them (disk.h).  Where the
 * file system tells it (Linux: FIEMAP), the place is its first extent's
 * physical offset; else its inode number, which file systems tend to hand
 * out in the order they place files.  Places of the one kind on the one
 * disk compare as the disk's order; a physical offset and an inode number
 * do not compare.  A leaf; thread-safe, but for a diskplace_order,
 * which its user guards. */
#ifndef DISKPLACE_H
#define DISKPLACE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The place of the file open as fd, whose inode is ino: its physical
 * offset with *placed true, else ino with *placed false. */
uint64_t diskplace_of(int fd, ino_t ino, bool *placed);

/* A run of the disk: files that follow on from each other, read in one
 * pass.  A gap ends the run where files may still come into it: just
 * after a file among the DISKPLACE_FRESH latest handed in, for a list in
 * disk order is opened in more than one place at once (a batch of it a
 * thread), and the files to come of one place would be read between the
 * others, a seek there and one back for each.  Past a file handed in
 * before those, the gap is one no file is coming into.  How wide a gap
 * among the latest may be depends on the order the files come in: in
 * the disk's, the unused end of a file's last block (DISKPLACE_PAD), as
 * a wider one is the place of a file still to come; in no order, as from
 * a shuffled list, DISKPLACE_GAP, for a file between them comes at any
 * time, and the run read in one pass is worth the seek back to it. */
enum { DISKPLACE_PAD = 4 * 1024, DISKPLACE_GAP = 32 * 1024, DISKPLACE_FRESH = 32 };

/* Whether files come in the disk's order, as from a list in that order
 * opened a batch at a time by a few threads: of the latest 32 handed in,
 * most followed on from one of the DISKPLACE_ENDS handed in just before
 * (at most DISKPLACE_PAD after its end).  Starts as not: zeros. */
enum { DISKPLACE_ENDS = 8 };
struct diskplace_order {
	uint64_t end[DISKPLACE_ENDS];	/* where the latest end; a ring */
	uint32_t followed;	/* a bit a file, the latest lowest */
	unsigned next;		/* the ring's oldest */
};

/* The place of a file whose place is an inode number, not an offset. */
#define DISKPLACE_NOWHERE UINT64_MAX

/* A file handed in at where (DISKPLACE_NOWHERE: not placed), size bytes
 * long, counted in o.  Pure but for o. */
void diskplace_note(struct diskplace_order *o, uint64_t where, uint64_t size);

/* Whether o says the files come in the disk's order.  Pure. */
bool diskplace_in_order(const struct diskplace_order *o);

/* Whether a file that begins at where (a physical offset) goes on the
 * run that ends at end, whose last file was handed in ago files before
 * the latest, the files coming in the disk's order (in_order) or not.
 * Pure. */
bool diskplace_runs_on(uint64_t end, uint64_t where, uint64_t ago, bool in_order);

#endif
