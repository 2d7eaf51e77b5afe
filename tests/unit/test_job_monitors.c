/*
 * LKP's monitors in a job (lib/host/job/monitors.c, the monitor keys of yamlwalk.c): options
 * under a monitor's key into boot parameters monitor.NAME.OPTION and the plan, warnings and errors
 * with their places, category: benchmark's default set with the job's keys and NAME-: minus
 * keys, run --monitors lists; the plan's monitor.NAME.OPTION keys (lib/plan/plan.c); the sampler
 * taking `interval` from the plan (init/monitor.c) on a fake root.
 */
#include <errno.h>
#include <time.h>

#include "harness.h"
#include "host/job/job.h"
#include "host/job/matrix.h"
#include "host/job/monitors.h"
#include "host/job/planwrite.h"
#include "init_fake_root.h"
#include "monitor.h"
#include "plan/plan.h"

static struct bb_job parse_ok(const char *text)
{
	struct bb_job job;
	char err[1024];
	if (bb_job_parse_text("t.yaml", text, strlen(text), &job, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "parse failed: %s", err);
	return job;
}

static const char *parse_err(const char *text)
{
	static char err[1024];
	struct bb_job job;
	err[0] = 0;
	if (!bb_job_parse_text("t.yaml", text, strlen(text), &job, err, sizeof err)) {
		bb_job_free(&job);
		return "(parsed)";
	}
	return err;
}

/* The names of sv joined by blanks, without perf-stat and perf-profile (which run when the
 * build has them, and are unavailable otherwise). */
static const char *joined(const struct bb_strv *sv)
{
	static char buf[1024];
	size_t off = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sv->n && off < sizeof buf; i++)
		if (strcmp(sv->v[i], "perf-stat") && strcmp(sv->v[i], "perf-profile"))
			off += (size_t)snprintf(buf + off, sizeof buf - off, "%s%s", off ? " " : "",
			                        sv->v[i]);
	return buf;
}

#define JOB_END "netperf:\n  test: TCP_STREAM\n"

TEST(monitor_options_into_boot_parameters_and_plan)
{
	struct bb_job job = parse_ok("suite: netperf\n"
	                             "vmstat:\n"
	                             "  interval: 2\n"
	                             "interrupts: {interval: 0.5}\n"
	                             "mpstat:\n"
	                             "  per_node: 1\n"
	                             "uptime:\n" JOB_END);
	const struct bb_jdoc *d = &job.docs[0];
	const struct bb_jparam *p = bb_jdoc_get(d, "monitor.vmstat.interval");
	CHECK(p != NULL);
	CHECK_INT(p->level, ==, BB_LEVEL_BOOT);
	CHECK_STR(p->v[0].s, "2");
	CHECK_INT(p->mark.line, ==, 3);
	CHECK_INT(p->mark.col, ==, 3);
	CHECK_STR(bb_jdoc_get(d, "monitor.interrupts.interval")->v[0].s, "0.5");
	CHECK(!bb_jdoc_get(d, "monitor.mpstat.per_node")); /* LKP's, recorded only */
	CHECK_STR(bb_jdoc_get(d, "lkp.mpstat")->v[0].s, "{per_node: 1}");
	CHECK_STR(bb_jdoc_get(d, "lkp.vmstat")->v[0].s, "{interval: 2}");
	CHECK_INT(job.warnings.n, ==, 0);

	struct bb_matrix m;
	struct bb_plan plan;
	char err[1024], *text;
	CHECK_INT(bb_matrix_expand(&job, &m, err, sizeof err), ==, 0);
	CHECK_INT(bb_plan_write(&m, 0, &text, err, sizeof err), ==, 0);
	CHECK_CONTAINS(text, "\nmonitors=vmstat interrupts mpstat uptime\n");
	CHECK_CONTAINS(text, "\nmonitor.vmstat.interval=2\n");
	CHECK_CONTAINS(text, "\nmonitor.interrupts.interval=0.5\n");
	CHECK(!strstr(text, "monitor.mpstat."));
	CHECK_INT(bb_plan_parse(text, strlen(text), &plan, err, sizeof err), ==, 0);
	CHECK_STR(bb_plan_monitor_option(&plan, "vmstat", "interval"), "2");
	CHECK_STR(bb_plan_monitor_option(&plan, "interrupts", "interval"), "0.5");
	CHECK(!bb_plan_monitor_option(&plan, "uptime", "interval"));
	CHECK(!bb_plan_monitor_option(&plan, "vmstat", "count"));
	bb_plan_free(&plan);
	free(text);
	bb_matrix_free(&m);
	bb_job_free(&job);

	/* a list is an axis: a boot each; a later document replaces the monitor's options */
	job = parse_ok("suite: netperf\nvmstat:\n  interval: [1, 2]\n" JOB_END);
	CHECK_INT(bb_matrix_expand(&job, &m, err, sizeof err), ==, 0);
	CHECK_INT(m.nboots, ==, 2);
	bb_matrix_free(&m);
	bb_job_free(&job);
	job = parse_ok("suite: netperf\nvmstat:\n  interval: 1\n" JOB_END "---\nvmstat:\n");
	CHECK_INT(job.ndocs, ==, 2);
	CHECK_STR(bb_jdoc_get(&job.docs[0], "monitor.vmstat.interval")->v[0].s, "1");
	CHECK(!bb_jdoc_get(&job.docs[1], "monitor.vmstat.interval"));
	bb_job_free(&job);
}

TEST(monitor_option_warnings_and_errors)
{
	/* unknown options: a warning with the place, the nearest option, the monitor's options */
	struct bb_job job = parse_ok("suite: netperf\n"
	                             "vmstat:\n"
	                             "  intervall: 2\n"
	                             "uptime: {every: 1}\n"
	                             "perf-profile:\n"
	                             "  debug_mode: 0\n"
	                             "  delay: 5\n"
	                             "iostat:\n"
	                             "  whatever: 1\n" JOB_END);
	CHECK_INT(job.warnings.n, ==, 2);
	CHECK_STR(job.warnings.v[0],
	          "t.yaml:3:3: vmstat: unknown option 'intervall' (did you mean "
	          "'interval'?); LKP's vmstat takes interval, count: ignored, as "
	          "LKP ignores it");
	CHECK_STR(job.warnings.v[1], "t.yaml:4:10: uptime: unknown option 'every'; LKP's uptime "
	                             "takes no options: ignored, as LKP ignores it");
	CHECK(!bb_jdoc_get(&job.docs[0], "monitor.vmstat.intervall"));
	bb_job_free(&job);
	/* bad values: errors naming file, line, column and key */
	CHECK_STR(
	    parse_err("suite: netperf\nvmstat:\n  interval: 2s\n" JOB_END),
	    "t.yaml:3:13: vmstat.interval: '2s' is not a number of seconds 0.01..86400 (e.g. 2 "
	    "or 0.5)");
	CHECK_STR(
	    parse_err("suite: netperf\nmeminfo: {interval: 0}\n" JOB_END),
	    "t.yaml:2:21: meminfo.interval: '0' is not a number of seconds 0.01..86400 (e.g. 2 "
	    "or 0.5)");
	CHECK_STR(parse_err("suite: netperf\nvmstat:\n  interval:\n" JOB_END),
	          "t.yaml:3:12: vmstat.interval: missing value");
	CHECK_STR(parse_err("suite: netperf\nvmstat:\n  interval: {a: 1}\n" JOB_END),
	          "t.yaml:3:13: vmstat.interval: expected a value, not a mapping");
	CHECK_STR(
	    parse_err("suite: netperf\nperf-profile:\n  delay: -1\n" JOB_END),
	    "t.yaml:3:10: perf-profile.delay: '-1' is not a number of seconds 0..86400 (e.g. 2 "
	    "or 0.5)");
	/* given twice: the last wins, with a warning (LKP's YAML reader takes the last) */
	struct bb_job twice =
	    parse_ok("suite: netperf\nvmstat:\n  interval: 1\n  interval: 2\n" JOB_END);
	CHECK_INT(twice.warnings.n, ==, 1);
	CHECK_CONTAINS(twice.warnings.v[0],
	               "t.yaml:3:3: interval: given again at line 4, which wins");
	CHECK_STR(bb_jdoc_get(&twice.docs[0], "monitor.vmstat.interval")->v[0].s, "2");
	bb_job_free(&twice);
}

TEST(monitor_set_default_job_keys_and_minus_keys)
{
	struct bb_strv run = {0}, missing = {0};
	/* LKP's include/category/benchmark, merged under the job's keys: the job's first */
	struct bb_job job = parse_ok("suite: netperf\ncategory: benchmark\nslabinfo:\nkmsg:\n"
	                             "vmstat-:\nperf-c2c-:\n" JOB_END);
	CHECK_INT(bb_job_monitors(&job, &run, &missing), ==, 0);
	CHECK_STR(joined(&run), "slabinfo uptime proc-vmstat meminfo interrupts softirqs cpuidle "
	                        "sched_debug mpstat");
	CHECK(!strstr(joined(&missing), "perf-c2c"));
	CHECK_STR(joined(&missing), "kmsg boot-time iostat heartbeat numa-numastat numa-vmstat "
	                            "numa-meminfo proc-stat lock_stat perf-sched bdi_dev_mapping "
	                            "diskstats nfsstat cpufreq-stats turbostat");
	CHECK_INT(job.warnings.n, ==, 0);
	bb_job_free(&job);
	/* without category: only the job's own */
	bb_strv_free(&run);
	bb_strv_free(&missing);
	job = parse_ok("suite: netperf\nmpstat:\nturbostat:\n" JOB_END);
	CHECK_INT(bb_job_monitors(&job, &run, &missing), ==, 0);
	CHECK_STR(joined(&run), "mpstat");
	CHECK_STR(joined(&missing), "turbostat");
	bb_job_free(&job);
	bb_strv_free(&run);
	bb_strv_free(&missing);
	/* a minus key of something that is not a monitor: LKP would drop it, a warning */
	job = parse_ok("suite: netperf\nfoo-:\n" JOB_END);
	CHECK_INT(job.warnings.n, ==, 1);
	CHECK_CONTAINS(job.warnings.v[0], "t.yaml:2:1: unknown key 'foo-' at the top level");
	bb_job_free(&job);
	/* the reasons check gives */
	CHECK_CONTAINS(bb_monitor_unavailable("numa-vmstat"), "needs a second NUMA node");
	CHECK_CONTAINS(bb_monitor_unavailable("turbostat"), "MSRs");
	CHECK(!bb_monitor_unavailable("vmstat"));
	CHECK(!bb_monitor_unavailable("iostat"));
}

TEST(run_monitors_lists)
{
	struct bb_strv out = {0};
	char err[1024];
	CHECK_INT(bb_monitors_from_list("none", &out, err, sizeof err), ==, 0);
	CHECK_INT(out.n, ==, 0);
	CHECK_INT(bb_monitors_from_list("default", &out, err, sizeof err), ==, 0);
	CHECK_STR(joined(&out), "uptime vmstat proc-vmstat meminfo slabinfo interrupts softirqs "
	                        "cpuidle sched_debug mpstat");
	/* perf's two among them, in LKP's order, as a job's `category: benchmark` has them */
	CHECK_INT(out.n, ==, 12);
	CHECK_STR(out.v[9], "perf-stat");
	CHECK_STR(out.v[11], "perf-profile");
	CHECK_INT(bb_monitors_from_list("vmstat,uptime,vmstat", &out, err, sizeof err), ==, 0);
	CHECK_STR(joined(&out), "vmstat uptime");
	CHECK_INT(bb_monitors_from_list("perf-profile,perf-stat", &out, err, sizeof err), ==, 0);
	CHECK_INT(out.n, ==, 2);
	CHECK_STR(out.v[0], "perf-profile");
	CHECK_STR(out.v[1], "perf-stat");
	static const struct {
		const char *list, *err;
	} bad[] = {
	    {"vmstat,upitme",
	     "'upitme' is not a monitor (did you mean 'uptime'?) (benchboot runs: "},
	    {"iostat", "'iostat': LKP's monitor, not implemented by benchboot (it runs: vmstat "},
	    {"numa-meminfo", "'numa-meminfo': needs a second NUMA node"},
	    {"perf-stt", "'perf-stt' is not a monitor (did you mean 'perf-stat'?) (benchboot runs: "
	                 "vmstat proc-vmstat meminfo interrupts softirqs uptime mpstat sched_debug "
	                 "cpuidle slabinfo perf-stat perf-profile)"},
	    {"", "expected none, default, or monitor names separated by commas (vmstat,uptime)"},
	    {"vmstat,", "expected none, default, or monitor names separated by commas"},
	    {"vmstat,default", "'default' stands alone, not in a list of names"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		CHECK_INT(bb_monitors_from_list(bad[i].list, &out, err, sizeof err), ==, -EINVAL);
		CHECK_CONTAINS(err, bad[i].err);
		CHECK_INT(out.n, ==, 0);
	}
	bb_strv_free(&out);
}

TEST(plan_monitor_option_keys_and_cmdline)
{
	static const char head[] = "benchboot-plan 1\nmonitors=vmstat,uptime vmstat\n";
	static const char run[] =
	    "[run r1]\nsuite=netperf\nruntime=1\nclient.arg=/usr/bin/netperf\n";
	char text[1024], err[256], report[512];
	struct bb_plan p;
	snprintf(text, sizeof text,
	         "%smonitor.vmstat.interval=2\nmonitor.perf-profile.events=cycles:pp,"
	         "instructions\n%s",
	         head, run);
	CHECK_INT(bb_plan_parse(text, strlen(text), &p, err, sizeof err), ==, 0);
	CHECK_STR(joined(&p.monitors), "vmstat uptime");
	CHECK_INT(p.monitors_cmdline, ==, 0);
	CHECK_STR(bb_plan_monitor_option(&p, "vmstat", "interval"), "2");
	CHECK_STR(bb_plan_monitor_option(&p, "perf-profile", "events"), "cycles:pp,instructions");
	/* the command line: run --monitors' list (commas), an option replaced, bad ones reported */
	CHECK_INT(bb_plan_cmdline(&p,
	                          "benchboot.monitors=uptime,meminfo "
	                          "benchboot.monitor.vmstat.interval=0.5 "
	                          "benchboot.monitor.vmstat.interval=x "
	                          "benchboot.monitor.vmstat=1",
	                          report, sizeof report),
	          ==, 2);
	CHECK_STR(joined(&p.monitors), "uptime meminfo");
	CHECK_INT(p.monitors_cmdline, ==, 1);
	CHECK_STR(bb_plan_monitor_option(&p, "vmstat", "interval"), "0.5");
	CHECK_STR(report,
	          "cmdline: benchboot.monitor.vmstat.interval: expected seconds 0.01..86400, "
	          "not 'x'\ncmdline: benchboot.monitor.vmstat: expected monitor.NAME.OPTION");
	bb_plan_free(&p);
	static const struct {
		const char *line, *err;
	} bad[] = {
	    {"monitor.vmstat.interval=0\n", "plan:3: monitor.vmstat.interval: expected seconds "
	                                    "0.01..86400, not '0'"},
	    {"monitor.vmstat.interval=1\nmonitor.vmstat.interval=2\n",
	     "plan:4: monitor.vmstat.interval: duplicate key"},
	    {"monitor.vm!stat.interval=1\n",
	     "plan:3: monitor.vm!stat.interval: bad monitor or option"},
	    {"monitor.vmstat.delay=\n", "plan:3: monitor.vmstat.delay: empty value"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(text, sizeof text, "%s%s%s", head, bad[i].line, run);
		CHECK_INT(bb_plan_parse(text, strlen(text), &p, err, sizeof err), ==, -EINVAL);
		CHECK_CONTAINS(err, bad[i].err);
	}
}

/* The raw file's samples (path under init_root): its `time: ` lines. */
static int samples(const char *path)
{
	char *raw = init_read(path, NULL);
	int n = 0;
	for (const char *t = raw; t && (t = strstr(t, "time: ")); t++)
		n += t == raw || t[-1] == '\n';
	free(raw);
	return n;
}

/* The sampler takes monitor.NAME.interval from the plan: meminfo every 0.1 s instead of 1 s,
 * interrupts (two snapshots by default) every 0.1 s, as LKP's monitor with an interval. */
TEST(sampler_interval_from_plan)
{
	const char *root = init_fake_root(NULL);
	test_write_file(root, "proc/meminfo", "MemTotal: 100 kB\nMemFree: 50 kB\n");
	test_write_file(root, "proc/interrupts", "  CPU0\nLOC: 1 Local timer interrupts\n");
	test_write_file(root, "proc/uptime", "1.00 2.00\n");
	init_mkdirs("/a", 0755);
	init_mkdirs("/b", 0755);
	struct bb_strv names = {0};
	bb_strv_add(&names, "meminfo");
	bb_strv_add(&names, "interrupts");
	bb_strv_add(&names, "uptime");
	struct timespec ts = {0, 550 * 1000 * 1000};
	/* LKP's times: meminfo at the start only (1 s), interrupts start and end */
	monitor_use_plan(NULL);
	pid_t pid = monitor_start(&names, "/a");
	CHECK(pid > 0);
	nanosleep(&ts, NULL);
	monitor_stop(pid);
	CHECK_INT(samples("/a/monitor.meminfo"), ==, 1);
	CHECK_INT(samples("/a/monitor.interrupts"), ==, 2);
	CHECK_INT(samples("/a/monitor.uptime"), ==, 1);
	static const char plan[] = "benchboot-plan 1\nmonitors=meminfo interrupts uptime\n"
	                           "monitor.meminfo.interval=0.1\nmonitor.interrupts.interval=0.1\n"
	                           "monitor.uptime.interval=0.1\n"
	                           "[run r1]\nsuite=netperf\nruntime=1\nclient.arg=/bin/true\n";
	struct bb_plan p;
	char err[256];
	CHECK_INT(bb_plan_parse(plan, strlen(plan), &p, err, sizeof err), ==, 0);
	monitor_use_plan(&p);
	pid = monitor_start(&names, "/b");
	CHECK(pid > 0);
	nanosleep(&ts, NULL);
	monitor_stop(pid);
	monitor_use_plan(NULL);
	int nm = samples("/b/monitor.meminfo"), ni = samples("/b/monitor.interrupts");
	CHECK(nm >= 4 && nm <= 7);
	CHECK(ni >= 4 && ni <= 7);
	CHECK_INT(samples("/b/monitor.uptime"), ==, 1); /* one read at the end */
	bb_plan_free(&p);
	bb_strv_free(&names);
}
