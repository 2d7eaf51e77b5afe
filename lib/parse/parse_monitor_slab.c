/* slabinfo (parse_monitor_int.h): LKP's programs/slabinfo/parse, read at lkp-tests bbbc29c4. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "parse/parse_monitor_int.h"

/*
 * /proc/slabinfo 2.1: the `# name <active_objs> <num_objs> ... : slabdata <active_slabs>
 * <num_slabs> <sharedavail>` header names the columns; each cache's line gives
 * NAME.active_objs, NAME.num_objs, NAME.active_slabs and NAME.num_slabs (a line with another
 * number of columns is skipped). Means over the samples, as LKP reduces them. Another
 * version, or a line before the header, is an error: LKP's parse stops there.
 */
void bb_mon_slabinfo_line(struct parse *p, char *line)
{
	char *w[32];
	size_t n;
	if (strstr(line, "slabinfo - version:")) {
		if (!strstr(line, "2.1")) {
			p->err = -EINVAL;
			snprintf(p->errmsg, sizeof p->errmsg, "%s is not 2.1", line);
		}
		return;
	}
	if (!strncmp(line, "# name", 6)) {
		n = bb_mon_split(line, w, 32);
		p->nsub = 0;
		for (size_t i = 2; i < n && p->nsub < 24; i++)
			snprintf(p->sub[p->nsub++], sizeof p->sub[0], "%s", w[i]);
		return;
	}
	if (!(n = bb_mon_split(line, w, 32)))
		return;
	if (p->nsub < 0) {
		p->err = -EINVAL;
		snprintf(p->errmsg, sizeof p->errmsg, "a line before the `# name` header: %.60s",
		         w[0]);
		return;
	}
	if (n - 1 != (size_t)p->nsub)
		return;
	for (int i = 0; i < p->nsub; i++) {
		const char *c = p->sub[i];
		if (!strcmp(c, "<active_objs>") || !strcmp(c, "<num_objs>") ||
		    !strcmp(c, "<active_slabs>") || !strcmp(c, "<num_slabs>")) {
			char key[200];
			snprintf(key, sizeof key, "%s.%.*s", w[0], (int)strlen(c) - 2, c + 1);
			bb_mon_emit(p, key, w[i + 1]);
		}
	}
}
