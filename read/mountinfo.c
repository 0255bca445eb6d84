/* mountinfo.c - a device's file-system type from /proc/self/mountinfo;
 * see mountinfo.h. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sysmacros.h>

#include "read/mountinfo.h"
#include "os/grow.h"

/* /proc/self/mountinfo read up to this many bytes: a machine of very many
 * mounts past it is not told. */
enum { MOUNTINFO_MAX = 1 << 22 };

/* The whole of /proc/self/mountinfo, NUL-terminated, or NULL. */
static char *read_mountinfo(void)
{
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	char *text = NULL;
	size_t len = 0, size = 0;
	ssize_t n = 1;

	if (fd < 0)
		return NULL;
	while (n > 0 && len < MOUNTINFO_MAX && grow(&text, &size, len, 4096 + 1))
		if ((n = read(fd, text + len, size - len - 1)) > 0)
			len += (size_t)n;
	(void)close(fd);
	if (n != 0) {	/* an error, too long, or no memory */
		free(text);
		return NULL;
	}
	text[len] = '\0';
	return text;
}

/* Each line's third field is the device, "MAJOR:MINOR", and the type
 * follows " - ". */
bool mountinfo_type(dev_t dev, char *type, size_t size)
{
	char want[48], *text = read_mountinfo(), *line, *next;
	bool found = false;

	if (!text)
		return false;
	snprintf(want, sizeof want, " %u:%u ", major(dev), minor(dev));
	for (line = text; !found && *line; line = next) {
		char *p = strchr(line, '\n'), *sep;
		size_t len;

		next = p ? p + 1 : line + strlen(line);
		if (p)
			*p = '\0';
		p = strchr(line, ' ');
		p = p ? strchr(p + 1, ' ') : NULL;
		if (!p || strncmp(p, want, strlen(want)) != 0 || !(sep = strstr(p, " - ")))
			continue;
		sep += 3;
		len = strcspn(sep, " ");
		if (len >= size)
			break;
		memcpy(type, sep, len);
		type[len] = '\0';
		found = true;
	}
	free(text);
	return found;
}
