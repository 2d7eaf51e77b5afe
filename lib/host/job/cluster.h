/*
 * Cluster files (`cluster: NAME` in a job; docs/jobs.md "Clusters"): which machines a job runs
 * on and in which role. LKP's format, a YAML mapping of host names, each with its `roles`
 * (server, client) and `macs` (its test-network NICs), plus benchboot's optional per-host
 * `address` (IPv4 ADDR/PREFIX on the test network, default 192.168.77.(i+1)/24 in file order) and
 * `nic` (the interface name or MAC that carries it; default the first of `macs`, else eth0):
 *
 *   pair-a:
 *     roles: [ server ]
 *     macs: [ "52:54:00:bb:00:01" ]
 *     address: 192.168.77.1/24
 *
 * A cluster is one host with both roles (cs-localhost, built in: the one-host mode, nothing
 * changes) or two hosts, one server and one client (a two-host job: the plan gets cluster.*
 * keys, docs/plan.md). Lookup of NAME: JOBDIR/clusters/NAME beside the job file, then
 * benchboot's config/clusters/NAME.
 */
#ifndef BENCHBOOT_HOST_JOB_CLUSTER_H
#define BENCHBOOT_HOST_JOB_CLUSTER_H

#include <stddef.h>

#include "plan/plan.h" /* BB_CLUSTER_PORT, BB_CLUSTER_WAIT: the plan's defaults */

#define BB_CLUSTER_MAX_MACS 4

struct bb_cluster_host {
	char name[64];
	int server, client; /* its roles */
	char macs[BB_CLUSTER_MAX_MACS][18];
	size_t nmacs;
	char address[64]; /* ADDR/PREFIX */
	char nic[64];     /* IFNAME or MAC (lowercase) */
	int line;         /* where it is named in the file */
};

struct bb_cluster {
	char name[128];
	char file[4096]; /* "" for the built-in cs-localhost */
	struct bb_cluster_host hosts[2];
	size_t nhosts;
	int two_host;       /* a server host and a client host */
	int server, client; /* their indexes (two_host) */
};

/*
 * Parse the text of cluster file `file` (named `name`). 0, or -EINVAL with "FILE:LINE: KEY:
 * what is wrong" in err (-ENOMEM likewise).
 */
int bb_cluster_parse_text(const char *name, const char *file, const char *text, size_t len,
                          struct bb_cluster *c, char *err, size_t errlen);

/*
 * Find and read cluster NAME for the job at jobfile (see the lookup above); cs-localhost
 * needs no file. 0, -ENOENT (err names where it looked), -EINVAL (a bad file or name).
 */
int bb_cluster_load(const char *name, const char *jobfile, struct bb_cluster *c, char *err,
                    size_t errlen);

/* The address of host h without its prefix ("192.168.77.1"). */
void bb_cluster_addr(const struct bb_cluster_host *h, char *buf, size_t len);

/* The MAC of host i for a VM: its first MAC, its nic when that is one, else 52:54:00:bb:00:0N
 * (N = i + 1). */
void bb_cluster_mac(const struct bb_cluster *c, size_t i, char *buf, size_t len);

/*
 * The kernel command line words of the machine in role "server" or "client":
 * "benchboot.role=ROLE" (the role also picks the init's dummy address: lib/plan/plan.h net_dummy).
 */
void bb_cluster_role_args(const char *role, char *buf, size_t len);

#endif
