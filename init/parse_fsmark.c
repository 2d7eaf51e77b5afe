/* fs_mark's output into LKP's stats (parse_fsmark.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "parse_fsmark.h"

/* The last line of s that is not empty, for a message (fs_mark's error comes last). */
static void last_line(const char *s, char *out, size_t len)
{
	size_t end = strlen(s);
	while (end && (s[end - 1] == '\n' || s[end - 1] == '\r'))
		end--;
	size_t start = end;
	while (start && s[start - 1] != '\n')
		start--;
	size_t n = end - start;
	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), s + start);
}

int parse_fsmark_stats(const char *const *outs, size_t n, struct bb_stats *out, char *err,
                       size_t errlen)
{
	double files = 0, overhead = 0;
	size_t loops = 0;
	int rc;
	if (n == 0) {
		snprintf(err, errlen, "fsmark: no clients");
		return -EINVAL;
	}
	/* LKP: skip to the header line, then take lines of exactly five fields until one is not */
	const char *l = outs[0] ? strstr(outs[0], "\nFSUse%") : NULL;
	if (!l && outs[0] && !strncmp(outs[0], "FSUse%", 6))
		l = outs[0];
	for (l = l ? strchr(l + 1, '\n') : NULL; l && *l; l = strchr(l, '\n')) {
		l++;
		double f[5];
		char extra, line[512];
		/* exactly five numbers on the line: a sixth field ends the table, as in LKP */
		snprintf(line, sizeof line, "%.*s", (int)strcspn(l, "\n"), l);
		if (sscanf(line, "%lf %lf %lf %lf %lf %c", &f[0], &f[1], &f[2], &f[3], &f[4],
		           &extra) != 5)
			break;
		files += f[3];
		overhead += f[4];
		loops++;
	}
	if (!loops) {
		char msg[200];
		last_line(outs[0] ? outs[0] : "", msg, sizeof msg);
		snprintf(err, errlen,
		         "fsmark: no result line after fs_mark's \"FSUse%%\" header%s%s%s",
		         *msg ? " (it said: " : "", msg, *msg ? ")" : "");
		return -EINVAL;
	}
	if ((rc = bb_stats_add(out, "fsmark.files_per_sec", files / (double)loops, "files/s")) ||
	    (rc = bb_stats_add(out, "fsmark.app_overhead", overhead / (double)loops, "us")))
		return rc;
	return 0;
}
