/*
 * Two-host plans in the init (init/cluster.c): the role from the command line picks this
 * host's cluster.host entry, whose NIC and address become the NIC to configure (unless the
 * command line names them); no role: the `cluster` line says failed and every run fails with
 * the reason; a one-host plan has no cluster at all. env.json's "cluster" record.
 */
#include <sys/wait.h>

#include "harness.h"
#include "init_fake_root.h"
#include "peer.h"
#include "init.h"
#include "json.h"

static const char plan[] = "benchboot-plan 1\n"
                           "cluster=cs-two\n"
                           "cluster.port=12999\n"
                           "cluster.host.0.name=lkp-a\n"
                           "cluster.host.0.role=server\n"
                           "cluster.host.0.address=192.168.77.1/24\n"
                           "cluster.host.0.nic=52:54:00:77:00:01\n"
                           "cluster.host.1.name=lkp-b\n"
                           "cluster.host.1.role=client\n"
                           "cluster.host.1.address=192.168.77.2/24\n";

static void boot_with(struct boot *b, const char *text, const char *cmdline)
{
	char err[256], report[512];
	memset(b, 0, sizeof(*b));
	init_fake_root(NULL);
	CHECK_INT(bb_plan_parse(text, strlen(text), &b->plan, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_plan_cmdline(&b->plan, cmdline, report, sizeof(report)), ==, 0);
	cluster_resolve(b);
}

TEST(cluster_client_role)
{
	struct boot b;
	boot_with(&b, plan, "console=ttyS0 benchboot.role=client");
	CHECK_INT(b.cluster.role, ==, BB_ROLE_CLIENT);
	CHECK_STR(b.cluster.self_host->name, "lkp-b");
	CHECK_STR(b.cluster.self, "192.168.77.2");
	CHECK_STR(b.cluster.peer, "192.168.77.1");
	/* no nic: eth0 */
	CHECK_STR(b.plan.nic_name, "eth0");
	CHECK_INT(b.plan.nic_address.n, ==, 1);
	CHECK_STR(b.plan.nic_address.v[0], "192.168.77.2/24");
	CHECK(cluster_down(&b) == NULL);
	CHECK_CONTAINS(init_fake_console(), "BENCHBOOT cluster role=client name=lkp-b "
	                                    "self=192.168.77.2 peer=192.168.77.1 port=12999 "
	                                    "status=ok reason=-\n");
	struct ijw w = {0};
	ijw_open(&w, NULL, '{');
	env_cluster_json(&w, &b);
	ijw_close(&w, '}');
	CHECK_CONTAINS(w.buf,
	               "\"cluster\": {\n    \"name\": \"cs-two\",\n    \"role\": \"client\",\n"
	               "    \"host\": \"lkp-b\",\n    \"self\": \"192.168.77.2\",\n"
	               "    \"peer\": \"192.168.77.1\",\n    \"peer_host\": \"lkp-a\",\n"
	               "    \"port\": 12999,\n    \"peer_status\": null,\n");
	ijw_free(&w);
	bb_plan_free(&b.plan);
}

TEST(cluster_server_role_and_overrides)
{
	struct boot b;
	boot_with(&b, plan, "benchboot.role=server");
	CHECK_STR(b.plan.nic_name, "52:54:00:77:00:01");
	CHECK_STR(b.plan.nic_address.v[0], "192.168.77.1/24");
	CHECK_STR(b.cluster.peer_host->name, "lkp-b");
	bb_plan_free(&b.plan);
	/* a lab names the NIC and the address on the command line: those win */
	boot_with(&b, plan,
	          "benchboot.role=server benchboot.net.nic.name=enp1s0 "
	          "benchboot.net.nic.address=10.1.1.1/16");
	CHECK_STR(b.plan.nic_name, "enp1s0");
	CHECK_INT(b.plan.nic_address.n, ==, 1);
	CHECK_STR(b.cluster.self, "10.1.1.1");
	CHECK_STR(b.cluster.peer, "192.168.77.2");
	bb_plan_free(&b.plan);
}

TEST(cluster_no_role)
{
	struct boot b;
	boot_with(&b, plan, "console=ttyS0");
	CHECK_INT(b.cluster.role, ==, BB_ROLE_NONE);
	CHECK(b.plan.nic_name == NULL);
	CHECK_CONTAINS(cluster_down(&b),
	               "cluster: no benchboot.role=server or benchboot.role=client "
	               "on the kernel command line (cluster cs-two has both)");
	CHECK_CONTAINS(init_fake_console(), "BENCHBOOT cluster role=none name=- self=- "
	                                    "peer=- port=12999 status=failed reason=no "
	                                    "benchboot.role=server");
	/* meeting nobody: nothing waits */
	double t0 = init_now_ms();
	cluster_meet(&b);
	CHECK(init_now_ms() - t0 < 100);
	bb_plan_free(&b.plan);
}

TEST(cluster_one_host)
{
	struct boot b;
	boot_with(&b, "benchboot-plan 1\n", "benchboot.role=client");
	CHECK_INT(b.cluster.role, ==, BB_ROLE_NONE);
	CHECK(cluster_down(&b) == NULL);
	CHECK(b.plan.nic_name == NULL);
	char *con = init_fake_console();
	CHECK(strstr(con, "BENCHBOOT cluster") == NULL);
	CHECK_CONTAINS(con, "benchboot.role=client ignored: the plan is for one host");
	free(con);
	struct ijw w = {0};
	ijw_open(&w, NULL, '{');
	env_cluster_json(&w, &b);
	ijw_close(&w, '}');
	CHECK_CONTAINS(w.buf, "\"cluster\": null");
	ijw_free(&w);
	bb_plan_free(&b.plan);
}

/* A two-host plan on loopback addresses, its control port free (or the test is skipped). */
static int loopback_plan(char *text, size_t len, int wait)
{
	int port = 0, fd = -1;
	for (int i = 0; i < 50 && fd < 0; i++) {
		port = 20000 + (getpid() * 13 + i * 173) % 40000;
		fd = peer_listen(port);
	}
	if (fd < 0)
		bb_test_skip("no free TCP port");
	close(fd);
	snprintf(text, len,
	         "benchboot-plan 1\ncluster=lo\ncluster.port=%d\ncluster.wait=%d\n"
	         "cluster.host.0.name=s\ncluster.host.0.role=server\n"
	         "cluster.host.0.address=127.0.0.1/8\ncluster.host.1.name=c\n"
	         "cluster.host.1.role=client\ncluster.host.1.address=127.0.0.2/8\n",
	         port, wait);
	return port;
}

TEST(cluster_meet_timeouts)
{
	struct boot b;
	char text[1024];
	loopback_plan(text, sizeof(text), 1);
	/* the client host: nobody listens, it retries until cluster.wait */
	boot_with(&b, text, "benchboot.role=client");
	double t0 = init_now_ms();
	cluster_meet(&b);
	double took = init_now_ms() - t0;
	CHECK(took >= 750 && took < 3000);
	CHECK_STR(b.cluster.peer_status, "timeout");
	CHECK_CONTAINS(cluster_down(&b), "peer timeout: no server host on 127.0.0.1:");
	CHECK_CONTAINS(cluster_down(&b), "after 1 s (");
	CHECK_CONTAINS(init_fake_console(),
	               "BENCHBOOT peer status=timeout host=s address=127.0.0.1 ms=");
	/* once down, an iteration is not even asked for */
	struct sysctl_set none = {0};
	struct bb_plan_run run = {.id = "r", .grace = 1, .runtime = 1};
	char why[256];
	CHECK_INT(cluster_iter_start(&b, &run, 1, 0, 0, 1, 1, &none, why, sizeof(why)), ==, -1);
	CHECK_CONTAINS(why, "peer timeout: ");
	bb_plan_free(&b.plan);
	/* the server host: nobody connects */
	boot_with(&b, text, "benchboot.role=server");
	t0 = init_now_ms();
	cluster_meet(&b);
	took = init_now_ms() - t0;
	CHECK(took >= 900 && took < 3000);
	CHECK_CONTAINS(cluster_down(&b), "peer timeout: no client host connected to port ");
	CHECK_CONTAINS(cluster_down(&b), " within 1 s");
	bb_plan_free(&b.plan);
}

/* The server host meets a client that is not its counterpart: mismatch on both sides. */
TEST(cluster_meet_mismatch)
{
	struct boot b;
	char text[1024], err[256];
	int port = loopback_plan(text, sizeof(text), 5);
	pid_t pid = fork();
	if (pid == 0) {
		/* a client of another plan: the server must say mismatch and close */
		struct peer_conn c = {.fd = -1};
		struct peer_msg m;
		for (int i = 0; i < 100 && peer_connect(&c, "127.0.0.1", port, init_now_ms() + 500);
		     i++)
			usleep(20000);
		peer_send(&c, "hello proto=1 role=client host=c cluster=lo plan=0123456789abcdef");
		int r = peer_recv(&c, &m, init_now_ms() + 5000, err, sizeof(err));
		_exit(r == 0 && !strcmp(m.word, "mismatch") &&
		              strstr(peer_msg_get(&m, "reason"), "plan 0123456789abcdef")
		          ? 0
		          : 1);
	}
	boot_with(&b, text, "benchboot.role=server");
	test_write_file(init_root, "etc/benchboot/plan", text);
	cluster_meet(&b);
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_STR(b.cluster.peer_status, "mismatch");
	CHECK_CONTAINS(cluster_down(&b), "peer mismatch: plan 0123456789abcdef, this host's is ");
	bb_plan_free(&b.plan);
}

/* The client host meets a server of another plan: it says mismatch too, and no run is asked. */
TEST(cluster_meet_mismatch_client)
{
	struct boot b;
	char text[1024], err[256];
	int port = loopback_plan(text, sizeof(text), 5);
	int lfd = peer_listen(port);
	CHECK(lfd >= 0);
	pid_t pid = fork();
	if (pid == 0) {
		struct peer_conn c = {.fd = -1};
		struct peer_msg m;
		char from[64];
		int ok = peer_accept(&c, lfd, init_now_ms() + 5000, from, sizeof(from)) == 0 &&
		         peer_recv(&c, &m, init_now_ms() + 5000, err, sizeof(err)) == 0 &&
		         !strcmp(m.word, "hello") && !strcmp(peer_msg_get(&m, "role"), "client");
		peer_send(&c, "hello proto=1 role=server host=s cluster=lo plan=ffffffffffffffff");
		ok = ok && peer_recv(&c, &m, init_now_ms() + 5000, err, sizeof(err)) == 0 &&
		     !strcmp(m.word, "mismatch");
		_exit(ok ? 0 : 1);
	}
	close(lfd);
	boot_with(&b, text, "benchboot.role=client");
	test_write_file(init_root, "etc/benchboot/plan", text);
	cluster_meet(&b);
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_CONTAINS(cluster_down(&b), "peer mismatch: plan ffffffffffffffff, this host's is ");
	CHECK_CONTAINS(init_fake_console(), "BENCHBOOT peer status=mismatch host=s ");
	bb_plan_free(&b.plan);
}
