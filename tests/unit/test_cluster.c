/* Cluster files (LKP's format plus address and nic), their errors, the lookup beside the job,
 * and the plan a two-host job gets: cluster.* keys, -H the server host's address. */
#include <errno.h>

#include "harness.h"
#include "host/job/cluster.h"
#include "host/job/job.h"
#include "host/job/matrix.h"
#include "host/job/planwrite.h"
#include "plan/plan.h"

static const char *cluster_err(const char *text)
{
	static char err[1024];
	struct bb_cluster c;
	err[0] = 0;
	if (!bb_cluster_parse_text("cs-x", "clusters/cs-x", text, strlen(text), &c, err,
	                           sizeof err))
		return "(parsed)";
	return err;
}

TEST(cluster_lkp_file_reads)
{
	/* LKP's own cluster/cs-lkp-hsw-ep5, as it is */
	static const char text[] = "lkp-hsw-ep5:\n"
	                           "  roles: [ server ]\n"
	                           "  macs: [ \"ec:f4:bb:cb:7b:92\" ]\n"
	                           "\n"
	                           "lkp-hsw-ep2:\n"
	                           "  roles: [ client ]\n"
	                           "  macs: [ \"EC:F4:BB:CB:54:92\" ]\n";
	struct bb_cluster c;
	char err[1024], mac[32], addr[64];
	CHECK_INT(
	    bb_cluster_parse_text("cs-lkp-hsw-ep5", "f", text, strlen(text), &c, err, sizeof err),
	    ==, 0);
	CHECK_INT(c.nhosts, ==, 2);
	CHECK(c.two_host);
	CHECK_INT(c.server, ==, 0);
	CHECK_INT(c.client, ==, 1);
	CHECK_STR(c.hosts[0].name, "lkp-hsw-ep5");
	/* default addresses in file order; the NIC is the first MAC, lowercase */
	CHECK_STR(c.hosts[0].address, "192.168.77.1/24");
	CHECK_STR(c.hosts[1].address, "192.168.77.2/24");
	CHECK_STR(c.hosts[1].nic, "ec:f4:bb:cb:54:92");
	bb_cluster_mac(&c, 1, mac, sizeof mac);
	CHECK_STR(mac, "ec:f4:bb:cb:54:92");
	bb_cluster_addr(&c.hosts[0], addr, sizeof addr);
	CHECK_STR(addr, "192.168.77.1");
}

TEST(cluster_address_nic_and_roles_order)
{
	static const char text[] = "b:\n  roles: client\n  address: 10.9.0.7\n  nic: enp3s0\n"
	                           "a:\n  roles: [server]\n  address: 10.9.0.1/16\n";
	struct bb_cluster c;
	char err[1024], mac[32];
	CHECK_INT(bb_cluster_parse_text("n", "f", text, strlen(text), &c, err, sizeof err), ==, 0);
	CHECK_INT(c.server, ==, 1);
	CHECK_INT(c.client, ==, 0);
	CHECK_STR(c.hosts[0].address, "10.9.0.7/24");
	CHECK_STR(c.hosts[0].nic, "enp3s0");
	CHECK_STR(c.hosts[1].nic, "eth0");
	/* no MAC in the file: one made up for a VM, per host */
	bb_cluster_mac(&c, 0, mac, sizeof mac);
	CHECK_STR(mac, "52:54:00:bb:00:01");
}

TEST(cluster_one_host_both_roles_is_one_host_mode)
{
	struct bb_cluster c;
	char err[1024];
	static const char text[] = "localhost:\n  roles: [ server, client ]\n";
	CHECK_INT(
	    bb_cluster_parse_text("cs-localhost", "f", text, strlen(text), &c, err, sizeof err), ==,
	    0);
	CHECK(!c.two_host);
	/* built in: no file needed */
	CHECK_INT(bb_cluster_load("cs-localhost", "/nonexistent/job.yaml", &c, err, sizeof err), ==,
	          0);
	CHECK(!c.two_host);
}

static const struct {
	const char *text, *err;
} bad[] = {
    {"a:\n  roles: [ server ]\n  macs: [ \"ec:f4\" ]\nb:\n  roles: [client]\n",
     "clusters/cs-x:3: macs: 'ec:f4' is not a MAC address (xx:xx:xx:xx:xx:xx)"},
    {"a:\n  roles: [ server, boss ]\n", "clusters/cs-x:2: roles: 'boss' is not a role benchboot "
                                        "runs (server, client)"},
    {"a:\n  roles: [ server ]\n  adress: 10.0.0.1\n",
     "clusters/cs-x:3: a: unknown key 'adress' (roles, macs, address, nic)"},
    {"a:\n  roles: [ server ]\n  address: 10.0.0.300/24\nb:\n  roles: [client]\n",
     "clusters/cs-x:3: address: '10.0.0.300/24' is not an IPv4 address on the test network "
     "(ADDR/PREFIX, e.g. 192.168.77.1/24)"},
    {"a:\n  macs: [ \"ec:f4:bb:cb:7b:92\" ]\n", "clusters/cs-x:1: a: roles: missing (server, "
                                                "client or both)"},
    {"a:\n  roles: [ server ]\nb:\n  roles: [ server ]\n",
     "clusters/cs-x:1: two hosts: one with roles [server], the other with roles [client] (a: "
     "server, b: server)"},
    {"a:\n  roles: [ server ]\nb:\n  roles: [ client ]\nc:\n  roles: [ client ]\n",
     "clusters/cs-x:5: c: a third host: benchboot runs a server host and a client host"},
    {"a:\n  roles: [ server ]\n", "clusters/cs-x:1: a: one host needs both roles (server, "
                                  "client)"},
    {"a:\n  roles: [ server ]\n  address: 10.0.0.1/24\nb:\n  roles: [ client ]\n  address: "
     "10.0.0.1/8\n",
     "clusters/cs-x:1: a and b: the same address 10.0.0.1"},
    {"a:\n  roles: [ server ]\n  address: fd00::1/64\n",
     "clusters/cs-x:3: address: 'fd00::1/64' is not an IPv4 address on the test network "
     "(ADDR/PREFIX, e.g. 192.168.77.1/24)"},
    {"a:\n  roles: [ server ]\n  nic: eth/0\nb:\n  roles: [client]\n",
     "clusters/cs-x:3: nic: 'eth/0' is not an interface name or a MAC address"},
    {"- a\n- b\n", "clusters/cs-x:1: a mapping of hosts (HOST: {roles: [...], macs: [...]})"},
    {"", "clusters/cs-x:1: empty: a mapping of hosts, each with roles"},
    {"a:\n  roles: [ server\n", "clusters/cs-x:3: did not find expected ',' or ']'"},
};

TEST(cluster_errors_name_file_line_key)
{
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_STR(cluster_err(bad[i].text), bad[i].err);
}

static const char pair[] = "srv:\n  roles: [ server ]\n  macs: [ \"52:54:00:bb:00:01\" ]\n"
                           "cli:\n  roles: [ client ]\n  address: 192.168.77.2/24\n";

TEST(cluster_job_reads_file_beside_it)
{
	const char *d = test_tmpdir();
	char job[4096], err[2048];
	struct bb_job j;
	test_write_file(d, "clusters/cs-pair", pair);
	snprintf(job, sizeof job, "%s",
	         test_write_file(d, "two.yaml",
	                         "suite: netperf\ncluster: cs-pair\n"
	                         "runtime: 2s\nif role server:\n  netserver:\n"
	                         "if role client:\n  netperf:\n    test: "
	                         "TCP_STREAM\n"));
	CHECK_INT(bb_job_parse_file(job, &j, err, sizeof err), ==, 0);
	CHECK(j.cluster != NULL);
	CHECK_STR(j.cluster_name, "cs-pair");
	CHECK_STR(j.cluster->hosts[j.cluster->server].name, "srv");
	bb_job_free(&j);
	/* a missing cluster names where it looked */
	snprintf(job, sizeof job, "%s",
	         test_write_file(d, "none.yaml", "suite: netperf\ncluster: cs-nowhere\n"));
	CHECK_INT(bb_job_parse_file(job, &j, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, "none.yaml:2:10: cluster: no cluster file 'cs-nowhere': looked at ");
	CHECK_CONTAINS(err, "/clusters/cs-nowhere and config/clusters/cs-nowhere");
	/* an error inside the cluster file names that file and line */
	test_write_file(d, "clusters/cs-bad", "a:\n  roles: [ server ]\n  macs: nope\n");
	snprintf(job, sizeof job, "%s",
	         test_write_file(d, "bad.yaml", "suite: netperf\ncluster: cs-bad\n"));
	CHECK_INT(bb_job_parse_file(job, &j, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, "bad.yaml:2:10: cluster: ");
	CHECK_CONTAINS(err, "clusters/cs-bad:3: macs: 'nope' is not a MAC address");
	/* the cluster's NIC is not the job's to set */
	snprintf(job, sizeof job, "%s",
	         test_write_file(d, "nic.yaml",
	                         "suite: netperf\ncluster: cs-pair\n"
	                         "nic:\n  name: eth1\n"));
	CHECK_INT(bb_job_parse_file(job, &j, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, "nic.yaml:4:3: nic.name: a two-host job's NIC and address are in its "
	                    "cluster file");
}

/* The plan of boot group 0 of job text in dir (with the cs-pair cluster beside it). */
static char *plan_of(const char *yaml, char *err, size_t errlen, int *rc)
{
	const char *d = test_tmpdir();
	char job[4096];
	struct bb_job j;
	struct bb_matrix m;
	char *text = NULL;
	test_write_file(d, "clusters/cs-pair", pair);
	snprintf(job, sizeof job, "%s", test_write_file(d, "j.yaml", yaml));
	CHECK_INT(bb_job_parse_file(job, &j, err, errlen), ==, 0);
	CHECK_INT(bb_matrix_expand(&j, &m, err, errlen), ==, 0);
	*rc = bb_plan_write(&m, 0, &text, err, errlen);
	bb_matrix_free(&m);
	bb_job_free(&j);
	return text;
}

TEST(cluster_plan_keys_and_server_address)
{
	char err[2048];
	int rc;
	char *text = plan_of("suite: netperf\ncluster: cs-pair\nruntime: 2s\n"
	                     "if role server:\n  netserver:\nif role client:\n  netperf:\n"
	                     "    test: [TCP_STREAM, SCTP_STREAM_MANY]\n",
	                     err, sizeof err, &rc);
	CHECK_INT(rc, ==, 0);
	CHECK_CONTAINS(text, "\ncluster=cs-pair\ncluster.port=12870\ncluster.wait=120\n"
	                     "cluster.host.0.name=srv\ncluster.host.0.role=server\n"
	                     "cluster.host.0.address=192.168.77.1/24\n"
	                     "cluster.host.0.nic=52:54:00:bb:00:01\n"
	                     "cluster.host.1.name=cli\ncluster.host.1.role=client\n"
	                     "cluster.host.1.address=192.168.77.2/24\ncluster.host.1.nic=eth0\n");
	/* the client reaches the server host; the server's readiness is checked locally */
	CHECK_CONTAINS(text, "client.arg=-H\nclient.arg=192.168.77.1\n");
	CHECK(!strstr(text, "client.arg=127.0.0.1"));
	CHECK_CONTAINS(text, "server.0.ready=tcp:127.0.0.1:12865\n");
	/* the NIC's driver by default */
	CHECK_CONTAINS(text, "\nmodules.boot=dummy virtio_pci virtio_net sctp\n");
	/* the init's plan parser reads it */
	struct bb_plan plan;
	CHECK_INT(bb_plan_parse(text, strlen(text), &plan, err, sizeof err), ==, 0);
	CHECK_STR(plan.cluster, "cs-pair");
	CHECK_INT(plan.cluster_port, ==, 12870);
	CHECK_INT(plan.cluster_wait, ==, 120);
	CHECK_STR(plan.hosts[0].name, "srv");
	CHECK_INT(plan.hosts[0].role, ==, BB_ROLE_SERVER);
	CHECK_STR(plan.hosts[0].nic, "52:54:00:bb:00:01");
	CHECK_STR(plan.hosts[1].address, "192.168.77.2/24");
	CHECK_INT(plan.hosts[1].role, ==, BB_ROLE_CLIENT);
	bb_plan_free(&plan);
	free(text);
	/* IPv6 runs need an IPv6 address in the cluster */
	text = plan_of("suite: netperf\ncluster: cs-pair\nruntime: 2s\nip: ipv6\n"
	               "netperf:\n  test: TCP_STREAM\n",
	               err, sizeof err, &rc);
	CHECK_INT(rc, ==, -EINVAL);
	CHECK_CONTAINS(err, "ip: ipv6, but the server host srv of cluster cs-pair has the address "
	                    "192.168.77.1");
	free(text);
}

TEST(cluster_localhost_plan_unchanged)
{
	char err[2048];
	int rc;
	char *text = plan_of("suite: netperf\ncluster: cs-localhost\nruntime: 2s\n"
	                     "netperf:\n  test: TCP_STREAM\n",
	                     err, sizeof err, &rc);
	CHECK_INT(rc, ==, 0);
	CHECK(!strstr(text, "cluster"));
	CHECK_CONTAINS(text, "client.arg=-H\nclient.arg=127.0.0.1\n");
	CHECK_CONTAINS(text, "\nmodules.boot=dummy\n");
	free(text);
}
