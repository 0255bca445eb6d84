/* thread.c - threads with small stacks; see thread.h. */
#include "os/thread.h"

/* Our deepest stack, measured, is a message about a file (quote.c,
 * msg.c) written by a thread that hashes in a lane engine (doc/threads.md).
 * This leaves it six times the room, for the C library and a
 * signal handler's frame; a system that needs more for any thread gets
 * its default. */
enum { STACK_SIZE = 64 * 1024 };

int thread_start(pthread_t *t, void *(*start)(void *), void *arg)
{
	pthread_attr_t attr;
	int err = pthread_attr_init(&attr);

	if (err)
		return pthread_create(t, NULL, start, arg);
	(void)pthread_attr_setstacksize(&attr, STACK_SIZE);
	err = pthread_create(t, &attr, start, arg);
	pthread_attr_destroy(&attr);
	return err;
}
