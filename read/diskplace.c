/* diskplace.c - a file's first extent from FIEMAP; see diskplace.h. */
#include "read/diskplace.h"

#include <string.h>

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/fiemap.h>) && __has_include(<linux/fs.h>)
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#define HAVE_FIEMAP 1
#endif
#endif

uint64_t diskplace_of(int fd, ino_t ino, bool *placed)
{
#ifdef HAVE_FIEMAP
	union {
		struct fiemap map;
		char room[sizeof(struct fiemap) + sizeof(struct fiemap_extent)];
	} f;

	memset(&f, 0, sizeof f);
	f.map.fm_length = FIEMAP_MAX_OFFSET;
	f.map.fm_extent_count = 1;
	if (ioctl(fd, FS_IOC_FIEMAP, &f.map) == 0 && f.map.fm_mapped_extents == 1) {
		*placed = true;
		return f.map.fm_extents[0].fe_physical;
	}
#else
	(void)fd;
#endif
	*placed = false;
	return (uint64_t)ino;
}

/* Of the latest 32 handed in, those that followed on when files come in
 * the disk's order: most. */
enum { IN_ORDER_FOLLOWED = 16 };

/* Whether a file that begins at where follows on from one that ends at
 * end: at most DISKPLACE_PAD after it. */
static bool follows(uint64_t end, uint64_t where)
{
	return end != 0 && where >= end && where - end <= DISKPLACE_PAD;
}

void diskplace_note(struct diskplace_order *o, uint64_t where, uint64_t size)
{
	bool on = false;

	for (unsigned k = 0; k < DISKPLACE_ENDS && where != DISKPLACE_NOWHERE && !on; k++)
		on = follows(o->end[k], where);
	o->followed = o->followed << 1 | on;
	o->end[o->next] = where != DISKPLACE_NOWHERE ? where + size : 0;
	o->next = (o->next + 1) % DISKPLACE_ENDS;
}

bool diskplace_in_order(const struct diskplace_order *o)
{
	unsigned n = 0;

	for (uint32_t m = o->followed; m; m &= m - 1)
		n++;
	return n >= IN_ORDER_FOLLOWED;
}

bool diskplace_runs_on(uint64_t end, uint64_t where, uint64_t ago, bool in_order)
{
	return where <= end + (in_order ? DISKPLACE_PAD : DISKPLACE_GAP) ||
	       ago > DISKPLACE_FRESH;
}
