/*
 * LKP's perf monitors (lib/parse/parse_perf*.c) on the raw files of a 2-vCPU TCG boot of this
 * project's image (tests/fixtures/monitors/tcg-2cpu.perf-{stat,profile}: the iteration folder of
 * tests/fixtures/monitors/netperf-sctp-perf.yaml, an 8 s SCTP_STREAM_MANY run). The expected
 * values were worked out from those files by hand and with LKP's regular expressions; then
 * LKP's rules on small made-up output, and the folding of perf script's output.
 */
#include <errno.h>
#include <math.h>

#include "harness.h"
#include "parse/parse_perf.h"
#include "plan/plan.h"

static double value(const struct bb_stats *s, const char *name)
{
	const struct bb_stat *st = bb_stats_find(s, name);
	if (!st)
		bb_test_fail(__FILE__, __LINE__, "no stat %s", name);
	return st->value;
}

static size_t count_prefix(const struct bb_stats *s, const char *prefix)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		n += !strncmp(s->v[i].name, prefix, strlen(prefix));
	return n;
}

TEST(perf_stat_tcg_software_events_lkp_rates_and_totals)
{
	struct bb_stats s = {0};
	char uns[256] = "x", err[256] = "";
	CHECK_INT(bb_perf_stat_stats(test_slurp("monitors/tcg-2cpu.perf-stat"), &s, uns, sizeof uns,
	                             err, sizeof err),
	          ==, 0);
	CHECK_STR(uns, ""); /* no hardware event was asked for without a PMU */
	/* 9 intervals at 1.002 2.107 ... 8.147 8.366 s: the last (cut by the end) is left out; i.
	 * is the mean of the 8 rates value / interval, ps. the 8 values' sum / 8.366 (the last
	 * timestamp, as LKP's run_time) */
	CHECK_CLOSE(value(&s, "perf-stat.i.cpu-clock"), 2013.7131502133927);
	CHECK_CLOSE(value(&s, "perf-stat.ps.cpu-clock"), 1960.5860962788515);
	CHECK_CLOSE(value(&s, "perf-stat.i.context-switches"), 538.0756788852882);
	CHECK_CLOSE(value(&s, "perf-stat.ps.context-switches"), 523.2940591260968);
	CHECK(bb_stats_find(&s, "perf-stat.i.task-clock"));
	CHECK(bb_stats_find(&s, "perf-stat.ps.cpu-migrations"));
	CHECK(!bb_stats_find(&s, "perf-stat.i.major-faults")); /* 0 in every interval: dropped */
	CHECK(!bb_stats_find(&s, "perf-stat.ps.major-faults"));
	CHECK(!bb_stats_find(&s, "perf-stat.total.instructions")); /* no instructions counted */
	CHECK_INT(s.n, ==, 12);
	bb_stats_free(&s);
}

/* Made-up output of a machine with a PMU, in perf 6.1's -x , format. */
static const char hw_raw[] =
    "/usr/bin/perf stat -a --scale -I 1000 -x , -e "
    "{cpu-cycles,instructions,cache-references,cache-misses},{dTLB-loads,dTLB-load-misses},"
    "cpu-clock,context-switches --log-fd 1\n"
    "     1.000100000,2000000,,cpu-cycles,1000000000,100.00,2.000,GHz\n"
    "     1.000100000,1000000,,instructions,1000000000,100.00,0.50,insn per cycle\n"
    "     1.000100000,4000,,cache-references,1000000000,100.00,4.000,K/sec\n"
    "     1.000100000,1000,,cache-misses,1000000000,100.00,25.00,of all cache refs\n"
    "     1.000100000,<not supported>,,dTLB-loads,0,100.00,,\n"
    "     1.000100000,<not supported>,,dTLB-load-misses,0,100.00,,\n"
    "     1.000100000,1000.00,msec,cpu-clock,1000000000,100.00,1.000,CPUs utilized\n"
    "     1.000100000,300,,context-switches,1000000000,100.00,300.000,/sec\n"
    "     2.000100000,4000000,,cpu-cycles,1000000000,100.00,4.000,GHz\n"
    "     2.000100000,3000000,,instructions,1000000000,100.00,0.75,insn per cycle\n"
    "     2.000100000,6000,,cache-references,1000000000,100.00,6.000,K/sec\n"
    "     2.000100000,3000,,cache-misses,1000000000,100.00,50.00,of all cache refs\n"
    "     2.000100000,1000.00,msec,cpu-clock,1000000000,100.00,1.000,CPUs utilized\n"
    "     2.000100000,100,,context-switches,1000000000,100.00,100.000,/sec\n"
    "     2.500100000,9,,cpu-cycles,500000000,100.00,,\n"
    "     2.500100000,9,,instructions,500000000,100.00,,\n"
    "     2.500100000,500.00,msec,cpu-clock,500000000,100.00,1.000,CPUs utilized\n";

TEST(perf_stat_derived_metrics_and_unsupported_events)
{
	struct bb_stats s = {0};
	char uns[256], err[256] = "";
	CHECK_INT(bb_perf_stat_stats(hw_raw, &s, uns, sizeof uns, err, sizeof err), ==, 0);
	CHECK_STR(uns, "dTLB-loads dTLB-load-misses");
	CHECK(!bb_stats_find(&s, "perf-stat.i.dTLB-loads")); /* no zeros in its place */
	/* two intervals (1.0001 s, 1.0 s), the third cut; a line without its metric fields has
	 * fewer than 7 after the time: LKP skips it (the third's cpu-cycles) */
	CHECK_CLOSE(value(&s, "perf-stat.i.cpu-cycles"), (2000000 / 1.0001 + 4000000 / 1.0) / 2);
	/* run_time is LKP's prev_time at the end: with one line parsed in the last interval,
	 * the timestamp before it */
	CHECK_CLOSE(value(&s, "perf-stat.ps.instructions"), 4000000 / 2.0001);
	CHECK_CLOSE(value(&s, "perf-stat.total.instructions"), 4000000);
	CHECK_CLOSE(value(&s, "perf-stat.overall.ipc"), 4000000.0 / 6000000);
	CHECK_CLOSE(value(&s, "perf-stat.overall.cpi"), 6000000.0 / 4000000);
	CHECK_CLOSE(value(&s, "perf-stat.i.ipc"), (0.5 + 0.75) / 2);
	CHECK_CLOSE(value(&s, "perf-stat.overall.cache-miss-rate%"), 4000 * 100.0 / 10000);
	CHECK_CLOSE(value(&s, "perf-stat.overall.MPKI"), 4000.0 / 4000000 * 1000);
	CHECK_CLOSE(value(&s, "perf-stat.overall.cycles-between-cache-misses"), 6000000.0 / 4000);
	/* LKP's metric keys: a unit starting with a capital and no blank (K/sec) */
	CHECK_CLOSE(value(&s, "perf-stat.i.metric.K/sec"), (4.0 + 6.0) / 2);
	CHECK_CLOSE(value(&s, "perf-stat.i.metric.GHz"), (2.0 + 4.0) / 2);
	CHECK(!bb_stats_find(&s, "perf-stat.i.metric.CPUs utilized"));
	bb_stats_free(&s);
	/* no command line: LKP's parse knows no event and gives up */
	const char *nocmd = strchr(hw_raw, '\n') + 1;
	CHECK_INT(bb_perf_stat_stats(nocmd, &s, NULL, 0, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, "no `perf stat ... -e EVENTS` line");
	CHECK_INT(s.n, ==, 0);
}

TEST(perf_profile_tcg_report_lkp_names)
{
	struct bb_stats s = {0};
	char ev[64], err[256] = "";
	CHECK_INT(bb_perf_profile_stats(test_slurp("monitors/tcg-2cpu.perf-profile"), &s, ev,
	                                sizeof ev, err, sizeof err),
	          ==, 0);
	CHECK_STR(ev, "cpu-clock"); /* `# Samples: 6K of event 'cpu-clock'` */
	/* `    14.10%     0.05%  [kernel.kallsyms]  [k] sctp_sendmsg` */
	CHECK_CLOSE(value(&s, "perf-profile.children.cpu-clock.sctp_sendmsg"), 14.10);
	CHECK_CLOSE(value(&s, "perf-profile.self.cpu-clock.native_safe_halt"), 71.34);
	CHECK_CLOSE(value(&s, "perf-profile.children.cpu-clock.secondary_startup_64_no_verify"),
	            73.17);
	/* the first five frames of `14.10% sctp_sendmsg;__sock_sendmsg;...` */
	CHECK_CLOSE(value(&s, "perf-profile.calltrace.cpu-clock.sctp_sendmsg.__sock_sendmsg."
	                      "____sys_sendmsg.___sys_sendmsg.__sys_sendmsg"),
	            14.10);
	/* do_softirq.part.0 as do_softirq */
	CHECK(bb_stats_find(&s, "perf-profile.calltrace.cpu-clock.do_softirq.__local_bh_enable_ip."
	                        "__dev_queue_xmit.ip_finish_output2.ip_output"));
	/* 100 calltraces, 216 children, 114 self >= 0.05 (LKP's regular expressions on the file),
	 * none below; 15 of the calltraces' names are longer than benchboot's 127 bytes */
	CHECK_INT(count_prefix(&s, "perf-profile.calltrace.cpu-clock."), ==, 85);
	CHECK_INT(count_prefix(&s, "perf-profile.children.cpu-clock."), ==, 216);
	CHECK_INT(count_prefix(&s, "perf-profile.self.cpu-clock."), ==, 114);
	CHECK_INT(s.n, ==, 415);
	for (size_t i = 0; i < s.n; i++)
		CHECK(s.v[i].value >= 0.05);
	CHECK(!bb_stats_find(&s, "perf-profile.self.cpu-clock.do_idle")); /* 0.00% self */
	bb_stats_free(&s);
}

TEST(perf_profile_event_names_and_bad_input)
{
	struct bb_stats s = {0};
	char ev[64], err[256] = "";
	static const char rep[] = "# ========\n# captured on: x\n# ========\n#\n"
	                          "# Samples: 489  of event 'cycles:pp'\n"
	                          "#\n"
	                          "    50.00%    10.00%  [kernel.kallsyms]  [k] foo.isra.0\n"
	                          "50.00% foo.isra.0;bar.constprop.12;baz;a;b;c\n"
	                          "0.04% tiny;x\n"
	                          "0.03% tiny;x\n";
	CHECK_INT(bb_perf_profile_stats(rep, &s, ev, sizeof ev, err, sizeof err), ==, 0);
	CHECK_STR(ev, "cycles-pp");
	CHECK_CLOSE(value(&s, "perf-profile.children.cycles-pp.foo"), 50);
	CHECK_CLOSE(value(&s, "perf-profile.self.cycles-pp.foo"), 10);
	CHECK_CLOSE(value(&s, "perf-profile.calltrace.cycles-pp.foo.bar.baz.a.b"), 50);
	CHECK_CLOSE(value(&s, "perf-profile.calltrace.cycles-pp.tiny.x"), 0.07); /* summed */
	CHECK_INT(s.n, ==, 4);
	bb_stats_free(&s);
	CHECK_INT(bb_perf_profile_stats("# Samples: 1K of event 'x'\n", &s, ev, sizeof ev, err,
	                                sizeof err),
	          ==, -EINVAL);
	CHECK_CONTAINS(err, "not a perf report made with --header");
}

TEST(perf_script_folded_stacks)
{
	/* perf script -F comm,ip,sym,dso: a header line, then the chain leaf first */
	static const char *const lines[] = {
	    "netperf ",
	    "\t    ffffffffc0a41d20 sctp_sendmsg ([sctp])",
	    "\t    ffffffff9a6a2b6e __sock_sendmsg ([kernel.kallsyms])",
	    "\t    ffffffff9ae0008b entry_SYSCALL_64_after_hwframe ([kernel.kallsyms])",
	    "\t        7f3a5c91a8e4 [unknown] ([unknown])",
	    "",
	    "netperf ",
	    "\t    ffffffffc0a41d20 sctp_sendmsg ([sctp])",
	    "\t    ffffffff9a6a2b6e __sock_sendmsg ([kernel.kallsyms])",
	    "\t    ffffffff9ae0008b entry_SYSCALL_64_after_hwframe ([kernel.kallsyms])",
	    "\t        7f3a5c91a8e4 [unknown] ([unknown])",
	    "",
	    "kworker/0:1 H ",
	    "\t    ffffffff9a0f1234 operator new; odd ([kernel.kallsyms])",
	    "",
	    "swapper ",
	    "\t    ffffffff9ae1a2b1 native_safe_halt ([kernel.kallsyms])",
	    "\t    ffffffff9ae1a5c0 default_idle_call ([kernel.kallsyms])",
	    NULL};
	struct bb_perf_fold *f = bb_perf_fold_new();
	CHECK(f != NULL);
	for (size_t i = 0; lines[i]; i++)
		CHECK_INT(bb_perf_fold_line(f, lines[i]), ==, 0);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	CHECK_INT(bb_perf_fold_write(f, "cpu-clock", out), ==, 4);
	fclose(out);
	CHECK_STR(text, "# event: cpu-clock\n"
	                "netperf;[unknown];entry_SYSCALL_64_after_hwframe_[k];__sock_sendmsg_[k];"
	                "sctp_sendmsg_[k] 2\n"
	                "kworker/0:1_H;operator_new__odd_[k] 1\n"
	                "swapper;default_idle_call_[k];native_safe_halt_[k] 1\n");
	free(text);
	bb_perf_fold_free(f);
}

TEST(plan_monitor_options_and_perf_monitors)
{
	static const char plan[] = "benchboot-plan 1\n"
	                           "monitors=vmstat perf-stat perf-profile\n"
	                           "monitor.perf-profile.delay=5\n"
	                           "monitor.vmstat.interval=2\n"
	                           "[run r1]\n"
	                           "suite=netperf\n"
	                           "runtime=1\n"
	                           "client.arg=/usr/bin/netperf\n";
	struct bb_plan p;
	char err[256], report[512];
	if (bb_plan_parse(plan, strlen(plan), &p, err, sizeof err))
		bb_test_fail(__FILE__, __LINE__, "plan: %s", err);
	CHECK_INT(p.monitors.n, ==, 3);
	CHECK_STR(bb_plan_monitor_option(&p, "perf-profile", "delay"), "5");
	CHECK_STR(bb_plan_monitor_option(&p, "vmstat", "interval"), "2");
	CHECK(!bb_plan_monitor_option(&p, "perf-profile", "duration"));
	/* the command line sets or overrides one */
	CHECK_INT(bb_plan_cmdline(&p,
	                          "benchboot.monitor.perf-profile.duration=3 "
	                          "benchboot.monitor.perf-profile.delay=1",
	                          report, sizeof report),
	          ==, 0);
	CHECK_STR(bb_plan_monitor_option(&p, "perf-profile", "duration"), "3");
	CHECK_STR(bb_plan_monitor_option(&p, "perf-profile", "delay"), "1");
	bb_plan_free(&p);
	static const char dup[] = "benchboot-plan 1\nmonitor.perf-stat.interval=1\n"
	                          "monitor.perf-stat.interval=2\n[run r1]\n"
	                          "suite=netperf\nruntime=1\nclient.arg=/usr/bin/netperf\n";
	CHECK_INT(bb_plan_parse(dup, strlen(dup), &p, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, "plan:3: monitor.perf-stat.interval: duplicate key");
	static const char bad[] = "benchboot-plan 1\nmonitor.perf-stat=1\n[run r1]\n"
	                          "suite=netperf\nruntime=1\nclient.arg=/usr/bin/netperf\n";
	CHECK_INT(bb_plan_parse(bad, strlen(bad), &p, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, "plan:2: monitor.perf-stat: expected monitor.NAME.OPTION");
	CHECK(bb_monitor_known("perf-stat") && bb_monitor_known("perf-profile") &&
	      bb_monitor_known("vmstat") && !bb_monitor_known("turbostat"));
}
