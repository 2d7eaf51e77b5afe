/*
 * The error contract of the host library (lib/host/): a function returns 0 on success, or a
 * negative errno value and writes one line saying what went wrong into the caller's buffer
 * (char *err, size_t errlen). -EINVAL means the input was wrong (a job, an argument, a file the
 * user named); any other -errno is a failure of the system (I/O, memory, a tool that failed).
 * Library code never prints and never exits: tools/verb.h verb_exit_status() turns the outcome
 * into the verb's exit code, in that one place.
 */
#ifndef BENCHBOOT_ERRBUF_H
#define BENCHBOOT_ERRBUF_H

#include <stddef.h>

/* Format the message into err (nothing if err is NULL or errlen is 0) and return code
 * (0 or -errno). */
int bb_errbuf_fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
