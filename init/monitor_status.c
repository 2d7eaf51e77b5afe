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

int monitor_status_lines(const struct bb_strv *names, const char *dir, char ***out)
{
	char **v = calloc(names->n ? names->n : 1, sizeof *v);
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < names->n; i++) {
		char status[1024];
		if (monitor_status_read(dir, names->v[i], status, sizeof status, NULL, 0))
			snprintf(status, sizeof status, "unavailable: no status recorded");
		if (!(v[i] = strdup(status))) {
			monitor_status_lines_free(v, i);
			return -ENOMEM;
		}
	}
	*out = v;
	return 0;
}

void monitor_status_lines_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

void monitor_status_json(struct ijw *w, const struct bb_strv *names, const char *dir)
{
	ijw_open(w, "monitors", '{');
	for (size_t i = 0; i < names->n; i++) {
		char status[1024], notes[4096];
		if (monitor_status_read(dir, names->v[i], status, sizeof status, notes,
		                        sizeof notes)) {
			ijw_raw(w, names->v[i], "null");
			continue;
		}
		ijw_open(w, names->v[i], '{');
		ijw_str(w, "status", status);
		ijw_open(w, "notes", '[');
		for (char *line = notes; *line;) {
			size_t l = strcspn(line, "\n");
			char c = line[l];
			line[l] = 0;
			ijw_str(w, NULL, line);
			line += l + (c != 0);
		}
		ijw_close(w, ']');
		ijw_close(w, '}');
	}
	ijw_close(w, '}');
}
