/*
 * A two-host boot under QEMU (`benchboot run` of a job whose cluster has a server host and a
 * client host): both VMs start together, one thread each watching its console, joined by a
 * private network between the two guests only (QEMU dgram netdevs on 127.0.0.1 sending to
 * each other's port), each with a virtio NIC (the cluster's MAC, or one made up), its own
 * results disk and `benchboot.role=server|client` on its kernel command line. Each VM has the
 * usual deadline and silence limits, so nothing outlives its deadline; a host that never
 * comes up or dies is reported by the other (its init) and here. Afterwards the client's
 * boot is collected where one-host boots go and the server host's into OUTDIR/server-host/,
 * linked from the client's boot folder as server-host.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "host/collect/collect.h"
#include "host/run/runctx.h"

enum { SERVER, CLIENT };
static const char *const role_names[] = {"server", "client"};

/* One host of the pair: what it boots, its VM's arguments, how it went. */
struct side {
	struct run *r;
	const struct bootspec *s;
	int role, booted;
	size_t host;           /* its index in the cluster */
	struct bb_run_opts lo; /* the caller's callbacks, through the lock */
	struct bb_run_vm vm;
	struct bb_progress p;
	char cmdline[4300], netdev[300], device[200], console[4096];
	int ports[2]; /* its end of the test network, the other's */
	const char *args[5];
	struct bb_qemu_result qres;
	int qr;
	pthread_t th;
};

/* Two free UDP ports on 127.0.0.1 (held open together so they differ). 0 or -errno. */
static int free_ports(int port[2])
{
	int fd[2] = {-1, -1}, rc = 0;
	for (int i = 0; i < 2 && !rc; i++) {
		struct sockaddr_in a = {.sin_family = AF_INET,
		                        .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		socklen_t al = sizeof(a);
		if ((fd[i] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0 ||
		    bind(fd[i], (struct sockaddr *)&a, sizeof(a)) ||
		    getsockname(fd[i], (struct sockaddr *)&a, &al))
			rc = -errno;
		else
			port[i] = ntohs(a.sin_port);
	}
	for (int i = 0; i < 2; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	return rc;
}

static void on_start(void *ctx, int pid)
{
	struct side *sd = ctx;
	bb_progress_event(&sd->p, "QEMU pid %d, console %s", pid, sd->console);
}

static double side_line(void *ctx, const char *line)
{
	return bb_progress_line(&((struct side *)ctx)->p, line);
}

static void side_tick(void *ctx)
{
	bb_progress_tick(&((struct side *)ctx)->p);
}

static void *side_boot(void *arg)
{
	struct side *sd = arg;
	struct run *r = sd->r;
	const struct bb_run_opts *o = r->o;
	/* each side also waits up to cluster.wait for the other at the start */
	double wait = sd->s->plan ? sd->s->plan->cluster_wait : BB_CLUSTER_WAIT;
	double dl = bb_run_deadline(r, sd->s) + (o->deadline > 0 ? 0 : wait);
	const char *disk = sd->role == SERVER ? r->res->server_disk : r->res->disk;
	sd->p.boot_start = bb_now();
	sd->p.default_silence = o->silence > 0 ? o->silence : r->allow;
	bb_progress_event(&sd->p,
	                  "host %s, kernel %s, boot group %d, %s, deadline %.0f s, test network "
	                  "udp 127.0.0.1:%d -> %d",
	                  r->cluster.hosts[sd->host].name, sd->p.kernel_name, sd->s->group,
	                  r->use == BB_ACCEL_KVM ? "KVM" : "TCG", dl, sd->ports[0], sd->ports[1]);
	struct bb_qemu_opts qo = {
	    .accel = r->use,
	    .kernel = sd->s->vmlinuz,
	    .initrd = sd->s->initrd,
	    .append = sd->cmdline,
	    .disk = *disk ? disk : NULL,
	    .cpus = r->cpus,
	    .mem_mb = o->mem_mb,
	    .console_log = sd->console,
	    .deadline_s = dl,
	    .silence_s = sd->p.default_silence,
	    .on_line = side_line,
	    .on_tick = side_tick,
	    .on_start = on_start,
	    .ctx = sd,
	    .interrupt = o->interrupt,
	    .extra_args = sd->args,
	};
	sd->qr = bb_qemu_boot(&qo, &sd->qres);
	return NULL;
}

/* Set up side sd of the res->nrecs-th boot; ports: its own, then the other's. */
static void side_init(struct side *sd, struct run *r, const struct bootspec *s, int role,
                      const int ports[2], struct bb_run_shared *sh, size_t nboots)
{
	const struct bb_cluster *c = &r->cluster;
	char mac[32];
	sd->r = r;
	sd->s = s;
	sd->role = role;
	sd->host = role == SERVER ? (size_t)c->server : (size_t)c->client;
	sd->lo = *r->o;
	sd->vm = (struct bb_run_vm){sh, 0};
	sd->lo.say = bb_run_locked_say;
	/* one status line on a terminal: the client's */
	sd->lo.status = role == CLIENT && r->o->status ? bb_run_locked_status : NULL;
	sd->lo.ctx = &sd->vm;
	sd->p.o = &sd->lo;
	sd->p.boot_no = (int)r->res->nrecs + 1;
	sd->p.nboots = (int)nboots;
	sd->p.plan = s->plan;
	sd->p.kernel_name =
	    role == SERVER && r->sspecs ? r->o->server_kernel.name : r->kernels[s->kernel].name;
	sd->p.role = role_names[role];
	char words[128];
	bb_cluster_role_args(role_names[role], words, sizeof(words));
	snprintf(sd->cmdline, sizeof(sd->cmdline), "%.4096s benchboot.order.rotate=%d %.127s",
	         s->cmdline, bb_run_order_turn(r, r->res->nrecs), words);
	snprintf(sd->console, sizeof(sd->console), "%.3800s/%s-%03zu-%.100s.g%d.%s.log",
	         r->res->consdir, r->stamp, r->res->nrecs + 1, sd->p.kernel_name, s->group,
	         role_names[role]);
	bb_cluster_mac(c, sd->host, mac, sizeof(mac));
	sd->ports[0] = ports[0];
	sd->ports[1] = ports[1];
	snprintf(sd->netdev, sizeof(sd->netdev),
	         "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=%d,"
	         "remote.type=inet,remote.host=127.0.0.1,remote.port=%d",
	         ports[0], ports[1]);
	snprintf(sd->device, sizeof(sd->device), "virtio-net-pci,netdev=n0,mac=%s", mac);
	sd->args[0] = "-netdev";
	sd->args[1] = sd->netdev;
	sd->args[2] = "-device";
	sd->args[3] = sd->device;
	sd->args[4] = NULL;
}

/* How side sd went: 1 finished, 0 not (QEMU could not run included). */
static int side_outcome(struct side *sd, const char **outcome, char *detail, size_t dlen)
{
	int fin;
	if (bb_run_outcome(sd->r, &sd->p, sd->qr, &sd->qres, sd->console, outcome, detail, dlen,
	                   &fin))
		sd->r->res->any_failed = 1;
	return fin;
}

/* The record of a two-host boot (both sides booted and ended). */
static void record_pair(struct run *r, struct side sd[2], struct bb_run_record *rec)
{
	struct side *c = sd[CLIENT].booted ? &sd[CLIENT] : &sd[SERVER];
	rec->kernel = c->s->kernel;
	rec->group = c->s->group;
	bb_run_record_accel(r, rec);
	if (sd[CLIENT].booted) {
		snprintf(rec->console, sizeof(rec->console), "%s", sd[CLIENT].console);
		snprintf(rec->boot_id, sizeof(rec->boot_id), "%s", sd[CLIENT].p.boot_id);
		rec->ok = sd[CLIENT].p.ok;
		rec->failed = sd[CLIENT].p.failed;
		rec->wall = sd[CLIENT].qres.wall_s;
		rec->stalls = sd[CLIENT].qres.stalls;
		snprintf(rec->stall, sizeof(rec->stall), "%s", sd[CLIENT].qres.stall);
		rec->finished =
		    side_outcome(&sd[CLIENT], &rec->outcome, rec->detail, sizeof(rec->detail));
	} else {
		rec->outcome = "not-booted";
	}
	if (sd[SERVER].booted) {
		snprintf(rec->server_console, sizeof(rec->server_console), "%s",
		         sd[SERVER].console);
		snprintf(rec->server_boot_id, sizeof(rec->server_boot_id), "%s",
		         sd[SERVER].p.boot_id);
		rec->server_ok = sd[SERVER].p.ok;
		rec->server_failed = sd[SERVER].p.failed;
		rec->server_wall = sd[SERVER].qres.wall_s;
		rec->server_stalls = sd[SERVER].qres.stalls;
		snprintf(rec->server_stall, sizeof(rec->server_stall), "%s", sd[SERVER].qres.stall);
		rec->server_finished = side_outcome(&sd[SERVER], &rec->server_outcome,
		                                    rec->server_detail, sizeof(rec->server_detail));
	}
}

/* The client's boot folder links to the server host's: FOLDER/server-host ->
 * ../server-host/NNNN-SERVERBOOTID. */
static void link_server(struct run *r, const struct bb_run_record *rec)
{
	char err[4600];
	if (!*rec->folder || !*rec->server_folder)
		return;
	if (bb_collect_link_server_host(r->res->outdir, rec->folder, rec->server_folder, err,
	                                sizeof(err)) < 0)
		bb_run_say(r, BB_RUN_WARN, "%s", err);
}

void bb_pair_boot(struct run *r, const struct bootspec *cs, const struct bootspec *ss,
                  size_t nboots)
{
	struct bb_run_result *res = r->res;
	struct bb_run_record *rec = &res->recs[res->nrecs];
	struct bb_run_shared sh = {.mu = PTHREAD_MUTEX_INITIALIZER, .o = r->o, .nvms = 1};
	struct side sd[2];
	int ports[2], rc;
	memset(sd, 0, sizeof(sd));
	if ((rc = free_ports(ports))) {
		bb_run_say(r, BB_RUN_WARN, "unable to find free UDP ports on 127.0.0.1: %s",
		           strerror(-rc));
		rec->outcome = "qemu-failed";
		res->nrecs++;
		res->system_failure = res->any_failed = 1;
		return;
	}
	side_init(&sd[SERVER], r, ss, SERVER, ports, &sh, nboots);
	side_init(&sd[CLIENT], r, cs, CLIENT, (int[]){ports[1], ports[0]}, &sh, nboots);
	for (int i = 0; i < 2; i++) {
		sd[i].booted = !r->o->only || !strcmp(r->o->only, role_names[i]);
		if (!sd[i].booted)
			bb_progress_event(&sd[i].p, "not booted (--only %s): host %s is elsewhere",
			                  r->o->only, r->cluster.hosts[sd[i].host].name);
		else if ((rc = pthread_create(&sd[i].th, NULL, side_boot, &sd[i]))) {
			sd[i].qr = -rc;
			snprintf(sd[i].qres.detail, sizeof(sd[i].qres.detail), "pthread_create: %s",
			         strerror(rc));
			sd[i].booted = 2; /* no thread to join */
		}
	}
	for (int i = 0; i < 2; i++)
		if (sd[i].booted == 1)
			pthread_join(sd[i].th, NULL);
	record_pair(r, sd, rec);
	/* kept with the record: sd[] is gone when later boots write run.json again */
	rec->order_rotate = bb_run_order_turn(r, r->res->nrecs);
	snprintf(rec->cmdline, sizeof(rec->cmdline), "%s", sd[CLIENT].cmdline);
	bb_run_keep_booted(r, res->nrecs, sd[CLIENT].p.kernel_name, cs->vmlinuz, cs->initrd);
	res->nrecs++;
	if (sd[CLIENT].booted)
		bb_run_collect(r, &sd[CLIENT].p, res->disk, res->outdir, rec->console, rec->boot_id,
		               rec->finished, rec->folder, sizeof(rec->folder));
	if (sd[SERVER].booted)
		bb_run_collect(r, &sd[SERVER].p, res->server_disk, res->server_outdir,
		               rec->server_console, rec->server_boot_id, rec->server_finished,
		               rec->server_folder, sizeof(rec->server_folder));
	link_server(r, rec);
	int wr = bb_runjson_write(res->outdir, r->old, res->recs, r->booted, res->nrecs);
	if (wr)
		bb_run_say(r, BB_RUN_WARN, "unable to write %s/run.json: %s", res->outdir,
		           strerror(-wr));
}
