/* stream.c - reading one input and hashing it; see stream.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/cores.h"
#include "read/open.h"
#include "read/stream.h"
#include "out/progress.h"
#include "os/thread.h"
#include "os/features.h"

/* Fill buf with up to size bytes from fd, as many reads as it takes; *got
 * tells how many came.  Fewer than size means the end.  0 or an errno; an
 * interrupted read is simply tried again. */
static int read_full(int fd, uint8_t *buf, size_t size, size_t *got)
{
	*got = 0;
	while (*got < size) {
		ssize_t n = read(fd, buf + *got, size - *got);

		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		*got += (size_t)n;
		progress_read((size_t)n);
	}
	return 0;
}

/* Hash what is left of fd into ctx, one buffer of size bytes at a time. */
static int hash_rest(int fd, struct md5 *ctx, uint8_t *buf, size_t size)
{
	size_t got = size;
	int err = 0;

	while (got == size && (err = read_full(fd, buf, size, &got)) == 0)
		md5_update(ctx, buf, got);
	return err;
}

/* Two buffers passed between a thread that reads and one that hashes. */
struct ahead {
	pthread_mutex_t lock;
	pthread_cond_t changed;	/* a buffer was filled or emptied */
	int fd;
	uint8_t *buf[2];
	size_t len[2];
	bool full[2];		/* read, not yet hashed */
	bool last[2];		/* nothing is read after this buffer */
	int err;		/* why reading stopped early, or 0 */
};

static void *read_ahead(void *arg)
{
	struct ahead *a = arg;
	bool last = false;

	for (int i = 0; !last; i ^= 1) {
		size_t got;
		int err;

		pthread_mutex_lock(&a->lock);
		while (a->full[i])
			pthread_cond_wait(&a->changed, &a->lock);
		pthread_mutex_unlock(&a->lock);
		err = read_full(a->fd, a->buf[i], READ_SIZE, &got);
		last = err || got < READ_SIZE;
		pthread_mutex_lock(&a->lock);
		a->len[i] = got;
		a->full[i] = true;
		a->last[i] = last;
		a->err = err;
		pthread_cond_broadcast(&a->changed);
		pthread_mutex_unlock(&a->lock);
	}
	return NULL;
}

/* hash_rest, with a second thread reading the next buffer while this one
 * hashes the last: the copy out of the kernel then costs no time where a
 * core is free.  Buffers of READ_SIZE; without a thread or memory to be
 * had, plain hash_rest. */
static int hash_rest_ahead(int fd, struct md5 *ctx, uint8_t *buf)
{
	struct ahead a = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.changed = PTHREAD_COND_INITIALIZER,
		.fd = fd,
		.buf = { buf, malloc(READ_SIZE) },
	};
	pthread_t reader;
	bool last = false;

	if (!a.buf[1] || thread_start(&reader, read_ahead, &a) != 0) {
		free(a.buf[1]);
		return hash_rest(fd, ctx, buf, READ_SIZE);
	}
	for (int i = 0; !last; i ^= 1) {
		pthread_mutex_lock(&a.lock);
		while (!a.full[i])
			pthread_cond_wait(&a.changed, &a.lock);
		last = a.last[i];
		pthread_mutex_unlock(&a.lock);
		md5_update(ctx, a.buf[i], a.len[i]);
		pthread_mutex_lock(&a.lock);
		a.full[i] = false;
		pthread_cond_broadcast(&a.changed);
		pthread_mutex_unlock(&a.lock);
	}
	pthread_join(reader, NULL);
	free(a.buf[1]);
	return a.err;
}

/* Whether a reading thread may run beside the one that hashes.  On one
 * CPU the two only take turns, and the hand-offs cost more than the
 * overlap brings.  Asked once a run, by its first long input. */
static bool second_cpu(void)
{
	static atomic_int known;	/* 0: not asked yet; 1: no; 2: yes */
	int v = atomic_load_explicit(&known, memory_order_relaxed);

	if (v == 0) {
		v = cores_usable() > 1 ? 2 : 1;
		atomic_store_explicit(&known, v, memory_order_relaxed);
	}
	return v == 2;
}

/* A first buffer's worth is read plainly; only an input that fills it is
 * worth a reading thread, and only where a second CPU can run it. */
int stream_hash_fd_from(int fd, struct md5 *ctx, uint8_t digest[MD5_DIGEST_LENGTH],
			uint8_t *buf, size_t size, bool ahead)
{
	size_t got;
	int err = read_full(fd, buf, size, &got);

	if (err)
		return err;
	md5_update(ctx, buf, got);
	if (got == size)
		err = HAS_READ_AHEAD && ahead && size == READ_SIZE && second_cpu() ?
			      hash_rest_ahead(fd, ctx, buf) : hash_rest(fd, ctx, buf, size);
	if (err)
		return err;
	md5_final(ctx, digest);
	return 0;
}

int stream_hash_fd(int fd, uint8_t digest[MD5_DIGEST_LENGTH], uint8_t *buf, size_t size,
		   bool ahead)
{
	struct md5 ctx;

	md5_init(&ctx);
	return stream_hash_fd_from(fd, &ctx, digest, buf, size, ahead);
}

/* fd, which open_input opened and may have left non-blocking (open.h),
 * made to wait as a plain open's would: poll waits for data or an end, a
 * FIFO's end only once its first writer has come and gone (Linux), and a
 * regular file has them at once.  0 or an errno.  The small build's opens
 * wait (open.c). */
static int wait_as_opened(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int flags;

	if (!HAS_NO_WAIT_READS)
		return 0;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || !(flags & O_NONBLOCK))
		return 0;
	while (poll(&p, 1, -1) < 0)
		if (errno != EINTR)
			return errno;
	return fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? 0 : errno;
}

int stream_hash_fd_close(int fd, uint8_t digest[MD5_DIGEST_LENGTH], uint8_t *buf,
			 size_t size, bool ahead)
{
	int err = wait_as_opened(fd);

	if (err == 0)
		err = stream_hash_fd(fd, digest, buf, size, ahead);

	if (close(fd) != 0 && err == 0)
		err = errno;
	return err;
}

int stream_hash_file(const char *name, bool stdin_closed, bool ahead, uint8_t *buf,
		     size_t size, uint8_t digest[MD5_DIGEST_LENGTH])
{
	bool is_stdin = strcmp(name, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open_input(name);

	if (is_stdin && stdin_closed)
		return EBADF;
	if (fd < 0)
		return errno;
	/* Advice only: its failure (say, on a pipe) changes nothing. */
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (is_stdin)
		return stream_hash_fd(fd, digest, buf, size, ahead);
	return stream_hash_fd_close(fd, digest, buf, size, ahead);
}
