/* errtext.c - glibc's texts for errors; see errtext.h. */
#include <errno.h>
#include <string.h>

#include "out/decimal.h"
#include "out/errtext.h"
#include "os/features.h"

/* Errors only Linux has. */
#ifdef __linux__
#define LINUX_ERRORS(X) \
	X(EUCLEAN, "Structure needs cleaning") \
	X(EREMOTEIO, "Remote I/O error") \
	X(ENOMEDIUM, "No medium found")
#else
#define LINUX_ERRORS(X)
#endif

/* glibc's words for the errors that opening, reading and closing files
 * and writing output can meet.  GNU md5sum says these whatever libc we are
 * linked with: musl says "I/O error" for "Input/output error", "Filename
 * too long" for "File name too long", and more. */
#define GLIBC_ERRORS(X) \
	X(EPERM, "Operation not permitted") \
	X(ENOENT, "No such file or directory") \
	X(EINTR, "Interrupted system call") \
	X(EIO, "Input/output error") \
	X(ENXIO, "No such device or address") \
	X(EBADF, "Bad file descriptor") \
	X(EAGAIN, "Resource temporarily unavailable") \
	X(ENOMEM, "Cannot allocate memory") \
	X(EACCES, "Permission denied") \
	X(EFAULT, "Bad address") \
	X(EBUSY, "Device or resource busy") \
	X(EXDEV, "Invalid cross-device link") \
	X(ENODEV, "No such device") \
	X(ENOTDIR, "Not a directory") \
	X(EISDIR, "Is a directory") \
	X(EINVAL, "Invalid argument") \
	X(ENFILE, "Too many open files in system") \
	X(EMFILE, "Too many open files") \
	X(ETXTBSY, "Text file busy") \
	X(EFBIG, "File too large") \
	X(ENOSPC, "No space left on device") \
	X(EROFS, "Read-only file system") \
	X(EPIPE, "Broken pipe") \
	X(ENAMETOOLONG, "File name too long") \
	X(ENOLCK, "No locks available") \
	X(ENOSYS, "Function not implemented") \
	X(ELOOP, "Too many levels of symbolic links") \
	X(EOVERFLOW, "Value too large for defined data type") \
	X(EOPNOTSUPP, "Operation not supported") \
	X(ECONNRESET, "Connection reset by peer") \
	X(ENOTCONN, "Transport endpoint is not connected") \
	X(ETIMEDOUT, "Connection timed out") \
	X(ESTALE, "Stale file handle") \
	X(EDQUOT, "Disk quota exceeded") \
	LINUX_ERRORS(X)

/* The numbers in one array and the texts in one string, one after the
 * other: no pointer per entry. */
#define ERROR_CODE(e, text) e,
#define ERROR_TEXT(e, text) text "\0"
static const short error_codes[] = { GLIBC_ERRORS(ERROR_CODE) };
static const char error_texts[] = GLIBC_ERRORS(ERROR_TEXT);

const char *error_text(int err)
{
	/* Read by the thread that asked, before it asks again. */
	static _Thread_local char unknown[sizeof "Unknown error " + DECIMAL_SIZE];
	char num[DECIMAL_SIZE];
	const char *text = error_texts;

	for (size_t i = 0; i < sizeof error_codes / sizeof *error_codes; i++) {
		if (error_codes[i] == err)
			return text;
		text += strlen(text) + 1;
	}
	if (HAS_LIBC_ERROR_TEXTS)
		return strerror(err);
	strcpy(stpcpy(unknown, "Unknown error "), decimal((uintmax_t)err, num));
	return unknown;
}
