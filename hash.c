/* hash.c - hashing jobs: from a file's name to its digest or an errno. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "md5sum.h"

/* An interrupted read is simply tried again. */
int hash_fd(int fd, uint8_t digest[MD5_DIGEST_LENGTH], uint8_t *buf)
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

int hash_file(const struct run *run, const char *name,
	      uint8_t digest[MD5_DIGEST_LENGTH])
{
	bool is_stdin = strcmp(name, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
	int err;

	if (is_stdin && run->stdin_closed)
		return EBADF;
	if (fd < 0)
		return errno;
	/* Advice only: its failure (say, on a pipe) changes nothing. */
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	err = hash_fd(fd, digest, run->buf);
	if (!is_stdin && close(fd) != 0 && err == 0)
		err = errno;
	return err;
}

void run_jobs(struct run *run, const struct job_source *src)
{
	struct job j;

	if (run->lanes) {
		run_jobs_parallel(run, src);
		return;
	}
	while (src->next(src->ctx, &j)) {
		if (!j.bad_line)
			j.err = hash_file(run, j.name, j.digest);
		j.hashed = true;
		src->report(src->ctx, &j);
		out_flush(&run->out);
	}
}

unsigned default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 1 ? (unsigned)n : 1;
}
