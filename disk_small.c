/* disk_small.c - disk.h for the small static build: no disk readers.
 * Files on a spinning disk are read one at a time, in input order, where
 * they come (route.h: READ_NOW), as GNU reads them. */
#include "disk.h"

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
