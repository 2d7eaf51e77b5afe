/*
 * JSON on the host: a reader into a tree of nodes (env.json, params.json, run.json, status
 * files), parsed by jansson (Debian's libjansson), and a streaming writer (for `--json`
 * output). results.json is read with lib/results/resjson.c, the parser the init uses. Host only.
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
	char *str;   /* JN_STR: NUL-terminated UTF-8 (embedded NULs are refused) */
	char *raw;   /* JN_NUM: the number as written */
	size_t n;    /* JN_ARR, JN_OBJ: number of members */
	char **keys; /* JN_OBJ: member names, in file order */
	struct jn **items;
};

/* Parse text of len bytes (any JSON value at the top; on duplicate keys the last wins). NULL
 * on error, with "line L col C: what" in err (jansson's position and words). */
struct jn *bb_jn_parse(const char *text, size_t len, char *err, size_t errlen);
/* Parse a file (at most 64 MiB). NULL on error; err says why (errno kept for I/O errors). */
struct jn *bb_jn_parse_file(const char *path, char *err, size_t errlen);
void bb_jn_free(struct jn *node);
/* Member of an object (last one wins on duplicates), or NULL. */
const struct jn *bb_jn_get(const struct jn *obj, const char *key);
/* A scalar as text: strings as they are, numbers as written, true/false/null. NULL otherwise. */
const char *bb_jn_scalar_text(const struct jn *node, char *buf, size_t buflen);

/* Streaming writer with indentation; numbers that are not finite are written as null. */
struct jout {
	FILE *f;
	int depth;
	int first[64];
	int after_key;
};
void bb_jout_init(struct jout *w, FILE *f);
void bb_jout_obj_begin(struct jout *w);
void bb_jout_obj_end(struct jout *w);
void bb_jout_arr_begin(struct jout *w);
void bb_jout_arr_end(struct jout *w);
void bb_jout_key(struct jout *w, const char *key);
void bb_jout_str(struct jout *w, const char *s);
void bb_jout_num(struct jout *w, double v);
void bb_jout_int(struct jout *w, long long v);
void bb_jout_null(struct jout *w);
/* A member of the object being written: bb_jout_key then the value. _str writes NULL as null;
 * _text also writes an empty string as null (a field that was never filled). */
void bb_jout_kv_str(struct jout *w, const char *key, const char *s);
void bb_jout_kv_text(struct jout *w, const char *key, const char *s);
void bb_jout_kv_num(struct jout *w, const char *key, double v);
void bb_jout_kv_int(struct jout *w, const char *key, long long v);
void bb_jout_kv_bool(struct jout *w, const char *key, int v);
/* Write a parsed value back (numbers as they were written). */
void bb_jout_node(struct jout *w, const struct jn *node);
/* Write s as a JSON string literal (quotes and escapes). */
void bb_jout_quote(FILE *f, const char *s);

struct bb_kvs;
/* Flatten a JSON value into kvs: objects as "prefix.key", arrays as "prefix.N". 0, or
 * -ENOMEM. */
int bb_kvs_flatten(struct bb_kvs *kvs, const char *prefix, const struct jn *node);

#endif
