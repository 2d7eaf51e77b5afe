/*
 * Two-host plans (docs/cluster.md): this host's role and NIC from its cluster.host entry, then
 * the init-to-init protocol over peer.c. The client host drives (start, end, done), the server
 * host follows (started, ended, bye). Every wait is bounded; when the other host never shows up
 * or goes away, `BENCHBOOT peer status=...` says so, cluster_down() gives the reason every later
 * iteration fails with, and the boot ends as usual.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console_proto.h"
#include "grow.h"
#include "init.h"
#include "json.h"
#include "peer.h"
#include "sha256.h"

#define REPLY_MS 30000.0       /* hello, env, ended, bye; the margin of the longer waits */
#define GAP_MS 60000.0         /* the server host, between two commands */
#define CONNECT_TRY_MS 2000.0  /* one connect attempt */
#define CONNECT_RETRY_MS 250.0 /* between two attempts */
#define PLAN_PATH "/etc/benchboot/plan"

static struct peer_conn conn = {.fd = -1};
static double wait_from; /* when the current wait began, for the peer line's ms= */

static void addr_only(const char *cidr, char *out, size_t len)
{
	int prefix;
	if (!cidr || !bb_plan_addr_prefix(cidr, out, len, &prefix))
		snprintf(out, len, "-");
}

void cluster_resolve(struct boot *b)
{
	struct cluster_state *c = &b->cluster;
	struct bb_plan *p = &b->plan;
	memset(c, 0, sizeof(*c));
	if (!p->cluster) {
		if (p->role != BB_ROLE_NONE)
			say("benchboot.role=%s ignored: the plan is for one host",
			    bb_role_name(p->role));
		return;
	}
	c->role = p->role;
	c->self_host = bb_plan_host_of(p, p->role);
	if (p->role != BB_ROLE_NONE)
		c->peer_host =
		    bb_plan_host_of(p, p->role == BB_ROLE_SERVER ? BB_ROLE_CLIENT : BB_ROLE_SERVER);
	if (p->role == BB_ROLE_NONE)
		snprintf(c->error, sizeof(c->error),
		         "no benchboot.role=server or benchboot.role=client on the kernel command "
		         "line (cluster %s has both)",
		         p->cluster);
	addr_only(c->peer_host ? c->peer_host->address : NULL, c->peer, sizeof(c->peer));
	if (!*c->error) {
		/* the NIC of its entry, as net.nic.* would; the command line's net.nic.* wins */
		const char *nic = c->self_host->nic ? c->self_host->nic : "eth0";
		if (!p->nic_name && !(p->nic_name = strdup(nic)))
			snprintf(c->error, sizeof(c->error), "out of memory");
		if (!p->nic_address.n && bb_strv_add(&p->nic_address, c->self_host->address))
			snprintf(c->error, sizeof(c->error), "out of memory");
	}
	addr_only(p->nic_address.n ? p->nic_address.v[0] : NULL, c->self, sizeof(c->self));
	if (*c->error)
		snprintf(c->down, sizeof(c->down), "cluster: %s", c->error);
	machine(BB_CON_CLUSTER " role=%s name=%s self=%s peer=%s port=%d status=%s reason=%s",
	        bb_role_name(c->role), c->self_host ? c->self_host->name : "-", c->self, c->peer,
	        p->cluster_port, *c->error ? "failed" : "ok", *c->error ? c->error : "-");
	if (*c->error)
		say("cluster %s: %s: every run fails", p->cluster, c->error);
}

const char *cluster_down(const struct boot *b)
{
	return *b->cluster.down ? b->cluster.down : NULL;
}

/* The other host is connected, or gone for good (status timeout, lost, mismatch). */
static void peer_state(struct boot *b, const char *status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void peer_state(struct boot *b, const char *status, const char *fmt, ...)
{
	struct cluster_state *c = &b->cluster;
	va_list ap;
	char why[512];
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(c->peer_status, sizeof(c->peer_status), "%s", status);
	snprintf(c->peer_reason, sizeof(c->peer_reason), "%s",
	         strcmp(status, "connected") ? why : "");
	machine(BB_CON_PEER " status=%s host=%s address=%s ms=%.1f reason=%s", status,
	        c->peer_host ? c->peer_host->name : "-", c->peer, init_now_ms() - wait_from,
	        *c->peer_reason ? c->peer_reason : "-");
	if (strcmp(status, "connected")) {
		snprintf(c->down, sizeof(c->down), "peer %s: %s", status, why);
		say("the %s host: %s: %s (the runs left fail)",
		    c->role == BB_ROLE_SERVER ? "client" : "server", status, why);
		peer_close(&conn);
	}
}

/* A failed read or write as a reason. */
static void lost(struct boot *b, int r, const char *waiting_for, double secs, const char *err)
{
	if (r == -ETIMEDOUT)
		peer_state(b, "lost", "no %s from the %s host within %.0f s", waiting_for,
		           b->cluster.role == BB_ROLE_SERVER ? "client" : "server", secs);
	else if (r == -ECONNRESET)
		peer_state(b, "lost", "the connection was closed while waiting for %s",
		           waiting_for);
	else if (r == -EPROTO)
		peer_state(b, "lost", "protocol: %s", err);
	else
		peer_state(b, "lost", "while waiting for %s: %s", waiting_for, strerror(-r));
}

/* Receive a message with word `want` (another one is a protocol error), or any message
 * (want NULL, waiting for `what`): 0 or -1 (lost). */
static int expect_any(struct boot *b, struct peer_msg *m, const char *want, const char *what,
                      double ms)
{
	char err[256] = "";
	wait_from = init_now_ms();
	int r = peer_recv(&conn, m, wait_from + ms, err, sizeof(err));
	if (!r && want && strcmp(m->word, want)) {
		snprintf(err, sizeof(err), "'%s' where '%s' was expected", m->word, want);
		r = -EPROTO;
	}
	if (r)
		lost(b, r, want ? want : what, ms / 1e3, err);
	return r ? -1 : 0;
}

static int expect(struct boot *b, struct peer_msg *m, const char *want, double ms)
{
	return expect_any(b, m, want, want, ms);
}

static int send_line(struct boot *b, const char *line)
{
	int r = peer_send(&conn, line);
	if (r) {
		wait_from = init_now_ms();
		peer_state(b, "lost", "cannot send '%.*s': %s", (int)strcspn(line, " "), line,
		           strerror(-r));
	}
	return r ? -1 : 0;
}

static void hello_line(const struct boot *b, char *line, size_t len)
{
	char hex[SHA256_HEX_LEN + 1] = "-", proto[8];
	if (bb_sha256_file_hex(init_path(PLAN_PATH), hex))
		snprintf(hex, sizeof(hex), "-");
	hex[16] = 0;
	snprintf(proto, sizeof(proto), "%d", PEER_PROTO);
	peer_line_start(line, len, "hello");
	peer_line_add(line, len, "proto", proto);
	peer_line_add(line, len, "role", bb_role_name(b->cluster.role));
	peer_line_add(line, len, "host", b->cluster.self_host->name);
	peer_line_add(line, len, "cluster", b->plan.cluster);
	peer_line_add(line, len, "plan", hex);
}

/* The other side's hello against ours: "" when it is our counterpart, else why not. */
static void hello_check(const struct boot *b, const struct peer_msg *m, char *why, size_t len)
{
	char mine[PEER_LINE_MAX], err[128];
	struct peer_msg me;
	const char *v, *want = bb_role_name(b->cluster.peer_host->role);
	hello_line(b, mine, sizeof(mine));
	peer_msg_parse(mine, &me, err, sizeof(err));
	*why = 0;
	if (strcmp(m->word, "hello"))
		snprintf(why, len, "'%s' instead of hello", m->word);
	else if (!(v = peer_msg_get(m, "proto")) || atoi(v) != PEER_PROTO)
		snprintf(why, len, "protocol version %s, this init speaks %d", v ? v : "-",
		         PEER_PROTO);
	else if (!(v = peer_msg_get(m, "role")) || strcmp(v, want))
		snprintf(why, len, "the other host says role %s, expected %s", v ? v : "-", want);
	else if (!(v = peer_msg_get(m, "cluster")) || strcmp(v, b->plan.cluster))
		snprintf(why, len, "cluster %s, expected %s", v ? v : "-", b->plan.cluster);
	else if (!(v = peer_msg_get(m, "plan")) || strcmp(v, peer_msg_get(&me, "plan")))
		snprintf(why, len, "plan %s, this host's is %s (not the same image's plan)",
		         v ? v : "-", peer_msg_get(&me, "plan"));
}

/* Client: connect (retrying until the deadline), hello, the server's env.json. */
static void meet_server(struct boot *b, double deadline)
{
	struct cluster_state *c = &b->cluster;
	struct peer_msg m;
	char line[PEER_LINE_MAX], why[256];
	int r, tries = 0;
	hello_line(b, line, sizeof(line));
	for (;;) {
		r = peer_connect(&conn, c->peer, b->plan.cluster_port,
		                 init_now_ms() + CONNECT_TRY_MS < deadline
		                     ? init_now_ms() + CONNECT_TRY_MS
		                     : deadline);
		/* a connection the host's network takes back before the hello is through (the
		 * peer's address not resolved yet: EHOSTUNREACH) is one more try, not a lost peer
		 */
		if (!r) {
			if (!(r = peer_send(&conn, line)))
				break;
			peer_close(&conn);
			if (r != -EHOSTUNREACH && r != -ENETUNREACH && r != -ECONNREFUSED &&
			    r != -ECONNRESET && r != -EPIPE) {
				wait_from = init_now_ms();
				peer_state(b, "lost", "cannot send 'hello': %s", strerror(-r));
				return;
			}
		}
		tries++;
		if (init_now_ms() + CONNECT_RETRY_MS >= deadline) {
			peer_state(b, "timeout",
			           "no server host on %s:%d after %d s (%d tries, last: %s)",
			           c->peer, b->plan.cluster_port, b->plan.cluster_wait, tries,
			           strerror(-r));
			return;
		}
		poll(NULL, 0, (int)CONNECT_RETRY_MS);
	}
	if (expect_any(b, &m, NULL, "hello", REPLY_MS))
		return;
	hello_check(b, &m, why, sizeof(why));
	if (*why) {
		if (!strcmp(m.word, "mismatch") && peer_msg_get(&m, "reason")) {
			snprintf(why, sizeof(why), "the server host says: %s",
			         peer_msg_get(&m, "reason"));
		} else {
			peer_line_start(line, sizeof(line), "mismatch");
			peer_line_add(line, sizeof(line), "reason", why);
			peer_send(&conn, line);
		}
		peer_state(b, "mismatch", "%s", why);
		return;
	}
	const char *bytes;
	char *env = NULL;
	if (expect(b, &m, "env", REPLY_MS))
		return;
	if (!(bytes = peer_msg_get(&m, "bytes")) || atol(bytes) <= 0 || atol(bytes) > (1L << 24)) {
		peer_state(b, "lost", "protocol: env without a size");
		return;
	}
	if ((r = peer_recv_bytes(&conn, (size_t)atol(bytes), &env, init_now_ms() + REPLY_MS))) {
		lost(b, r, "the env.json", REPLY_MS / 1e3, "");
		return;
	}
	init_mkdirs(INIT_RESULTS_DIR "/peer", 0755);
	if ((r = init_write(INIT_RESULTS_DIR "/peer/env.json", env, 1)))
		say("cannot write peer/env.json: %s", strerror(-r));
	free(env);
	peer_state(b, "connected", "-");
}

/* Server: accept the client host (until the deadline), hello, send env.json. */
static void meet_client(struct boot *b, double deadline)
{
	struct cluster_state *c = &b->cluster;
	struct peer_msg m;
	char line[PEER_LINE_MAX], why[256], from[64];
	int lfd = peer_listen(b->plan.cluster_port), r;
	if (lfd < 0) {
		peer_state(b, "timeout", "cannot listen on port %d: %s", b->plan.cluster_port,
		           strerror(-lfd));
		return;
	}
	r = peer_accept(&conn, lfd, deadline, from, sizeof(from));
	close(lfd);
	if (r) {
		peer_state(b, "timeout", "no client host connected to port %d within %d s%s%s",
		           b->plan.cluster_port, b->plan.cluster_wait, r == -ETIMEDOUT ? "" : ": ",
		           r == -ETIMEDOUT ? "" : strerror(-r));
		return;
	}
	say("the client host connected from %s", from);
	if (expect_any(b, &m, NULL, "hello", REPLY_MS))
		return;
	hello_check(b, &m, why, sizeof(why));
	if (*why) {
		peer_line_start(line, sizeof(line), "mismatch");
		peer_line_add(line, sizeof(line), "reason", why);
		peer_send(&conn, line);
		peer_state(b, "mismatch", "%s", why);
		return;
	}
	hello_line(b, line, sizeof(line));
	if (send_line(b, line))
		return;
	/* its env.json as of now (the final one is written at the end of the boot) */
	snprintf(c->peer_status, sizeof(c->peer_status), "connected");
	size_t len = 0;
	char *env = env_write(b) ? NULL : init_read(INIT_RESULTS_DIR "/env.json", &len);
	snprintf(line, sizeof(line), "env bytes=%zu", env ? len : 2);
	if (!send_line(b, line) && (r = peer_send_bytes(&conn, env ? env : "{}", env ? len : 2))) {
		free(env);
		peer_state(b, "lost", "cannot send env.json: %s", strerror(-r));
		return;
	}
	free(env);
	if (!cluster_down(b))
		peer_state(b, "connected", "-");
}

void cluster_meet(struct boot *b)
{
	struct cluster_state *c = &b->cluster;
	if (c->role == BB_ROLE_NONE || cluster_down(b))
		return;
	init_step("cluster", NULL, 0);
	wait_from = init_now_ms();
	double deadline = wait_from + b->plan.cluster_wait * 1000.0;
	say("waiting up to %d s for the %s host %s (%s:%d)", b->plan.cluster_wait,
	    c->role == BB_ROLE_SERVER ? "client" : "server", c->peer_host->name, c->peer,
	    b->plan.cluster_port);
	if (c->role == BB_ROLE_CLIENT)
		meet_server(b, deadline);
	else
		meet_client(b, deadline);
}

/* A sysctl line of the server host into set (entries malloc'd). */
static void add_sysctl(struct sysctl_set *set, const struct peer_msg *m)
{
	const char *k = peer_msg_get(m, "key"), *req = peer_msg_get(m, "requested"),
	           *act = peer_msg_get(m, "actual");
	if (bb_grow(&set->v, &set->cap, set->n + 1, sizeof(*set->v)))
		return;
	struct sysctl_entry *v = set->v;
	memset(&v[set->n], 0, sizeof(v[0]));
	snprintf(v[set->n].key, sizeof(v[0].key), "%s", k ? k : "?");
	snprintf(v[set->n].requested, sizeof(v[0].requested), "%s", req ? req : "");
	snprintf(v[set->n].actual, sizeof(v[0].actual), "%s", act ? act : "");
	set->n++;
}

int cluster_iter_start(struct boot *b, const struct bb_plan_run *run, int iter, int warmup,
                       int monitored, int pos, int positions, struct sysctl_set *peer, char *reason,
                       size_t len)
{
	char line[PEER_LINE_MAX], num[32];
	struct peer_msg m;
	size_t nservers = run->nservers ? run->nservers : 1;
	double ms = (double)nservers * run->grace * 1e3 + REPLY_MS;
	if (cluster_down(b)) {
		snprintf(reason, len, "%s", cluster_down(b));
		return -1;
	}
	peer_line_start(line, sizeof(line), "start");
	peer_line_add(line, sizeof(line), "run", run->id);
	snprintf(num, sizeof(num), "%d", iter);
	peer_line_add(line, sizeof(line), "iter", num);
	snprintf(num, sizeof(num), "%d/%d", pos, positions);
	peer_line_add(line, sizeof(line), "pos", num);
	snprintf(num, sizeof(num), "%d", warmup);
	if (warmup)
		peer_line_add(line, sizeof(line), "warmup", num);
	snprintf(num, sizeof(num), "%d", monitored);
	if (monitored)
		peer_line_add(line, sizeof(line), "monitored", num);
	if (send_line(b, line))
		goto gone;
	for (;;) {
		if (expect_any(b, &m, NULL, "started", ms))
			goto gone;
		if (!strcmp(m.word, "sysctl")) {
			add_sysctl(peer, &m);
			continue;
		}
		if (strcmp(m.word, "started")) {
			char what[80];
			snprintf(what, sizeof(what), "'%s' where 'started' was expected", m.word);
			lost(b, -EPROTO, "started", 0, what);
			goto gone;
		}
		const char *st = peer_msg_get(&m, "status"), *why = peer_msg_get(&m, "reason");
		if (st && !strcmp(st, "ok"))
			return 0;
		snprintf(reason, len, "%s", why && *why ? why : "the server host says failed");
		return 1;
	}
gone:
	snprintf(reason, len, "%s", cluster_down(b));
	return -1;
}

int cluster_iter_end(struct boot *b, const char *status, const char *reason, char *pstatus,
                     size_t pslen, char *preason, size_t prlen)
{
	char line[PEER_LINE_MAX];
	struct peer_msg m;
	snprintf(pstatus, pslen, "failed");
	peer_line_start(line, sizeof(line), "end");
	peer_line_add(line, sizeof(line), "status", status);
	peer_line_add(line, sizeof(line), "reason", *reason ? reason : "-");
	if (cluster_down(b) || send_line(b, line) || expect(b, &m, "ended", REPLY_MS)) {
		snprintf(preason, prlen, "%s", cluster_down(b));
		return -1;
	}
	const char *st = peer_msg_get(&m, "status"), *why = peer_msg_get(&m, "reason");
	snprintf(pstatus, pslen, "%s", st ? st : "failed");
	snprintf(preason, prlen, "%s", why && strcmp(why, "-") ? why : "");
	return strcmp(pstatus, "ok") ? 1 : 0;
}

void cluster_done(struct boot *b, int ok, int failed)
{
	char line[128];
	struct peer_msg m;
	if (b->cluster.role != BB_ROLE_CLIENT || cluster_down(b))
		return;
	snprintf(line, sizeof(line), "done ok=%d failed=%d", ok, failed);
	if (!send_line(b, line) && !expect(b, &m, "bye", REPLY_MS))
		say("the server host acknowledged the end of the matrix");
	peer_close(&conn);
}

int cluster_serve_started(struct boot *b, const struct sysctl_set *sysctls, const char *status,
                          const char *reason)
{
	char line[PEER_LINE_MAX];
	for (size_t i = 0; i < sysctls->n; i++) {
		peer_line_start(line, sizeof(line), "sysctl");
		peer_line_add(line, sizeof(line), "key", sysctls->v[i].key);
		peer_line_add(line, sizeof(line), "requested", sysctls->v[i].requested);
		peer_line_add(line, sizeof(line), "actual", sysctls->v[i].actual);
		if (send_line(b, line))
			return -1;
	}
	peer_line_start(line, sizeof(line), "started");
	peer_line_add(line, sizeof(line), "status", status);
	peer_line_add(line, sizeof(line), "reason", *reason ? reason : "-");
	return send_line(b, line) ? -1 : 0;
}

int cluster_serve_wait_end(struct boot *b, const struct bb_plan_run *run, char *pstatus,
                           size_t pslen, char *preason, size_t prlen)
{
	struct peer_msg m;
	if (expect(b, &m, "end", (run->runtime + run->grace) * 1e3 + REPLY_MS))
		return -1;
	const char *st = peer_msg_get(&m, "status"), *why = peer_msg_get(&m, "reason");
	snprintf(pstatus, pslen, "%s", st ? st : "-");
	snprintf(preason, prlen, "%s", why && strcmp(why, "-") ? why : "");
	return 0;
}

void cluster_serve_ended(struct boot *b, const char *status, const char *reason)
{
	char line[PEER_LINE_MAX];
	if (cluster_down(b))
		return;
	peer_line_start(line, sizeof(line), "ended");
	peer_line_add(line, sizeof(line), "status", status);
	peer_line_add(line, sizeof(line), "reason", *reason ? reason : "-");
	send_line(b, line);
}

/* A `start` from the client host: its run and iteration, or a `started failed` answer. */
static void serve_start(struct boot *b, const struct peer_msg *m, cluster_iteration_fn *serve)
{
	const char *id = peer_msg_get(m, "run"), *it = peer_msg_get(m, "iter"),
	           *pos = peer_msg_get(m, "pos");
	const char *wu = peer_msg_get(m, "warmup"), *mo = peer_msg_get(m, "monitored");
	int iter = it ? atoi(it) : 0, warmup = wu ? atoi(wu) : 0, p = 0, t = 0;
	int monitored = mo ? atoi(mo) : 0;
	size_t r;
	char why[300];
	for (r = 0; id && r < b->plan.nruns; r++)
		if (!strcmp(b->plan.runs[r].id, id))
			break;
	int known = id && r < b->plan.nruns &&
	            (warmup      ? iter == 0 && warmup > 0 && warmup <= b->plan.warmup && !monitored
	             : monitored ? iter == 0 && monitored > 0 && monitored <= b->plan.monitored
	                         : iter >= 1 && iter <= b->plan.runs[r].iterations);
	if (!known) {
		struct sysctl_set none = {0};
		snprintf(why, sizeof(why), "no run %s %s %s in the server host's plan",
		         id ? id : "-",
		         warmup      ? "warm-up"
		         : monitored ? "monitored iteration"
		                     : "iteration",
		         warmup      ? (wu ? wu : "-")
		         : monitored ? mo
		                     : (it ? it : "-"));
		say("the client host asked for %s", why);
		cluster_serve_started(b, &none, "failed", why);
		return;
	}
	if (!pos || sscanf(pos, "%d/%d", &p, &t) != 2 || p < 1 || t < p)
		p = b->position + 1, t = 0;
	b->position = p - 1;
	b->positions = t;
	serve(b, r, iter, warmup, monitored);
	if (!warmup && !monitored && iter > b->run_served[r])
		b->run_served[r] = iter;
}

void cluster_serve(struct boot *b, cluster_iteration_fn *serve)
{
	struct peer_msg m;
	double gap = GAP_MS + b->plan.results_wait * 1e3;
	while (!cluster_down(b)) {
		if (expect_any(b, &m, NULL, "start or done", gap))
			break;
		if (!strcmp(m.word, "start")) {
			serve_start(b, &m, serve);
		} else if (!strcmp(m.word, "done")) {
			say("the client host says the matrix is over (%s runs ok, %s with "
			    "failures)",
			    peer_msg_get(&m, "ok") ? peer_msg_get(&m, "ok") : "?",
			    peer_msg_get(&m, "failed") ? peer_msg_get(&m, "failed") : "?");
			send_line(b, "bye");
			peer_close(&conn);
			return;
		} else if (!strcmp(m.word, "mismatch")) {
			peer_state(b, "mismatch", "the client host says: %s",
			           peer_msg_get(&m, "reason") ? peer_msg_get(&m, "reason") : "-");
		} else {
			char what[80];
			snprintf(what, sizeof(what), "'%s' where 'start' or 'done' was expected",
			         m.word);
			lost(b, -EPROTO, "start or done", 0, what);
		}
	}
	/* the client host is gone (or never came): what was not served fails with the reason */
	if (!b->positions)
		for (size_t r = 0; r < b->plan.nruns; r++)
			b->positions += b->plan.runs[r].iterations;
	for (size_t r = 0; r < b->plan.nruns; r++)
		for (int i = b->run_served[r] + 1; i <= b->plan.runs[r].iterations; i++)
			serve(b, r, i, 0, 0);
}
