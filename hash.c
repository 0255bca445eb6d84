/* hash.c - hashing jobs: from a file's name to its digest or an errno. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "md5sum.h"

/* Hash everything fd gives until end of file: 0, or the errno of a failed
 * read.  An interrupted read is simply tried again. */
static int hash_fd(int fd, uint8_t digest[MD5_DIGEST_LENGTH], uint8_t *buf)
{
	struct md5 ctx;

	md5_init(&ctx);
	for (;;) {
		ssize_t n = read(fd, buf, READ_SIZE);

		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		md5_update(&ctx, buf, (size_t)n);
	}
	md5_final(&ctx, digest);
	return 0;
}

int hash_file(const char *name, uint8_t digest[MD5_DIGEST_LENGTH], uint8_t *buf)
{
	bool is_stdin = strcmp(name, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return errno;
	/* Advice only: its failure (say, on a pipe) changes nothing. */
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	err = hash_fd(fd, digest, buf);
	if (!is_stdin && close(fd) != 0 && err == 0)
		err = errno;
	return err;
}

void hash_jobs(struct job *jobs, size_t n, uint8_t *buf, unsigned nthreads)
{
	(void)nthreads;
	for (size_t i = 0; i < n; i++)
		if (!jobs[i].bad_line)
			jobs[i].err = hash_file(jobs[i].name, jobs[i].digest, buf);
}

unsigned default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 1 ? (unsigned)n : 1;
}
