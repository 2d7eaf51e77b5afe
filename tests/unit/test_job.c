/* Job files: what parses into which parameters, and the exact error of malformed jobs. */
#include <errno.h>

#include "harness.h"
#include "host/job/suites.h"
#include "host/editdist.h"
#include "host/job/cmdline.h"
#include "host/job/job.h"
#include "host/job/rootfs.h"
#include "host/job/matrix.h"
#include "host/job/planwrite.h"
#include "host/job/units.h"
#include "plan/plan.h"

static struct bb_job parse_ok(const char *text)
{
	struct bb_job job;
	char err[1024];
	int rc = bb_job_parse_text("t.yaml", text, strlen(text), &job, err, sizeof err);
	if (rc)
		bb_test_fail(__FILE__, __LINE__, "parse failed: %s", err);
	return job;
}

/* "a,b" of a parameter's values, or NULL when absent. */
static const char *values(const struct bb_jdoc *d, const char *name)
{
	static char buf[512];
	const struct bb_jparam *p = bb_jdoc_get(d, name);
	if (!p)
		return NULL;
	buf[0] = 0;
	for (size_t i = 0; i < p->n; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? "," : "",
		         p->v[i].s);
	return buf;
}

TEST(lkp_netperf_job)
{
	struct bb_job job = parse_ok("suite: netperf\n"
	                             "testcase: netperf\n"
	                             "category: benchmark\n"
	                             "ip: ipv4\n"
	                             "runtime: 300s\n"
	                             "nr_threads: [25%, 200%]\n"
	                             "cluster: cs-localhost\n"
	                             "if role server:\n"
	                             "  netserver:\n"
	                             "if role client:\n"
	                             "  netperf:\n"
	                             "    test: SCTP_STREAM_MANY\n"
	                             "    send_size: 10K\n");
	CHECK_STR(job.suite, "netperf");
	CHECK_STR(job.name, "t");
	CHECK_INT(job.ndocs, ==, 1);
	const struct bb_jdoc *d = &job.docs[0];
	CHECK_STR(values(d, "nr_threads"), "25%,200%");
	CHECK(bb_jdoc_get(d, "nr_threads")->axis);
	CHECK_INT(bb_jdoc_get(d, "nr_threads")->mark.line, ==, 6);
	CHECK_INT(bb_jdoc_get(d, "nr_threads")->v[1].mark.col, ==, 19);
	CHECK_STR(values(d, "runtime"), "300s");
	CHECK_STR(values(d, "ip"), "ipv4");
	CHECK_STR(values(d, "test"), "SCTP_STREAM_MANY");
	CHECK_STR(values(d, "send_size"), "10K");
	CHECK_STR(values(d, "netserver"), "");
	CHECK(!bb_jdoc_get(d, "category")); /* LKP metadata, accepted and dropped */
	CHECK(!bb_jdoc_get(d, "cluster") || !bb_jdoc_get(d, "cluster")->axis);
	CHECK_INT(strlen(job.digest), ==, 64);
	bb_job_free(&job);
}

TEST(our_keys)
{
	struct bb_job job = parse_ok("suite: netperf\n"
	                             "cgroup:\n"
	                             "  mode: [v1, v2]\n"
	                             "  controllers: memory, cpu\n"
	                             "  limits:\n"
	                             "    memory.high: 1G\n"
	                             "sysctl:\n"
	                             "  net.sctp.prsctp_enable: [0, 1]\n"
	                             "  net.core.somaxconn: 4096\n"
	                             "affinity:\n"
	                             "  server: 0\n"
	                             "  client: 1-3,5\n"
	                             "timeout: 1m\n"
	                             "cpufreq_governor: performance\n"
	                             "kernel_cmdline: [mitigations=off, nosmt]\n"
	                             "netperf:\n"
	                             "  global_options: -i 50,3 -I 99,5\n"
	                             "  socket_buffer_size: 57344\n");
	const struct bb_jdoc *d = &job.docs[0];
	CHECK_STR(values(d, "cgroup.mode"), "v1,v2");
	CHECK_INT(bb_jdoc_get(d, "cgroup.mode")->level, ==, BB_LEVEL_BOOT);
	CHECK_STR(values(d, "cgroup.controllers"), "memory cpu");
	CHECK(!bb_jdoc_get(d, "cgroup.controllers")->axis);
	CHECK_STR(values(d, "cgroup.limit.memory.high"), "1G");
	CHECK_STR(values(d, "sysctl.net.sctp.prsctp_enable"), "0,1");
	CHECK_INT(bb_jdoc_get(d, "sysctl.net.sctp.prsctp_enable")->level, ==, BB_LEVEL_RUN);
	CHECK_STR(values(d, "sysctl.net.core.somaxconn"), "4096");
	CHECK_STR(values(d, "affinity.server"), "0");
	CHECK_STR(values(d, "affinity.client"), "1-3,5");
	CHECK_STR(values(d, "timeout"), "1m");
	CHECK_STR(values(d, "cpufreq_governor"), "performance");
	CHECK_INT(bb_jdoc_get(d, "kernel_cmdline")->level, ==, BB_LEVEL_BOOT);
	CHECK_STR(values(d, "kernel_cmdline"), "mitigations=off,nosmt");
	CHECK_STR(values(d, "global_options"), "-i 50,3 -I 99,5");
	bb_job_free(&job);
}

TEST(cgroup_scalar_and_role_affinity)
{
	struct bb_job job = parse_ok("suite: netperf\ncgroup: v2\n"
	                             "if role server:\n  netserver:\n  affinity: 0\n"
	                             "if role client:\n  affinity: 1\n");
	CHECK_STR(values(&job.docs[0], "cgroup.mode"), "v2");
	CHECK(!bb_jdoc_get(&job.docs[0], "cgroup.mode")->axis);
	CHECK_STR(values(&job.docs[0], "affinity.server"), "0");
	CHECK_STR(values(&job.docs[0], "affinity.client"), "1");
	bb_job_free(&job);
}

TEST(multiple_documents_as_lkp_merges_them)
{
	/* document 0 is a job; job i is document 0 with document i's top-level keys
	 * replacing whole values: document 2's `stress-ng:` replaces the whole block, so
	 * cpu-method does not reach it */
	struct bb_job job = parse_ok("suite: stress-ng\n"
	                             "nr_threads: 2\n"
	                             "testtime: 5s\n"
	                             "stress-ng:\n"
	                             "  test: cpu\n"
	                             "  cpu-method: [fft, matrixprod]\n"
	                             "  aggressive:\n"
	                             "---\n"
	                             "testtime: 1m\n"
	                             "---\n"
	                             "stress-ng:\n"
	                             "  test: vm\n"
	                             "  vm-keep: false\n");
	CHECK_STR(job.suite, "stress-ng");
	CHECK_INT(job.nfiledocs, ==, 3);
	CHECK_INT(job.ndocs, ==, 3);
	CHECK(!job.skipped);
	CHECK_INT(job.docs[0].index, ==, 0);
	CHECK_STR(values(&job.docs[0], "runtime"), "5s"); /* testtime */
	CHECK_STR(values(&job.docs[0], "stress-ng.cpu-method"), "fft,matrixprod");
	CHECK_INT(job.docs[1].index, ==, 1);
	CHECK_STR(values(&job.docs[1], "runtime"), "1m");
	CHECK_STR(values(&job.docs[1], "test"), "cpu"); /* document 0's block */
	CHECK_STR(values(&job.docs[1], "stress-ng.aggressive"), "true");
	CHECK_STR(values(&job.docs[2], "runtime"), "5s");
	CHECK_STR(values(&job.docs[2], "nr_threads"), "2");
	CHECK_STR(values(&job.docs[2], "test"), "vm");
	CHECK_STR(values(&job.docs[2], "stress-ng.vm-keep"), "false");
	CHECK(!bb_jdoc_get(&job.docs[2], "stress-ng.cpu-method"));
	CHECK(!bb_jdoc_get(&job.docs[2], "stress-ng.aggressive"));
	/* parameters in file order: document 0's first */
	CHECK_STR(job.docs[2].p[0].name, "suite");
	CHECK_STR(job.docs[2].p[1].name, "nr_threads");
	bb_job_free(&job);
}

TEST(document_0_without_a_program_is_not_a_job)
{
	struct bb_job job =
	    parse_ok("suite: stress-ng\nnr_threads: 2\n---\nstress-ng:\n  test: cpu\n"
	             "---\nstress-ng:\n  test: vm\n");
	CHECK_INT(job.nfiledocs, ==, 3);
	CHECK_INT(job.ndocs, ==, 2);
	CHECK(job.skipped);
	CHECK_CONTAINS(job.skipped, "document 0 names no program");
	CHECK_INT(job.docs[0].index, ==, 1);
	CHECK_STR(values(&job.docs[0], "nr_threads"), "2");
	bb_job_free(&job);
}

TEST(role_blocks_are_replaced_whole)
{
	/* document 1's `if role client:` replaces document 0's, test list included */
	struct bb_job job = parse_ok("suite: netperf\n"
	                             "nr_threads: [1, 2]\n"
	                             "if role client:\n"
	                             "  netperf:\n"
	                             "    test: [TCP_RR, UDP_RR]\n"
	                             "    socket_buffer_size: 64K\n"
	                             "---\n"
	                             "if role client:\n"
	                             "  netperf:\n"
	                             "    send_size: 10K\n"
	                             "    test: SCTP_STREAM_MANY\n");
	CHECK_INT(job.ndocs, ==, 2);
	CHECK_STR(values(&job.docs[1], "test"), "SCTP_STREAM_MANY");
	CHECK_STR(values(&job.docs[1], "send_size"), "10K");
	CHECK(!bb_jdoc_get(&job.docs[1], "socket_buffer_size"));
	CHECK_STR(values(&job.docs[1], "nr_threads"), "1,2");
	bb_job_free(&job);
}

TEST(program_options_at_the_top_level)
{
	/* LKP: a program's options may sit anywhere; the block's value wins */
	struct bb_job job = parse_ok("suite: netperf\n"
	                             "runtime: 10s\n"
	                             "send_size: 10K\n"
	                             "test: [TCP_STREAM, SCTP_STREAM]\n"
	                             "socket_buffer_size: 4K\n"
	                             "netperf:\n"
	                             "  socket_buffer_size: 8K\n");
	CHECK_STR(values(&job.docs[0], "send_size"), "10K");
	CHECK_STR(values(&job.docs[0], "test"), "TCP_STREAM,SCTP_STREAM");
	CHECK_STR(values(&job.docs[0], "socket_buffer_size"), "8K");
	CHECK_INT(job.warnings.n, ==, 0);
	bb_job_free(&job);
	job = parse_ok("suite: stress-ng\ntest: sock\ntype: [dgram, stream]\nmethod: x\n"
	               "stress-ng:\n");
	CHECK_STR(values(&job.docs[0], "test"), "sock");
	CHECK_STR(values(&job.docs[0], "type"), "dgram,stream");
	bb_job_free(&job);
}

TEST(lkp_keys_recorded_unknown_keys_warned)
{
	struct bb_job job = parse_ok("suite: netperf\n"
	                             "category: benchmark\n"
	                             "set_nic_irq_affinity: 1\n"
	                             "disable_latency_stats: 1\n"
	                             "nr_cpu: 64\n"
	                             "perf-profile:\n"
	                             "  debug_mode: 0\n"
	                             "bootloader_append:\n"
	                             "- root=/dev/ram0\n"
	                             "- panic=-1\n"
	                             "nr_thread: 2\n"
	                             "testtime: 5s\n");
	CHECK_STR(values(&job.docs[0], "lkp.category"), "benchmark");
	CHECK_STR(values(&job.docs[0], "lkp.set_nic_irq_affinity"), "1");
	CHECK_STR(values(&job.docs[0], "lkp.nr_cpu"), "64");
	CHECK_STR(values(&job.docs[0], "lkp.perf-profile"), "{debug_mode: 0}");
	CHECK_STR(values(&job.docs[0], "lkp.bootloader_append"), "[root=/dev/ram0, panic=-1]");
	CHECK_INT(bb_jdoc_get(&job.docs[0], "lkp.nr_cpu")->level, ==, BB_LEVEL_NOTE);
	CHECK(bb_lkp_key_kind("nr_cpu"));
	CHECK_CONTAINS(bb_lkp_key_kind("nr_cpu"), "0-day host");
	/* netperf reads runtime, not testtime: recorded, warned, no duration from it */
	CHECK(!bb_jdoc_get(&job.docs[0], "runtime"));
	CHECK_STR(values(&job.docs[0], "lkp.testtime"), "5s");
	CHECK_INT(job.warnings.n, ==, 2);
	CHECK_STR(job.warnings.v[0],
	          "t.yaml:11:1: unknown key 'nr_thread' at the top level (did you "
	          "mean 'nr_threads'?): no program benchboot runs reads it; "
	          "ignored, as LKP ignores it");
	CHECK_STR(job.warnings.v[1],
	          "t.yaml:12:1: testtime: LKP's netperf reads 'runtime', not 'testtime': recorded, "
	          "not used");
	bb_job_free(&job);
	/* a stressor the pinned stress-ng lacks: a warning naming the version */
	job = parse_ok("suite: stress-ng\nstress-ng:\n  test: [ng, icmp-flood]\n");
	CHECK_INT(job.warnings.n, ==, 1);
	CHECK_CONTAINS(job.warnings.v[0],
	               "t.yaml:3:10: test: stress-ng 0.22.01 (the image's) has no "
	               "stressor 'ng': that run will fail");
	bb_job_free(&job);
}

TEST(includes_as_lkp_expands_them)
{
	const char *dir = test_tmpdir();
	char path[4096];
	struct bb_job job;
	char err[1024];
	test_write_file(dir, "jobs/base/cg.yaml", "kernel_cmdline: a=1\nnr_threads: 2\n");
	test_write_file(dir, "jobs/np.yaml",
	                "suite: netperf\nruntime: 5s\nnetperf:\n  test: TCP_RR\n---\n"
	                "netperf:\n  test: UDP_RR\n");
	/* cg.yaml is found below the nearest jobs/ directory, np.yaml next to the job; the
	 * included multi-document file stays multi-document */
	snprintf(path, sizeof path, "%s",
	         test_write_file(dir, "jobs/sub/both.yaml", "<<: cg.yaml\n<<: ../np.yaml\n"));
	CHECK_INT(bb_job_parse_file(path, &job, err, sizeof err), ==, 0);
	CHECK_INT(job.nfiledocs, ==, 2);
	CHECK_INT(job.ndocs, ==, 2);
	CHECK_INT(job.files.n, ==, 3);
	CHECK_STR(values(&job.docs[1], "kernel_cmdline"), "a=1");
	CHECK_STR(values(&job.docs[1], "test"), "UDP_RR");
	bb_job_free(&job);
	/* {file: ..., KEY: VALUE}: the value replaces that key in every document, or is added
	 * to a document without it; ignore drops keys */
	snprintf(path, sizeof path, "%s",
	         test_write_file(dir, "jobs/over.yaml",
	                         "<<: {file: np.yaml, suite: netperf, nr_threads: 3, ignore: "
	                         "[runtime]}\n"));
	if (bb_job_parse_file(path, &job, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "%s", err);
	CHECK_INT(job.ndocs, ==, 2);
	CHECK(!bb_jdoc_get(&job.docs[0], "runtime"));
	CHECK_STR(values(&job.docs[0], "nr_threads"), "3");
	CHECK_STR(values(&job.docs[1], "nr_threads"), "3");
	CHECK_STR(values(&job.docs[1], "test"), "UDP_RR");
	bb_job_free(&job);
	/* a key after the include overrides the included file's, silently (LKP's hackbench-cpuset
	 * job: `<<: hackbench.yaml`, then `nr_threads: 1600%`); twice in the job's own file, the
	 * last wins with a warning, as LKP's YAML reader takes the last */
	snprintf(path, sizeof path, "%s",
	         test_write_file(dir, "jobs/redo.yaml",
	                         "suite: netperf\n<<: base/cg.yaml\nnr_threads: 5\n"));
	if (bb_job_parse_file(path, &job, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "%s", err);
	CHECK_STR(values(&job.docs[0], "nr_threads"), "5");
	CHECK_INT(job.warnings.n, ==, 0);
	bb_job_free(&job);
	snprintf(path, sizeof path, "%s",
	         test_write_file(dir, "jobs/twice.yaml",
	                         "suite: netperf\nnr_threads: 2\nnr_threads: 3\n"));
	if (bb_job_parse_file(path, &job, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "%s", err);
	CHECK_STR(values(&job.docs[0], "nr_threads"), "3");
	CHECK_INT(job.warnings.n, ==, 1);
	CHECK_CONTAINS(job.warnings.v[0], "twice.yaml:2:1: nr_threads: given again at line 3, "
	                                  "which wins (as LKP's YAML reader takes the last)");
	bb_job_free(&job);
	/* errors name the included file and its own line */
	test_write_file(dir, "jobs/bad.yaml", "nr_threads: 0\n");
	snprintf(path, sizeof path, "%s",
	         test_write_file(dir, "jobs/usebad.yaml", "suite: netperf\n<<: bad.yaml\n"));
	CHECK_INT(bb_job_parse_file(path, &job, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, "jobs/bad.yaml:1:13: nr_threads: '0' must be at least 1");
}

TEST(lkp_iterations_3x)
{
	struct bb_job job = parse_ok("suite: netperf\niterations: 3x\n");
	CHECK_STR(values(&job.docs[0], "iterations"), "3");
	bb_job_free(&job);
}

TEST(suite_in_a_later_document)
{
	struct bb_job job = parse_ok("runtime: 5s\n---\nsuite: netperf\n---\nsuite: netperf\n"
	                             "netperf:\n  test: TCP_RR\n");
	CHECK_INT(job.ndocs, ==, 2);
	CHECK_STR(values(&job.docs[1], "test"), "TCP_RR");
	CHECK_STR(values(&job.docs[0], "runtime"), "5s");
	bb_job_free(&job);
}

TEST(yml_name_and_files)
{
	struct bb_job job;
	char err[512];
	const char *dir = test_tmpdir();
	const char *path = test_write_file(dir, "jobs/my-job.yml", "suite: netperf\n");
	CHECK_INT(bb_job_parse_file(path, &job, err, sizeof err), ==, 0);
	CHECK_STR(job.name, "my-job");
	bb_job_free(&job);
	char missing[4096];
	snprintf(missing, sizeof missing, "%s/nope.yaml", dir);
	CHECK_INT(bb_job_parse_file(missing, &job, err, sizeof err), ==, -ENOENT);
	CHECK_CONTAINS(err, "nope.yaml: No such file or directory");
}

static const struct {
	const char *yaml, *err;
} bad[] = {
    {"suite: netperf\nnr_threads: 250x\n",
     "t.yaml:2:13: nr_threads: '250x' is not a count or a percentage of the online CPUs "
     "(e.g. 2 or 200%)"},
    {"suite: netperf\nruntime: -3\n",
     "t.yaml:2:10: runtime: '-3' is not a positive duration (seconds, or with s/m/h: 300, "
     "300s, 5m, 1h)"},
    {"suite: netperf\nruntime: 0s\n",
     "t.yaml:2:10: runtime: '0s' is not a positive duration (seconds, or with s/m/h: 300, "
     "300s, 5m, 1h)"},
    {"suite: netperf\nnetperf:\n  sned_size: 10K\n",
     "t.yaml:3:3: unknown key 'sned_size' in 'netperf:' (did you mean 'send_size'?)"},
    {"suite: netperf\nnetperf:\n  test: SCTP_STREAM_MNY\n",
     "t.yaml:3:9: test: unknown netperf test 'SCTP_STREAM_MNY' (did you mean "
     "'SCTP_STREAM_MANY'?)"},
    {"suite: netperf\nnetperf:\n  test: [TCP_RR, TCP_RR]\n",
     "t.yaml:3:18: test: 'TCP_RR' is twice in the list"},
    {"suite: stress-ng\nstress-ng:\n  test: cpu\n  cpu-methd: fft\n",
     "t.yaml:4:3: unknown key 'cpu-methd' in 'stress-ng:': neither a benchboot key nor a "
     "stress-ng 0.22.01 option (did you mean 'cpu-method'?)"},
    {"suite: stress-ng\nstress-ng:\n  test: cpu\n  timeout: 5\n",
     "t.yaml:4:3: stress-ng.timeout: set by benchboot (it runs stress-ng --timeout T --times "
     "--verify --metrics --no-rand-seed; use testtime for T)"},
    {"suite: stress-ng\nstress-ng:\n  test: cpu\n  vm: 2\n",
     "t.yaml:4:3: stress-ng.vm: 'vm' is a stressor: name it in 'test' (one stressor per "
     "run; a list in 'test' is an axis)"},
    {"suite: stress-ng\nstress-ng:\n  test: cpu\n  aggressive: 3\n",
     "t.yaml:4:15: stress-ng.aggressive: a flag takes no value (write 'aggressive:' or "
     "'aggressive: true')"},
    {"suite: stress-ng\nnr_threads: 0\nstress-ng:\n  test: cpu\n",
     "t.yaml:2:13: nr_threads: '0' must be at least 1"},
    {"suite: stress-ng\nstress-ng:\n  vm-bytes: 1G\n",
     "t.yaml:1:1: missing key 'test' in 'stress-ng:' (the stressor, e.g. cpu or icmp-flood) "
     "or 'class'"},
    {"suite: netperf\ncgroup: v3\n", "t.yaml:2:9: cgroup: 'v3' is not v1, v2 or none"},
    {"suite: netperf\ncgroup:\n  mode: v2\n  controllers: [memroy]\n",
     "t.yaml:4:16: controllers: unknown cgroup controller 'memroy' (did you mean 'memory'?)"},
    {"suite: netperf\ncgroup:\n  mode: v2\n  controllers: cpu\n  limits:\n    memory.high: 1G\n",
     "t.yaml:6:5: cgroup.limits.memory.high: needs the memory controller in 'controllers'"},
    {"suite: netperf\ncgroup:\n  controllers: cpu\n",
     "t.yaml:3:3: cgroup.controllers: needs 'cgroup: mode:' (v1 or v2)"},
    {"suite: netperf\ncgroup:\n  mode: none\n  controllers: cpu\n",
     "t.yaml:4:3: cgroup.controllers: cgroup mode none has no controllers or limits"},
    {"suite: netperf\ncluster: cs-remote\n",
     "t.yaml:2:10: cluster: no cluster file 'cs-remote': looked at clusters/cs-remote and "
     "config/clusters/cs-remote"},
    {"suite: fio\n", "t.yaml:1:8: suite: LKP's suite 'fio' is not run by benchboot yet: Debian "
                     "packages it (fio), and benchboot runs @SUITES@ "
                     "(docs/suites.md)"},
    {"suite: fiio\n", "t.yaml:1:8: suite: unknown suite 'fiio' (benchboot runs @SUITES@)"},
    {"suite: netprf\n", "t.yaml:1:8: suite: unknown suite 'netprf' (did you mean 'netperf'?) "
                        "(benchboot runs @SUITES@)"},
    {"suite: hackbenhc\n", "t.yaml:1:8: suite: unknown suite 'hackbenhc' (did you mean "
                           "'hackbench'?) (benchboot runs @SUITES@)"},
    {"nr_threads: 2\n", "t.yaml:1:1: missing key 'suite' (benchboot runs @SUITES@)"},
    {"suite: netperf\ntestcase: stress-ng\n",
     "t.yaml:2:1: testcase: 'stress-ng' differs from 'netperf' at line 1 col 1"},
    {"suite: netperf\n---\nsuite: stress-ng\nstress-ng:\n  test: cpu\n---\nnr_threads: 1\n",
     "t.yaml:3:1: suite: 'stress-ng' here, 'netperf' before: one job file runs one suite"},
    {"suite: netperf\niterations: [1, 2]\n",
     "t.yaml:2:13: iterations: takes one value, not a list (a list would make it a matrix "
     "axis)"},
    {"suite: netperf\niterations: 0\n",
     "t.yaml:2:13: iterations: '0' is not a whole number >= 1 (3 or 3x)"},
    {"suite: netperf\niterations: 3y\n",
     "t.yaml:2:13: iterations: '3y' is not a whole number >= 1 (3 or 3x)"},
    {"suite: netperf\nnr_threads: []\n", "t.yaml:2:13: nr_threads: empty list"},
    {"suite: netperf\nnr_threads:\n", "t.yaml:2:12: nr_threads: missing value"},
    {"suite: stress-ng\nstress-ng:\n  test: null\n",
     "t.yaml:3:9: test: missing value ('null' is YAML's null; the word itself: \"null\")"},
    {"suite: netperf\nnr_threads: [[1, 2]]\n",
     "t.yaml:2:14: nr_threads: a list of lists or mappings is not supported"},
    {"suite: netperf\nnetperf:\n  global_options: -i 10,3 -l 5\n",
     "t.yaml:3:19: global_options: '-l' is set by benchboot (set 'runtime')"},
    {"suite: netperf\nnetperf:\n  test_options: -m 1 -- x\n",
     "t.yaml:3:17: test_options: '-m' is set by benchboot (set 'send_size')"},
    {"suite: netperf\nnetperf:\n  tset: TCP_RR\n",
     "t.yaml:3:3: unknown key 'tset' in 'netperf:' (did you mean 'test'?)"},
    {"suite: stress-ng\nstress-ng:\n  runtime: 5s\n  test: cpu\n",
     "t.yaml:3:3: unknown key 'runtime' in 'stress-ng:': neither a benchboot key nor a "
     "stress-ng 0.22.01 option"},
    {"suite: stress-ng\nstress-ng:\n  class: cpu-cahce\n",
     "t.yaml:3:10: class: unknown stress-ng class 'cpu-cahce' (did you mean 'cpu-cache'?)"},
    {"suite: netperf\n<<: missing.yaml\n",
     "t.yaml:2:5: <<: included file 'missing.yaml' not found (looked next to t.yaml, then "
     "below the nearest jobs/ directory)"},
    {"suite: netperf\nnetperf:\n  send_size: 10Q\n",
     "t.yaml:3:14: send_size: '10Q' is not a size (bytes, or with K/M/G: 4096, 10K)"},
    {"suite: netperf\nip: ipv5\n", "t.yaml:2:5: ip: 'ipv5' is not ipv4 or ipv6"},
    {"suite: netperf\naffinity:\n  server: 0-\n",
     "t.yaml:3:11: server: '0-' is not a CPU list (e.g. 0, 1-3, 0,2, last, 1-last)"},
    {"suite: netperf\naffinity:\n  servr: 0\n",
     "t.yaml:3:3: unknown key 'servr' in 'affinity:' (did you mean 'server'?)"},
    {"suite: netperf\nsysctl:\n  net/core/somaxconn: 5\n",
     "t.yaml:3:3: sysctl: 'net/core/somaxconn' is not a sysctl name (dotted, as `sysctl -a` "
     "prints it: net.sctp.prsctp_enable)"},
    {"suite: netperf\nsysctl: 5\n",
     "t.yaml:2:9: sysctl: expected a mapping of sysctl keys to values (net.core.somaxconn: "
     "4096)"},
    {"suite: netperf\nnetperf: [a]\n",
     "t.yaml:2:10: netperf: expected a mapping of keys (see docs/jobs.md)"},
    {"suite: netperf\nstress-ng:\n  test: cpu\n", "t.yaml:2:1: stress-ng: not part of suite "
                                                  "netperf"},
    {"suite: netperf\nnetserver:\n  port: 5\n",
     "t.yaml:3:3: netserver: takes no options (benchboot runs netserver -4 -D, or -6 with ip: "
     "ipv6)"},
    {"suite: netperf\ncpufreq_governor: performnce\n",
     "t.yaml:2:19: cpufreq_governor: unknown cpufreq governor 'performnce' (did you mean "
     "'performance'?)"},
    {"suite: netperf\ntimeout: -1\n",
     "t.yaml:2:10: timeout: '-1' is not a duration (seconds, or with s/m/h: 300, 300s, 5m, 1h)"},
    {"suite: netperf\n  bad: indent\n",
     "t.yaml:2:6: YAML syntax error: mapping values are not allowed in this context"},
    {"suite: netperf\n[1: 2]: x\n", "t.yaml:2:1: a key must be a plain word"},
    {"", "t.yaml: empty job file"},
    {"- a\n- b\n", "t.yaml:1:1: a job document is a mapping of keys (suite: netperf, ...)"},
    {"suite: netperf\nnic:\n  name: eth0\n  address: 10.0.2.15\n",
     "t.yaml:4:12: address: expected IPv4ADDR/PREFIX or IPv6ADDR/PREFIX (e.g. 10.0.2.15/24), "
     "not '10.0.2.15'"},
    {"suite: netperf\nnic:\n  address: 10.0.2.15/24\n  gateway: 10.0.2.2\n",
     "t.yaml:3:3: nic.address: needs 'name' in 'nic:' (the interface, e.g. eth0, or its MAC "
     "address)"},
    {"suite: netperf\nnic:\n  name: 52:54:00:12:34\n",
     "t.yaml:3:9: name: expected an interface name (e.g. eth0) or a MAC address "
     "(xx:xx:xx:xx:xx:xx), not '52:54:00:12:34'"},
};

/* An expected message with @SUITES@ as the suites' table names them ("netperf, stress-ng and
 * ..."): a new suite changes no test here. */
static const char *with_suites(const char *msg, char *buf, size_t len)
{
	const char *at = strstr(msg, "@SUITES@");
	if (!at)
		return msg;
	snprintf(buf, len, "%.*s%s%s", (int)(at - msg), msg, bb_suite_names(), at + 8);
	return buf;
}

TEST(malformed_jobs)
{
	CHECK_INT(sizeof bad / sizeof bad[0], >=, 20);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct bb_job job;
		char err[1024] = "", want[1024];
		const char *expect = with_suites(bad[i].err, want, sizeof want);
		int rc = bb_job_parse_text("t.yaml", bad[i].yaml, strlen(bad[i].yaml), &job, err,
		                           sizeof err);
		if (rc != -EINVAL || strcmp(err, expect))
			bb_test_fail(__FILE__, __LINE__,
			             "case %zu (%s): rc %d, error\n  \"%s\", "
			             "expected\n  \"%s\"",
			             i, bad[i].yaml, rc, err, expect);
	}
}

TEST(example_jobs_are_valid)
{
	static const char *const jobs[] = {
	    "netperf-sctp",         "netperf-sctp-prsctp",        "netperf-cgroup",
	    "netperf-sctp-cgroup",  "netperf-tcp-stream",         "netperf-tcp-stream-short",
	    "stress-ng-icmp-flood", "stress-ng-icmp-flood-short", "stress-ng-cpu",
	};
	const char *top = getenv("BB_TOP");
	for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
		char path[4096], err[1024];
		struct bb_job job;
		snprintf(path, sizeof path, "%s/config/jobs/%s.yaml", top ? top : ".", jobs[i]);
		if (bb_job_parse_file(path, &job, err, sizeof err))
			bb_test_fail(__FILE__, __LINE__, "%s", err);
		CHECK_STR(job.name, jobs[i]);
		bb_job_free(&job);
	}
}

TEST(durations_and_counts)
{
	double s;
	long n;
	int pct;
	CHECK(!bb_parse_duration("300", &s) && s == 300);
	CHECK(!bb_parse_duration("300s", &s) && s == 300);
	CHECK(!bb_parse_duration("5m", &s) && s == 300);
	CHECK(!bb_parse_duration("1h", &s) && s == 3600);
	CHECK(!bb_parse_duration("1.5m", &s) && s == 90);
	CHECK(!bb_parse_duration("2d", &s) && s == 172800); /* LKP's lib/unit.rb: d, w, y too */
	CHECK(!bb_parse_duration("1w", &s) && s == 604800);
	CHECK(bb_parse_duration("5mm", &s));
	CHECK(bb_parse_duration("-3", &s));
	CHECK(bb_parse_duration("5x", &s));
	CHECK(bb_parse_duration("s", &s));
	CHECK(!bb_parse_count("25%", &n, &pct) && n == 25 && pct);
	CHECK(!bb_parse_count("2", &n, &pct) && n == 2 && !pct);
	CHECK_INT(bb_parse_count("0%", &n, &pct), ==, -ERANGE);
	CHECK_INT(bb_parse_count("250x", &n, &pct), ==, -EINVAL);
	CHECK_INT(bb_parse_count("-1", &n, &pct), ==, -EINVAL);
	CHECK_INT(bb_edit_distance("nr_thread", "nr_threads"), ==, 1);
	CHECK_INT(bb_edit_distance("SCTP", "sctp"), ==, 0);
}

/* Mutated job files (bytes changed, cut short) give a result or an error, never a crash;
 * the ones that parse are expanded and their plans written. */
TEST(mutations_do_not_crash)
{
	static const char *const jobs[] = {"netperf-sctp-cgroup", "stress-ng-cpu",
	                                   "netperf-tcp-stream"};
	const char *top = getenv("BB_TOP");
	static const char junk[] = ":-[]{}#&*!|>'\"%@`,? \n\t0aZ~";
	unsigned seed = 12345;
	for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
		char path[4096], buf[8192];
		snprintf(path, sizeof path, "%s/config/jobs/%s.yaml", top ? top : ".", jobs[j]);
		FILE *f = fopen(path, "r");
		CHECK(f);
		size_t len = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		for (int i = 0; i < 3000; i++) {
			char m[8192];
			memcpy(m, buf, len);
			size_t n = len;
			for (int k = 0; k < 1 + i % 4; k++) {
				seed = seed * 1103515245 + 12345;
				m[(seed >> 8) % n] = junk[(seed >> 20) % (sizeof junk - 1)];
			}
			if (i % 7 == 0)
				n = (seed >> 4) % n;
			m[n] = 0;
			struct bb_job job;
			char err[1024];
			if (!bb_job_parse_text("m.yaml", m, n, &job, err, sizeof err)) {
				/* what parses also expands and writes plans, or says why not */
				struct bb_matrix mx;
				if (!bb_matrix_expand(&job, &mx, err, sizeof err)) {
					for (size_t b = 0; b < mx.nboots; b++) {
						char *text;
						if (!bb_plan_write(&mx, b, &text, err, sizeof err))
							free(text);
					}
					bb_matrix_free(&mx);
				}
				bb_job_free(&job);
			} else
				CHECK(!strncmp(err, "m.yaml", 6));
		}
	}
}

TEST(lkp_setups_parse)
{
	/* cgroup2 knobs: v2, the knobs with a value as limits, controllers from them */
	struct bb_job job = parse_ok("suite: netperf\n"
	                             "cgroup2:\n"
	                             "  memory.high: 90%\n"
	                             "  memory.swap.max:\n"
	                             "  pids.max: 10000\n"
	                             "  cg_count: 1\n"
	                             "kernel_cmdline: systemd.unified_cgroup_hierarchy=1\n"
	                             "setup-net-buffer:\n"
	                             "sysctl:\n"
	                             "  sc_somaxconn: [1024, 4096]\n");
	const struct bb_jdoc *d = &job.docs[0];
	CHECK_STR(values(d, "cgroup.mode"), "v2");
	CHECK_STR(values(d, "cgroup.limit.memory.high"), "90%");
	CHECK(!bb_jdoc_get(d, "cgroup.limit.memory.swap.max"));
	CHECK_STR(values(d, "cgroup.limit.pids.max"), "10000");
	CHECK_STR(values(d, "cgroup.controllers"), "memory pids");
	CHECK_STR(values(d, "lkp.cg_count"), "1");
	CHECK_STR(values(d, "net-buffer"), "1");
	CHECK_STR(values(d, "sysctl.sc_somaxconn"), "1024,4096");
	CHECK_INT(job.warnings.n, ==, 0);
	bb_job_free(&job);
	/* cgroup: with v1 knobs is LKP's v1 setup */
	job = parse_ok("suite: netperf\ncgroup:\n  memory.limit_in_bytes: 1G\n  group: g\n");
	CHECK_STR(values(&job.docs[0], "cgroup.mode"), "v1");
	CHECK_STR(values(&job.docs[0], "cgroup.controllers"), "memory");
	CHECK_STR(values(&job.docs[0], "lkp.group"), "g");
	bb_job_free(&job);
}

/* warmup: N (or Nx) warm-up iterations: a boot-level key the plan carries as warmup=N. */
TEST(warmup_key_to_plan)
{
	static const struct {
		const char *yaml, *plan_line; /* NULL: no warmup line */
		int warmup;
	} ok[] = {{"suite: netperf\nwarmup: 1\n", "\nwarmup=1\n", 1},
	          {"suite: netperf\nwarmup: 2x\n", "\nwarmup=2\n", 2},
	          {"suite: netperf\nwarmup: 0\n", "\nwarmup=0\n", 0},
	          {"suite: netperf\n", NULL, 0}};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		struct bb_job job = parse_ok(ok[i].yaml);
		struct bb_matrix m;
		struct bb_plan plan;
		char err[1024], *text;
		CHECK_INT(bb_matrix_expand(&job, &m, err, sizeof err), ==, 0);
		CHECK_INT(m.nboots, ==, 1);
		CHECK_INT(bb_plan_write(&m, 0, &text, err, sizeof err), ==, 0);
		if (ok[i].plan_line)
			CHECK_CONTAINS(text, ok[i].plan_line);
		else
			CHECK(!strstr(text, "warmup="));
		CHECK_INT(bb_plan_parse(text, strlen(text), &plan, err, sizeof err), ==, 0);
		CHECK_INT(plan.warmup, ==, ok[i].warmup);
		bb_plan_free(&plan);
		free(text);
		bb_matrix_free(&m);
		bb_job_free(&job);
	}
	static const struct {
		const char *yaml, *err;
	} bad[] = {
	    {"suite: netperf\nwarmup: 11\n",
	     "t.yaml:2:9: warmup: '11' is not a number of warm-up iterations 0..10 (1 or 1x)"},
	    {"suite: netperf\nwarmup: -1\n",
	     "t.yaml:2:9: warmup: '-1' is not a number of warm-up iterations 0..10 (1 or 1x)"},
	    {"suite: netperf\nwarmup: 10s\n",
	     "t.yaml:2:9: warmup: '10s' is not a number of warm-up iterations 0..10 (1 or 1x)"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct bb_job job;
		char err[1024] = "";
		CHECK_INT(bb_job_parse_text("t.yaml", bad[i].yaml, strlen(bad[i].yaml), &job, err,
		                            sizeof err),
		          ==, -EINVAL);
		CHECK_STR(err, bad[i].err);
	}
}

/* A 0-day attachment's layout (written for this test): comment keys, queue and host keys,
 * default monitors, bootloader_append, rootfs. */
static const char zday[] = ":#! jobs/netperf-sctp.yaml:\n"
                           "suite: netperf\n"
                           "testcase: netperf\n"
                           "category: benchmark\n"
                           "runtime: 300s\n"
                           "nr_threads: 25%\n"
                           "cluster: cs-localhost\n"
                           "send_size: 10K\n"
                           "test: SCTP_STREAM_MANY\n"
                           "if role server:\n"
                           "  netserver:\n"
                           "if role client:\n"
                           "  netperf:\n"
                           ":#! queue options:\n"
                           "queue: bisect\n"
                           "queue_at_least_once: 1\n"
                           "need_kconfig_hw:\n"
                           "- E1000E: y\n"
                           "bisect_dmesg: true\n"
                           "_id: 0123abcd\n"
                           "kbuild_queue_analysis: 1\n"
                           "schedule_notify_address:\n"
                           ":# upto 90% CPU cycles may be used by latency stats:\n"
                           "disable_latency_stats: 1\n"
                           "repeat_to: 3\n"
                           "rootfs: debian-11.1-x86_64-20220510.cgz\n"
                           "kmsg:\n"
                           "perf-profile:\n"
                           "  debug_mode: 0\n"
                           "  lite_mode: 1\n"
                           "bootloader_append:\n"
                           "- root=/dev/ram0\n"
                           "- RESULT_ROOT=/result/netperf/x/1\n"
                           "- BOOT_IMAGE=/pkg/linux/vmlinuz-5.19.0\n"
                           "- job=/lkp/jobs/scheduled/x.yaml\n"
                           "- user=lkp\n"
                           "- nokaslr\n"
                           "- selinux=0\n"
                           "- nmi_watchdog=panic\n"
                           "- rcupdate.rcu_cpu_stall_timeout=100\n"
                           "- console=ttyS0,115200\n"
                           "- systemd.log_level=err\n"
                           "- acpi_rsdp=0x12345\n"
                           "version: \"/lkp/lkp/.src-20220608:1234abcd\"\n";

TEST(zday_attachment_is_quiet)
{
	struct bb_job job = parse_ok(zday);
	for (size_t i = 0; i < job.warnings.n; i++)
		bb_test_fail(__FILE__, __LINE__, "warning: %s", job.warnings.v[i]);
	CHECK_STR(values(&job.docs[0], "lkp.version"), "/lkp/lkp/.src-20220608:1234abcd");
	CHECK_STR(values(&job.docs[0], "lkp.bisect_dmesg"), "true");
	CHECK(bb_lkp_key_kind("need_kconfig_hw"));
	CHECK(bb_lkp_key_kind("kbuild_queue_analysis"));
	/* LKP's history (perf-profile's lite_mode) and 0-day's scheduler (queue_at_least_once) */
	CHECK_STR(values(&job.docs[0], "lkp.queue_at_least_once"), "1");
	/* a key no LKP file uses still warns */
	CHECK(!bb_lkp_key_kind("nr_thread"));
	CHECK_INT(bb_job_repeat_to(&job), ==, 3);
	bb_job_free(&job);
}

TEST(zday_bootloader_append_split)
{
	struct bb_job job = parse_ok(zday);
	CHECK_STR(values(&job.docs[0], "kernel_cmdline"),
	          "nokaslr selinux=0 nmi_watchdog=panic rcupdate.rcu_cpu_stall_timeout=100");
	CHECK_INT(bb_jdoc_get(&job.docs[0], "kernel_cmdline")->level, ==, BB_LEVEL_BOOT);
	CHECK_CONTAINS(values(&job.docs[0], "cmdline.bootloader_append"), "root=/dev/ram0 ");
	CHECK(bb_cmdline_plumbing("root=/dev/ram0"));
	CHECK(bb_cmdline_plumbing("bm_initrd=/osimage/x.cgz"));
	CHECK(bb_cmdline_plumbing("console=tty0"));
	CHECK(bb_cmdline_plumbing("systemd.log_level=err"));
	CHECK(!bb_cmdline_plumbing("systemd.unified_cgroup_hierarchy=0"));
	CHECK(!bb_cmdline_plumbing("mitigations=off"));
	CHECK(!bb_cmdline_plumbing("softlockup_panic=1"));
	bb_job_free(&job);
	/* with kernel_cmdline: its applied words, then bootloader_append's */
	job = parse_ok("suite: netperf\nkernel_cmdline: [idle=poll root=/dev/sda1, nosmt]\n"
	               "bootloader_append: nokaslr job=/x.yaml\n");
	CHECK_STR(values(&job.docs[0], "kernel_cmdline"), "idle=poll nokaslr,nosmt nokaslr");
	CHECK_STR(values(&job.docs[0], "cmdline.kernel_cmdline"), "idle=poll root=/dev/sda1 nosmt");
	bb_job_free(&job);
}

/* The boot params of the job's first boot group. */
static const char *boot0(const char *text, const char *key)
{
	static char buf[256];
	struct bb_job job = parse_ok(text);
	struct bb_matrix m;
	char err[512];
	if (bb_matrix_expand(&job, &m, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "expand: %s", err);
	snprintf(buf, sizeof buf, "%s", bb_kvs_get_or(&m.boots[0].params, key, "(none)"));
	bb_matrix_free(&m);
	bb_job_free(&job);
	return buf;
}

TEST(rootfs_cgroup_layout)
{
	CHECK_STR(boot0(zday, "cgroup.mode"), "v2");
	CHECK_STR(boot0(zday, "cgroup.controllers"), "memory pids");
	CHECK_STR(boot0(zday, "cgroup.path"), "/system.slice/lkp-bootstrap.service");
	const char *d10 = "suite: netperf\nrootfs: debian-10.4-x86_64-20200603.cgz\n";
	CHECK_STR(boot0(d10, "cgroup.mode"), "hybrid");
	CHECK_STR(boot0("suite: netperf\nrootfs: debian-12-x86_64-20240206.cgz\n"
	                "kernel_cmdline: systemd.unified_cgroup_hierarchy=0\n",
	                "cgroup.mode"),
	          "hybrid");
	/* the job's own cgroup wins, as on 0-day */
	CHECK_STR(boot0("suite: netperf\nrootfs: debian-11.1-x86_64-20220510.cgz\ncgroup: v1\n",
	                "cgroup.path"),
	          "(none)");
	CHECK_STR(boot0("suite: netperf\nrootfs: debian-11.1-x86_64-20220510.cgz\n"
	                "cgroup2:\n  memory.high: 90%\n",
	                "cgroup.path"),
	          "(none)");
	CHECK(!bb_rootfs_find("debian-110-x86_64.cgz"));
	CHECK(bb_rootfs_find("/osimage/debian/debian-12-x86_64-20240206.cgz"));
	/* a rootfs not in the table: a warning, no layout */
	struct bb_job job = parse_ok("suite: netperf\nrootfs: yocto-x86_64-minimal-20190520.cgz\n");
	CHECK_INT(job.warnings.n, ==, 1);
	CHECK_CONTAINS(job.warnings.v[0], "not in benchboot's table");
	bb_job_free(&job);
	/* rootfs: [a, b] is an axis: two boots */
	job = parse_ok("suite: netperf\nrootfs: [debian-11.1-x86_64-20220510.cgz, "
	               "debian-10.4-x86_64-20200603.cgz]\n");
	struct bb_matrix m;
	char err[512];
	CHECK_INT(bb_matrix_expand(&job, &m, err, sizeof err), ==, 0);
	CHECK_INT(m.nboots, ==, 2);
	CHECK_STR(bb_kvs_get(&m.boots[1].params, "cgroup.mode"), "hybrid");
	bb_matrix_free(&m);
	bb_job_free(&job);
}

static struct bb_job parse_set(const char *text, const char *const *sets, int *rc, char *err,
                               size_t errlen)
{
	struct bb_job job;
	struct bb_strv sv = {0};
	for (; *sets; sets++)
		bb_strv_add(&sv, *sets);
	*rc = bb_job_parse_text_set("t.yaml", text, strlen(text), &sv, &job, err, errlen);
	bb_strv_free(&sv);
	return job;
}

TEST(set_overrides_as_split_job)
{
	char err[512];
	int rc;
	struct bb_job job = parse_set(
	    zday,
	    (const char *const[]){"runtime=10s", "nr_threads=[1, 2]", "netperf.send_size=4K", NULL},
	    &rc, err, sizeof err);
	CHECK_INT(rc, ==, 0);
	CHECK_STR(values(&job.docs[0], "runtime"), "10s");
	CHECK_STR(values(&job.docs[0], "nr_threads"), "1,2");
	CHECK_STR(values(&job.docs[0], "send_size"), "4K");
	CHECK_INT(job.sets.n, ==, 3);
	CHECK_INT(job.warnings.n, ==, 0);
	bb_job_free(&job);
	/* a program block's own value wins over a top-level override, as in LKP: said */
	job = parse_set("suite: netperf\nnetperf:\n  runtime: 300s\n",
	                (const char *const[]){"runtime=10s", NULL}, &rc, err, sizeof err);
	CHECK_INT(rc, ==, 0);
	CHECK_STR(values(&job.docs[0], "runtime"), "300s");
	CHECK_INT(job.warnings.n, ==, 1);
	CHECK_CONTAINS(job.warnings.v[0], "--set netperf.runtime=10s replaces it");
	bb_job_free(&job);
	job = parse_set("suite: netperf\nnetperf:\n  runtime: 300s\n",
	                (const char *const[]){"netperf.runtime=10s", NULL}, &rc, err, sizeof err);
	CHECK_STR(values(&job.docs[0], "runtime"), "10s");
	bb_job_free(&job);
	/* bad values are the job's errors */
	job = parse_set(zday, (const char *const[]){"runtime=-3", NULL}, &rc, err, sizeof err);
	CHECK_INT(rc, ==, -EINVAL);
	CHECK_CONTAINS(err, "--set runtime=-3:1:10: runtime: '-3' is not a positive duration");
	job = parse_set(zday, (const char *const[]){"runtime", NULL}, &rc, err, sizeof err);
	CHECK_INT(rc, ==, -EINVAL);
	CHECK_CONTAINS(err, "--set runtime: expected KEY=VALUE");
}
