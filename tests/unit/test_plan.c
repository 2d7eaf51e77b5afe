/* The plan parser (lib/plan/plan.c), its command-line overrides, and CPU lists (lib/cpulist.c). */
#include <errno.h>
#include <string.h>

#include "cpulist.h"
#include "harness.h"
#include "plan/plan.h"

static const char example[] = "benchboot-plan 1\n"
                              "job=netperf-sctp\n"
                              "plan.digest=00ff\n"
                              "cgroup.mode=v2\n"
                              "cgroup.controllers=memory cpu\n"
                              "cgroup.limit.memory.high=1G\n"
                              "modules.boot=sctp\n"
                              "# a comment\n"
                              "\n"
                              "[run SCTP_STREAM_MANY.nr_threads=2.prsctp_enable=0]\n"
                              "suite=netperf\n"
                              "param.test=SCTP_STREAM_MANY\n"
                              "param.sysctl.net.sctp.prsctp_enable=0\n"
                              "iterations=2\n"
                              "runtime=10\n"
                              "grace=30\n"
                              "needs.module=sctp\n"
                              "sysctl.net.sctp.prsctp_enable=0\n"
                              "server.0.arg=/usr/bin/netserver\n"
                              "server.0.arg=-4\n"
                              "server.0.ready=tcp:127.0.0.1:12865\n"
                              "server.0.cpus=0\n"
                              "client.arg=/usr/bin/netperf\n"
                              "client.arg=a b=c\n"
                              "client.count=25%\n"
                              "client.cpus=1-3,5\n"
                              "[run second]\n"
                              "suite=stress-ng\n"
                              "runtime=1.5\n"
                              "client.arg=/usr/bin/stress-ng\n";

static int parse(const char *text, struct bb_plan *p, char *err)
{
	return bb_plan_parse(text, strlen(text), p, err, 256);
}

TEST(plan_example)
{
	struct bb_plan p;
	char err[256];
	CHECK_INT(parse(example, &p, err), ==, 0);
	CHECK_STR(p.job, "netperf-sctp");
	CHECK_STR(p.digest, "00ff");
	CHECK_INT(p.cgroup_mode, ==, BB_CGROUP_V2);
	CHECK_INT(p.cgroup_controllers.n, ==, 2);
	CHECK_STR(p.cgroup_controllers.v[1], "cpu");
	CHECK_STR(p.cgroup_limits.v[0].key, "memory.high");
	CHECK_STR(p.cgroup_limits.v[0].value, "1G");
	CHECK_STR(p.net_dummy, "192.0.2.1/24");
	CHECK_INT(p.console_lava, ==, 1);
	CHECK_INT(p.poweroff, ==, 1);
	CHECK_INT(p.nruns, ==, 2);
	struct bb_plan_run *r = &p.runs[0];
	CHECK_STR(r->id, "SCTP_STREAM_MANY.nr_threads=2.prsctp_enable=0");
	CHECK_INT(r->line, ==, 10);
	CHECK_INT(r->iterations, ==, 2);
	CHECK(r->runtime == 10 && r->grace == 30);
	CHECK_STR(r->params.v[1].key, "sysctl.net.sctp.prsctp_enable");
	CHECK_STR(r->sysctls.v[0].key, "net.sctp.prsctp_enable");
	CHECK_STR(r->sysctls.v[0].value, "0");
	CHECK_INT(r->nservers, ==, 1);
	CHECK_INT(r->servers[0].argv.n, ==, 2);
	CHECK_STR(r->servers[0].ready, "tcp:127.0.0.1:12865");
	CHECK_STR(r->client_argv.v[1], "a b=c");
	CHECK_INT(r->client_percent, ==, 25);
	CHECK_INT(bb_plan_clients(r, 8), ==, 2);
	CHECK_INT(bb_plan_clients(r, 7), ==, 1);
	CHECK_INT(bb_plan_clients(r, 2), ==, 0); /* LKP drops the job: no clamping to 1 */
	r = &p.runs[1];
	CHECK(r->runtime == 1.5 && r->grace == 30 && r->iterations == 1);
	CHECK_INT(bb_plan_clients(r, 64), ==, 1);
	bb_plan_free(&p);
}

/* Each bad plan fails with the expected `plan:LINE: message`. */
TEST(plan_errors)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
	    {"", "plan:1: empty plan"},
	    {"benchboot-plan 2\n", "plan:1: plan version '2' not supported"},
	    {"hello\n", "plan:1: not a benchboot plan"},
	    {"benchboot-plan 1\njob=x\nfoo=bar\n", "plan:3: unknown global key 'foo'"},
	    {"benchboot-plan 1\njob = x\n", "plan:2: no spaces around '='"},
	    {"benchboot-plan 1\njob\n", "plan:2: expected key=value"},
	    {"benchboot-plan 1\njob=a\njob=b\n", "plan:3: job: duplicate key"},
	    {"benchboot-plan 1\ncgroup.mode=v3\n",
	     "plan:2: cgroup.mode: expected v1, v2, hybrid or none"},
	    {"benchboot-plan 1\npoweroff=yes\n", "plan:2: poweroff: expected 0 or 1"},
	    {"benchboot-plan 1\nnet.dummy=10.0.0.1\n", "plan:2: net.dummy: expected"},
	    {"benchboot-plan 1\ndebug=1\n", "plan:2: unknown global key 'debug'"},
	    {"benchboot-plan 1\nreboot=1\n", "plan:2: unknown global key 'reboot'"},
	    {"benchboot-plan 1\nsuite=netperf\n", "plan:2: unknown global key 'suite'"},
	    {"benchboot-plan 1\n[run a b]\n", "plan:2: run id: character ' ' not allowed"},
	    {"benchboot-plan 1\n[ru x]\n", "plan:2: expected '[run RUNID]'"},
	    {"benchboot-plan 1\n[run x]\nsuite=netperf\nruntime=1\nclient.arg=a\n[run x]\n",
	     "plan:6: duplicate run id 'x' (first on line 2)"},
	    {"benchboot-plan 1\n[run x]\nsuite=netperf\nclient.arg=a\n",
	     "plan:4: run x: missing key 'runtime'"},
	    {"benchboot-plan 1\n[run x]\nsuite=netperf\nruntime=1\n",
	     "plan:4: run x: missing key 'client.arg'"},
	    {"benchboot-plan 1\n[run x]\nruntime=1\nclient.arg=a\n[run y]\n",
	     "plan:5: run x: missing key 'suite'"},
	    {"benchboot-plan 1\n[run x]\niterations=0\n",
	     "plan:3: iterations: expected a number >= 1"},
	    {"benchboot-plan 1\n[run x]\nruntime=-1\n", "plan:3: runtime: expected seconds"},
	    {"benchboot-plan 1\n[run x]\nruntime=10s\n", "plan:3: runtime: expected seconds"},
	    {"benchboot-plan 1\n[run x]\nclient.count=0\n",
	     "plan:3: client.count: expected N or P%"},
	    {"benchboot-plan 1\n[run x]\nclient.count=x%\n",
	     "plan:3: client.count: bad percentage"},
	    {"benchboot-plan 1\n[run x]\nclient.cpus=1-0\n", "plan:3: client.cpus: bad CPU list"},
	    {"benchboot-plan 1\n[run x]\nclient.cpus=lst\n", "plan:3: client.cpus: bad CPU list"},
	    {"benchboot-plan 1\n[run x]\nserver.0.ready=udp:1.2.3.4:5\n",
	     "plan:3: server.0.ready: expected tcp:ADDR:PORT"},
	    {"benchboot-plan 1\n[run x]\nserver.0.ready=tcp:localhost:5\n",
	     "plan:3: server.0.ready: expected"},
	    {"benchboot-plan 1\n[run x]\nserver.01.arg=a\n",
	     "plan:3: server.01.arg: bad server number"},
	    {"benchboot-plan 1\n[run x]\nserver.0.cmd=a\n",
	     "plan:3: unknown run key 'server.0.cmd'"},
	    {"benchboot-plan 1\n[run x]\nsuite=netperf\nruntime=1\nclient.arg=a\nserver.1.arg=b\n",
	     "plan:6: run x: server.0 has no server.0.arg"},
	    {"benchboot-plan 1\n[run x]\nsysctl.net..x=1\n",
	     "plan:3: sysctl.net..x: bad sysctl name"},
	    {"benchboot-plan 1\n[run x]\nsysctl.a/b=1\n", "plan:3: sysctl.a/b: bad sysctl name"},
	    {"benchboot-plan 1\n[run x]\nsysctl.a=1\nsysctl.a=2\n",
	     "plan:4: sysctl.a: duplicate key"},
	    {"benchboot-plan 1\n[run x]\nruntime=1\nruntime=2\n", "plan:4: runtime: duplicate key"},
	    {"benchboot-plan 1\n[run x]\nfoo=1\n", "plan:3: unknown run key 'foo'"},
	    {"benchboot-plan 1\njob=x\r\n", "plan:2: carriage return"},
	    {"benchboot-plan 1\ncgroup.limit.../x=1\n",
	     "plan:2: cgroup.limit.../x: bad cgroup file name"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bb_plan p;
		char err[256] = "";
		int r = parse(cases[i].text, &p, err);
		if (r != -EINVAL || strncmp(err, cases[i].err, strlen(cases[i].err)))
			bb_test_fail(__FILE__, __LINE__, "case %zu: got %d '%s', expected '%s'", i,
			             r, err, cases[i].err);
	}
	/* a NUL byte is reported on its line */
	struct bb_plan p;
	char err[256];
	static const char nul[] = "benchboot-plan 1\njob=a\0b\n";
	CHECK_INT(bb_plan_parse(nul, sizeof(nul) - 1, &p, err, sizeof(err)), ==, -EINVAL);
	CHECK_STR(err, "plan:2: NUL byte in the plan");
}

TEST(plan_cmdline_overrides)
{
	struct bb_plan p;
	char err[256], report[1024];
	CHECK_INT(parse(example, &p, err), ==, 0);
	int n = bb_plan_cmdline(
	    &p,
	    "console=ttyS0 benchboot.cgroup.mode=v1 quiet "
	    "benchboot.cgroup.controllers=\"memory cpuset\" benchboot.debug=1 "
	    "benchboot.poweroff=0 benchboot.nosuch=1 benchboot.cgroup.mode=v9 "
	    "benchboot.cgroup.limit.memory.high=2G benchboot.reboot=1 benchboot.job\n",
	    report, sizeof(report));
	CHECK_INT(n, ==, 3);
	CHECK_INT(p.cgroup_mode, ==, BB_CGROUP_V1);
	CHECK_INT(p.cgroup_controllers.n, ==, 2);
	CHECK_STR(p.cgroup_controllers.v[1], "cpuset");
	CHECK_INT(p.debug, ==, 1);
	CHECK_INT(p.reboot, ==, 1);
	CHECK_INT(p.poweroff, ==, 0);
	CHECK_INT(p.cgroup_limits.n, ==, 1);
	CHECK_STR(p.cgroup_limits.v[0].value, "2G");
	CHECK_CONTAINS(report,
	               "cmdline: benchboot.nosuch: unknown key (not a documented plan key)");
	CHECK_CONTAINS(report,
	               "cmdline: benchboot.cgroup.mode: expected v1, v2, hybrid or none, not 'v9'");
	CHECK_CONTAINS(report, "cmdline: benchboot.job: missing '=VALUE'");
	/* nothing to report: 0, empty report */
	CHECK_INT(bb_plan_cmdline(&p, "quiet benchboot.console.lava=0", report, sizeof(report)), ==,
	          0);
	CHECK_STR(report, "");
	CHECK_INT(p.console_lava, ==, 0);
	bb_plan_free(&p);
}

TEST(plan_results_wait)
{
	struct bb_plan p;
	char err[256], report[1024];
	CHECK_INT(parse(example, &p, err), ==, 0);
	CHECK_INT(p.results_wait, ==, 0);
	CHECK_INT(
	    bb_plan_cmdline(&p, "console=ttyS0 benchboot.results.wait=30", report, sizeof(report)),
	    ==, 0);
	CHECK_INT(p.results_wait, ==, 30);
	CHECK_INT(bb_plan_cmdline(&p, "benchboot.results.wait=forever", report, sizeof(report)), ==,
	          1);
	CHECK_CONTAINS(report, "results.wait: expected seconds 0..600, not 'forever'");
	CHECK_INT(p.results_wait, ==, 30);
	bb_plan_free(&p);
	CHECK_INT(parse("benchboot-plan 1\nresults.wait=5\nresults.wait=6\n", &p, err), ==,
	          -EINVAL);
	CHECK_STR(err, "plan:3: results.wait: duplicate key");
	CHECK_INT(parse("benchboot-plan 1\nresults.wait=601\n", &p, err), ==, -EINVAL);
	CHECK_STR(err, "plan:2: results.wait: expected seconds 0..600, not '601'");
}

TEST(plan_results_timeout)
{
	struct bb_plan p;
	char err[256], report[1024];
	CHECK_INT(parse(example, &p, err), ==, 0);
	CHECK_INT(p.results_timeout, ==, BB_RESULTS_TIMEOUT);
	CHECK_INT(bb_plan_cmdline(&p, "benchboot.results.timeout=5", report, sizeof(report)), ==,
	          0);
	CHECK_INT(p.results_timeout, ==, 5);
	CHECK_INT(bb_plan_cmdline(&p, "benchboot.results.timeout=0", report, sizeof(report)), ==,
	          1);
	CHECK_CONTAINS(report, "results.timeout: expected seconds 1..3600, not '0'");
	CHECK_INT(p.results_timeout, ==, 5);
	bb_plan_free(&p);
	CHECK_INT(parse("benchboot-plan 1\nresults.timeout=3601\n", &p, err), ==, -EINVAL);
	CHECK_STR(err, "plan:2: results.timeout: expected seconds 1..3600, not '3601'");
	CHECK_INT(parse("benchboot-plan 1\nresults.timeout=60\n", &p, err), ==, 0);
	CHECK_INT(p.results_timeout, ==, 60);
	bb_plan_free(&p);
}

TEST(plan_cpus_last)
{
	struct bb_plan p;
	char err[256] = "";
	int r = parse("benchboot-plan 1\n[run x]\nsuite=netperf\nruntime=1\nserver.0.arg=/s\n"
	              "server.0.cpus=0\nclient.arg=/c\nclient.cpus=1-last\n",
	              &p, err);
	CHECK_STR(err, "");
	CHECK_INT(r, ==, 0);
	CHECK_STR(p.runs[0].client_cpus, "1-last");
	bb_plan_free(&p);
}

TEST(cpulist_parse_format)
{
	struct bb_cpuset s;
	char buf[64];
	CHECK_INT(bb_cpulist_parse("0-1,3,5-7\n", &s), ==, 0);
	CHECK_INT(bb_cpuset_count(&s), ==, 6);
	CHECK(bb_cpuset_has(&s, 3) && !bb_cpuset_has(&s, 4));
	CHECK_INT(bb_cpuset_nth(&s, 2), ==, 3);
	CHECK_INT(bb_cpuset_nth(&s, 6), ==, -1);
	bb_cpulist_format(&s, buf, sizeof(buf));
	CHECK_STR(buf, "0-1,3,5-7");
	CHECK_INT(bb_cpulist_parse("", &s), ==, 0);
	CHECK_INT(bb_cpuset_count(&s), ==, 0);
	CHECK_INT(bb_cpulist_parse("3-1", &s), ==, -EINVAL);
	CHECK_INT(bb_cpulist_parse("1,", &s), ==, -EINVAL);
	CHECK_INT(bb_cpulist_parse("a", &s), ==, -EINVAL);
	CHECK_INT(bb_cpulist_parse("1 2", &s), ==, -EINVAL);
	CHECK_INT(bb_cpulist_parse("4096", &s), ==, -ERANGE);
	/* `last`: only where the caller knows (or does not care) which CPU it is */
	CHECK_INT(bb_cpulist_parse("last", &s), ==, -EINVAL);
	CHECK_INT(bb_cpulist_resolve("0,last", 7, &s), ==, 0);
	bb_cpulist_format(&s, buf, sizeof(buf));
	CHECK_STR(buf, "0,7");
	CHECK_INT(bb_cpulist_resolve("2-last", 5, &s), ==, 0);
	bb_cpulist_format(&s, buf, sizeof(buf));
	CHECK_STR(buf, "2-5");
	CHECK_INT(bb_cpulist_resolve("2-last", 1, &s), ==, -EINVAL);
	CHECK_INT(bb_cpulist_resolve("lastly", 3, &s), ==, -EINVAL);
	CHECK_INT(bb_cpulist_resolve("last-1", 3, &s), ==, -EINVAL);
	CHECK_INT(bb_cpulist_resolve("last", BB_CPULIST_ANY_LAST, &s), ==, 0);
	CHECK_INT(bb_cpuset_last(&s), ==, BB_CPUSET_MAX - 1);
	memset(&s, 0, sizeof(s));
	CHECK_INT(bb_cpuset_last(&s), ==, -1);
	/* truncation behaves like snprintf */
	bb_cpulist_parse("0,2,4,6,8,10", &s);
	CHECK_INT(bb_cpulist_format(&s, buf, 5), ==, 12);
	CHECK_STR(buf, "0,2,");
}

/* A plan of runs A (3 iterations), B (3) and C (1), in the given order. */
static void order_plan(struct bb_plan *p, const char *globals)
{
	char text[1024], err[256];
	snprintf(text, sizeof(text),
	         "benchboot-plan 1\n%s"
	         "[run A]\nsuite=netperf\niterations=3\nruntime=1\nclient.arg=/bin/true\n"
	         "[run B]\nsuite=netperf\niterations=3\nruntime=1\nclient.arg=/bin/true\n"
	         "[run C]\nsuite=netperf\nruntime=1\nclient.arg=/bin/true\n",
	         globals);
	if (parse(text, p, err))
		bb_test_fail(__FILE__, __LINE__, "%s", err);
}

/* The sequence as "A1 B1 ..." */
static const char *sequence(const struct bb_plan *p, unsigned long seed)
{
	static char out[256];
	struct bb_plan_step *s;
	size_t n;
	CHECK_INT(bb_plan_sequence(p, seed, &s, &n), ==, 0);
	*out = 0;
	for (size_t i = 0; i < n; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s%d", i ? " " : "",
		         p->runs[s[i].run].id, s[i].iter);
	free(s);
	return out;
}

TEST(order_interleaved_is_the_default)
{
	struct bb_plan p;
	order_plan(&p, "");
	CHECK_INT(p.order, ==, BB_ORDER_INTERLEAVED);
	CHECK_STR(bb_order_name(p.order), "interleaved");
	CHECK_STR(sequence(&p, 0), "A1 B1 C1 A2 B2 A3 B3");
	bb_plan_free(&p);
	order_plan(&p, "order=interleaved\n");
	CHECK_STR(sequence(&p, 0), "A1 B1 C1 A2 B2 A3 B3");
	bb_plan_free(&p);
}

TEST(order_blocked_as_before)
{
	struct bb_plan p;
	order_plan(&p, "order=blocked\n");
	CHECK_STR(sequence(&p, 0), "A1 A2 A3 B1 B2 B3 C1");
	bb_plan_free(&p);
}

TEST(order_turns_across_boots)
{
	struct bb_plan p;
	/* turn K starts the rounds at run K mod 3; every run first in one of three boots */
	order_plan(&p, "order.rotate=1\n");
	CHECK_INT(p.order_rotate, ==, 1);
	CHECK_STR(sequence(&p, 0), "B1 C1 A1 B2 A2 B3 A3");
	p.order_rotate = 2;
	CHECK_STR(sequence(&p, 0), "C1 A1 B1 A2 B2 A3 B3");
	p.order_rotate = 3;
	CHECK_STR(sequence(&p, 0), "A1 B1 C1 A2 B2 A3 B3");
	bb_plan_free(&p);
	order_plan(&p, "order=blocked\norder.rotate=1\n");
	CHECK_STR(sequence(&p, 0), "B1 B2 B3 C1 A1 A2 A3");
	bb_plan_free(&p);
	/* random: a fixed seed and another turn give another order, still complete */
	order_plan(&p, "order=random\norder.seed=42\norder.rotate=1\n");
	CHECK(strcmp(sequence(&p, 42), "C1 B1 B2 A1 A2 B3 A3") != 0);
	CHECK_INT(strlen(sequence(&p, 42)), ==, strlen("A1 B1 C1 A2 B2 A3 B3"));
	bb_plan_free(&p);
	/* the host sets it on the command line, one value a boot */
	char err[256], report[512];
	CHECK_INT(parse("benchboot-plan 1\norder.rotate=x\n", &p, err), ==, -EINVAL);
	CHECK_STR(err, "plan:2: order.rotate: expected a turn 0..1000000, not 'x'");
	order_plan(&p, "");
	CHECK_INT(bb_plan_cmdline(&p, "quiet benchboot.order.rotate=4", report, sizeof(report)), ==,
	          0);
	CHECK_INT(p.order_rotate, ==, 4);
	CHECK_STR(sequence(&p, 0), "B1 C1 A1 B2 A2 B3 A3");
	bb_plan_free(&p);
}

TEST(order_random_is_seeded_and_complete)
{
	struct bb_plan p;
	order_plan(&p, "order=random\norder.seed=42\n");
	CHECK_INT(p.order_seed_set, ==, 1);
	CHECK_INT(p.order_seed, ==, 42);
	char first[256];
	snprintf(first, sizeof(first), "%s", sequence(&p, 42));
	/* the same seed, the same order (this exact one: a change here changes recorded boots) */
	CHECK_STR(sequence(&p, 42), first);
	CHECK_STR(first, "C1 B1 B2 A1 A2 B3 A3");
	/* every iteration once, each run's numbered in the order they come */
	int seen_other = 0;
	for (unsigned long seed = 0; seed < 200; seed++) {
		const char *s = sequence(&p, seed);
		CHECK_INT(strlen(s), ==, strlen("A1 B1 C1 A2 B2 A3 B3"));
		CHECK(strstr(s, "C1"));
		const char *a1 = strstr(s, "A1"), *a2 = strstr(s, "A2"), *a3 = strstr(s, "A3");
		CHECK(a1 && a2 && a3 && a1 < a2 && a2 < a3);
		const char *b1 = strstr(s, "B1"), *b2 = strstr(s, "B2"), *b3 = strstr(s, "B3");
		CHECK(b1 && b2 && b3 && b1 < b2 && b2 < b3);
		seen_other += strcmp(s, first) != 0;
	}
	CHECK_INT(seen_other, >, 150); /* other seeds, other orders */
	bb_plan_free(&p);
}

TEST(order_keys_checked_and_overridable)
{
	struct bb_plan p;
	char err[256], report[512];
	CHECK_INT(parse("benchboot-plan 1\norder=shuffled\n", &p, err), ==, -EINVAL);
	CHECK_STR(err, "plan:2: order: expected interleaved, random or blocked, not 'shuffled'");
	CHECK_INT(parse("benchboot-plan 1\norder.seed=-1\n", &p, err), ==, -EINVAL);
	CHECK_STR(err, "plan:2: order.seed: expected a number 0..4294967295, not '-1'");
	CHECK_INT(parse("benchboot-plan 1\norder=blocked\norder=random\n", &p, err), ==, -EINVAL);
	order_plan(&p, "order=blocked\n");
	CHECK_INT(bb_plan_cmdline(&p, "quiet benchboot.order=random benchboot.order.seed=7", report,
	                          sizeof(report)),
	          ==, 0);
	CHECK_INT(p.order, ==, BB_ORDER_RANDOM);
	CHECK_INT(p.order_seed, ==, 7);
	CHECK_INT(bb_plan_cmdline(&p, "benchboot.debug.crash=run-2", report, sizeof(report)), ==,
	          0);
	CHECK_STR(p.debug_crash, "run-2");
	CHECK_INT(bb_plan_cmdline(&p, "benchboot.debug.crash=a/b", report, sizeof(report)), ==, 1);
	bb_plan_free(&p);
	/* an empty plan has no sequence */
	CHECK_INT(parse("benchboot-plan 1\n", &p, err), ==, 0);
	struct bb_plan_step *s = (void *)1;
	size_t n = 9;
	CHECK_INT(bb_plan_sequence(&p, 0, &s, &n), ==, 0);
	CHECK(s == NULL && n == 0);
	bb_plan_free(&p);
}

static const char two_hosts[] = "benchboot-plan 1\n"
                                "job=netperf-2h\n"
                                "cluster=cs-two\n"
                                "cluster.port=12999\n"
                                "cluster.host.0.name=lkp-a\n"
                                "cluster.host.0.role=server\n"
                                "cluster.host.0.address=192.168.77.1/24\n"
                                "cluster.host.0.nic=52:54:00:AA:00:01\n"
                                "cluster.host.1.name=lkp-b\n"
                                "cluster.host.1.role=client\n"
                                "cluster.host.1.address=192.168.77.2/24\n";

TEST(plan_cluster_keys)
{
	struct bb_plan p;
	char err[256], report[512];
	CHECK_INT(parse(two_hosts, &p, err), ==, 0);
	CHECK_STR(p.cluster, "cs-two");
	CHECK_INT(p.cluster_port, ==, 12999);
	CHECK_INT(p.cluster_wait, ==, 120);
	CHECK_STR(p.hosts[0].name, "lkp-a");
	CHECK_INT(p.hosts[0].role, ==, BB_ROLE_SERVER);
	CHECK_STR(p.hosts[0].address, "192.168.77.1/24");
	CHECK_STR(p.hosts[0].nic, "52:54:00:aa:00:01");
	CHECK(p.hosts[1].nic == NULL);
	CHECK_INT(p.role, ==, BB_ROLE_NONE);
	CHECK(bb_plan_host_of(&p, BB_ROLE_CLIENT) == &p.hosts[1]);
	CHECK(bb_plan_host_of(&p, BB_ROLE_NONE) == NULL);
	/* the role comes from the command line, as do cluster.wait and cluster.port */
	CHECK_INT(bb_plan_cmdline(&p, "quiet benchboot.role=client benchboot.cluster.wait=5",
	                          report, sizeof(report)),
	          ==, 0);
	CHECK_INT(p.role, ==, BB_ROLE_CLIENT);
	CHECK_INT(p.cluster_wait, ==, 5);
	CHECK_INT(bb_plan_cmdline(&p,
	                          "benchboot.role=both benchboot.cluster.host.0.role=client "
	                          "benchboot.cluster.wait=0",
	                          report, sizeof(report)),
	          ==, 3);
	CHECK_CONTAINS(report, "cmdline: benchboot.role: expected server or client, not 'both'");
	CHECK_CONTAINS(report, "cmdline: benchboot.cluster.host.0.role: only cluster.port and "
	                       "cluster.wait may be given on the command line");
	CHECK_CONTAINS(report,
	               "cmdline: benchboot.cluster.wait: expected seconds 1..3600, not '0'");
	CHECK_INT(p.role, ==, BB_ROLE_CLIENT);
	bb_plan_free(&p);
	/* one-host plans: no cluster */
	CHECK_INT(parse("benchboot-plan 1\n", &p, err), ==, 0);
	CHECK(p.cluster == NULL && bb_plan_host_of(&p, BB_ROLE_SERVER) == NULL);
	bb_plan_free(&p);
}

/* The client host of a two-host plan takes 192.0.2.2 for its dummy interface (the server
 * host and one-host plans keep 192.0.2.1): SCTP aborts associations to a peer "at" one of its
 * own addresses. A net.dummy of the plan or the command line wins. */
TEST(plan_cluster_dummy_by_role)
{
	struct bb_plan p;
	char err[256], report[512];
	const char *roles[][2] = {
	    {"benchboot.role=server", "192.0.2.1/24"},
	    {"benchboot.role=client", "192.0.2.2/24"},
	    {"benchboot.role=client benchboot.net.dummy=10.9.9.9/8", "10.9.9.9/8"},
	    {"benchboot.net.dummy=10.9.9.9/8 benchboot.role=client", "10.9.9.9/8"}};
	for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++) {
		CHECK_INT(parse(two_hosts, &p, err), ==, 0);
		CHECK_INT(bb_plan_cmdline(&p, roles[i][0], report, sizeof(report)), ==, 0);
		CHECK_STR(p.net_dummy, roles[i][1]);
		bb_plan_free(&p);
	}
	char text[2048];
	/* global keys go before the first run: put it right after the header line */
	const char *nl = strchr(two_hosts, '\n');
	snprintf(text, sizeof(text), "%.*snet.dummy=10.1.1.1/24\n%s", (int)(nl - two_hosts + 1),
	         two_hosts, nl + 1);
	CHECK_INT(parse(text, &p, err), ==, 0);
	CHECK_INT(bb_plan_cmdline(&p, "benchboot.role=client", report, sizeof(report)), ==, 0);
	CHECK_STR(p.net_dummy, "10.1.1.1/24");
	bb_plan_free(&p);
	CHECK_INT(parse("benchboot-plan 1\n", &p, err), ==, 0);
	CHECK_INT(bb_plan_cmdline(&p, "benchboot.role=client", report, sizeof(report)), ==, 0);
	CHECK_STR(p.net_dummy, "192.0.2.1/24");
	bb_plan_free(&p);
}

/* A two-host plan with line `extra` after line 11 (or key `drop` left out). */
static int parse_two(const char *extra, const char *drop, char *err)
{
	char text[2048] = "";
	struct bb_plan p;
	const char *s = two_hosts;
	while (*s) {
		size_t n = strcspn(s, "\n") + 1;
		if (!drop || strncmp(s, drop, strlen(drop)))
			strncat(text, s, n);
		s += n;
	}
	strcat(text, extra);
	int r = parse(text, &p, err);
	if (!r)
		bb_plan_free(&p);
	return r;
}

TEST(plan_cluster_errors)
{
	char err[256];
	static const struct {
		const char *extra, *drop, *msg;
	} cases[] = {
	    {"cluster.host.2.name=x\n", NULL,
	     "plan:12: cluster.host.2.name: expected cluster.host.N.name, .role, .address or .nic "
	     "with N 0 or 1"},
	    {"cluster.host.1.role=both\n", NULL,
	     "plan:12: cluster.host.1.role: expected server or client, not 'both'"},
	    {"cluster.host.1.name=again\n", NULL, "plan:12: cluster.host.1.name: duplicate key"},
	    {"cluster.host.0.colour=red\n", NULL,
	     "plan:12: unknown global key 'cluster.host.0.colour'"},
	    {"cluster.host.1.nic=a/b\n", NULL,
	     "plan:12: cluster.host.1.nic: expected an interface name (e.g. eth0) or a MAC"},
	    {"cluster.wait=0\n", NULL, "plan:12: cluster.wait: expected seconds 1..3600, not '0'"},
	    {"cluster.port=70000\n", NULL,
	     "plan:12: cluster.port: expected a port 1..65535, not '70000'"},
	    {"cluster.port=1\n", NULL, "plan:12: cluster.port: duplicate key"},
	    {"cluster=other\n", NULL, "plan:12: cluster: duplicate key"},
	    {"", "cluster.host.1.address",
	     "plan:3: cluster=cs-two: missing key "
	     "'cluster.host.1.address'"},
	    {"", "cluster.host.1.role",
	     "plan:3: cluster=cs-two: missing key 'cluster.host.1.role'"},
	    {"", "cluster=", "plan:4: cluster.host.* keys need cluster=NAME"},
	    {"role=server\n", NULL, "plan:12: unknown global key 'role'"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_INT(parse_two(cases[i].extra, cases[i].drop, err), ==, -EINVAL);
		CHECK_CONTAINS(err, cases[i].msg);
	}
	/* both hosts with one role, one name or one address */
	const char *same_role = "benchboot-plan 1\ncluster=c\ncluster.host.0.name=a\n"
	                        "cluster.host.0.role=client\ncluster.host.0.address=10.0.0.1/24\n"
	                        "cluster.host.1.name=b\ncluster.host.1.role=client\n"
	                        "cluster.host.1.address=10.0.0.2/24\n";
	struct bb_plan p;
	CHECK_INT(parse(same_role, &p, err), ==, -EINVAL);
	CHECK_STR(err, "plan:2: cluster=c: cluster.host.0.role and cluster.host.1.role are both "
	               "'client' (one server and one client)");
	CHECK_INT(
	    parse_two("cluster.host.1.address=192.168.77.1/16\n", "cluster.host.1.address", err),
	    ==, -EINVAL);
	CHECK_STR(err, "plan:3: cluster=cs-two: both hosts have the address 192.168.77.1");
	CHECK_INT(parse_two("cluster.host.1.address=fd00::1/64\n", "cluster.host.1.address", err),
	          ==, -EINVAL);
	CHECK_CONTAINS(err, "plan:11: cluster.host.1.address: expected IPv4ADDR/PREFIX");
}

/* monitored=N: each run's iterations with the monitors, kept apart; 1 unless the plan says */
TEST(monitored_key)
{
	struct bb_plan p;
	char err[256], report[512];
	order_plan(&p, "order=blocked\n");
	CHECK_INT(p.monitored, ==, BB_MONITORED_DEFAULT);
	CHECK_INT(p.monitored, ==, 1);
	bb_plan_free(&p);
	order_plan(&p, "monitored=0\n");
	CHECK_INT(p.monitored, ==, 0);
	CHECK_INT(bb_plan_cmdline(&p, "benchboot.monitored=3", report, sizeof(report)), ==, 0);
	CHECK_INT(p.monitored, ==, 3);
	bb_plan_free(&p);
	CHECK_INT(parse("benchboot-plan 1\nmonitored=11\n", &p, err), ==, -EINVAL);
	CHECK_STR(err, "plan:2: monitored: expected iterations 0..10, not '11'");
}

TEST(warmup_key)
{
	struct bb_plan p;
	char err[256], report[512];
	order_plan(&p, "order=blocked\n");
	CHECK_INT(p.warmup, ==, 0); /* none unless asked */
	bb_plan_free(&p);
	order_plan(&p, "warmup=2\n");
	CHECK_INT(p.warmup, ==, 2);
	CHECK_INT(bb_plan_cmdline(&p, "benchboot.warmup=0", report, sizeof(report)), ==, 0);
	CHECK_INT(p.warmup, ==, 0);
	bb_plan_free(&p);
	CHECK_INT(parse("benchboot-plan 1\nwarmup=11\n", &p, err), ==, -EINVAL);
	CHECK_STR(err, "plan:2: warmup: expected iterations 0..10, not '11'");
	CHECK_INT(parse("benchboot-plan 1\nwarmup=1\nwarmup=1\n", &p, err), ==, -EINVAL);
}
