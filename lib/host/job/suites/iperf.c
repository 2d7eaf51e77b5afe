/*
 * iperf (iperf3), as LKP's programs/iperf/run and programs/iperf-server/daemon run it: the
 * server `iperf3 --server -4` (LKP's daemon without --daemon: the init keeps it in the
 * foreground and stops it after the clients; -4 so that its socket is an IPv4 one the init sees
 * listening on tcp:127.0.0.1:5201, where a probe connection would count on iperf3's server as a
 * failed test), then one client `iperf3 -t RUNTIME -J -c 127.0.0.1 [-u]` (protocol udp), LKP's
 * command line; in a two-host job the client's -c is the server host's address. `tune` is
 * LKP's list of sysctl pairs set before the run. Debian testing's iperf3 and libiperf0,
 * taken without iperf3's service dependencies. Parser: init/parse_iperf.c (LKP's
 * programs/iperf/parse).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host/job/suites/suite.h"

#define IPERF_PORT "5201"

static int check_protocol(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (!strcmp(s, "tcp") || !strcmp(s, "udp"))
		return 0;
	return jfail(w, m, "%s: '%s' is not tcp or udp (LKP's iperf protocol: udp runs iperf3 -u)",
	             key, s);
}

/* LKP's run reads `tune` as blank-separated pairs KEY VALUE, each set with sysctl -w. */
static int check_tune(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	size_t words = 0;
	for (const char *p = s + strspn(s, " \t"); *p; p += strspn(p, " \t")) {
		size_t n = strcspn(p, " \t");
		if (words % 2 == 0 && (strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_.-/") < n ||
		                       !memchr(p, '.', n)))
			return jfail(w, m,
			             "%s: '%.*s' is not a sysctl name (LKP's tune is pairs "
			             "'KEY VALUE ...', e.g. 'net.core.rmem_max 16777216')",
			             key, (int)n, p);
		words++;
		p += n;
	}
	if (!words || words % 2)
		return jfail(w, m,
		             "%s: '%s' is not pairs of a sysctl and its value (LKP's tune: "
		             "'KEY VALUE ...', e.g. 'net.core.rmem_max 16777216')",
		             key, s);
	return 0;
}

/* LKP's `sessions` runs that many iperf3 servers and clients on ports 5001.. of its own. */
static int check_sessions(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	(void)s;
	return jfail(w, m,
	             "%s: LKP's parallel iperf3 sessions are not run by benchboot yet; remove "
	             "the key for one session, as LKP's jobs/iperf.yaml runs",
	             key);
}

static int build(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	const char *proto = bb_kvs_get_or(p, "protocol", "tcp");
	const char *tune = bb_kvs_get(p, "tune");
	if (strcmp(proto, "tcp") && strcmp(proto, "udp")) {
		snprintf(err, errlen, "protocol: '%s' is not tcp or udp", proto);
		return -EINVAL;
	}
	sr->timed = 1;
	sr->nominal_s = (double)secs;
	sr->runtime_s = (double)secs;
	if (bb_strv_add(&sr->server_argv, "/usr/bin/iperf3") ||
	    bb_strv_add(&sr->server_argv, "--server") || bb_strv_add(&sr->server_argv, "-4"))
		return -ENOMEM;
	snprintf(sr->server_ready, sizeof sr->server_ready, "tcp:127.0.0.1:%s", IPERF_PORT);
	struct bb_strv *c = &sr->client_argv;
	if (bb_strv_add(c, "/usr/bin/iperf3") || bb_strv_add(c, "-t") ||
	    bb_suite_argv_addf(c, "%ld", secs) || bb_strv_add(c, "-J") || bb_strv_add(c, "-c") ||
	    bb_strv_add(c, "127.0.0.1") || (!strcmp(proto, "udp") && bb_strv_add(c, "-u")))
		return -ENOMEM;
	snprintf(sr->client_count, sizeof sr->client_count, "1");
	/* tune: KEY VALUE pairs, each a sysctl of the run */
	for (const char *t = tune ? tune : ""; *(t += strspn(t, " \t"));) {
		size_t kn = strcspn(t, " \t");
		const char *v = t + kn + strspn(t + kn, " \t");
		size_t vn = strcspn(v, " \t");
		if (!vn)
			break;
		char kv[256];
		snprintf(kv, sizeof kv, "%.*s=%.*s", (int)kn, t, (int)vn, v);
		if (bb_suite_add_sysctl(sr, kv))
			return -ENOMEM;
		t = v + vn;
	}
	if (bb_strv_add(&sr->files, "/usr/bin/iperf3"))
		return -ENOMEM;
	return 0;
}

static const struct keydef keys[] = {
    {C_TOP, "iperf-server", NULL, K_SERVER, 0, BB_LEVEL_RUN, C_NONE, "iperf", NULL},
    {C_SERVER, "iperf-server", NULL, K_SERVER, 0, BB_LEVEL_RUN, C_NONE, "iperf", NULL},
    {C_BLOCK, "protocol", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_protocol},
    {C_BLOCK, "runtime", NULL, K_DURATION, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "tune", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_tune},
    {C_BLOCK, "sessions", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_sessions},
    /* LKP pins its sessions' servers and clients with numactl: recorded only */
    {C_BLOCK, "numactl", "lkp.numactl", K_NOTE, 0, BB_LEVEL_NOTE, C_NONE, NULL, NULL},
    {C_BLOCK, "iterations", NULL, K_POSINT, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
};

/* the `# - key` lines of LKP's programs/iperf/run */
static const char *const loose[] = {"runtime", "protocol", "sessions", "numactl", "tune", NULL};
static const struct bb_suite_default defaults[] = {
    {"protocol", "tcp"},
    {NULL, NULL},
};
/* iperf3 is a glibc program: one non-loopback address (the init's dummy interface), as
 * netperf */
static const char *const boot_modules[] = {"dummy", NULL};
static const struct bb_suite_file files[] = {
    {"/usr/bin/iperf3", "usr/bin/iperf3", 0},
    {NULL, NULL, 0},
};
static const char *const primary[] = {"iperf.tcp.sender.bps", "iperf.udp.bps",
                                      "iperf.tcp.receiver.bps", NULL};

const struct bb_suite bb_suite_iperf = {
    .name = "iperf",
    .summary = "TCP and UDP throughput of iperf3 over loopback or between two hosts",
    .runtime_key = "runtime",
    .default_runtime = "300s",
    .keys = keys,
    .nkeys = sizeof keys / sizeof keys[0],
    .loose = loose,
    .defaults = defaults,
    .build = build,
    .boot_modules = boot_modules,
    .server_addr_opt = "-c",
    .server_cmd = "iperf3 --server -4",
    .files = files,
    .primary = primary,
};
