/* progress_draw_none.c - the small static build's stand-in for
 * progress_draw.c, which it has no room for (os/features.h:
 * HAS_STATUS_LINE): no line, no thread. */
#include "out/progress_draw.h"

bool progress_draw_start(struct progress_counters *c, bool check, char *const *names, size_t count)
{
	(void)c, (void)check, (void)names, (void)count;
	return false;
}

void progress_draw_end(void)
{
}
