/* Reproducible initramfs compression; see compress.h. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "grow.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/image/compress.h"

int compress_threads;

static const char *const names[] = {"gzip", "zstd", "none"};

int bb_compress_parse(const char *name, enum compress_kind *kind)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(name, names[i])) {
			*kind = (enum compress_kind)i;
			return 0;
		}
	return -EINVAL;
}

const char *bb_compress_name(enum compress_kind kind)
{
	return names[kind];
}

int bb_compress_default_level(enum compress_kind kind)
{
	return kind == COMPRESS_GZIP ? 6 : kind == COMPRESS_ZSTD ? 19 : 0;
}

static int reserve(struct bytebuf *out, size_t more)
{
	size_t need = out->len + more;
	return bb_grow(&out->p, &out->cap, need < 65536 ? 65536 : need, 1);
}

/*
 * gzip in independent blocks, compressed in parallel the way pigz does it: the input is cut
 * into fixed 1 MiB blocks, each block is raw deflate primed with the 32 KiB before it and
 * ends with a sync flush (the last one finishes the stream), and the crc32 of the blocks are
 * combined. The block size is fixed, so the output does not depend on the number of threads.
 * The header is the one `gzip -n` writes: no name, mtime 0, OS 3 (Unix).
 */
#define GZ_BLOCK (1u << 20)
#define GZ_DICT 32768u

struct gz_block {
	const unsigned char *in;
	size_t len, dictlen; /* the dictionary is the dictlen bytes before in */
	int last;
	unsigned char *out;
	size_t outlen;
	uLong crc;
	int ok;
};

struct gz_work {
	struct gz_block *blocks;
	size_t n;
	size_t next; /* the next block to take, with __atomic_fetch_add */
	int level;
};

static void gz_block_run(struct gz_block *b, int level)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	b->crc = crc32(0, b->in, (uInt)b->len);
	if (deflateInit2(&z, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return;
	if (b->dictlen && deflateSetDictionary(&z, b->in - b->dictlen, (uInt)b->dictlen) != Z_OK)
		goto out_end;
	size_t cap = deflateBound(&z, b->len) + 64; /* + the sync flush marker */
	b->out = malloc(cap);
	if (!b->out)
		goto out_end;
	z.next_in = (Bytef *)b->in;
	z.avail_in = (uInt)b->len;
	z.next_out = b->out;
	z.avail_out = (uInt)cap;
	int r = deflate(&z, b->last ? Z_FINISH : Z_SYNC_FLUSH);
	b->outlen = cap - z.avail_out;
	b->ok = z.avail_in == 0 && (b->last ? r == Z_STREAM_END : r == Z_OK);
out_end:
	deflateEnd(&z);
}

static void *gz_worker(void *arg)
{
	struct gz_work *w = arg;
	size_t i;
	while ((i = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED)) < w->n)
		gz_block_run(&w->blocks[i], w->level);
	return NULL;
}

static int gzip_append(struct bytebuf *out, const void *data, size_t len, int level, char *err,
                       size_t errlen)
{
	const unsigned char *in = data;
	size_t n = len ? (len + GZ_BLOCK - 1) / GZ_BLOCK : 1;
	struct gz_work w = {.n = n, .level = level};
	int rc = 0;

	if (len > 0xffffffffu)
		return bb_errbuf_fail(err, errlen, -EINVAL, "the archive is larger than 4 GiB");
	w.blocks = calloc(n, sizeof(*w.blocks));
	if (!w.blocks)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct gz_block *b = &w.blocks[i];
		size_t off = i * GZ_BLOCK;
		b->in = in + off;
		b->len = len - off < GZ_BLOCK ? len - off : GZ_BLOCK;
		b->dictlen = off < GZ_DICT ? off : GZ_DICT;
		b->last = i == n - 1;
	}
	long cpus = compress_threads > 0 ? compress_threads : sysconf(_SC_NPROCESSORS_ONLN);
	size_t nthreads = cpus < 1 ? 1 : cpus > 16 ? 16 : (size_t)cpus;
	if (nthreads > n)
		nthreads = n;
	pthread_t threads[16];
	size_t started = 0;
	for (; started + 1 < nthreads; started++)
		if (pthread_create(&threads[started], NULL, gz_worker, &w))
			break;
	gz_worker(&w); /* this thread works too; it alone is enough if none could start */
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);

	/* header: magic, deflate, no flags, mtime 0, XFL as zlib sets it, OS 3 */
	unsigned char head[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
	head[8] = level == 9 ? 2 : level == 1 ? 4 : 0;
	uLong crc = crc32(0, NULL, 0);
	if (bb_bytebuf_append(out, head, sizeof(head)))
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++) {
		struct gz_block *b = &w.blocks[i];
		if (!b->ok)
			rc = bb_errbuf_fail(err, errlen, -EIO,
			                    "gzip compression of block %zu failed", i);
		else if (bb_bytebuf_append(out, b->out, b->outlen))
			rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		crc = crc32_combine(crc, b->crc, (z_off_t)b->len);
	}
	unsigned char tail[8];
	for (int i = 0; i < 4; i++) {
		tail[i] = (unsigned char)(crc >> (8 * i));
		tail[4 + i] = (unsigned char)((uint64_t)len >> (8 * i));
	}
	if (!rc && bb_bytebuf_append(out, tail, sizeof(tail)))
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		free(w.blocks[i].out);
	free(w.blocks);
	return rc;
}

/*
 * One frame, with content size and checksum. nbWorkers 0 pins the single-threaded mode: zstd's
 * output differs between that mode and the multi-threaded one.
 */
static int zstd_append(struct bytebuf *out, const void *data, size_t len, int level, char *err,
                       size_t errlen)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	if (!c)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	size_t r = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
	if (!ZSTD_isError(r))
		r = ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, 0);
	if (!ZSTD_isError(r))
		r = ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	if (!ZSTD_isError(r))
		r = ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
	if (ZSTD_isError(r)) {
		ZSTD_freeCCtx(c);
		return bb_errbuf_fail(err, errlen, -EIO, "zstd: %s", ZSTD_getErrorName(r));
	}
	size_t bound = ZSTD_compressBound(len);
	if (reserve(out, bound)) {
		ZSTD_freeCCtx(c);
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	r = ZSTD_compress2(c, out->p + out->len, bound, data, len);
	ZSTD_freeCCtx(c);
	if (ZSTD_isError(r))
		return bb_errbuf_fail(err, errlen, -EIO, "zstd compression failed: %s",
		                      ZSTD_getErrorName(r));
	out->len += r;
	return 0;
}

int bb_compress_append(struct bytebuf *out, const void *data, size_t len, enum compress_kind kind,
                       int level, char *err, size_t errlen)
{
	if (!level)
		level = bb_compress_default_level(kind);
	switch (kind) {
	case COMPRESS_GZIP:
		if (level < 1 || level > 9)
			return bb_errbuf_fail(err, errlen, -EINVAL, "gzip level %d is not in 1..9",
			                      level);
		return gzip_append(out, data, len, level, err, errlen);
	case COMPRESS_ZSTD:
		if (level < 1 || level > ZSTD_maxCLevel())
			return bb_errbuf_fail(err, errlen, -EINVAL, "zstd level %d is not in 1..%d",
			                      level, ZSTD_maxCLevel());
		return zstd_append(out, data, len, level, err, errlen);
	case COMPRESS_NONE:
		if (bb_bytebuf_append(out, data, len))
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		return 0;
	}
	return bb_errbuf_fail(err, errlen, -EINVAL, "unknown compression");
}

int bb_compress_append_early(struct bytebuf *out, const char *path, char *err, size_t errlen)
{
	unsigned char *data;
	size_t size;
	static const unsigned char zeros[512];

	int r = bb_fileio_read_all(path, &data, &size);
	if (r)
		return bb_errbuf_fail(err, errlen, r == -ENOENT ? -EINVAL : r,
		                      "unable to read early cpio %s: %s", path, strerror(-r));
	if (size < 110 || memcmp(data, "070701", 6)) {
		free(data);
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "early cpio %s is not an uncompressed newc (070701) archive",
		                      path);
	}
	int rc = bb_bytebuf_append(out, data, size) ||
	         bb_bytebuf_append(out, zeros, (512 - size % 512) % 512);
	free(data);
	if (rc)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	return 0;
}
