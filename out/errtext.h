/* errtext.h - what glibc's strerror says, whatever the libc. */
#ifndef ERRTEXT_H
#define ERRTEXT_H

/* glibc's text for err: GNU md5sum's messages are in glibc's words (musl
 * says "I/O error" for "Input/output error", and more).  Errors outside
 * those that files and output meet get the libc's own strerror. */
const char *error_text(int err);

#endif
