/*
 * The one JSON string writer, for the init's records (init/json.c), results.json
 * (lib/results/resjson.c) and the host's writer (lib/host/json.c). Plain C, no allocation: the text
 * goes out through a sink in runs of bytes.
 *
 * Escaped: `"` and `\`, \b \f \n \r \t, other control characters and DEL as \u00XX. Valid
 * UTF-8 passes through. Bytes that are no UTF-8 (serial noise in a console line, a garbled
 * name) are written as U+FFFD (EF BF BD), one per maximal subpart of an ill-formed sequence
 * as Unicode's "substitution of maximal subparts" says: overlongs, surrogates (U+D800..DFFF),
 * code points above U+10FFFF, stray continuation bytes and truncated sequences. So the output
 * is always valid UTF-8 and valid JSON.
 */
#ifndef BENCHBOOT_JSONSTR_H
#define BENCHBOOT_JSONSTR_H

#include <stddef.h>

/* Receives the next n bytes of the literal (not NUL-terminated). */
typedef void bb_jsonstr_sink(void *ctx, const char *p, size_t n);

/* Write s (NUL-terminated) as a JSON string literal, quotes included. */
void bb_jsonstr_write(const char *s, bb_jsonstr_sink *sink, void *ctx);

/* The same, appended to the NUL-terminated text in buf (size len), cut where it does not fit
 * (buf stays NUL-terminated); returns the new strlen(buf). */
size_t bb_jsonstr_append(char *buf, size_t len, const char *s);

#endif
