/* A growing byte buffer; see bytebuf.h. */
#include <string.h>

#include "grow.h"
#include "host/bytebuf.h"

int bb_bytebuf_append(struct bytebuf *b, const void *data, size_t len)
{
	if (bb_grow(&b->p, &b->cap, b->len + len < 65536 ? 65536 : b->len + len, 1))
		return -ENOMEM;
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	return 0;
}

void bb_bytebuf_free(struct bytebuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
