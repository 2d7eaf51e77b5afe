/*
 * The one whole-file reader of benchboot (init and host): an open file read to its end into a
 * malloc'd buffer with a NUL after the data, so /proc and /sys files (size 0) read whole too.
 * Callers open (and stat, when they need to) and close; see init_read (init/util.c),
 * bb_fileio_read_all (lib/host/fileio.h) and the results writer (init/results.c).
 */
#ifndef BENCHBOOT_READALL_H
#define BENCHBOOT_READALL_H

#include <stddef.h>

/* 0 with *data (free it) and *len, or -errno (-ENOMEM, or read's); *data is NULL then. */
int bb_read_fd(int fd, char **data, size_t *len);

#endif
