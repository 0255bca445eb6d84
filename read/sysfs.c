/* sysfs.c - whether the storage under a file system rotates, from sysfs.
 *
 * Known limits: a file system with no block device of its own (tmpfs,
 * FUSE, NFS, overlay; btrfs too, whose st_dev is anonymous) is unknown,
 * whatever lies beneath it; a disk that misreports is believed;
 * a loop device answers with its own flag; answers last the process. */
#include "read/sysfs.h"

#ifdef __linux__

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "out/decimal.h"

/* Real stacks are a few deep; this only stops a loop in slaves/. */
#define MAX_DEPTH 8
#define CACHE_SIZE 16

static struct {
	dev_t dev;
	bool rotates;
} cache[CACHE_SIZE];
static unsigned cache_used;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static bool dir_rotates(int dir, int depth);

static int open_dir(int at, const char *name)
{
	return openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* Whether dir holds a file called name (no faccessat: musl's brings in a
 * child process for the static build). */
static bool has_file(int dir, const char *name)
{
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);

	return fd >= 0 && close(fd) == 0;
}

static bool flag_is_set(int dir, const char *name)
{
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	char c;

	if (fd < 0)
		return false;
	n = read(fd, &c, 1);
	return close(fd) == 0 && n == 1 && c == '1';
}

/* One spinning disk anywhere in a stack sets the pace of reads across
 * it, and dm fixes its own flag when its table is loaded, so ask the
 * devices under it.  Returns -1 if dir has none; 0 if slaves/ cannot be
 * read, since a failure reads as not rotating. */
static int slaves_rotate(int dir, int depth)
{
	int fd = open_dir(dir, "slaves"), rotates = -1;
	struct dirent *e;
	DIR *d;

	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	do {
		errno = 0;
		e = readdir(d);
		if (e && e->d_name[0] != '.') {
			fd = open_dir(dirfd(d), e->d_name);
			rotates = fd >= 0 && dir_rotates(fd, depth + 1);
		}
	} while (e && rotates != 1);
	if (!e && errno)
		rotates = 0;
	return closedir(d) == 0 ? rotates : 0;
}

/* A partition has no queue of its own: its disk is the directory above
 * it (sysfs resolves .. from where the device really sits). */
static bool dir_rotates(int dir, int depth)
{
	int rotates, parent;

	if (depth > MAX_DEPTH) {
		rotates = 0;
	} else if (has_file(dir, "partition")) {
		parent = open_dir(dir, "..");
		rotates = parent >= 0 && dir_rotates(parent, depth + 1);
	} else {
		rotates = slaves_rotate(dir, depth);
		if (rotates < 0)
			rotates = flag_is_set(dir, "queue/rotational");
	}
	return close(dir) == 0 && rotates;
}

static bool look_up(dev_t dev)
{
	/* No snprintf: it would bring printf into the static build. */
	char path[48] = "/sys/dev/block/", *p = path + strlen(path), num[DECIMAL_SIZE];
	int dir;

	p = stpcpy(p, decimal(major(dev), num));
	*p++ = ':';
	stpcpy(p, decimal(minor(dev), num));
	dir = open_dir(AT_FDCWD, path);
	return dir >= 0 && dir_rotates(dir, 0);
}

enum sysfs_kind sysfs_kind(dev_t dev)
{
	bool rotates;
	unsigned i;

	/* Major 0 is the kernel's anonymous devices: nothing beneath. */
	if (major(dev) == 0)
		return SYSFS_UNKNOWN;
	/* Held across a look-up too: sysfs is in memory, and two threads
	 * then never race to add the same device. */
	if (pthread_mutex_lock(&cache_lock) != 0)
		return look_up(dev) ? SYSFS_SPINNING : SYSFS_SOLID;
	for (i = 0; i < cache_used && cache[i].dev != dev; i++)
		;
	if (i < cache_used) {
		rotates = cache[i].rotates;
	} else {
		rotates = look_up(dev);
		if (i < CACHE_SIZE) {
			cache[i].dev = dev;
			cache[i].rotates = rotates;
			cache_used++;
		}
	}
	pthread_mutex_unlock(&cache_lock);
	return rotates ? SYSFS_SPINNING : SYSFS_SOLID;
}

#else

enum sysfs_kind sysfs_kind(dev_t dev)
{
	(void)dev;
	return SYSFS_UNKNOWN;
}

#endif
