/*
 * LKP's text includes, done before YAML parsing as LKP's lib/yaml.rb does:
 *
 *   <<: FILE                      the text of FILE, indented like the `<<` line
 *   <<: {file: FILE, KEY: VAL}    ... with `KEY: VAL` replacing that top-level line in every
 *                                 document of FILE, or appended to a document without it
 *   <<: {file: FILE, ignore: [K]} ... without FILE's lines `K:`
 *
 * FILE is looked up as LKP does: an absolute path; `./X` or `../X` next to the including
 * file; else next to the including file, then anywhere below the nearest `jobs` directory
 * above it, then below the including file's directory. An included file with `---` stays
 * multi-document. Like LKP, one level: an include inside an included file is left as it is
 * (the job parser refuses the key `<<` with the reason).
 *
 * Every line of the result remembers where it came from, so messages name the included file
 * and its line.
 */
#ifndef BENCHBOOT_HOST_JOBINCLUDE_H
#define BENCHBOOT_HOST_JOBINCLUDE_H

#include <stddef.h>

#include "strv.h"

struct bb_srcmap {
	struct bb_strv files; /* files.v[0] is the job file itself */
	int *file;            /* per line of the expanded text (0-based): index into files */
	int *line;            /* per line: 1-based line in that file */
	size_t nlines;
};

/*
 * Expand the includes of text (read from path). *out is the expanded text (NUL-terminated,
 * malloc'd), map says where each of its lines came from. 0, or -EINVAL / -errno with
 * "FILE:LINE: ..." in err (an include that is not found, a bad `{file: ...}`).
 */
int bb_job_expand_includes(const char *path, const char *text, size_t len, char **out,
                           size_t *outlen, struct bb_srcmap *map, char *err, size_t errlen);
void bb_srcmap_free(struct bb_srcmap *map);

#endif
