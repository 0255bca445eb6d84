/* deny_lister.so: preloaded (LD_PRELOAD), refuses what the lister
 * (run/lister.c) asks for.  opendir fails with EACCES for every directory
 * whose path starts with DENY_OPENDIR, as for a directory with search
 * permission only (which root, who mounts the network model, could read),
 * and the path is appended, a line, to the file DENY_OPENDIR_LOG, so that
 * a test can tell it was asked; with DENY_THREADS set, every
 * pthread_create fails with EAGAIN, and a line "thread" is appended
 * there too.  Everything else is the C library's. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef DIR *opendir_fn(const char *);

/* One write a line, so that lines of threads at once do not mix. */
static void log_path(const char *path)
{
	const char *log = getenv("DENY_OPENDIR_LOG");
	size_t n = strlen(path);
	char line[4096];
	int fd;

	if (!log || n >= sizeof line)
		return;
	memcpy(line, path, n);
	line[n] = '\n';
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	(void)!write(fd, line, n + 1);
	close(fd);
}

DIR *opendir(const char *path)
{
	static opendir_fn *real;
	const char *deny = getenv("DENY_OPENDIR");

	if (deny && *deny && strncmp(path, deny, strlen(deny)) == 0) {
		log_path(path);
		errno = EACCES;
		return NULL;
	}
	if (!real)
		real = (opendir_fn *)dlsym(RTLD_NEXT, "opendir");
	if (!real) {
		errno = ENOSYS;
		return NULL;
	}
	return real(path);
}

typedef int create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
	static create_fn *real;

	if (getenv("DENY_THREADS")) {
		log_path("thread");
		return EAGAIN;
	}
	if (!real)
		real = (create_fn *)dlsym(RTLD_NEXT, "pthread_create");
	if (!real)
		return EAGAIN;
	return real(t, attr, start, arg);
}
