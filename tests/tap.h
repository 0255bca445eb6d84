/* tap.h - the Test Anything Protocol for the C test programs, and what
 * they share. */
#ifndef TAP_H
#define TAP_H

#include <stddef.h>
#include <stdint.h>

/* Print "ok N - WHAT" when pass, else "not ok N - WHAT"; WHAT is a
 * printf format and its arguments. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void ok(int pass, const char *fmt, ...);

/* Print the plan, "1..N"; the exit status for main: 1 when a test
 * failed, else 0. */
int tap_done(void);

/* The next of a sequence of pseudo-random numbers (splitmix64: small,
 * good enough, the same everywhere) from *state, its seed at first. */
uint64_t tap_random(uint64_t *state);

/* RFC 1321 appendix A.5: messages and their digests in hex. */
struct rfc1321_vector {
	const char *msg, *hex;
};
extern const struct rfc1321_vector rfc1321[];
extern const size_t rfc1321_count;

#endif
