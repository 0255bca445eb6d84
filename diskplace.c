/* diskplace.c - a file's first extent from FIEMAP; see diskplace.h. */
#include "diskplace.h"

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

bool diskplace_runs_on(uint64_t end, uint64_t where, uint64_t ago)
{
	return where <= end + DISKPLACE_GAP || ago > DISKPLACE_FRESH;
}
