/* mountinfo.h - the type of file system a device is mounted as, read from
 * /proc/self/mountinfo: a local read, with no request to the file system
 * itself (on a network file system, statfs is a round trip).  Linux only;
 * elsewhere, and wherever the file cannot be read whole, nothing is told.
 * Each call reads the file afresh: the caller keeps the answer. */
#ifndef MOUNTINFO_H
#define MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The type's name of the file system mounted as device dev ("nfs4",
 * "fuse.sshfs") into type, of size bytes; false where it cannot be told
 * (no such line, or a name too long for type). */
bool mountinfo_type(dev_t dev, char *type, size_t size);

#endif
