/* Result files over the console: encoder and tolerant parser (see consfile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/consfile.h"
#include "console_proto.h"
#include "grow.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static size_t b64_encode(const unsigned char *in, size_t len, char *out)
{
	size_t o = 0;
	for (size_t i = 0; i < len; i += 3) {
		unsigned v = in[i] << 16;
		if (i + 1 < len)
			v |= in[i + 1] << 8;
		if (i + 2 < len)
			v |= in[i + 2];
		out[o++] = b64[(v >> 18) & 63];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = i + 1 < len ? b64[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < len ? b64[v & 63] : '=';
	}
	out[o] = 0;
	return o;
}

static int b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Strict decoding of one line's token; returns the byte count or -1. */
static long b64_decode(const char *in, size_t len, unsigned char *out)
{
	size_t o = 0;
	if (len % 4)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		int v[4], pad = 0;
		for (int k = 0; k < 4; k++) {
			char c = in[i + k];
			if (c == '=' && i + 4 == len && k >= 2) {
				v[k] = 0;
				pad++;
			} else if (pad || (v[k] = b64_value(c)) < 0) {
				return -1;
			}
		}
		unsigned x = v[0] << 18 | v[1] << 12 | v[2] << 6 | v[3];
		out[o++] = x >> 16;
		if (pad < 2)
			out[o++] = (x >> 8) & 255;
		if (pad < 1)
			out[o++] = x & 255;
	}
	return (long)o;
}

void bb_consfile_encode(const char *bootdir, const char *path, const void *data, size_t len,
                        void (*out)(const char *line, size_t len, void *ctx), void *ctx)
{
	char line[4400], hex[SHA256_HEX_LEN + 1];
	const unsigned char *p = data;
	size_t nlines = 0;
	int n;

	bb_sha256_hex(data, len, hex);
	n = snprintf(line, sizeof(line), BB_CON_FILE " boot=%s path=%s size=%zu sha256=%s\n",
	             bootdir, path, len, hex);
	out(line, (size_t)n, ctx);
	for (size_t off = 0; off < len; off += CONSFILE_CHUNK, nlines++) {
		size_t chunk = len - off < CONSFILE_CHUNK ? len - off : CONSFILE_CHUNK;
		n = snprintf(line, sizeof(line), BB_CON_DATA " %zu ", nlines);
		n += (int)b64_encode(p + off, chunk, line + n);
		line[n++] = '\n';
		line[n] = 0;
		out(line, (size_t)n, ctx);
	}
	n = snprintf(line, sizeof(line), BB_CON_END " boot=%s path=%s lines=%zu\n", bootdir, path,
	             nlines);
	out(line, (size_t)n, ctx);
}

struct consfile_parser {
	int (*on_file)(const struct consfile_file *f, void *ctx);
	void (*on_error)(const char *bootdir, const char *path, const char *why, void *ctx);
	void *ctx;
	char *line; /* the line being assembled */
	size_t llen, lcap;
	int overlong; /* the current line went past the limit: skip to its end */
	/* the file being received */
	int open, broken;
	char bootdir[256], path[4096], sha[SHA256_HEX_LEN + 1], why[256];
	unsigned long long size, next;
	unsigned char *data;
	size_t len;
	unsigned ok, bad;
	unsigned long lineno; /* the log's line being read (1-based) */
};

#define LINE_MAX_LEN 8192

unsigned long bb_consfile_line(const struct consfile_parser *p)
{
	return p->lineno + 1;
}

struct consfile_parser *bb_consfile_parser_new(
    int (*on_file)(const struct consfile_file *f, void *ctx),
    void (*on_error)(const char *bootdir, const char *path, const char *why, void *ctx), void *ctx)
{
	struct consfile_parser *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->on_file = on_file;
	p->on_error = on_error;
	p->ctx = ctx;
	return p;
}

static void drop_file(struct consfile_parser *p, const char *why)
{
	if (p->open) {
		p->bad++;
		if (p->on_error)
			p->on_error(p->bootdir, p->path, why, p->ctx);
	}
	free(p->data);
	p->data = NULL;
	p->open = p->broken = 0;
	p->len = 0;
}

static void mark_broken(struct consfile_parser *p, const char *fmt, unsigned long long n)
{
	if (!p->broken)
		snprintf(p->why, sizeof(p->why), fmt, n);
	p->broken = 1;
}

/* Find `key=` as a whole token in s and copy its value (up to a space); 0 or -1. */
static int token(const char *s, const char *key, char *out, size_t cap)
{
	size_t kl = strlen(key);
	for (const char *t = s; (t = strstr(t, key)); t++) {
		if ((t != s && t[-1] != ' ') || t[kl] != '=')
			continue;
		const char *v = t + kl + 1;
		size_t n = strcspn(v, " ");
		if (n == 0 || n >= cap)
			return -1;
		memcpy(out, v, n);
		out[n] = 0;
		return 0;
	}
	return -1;
}

static int parse_ull(const char *s, unsigned long long *v)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static void start_file(struct consfile_parser *p, const char *args)
{
	char size[32];
	drop_file(p, "truncated: no BENCHBOOT-END before the next file");
	if (token(args, "boot", p->bootdir, sizeof(p->bootdir)) ||
	    token(args, "path", p->path, sizeof(p->path)) ||
	    token(args, "size", size, sizeof(size)) || parse_ull(size, &p->size) ||
	    token(args, "sha256", p->sha, sizeof(p->sha)) || strlen(p->sha) != SHA256_HEX_LEN) {
		p->bad++;
		if (p->on_error)
			p->on_error("?", "?", "garbled BENCHBOOT-FILE line", p->ctx);
		return;
	}
	p->open = 1;
	p->next = 0;
	p->len = 0;
	if (p->size > CONSFILE_MAX_SIZE) {
		mark_broken(p, "too large (%llu bytes)", p->size);
		return;
	}
	p->data = malloc(p->size ? p->size : 1);
	if (!p->data)
		mark_broken(p, "out of memory for %llu bytes", p->size);
}

static void data_line(struct consfile_parser *p, const char *args)
{
	unsigned char buf[CONSFILE_CHUNK + 3];
	char num[24];
	if (!p->open || p->broken)
		return;
	size_t nl = strcspn(args, " ");
	if (nl == 0 || nl >= sizeof(num)) {
		mark_broken(p, "garbled data line after line %llu", p->next);
		return;
	}
	memcpy(num, args, nl);
	num[nl] = 0;
	unsigned long long idx;
	if (parse_ull(num, &idx) || args[nl] != ' ') {
		mark_broken(p, "garbled data line after line %llu", p->next);
		return;
	}
	if (idx != p->next) {
		mark_broken(p, "data line %llu missing or out of order", p->next);
		return;
	}
	const char *enc = args + nl + 1;
	size_t elen = strlen(enc);
	long n = elen <= (CONSFILE_CHUNK / 3) * 4 ? b64_decode(enc, elen, buf) : -1;
	if (n < 0) {
		mark_broken(p, "data line %llu garbled (console noise inside it?)", idx);
		return;
	}
	if (p->len + (size_t)n > p->size) {
		mark_broken(p, "more data than its size (%llu)", p->size);
		return;
	}
	memcpy(p->data + p->len, buf, (size_t)n);
	p->len += (size_t)n;
	p->next++;
}

static int end_file(struct consfile_parser *p, const char *args)
{
	char bootdir[256], path[4096], lines[32], hex[SHA256_HEX_LEN + 1];
	unsigned long long nlines;
	if (!p->open)
		return 0;
	if (token(args, "boot", bootdir, sizeof(bootdir)) ||
	    token(args, "path", path, sizeof(path)) || strcmp(bootdir, p->bootdir) ||
	    strcmp(path, p->path)) {
		drop_file(p, "garbled or mismatched BENCHBOOT-END line");
		return 0;
	}
	if (p->broken) {
		char why[256];
		snprintf(why, sizeof(why), "%s", p->why);
		drop_file(p, why);
		return 0;
	}
	if (token(args, "lines", lines, sizeof(lines)) || parse_ull(lines, &nlines) ||
	    nlines != p->next) {
		drop_file(p, "data lines missing at the end");
		return 0;
	}
	if (p->len != p->size) {
		drop_file(p, "size mismatch");
		return 0;
	}
	bb_sha256_hex(p->data, p->len, hex);
	if (strcmp(hex, p->sha)) {
		drop_file(p, "sha256 mismatch");
		return 0;
	}
	struct consfile_file f = {p->bootdir, p->path, p->data, p->len, p->sha};
	int r = p->on_file ? p->on_file(&f, p->ctx) : 0;
	p->ok++;
	p->open = 0;
	drop_file(p, NULL);
	return r;
}

static int handle_line(struct consfile_parser *p, char *line)
{
	static const char tag[] = "BENCHBOOT-";
	char *t = line;
	/* the last tag on the line: a noise prefix may contain anything, our lines only base64 */
	for (char *s = line; (s = strstr(s, tag)); s++)
		t = s;
	if (strncmp(t, tag, sizeof(tag) - 1)) {
		return 0;
	}
	t += sizeof(tag) - 1;
	size_t len = strlen(t);
	while (len && (t[len - 1] == ' ' || t[len - 1] == '\t'))
		t[--len] = 0;
	if (!strncmp(t, "FILE ", 5))
		start_file(p, t + 5);
	else if (!strncmp(t, "DATA ", 5))
		data_line(p, t + 5);
	else if (!strncmp(t, "END ", 4))
		return end_file(p, t + 4);
	return 0;
}

int bb_consfile_feed(struct consfile_parser *p, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = buf[i];
		if (c == '\r' || c == 0)
			continue;
		if (c == '\n') {
			int r = 0;
			if (!p->overlong) {
				if (bb_grow(&p->line, &p->lcap, p->llen + 1, 1))
					return -ENOMEM;
				p->line[p->llen] = 0;
				r = handle_line(p, p->line);
			}
			p->llen = 0;
			p->overlong = 0;
			p->lineno++;
			if (r)
				return r;
			continue;
		}
		if (p->overlong)
			continue;
		if (p->llen >= LINE_MAX_LEN) {
			p->overlong = 1;
			if (p->open)
				mark_broken(p, "overlong line after data line %llu", p->next);
			continue;
		}
		if (bb_grow(&p->line, &p->lcap, p->llen + 1, 1))
			return -ENOMEM;
		p->line[p->llen++] = c;
	}
	return 0;
}

int bb_consfile_finish(struct consfile_parser *p)
{
	int r = 0;
	if (p->llen && !p->overlong) {
		r = bb_consfile_feed(p, "\n", 1);
	}
	drop_file(p, "truncated: the log ends inside the file");
	return r;
}

void bb_consfile_parser_free(struct consfile_parser *p)
{
	if (!p)
		return;
	free(p->data);
	free(p->line);
	free(p);
}

void bb_consfile_counts(const struct consfile_parser *p, unsigned *ok, unsigned *bad)
{
	*ok = p->ok;
	*bad = p->bad;
}
