/* device_probe.c - what sysfs_kind() says of the device under a file.
 *
 *   device_probe PATH...   one line a path: rotational, non-rotational or
 *                          no block device
 *   device_probe -t PATH   ask, wait for a line on stdin, ask again; the
 *                          second answer is the cached one, whatever sysfs
 *                          says by then
 *   device_probe -f -t PATH  the same after filling the cache with other
 *                          devices, so that both answers are looked up
 *
 * Exits 1 if a path cannot be stat'ed, 2 on a usage error. */
#include "read/sysfs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/sysmacros.h>
#endif

static int usage(void)
{
	fputs("usage: device_probe [-f] [-t] PATH...\n", stderr);
	return 2;
}

static int answer(dev_t dev)
{
	static const char *const words[] = {
		[SYSFS_UNKNOWN] = "no block device",
		[SYSFS_SOLID] = "non-rotational",
		[SYSFS_SPINNING] = "rotational",
	};

	return puts(words[sysfs_kind(dev)]) < 0 || fflush(stdout) != 0;
}

/* More devices than the cache holds; none of them has a sysfs entry. */
static int fill_cache(void)
{
#ifdef __linux__
	unsigned i;

	for (i = 0; i < 64; i++)
		sysfs_kind(makedev(4095, i));
	return 0;
#else
	fputs("device_probe: -f: Linux only\n", stderr);
	return 1;
#endif
}

static void wait_for_line(void)
{
	int c;

	do
		c = getchar();
	while (c != EOF && c != '\n');
}

int main(int argc, char **argv)
{
	bool twice = false;
	struct stat st;
	int opt, i, status = 0;

	while ((opt = getopt(argc, argv, "ft")) != -1) {
		if (opt == 'f' && fill_cache() != 0)
			return 2;
		else if (opt == 't')
			twice = true;
		else if (opt != 'f')
			return usage();
	}
	if (optind == argc || (twice && argc - optind != 1))
		return usage();
	for (i = optind; i < argc; i++) {
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "device_probe: %s: %s\n", argv[i],
				strerror(errno));
			status = 1;
			continue;
		}
		if (answer(st.st_dev) != 0)
			return 1;
		if (twice) {
			wait_for_line();
			if (answer(st.st_dev) != 0)
				return 1;
		}
	}
	return status;
}
