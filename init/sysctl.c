/*
 * sysctls, per run: write each requested value to /proc/sys, read it back and keep both. An
 * unknown key, a refused write or a different read-back value fails the run with that reason.
 * After the run every written key gets its boot value back, so each run sees the boot's
 * defaults plus exactly its own settings.
 *
 * Two forms from LKP jobs are resolved here, on the machine that runs them:
 *   sc_NAME     LKP's sysctl setup keys: the file NAME (or with '-' for '_') in /proc/sys/
 *               {abi,debug,fs,kernel,sunrpc,user,vm,net/core}, the first that exists;
 *   @netbuf:N@  in a value: LKP's net-buffer size, MemTotal / N / 16 in bytes, N the
 *               run's nr_threads (a count, or P% of the online CPUs rounded down).
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

/* LKP's sc_NAME: where its setup would write it. 0, or -ENOENT. */
static int sc_path(const char *key, char *path, size_t len)
{
	static const char *const dirs[] = {"abi",    "debug", "fs", "kernel",
	                                   "sunrpc", "user",  "vm", "net/core"};
	char name[128], dashed[128];
	snprintf(name, sizeof(name), "%s", key + 3);
	snprintf(dashed, sizeof(dashed), "%s", name);
	for (char *p = dashed; *p; p++)
		if (*p == '_')
			*p = '-';
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		for (int d = 0; d < 2; d++) {
			char *text;
			snprintf(path, len, "/proc/sys/%s/%s", dirs[i], d ? dashed : name);
			if ((text = init_read(path, NULL))) {
				free(text);
				return 0;
			}
		}
	snprintf(path, len, "/proc/sys/*/%s", name);
	return -ENOENT;
}

/* Online CPUs, for a percentage of them. */
static unsigned online_cpus(void)
{
	char *text = init_read("/sys/devices/system/cpu/online", NULL);
	struct bb_cpuset set;
	unsigned n = 0;
	if (text) {
		text[strcspn(text, "\n")] = 0;
		if (!bb_cpulist_parse(text, &set))
			n = bb_cpuset_count(&set);
		free(text);
	}
	return n ? n : 1;
}

/* MemTotal in bytes, or 0. */
static unsigned long long mem_total(void)
{
	char *text = init_read("/proc/meminfo", NULL), *p;
	unsigned long long kb = 0;
	if (text && (p = strstr(text, "MemTotal:")))
		kb = strtoull(p + 9, NULL, 10);
	free(text);
	return kb * 1024;
}

/* Replace @netbuf:N@ in value (LKP's programs/net-buffer/setup). 0, or -1 with reason. */
static int expand_value(const char *value, char *out, size_t len, char *reason, size_t rlen)
{
	const char *at = strstr(value, "@netbuf:");
	const char *end = at ? strchr(at + 8, '@') : NULL;
	if (!at || !end) {
		snprintf(out, len, "%s", value);
		return 0;
	}
	char spec[32];
	snprintf(spec, sizeof(spec), "%.*s", (int)(end - at - 8), at + 8);
	unsigned long long n = strtoull(spec, NULL, 10);
	if (spec[strlen(spec) - 1] == '%')
		n = n * online_cpus() / 100;
	unsigned long long mem = mem_total();
	if (!n || !mem) {
		snprintf(reason, rlen, "net-buffer: nr_threads %s is 0 here, or no MemTotal", spec);
		return -1;
	}
	snprintf(out, len, "%.*s%llu%s", (int)(at - value), value, mem / n / 16, end + 1);
	return 0;
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
		if (expand_value(want->v[i].value, e->requested, sizeof(e->requested), reason, len))
			return -1;
		if (!strncmp(e->key, "sc_", 3) && !strchr(e->key, '.')) {
			if (sc_path(e->key, path, sizeof(path))) {
				snprintf(reason, len, "sysctl %s: unknown key (no %s)", e->key,
				         path);
				return -1;
			}
		} else {
			key_path(e->key, path, sizeof(path));
		}
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
		if (strncmp(e->key, "sc_", 3) || strchr(e->key, '.') ||
		    sc_path(e->key, path, sizeof(path)))
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
