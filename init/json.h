/* A small JSON writer for the init's records (env.json, status, rusage, results.json). */
#ifndef BENCHBOOT_INIT_JSON_H
#define BENCHBOOT_INIT_JSON_H

#include <stddef.h>

struct jw {
	char *buf;
	size_t len, cap;
	int depth;
	unsigned char first[32]; /* per depth: no element written yet */
	int oom;
};

/* key is NULL inside arrays and for the top-level value. */
void jw_open(struct jw *w, const char *key, char bracket);
void jw_close(struct jw *w, char bracket);
void jw_str(struct jw *w, const char *key, const char *val); /* NULL val: null */
void jw_num(struct jw *w, const char *key, double v);
void jw_int(struct jw *w, const char *key, long long v);
void jw_bool(struct jw *w, const char *key, int v);
/* Already-formed JSON text. */
void jw_raw(struct jw *w, const char *key, const char *json);
/* Write the document (plus a newline) to path under init_root; 0 or -errno. */
int jw_save(struct jw *w, const char *path);
void jw_free(struct jw *w);
/* Append s as a JSON string literal (with quotes) to buf; returns the new length. */
size_t json_quote(char *buf, size_t len, const char *s);

#endif
