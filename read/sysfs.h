/* sysfs.h - which kind of storage a file lives on.
 *
 * Asked of a file's st_dev, so that md5sum can read a spinning disk one
 * file at a time and keep many reads in flight elsewhere.  Only Linux
 * says (from sysfs); elsewhere the answer is SYSFS_UNKNOWN, and wherever
 * a block device's answer cannot be read, SYSFS_SOLID.  Each device is
 * looked up once and cached.  Thread-safe. */
#ifndef SYSFS_H
#define SYSFS_H

#include <stdbool.h>
#include <sys/types.h>

enum sysfs_kind {
	SYSFS_UNKNOWN,		/* no block device under it: tmpfs, FUSE, NFS */
	SYSFS_SOLID,		/* a block device that does not rotate */
	SYSFS_SPINNING,	/* one that rotates, or a stack over one */
};

/* The kind of storage under the file system of device dev. */
enum sysfs_kind sysfs_kind(dev_t dev);

#endif
