/* Matrix expansion, boot groups, run ids, suite command lines, plans (read back with the
 * init's own parser, lib/plan/plan.c) and the image spec of each boot group. */
#include <errno.h>

#include "harness.h"
#include "host/job/jobimage.h"
#include "host/job/job.h"
#include "host/job/matrix.h"
#include "host/job/planwrite.h"
#include "host/job/suites.h"
#include "plan/plan.h"

struct jm {
	struct bb_job job;
	struct bb_matrix m;
};

static void expand(const char *text, struct jm *jm)
{
	char err[1024];
	if (bb_job_parse_text("config/jobs/x.yaml", text, strlen(text), &jm->job, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "parse: %s", err);
	if (bb_matrix_expand(&jm->job, &jm->m, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "expand: %s", err);
}

static void jm_free(struct jm *jm)
{
	bb_matrix_free(&jm->m);
	bb_job_free(&jm->job);
}

static const char *param(const struct bb_run *r, const char *name)
{
	return bb_kvs_get(&r->params, name);
}

/* All run ids of a boot, space-separated. */
static const char *ids(const struct bb_boot *b)
{
	static char buf[2048];
	buf[0] = 0;
	for (size_t i = 0; i < b->nruns; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "",
		         b->runs[i].id);
	return buf;
}

static const char *argv_str(const struct bb_strv *a)
{
	static char buf[2048];
	buf[0] = 0;
	for (size_t i = 0; i < a->n; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "",
		         a->v[i]);
	return buf;
}

TEST(single_run_defaults)
{
	struct jm jm;
	expand("suite: netperf\n", &jm);
	CHECK_INT(jm.m.nboots, ==, 1);
	CHECK_INT(jm.m.nruns, ==, 1);
	const struct bb_run *r = &jm.m.boots[0].runs[0];
	CHECK_STR(r->id, "TCP_STREAM");
	CHECK_STR(param(r, "test"), "TCP_STREAM");
	CHECK_STR(param(r, "nr_threads"), "1");
	CHECK_STR(param(r, "runtime"), "300s");
	CHECK_STR(param(r, "ip"), "ipv4");
	CHECK_STR(bb_kvs_get(&jm.m.boots[0].params, "cgroup.mode"), "none");
	jm_free(&jm);
}

TEST(cartesian_product_first_axis_outermost)
{
	struct jm jm;
	expand("suite: netperf\n"
	       "nr_threads: [25%, 200%]\n"
	       "sysctl:\n  net.sctp.prsctp_enable: [0, 1]\n"
	       "netperf:\n  test: [SCTP_STREAM_MANY, TCP_RR]\n  send_size: 10K\n",
	       &jm);
	CHECK_INT(jm.m.nboots, ==, 1);
	CHECK_INT(jm.m.nruns, ==, 8);
	CHECK_STR(ids(&jm.m.boots[0]), "SCTP_STREAM_MANY.nr_threads-25pct.prsctp_enable-0 "
	                               "TCP_RR.nr_threads-25pct.prsctp_enable-0 "
	                               "SCTP_STREAM_MANY.nr_threads-25pct.prsctp_enable-1 "
	                               "TCP_RR.nr_threads-25pct.prsctp_enable-1 "
	                               "SCTP_STREAM_MANY.nr_threads-200pct.prsctp_enable-0 "
	                               "TCP_RR.nr_threads-200pct.prsctp_enable-0 "
	                               "SCTP_STREAM_MANY.nr_threads-200pct.prsctp_enable-1 "
	                               "TCP_RR.nr_threads-200pct.prsctp_enable-1");
	CHECK_STR(param(&jm.m.boots[0].runs[7], "sysctl.net.sctp.prsctp_enable"), "1");
	CHECK_STR(param(&jm.m.boots[0].runs[7], "send_size"), "10K");
	jm_free(&jm);
}

TEST(boot_axes_make_boot_groups)
{
	struct jm jm;
	expand("suite: netperf\n"
	       "nr_threads: [25%, 50%]\n"
	       "cgroup:\n  mode: [v1, v2]\n  controllers: memory\n"
	       "kernel_cmdline: [mitigations=off, 'nosmt quiet']\n"
	       "netperf:\n  test: SCTP_STREAM_MANY\n",
	       &jm);
	CHECK_INT(jm.m.nboots, ==, 4);
	CHECK_INT(jm.m.nruns, ==, 8);
	char bp[512];
	bb_plan_boot_params(&jm.m.boots[0], bp, sizeof bp);
	CHECK_STR(bp, "cgroup.mode=v1 cgroup.controllers=memory kernel_cmdline=mitigations=off");
	bb_plan_boot_params(&jm.m.boots[1], bp, sizeof bp);
	CHECK_STR(bp, "cgroup.mode=v1 cgroup.controllers=memory kernel_cmdline=nosmt%20quiet");
	bb_plan_boot_params(&jm.m.boots[2], bp, sizeof bp);
	CHECK_STR(bp, "cgroup.mode=v2 cgroup.controllers=memory kernel_cmdline=mitigations=off");
	for (size_t b = 0; b < 4; b++)
		CHECK_STR(ids(&jm.m.boots[b]),
		          "SCTP_STREAM_MANY.nr_threads-25pct SCTP_STREAM_MANY.nr_threads-50pct");
	jm_free(&jm);
}

/* Two rootfs values are two boots, also when the job's own cgroup setup leaves them nothing
 * else to differ in (they used to become two runs of the same id in one boot). */
TEST(rootfs_axis_is_boots)
{
	struct jm jm;
	expand("suite: netperf\ncgroup: v1\n"
	       "rootfs: [debian-11.1-x86_64-20220510.cgz, debian-10.4-x86_64-20200603.cgz]\n",
	       &jm);
	CHECK_INT(jm.m.nboots, ==, 2);
	CHECK_INT(jm.m.nruns, ==, 2);
	CHECK_STR(bb_kvs_get_or(&jm.m.boots[0].params, "lkp.rootfs", "-"),
	          "debian-11.1-x86_64-20220510.cgz");
	CHECK_STR(bb_kvs_get_or(&jm.m.boots[1].params, "lkp.rootfs", "-"),
	          "debian-10.4-x86_64-20200603.cgz");
	CHECK_STR(bb_kvs_get_or(&jm.m.boots[1].params, "cgroup.mode", "-"), "v1");
	jm_free(&jm);
}

TEST(documents_expand_separately_and_share_boots)
{
	struct jm jm;
	expand("suite: netperf\nruntime: 10s\ncgroup: v2\n"
	       "---\nnetperf:\n  test: TCP_STREAM\n  send_size: [1K, 4K]\n"
	       "---\ncgroup: v1\nnetperf:\n  test: TCP_RR\n"
	       "---\nnetperf:\n  test: UDP_RR\n",
	       &jm);
	CHECK_INT(jm.m.nboots, ==, 2);
	CHECK_INT(jm.m.nruns, ==, 4);
	/* document 0 names no program: documents 1 and 3 run in the cgroup v2 boot,
	 * document 2 needs a v1 boot */
	CHECK_STR(ids(&jm.m.boots[0]), "TCP_STREAM.send_size-1K TCP_STREAM.send_size-4K UDP_RR");
	CHECK_STR(ids(&jm.m.boots[1]), "TCP_RR");
	CHECK_INT(jm.m.boots[0].runs[2].doc, ==, 3);
	CHECK_STR(param(&jm.m.boots[1].runs[0], "runtime"), "10s");
	jm_free(&jm);
}

TEST(run_ids_sanitised_and_disambiguated)
{
	struct jm jm;
	expand("suite: netperf\n"
	       "sysctl:\n  net.ipv4.tcp_rmem: ['4096 87380 6291456', '4096 131072 6291456']\n"
	       "  net.ipv6.tcp_rmem: [1, 2]\n"
	       "netperf:\n  global_options: ['-i 5,3', '-I 99,5']\n",
	       &jm);
	CHECK_INT(jm.m.nruns, ==, 8);
	CHECK_STR(
	    jm.m.boots[0].runs[0].id,
	    "TCP_STREAM.sysctl.net.ipv4.tcp_rmem-4096_87380_6291456.sysctl.net.ipv6.tcp_rmem-1"
	    ".global_options--i_5_3");
	jm_free(&jm);
}

TEST(duplicate_runs_are_an_error)
{
	struct bb_job job;
	struct bb_matrix m;
	char err[1024];
	const char *t = "suite: netperf\n---\nruntime: 5s\n---\nruntime: 5s\n";
	CHECK_INT(bb_job_parse_text("d.yaml", t, strlen(t), &job, err, sizeof err), ==, 0);
	CHECK_INT(bb_matrix_expand(&job, &m, err, sizeof err), ==, -EINVAL);
	CHECK_STR(err, "d.yaml: documents 1 and 2 describe the same run 'TCP_STREAM' in one boot");
	bb_job_free(&job);
}

TEST(netperf_command_lines)
{
	struct jm jm;
	struct bb_suite_run sr;
	char err[512];
	expand("suite: netperf\nruntime: 1m\nnr_threads: 200%\niterations: 3\ntimeout: 45s\n"
	       "ip: [ipv4, ipv6]\n"
	       "affinity:\n  server: 0\n  client: 1\n"
	       "sysctl:\n  net.sctp.prsctp_enable: 1\n"
	       "netperf:\n  test: SCTP_STREAM_MANY\n  send_size: 10K\n  socket_buffer_size: 57344\n"
	       "  global_options: -i 50,3 -I 99,5\n",
	       &jm);
	const struct bb_run *r = &jm.m.boots[0].runs[0];
	CHECK_STR(r->id, "SCTP_STREAM_MANY.ip-ipv4");
	CHECK_INT(bb_suite_run("netperf", &r->params, &sr, err, sizeof err), ==, 0);
	CHECK_STR(argv_str(&sr.server_argv), "/usr/bin/netserver -4 -D");
	CHECK_STR(sr.server_ready, "tcp:127.0.0.1:12865");
	CHECK_STR(
	    argv_str(&sr.client_argv),
	    "/usr/bin/netperf -4 -H 127.0.0.1 -t SCTP_STREAM_MANY -c -C -l 60 -i 50,3 -I 99,5 "
	    "-- -m 10K -s 57344 -S 57344");
	CHECK_STR(sr.client_count, "200%");
	CHECK_STR(sr.server_cpus, "0");
	CHECK_STR(sr.client_cpus, "1");
	CHECK_STR(argv_str(&sr.modules), "sctp");
	CHECK_STR(argv_str(&sr.sysctls), "net.sctp.prsctp_enable=1");
	CHECK_INT(sr.iterations, ==, 3);
	CHECK(sr.nominal_s == 180);  /* -i 50,3: at least 3 measurements */
	CHECK(sr.runtime_s == 1800); /* at most 30 (netperf caps -i at 30) */
	CHECK(sr.grace_s == 45);
	bb_suite_run_free(&sr);
	r = &jm.m.boots[0].runs[1];
	CHECK_INT(bb_suite_run("netperf", &r->params, &sr, err, sizeof err), ==, 0);
	CHECK_STR(argv_str(&sr.server_argv), "/usr/bin/netserver -6 -D");
	CHECK_STR(sr.server_ready, "tcp:::1:12865");
	CHECK_CONTAINS(argv_str(&sr.client_argv), "/usr/bin/netperf -6 -H ::1 -t SCTP_STREAM_MANY");
	bb_suite_run_free(&sr);
	jm_free(&jm);

	expand("suite: netperf\nruntime: 10\nnetperf:\n  test: TCP_RR\n", &jm);
	r = &jm.m.boots[0].runs[0];
	CHECK_INT(bb_suite_run("netperf", &r->params, &sr, err, sizeof err), ==, 0);
	CHECK_STR(argv_str(&sr.client_argv),
	          "/usr/bin/netperf -4 -H 127.0.0.1 -t TCP_RR -c -C -l 10");
	CHECK_INT(sr.modules.n, ==, 0);
	CHECK(sr.nominal_s == 10 && sr.runtime_s == 10 && sr.grace_s == 30);
	bb_suite_run_free(&sr);
	jm_free(&jm);
}

TEST(stressng_command_lines)
{
	struct jm jm;
	struct bb_suite_run sr;
	char err[512];
	expand("suite: stress-ng\nnr_threads: [100%, 4, 50%]\ntesttime: 1m\n"
	       "stress-ng:\n  test: vm\n  vm-bytes: 64M\n  vm-keep:\n  aggressive: false\n",
	       &jm);
	CHECK_STR(ids(&jm.m.boots[0]), "vm.nr_threads-100pct vm.nr_threads-4 vm.nr_threads-50pct");
	const struct bb_run *r = &jm.m.boots[0].runs[0];
	CHECK_INT(bb_suite_run("stress-ng", &r->params, &sr, err, sizeof err), ==, 0);
	CHECK_STR(argv_str(&sr.client_argv), "/usr/bin/stress-ng --timeout 60 --times --verify "
	                                     "--metrics --no-rand-seed --log-file /proc/self/fd/1 "
	                                     "--vm 0 --vm-bytes 64M --vm-keep");
	CHECK_STR(sr.client_count, "1");
	CHECK_INT(sr.server_argv.n, ==, 0);
	CHECK_STR(argv_str(&sr.files), "/usr/bin/stress-ng");
	bb_suite_run_free(&sr);
	r = &jm.m.boots[0].runs[1];
	CHECK_INT(bb_suite_run("stress-ng", &r->params, &sr, err, sizeof err), ==, 0);
	CHECK_CONTAINS(argv_str(&sr.client_argv), "--vm 4 ");
	CHECK_STR(sr.client_count, "1");
	bb_suite_run_free(&sr);
	r = &jm.m.boots[0].runs[2];
	CHECK_INT(bb_suite_run("stress-ng", &r->params, &sr, err, sizeof err), ==, 0);
	CHECK_CONTAINS(argv_str(&sr.client_argv), "--vm 1 ");
	CHECK_STR(sr.client_count, "50%");
	bb_suite_run_free(&sr);
	jm_free(&jm);
}

static void plan_reads_back(const struct jm *jm, size_t boot, struct bb_plan *plan)
{
	char *text, err[1024];
	if (bb_plan_write(&jm->m, boot, &text, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "plan: %s", err);
	if (bb_plan_parse(text, strlen(text), plan, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "the init's parser refuses the plan: %s\n%s", err,
		             text);
	free(text);
}

TEST(plans_read_back_by_the_init_parser)
{
	struct jm jm;
	struct bb_plan p;
	expand("suite: netperf\nruntime: 10s\nnr_threads: 2\n"
	       "cgroup:\n  mode: [v1, v2]\n  controllers: memory\n  limits:\n    memory.high: 1G\n"
	       "cpufreq_governor: performance\n"
	       "sysctl:\n  net.sctp.prsctp_enable: [0, 1]\n"
	       "if role server:\n  netserver:\n  affinity: 0\n"
	       "if role client:\n  affinity: 1\n  netperf:\n    test: SCTP_STREAM_MANY\n"
	       "    send_size: 10K\n",
	       &jm);
	CHECK_INT(jm.m.nboots, ==, 2);
	plan_reads_back(&jm, 1, &p);
	CHECK_STR(p.job, "x");
	CHECK_INT(p.boot_group, ==, 1);
	CHECK_STR(p.boot_params, "cgroup.mode=v2 cgroup.controllers=memory "
	                         "cgroup.limit.memory.high=1G cpufreq_governor=performance");
	CHECK_INT(p.cgroup_mode, ==, BB_CGROUP_V2);
	CHECK_INT(p.cgroup_controllers.n, ==, 1);
	CHECK_STR(p.cgroup_limits.v[0].key, "memory.high");
	CHECK_STR(p.cgroup_limits.v[0].value, "1G");
	CHECK_STR(p.cpufreq_governor, "performance");
	CHECK_INT(p.modules_boot.n, ==, 2);
	CHECK_STR(p.modules_boot.v[0], "dummy");
	CHECK_STR(p.modules_boot.v[1], "sctp");
	CHECK_INT(p.nruns, ==, 2);
	const struct bb_plan_run *r = &p.runs[1];
	CHECK_STR(r->id, "SCTP_STREAM_MANY.prsctp_enable-1");
	CHECK_STR(r->suite, "netperf");
	CHECK_INT(r->iterations, ==, 1);
	CHECK(r->runtime == 10 && r->grace == 30);
	CHECK_INT(r->needs_modules.n, ==, 1);
	CHECK_STR(r->sysctls.v[0].key, "net.sctp.prsctp_enable");
	CHECK_STR(r->sysctls.v[0].value, "1");
	CHECK_INT(r->nservers, ==, 1);
	CHECK_STR(r->servers[0].ready, "tcp:127.0.0.1:12865");
	CHECK_STR(r->servers[0].cpus, "0");
	CHECK_STR(r->client_cpus, "1");
	CHECK_INT(r->client_count, ==, 2);
	CHECK_INT(r->client_argv.n, ==, 13);
	CHECK_STR(r->client_argv.v[12], "10K");
	int seen = 0;
	for (size_t i = 0; i < r->params.n; i++)
		if (!strcmp(r->params.v[i].key, "sysctl.net.sctp.prsctp_enable"))
			seen = !strcmp(r->params.v[i].value, "1");
	CHECK(seen);
	bb_plan_free(&p);
	jm_free(&jm);

	expand("suite: stress-ng\nnr_threads: 50%\ntesttime: 5s\nstress-ng:\n  test: icmp-flood\n",
	       &jm);
	plan_reads_back(&jm, 0, &p);
	CHECK_INT(p.cgroup_mode, ==, BB_CGROUP_NONE);
	CHECK_INT(p.modules_boot.n, ==, 0);
	CHECK_INT(p.runs[0].nservers, ==, 0);
	CHECK_INT(p.runs[0].client_percent, ==, 50);
	CHECK(p.runs[0].runtime == 5);
	bb_plan_free(&p);
	jm_free(&jm);
}

static void image_of(const char *job, struct jm *jm, struct bb_jobimage *g, size_t boot)
{
	char path[4096], err[1024];
	const char *top = getenv("BB_TOP");
	snprintf(path, sizeof path, "%s/config/jobs/%s", top ? top : ".", job);
	if (bb_job_parse_file(path, &jm->job, err, sizeof err) ||
	    bb_matrix_expand(&jm->job, &jm->m, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "%s", err);
	int rc = bb_jobimage_group(&jm->m, boot, NULL, NULL, g, err, sizeof err);
	if (rc == -ENOENT)
		SKIP("%s (make netperf)", err);
	if (rc)
		bb_test_fail(__FILE__, __LINE__, "%s", err);
}

static int has(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

TEST(image_specs)
{
	struct jm jm;
	struct bb_jobimage g;
	image_of("netperf-sctp.yaml", &jm, &g, 0);
	CHECK_STR(g.name, "netperf-sctp");
	CHECK(has(g.modules.v, g.modules.n, "sctp"));
	CHECK(has(g.modules.v, g.modules.n, "dummy"));
	CHECK_INT(g.nbinaries, ==, 2);
	CHECK_STR(g.binaries[0].dest, "/usr/bin/netperf");
	CHECK_CONTAINS(g.binaries[0].src, "build/netperf/netperf");
	CHECK_STR(g.binaries[1].dest, "/usr/bin/netserver");
	CHECK_STR(g.cmdline, IMAGE_DEFAULT_CMDLINE);
	CHECK_CONTAINS(g.plan_text, "\nmodules.boot=dummy sctp\n");
	bb_jobimage_free(&g);
	jm_free(&jm);

	image_of("netperf-tcp-stream-short.yaml", &jm, &g, 0);
	CHECK(!has(g.modules.v, g.modules.n, "sctp"));
	bb_jobimage_free(&g);
	jm_free(&jm);

	image_of("netperf-cgroup.yaml", &jm, &g, 1);
	CHECK_STR(g.name, "netperf-cgroup.boot1");
	CHECK_CONTAINS(g.plan_text, "\ncgroup.mode=v2\n");
	bb_jobimage_free(&g);
	jm_free(&jm);

	image_of("stress-ng-icmp-flood-short.yaml", &jm, &g, 0);
	CHECK_INT(g.modules.n, ==, 0);
	CHECK_INT(g.nbinaries, ==, 1);
	CHECK_STR(g.binaries[0].src, "usr/bin/stress-ng");
	CHECK_STR(g.binaries[0].dest, "/usr/bin/stress-ng");
	bb_jobimage_free(&g);
	jm_free(&jm);
}

TEST(estimate)
{
	struct jm jm;
	double lo, hi;
	char err[256];
	expand(
	    "suite: netperf\nruntime: 10s\niterations: 2\nnr_threads: [1, 2]\ncgroup: [v1, v2]\n",
	    &jm);
	CHECK_INT(bb_matrix_estimate(&jm.m, &lo, &hi, err, sizeof err), ==, 0);
	CHECK(lo == 2 * BB_BOOT_OVERHEAD_S + 4 * 2 * (10 + BB_RUN_OVERHEAD_S));
	CHECK(hi == lo);
	jm_free(&jm);
	/* a warm-up iteration per boot, as long as the boot's longest run */
	expand("suite: netperf\nwarmup: 1\nruntime: 10s\niterations: 2\nnr_threads: [1, 2]\n"
	       "cgroup: [v1, v2]\n",
	       &jm);
	CHECK_INT(bb_matrix_estimate(&jm.m, &lo, &hi, err, sizeof err), ==, 0);
	CHECK(lo == 2 * BB_BOOT_OVERHEAD_S + (4 * 2 + 2) * (10 + BB_RUN_OVERHEAD_S));
	jm_free(&jm);
}
