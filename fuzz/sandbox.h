/* sandbox.h - forced into every md5sum source that the fuzz harness builds
 * (-include fuzz/sandbox.h): open(2) and fopen(3) go through the harness,
 * which gives names from the fuzzed list only the files of a private
 * directory, and gives the list itself from memory. */
#ifndef FUZZ_SANDBOX_H
#define FUZZ_SANDBOX_H

#include <fcntl.h>
#include <stdio.h>

int fuzz_open(const char *name, int flags, ...);
FILE *fuzz_fopen(const char *name, const char *mode);

#define open fuzz_open
#define fopen fuzz_fopen

#endif
