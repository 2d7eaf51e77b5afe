/* The words of a job: how near one is to another (the "did you mean" of messages), whether a
 * list holds one, whether one is a plain name (job_internal.h). */
#include <ctype.h>
#include <string.h>

#include "host/editdist.h"
#include "host/job/job_internal.h"

/* Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbours ("tset" is one edit from "test"), case-insensitive. */
/* Close enough to suggest: at most 2 edits, and at most a third of the word. */
int job_near(const char *typo, const char *cand, unsigned *best)
{
	unsigned d = bb_edit_distance(typo, cand);
	unsigned lim = (unsigned)strlen(cand) / 3;
	if (lim > 3)
		lim = 3;
	if (lim < 1)
		lim = 1;
	if (d <= lim && d < *best) {
		*best = d;
		return 1;
	}
	return 0;
}

int job_one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

int job_plain_name(const char *s, size_t n, size_t max)
{
	int ok = n > 0 && n < max;
	for (size_t i = 0; ok && i < n; i++)
		ok = isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-';
	return ok;
}

const char *job_nearest_in(const char *s, const char *const *list)
{
	const char *best = NULL;
	unsigned d = 1000;
	for (; *list; list++)
		if (job_near(s, *list, &d))
			best = *list;
	return best;
}
