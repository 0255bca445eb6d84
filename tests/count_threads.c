/* count_threads.so: preloaded (LD_PRELOAD), counts the threads the
 * program creates (its calls of pthread_create that succeed) and, when it
 * exits, writes the count, one line, to the file that COUNT_THREADS
 * names.  No file is written where COUNT_THREADS is unset, or where the
 * program ends without exit's handlers (_exit, a signal): a test that
 * finds no count fails rather than reading it as none. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef int create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static unsigned long created;

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
	static create_fn *real;
	int err;

	if (!real)
		real = (create_fn *)dlsym(RTLD_NEXT, "pthread_create");
	if (!real)
		return EAGAIN;
	err = real(t, attr, start, arg);
	if (err == 0)
		__atomic_add_fetch(&created, 1, __ATOMIC_RELAXED);
	return err;
}

__attribute__((destructor)) static void count_threads_report(void)
{
	const char *path = getenv("COUNT_THREADS");
	int fd;

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	dprintf(fd, "%lu\n", __atomic_load_n(&created, __ATOMIC_RELAXED));
	close(fd);
}
