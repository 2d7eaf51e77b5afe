/* lib/results/consfile: result files over a noisy serial console. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/consfile.h"
#include "harness.h"

struct buf {
	char *p;
	size_t len, cap;
};

static void append(struct buf *b, const char *s, size_t len)
{
	if (b->len + len + 1 > b->cap) {
		b->cap = (b->len + len + 1) * 2;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, len);
	b->len += len;
	b->p[b->len] = 0;
}

static void out_line(const char *line, size_t len, void *ctx)
{
	append(ctx, line, len);
}

struct got {
	int files, errors;
	char path[256], bootdir[64], why[256];
	unsigned char data[70000];
	size_t len;
};

static int on_file(const struct consfile_file *f, void *ctx)
{
	struct got *g = ctx;
	g->files++;
	snprintf(g->path, sizeof(g->path), "%s", f->path);
	snprintf(g->bootdir, sizeof(g->bootdir), "%s", f->bootdir);
	g->len = f->len < sizeof(g->data) ? f->len : sizeof(g->data);
	memcpy(g->data, f->data, g->len);
	return 0;
}

static void on_error(const char *bootdir, const char *path, const char *why, void *ctx)
{
	struct got *g = ctx;
	g->errors++;
	snprintf(g->why, sizeof(g->why), "%s: %s", path, why);
}

static struct got *parse(const char *log, size_t len, size_t piece)
{
	static struct got g;
	memset(&g, 0, sizeof(g));
	struct consfile_parser *p = bb_consfile_parser_new(on_file, on_error, &g);
	for (size_t off = 0; off < len; off += piece)
		CHECK_INT(bb_consfile_feed(p, log + off, len - off < piece ? len - off : piece), ==,
		          0);
	CHECK_INT(bb_consfile_finish(p), ==, 0);
	bb_consfile_parser_free(p);
	return &g;
}

static struct buf encode(const char *path, const void *data, size_t len)
{
	struct buf b = {0};
	bb_consfile_encode("0003-boot", path, data, len, out_line, &b);
	return b;
}

TEST(round_trip_sizes)
{
	static const size_t sizes[] = {0, 1, 2, 3, 47, 48, 49, 95, 96, 97, 1000, 65536};
	unsigned char data[65536];
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 131 + (i >> 8));
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct buf b = encode("runs/r/1/client.0.out", data, sizes[s]);
		/* fed whole, and a byte at a time */
		for (size_t piece = b.len; piece >= 1; piece = piece == 1 ? 0 : 1) {
			struct got *g = parse(b.p, b.len, piece);
			CHECK_INT(g->files, ==, 1);
			CHECK_INT(g->errors, ==, 0);
			CHECK_STR(g->path, "runs/r/1/client.0.out");
			CHECK_STR(g->bootdir, "0003-boot");
			CHECK_INT(g->len, ==, sizes[s]);
			CHECK(!memcmp(g->data, data, sizes[s]));
			if (sizes[s] > 1000)
				break; /* byte by byte is slow enough already */
		}
		free(b.p);
	}
}

TEST(line_format)
{
	struct buf b = encode("env.json", "hello", 5);
	CHECK_STR(b.p, "BENCHBOOT-FILE boot=0003-boot path=env.json size=5 "
	               "sha256=2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824\n"
	               "BENCHBOOT-DATA 0 aGVsbG8=\n"
	               "BENCHBOOT-END boot=0003-boot path=env.json lines=1\n");
	free(b.p);
}

/* CRs, noise, timestamps and whole kernel lines between ours are tolerated. */
TEST(noise_tolerated)
{
	char data[500];
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (char)('a' + i % 26);
	struct buf b = encode("init.log", data, sizeof(data));
	struct buf log = {0};
	append(&log, "SeaBIOS noise\r\n[    0.000000] Linux version 6.1\r\n", 49);
	int n = 0;
	for (char *line = b.p; *line; n++) {
		char *nl = strchr(line, '\n');
		if (n % 3 == 1)
			append(&log, "[    1.234567] virtio_blk virtio1: [vdb] 1 512-byte blocks\n",
			       59);
		if (n == 2)
			append(&log, "[    2.000001] ", 15); /* a timestamp prefix on our line */
		append(&log, line, (size_t)(nl - line));
		append(&log, "\r\r\n", 3);
		line = nl + 1;
	}
	append(&log, "reboot: Power down\r\n", 20);
	struct got *g = parse(log.p, log.len, 7);
	CHECK_INT(g->errors, ==, 0);
	CHECK_INT(g->files, ==, 1);
	CHECK_INT(g->len, ==, sizeof(data));
	CHECK(!memcmp(g->data, data, sizeof(data)));
	free(b.p);
	free(log.p);
}

static struct got *parse_modified(const char *data, size_t len, int drop_line,
                                  const char *inject_into, int truncate_at_line)
{
	struct buf b = encode("f", data, len), log = {0};
	int n = 0;
	for (char *line = b.p; *line; n++) {
		char *nl = strchr(line, '\n');
		if (n == truncate_at_line)
			break;
		if (n != drop_line) {
			size_t l = (size_t)(nl - line);
			if (n == 3 && inject_into) {
				append(&log, line, l / 2);
				append(&log, inject_into, strlen(inject_into));
				append(&log, line + l / 2, l - l / 2);
			} else {
				append(&log, line, l);
			}
			append(&log, "\n", 1);
		}
		line = nl + 1;
	}
	struct got *g = parse(log.p ? log.p : "", log.len, 4096);
	free(b.p);
	free(log.p);
	return g;
}

TEST(damage_is_detected_never_delivered)
{
	char data[1000];
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (char)i;
	struct got *g = parse_modified(data, sizeof(data), 5, NULL, -1);
	CHECK_INT(g->files, ==, 0);
	CHECK_INT(g->errors, ==, 1);
	CHECK_CONTAINS(g->why, "missing or out of order");
	g = parse_modified(data, sizeof(data), -1, "[ 3.1] kernel: oops", -1);
	CHECK_INT(g->files, ==, 0);
	CHECK_INT(g->errors, ==, 1);
	CHECK_CONTAINS(g->why, "garbled");
	g = parse_modified(data, sizeof(data), -1, NULL, 10);
	CHECK_INT(g->files, ==, 0);
	CHECK_INT(g->errors, ==, 1);
	CHECK_CONTAINS(g->why, "truncated");
	/* the last data line lost: END says how many lines there were */
	size_t lines = (sizeof(data) + CONSFILE_CHUNK - 1) / CONSFILE_CHUNK;
	g = parse_modified(data, sizeof(data), (int)lines, NULL, -1);
	CHECK_INT(g->files, ==, 0);
	CHECK_INT(g->errors, ==, 1);
}

TEST(wrong_sha_refused)
{
	struct buf b = encode("f", "hello", 5);
	char *h = strstr(b.p, "sha256=") + 7;
	*h = *h == '0' ? '1' : '0';
	struct got *g = parse(b.p, b.len, 100);
	CHECK_INT(g->files, ==, 0);
	CHECK_INT(g->errors, ==, 1);
	CHECK_CONTAINS(g->why, "sha256 mismatch");
	free(b.p);
}

TEST(garbage_only_and_overlong_lines)
{
	struct got *g =
	    parse("BENCHBOOT-DATA 0 AAAA\nBENCHBOOT-END boot=x path=y lines=1\n", 57, 3);
	CHECK_INT(g->files, ==, 0);
	CHECK_INT(g->errors, ==, 0);
	g = parse("BENCHBOOT-FILE boot=x path=y\n", 29, 5);
	CHECK_INT(g->errors, ==, 1);
	size_t n = 100000;
	char *big = malloc(n + 1);
	memset(big, 'A', n);
	memcpy(big, "BENCHBOOT-DATA 0 ", 17);
	big[n] = '\n';
	g = parse(big, n + 1, 4096);
	CHECK_INT(g->files, ==, 0);
	free(big);
}

TEST(two_files_and_a_replaced_one)
{
	struct buf log = {0};
	bb_consfile_encode("0001-a", "init.log", "one\n", 4, out_line, &log);
	bb_consfile_encode("0001-a", "env.json", "{}", 2, out_line, &log);
	bb_consfile_encode("0001-a", "init.log", "one\ntwo\n", 8, out_line, &log);
	struct got *g = parse(log.p, log.len, 13);
	CHECK_INT(g->files, ==, 3);
	CHECK_STR(g->path, "init.log");
	CHECK_INT(g->len, ==, 8);
	free(log.p);
}
