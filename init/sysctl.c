/*
 * sysctls, per run: write each requested value to /proc/sys, read it back and keep both. An
 * unknown key, a refused write or a different read-back value fails the run with that reason.
 * After the run every written key gets its boot value back, so each run sees the boot's
 * defaults plus exactly its own settings.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "init.h"

void sysctl_normalize(const char *in, char *out, size_t len)
{
	size_t n = 0;
	int space = 0;
	in += strspn(in, " \t\n");
	for (; *in && n + 1 < len; in++) {
		if (*in == ' ' || *in == '\t' || *in == '\n') {
			space = 1;
			continue;
		}
		if (space && n + 2 < len)
			out[n++] = ' ';
		space = 0;
		out[n++] = *in;
	}
	out[n] = 0;
}

static void key_path(const char *key, char *path, size_t len)
{
	size_t n = (size_t)snprintf(path, len, "/proc/sys/");
	for (; *key && n + 1 < len; key++)
		path[n++] = *key == '.' ? '/' : *key;
	path[n] = 0;
}

static int read_value(const char *path, char *buf, size_t len)
{
	char *text = init_read(path, NULL);
	if (!text)
		return -errno;
	sysctl_normalize(text, buf, len);
	free(text);
	return 0;
}

int sysctl_apply(const struct bb_kvs *want, struct sysctl_set *set, char *reason, size_t len)
{
	memset(set, 0, sizeof(*set));
	if (!want->n)
		return 0;
	if (!(set->v = calloc(want->n, sizeof(set->v[0])))) {
		snprintf(reason, len, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < want->n; i++) {
		struct sysctl_entry *e = &set->v[set->n++];
		char path[256], wanted[256];
		int r;
		snprintf(e->key, sizeof(e->key), "%s", want->v[i].key);
		snprintf(e->requested, sizeof(e->requested), "%s", want->v[i].value);
		key_path(e->key, path, sizeof(path));
		if ((r = read_value(path, e->original, sizeof(e->original)))) {
			snprintf(reason, len,
			         r == -ENOENT ? "sysctl %s: unknown key (no %s)"
			                      : "sysctl %s: cannot read %s: %s",
			         e->key, path, strerror(-r));
			return -1;
		}
		e->applied = 1;
		if ((r = init_write(path, e->requested, 0))) {
			read_value(path, e->actual, sizeof(e->actual));
			snprintf(reason, len, "sysctl %s=%s refused: %s", e->key, e->requested,
			         strerror(-r));
			return -1;
		}
		if ((r = read_value(path, e->actual, sizeof(e->actual)))) {
			snprintf(reason, len, "sysctl %s: cannot read back: %s", e->key,
			         strerror(-r));
			return -1;
		}
		sysctl_normalize(e->requested, wanted, sizeof(wanted));
		if (strcmp(wanted, e->actual)) {
			snprintf(reason, len, "sysctl %s: requested '%s', kernel has '%s'", e->key,
			         e->requested, e->actual);
			return -1;
		}
	}
	return 0;
}

int sysctl_restore(struct sysctl_set *set)
{
	int failures = 0;
	for (size_t i = set->n; i-- > 0;) {
		struct sysctl_entry *e = &set->v[i];
		char path[256];
		if (!e->applied || !strcmp(e->original, e->actual))
			continue;
		key_path(e->key, path, sizeof(path));
		int r = init_write(path, e->original, 0);
		if (r) {
			say("sysctl %s: cannot restore '%s': %s", e->key, e->original,
			    strerror(-r));
			failures++;
		}
		e->applied = 0;
	}
	return failures;
}

void sysctl_free(struct sysctl_set *set)
{
	free(set->v);
	memset(set, 0, sizeof(*set));
}
