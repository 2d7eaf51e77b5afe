/*
 * iperf (iperf3), as LKP's programs/iperf/run and programs/iperf-server/daemon run it: the
 * server `iperf3 --server -4` (LKP's daemon without --daemon: the init keeps it in the
 * foreground and stops it after the clients; -4 so that its socket is an IPv4 one the init sees
 * listening on tcp:127.0.0.1:5201, where a probe connection would count on iperf3's server as a
 * failed test), then one client `iperf3 -t RUNTIME -J -c 127.0.0.1 [-u]` (protocol udp), LKP's
 * command line; in a two-host job the client's -c is the server host's address. `sessions: N`
 * is LKP's other branch: N servers and N clients at once (build_sessions). `tune` is LKP's
 * list of sysctl pairs set before the run. Debian testing's iperf3 and libiperf0, taken
 * without iperf3's service dependencies. Parser: init/parse_iperf.c (LKP's
 * programs/iperf/parse).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/suites/suite.h"

#define IPERF_PORT "5201"
#define SESSIONS_PORT "5001" /* LKP's run: port=5001 */
#define MAX_SESSIONS 64
/* iperf3 (3.16 and later) cancels its streams' threads, and glibc's pthread_cancel loads
 * libgcc_s.so.1 for the unwinding: not a NEEDED library of iperf3's, so named here (without it
 * iperf3 aborts with "libgcc_s.so.1 must be installed for pthread_cancel to work") */
#define LIBGCC_S "/usr/lib/x86_64-linux-gnu/libgcc_s.so.1"

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

/* LKP's `sessions`: that many servers and clients at once, on ports 5001 and up. */
static int check_sessions(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	return bb_suite_check_whole(w, key, s, m, 1, MAX_SESSIONS, NULL,
	                            "(iperf3 sessions at once)");
}

/*
 * LKP's sessions (its run's `if [[ -n "$sessions" ]]` branch), as two scripts of one line
 * (a plan argument is one line). The server role's: sessions servers `iperf3 --server -4 -p
 * 5001..`, the last one started when the others listen, so that its readiness is all of
 * theirs ($1 sessions, $2 the first port). LKP's run starts them itself (`iperf3 -s -B ADDR -p
 * PORT -1`), and only when the server is 127.0.0.1: here the server role does, on either host
 * of a two-host job. The client's: LKP's clients `iperf3 -c ADDR -p PORT -i 10 -T I -J -t
 * RUNTIME [-u]` at once, then their outputs one after the other, as LKP prints them ($1
 * sessions, $3 the address after -c, $4 the first port, $5 runtime, $6 tcp or udp).
 */
static const char server_script[] =
    "n=$1; p=$2; i=1; while [ $i -lt $n ]; do /usr/bin/iperf3 --server -4 -p $((p + i - 1)) & "
    "i=$((i + 1)); done; i=1; t=0; while [ $i -lt $n ]; do "
    "if grep -q \"$(printf ':%04X 00000000:0000 0A' $((p + i - 1)))\" /proc/net/tcp; then "
    "i=$((i + 1)); else t=$((t + 1)); if [ $t -gt 300 ]; then "
    "echo \"iperf: the server on port $((p + i - 1)) did not listen in 30 s\" >&2; exit 1; fi; "
    "sleep 0.1; fi; done; /usr/bin/iperf3 --server -4 -p $((p + n - 1)) & wait";
static const char client_script[] =
    "n=$1; a=$3; p=$4; u=; [ \"$6\" = udp ] && u=-u; d=/tmp/iperf-sessions.$$; "
    "mkdir -p $d || exit 1; i=1; while [ $i -le $n ]; do "
    "/usr/bin/iperf3 -c $a -p $((p + i - 1)) -i 10 -T $((i - 1)) -J -t $5 $u >$d/$i.json & "
    "i=$((i + 1)); done; wait; i=1; while [ $i -le $n ]; do cat $d/$i.json; i=$((i + 1)); "
    "done; rm -rf $d";

static int build_sessions(const char *sessions, const char *proto, long secs,
                          struct bb_suite_run *sr)
{
	int n = atoi(sessions);
	struct bb_strv *s = &sr->server_argv, *c = &sr->client_argv;
	if (bb_strv_add(s, "/bin/sh") || bb_strv_add(s, "-c") || bb_strv_add(s, server_script) ||
	    bb_strv_add(s, "iperf-server") || bb_strv_add(s, sessions) ||
	    bb_strv_add(s, SESSIONS_PORT))
		return -ENOMEM;
	snprintf(sr->server_ready, sizeof sr->server_ready, "tcp:127.0.0.1:%d",
	         atoi(SESSIONS_PORT) + n - 1);
	if (bb_strv_add(c, "/bin/sh") || bb_strv_add(c, "-c") || bb_strv_add(c, client_script) ||
	    bb_strv_add(c, "iperf") || bb_strv_add(c, sessions) || bb_strv_add(c, "-c") ||
	    bb_strv_add(c, "127.0.0.1") || bb_strv_add(c, SESSIONS_PORT) ||
	    bb_suite_argv_addf(c, "%ld", secs) || bb_strv_add(c, proto))
		return -ENOMEM;
	return 0;
}

/* One session (LKP's run without `sessions`): LKP's iperf-server daemon and its client. */
static int build_one(const char *proto, long secs, struct bb_suite_run *sr)
{
	struct bb_strv *s = &sr->server_argv, *c = &sr->client_argv;
	if (bb_strv_add(s, "/usr/bin/iperf3") || bb_strv_add(s, "--server") || bb_strv_add(s, "-4"))
		return -ENOMEM;
	snprintf(sr->server_ready, sizeof sr->server_ready, "tcp:127.0.0.1:%s", IPERF_PORT);
	if (bb_strv_add(c, "/usr/bin/iperf3") || bb_strv_add(c, "-t") ||
	    bb_suite_argv_addf(c, "%ld", secs) || bb_strv_add(c, "-J") || bb_strv_add(c, "-c") ||
	    bb_strv_add(c, "127.0.0.1") || (!strcmp(proto, "udp") && bb_strv_add(c, "-u")))
		return -ENOMEM;
	return 0;
}

static int build(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	const char *proto = bb_kvs_get_or(p, "protocol", "tcp");
	const char *tune = bb_kvs_get(p, "tune");
	const char *sessions = bb_kvs_get(p, "sessions");
	if (strcmp(proto, "tcp") && strcmp(proto, "udp")) {
		snprintf(err, errlen, "protocol: '%s' is not tcp or udp", proto);
		return -EINVAL;
	}
	sr->timed = 1;
	sr->nominal_s = (double)secs;
	sr->runtime_s = (double)secs;
	snprintf(sr->client_count, sizeof sr->client_count, "1");
	if (sessions ? build_sessions(sessions, proto, secs, sr) : build_one(proto, secs, sr))
		return -ENOMEM;
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
	if (bb_strv_add(&sr->files, "/usr/bin/iperf3") || bb_strv_add(&sr->files, LIBGCC_S))
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
    /* LKP pins its sessions' servers and clients with numactl, which the image does not
     * have: recorded only (affinity: pins the server and the client) */
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
    {LIBGCC_S, LIBGCC_S + 1, 0},
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
