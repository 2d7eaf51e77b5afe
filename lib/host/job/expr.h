/*
 * LKP's `{{ }}` expressions in job files (LKP's lib/erb.rb, evaluated by lib/job.rb's each_job
 * as Ruby on the job with its other keys fixed): the constructs LKP's real job files use, and
 * no other. A value `{{ EXPR }}` (or TEXT{{ EXPR }}TEXT) of a key is evaluated for each run of
 * the matrix; nil drops that run, as LKP drops such a job.
 *
 *   literals    'text', "text", 123, nil, true, false
 *   names       fs, fs2, fsmark.filesize (a key of the job; an absent key is nil)
 *   operators   a == b, a != b, a =~ /regex/ (POSIX extended), a && b, a || b, c ? a : b, (a)
 *   case        case X when 'a', 'b' then V ... else V end   (then, or a new line)
 *   if          if C then V elsif C then V else V end          (then, or a new line)
 *
 * Anything else (method calls, arithmetic, assignments) is refused with the construct.
 */
#ifndef BENCHBOOT_HOST_JOB_EXPR_H
#define BENCHBOOT_HOST_JOB_EXPR_H

#include <stddef.h>

#include "strv.h"

/* 1 when s holds a `{{ }}` expression. */
int bb_expr_in(const char *s);

/* Parse the expression of s (its `{{ }}` part): 0, or -EINVAL with the construct and where it
 * is in the expression in err. The literal values it may give (every branch's, "nil" for nil)
 * go to results when it is not NULL, for checking as the key's values; *may_vary is 1 when a
 * branch gives a name's value (not known before the run). */
int bb_expr_check(const char *s, struct bb_strv *results, int *may_vary, char *err, size_t errlen);

/*
 * Evaluate s for one run: the text around the expression kept (LKP's head and tail), names
 * looked up with lookup(name, ctx) (NULL: nil). *out is malloc'd, or NULL when the value is nil
 * (the run is dropped). 0, -EINVAL with err, -ENOMEM.
 */
int bb_expr_eval(const char *s, const char *(*lookup)(const char *name, void *ctx), void *ctx,
                 char **out, char *err, size_t errlen);

/*
 * The job's text with each `{{ }}` value (after `KEY: ` or `- `, as LKP's lib/erb.rb finds them)
 * made a YAML double-quoted string, its line breaks escaped so every line stays where it was
 * (messages name the file's lines). *out is malloc'd. 0 or -ENOMEM.
 */
int bb_expr_quote(const char *text, size_t len, char **out, size_t *outlen);

#endif
