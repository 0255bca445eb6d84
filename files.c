/* files.c - opening inputs and lists; see files.h. */
#include <fcntl.h>

#include "files.h"

int open_input(const char *name)
{
	return open(name, O_RDONLY | O_CLOEXEC);
}

int open_list(const char *name)
{
	return open(name, O_RDONLY | O_CLOEXEC);
}
