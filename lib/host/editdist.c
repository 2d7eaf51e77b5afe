/* Optimal string alignment distance; see editdist.h. */
#include <ctype.h>
#include <string.h>

#include "host/editdist.h"

unsigned bb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned d[128][128];
	if (lb >= 128 || la >= 128)
		return 1000;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]),
			    cb = tolower((unsigned char)b[j - 1]);
			unsigned best = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			/* two neighbours swapped ("tset" for "test") is one edit */
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}
