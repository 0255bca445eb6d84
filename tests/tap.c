/* tap.c - TAP output, the RFC 1321 vectors, random numbers; see tap.h. */
#include <stdarg.h>
#include <stdio.h>

#include "tap.h"

static unsigned tests, failures;

void ok(int pass, const char *fmt, ...)
{
	va_list ap;

	printf("%s %u - ", pass ? "ok" : "not ok", ++tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failures += !pass;
}

int tap_done(void)
{
	printf("1..%u\n", tests);
	return failures != 0;
}

const struct rfc1321_vector rfc1321[] = {
	{ "", "d41d8cd98f00b204e9800998ecf8427e" },
	{ "a", "0cc175b9c0f1b6a831c399e269772661" },
	{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
	{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
	{ "abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b" },
	{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	  "d174ab98d277d9f5a5611c2c9f419d9f" },
	{ "1234567890123456789012345678901234567890"
	  "1234567890123456789012345678901234567890",
	  "57edf4a22be3c955ac49da2e2107b67a" },
};

const size_t rfc1321_count = sizeof rfc1321 / sizeof rfc1321[0];

uint64_t tap_random(uint64_t *state)
{
	uint64_t z = *state += 0x9e3779b97f4a7c15;

	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9;
	z = (z ^ z >> 27) * 0x94d049bb133111eb;
	return z ^ z >> 31;
}
