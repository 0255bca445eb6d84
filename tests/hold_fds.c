/* hold_fds FREE CMD [ARG]...: run CMD with every descriptor but FREE of
 * those its limit allows open (on /dev/null, inherited), as a parent that
 * leaves descriptors open would. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long free = argc > 2 ? strtol(argv[1], NULL, 10) : -1;
	int fd, last = -1;

	if (free < 0) {
		fputs("usage: hold_fds FREE CMD [ARG]...\n", stderr);
		return 2;
	}
	while ((fd = open("/dev/null", O_RDONLY)) >= 0)
		last = fd;
	if (errno != EMFILE) {
		perror("hold_fds: /dev/null");
		return 2;
	}
	for (; free > 0 && last >= 0; free--)
		close(last--);
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
