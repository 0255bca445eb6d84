/* disk_none.c - the small static build's stand-in for disk.c, which it
 * has no room for (os/features.h: HAS_DISK_READERS): no disk has a
 * reader, and files that must come from a spinning disk are read one at
 * a time, in input order, where they come (decide.h: READ_NOW), as GNU
 * reads them. */
#include "read/disk.h"

struct disks *disks_start(unsigned waiting)
{
	(void)waiting;
	return NULL;
}

bool disks_submit(struct disks *d, struct task *t, const struct disk_file *f)
{
	(void)d;
	(void)t;
	(void)f;
	return false;
}

uint64_t disks_work(struct disks *d)
{
	(void)d;
	return 0;
}

bool disks_held(struct disks *d)
{
	(void)d;
	return false;
}

void disks_stop(struct disks *d)
{
	(void)d;
}
