/*
 * env.json: the environment of this boot as read back from the running system (not copied
 * from the plan): kernel, command line, image and plan identity, CPUs, memory, cgroups as
 * mounted, governors, loaded modules, and per run the sysctls as read back.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "init.h"
#include "json.h"
#include "sha256.h"

/* Value of the first "key<tabs>: value" line of a /proc file. */
static int proc_field(const char *text, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, klen) || (l[klen] != ' ' && l[klen] != '\t' && l[klen] != ':'))
			continue;
		const char *v = strchr(l, ':');
		if (!v)
			continue;
		v++;
		v += strspn(v, " \t");
		snprintf(out, len, "%.*s", (int)strcspn(v, "\n"), v);
		return 1;
	}
	return 0;
}

static void cpu_json(struct jw *w, const struct boot *b)
{
	char *info = init_read("/proc/cpuinfo", NULL), val[256];
	int count = 0;
	jw_open(w, "cpu", '{');
	if (info) {
		for (const char *l = info; (l = strstr(l, "processor")); l++)
			if (l == info || l[-1] == '\n')
				count++;
		jw_str(w, "model", proc_field(info, "model name", val, sizeof(val)) ? val : NULL);
		jw_str(w, "microcode", proc_field(info, "microcode", val, sizeof(val)) ? val : NULL);
		jw_bool(w, "hypervisor", strstr(info, " hypervisor") != NULL);
	}
	jw_int(w, "count", count);
	jw_int(w, "online_count", b->ncpu);
	jw_str(w, "online", b->online);
	jw_close(w, '}');
	free(info);
}

static void memory_json(struct jw *w)
{
	char *info = init_read("/proc/meminfo", NULL), val[64];
	jw_open(w, "memory", '{');
	if (info && proc_field(info, "MemTotal", val, sizeof(val)))
		jw_int(w, "total_kB", atoll(val));
	free(info);
	jw_close(w, '}');
}

static void file_line(struct jw *w, const char *key, const char *path)
{
	char buf[1024];
	jw_str(w, key, init_read_line(path, buf, sizeof(buf)) ? NULL : buf);
}

static void cgroup_json(struct jw *w, const struct boot *b)
{
	const struct cgroup_state *cg = &b->cgroup;
	char *mi = init_read("/proc/self/mountinfo", NULL);
	jw_open(w, "cgroup", '{');
	jw_str(w, "mode_requested", bb_cgroup_mode_name(b->plan.cgroup_mode));
	jw_bool(w, "setup_ok", cg->ok);
	jw_str(w, "error", cg->ok ? NULL : cg->error);
	jw_open(w, "mounts", '[');
	for (char *l = mi ? strtok(mi, "\n") : NULL; l; l = strtok(NULL, "\n")) {
		char *sep = strstr(l, " - ");
		char mnt[256], fstype[32], src[64], opts[512];
		if (!sep || sscanf(sep + 3, "%31s %63s %511s", fstype, src, opts) != 3)
			continue;
		if (strcmp(fstype, "cgroup") && strcmp(fstype, "cgroup2"))
			continue;
		if (sscanf(l, "%*s %*s %*s %*s %255s", mnt) != 1)
			continue;
		jw_open(w, NULL, '{');
		jw_str(w, "type", fstype);
		jw_str(w, "path", mnt);
		jw_str(w, "options", opts);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	free(mi);
	if (cg->mode == BB_CGROUP_V2) {
		file_line(w, "root_controllers", "/sys/fs/cgroup/cgroup.controllers");
		file_line(w, "root_subtree_control", "/sys/fs/cgroup/cgroup.subtree_control");
		file_line(w, "job_controllers", "/sys/fs/cgroup/" INIT_JOB_CGROUP "/cgroup.controllers");
	}
	jw_str(w, "job_cgroup", cg->mode == BB_CGROUP_NONE ? NULL : "/" INIT_JOB_CGROUP);
	jw_open(w, "limits", '{');
	for (size_t i = 0; i < b->plan.cgroup_limits.n; i++) {
		const char *file = b->plan.cgroup_limits.v[i].key;
		char path[256], val[256];
		if (cg->mode == BB_CGROUP_V2)
			snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/%s", INIT_JOB_CGROUP, file);
		else
			snprintf(path, sizeof(path), "/sys/fs/cgroup/%.*s/%s/%s", (int)strcspn(file, "."),
				 file, INIT_JOB_CGROUP, file);
		jw_open(w, file, '{');
		jw_str(w, "requested", b->plan.cgroup_limits.v[i].value);
		jw_str(w, "actual", init_read_line(path, val, sizeof(val)) ? NULL : val);
		jw_close(w, '}');
	}
	jw_close(w, '}');
	jw_close(w, '}');
}

static void modules_json(struct jw *w, const struct boot *b)
{
	char *mods = init_read("/proc/modules", NULL);
	jw_open(w, "modules", '{');
	jw_open(w, "loaded", '[');
	for (char *l = mods ? strtok(mods, "\n") : NULL; l; l = strtok(NULL, "\n")) {
		l[strcspn(l, " ")] = 0;
		jw_str(w, NULL, l);
	}
	jw_close(w, ']');
	free(mods);
	jw_open(w, "steps", '[');
	for (size_t i = 0; i < b->modules.n; i++) {
		jw_open(w, NULL, '{');
		jw_str(w, "name", b->modules.v[i].name);
		jw_bool(w, "ok", b->modules.v[i].loaded);
		jw_str(w, "detail", b->modules.v[i].reason);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_num(w, "load_ms", b->modules.load_ms);
	jw_close(w, '}');
}

int env_write(const struct boot *b)
{
	struct jw w = {0};
	struct utsname u;
	char *manifest;
	size_t mlen;
	int gov_present;
	static char governors[4096];

	jw_open(&w, NULL, '{');
	jw_int(&w, "benchboot_env", 1);
	jw_str(&w, "boot_id", b->boot_id);
	manifest = init_read("/etc/benchboot/manifest", &mlen);
	if (manifest) {
		char hex[SHA256_HEX_LEN + 1];
		sha256_hex(manifest, mlen, hex);
		jw_str(&w, "image_id", hex);
		free(manifest);
	} else {
		jw_raw(&w, "image_id", "null");
	}
	jw_str(&w, "job", b->plan.job);
	jw_str(&w, "plan_digest", b->plan.digest);
	jw_str(&w, "plan_error", *b->plan_error ? b->plan_error : NULL);
	jw_int(&w, "boot_group", b->plan.boot_group);
	jw_str(&w, "boot_params", b->plan.boot_params);
	jw_open(&w, "kernel", '{');
	if (uname(&u) == 0) {
		jw_str(&w, "release", u.release);
		jw_str(&w, "version", u.version);
		jw_str(&w, "machine", u.machine);
	}
	jw_str(&w, "cmdline", b->cmdline);
	jw_close(&w, '}');
	jw_open(&w, "cmdline_problems", '[');
	for (const char *p = b->cmdline_report; *p;) {
		size_t n = strcspn(p, "\n");
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		jw_str(&w, NULL, line);
		p += n + (p[n] == '\n');
	}
	jw_close(&w, ']');
	cpu_json(&w, b);
	memory_json(&w);
	cgroup_json(&w, b);
	cpufreq_read(governors, sizeof(governors), &gov_present);
	jw_open(&w, "cpufreq", '{');
	jw_bool(&w, "present", gov_present);
	jw_str(&w, "requested", b->plan.cpufreq_governor);
	jw_bool(&w, "ok", b->cpufreq.ok);
	jw_str(&w, "error", b->cpufreq.ok ? NULL : b->cpufreq.error);
	jw_raw(&w, "governors", governors);
	jw_close(&w, '}');
	modules_json(&w, b);
	jw_open(&w, "net", '{');
	jw_str(&w, "dummy", b->plan.net_dummy);
	jw_bool(&w, "ok", !*b->net_error);
	jw_str(&w, "error", *b->net_error ? b->net_error : NULL);
	jw_close(&w, '}');
	jw_open(&w, "setup", '{');
	jw_num(&w, "init_exec_boottime_ms", b->t_exec_ms);
	jw_num(&w, "first_client_boottime_ms", b->t_first_client_ms ? b->t_first_client_ms : NAN);
	jw_num(&w, "modules_load_ms", b->modules.load_ms);
	if (b->t_first_client_ms)
		jw_num(&w, "setup_ms_excluding_modules",
		       b->t_first_client_ms - b->t_exec_ms - b->modules.load_ms);
	jw_close(&w, '}');
	jw_open(&w, "runs", '{');
	for (size_t i = 0; i < b->plan.nruns; i++) {
		const struct sysctl_set *s = b->run_sysctls ? &b->run_sysctls[i] : NULL;
		jw_open(&w, b->plan.runs[i].id, '{');
		jw_open(&w, "sysctl", '{');
		for (size_t j = 0; s && j < s->n; j++)
			jw_str(&w, s->v[j].key, s->v[j].actual);
		jw_close(&w, '}');
		jw_close(&w, '}');
	}
	jw_close(&w, '}');
	jw_close(&w, '}');
	int r = jw_save(&w, INIT_RESULTS_DIR "/env.json");
	jw_free(&w);
	return r;
}
