/* errtext.h - what glibc's strerror says, whatever the libc. */
#ifndef ERRTEXT_H
#define ERRTEXT_H

/* glibc's text for err: GNU md5sum's messages are in glibc's words (musl
 * says "I/O error" for "Input/output error", and more).  Errors outside
 * those that files and output meet get the libc's own strerror, or in the
 * small build "Unknown error N" (os/features.h).  The text is glibc's
 * English: diag.h and lang.h say it in the user's language. */
const char *error_text(int err);

#endif
