/*
 * The two list types of benchboot, shared by the init and the host: a vector of owned strings
 * (argv, module lists, addresses) and an ordered list of owned key/value strings (parameters,
 * sysctls, flattened JSON). Zero-initialised is empty. Functions return 0 or -ENOMEM.
 */
#ifndef BENCHBOOT_STRV_H
#define BENCHBOOT_STRV_H

#include <stddef.h>

struct bb_strv {
	char **v;
	size_t n, cap;
};

/* Append a copy of s (of its first len bytes). */
int bb_strv_add(struct bb_strv *sv, const char *s);
int bb_strv_addn(struct bb_strv *sv, const char *s, size_t len);
/* Append the blank-separated (space, tab) words of s. */
int bb_strv_add_words(struct bb_strv *sv, const char *s);
void bb_strv_free(struct bb_strv *sv);

struct bb_kv {
	char *key;
	char *value;
};

struct bb_kvs {
	struct bb_kv *v;
	size_t n, cap;
};

/* The pair called key (the first one), or NULL. */
struct bb_kv *bb_kvs_find(const struct bb_kvs *kvs, const char *key);
/* Its value, or NULL. */
const char *bb_kvs_get(const struct bb_kvs *kvs, const char *key);
/* Its value, or def when there is no pair called key. */
const char *bb_kvs_get_or(const struct bb_kvs *kvs, const char *key, const char *def);
/* 1 when both hold the same pairs in the same order. */
int bb_kvs_equal(const struct bb_kvs *a, const struct bb_kvs *b);
/* Append a pair (a key may repeat: callers that forbid it check with bb_kvs_find first). */
int bb_kvs_add(struct bb_kvs *kvs, const char *key, const char *value);
/* Replace the value of key, or append the pair. */
int bb_kvs_set(struct bb_kvs *kvs, const char *key, const char *value);
/* Sort by key (stable for equal keys is not promised). */
void bb_kvs_sort(struct bb_kvs *kvs);
void bb_kvs_free(struct bb_kvs *kvs);
/* Parse "k=v k=v" (space separated) into kvs. 0, or -ENOMEM. */
int bb_kvs_parse_words(struct bb_kvs *kvs, const char *text);
/* "k=v k=v" for messages, values as they are (not escaped): malloc'ed, "" for no pairs, NULL
 * when out of memory. */
char *bb_kvs_format_words(const struct bb_kvs *kvs);

#endif
