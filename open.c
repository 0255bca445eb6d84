/* open.c - opening inputs and lists; see open.h. */
#include <fcntl.h>

#include "open.h"

int open_input(const char *name)
{
	return open(name, O_RDONLY | O_CLOEXEC);
}

int open_list(const char *name)
{
	return open(name, O_RDONLY | O_CLOEXEC);
}
