/* device.h - which kind of storage a file lives on.
 *
 * Asked of a file's st_dev, so that md5sum can read a spinning disk one
 * file at a time and keep many reads in flight elsewhere.  Only Linux
 * says (from sysfs); elsewhere the answer is DEVICE_UNKNOWN, and wherever
 * a block device's answer cannot be read, DEVICE_SOLID.  Each device is
 * looked up once and cached.  Thread-safe. */
#ifndef DEVICE_H
#define DEVICE_H

#include <stdbool.h>
#include <sys/types.h>

enum device_kind {
	DEVICE_UNKNOWN,		/* no block device under it: tmpfs, FUSE, NFS */
	DEVICE_SOLID,		/* a block device that does not rotate */
	DEVICE_SPINNING,	/* one that rotates, or a stack over one */
};

/* The kind of storage under the file system of device dev. */
enum device_kind device_kind(dev_t dev);

#endif
