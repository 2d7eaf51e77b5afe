/* Reproducible initramfs compression; see compress.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "compress.h"

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}

static const char *const names[] = {"gzip", "zstd", "none"};

int compress_parse(const char *name, enum compress_kind *kind)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(name, names[i])) {
			*kind = (enum compress_kind)i;
			return 0;
		}
	return -1;
}

const char *compress_name(enum compress_kind kind)
{
	return names[kind];
}

int compress_default_level(enum compress_kind kind)
{
	return kind == COMPRESS_GZIP ? 6 : kind == COMPRESS_ZSTD ? 19 : 0;
}

static int reserve(struct cpio_buf *out, size_t more)
{
	if (out->len + more <= out->cap)
		return 0;
	size_t cap = out->cap ? out->cap : 65536;
	while (cap < out->len + more)
		cap *= 2;
	unsigned char *p = realloc(out->p, cap);
	if (!p)
		return -1;
	out->p = p;
	out->cap = cap;
	return 0;
}

/*
 * deflate with a gzip wrapper (windowBits 16+15) and no header set: zlib then writes mtime 0,
 * no file name and OS 3 (Unix), which is what `gzip -n` writes too.
 */
static int gzip_append(struct cpio_buf *out, const void *data, size_t len, int level, char *err,
                       size_t errlen)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return fail(err, errlen, BUILD_ESYS, "unable to start gzip compression");
	size_t bound = deflateBound(&z, len);
	if (reserve(out, bound)) {
		deflateEnd(&z);
		return fail(err, errlen, BUILD_ESYS, "out of memory");
	}
	const unsigned char *in = data;
	size_t left = len;
	int zr;
	do {
		uInt chunk = left > (1u << 30) ? (1u << 30) : (uInt)left;
		z.next_in = (Bytef *)in;
		z.avail_in = chunk;
		in += chunk;
		left -= chunk;
		do {
			if (reserve(out, 65536)) {
				deflateEnd(&z);
				return fail(err, errlen, BUILD_ESYS, "out of memory");
			}
			z.next_out = out->p + out->len;
			z.avail_out =
			    (uInt)(out->cap - out->len > (1u << 30) ? (1u << 30)
			                                            : out->cap - out->len);
			uInt before = z.avail_out;
			zr = deflate(&z, left ? Z_NO_FLUSH : Z_FINISH);
			out->len += before - z.avail_out;
		} while (z.avail_in || (!left && zr == Z_OK));
	} while (left);
	deflateEnd(&z);
	if (zr != Z_STREAM_END)
		return fail(err, errlen, BUILD_ESYS, "gzip compression failed (%d)", zr);
	return 0;
}

/*
 * One frame, with content size and checksum. nbWorkers 0 pins the single-threaded mode: zstd's
 * output differs between that mode and the multi-threaded one.
 */
static int zstd_append(struct cpio_buf *out, const void *data, size_t len, int level, char *err,
                       size_t errlen)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	if (!c)
		return fail(err, errlen, BUILD_ESYS, "out of memory");
	size_t r = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
	if (!ZSTD_isError(r))
		r = ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, 0);
	if (!ZSTD_isError(r))
		r = ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	if (!ZSTD_isError(r))
		r = ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
	if (ZSTD_isError(r)) {
		ZSTD_freeCCtx(c);
		return fail(err, errlen, BUILD_ESYS, "zstd: %s", ZSTD_getErrorName(r));
	}
	size_t bound = ZSTD_compressBound(len);
	if (reserve(out, bound)) {
		ZSTD_freeCCtx(c);
		return fail(err, errlen, BUILD_ESYS, "out of memory");
	}
	r = ZSTD_compress2(c, out->p + out->len, bound, data, len);
	ZSTD_freeCCtx(c);
	if (ZSTD_isError(r))
		return fail(err, errlen, BUILD_ESYS, "zstd compression failed: %s",
		            ZSTD_getErrorName(r));
	out->len += r;
	return 0;
}

int compress_append(struct cpio_buf *out, const void *data, size_t len, enum compress_kind kind,
                    int level, char *err, size_t errlen)
{
	if (!level)
		level = compress_default_level(kind);
	switch (kind) {
	case COMPRESS_GZIP:
		if (level < 1 || level > 9)
			return fail(err, errlen, BUILD_EINPUT, "gzip level %d is not in 1..9",
			            level);
		return gzip_append(out, data, len, level, err, errlen);
	case COMPRESS_ZSTD:
		if (level < 1 || level > ZSTD_maxCLevel())
			return fail(err, errlen, BUILD_EINPUT, "zstd level %d is not in 1..%d",
			            level, ZSTD_maxCLevel());
		return zstd_append(out, data, len, level, err, errlen);
	case COMPRESS_NONE:
		if (cpio_buf_append(out, data, len))
			return fail(err, errlen, BUILD_ESYS, "out of memory");
		return 0;
	}
	return fail(err, errlen, BUILD_EINPUT, "unknown compression");
}

int compress_append_early(struct cpio_buf *out, const char *path, char *err, size_t errlen)
{
	unsigned char *data;
	size_t size;
	static const unsigned char zeros[512];

	if (cpio_read_file(path, &data, &size) < 0)
		return fail(err, errlen, errno == ENOENT ? BUILD_EINPUT : BUILD_ESYS,
		            "unable to read early cpio %s: %s", path, strerror(errno));
	if (size < 110 || memcmp(data, "070701", 6)) {
		free(data);
		return fail(err, errlen, BUILD_EINPUT,
		            "early cpio %s is not an uncompressed newc (070701) archive", path);
	}
	int rc = cpio_buf_append(out, data, size) ||
	         cpio_buf_append(out, zeros, (512 - size % 512) % 512);
	free(data);
	if (rc)
		return fail(err, errlen, BUILD_ESYS, "out of memory");
	return 0;
}
