/* SHA-256 (FIPS 180-4), plain C: used by the host tools and usable by the init (musl). */
#ifndef BENCHBOOT_SHA256_H
#define BENCHBOOT_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_LEN 32
#define SHA256_HEX_LEN 64

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t fill;
};

void bb_sha256_init(struct sha256 *s);
void bb_sha256_update(struct sha256 *s, const void *data, size_t len);
void bb_sha256_final(struct sha256 *s, unsigned char out[SHA256_DIGEST_LEN]);
/* One-shot digest as lower-case hex, NUL-terminated (hex needs SHA256_HEX_LEN + 1 bytes). */
void bb_sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1]);
void bb_sha256_to_hex(const unsigned char digest[SHA256_DIGEST_LEN], char hex[SHA256_HEX_LEN + 1]);
/* Digest of a file's content as hex; returns 0 or -errno (errno set too). */
int bb_sha256_file_hex(const char *path, char hex[SHA256_HEX_LEN + 1]);

#endif
