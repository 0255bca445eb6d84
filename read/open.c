/* open.c - opening inputs and lists; see open.h. */
#include <fcntl.h>

#include "read/open.h"
#include "os/features.h"

/* Where poll(2) tells a FIFO that no writer has come yet from one whose
 * writers have gone (Linux), a FIFO is opened without waiting for its
 * writer, and waited for in its turn (stream.c); elsewhere, and in the
 * small build (make static), which has no room for it, the open waits, as
 * GNU's does. */
#if defined(__linux__)
#define OPEN_NOWAIT O_NONBLOCK
#else
#define OPEN_NOWAIT 0
#endif

int open_input(const char *name)
{
	return open(name, O_RDONLY | O_CLOEXEC | (HAS_NO_WAIT_READS ? OPEN_NOWAIT : 0));
}

int open_list(const char *name)
{
	return open(name, O_RDONLY | O_CLOEXEC);
}
