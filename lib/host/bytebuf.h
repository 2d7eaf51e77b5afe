/* A growing byte buffer (archives, compressed images, file contents). Host only. */
#ifndef BENCHBOOT_BYTEBUF_H
#define BENCHBOOT_BYTEBUF_H

#include <stddef.h>

struct bytebuf {
	unsigned char *p;
	size_t len, cap;
};

/* Append len bytes: 0 or -ENOMEM (the buffer is then unchanged). */
int bb_bytebuf_append(struct bytebuf *b, const void *data, size_t len);
void bb_bytebuf_free(struct bytebuf *b);

#endif
