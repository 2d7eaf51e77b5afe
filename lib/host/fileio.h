/* Small file helpers of the host code: whole-file reads, full writes, mkdir -p. Host only. */
#ifndef BENCHBOOT_FILEIO_H
#define BENCHBOOT_FILEIO_H

#include <stddef.h>
#include <stdint.h>

/* Write all len bytes at offset off (retrying after EINTR and short writes). 0, or -errno
 * (-EIO when pwrite wrote nothing). */
int bb_fileio_pwrite_all(int fd, const void *buf, size_t len, uint64_t off);

/* mkdir -p: create path and its missing parents (mode 0755; existing ones are fine). 0, or
 * -errno (-ENAMETOOLONG when path does not fit in PATH_MAX). */
int bb_fileio_mkdirs(const char *path);

/* Read the whole regular file path into a malloc'd buffer with a NUL after the last byte (so
 * text can be used as a string); free(*data). 0, or -errno (-EISDIR a directory, -EINVAL
 * another non-regular file). */
int bb_fileio_read_all(const char *path, unsigned char **data, size_t *len);

/* The first line of a small text file into buf (without its newline; cut at len - 1 bytes).
 * 0 or -errno. */
int bb_fileio_read_line(const char *path, char *buf, size_t len);

/* The one whole-file writer: len bytes to path (mode 0644) through a hidden .NAME.tmp-PID
 * beside it, renamed into place, so a reader sees the old file or the new one, never a part
 * of it (and a killed writer leaves no file a reader takes). 0, or -errno. */
int bb_fileio_write_file(const char *path, const void *data, size_t len);

/* src's content to dst, through bb_fileio_write_file. 0, or -errno. */
int bb_fileio_copy_file(const char *src, const char *dst);

#endif
