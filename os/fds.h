/* fds.h - how many file descriptors a run may open: the process's limit
 * (RLIMIT_NOFILE) less those it has open, inherited ones included. */
#ifndef FDS_H
#define FDS_H

/* The descriptors free now, at most UINT_MAX; first the soft limit is
 * raised toward the hard one, as far as want more need, since most
 * systems' soft limit is low only for programs that select(2).  (Not in
 * the small build, where musl's setrlimit brings its all-threads
 * machinery along.) */
unsigned fds_free(unsigned want);

/* Have the kernel's table of descriptors hold n more than the first three
 * now, while the process has one thread: on Linux, a table grown later,
 * once threads share it, first waits for every CPU to pass a quiescent
 * state (RCU), milliseconds during which no thread opens a file. */
void fds_make_room(unsigned n);

#endif
