/* Small file helpers of the image writers (fat, gpt, bootdisk, image, kmods). Host only. */
#ifndef BENCHBOOT_FILEIO_H
#define BENCHBOOT_FILEIO_H

#include <stddef.h>
#include <stdint.h>

/* Write all len bytes at offset off (retrying after EINTR and short writes). 0, or -errno
 * (-EIO when pwrite wrote nothing). */
int fileio_pwrite_all(int fd, const void *buf, size_t len, uint64_t off);

/* mkdir -p: create path and its missing parents (mode 0755; existing ones are fine). 0, or -1
 * with errno (ENAMETOOLONG when path does not fit in PATH_MAX). */
int fileio_mkdirs(const char *path);

#endif
