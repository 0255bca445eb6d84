/* stream.h - reading one input to its end and hashing it.
 *
 * Reads are retried when interrupted and otherwise end at the first
 * error, which is returned as an errno for the caller to report; nothing
 * is printed here. */
#ifndef STREAM_H
#define STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/md5.h"

/* Bytes read at a time: the size of the caller's buffer, buf, unless
 * memory is short. */
enum { READ_SIZE = 128 * 1024 };

/* Hash all that fd gives until its end into digest, size bytes of buf at a
 * time: 0 or an errno.  An input longer than a buffer of READ_SIZE is read
 * on a second thread while this one hashes, when ahead allows it (not with
 * -j 1: one thread is one thread), the process may use more than one CPU
 * (cores.h) and a thread can be had. */
int stream_hash_fd(int fd, uint8_t digest[MD5_DIGEST_LENGTH], uint8_t *buf, size_t size,
		   bool ahead);

/* hash_fd, continuing ctx, which holds what was read of fd before. */
int stream_hash_fd_from(int fd, struct md5 *ctx, uint8_t digest[MD5_DIGEST_LENGTH],
			uint8_t *buf, size_t size, bool ahead);

/* hash_fd, then close fd: 0 or the first errno of the two.  fd is one
 * that open_input opened: reading it waits as after a plain open. */
int stream_hash_fd_close(int fd, uint8_t digest[MD5_DIGEST_LENGTH], uint8_t *buf,
			 size_t size, bool ahead);

/* Open the file called name ("-": standard input, which fails with EBADF
 * when stdin_closed), hash it as hash_fd does, and close it: 0 or an
 * errno. */
int stream_hash_file(const char *name, bool stdin_closed, bool ahead, uint8_t *buf,
		     size_t size, uint8_t digest[MD5_DIGEST_LENGTH]);

#endif
