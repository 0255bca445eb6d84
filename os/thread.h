/* thread.h - threads with stacks of the size ours need.
 *
 * The default stack reserves megabytes of address space a thread, which a
 * limit on address space (ulimit -v) soon refuses; ours need far less. */
#ifndef THREAD_H
#define THREAD_H

#include <pthread.h>

/* pthread_create with our stack size: 0, or its error. */
int thread_start(pthread_t *t, void *(*start)(void *), void *arg);

#endif
