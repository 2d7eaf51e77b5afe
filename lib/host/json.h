/*
 * A small JSON reader (a tree of nodes, for env.json, results.json, params.json and status
 * files) and a streaming writer (for `--json` output). Host only.
 */
#ifndef BENCHBOOT_HOST_JSON_H
#define BENCHBOOT_HOST_JSON_H

#include <stddef.h>
#include <stdio.h>

enum jn_type { JN_NULL, JN_BOOL, JN_NUM, JN_STR, JN_ARR, JN_OBJ };

struct jn {
	enum jn_type type;
	int boolean;
	double num;
	char *str;	  /* JN_STR: NUL-terminated UTF-8 (embedded NULs are refused) */
	char *raw;	  /* JN_NUM: the number as written */
	size_t n;	  /* JN_ARR, JN_OBJ: number of members */
	char **keys;	  /* JN_OBJ: member names, in file order */
	struct jn **items;
};

/* Parse text of len bytes. NULL on error, with "line L col C: what" in err. */
struct jn *jn_parse(const char *text, size_t len, char *err, size_t errlen);
/* Parse a file (at most 64 MiB). NULL on error; err says why (errno kept for I/O errors). */
struct jn *jn_parse_file(const char *path, char *err, size_t errlen);
void jn_free(struct jn *node);
/* Member of an object (last one wins on duplicates), or NULL. */
const struct jn *jn_get(const struct jn *obj, const char *key);
/* A scalar as text: strings as they are, numbers as written, true/false/null. NULL otherwise. */
const char *jn_scalar_text(const struct jn *node, char *buf, size_t buflen);

/* Streaming writer with indentation; numbers that are not finite are written as null. */
struct jw {
	FILE *f;
	int depth;
	int first[64];
	int after_key;
};
void jw_init(struct jw *w, FILE *f);
void jw_obj_begin(struct jw *w);
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w);
void jw_arr_end(struct jw *w);
void jw_key(struct jw *w, const char *key);
void jw_str(struct jw *w, const char *s);
void jw_num(struct jw *w, double v);
void jw_int(struct jw *w, long long v);
void jw_bool(struct jw *w, int v);
void jw_null(struct jw *w);
/* Write s as a JSON string literal (quotes and escapes). */
void jw_quote(FILE *f, const char *s);

#endif
