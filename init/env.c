/*
 * env.json: the environment of this boot as read back from the running system (not copied
 * from the plan): kernel, command line, image and plan identity, CPUs, memory, cgroups as
 * mounted, governors, loaded modules, and per run the sysctls as read back.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "init.h"
#include "hex.h"
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

static void cpu_json(struct ijw *w, const struct boot *b)
{
	char *info = init_read("/proc/cpuinfo", NULL), val[256];
	int count = 0;
	ijw_open(w, "cpu", '{');
	if (info) {
		for (const char *l = info; (l = strstr(l, "processor")); l++)
			if (l == info || l[-1] == '\n')
				count++;
		ijw_str(w, "model", proc_field(info, "model name", val, sizeof(val)) ? val : NULL);
		ijw_str(w, "microcode",
		        proc_field(info, "microcode", val, sizeof(val)) ? val : NULL);
		ijw_bool(w, "hypervisor", strstr(info, " hypervisor") != NULL);
	}
	ijw_int(w, "count", count);
	ijw_int(w, "online_count", b->ncpu);
	ijw_str(w, "online", b->online);
	ijw_close(w, '}');
	free(info);
}

static void memory_json(struct ijw *w)
{
	char *info = init_read("/proc/meminfo", NULL), val[64];
	ijw_open(w, "memory", '{');
	if (info && proc_field(info, "MemTotal", val, sizeof(val)))
		ijw_int(w, "total_kB", atoll(val));
	free(info);
	ijw_close(w, '}');
}

static void file_line(struct ijw *w, const char *key, const char *path)
{
	char buf[1024];
	ijw_str(w, key, init_read_line(path, buf, sizeof(buf)) ? NULL : buf);
}

static void cgroup_json(struct ijw *w, const struct boot *b)
{
	const struct cgroup_state *cg = &b->cgroup;
	char *mi = init_read("/proc/self/mountinfo", NULL);
	ijw_open(w, "cgroup", '{');
	ijw_str(w, "mode_requested", bb_cgroup_mode_name(b->plan.cgroup_mode));
	ijw_bool(w, "setup_ok", cg->ok);
	ijw_str(w, "error", cg->ok ? NULL : cg->error);
	ijw_open(w, "mounts", '[');
	for (char *l = mi ? strtok(mi, "\n") : NULL; l; l = strtok(NULL, "\n")) {
		char *sep = strstr(l, " - ");
		char mnt[256], fstype[32], src[64], opts[512];
		if (!sep || sscanf(sep + 3, "%31s %63s %511s", fstype, src, opts) != 3)
			continue;
		if (strcmp(fstype, "cgroup") && strcmp(fstype, "cgroup2"))
			continue;
		if (sscanf(l, "%*s %*s %*s %*s %255s", mnt) != 1)
			continue;
		ijw_open(w, NULL, '{');
		ijw_str(w, "type", fstype);
		ijw_str(w, "path", mnt);
		ijw_str(w, "options", opts);
		ijw_close(w, '}');
	}
	ijw_close(w, ']');
	free(mi);
	char job[256], path[512];
	const char *cpath = *cg->path ? cg->path : bb_plan_cgroup_path(&b->plan);
	snprintf(job, sizeof(job), "/%s", cpath);
	if (cg->mode == BB_CGROUP_V2) {
		file_line(w, "root_controllers", "/sys/fs/cgroup/cgroup.controllers");
		file_line(w, "root_subtree_control", "/sys/fs/cgroup/cgroup.subtree_control");
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cgroup.controllers", job);
		file_line(w, "job_controllers", path);
	} else if (cg->mode != BB_CGROUP_NONE) {
		/* v1 and hybrid: the controllers whose hierarchy holds the job cgroup, as read
		 * back (a directory of that path in the hierarchy) */
		char list[256] = "";
		for (size_t i = 0; i < b->plan.cgroup_controllers.n; i++) {
			const char *c = b->plan.cgroup_controllers.v[i];
			snprintf(path, sizeof(path), "/sys/fs/cgroup/%s%s/cgroup.procs", c, job);
			if (access(init_path("%s", path), F_OK) == 0)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				         *list ? " " : "", c);
		}
		ijw_str(w, "job_controllers", list);
	}
	ijw_str(w, "job_cgroup", cg->mode == BB_CGROUP_NONE ? NULL : job);
	ijw_str(w, "path_requested", cg->mode == BB_CGROUP_NONE ? NULL : job);
	ijw_open(w, "limits", '{');
	for (size_t i = 0; i < b->plan.cgroup_limits.n; i++) {
		const char *file = b->plan.cgroup_limits.v[i].key;
		char val[256];
		if (cg->mode == BB_CGROUP_V2)
			snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/%s", cpath, file);
		else
			snprintf(path, sizeof(path), "/sys/fs/cgroup/%.*s/%s/%s",
			         (int)strcspn(file, "."), file, cpath, file);
		ijw_open(w, file, '{');
		ijw_str(w, "requested", b->plan.cgroup_limits.v[i].value);
		ijw_str(w, "actual", init_read_line(path, val, sizeof(val)) ? NULL : val);
		ijw_close(w, '}');
	}
	ijw_close(w, '}');
	ijw_close(w, '}');
}

static void modules_json(struct ijw *w, const struct boot *b)
{
	char *mods = init_read("/proc/modules", NULL);
	ijw_open(w, "modules", '{');
	ijw_open(w, "loaded", '[');
	for (char *l = mods ? strtok(mods, "\n") : NULL; l; l = strtok(NULL, "\n")) {
		l[strcspn(l, " ")] = 0;
		ijw_str(w, NULL, l);
	}
	ijw_close(w, ']');
	free(mods);
	ijw_open(w, "steps", '[');
	for (size_t i = 0; i < b->modules.n; i++) {
		ijw_open(w, NULL, '{');
		ijw_str(w, "name", b->modules.v[i].name);
		ijw_bool(w, "ok", b->modules.v[i].loaded);
		if (b->modules.v[i].nodev)
			ijw_bool(w, "no_such_device", 1);
		ijw_str(w, "detail", b->modules.v[i].reason);
		ijw_close(w, '}');
	}
	ijw_close(w, ']');
	ijw_num(w, "load_ms", b->modules.load_ms);
	ijw_close(w, '}');
}

/* A /sys/class/net/IF/FILE value: a whole number (null when unreadable, or below min: e.g. a
 * speed of -1 when the driver does not know it). */
static void nic_num(struct ijw *w, const char *key, const char *ifn, const char *file, long min)
{
	char path[128], val[64], *end;
	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifn, file);
	if (init_read_line(path, val, sizeof(val)) == 0 && *val) {
		long long v = strtoll(val, &end, 10);
		if (!*end && v >= min) {
			ijw_int(w, key, v);
			return;
		}
	}
	ijw_raw(w, key, "null");
}

/* A /sys/class/net/IF/FILE line as a string (null when unreadable). */
static void nic_str(struct ijw *w, const char *key, const char *ifn, const char *file)
{
	char path[128];
	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifn, file);
	file_line(w, key, path);
}

static void str_array(struct ijw *w, const char *key, const struct bb_strv *v)
{
	ijw_open(w, key, '[');
	for (size_t i = 0; i < v->n; i++)
		ijw_str(w, NULL, v->v[i]);
	ijw_close(w, ']');
}

/* The addresses the kernel has on ifn (getifaddrs: rtnetlink), as ADDR/PREFIX. */
static void nic_addresses(struct ijw *w, const char *ifn)
{
	struct ifaddrs *all, *a;
	if (!*ifn || getifaddrs(&all))
		return;
	for (a = all; a; a = a->ifa_next) {
		char addr[INET6_ADDRSTRLEN], out[INET6_ADDRSTRLEN + 16];
		const unsigned char *mask;
		size_t mlen;
		const void *bin;
		int prefix = 0;
		if (strcmp(a->ifa_name, ifn) || !a->ifa_addr || !a->ifa_netmask)
			continue;
		if (a->ifa_addr->sa_family == AF_INET) {
			bin = &((struct sockaddr_in *)a->ifa_addr)->sin_addr;
			mask = (const unsigned char *)&((struct sockaddr_in *)a->ifa_netmask)
			           ->sin_addr;
			mlen = 4;
		} else if (a->ifa_addr->sa_family == AF_INET6) {
			bin = &((struct sockaddr_in6 *)a->ifa_addr)->sin6_addr;
			mask = (const unsigned char *)&((struct sockaddr_in6 *)a->ifa_netmask)
			           ->sin6_addr;
			mlen = 16;
		} else {
			continue;
		}
		for (size_t i = 0; i < mlen; i++)
			for (int bit = 7; bit >= 0; bit--)
				prefix += (mask[i] >> bit) & 1;
		if (!inet_ntop(a->ifa_addr->sa_family, bin, addr, sizeof(addr)))
			continue;
		snprintf(out, sizeof(out), "%s/%d", addr, prefix);
		ijw_str(w, NULL, out);
	}
	freeifaddrs(all);
}

/* The default routes through ifn, read back: their gateways (/proc/net/route, ipv6_route). */
static void nic_default_routes(struct ijw *w, const char *ifn)
{
	char *t = init_read("/proc/net/route", NULL), *save, out[INET6_ADDRSTRLEN];
	for (char *l = t ? strtok_r(t, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		char iface[32];
		unsigned dst, gw, mask;
		struct in_addr a;
		if (sscanf(l, "%31s %x %x %*x %*d %*d %*d %x", iface, &dst, &gw, &mask) != 4 ||
		    strcmp(iface, ifn) || dst || mask || !gw)
			continue;
		a.s_addr = gw; /* /proc/net/route prints the address as stored (network order) */
		if (inet_ntop(AF_INET, &a, out, sizeof(out)))
			ijw_str(w, NULL, out);
	}
	free(t);
	t = init_read("/proc/net/ipv6_route", NULL);
	for (char *l = t ? strtok_r(t, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		char dst[40], dlen[4], gw[40], iface[32];
		unsigned char bin[16];
		if (sscanf(l, "%39s %3s %*s %*s %39s %*s %*s %*s %*s %31s", dst, dlen, gw, iface) !=
		        4 ||
		    strcmp(iface, ifn) || strcmp(dlen, "00") || strspn(dst, "0") != 32 ||
		    strspn(gw, "0") == 32 || strlen(gw) != 32)
			continue;
		for (int i = 0; i < 16; i++)
			bin[i] = (unsigned char)((bb_hex_digit(gw[2 * i]) << 4) |
			                         bb_hex_digit(gw[2 * i + 1]));
		if (inet_ntop(AF_INET6, bin, out, sizeof(out)))
			ijw_str(w, NULL, out);
	}
	free(t);
}

/* The NIC of net.nic.*, read back from /sys/class/net: null when the plan names none. */
static void nic_json(struct ijw *w, const struct boot *b)
{
	const char *ifn = net_nic.ifname;
	char link[512];
	if (!net_nic.requested) {
		ijw_raw(w, "nic", "null");
		return;
	}
	ijw_open(w, "nic", '{');
	ijw_str(w, "requested", b->plan.nic_name);
	ijw_str(w, "name", *ifn ? ifn : NULL);
	ijw_bool(w, "ok", net_nic.ok);
	ijw_str(w, "error", *net_nic.error ? net_nic.error : NULL);
	if (*ifn) {
		ijw_num(w, "found_ms", net_nic.found_ms);
		ijw_num(w, "carrier_ms", net_nic.carrier_ms);
		nic_str(w, "mac", ifn, "address");
		ssize_t n = readlink(init_path("/sys/class/net/%s/device/driver", ifn), link,
		                     sizeof(link) - 1);
		if (n > 0)
			link[n] = 0;
		ijw_str(w, "driver",
		        n <= 0               ? NULL
		        : strrchr(link, '/') ? strrchr(link, '/') + 1
		                             : link);
		nic_num(w, "mtu", ifn, "mtu", 0);
		nic_str(w, "operstate", ifn, "operstate");
		nic_num(w, "carrier", ifn, "carrier", 0);
		nic_num(w, "speed_mbps", ifn, "speed", 0);
		nic_str(w, "duplex", ifn, "duplex");
	}
	ijw_open(w, "addresses", '[');
	nic_addresses(w, ifn);
	ijw_close(w, ']');
	str_array(w, "addresses_requested", &b->plan.nic_address);
	ijw_open(w, "default_routes_via", '[');
	if (*ifn)
		nic_default_routes(w, ifn);
	ijw_close(w, ']');
	str_array(w, "gateways", &b->plan.nic_gateway);
	if (b->plan.nic_mtu)
		ijw_int(w, "mtu_requested", b->plan.nic_mtu);
	else
		ijw_raw(w, "mtu_requested", "null");
	ijw_close(w, '}');
}

void env_cluster_json(struct ijw *w, const struct boot *b)
{
	const struct cluster_state *c = &b->cluster;
	if (!b->plan.cluster) {
		ijw_raw(w, "cluster", "null");
		return;
	}
	ijw_open(w, "cluster", '{');
	ijw_str(w, "name", b->plan.cluster);
	ijw_str(w, "role", c->role == BB_ROLE_NONE ? NULL : bb_role_name(c->role));
	ijw_str(w, "host", c->self_host ? c->self_host->name : NULL);
	ijw_str(w, "self", strcmp(c->self, "-") && *c->self ? c->self : NULL);
	ijw_str(w, "peer", strcmp(c->peer, "-") && *c->peer ? c->peer : NULL);
	ijw_str(w, "peer_host", c->peer_host ? c->peer_host->name : NULL);
	ijw_int(w, "port", b->plan.cluster_port);
	ijw_str(w, "peer_status", *c->peer_status ? c->peer_status : NULL);
	ijw_str(w, "peer_reason", *c->peer_reason ? c->peer_reason : NULL);
	ijw_str(w, "error", *c->error ? c->error : NULL);
	ijw_close(w, '}');
}

/* The image's id: the sha256 of its manifest, read once per boot (the image does not change
 * while it runs, and env.json is written at every sync); NULL when there is no manifest. */
static const char *image_id(void)
{
	static char hex[SHA256_HEX_LEN + 1];
	static int done;
	if (!done) {
		size_t len;
		char *manifest = init_read("/etc/benchboot/manifest", &len);
		if (manifest)
			bb_sha256_hex(manifest, len, hex);
		free(manifest);
		done = 1;
	}
	return *hex ? hex : NULL;
}

int env_write(const struct boot *b)
{
	struct ijw w = {0};
	struct utsname u;
	int gov_present;
	static char governors[4096];

	ijw_open(&w, NULL, '{');
	ijw_int(&w, "benchboot_env", 1);
	ijw_str(&w, "boot_id", b->boot_id);
	ijw_str(&w, "image_id", image_id());
	ijw_str(&w, "job", b->plan.job);
	ijw_str(&w, "plan_digest", b->plan.digest);
	ijw_str(&w, "plan_error", *b->plan_error ? b->plan_error : NULL);
	ijw_int(&w, "boot_group", b->plan.boot_group);
	ijw_str(&w, "order", bb_order_name(b->plan.order));
	ijw_int(&w, "order_seed", (long long)b->order_seed);
	ijw_int(&w, "order_rotate", b->plan.order_rotate);
	ijw_str(&w, "boot_params", b->plan.boot_params);
	/* the job as overridden (benchboot --set): compare shows them as an environment
	 * difference */
	ijw_open(&w, "job_overrides", '[');
	for (size_t i = 0; i < b->plan.job_sets.n; i++)
		ijw_str(&w, NULL, b->plan.job_sets.v[i]);
	ijw_close(&w, ']');
	/* the monitors asked for (plan monitors=, or benchboot.monitors= of run --monitors) and
	 * their options; each one's status per iteration: ITER/status, results.json */
	ijw_open(&w, "monitors", '{');
	ijw_open(&w, "asked", '[');
	for (size_t i = 0; i < b->plan.monitors.n; i++)
		ijw_str(&w, NULL, b->plan.monitors.v[i]);
	ijw_close(&w, ']');
	ijw_str(&w, "from", b->plan.monitors_cmdline ? "cmdline" : "plan");
	/* where they ran: each run's N monitored iterations, kept apart (0: every iteration) */
	ijw_int(&w, "monitored", b->plan.monitors.n ? b->plan.monitored : 0);
	ijw_str(&w, "in",
	        !b->plan.monitors.n ? "none"
	        : b->plan.monitored ? "monitored iterations"
	                            : "every iteration");
	ijw_open(&w, "options", '{');
	for (size_t i = 0; i < b->plan.monitor_options.n; i++)
		ijw_str(&w, b->plan.monitor_options.v[i].key, b->plan.monitor_options.v[i].value);
	ijw_close(&w, '}');
	ijw_close(&w, '}');
	ijw_open(&w, "kernel", '{');
	if (uname(&u) == 0) {
		ijw_str(&w, "release", u.release);
		ijw_str(&w, "version", u.version);
		ijw_str(&w, "machine", u.machine);
	}
	ijw_str(&w, "cmdline", b->cmdline);
	ijw_close(&w, '}');
	ijw_open(&w, "cmdline_problems", '[');
	for (const char *p = b->cmdline_report; *p;) {
		size_t n = strcspn(p, "\n");
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		ijw_str(&w, NULL, line);
		p += n + (p[n] == '\n');
	}
	ijw_close(&w, ']');
	cpu_json(&w, b);
	memory_json(&w);
	cgroup_json(&w, b);
	cpufreq_read(governors, sizeof(governors), &gov_present);
	ijw_open(&w, "cpufreq", '{');
	ijw_bool(&w, "present", gov_present);
	ijw_str(&w, "requested", b->plan.cpufreq_governor);
	ijw_bool(&w, "ok", b->cpufreq.ok);
	ijw_str(&w, "error", b->cpufreq.ok ? NULL : b->cpufreq.error);
	ijw_raw(&w, "governors", governors);
	ijw_close(&w, '}');
	modules_json(&w, b);
	scratch_json(&w, b);
	ijw_open(&w, "net", '{');
	ijw_str(&w, "dummy", b->plan.net_dummy);
	ijw_bool(&w, "ok", !*b->net_error);
	ijw_str(&w, "error", *b->net_error ? b->net_error : NULL);
	nic_json(&w, b);
	ijw_close(&w, '}');
	env_cluster_json(&w, b);
	ijw_open(&w, "setup", '{');
	ijw_num(&w, "init_exec_boottime_ms", b->t_exec_ms);
	ijw_num(&w, "first_client_boottime_ms", b->t_first_client_ms ? b->t_first_client_ms : NAN);
	ijw_num(&w, "modules_load_ms", b->modules.load_ms);
	if (b->t_first_client_ms)
		ijw_num(&w, "setup_ms_excluding_modules",
		        b->t_first_client_ms - b->t_exec_ms - b->modules.load_ms);
	ijw_open(&w, "steps_ms", '{');
	for (int i = 0; i < b->nsteps; i++)
		ijw_num(&w, b->steps[i].name, b->steps[i].ms);
	ijw_close(&w, '}');
	ijw_close(&w, '}');
	ijw_open(&w, "runs", '{');
	for (size_t i = 0; i < b->plan.nruns; i++) {
		const struct sysctl_set *s = b->run_sysctls ? &b->run_sysctls[i] : NULL;
		ijw_open(&w, b->plan.runs[i].id, '{');
		ijw_open(&w, "sysctl", '{');
		for (size_t j = 0; s && j < s->n; j++)
			ijw_str(&w, s->v[j].key, s->v[j].actual);
		ijw_close(&w, '}');
		scratch_run_json(&w, b, i);
		ijw_close(&w, '}');
	}
	ijw_close(&w, '}');
	ijw_close(&w, '}');
	int r = ijw_save(&w, INIT_RESULTS_DIR "/env.json");
	ijw_free(&w);
	return r;
}
