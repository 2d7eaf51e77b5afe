/* Compression: gzip -d and zstd -d give the input back; the output is reproducible. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "host/image/compress.h"

static char err[4096];

/* Some megabytes that compress like an initramfs: text, repeats, noise. */
static unsigned char *sample(size_t len)
{
	unsigned char *p = malloc(len);
	unsigned x = 12345;
	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245 + 12345;
		p[i] = (i / 4096) % 3 == 0 ? (unsigned char)(x >> 24)
		                           : (unsigned char)("benchboot initramfs "[i % 20]);
	}
	return p;
}

static void write_to(const char *path, const struct bytebuf *b)
{
	FILE *f = fopen(path, "w");
	CHECK(f);
	CHECK_INT(fwrite(b->p, 1, b->len, f), ==, b->len);
	fclose(f);
}

static void roundtrip(enum compress_kind kind, const char *tool, size_t len)
{
	const char *dir = test_tmpdir();
	unsigned char *data = sample(len);
	struct bytebuf b = {0}, raw = {0};
	char packed[4200], plain[4200], cmd[9000];
	CHECK_INT(bb_compress_append(&b, data, len, kind,
	                             len > 2000000 && kind == COMPRESS_ZSTD ? 3 : 0, err,
	                             sizeof(err)),
	          ==, 0);
	CHECK_INT(bb_bytebuf_append(&raw, data, len), ==, 0);
	snprintf(packed, sizeof(packed), "%s/packed", dir);
	snprintf(plain, sizeof(plain), "%s/plain", dir);
	write_to(packed, &b);
	write_to(plain, &raw);
	snprintf(cmd, sizeof(cmd), "%s -dc < %s | cmp - %s", tool, packed, plain);
	CHECK_INT(test_run(cmd, NULL), ==, 0);
	bb_bytebuf_free(&b);
	bb_bytebuf_free(&raw);
	free(data);
}

TEST(gzip_and_zstd_decompress_with_the_real_tools)
{
	const size_t lens[] = {0, 1, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 5 * (1 << 20) + 7};
	for (size_t i = 0; i < sizeof(lens) / sizeof(*lens); i++) {
		roundtrip(COMPRESS_GZIP, "gzip", lens[i]);
		roundtrip(COMPRESS_ZSTD, "zstd -q", lens[i]);
	}
}

TEST(gzip_output_does_not_depend_on_threads)
{
	size_t len = 7 * (1 << 20) + 3;
	unsigned char *data = sample(len);
	struct bytebuf one = {0}, many = {0};
	compress_threads = 1;
	CHECK_INT(bb_compress_append(&one, data, len, COMPRESS_GZIP, 6, err, sizeof(err)), ==, 0);
	compress_threads = 5;
	CHECK_INT(bb_compress_append(&many, data, len, COMPRESS_GZIP, 6, err, sizeof(err)), ==, 0);
	CHECK_INT(one.len, ==, many.len);
	CHECK(!memcmp(one.p, many.p, one.len));
	/* the header gzip -n writes: no name, mtime 0, OS Unix */
	CHECK(!memcmp(one.p, "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10));
	bb_bytebuf_free(&one);
	bb_bytebuf_free(&many);
	free(data);
}

TEST(levels_are_checked)
{
	struct bytebuf b = {0};
	CHECK_INT(bb_compress_append(&b, "x", 1, COMPRESS_GZIP, 10, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "gzip level 10 is not in 1..9");
	CHECK_INT(bb_compress_append(&b, "x", 1, COMPRESS_ZSTD, 23, err, sizeof(err)), ==, -EINVAL);
	enum compress_kind k;
	CHECK_INT(bb_compress_parse("zstd", &k), ==, 0);
	CHECK_INT(k, ==, COMPRESS_ZSTD);
	CHECK_INT(bb_compress_parse("xz", &k), ==, -EINVAL);
	bb_bytebuf_free(&b);
}
