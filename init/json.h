/* A small JSON writer for the init's records (env.json, status, rusage, results.json). */
#ifndef BENCHBOOT_INIT_JSON_H
#define BENCHBOOT_INIT_JSON_H

#include <stddef.h>

struct ijw {
	char *buf;
	size_t len, cap;
	int depth;
	unsigned char first[32]; /* per depth: no element written yet */
	int oom;
};

/* key is NULL inside arrays and for the top-level value. */
void ijw_open(struct ijw *w, const char *key, char bracket);
void ijw_close(struct ijw *w, char bracket);
void ijw_str(struct ijw *w, const char *key, const char *val); /* NULL val: null */
void ijw_num(struct ijw *w, const char *key, double v);
void ijw_int(struct ijw *w, const char *key, long long v);
void ijw_bool(struct ijw *w, const char *key, int v);
/* Already-formed JSON text. */
void ijw_raw(struct ijw *w, const char *key, const char *json);
/* Write the document (plus a newline) to path under init_root; 0 or -errno. */
int ijw_save(struct ijw *w, const char *path);
void ijw_free(struct ijw *w);
/* Append s as a JSON string literal (with quotes) to buf; returns the new length. */
size_t ijson_quote(char *buf, size_t len, const char *s);

#endif
