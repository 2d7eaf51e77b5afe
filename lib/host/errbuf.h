/*
 * The message buffer of the lib/host functions: they take (char *err, size_t errlen) and, on
 * failure, write one line there and return an exit code (BUILD_EINPUT, BUILD_ESYS, ...).
 */
#ifndef BENCHBOOT_ERRBUF_H
#define BENCHBOOT_ERRBUF_H

#include <stddef.h>

/* Format the message into err (nothing if err is NULL or errlen is 0) and return code. */
int errbuf_fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
