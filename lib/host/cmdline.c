/* Kernel command lines without benchboot's per-boot words (cmdline.h). */
#include <stdlib.h>
#include <string.h>

#include "host/cmdline.h"

const char *const BB_CMDLINE_PER_BOOT[] = {
    "benchboot.order.rotate=", "benchboot.boot.group=", NULL};
const char *const BB_CMDLINE_TURN[] = {"benchboot.order.rotate=", NULL};

static int begins_with_one(const char *word, const char *const *prefixes)
{
	for (; *prefixes; prefixes++)
		if (!strncmp(word, *prefixes, strlen(*prefixes)))
			return 1;
	return 0;
}

char *bb_cmdline_without(const char *cmdline, const char *const *prefixes)
{
	char *o = malloc(strlen(cmdline) + 1), *w = o;
	if (!o)
		return NULL;
	for (const char *p = cmdline + strspn(cmdline, " "); *p;) {
		size_t n = strcspn(p, " ");
		if (!begins_with_one(p, prefixes)) {
			if (w != o)
				*w++ = ' ';
			memcpy(w, p, n);
			w += n;
		}
		p += n;
		p += strspn(p, " ");
	}
	*w = 0;
	return o;
}
