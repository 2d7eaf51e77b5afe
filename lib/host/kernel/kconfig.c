/* The kernel configuration a job needs; see kconfig.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/fileio.h"
#include "host/kernel/kconfig.h"
#include "host/strbuf.h"

/* What every benchboot boot needs of its kernel (init/, docs/kernel.md). */
static const char *const base_lines[] = {"CONFIG_BLK_DEV_INITRD=y",
                                         "CONFIG_RD_GZIP=y",
                                         "CONFIG_RD_ZSTD=y",
                                         "CONFIG_BINFMT_ELF=y",
                                         "CONFIG_BINFMT_SCRIPT=y",
                                         "CONFIG_DEVTMPFS=y",
                                         "CONFIG_PROC_FS=y",
                                         "CONFIG_SYSFS=y",
                                         "CONFIG_TMPFS=y",
                                         "CONFIG_DEBUG_FS=y",
                                         "CONFIG_PRINTK=y",
                                         "CONFIG_SERIAL_8250=y",
                                         "CONFIG_SERIAL_8250_CONSOLE=y",
                                         "CONFIG_PCI=y",
                                         "CONFIG_VIRTIO_MENU=y",
                                         "CONFIG_VIRTIO_PCI=y",
                                         "CONFIG_VIRTIO_BLK=y",
                                         "CONFIG_MODULES=y",
                                         "CONFIG_MODULE_UNLOAD=y",
                                         "CONFIG_MODULE_COMPRESS_NONE=y",
                                         "CONFIG_NET=y",
                                         "CONFIG_INET=y",
                                         "CONFIG_UNIX=y",
                                         "CONFIG_DUMMY=y",
                                         "CONFIG_KALLSYMS=y",
                                         NULL};

struct ksym_map {
	const char *name;
	const char *lines; /* space-separated CONFIG_X=V */
};

static const struct ksym_map controllers[] = {
    {"cpu", "CONFIG_CGROUP_SCHED=y CONFIG_FAIR_GROUP_SCHED=y CONFIG_CFS_BANDWIDTH=y"},
    {"cpuacct", "CONFIG_CGROUP_CPUACCT=y"},
    {"cpuset", "CONFIG_CPUSETS=y"},
    {"memory", "CONFIG_MEMCG=y"},
    {"pids", "CONFIG_CGROUP_PIDS=y"},
    {"io", "CONFIG_BLK_CGROUP=y"},
    {"blkio", "CONFIG_BLK_CGROUP=y"},
    {"freezer", "CONFIG_CGROUP_FREEZER=y"},
    {"hugetlb", "CONFIG_HUGETLBFS=y CONFIG_CGROUP_HUGETLB=y"},
    {"perf_event", "CONFIG_PERF_EVENTS=y CONFIG_CGROUP_PERF=y"},
    {"devices", "CONFIG_CGROUP_DEVICE=y"},
    {"net_cls", "CONFIG_CGROUP_NET_CLASSID=y"},
    {"net_prio", "CONFIG_CGROUP_NET_PRIO=y"},
    {"rdma", "CONFIG_CGROUP_RDMA=y"},
    {"misc", "CONFIG_CGROUP_MISC=y"},
    {NULL, NULL},
};

static const struct ksym_map monitors[] = {
    {"perf-stat", "CONFIG_PERF_EVENTS=y"},
    {"perf-profile", "CONFIG_PERF_EVENTS=y CONFIG_KALLSYMS_ALL=y"},
    {"sched_debug", "CONFIG_SCHED_DEBUG=y"},
    {"lock_stat", "CONFIG_LOCK_STAT=y"},
    {"latency_stats", "CONFIG_LATENCYTOP=y"},
    {NULL, NULL},
};

/* sysctls (a name, or a prefix ending in '.' or '-') that exist only with a CONFIG symbol */
static const struct ksym_map sysctls[] = {
    {"kernel.sched_autogroup_enabled", "CONFIG_SCHED_AUTOGROUP=y"},
    {"kernel.sched_schedstats", "CONFIG_SCHEDSTATS=y"},
    {"kernel.numa_balancing", "CONFIG_NUMA_BALANCING=y"},
    {"kernel.perf_event_", "CONFIG_PERF_EVENTS=y"},
    {"kernel.nmi_watchdog", "CONFIG_LOCKUP_DETECTOR=y CONFIG_HARDLOCKUP_DETECTOR=y"},
    {"kernel.watchdog", "CONFIG_LOCKUP_DETECTOR=y"},
    {"fs.mqueue.", "CONFIG_POSIX_MQUEUE=y"},
    {"fs.aio-", "CONFIG_AIO=y"},
    {"fs.inotify.", "CONFIG_INOTIFY_USER=y"},
    {"net.ipv6.", "CONFIG_IPV6=y"},
    {"net.sctp.", "CONFIG_IP_SCTP=m"},
    {NULL, NULL},
};

/* The entry of sysctls whose name or prefix covers name, or NULL. */
static const struct ksym_map *sysctl_entry(const char *name)
{
	for (const struct ksym_map *m = sysctls; m->name; m++) {
		size_t n = strlen(m->name);
		char last = m->name[n - 1];
		if (last == '.' || last == '-' ? !strncmp(name, m->name, n)
		                               : !strcmp(name, m->name))
			return m;
	}
	return NULL;
}

static const char *map_lines(const struct ksym_map *m, const char *name)
{
	for (; m->name; m++)
		if (!strcmp(m->name, name))
			return m->lines;
	return NULL;
}

static int has(const struct bb_strv *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], s))
			return 1;
	return 0;
}

static int add_once(struct bb_strv *v, const char *s, size_t len)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%.*s", (int)len, s);
	return has(v, buf) ? 0 : bb_strv_add(v, buf);
}

static int add_words(struct bb_strv *v, const char *words)
{
	int rc = 0;
	for (const char *w = words; w && *w && !rc;) {
		size_t n = strcspn(w, " \t,");
		if (n)
			rc = add_once(v, w, n);
		w += n;
		w += strspn(w, " \t,");
	}
	return rc;
}

int bb_kneeds_add_plan(struct bb_kneeds *n, const struct bb_plan *p)
{
	int rc = 0;
	if (p->cgroup_mode != BB_CGROUP_NONE)
		n->cgroup = 1;
	for (size_t i = 0; !rc && i < p->cgroup_controllers.n; i++)
		rc = add_words(&n->controllers, p->cgroup_controllers.v[i]);
	for (size_t i = 0; !rc && i < p->cgroup_limits.n; i++) {
		const char *file = p->cgroup_limits.v[i].key;
		rc = add_once(&n->controllers, file, strcspn(file, "."));
	}
	if (!rc && p->cpufreq_governor && *p->cpufreq_governor)
		rc = add_once(&n->governors, p->cpufreq_governor, strlen(p->cpufreq_governor));
	for (size_t i = 0; !rc && i < p->modules_boot.n; i++)
		rc = add_words(&n->modules, p->modules_boot.v[i]);
	for (size_t r = 0; !rc && r < p->nruns; r++)
		for (size_t i = 0; !rc && i < p->runs[r].needs_modules.n; i++)
			rc = add_words(&n->modules, p->runs[r].needs_modules.v[i]);
	for (size_t r = 0; !rc && r < p->nruns; r++)
		for (size_t i = 0; !rc && i < p->runs[r].sysctls.n; i++) {
			const struct ksym_map *m = sysctl_entry(p->runs[r].sysctls.v[i].key);
			if (m)
				rc = add_once(&n->sysctls, m->name, strlen(m->name));
		}
	for (size_t i = 0; !rc && i < p->monitors.n; i++)
		if (map_lines(monitors, p->monitors.v[i]))
			rc = add_once(&n->monitors, p->monitors.v[i], strlen(p->monitors.v[i]));
	if (p->nic_name || p->cluster)
		n->nic = 1;
	return rc;
}

void bb_kneeds_free(struct bb_kneeds *n)
{
	bb_strv_free(&n->controllers);
	bb_strv_free(&n->governors);
	bb_strv_free(&n->modules);
	bb_strv_free(&n->monitors);
	bb_strv_free(&n->sysctls);
	memset(n, 0, sizeof(*n));
}

/* Module names compare with dashes and underscores alike, as the kernel's do. */
static int same_module(const char *a, size_t alen, const char *b)
{
	size_t i = 0;
	for (; i < alen && b[i]; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];
		if (x != y)
			return 0;
	}
	return i == alen && !b[i];
}

/*
 * In one Makefile's text: a line obj-$(CONFIG_X) += ... NAME.o ... (continued with '\').
 * 1 with the symbol, 0 when absent.
 */
static int makefile_symbol(const char *text, const char *module, char *sym, size_t symlen)
{
	for (const char *l = strstr(text, "obj-$(CONFIG_"); l; l = strstr(l + 1, "obj-$(CONFIG_")) {
		const char *s = l + strlen("obj-$(CONFIG_");
		size_t sl = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (!sl || s[sl] != ')')
			continue;
		const char *v = s + sl + 1;
		v += strspn(v, " \t");
		if (!strncmp(v, "+=", 2) || !strncmp(v, ":=", 2))
			v += 2;
		else
			continue;
		for (;;) {
			v += strspn(v, " \t");
			if (*v == '\\' && v[1] == '\n') {
				v += 2;
				continue;
			}
			size_t w = strcspn(v, " \t\n\\#");
			if (!w)
				break;
			if (w > 2 && !strncmp(v + w - 2, ".o", 2) &&
			    same_module(v, w - 2, module)) {
				snprintf(sym, symlen, "%.*s", (int)sl, s);
				return 1;
			}
			v += w;
		}
	}
	return 0;
}

/* The type of symbol in the Kconfig files of dir ('m' tristate, 'y' bool), 0 unknown. */
static char kconfig_type(const char *dir, const char *symbol)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char type = 0, want[160];
	snprintf(want, sizeof(want), "config %s\n", symbol);
	while (d && !type && (e = readdir(d))) {
		if (strncmp(e->d_name, "Kconfig", 7))
			continue;
		char p[4400];
		unsigned char *data;
		size_t len;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (bb_fileio_read_all(p, &data, &len))
			continue;
		const char *c = strstr((char *)data, want);
		if (c) {
			c += strlen(want);
			c += strspn(c, " \t");
			type = !strncmp(c, "tristate", 8) ? 'm' : !strncmp(c, "bool", 4) ? 'y' : 0;
		}
		free(data);
	}
	if (d)
		closedir(d);
	return type;
}

/*
 * Depth-first over tree's Makefiles and Kbuild files (not tools/, Documentation/, scripts/,
 * samples/ or dot folders): every symbol that builds NAME.o is a candidate; a tristate one (a
 * module can be built) is taken over a bool one (kernel/dma's dummy.o is not the dummy
 * netdev), the first found among equals. Returns 1 when out holds a tristate candidate.
 */
static int scan(const char *tree, const char *rel, const char *module, struct bb_kmodsym *out)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s%s%s", tree, *rel ? "/" : "", rel);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct dirent *e;
	int done = 0;
	struct bb_strv subdirs = {0};
	while (!done && (e = readdir(d))) {
		const char *n = e->d_name;
		if (*n == '.')
			continue;
		if (e->d_type == DT_DIR) {
			if (!*rel && (!strcmp(n, "tools") || !strcmp(n, "Documentation") ||
			              !strcmp(n, "scripts") || !strcmp(n, "samples")))
				continue;
			bb_strv_add(&subdirs, n);
			continue;
		}
		if (strcmp(n, "Makefile") && strcmp(n, "Kbuild"))
			continue;
		char p[4400], sym[128];
		unsigned char *data;
		size_t len;
		snprintf(p, sizeof(p), "%s/%s", dir, n);
		if (bb_fileio_read_all(p, &data, &len))
			continue;
		if (makefile_symbol((char *)data, module, sym, sizeof(sym))) {
			char t = kconfig_type(dir, sym);
			if (!*out->symbol || t == 'm') {
				snprintf(out->symbol, sizeof(out->symbol), "%s", sym);
				snprintf(out->makefile, sizeof(out->makefile), "%s%s%s", rel,
				         *rel ? "/" : "", n);
				out->value = t ? t : 'm';
				done = t == 'm';
			}
		}
		free(data);
	}
	closedir(d);
	for (size_t i = 0; !done && i < subdirs.n; i++) {
		char sub[4096];
		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", subdirs.v[i]);
		done = scan(tree, sub, module, out);
	}
	bb_strv_free(&subdirs);
	return done;
}

int bb_kconfig_module_symbol(const char *tree, const char *module, struct bb_kmodsym *out)
{
	memset(out, 0, sizeof(*out));
	scan(tree, "", module, out);
	return *out->symbol ? 0 : -ENOENT;
}

static void put_lines(struct strbuf *b, struct bb_strv *done, const char *words)
{
	for (const char *w = words; *w;) {
		size_t n = strcspn(w, " ");
		char line[160], sym[160];
		snprintf(line, sizeof(line), "%.*s", (int)n, w);
		snprintf(sym, sizeof(sym), "%.*s", (int)strcspn(line, "="), line);
		if (!has(done, sym)) {
			bb_strbuf_printf(b, "%s\n", line);
			bb_strv_add(done, sym);
		}
		w += n;
		w += strspn(w, " ");
	}
}

static void put_group(struct strbuf *b, struct bb_strv *done, const char *why,
                      const struct ksym_map *map, const struct bb_strv *names)
{
	int said = 0;
	for (size_t i = 0; i < names->n; i++) {
		const char *lines = map_lines(map, names->v[i]);
		if (!said)
			bb_strbuf_printf(b, "# %s\n", why);
		said = 1;
		if (lines)
			put_lines(b, done, lines);
		else
			bb_strbuf_printf(b, "# %s: benchboot knows no CONFIG symbol for it\n",
			                 names->v[i]);
	}
}

int bb_kconfig_fragment(const struct bb_kneeds *n, const char *tree, char **text,
                        struct bb_strv *unresolved)
{
	struct strbuf b = {0};
	struct bb_strv done = {0};
	bb_strbuf_printf(&b,
	                 "# benchboot: what every boot needs (initramfs, serial console, virtio "
	                 "block and PCI, devtmpfs, modules, the dummy netdev)\n");
	for (size_t i = 0; base_lines[i]; i++)
		put_lines(&b, &done, base_lines[i]);
	if (n->cgroup || n->controllers.n) {
		bb_strbuf_printf(&b, "# the job mounts a cgroup hierarchy\n");
		put_lines(&b, &done, "CONFIG_CGROUPS=y");
	}
	put_group(&b, &done, "the job's cgroup controllers", controllers, &n->controllers);
	if (n->governors.n) {
		bb_strbuf_printf(&b, "# the job's cpufreq governor\n");
		put_lines(&b, &done, "CONFIG_CPU_FREQ=y");
		for (size_t i = 0; i < n->governors.n; i++) {
			char line[160];
			int k = snprintf(line, sizeof(line), "CONFIG_CPU_FREQ_GOV_");
			for (const char *c = n->governors.v[i]; *c && k < (int)sizeof(line) - 3;
			     c++)
				line[k++] = (char)toupper((unsigned char)*c);
			snprintf(line + k, sizeof(line) - (size_t)k, "=y");
			put_lines(&b, &done, line);
		}
	}
	if (n->nic) {
		bb_strbuf_printf(&b, "# the job's NIC (QEMU's virtio-net)\n");
		put_lines(&b, &done, "CONFIG_NETDEVICES=y CONFIG_VIRTIO_NET=y");
	}
	put_group(&b, &done, "the job's monitors", monitors, &n->monitors);
	put_group(&b, &done, "the job's sysctls", sysctls, &n->sysctls);
	if (n->modules.n && !tree) {
		bb_strbuf_printf(&b, "# the job's modules:");
		for (size_t i = 0; i < n->modules.n; i++)
			bb_strbuf_printf(&b, " %s", n->modules.v[i]);
		bb_strbuf_printf(&b,
		                 "\n# (their CONFIG symbols are read from the tree's Makefiles: "
		                 "give the tree to see them)\n");
	}
	for (size_t i = 0; tree && i < n->modules.n; i++) {
		struct bb_kmodsym s;
		if (bb_kconfig_module_symbol(tree, n->modules.v[i], &s)) {
			bb_strbuf_printf(
			    &b,
			    "# the job's module %s: no Makefile of the tree builds %s.o "
			    "under a CONFIG symbol: set it in the base config\n",
			    n->modules.v[i], n->modules.v[i]);
			if (unresolved)
				bb_strv_add(unresolved, n->modules.v[i]);
			continue;
		}
		bb_strbuf_printf(&b, "# the job's module %s (%s)\n", n->modules.v[i], s.makefile);
		char line[200];
		snprintf(line, sizeof(line), "CONFIG_%s=%c", s.symbol, s.value);
		put_lines(&b, &done, line);
	}
	bb_strv_free(&done);
	if (b.oom) {
		free(b.s);
		return -ENOMEM;
	}
	*text = b.s;
	return 0;
}

/* The value config gives symbol (CONFIG_X): "y", "m", a string..., "n" for "is not set",
 * NULL when absent. Points into a static buffer. */
static const char *config_value(const char *config, const char *sym, size_t symlen)
{
	static char val[256];
	for (const char *l = config; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (!strncmp(l, sym, symlen) && l[symlen] == '=') {
			snprintf(val, sizeof(val), "%.*s", (int)strcspn(l + symlen + 1, "\n"),
			         l + symlen + 1);
			return val;
		}
		if (!strncmp(l, "# ", 2) && !strncmp(l + 2, sym, symlen) &&
		    !strncmp(l + 2 + symlen, " is not set", 11))
			return "n";
	}
	return NULL;
}

int bb_kconfig_check(const char *fragment, const char *config, struct bb_strv *missing)
{
	for (const char *l = fragment; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, "CONFIG_", 7))
			continue;
		size_t len = strcspn(l, "\n"), symlen = strcspn(l, "=");
		if (symlen >= len)
			continue;
		const char *want = l + symlen + 1;
		size_t wantlen = len - symlen - 1;
		const char *got = config_value(config, l, symlen);
		if (got && strlen(got) == wantlen && !strncmp(got, want, wantlen))
			continue;
		/* a module asked for and built in is as good */
		if (got && wantlen == 1 && *want == 'm' && !strcmp(got, "y"))
			continue;
		char msg[512];
		if (!got)
			snprintf(msg, sizeof(msg),
			         "%.*s (the .config lacks it: unknown to this tree?)", (int)len, l);
		else if (!strcmp(got, "n"))
			snprintf(msg, sizeof(msg),
			         "%.*s (the .config has: %.*s is not set: a "
			         "dependency is off)",
			         (int)len, l, (int)symlen, l);
		else
			snprintf(msg, sizeof(msg), "%.*s (the .config has: %.*s=%s)", (int)len, l,
			         (int)symlen, l, got);
		if (bb_strv_add(missing, msg))
			return -ENOMEM;
	}
	return 0;
}
