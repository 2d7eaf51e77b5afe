/*
 * The messages of a job's reading: an error or a warning names its place, "FILE:LINE:COL: ",
 * the file and line the expanded text's line came from (jobinclude.h); marks keep the
 * expanded text's line and column.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "host/job/job_internal.h"

/* The file and 1-based line of a 0-based line of the expanded text. */
const char *job_src_of(const struct walker *w, size_t line0, int *line)
{
	if (w->map && line0 < w->map->nlines) {
		*line = w->map->line[line0];
		return w->map->files.v[w->map->file[line0]];
	}
	*line = (int)line0 + 1;
	return w->file;
}

static int vformat(const struct walker *w, yaml_mark_t m, char *buf, size_t len, const char *fmt,
                   va_list ap)
{
	int line;
	const char *file = job_src_of(w, m.line, &line);
	int n = snprintf(buf, len, "%s:%d:%zu: ", file, line, m.column + 1);
	if (n < 0 || (size_t)n >= len)
		return -EINVAL;
	vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	return 0;
}

int jfail(struct walker *w, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vformat(w, m, w->err, w->errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A warning: the job still runs. 0 or -ENOMEM. */
int jwarn(struct walker *w, yaml_mark_t m, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vformat(w, m, buf, sizeof buf, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < w->job->warnings.n; i++)
		if (!strcmp(w->job->warnings.v[i], buf))
			return 0; /* the same line seen again (document 0 in every job) */
	return bb_strv_add(&w->job->warnings, buf);
}

/* Marks keep the expanded text's line (for ordering) and say the file; messages map the
 * line back with mark_line(). */
struct bb_mark job_mark_of(yaml_mark_t m)
{
	return (struct bb_mark){(int)m.line + 1, (int)m.column + 1};
}

yaml_mark_t job_ymark(struct bb_mark m)
{
	return (yaml_mark_t){0, m.line > 0 ? (size_t)m.line - 1 : 0,
	                     m.col > 0 ? (size_t)m.col - 1 : 0};
}
