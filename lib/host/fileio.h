/* Small file-descriptor helpers of the image writers (fat.c, gpt.c, bootdisk.c). Host only. */
#ifndef BENCHBOOT_FILEIO_H
#define BENCHBOOT_FILEIO_H

#include <stddef.h>
#include <stdint.h>

/* Write all len bytes at offset off (retrying after EINTR and short writes). 0, or -errno
 * (-EIO when pwrite wrote nothing). */
int fileio_pwrite_all(int fd, const void *buf, size_t len, uint64_t off);

#endif
