/*
 * cgroups for the whole boot, as the plan says:
 *   v2:     cgroup2 on /sys/fs/cgroup, the controllers enabled in the cgroup.subtree_control
 *           of the root and of every cgroup above the job cgroup, the job cgroup (plan
 *           cgroup.path: /benchboot, or a rootfs's systemd service such as
 *           /system.slice/lkp-bootstrap.service) with the plan's limits;
 *   v1:     tmpfs on /sys/fs/cgroup, one hierarchy per controller (a named one without
 *           controllers), the job cgroup in each, limits in their controller's;
 *   hybrid: v1, plus cgroup2 without controllers on /sys/fs/cgroup/unified with the job
 *           cgroup there too, as systemd's hybrid mode mounts it;
 *   none:   nothing.
 * Every benchmark process is moved into the job cgroup before it runs, and checked there.
 * Limit values as LKP's cgroup setups take them are resolved on this machine: `P%` of a
 * memory.* file is P% of MemTotal in bytes, `all` for cpuset.cpus the online CPUs.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "init.h"

#define CG_ROOT "/sys/fs/cgroup"
#define CG_FLAGS (MS_NOSUID | MS_NODEV | MS_NOEXEC)

static int cg_fail(struct cgroup_state *cg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int cg_fail(struct cgroup_state *cg, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cg->error, sizeof(cg->error), fmt, ap);
	va_end(ap);
	cg->ok = 0;
	say("cgroup setup failed: %s", cg->error);
	return -1;
}

static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/* LKP's forms of a limit, resolved here: 0, or -1 with the reason in cg. */
static int resolve_limit(struct cgroup_state *cg, const char *file, const char *value, char *out,
                         size_t len)
{
	size_t n = strlen(value);
	snprintf(out, len, "%s", value);
	if (!strncmp(file, "memory.", 7) && n > 1 && value[n - 1] == '%') {
		char *text = init_read("/proc/meminfo", NULL), *p, *e;
		unsigned long long kb = 0, pct = strtoull(value, &e, 10);
		if (text && (p = strstr(text, "MemTotal:")))
			kb = strtoull(p + 9, NULL, 10);
		free(text);
		if (!kb || *e != '%')
			return cg_fail(cg, "%s=%s: no MemTotal in /proc/meminfo", file, value);
		snprintf(out, len, "%llu", pct * kb * 1024 / 100);
	} else if (!strcmp(file, "cpuset.cpus") && !strcmp(value, "all")) {
		char *text = init_read("/sys/devices/system/cpu/online", NULL);
		if (!text)
			return cg_fail(cg, "%s=all: cannot read the online CPUs", file);
		text[strcspn(text, "\n")] = 0;
		snprintf(out, len, "%s", text);
		free(text);
	}
	return 0;
}

/* Write a limit into the job cgroup dir and read it back. */
static int write_limit(struct cgroup_state *cg, const char *dir, const char *file,
                       const char *asked)
{
	char back[256] = "", path[256], value[256];
	if (resolve_limit(cg, file, asked, value, sizeof(value)))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	int r = init_write(path, value, 0);
	if (r)
		return cg_fail(cg, "%s=%s: %s", path, value, strerror(-r));
	init_read_line(path, back, sizeof(back));
	char req[256], act[256];
	machine("cgroup-limit file=%s requested=%s actual=%s", file,
	        console_word(value, req, sizeof(req)), console_word(back, act, sizeof(act)));
	return 0;
}

/* mkdir every level of the job cgroup below root; with ctl, enable it ("+memory") in the
 * cgroup.subtree_control of root and of every level above the job cgroup. */
static int make_path(struct cgroup_state *cg, const char *root, const char *ctl)
{
	char dir[512];
	int r;
	snprintf(dir, sizeof(dir), "%s", root);
	for (const char *p = cg->path; *p;) {
		size_t n = strcspn(p, "/");
		if (ctl) {
			char sc[600];
			snprintf(sc, sizeof(sc), "%s/cgroup.subtree_control", dir);
			if ((r = init_write(sc, ctl, 0)))
				return cg_fail(cg, "enable %s in %s: %s", ctl + 1, sc,
				               strerror(-r));
		}
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%.*s", (int)n, p);
		if ((r = init_mkdirs(dir, 0755)))
			return cg_fail(cg, "mkdir %s: %s", dir, strerror(-r));
		p += n + (p[n] == '/');
	}
	return 0;
}

static int setup_v2(const struct bb_plan *plan, struct cgroup_state *cg)
{
	char *avail, job[512];
	int r;
	if ((r = init_mkdirs(CG_ROOT, 0755)))
		return cg_fail(cg, "mkdir %s: %s", CG_ROOT, strerror(-r));
	if (init_ops->mount("cgroup2", init_path(CG_ROOT), "cgroup2", CG_FLAGS, NULL) &&
	    errno != EBUSY)
		return cg_fail(cg, "mount cgroup2 on %s: %s", CG_ROOT, strerror(errno));
	if (!(avail = init_read(CG_ROOT "/cgroup.controllers", NULL)))
		return cg_fail(cg, "read %s/cgroup.controllers: %s", CG_ROOT, strerror(errno));
	for (size_t i = 0; i < plan->cgroup_controllers.n; i++) {
		const char *c = plan->cgroup_controllers.v[i];
		char word[80];
		if (!has_word(avail, c)) {
			avail[strcspn(avail, "\n")] = 0;
			cg_fail(cg, "controller %s not available (cgroup.controllers: %s)", c,
			        avail);
			free(avail);
			return -1;
		}
		snprintf(word, sizeof(word), "+%s", c);
		if (make_path(cg, CG_ROOT, word)) {
			free(avail);
			return -1;
		}
	}
	free(avail);
	if (make_path(cg, CG_ROOT, NULL))
		return -1;
	snprintf(job, sizeof(job), CG_ROOT "/%s", cg->path);
	for (size_t i = 0; i < plan->cgroup_limits.n; i++)
		if (write_limit(cg, job, plan->cgroup_limits.v[i].key,
		                plan->cgroup_limits.v[i].value))
			return -1;
	snprintf(cg->procs[0], sizeof(cg->procs[0]), "%s/cgroup.procs", job);
	snprintf(cg->expect[0], sizeof(cg->expect[0]), ":/%s", cg->path);
	cg->n = 1;
	return 0;
}

/* hybrid: systemd's cgroup2 without controllers on /sys/fs/cgroup/unified, the job cgroup
 * there too. */
static int setup_unified(struct cgroup_state *cg)
{
	char dir[512];
	int r;
	if (cg->n >= sizeof(cg->procs) / sizeof(cg->procs[0]))
		return cg_fail(cg, "too many hierarchies");
	if ((r = init_mkdirs(CG_ROOT "/unified", 0755)))
		return cg_fail(cg, "mkdir %s/unified: %s", CG_ROOT, strerror(-r));
	if (init_ops->mount("cgroup2", init_path(CG_ROOT "/unified"), "cgroup2", CG_FLAGS, NULL) &&
	    errno != EBUSY)
		return cg_fail(cg, "mount cgroup2 on %s/unified: %s", CG_ROOT, strerror(errno));
	if (make_path(cg, CG_ROOT "/unified", NULL))
		return -1;
	snprintf(dir, sizeof(dir), CG_ROOT "/unified/%s", cg->path);
	snprintf(cg->procs[cg->n], sizeof(cg->procs[cg->n]), "%s/cgroup.procs", dir);
	snprintf(cg->expect[cg->n], sizeof(cg->expect[cg->n]), ":/%s", cg->path);
	cg->n++;
	return 0;
}

static int setup_v1(const struct bb_plan *plan, struct cgroup_state *cg)
{
	size_t n = plan->cgroup_controllers.n;
	int r;
	if ((r = init_mkdirs(CG_ROOT, 0755)))
		return cg_fail(cg, "mkdir %s: %s", CG_ROOT, strerror(-r));
	if (init_ops->mount("tmpfs", init_path(CG_ROOT), "tmpfs", CG_FLAGS, "mode=0755") &&
	    errno != EBUSY)
		return cg_fail(cg, "mount tmpfs on %s: %s", CG_ROOT, strerror(errno));
	if (n > sizeof(cg->procs) / sizeof(cg->procs[0]))
		return cg_fail(cg, "too many controllers (%zu)", n);
	for (size_t i = 0; i < (n ? n : 1); i++) {
		const char *c = n ? plan->cgroup_controllers.v[i] : "name=" INIT_JOB_CGROUP;
		const char *dir = n ? c : INIT_JOB_CGROUP;
		char hier[512], opts[96];
		snprintf(hier, sizeof(hier), CG_ROOT "/%s", dir);
		snprintf(opts, sizeof(opts), n ? "%s" : "none,%s", c);
		if ((r = init_mkdirs(hier, 0755)))
			return cg_fail(cg, "mkdir %s: %s", hier, strerror(-r));
		if (init_ops->mount("cgroup", init_path("%s", hier), "cgroup", CG_FLAGS, opts) &&
		    errno != EBUSY)
			return cg_fail(cg, "mount cgroup -o %s on %s: %s", opts, hier,
			               strerror(errno));
		if (make_path(cg, hier, NULL))
			return -1;
		snprintf(hier, sizeof(hier), CG_ROOT "/%s/%s", dir, cg->path);
		snprintf(cg->procs[i], sizeof(cg->procs[i]), "%s/cgroup.procs", hier);
		snprintf(cg->expect[i], sizeof(cg->expect[i]), "%s:/%s", c, cg->path);
		cg->n = i + 1;
	}
	for (size_t i = 0; i < plan->cgroup_limits.n; i++) {
		const char *file = plan->cgroup_limits.v[i].key;
		size_t clen = strcspn(file, ".");
		size_t j;
		for (j = 0; j < n; j++)
			if (strlen(plan->cgroup_controllers.v[j]) == clen &&
			    !strncmp(plan->cgroup_controllers.v[j], file, clen))
				break;
		if (j == n)
			return cg_fail(cg, "limit %s: controller %.*s is not in cgroup.controllers",
			               file, (int)clen, file);
		char dir[512];
		snprintf(dir, sizeof(dir), CG_ROOT "/%s/%s", plan->cgroup_controllers.v[j],
		         cg->path);
		if (write_limit(cg, dir, file, plan->cgroup_limits.v[i].value))
			return -1;
	}
	return 0;
}

int cgroup_setup(const struct bb_plan *plan, struct cgroup_state *cg)
{
	memset(cg, 0, sizeof(*cg));
	cg->mode = plan->cgroup_mode;
	cg->ok = 1;
	if (cg->mode == BB_CGROUP_NONE)
		return 0;
	snprintf(cg->path, sizeof(cg->path), "%s", bb_plan_cgroup_path(plan));
	if (cg->mode == BB_CGROUP_V2 ? setup_v2(plan, cg) : setup_v1(plan, cg))
		return -1;
	if (cg->mode == BB_CGROUP_HYBRID && setup_unified(cg))
		return -1;
	char ctl[256] = "";
	for (size_t i = 0; i < plan->cgroup_controllers.n; i++)
		snprintf(ctl + strlen(ctl), sizeof(ctl) - strlen(ctl), "%s%s", i ? "," : "",
		         plan->cgroup_controllers.v[i]);
	machine("cgroup mode=%s controllers=%s job=/%s", bb_cgroup_mode_name(cg->mode),
	        *ctl ? ctl : "-", cg->path);
	return 0;
}

int cgroup_dir_fd(const struct cgroup_state *cg)
{
	if (cg->mode != BB_CGROUP_V2 || !cg->ok || !cg->n)
		return -1;
	return open(init_path(CG_ROOT "/%s", cg->path), O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int cgroup_place(const struct cgroup_state *cg, pid_t pid)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%d", (int)pid);
	for (size_t i = 0; i < cg->n; i++) {
		int r = init_write(cg->procs[i], buf, 0);
		if (r)
			return r;
	}
	return 0;
}

int cgroup_kill_all(const struct cgroup_state *cg, char *names, size_t len)
{
	int n = 0;
	size_t used = 0;
	char *procs;
	if (names && len)
		*names = 0;
	if (cg->mode == BB_CGROUP_NONE || !cg->n || !(procs = init_read(cg->procs[0], NULL)))
		return 0;
	for (char *p = procs; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		pid_t pid = (pid_t)atoi(p);
		char path[64], stat[512];
		if (pid <= 1)
			continue;
		/* /proc/PID/stat: "PID (COMM) STATE ..."; COMM may hold spaces and parentheses */
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		const char *comm = "?", *close = NULL;
		int comm_len = 1;
		if (init_read_line(path, stat, sizeof(stat)) == 0 && (close = strrchr(stat, ')'))) {
			/* a zombie waits for the init to reap it: nothing to kill */
			if (close[1] == ' ' && close[2] == 'Z')
				continue;
			char *open = strchr(stat, '(');
			if (open && open < close) {
				comm = open + 1;
				comm_len = (int)(close - comm);
			}
		}
		if (kill(pid, SIGKILL) != 0)
			continue;
		n++;
		if (names && used < len) {
			int w = snprintf(names + used, len - used, "%s%.*s[%d]", used ? " " : "",
			                 comm_len, comm, (int)pid);
			used = w < 0 ? len : used + (size_t)w;
		}
	}
	free(procs);
	return n;
}

long cgroup_oom_kills(const struct cgroup_state *cg)
{
	static const char *const files[] = {"memory.events", "memory.oom_control"};
	long total = -1;
	if (cg->mode == BB_CGROUP_NONE)
		return -1;
	for (size_t i = 0; i < cg->n; i++) {
		char dir[256], path[300];
		snprintf(dir, sizeof(dir), "%s", cg->procs[i]);
		char *slash = strrchr(dir, '/');
		if (!slash)
			continue;
		*slash = 0;
		for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			snprintf(path, sizeof(path), "%s/%s", dir, files[f]);
			char *text = init_read(path, NULL), *at;
			if (!text)
				continue;
			/* "oom_kill N" at the start of a line (not "oom_kill_disable", not "oom N")
			 */
			for (at = text; (at = strstr(at, "oom_kill ")); at++)
				if (at == text || at[-1] == '\n') {
					total = (total < 0 ? 0 : total) + atol(at + 9);
					break;
				}
			free(text);
		}
	}
	return total;
}

int cgroup_check(const struct cgroup_state *cg, pid_t pid, char *seen, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	char *text = init_read(path, NULL);
	int inside = 1;
	if (len)
		seen[0] = 0;
	if (!text) {
		snprintf(seen, len, "(cannot read %s: %s)", path, strerror(errno));
		return 0;
	}
	for (size_t i = 0; i < cg->n; i++) {
		int found = 0;
		char *save = NULL, *copy = strdup(text);
		for (char *l = copy ? strtok_r(copy, "\n", &save) : NULL; l;
		     l = strtok_r(NULL, "\n", &save)) {
			char *rest = strchr(l, ':');
			if (rest && !strcmp(rest + 1, cg->expect[i]))
				found = 1;
		}
		free(copy);
		if (!found)
			inside = 0;
	}
	size_t n = 0;
	for (char *p = text; *p && n + 2 < len; p++)
		seen[n++] = *p == '\n' ? (p[1] ? ';' : 0) : *p;
	if (n < len)
		seen[n] = 0;
	free(text);
	return inside;
}
