/* The monitors' status files (monitor_status.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init.h"
#include "monitor_status.h"

void monitor_status(const char *dir, const char *name, const char *status, const char *notes)
{
	char path[600];
	size_t sl = strlen(status), nl = notes ? strlen(notes) : 0;
	char *text = malloc(sl + nl + 3);
	if (!text) {
		say("monitor %s: status not written: out of memory", name);
		return;
	}
	memcpy(text, status, sl);
	text[sl] = '\n';
	memcpy(text + sl + 1, notes ? notes : "", nl);
	text[sl + 1 + nl] = 0;
	if (nl && notes[nl - 1] != '\n')
		strcat(text, "\n");
	/* one line of status: a reason's newlines would read as further lines */
	for (char *c = text; c < text + sl; c++)
		if (*c == '\n')
			*c = ' ';
	snprintf(path, sizeof path, "%s/monitor.%s.status", dir, name);
	int r = init_write(path, text, 1);
	if (r)
		say("monitor %s: cannot write %s: %s", name, path, strerror(-r));
	free(text);
}

int monitor_status_read(const char *dir, const char *name, char *status, size_t slen, char *notes,
                        size_t nlen)
{
	char path[600];
	snprintf(path, sizeof path, "%s/monitor.%s.status", dir, name);
	char *text = init_read(path, NULL);
	if (!text)
		return -errno;
	size_t l = strcspn(text, "\n");
	snprintf(status, slen, "%.*s", (int)l, text);
	if (notes && nlen) {
		size_t n = 0;
		notes[0] = 0;
		for (char *line = text + l + (text[l] == '\n'); *line;) {
			size_t ll = strcspn(line, "\n");
			if (ll > 6 && !strncmp(line, "note: ", 6) && n + 1 < nlen)
				n += (size_t)snprintf(notes + n, nlen - n, "%.*s\n", (int)(ll - 6),
				                      line + 6);
			if (n >= nlen)
				n = nlen - 1;
			line += ll + (line[ll] == '\n');
		}
	}
	free(text);
	return 0;
}

int monitor_status_ok(const char *dir, const char *name)
{
	char status[64];
	return !monitor_status_read(dir, name, status, sizeof status, NULL, 0) &&
	       !strcmp(status, "ok");
}
