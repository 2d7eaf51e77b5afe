/*
 * compare: the statistics of the 0-day table, LKP's change rule, the JSON reader, reading
 * result folders (tests/fixtures/results) and matching runs, with expected values worked out by
 * hand (and checked separately with Python's statistics module).
 */
#include <errno.h>
#include <math.h>

#include "harness.h"
#include "host/compare/compare.h"
#include "host/compare/render.h"
#include "host/json.h"
#include "host/compare/results_tree.h"

TEST(sample_population_stddev)
{
	/* 2, 4, 4, 4, 5, 5, 7, 9: mean 5, population stddev exactly 2 */
	const double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct bb_sample s;
	bb_sample_compute(v, 8, &s);
	CHECK_NEAR(s.mean, 5, 1e-12);
	CHECK_NEAR(s.sd, 2, 1e-12);
	CHECK_NEAR(s.min, 2, 0);
	CHECK_NEAR(s.max, 9, 0);
	bb_sample_compute(v, 1, &s);
	CHECK_NEAR(s.sd, 0, 0);
	bb_sample_compute(v, 0, &s);
	CHECK_INT(s.n, ==, 0);
}

TEST(number_format)
{
	char b[32];
	CHECK_STR(bb_fmt_num(5.847e8, b, sizeof(b)), "5.847e+08");
	CHECK_STR(bb_fmt_num(9745088, b, sizeof(b)), "9745088");
	CHECK_STR(bb_fmt_num(1101.0767, b, sizeof(b)), "1101");
	CHECK_STR(bb_fmt_num(738.03, b, sizeof(b)), "738.0");
	CHECK_STR(bb_fmt_num(79.79, b, sizeof(b)), "79.79");
	CHECK_STR(bb_fmt_num(0, b, sizeof(b)), "0");
	CHECK_STR(bb_fmt_num(0.00012346, b, sizeof(b)), "0.0001235");
	CHECK_STR(bb_fmt_num(-12, b, sizeof(b)), "-12");
}

TEST(runid_params)
{
	struct bb_kvs p = {0};
	CHECK_INT(bb_runid_params("SCTP_STREAM_MANY.nr_threads=2.prsctp_enable=0", &p), ==, 0);
	CHECK_STR(bb_kvs_get(&p, "run"), "SCTP_STREAM_MANY");
	CHECK_STR(bb_kvs_get(&p, "nr_threads"), "2");
	CHECK_STR(bb_kvs_get(&p, "prsctp_enable"), "0");
	bb_kvs_free(&p);
	CHECK_INT(bb_runid_params("icmp-flood.testtime=1.5.nr_threads=100%", &p), ==, 0);
	CHECK_STR(bb_kvs_get(&p, "run"), "icmp-flood");
	CHECK_STR(bb_kvs_get(&p, "testtime"), "1.5");
	CHECK_STR(bb_kvs_get(&p, "nr_threads"), "100%");
	bb_kvs_free(&p);
}

TEST(boot_params_words)
{
	struct bb_kvs p = {0};
	CHECK_INT(bb_kvs_parse_words(&p, "cgroup.mode=v1 kernel_cmdline=quiet%20mitigations=off "
	                                 "nr=25%25"),
	          ==, 0);
	CHECK_STR(bb_kvs_get(&p, "cgroup.mode"), "v1");
	CHECK_STR(bb_kvs_get(&p, "kernel_cmdline"), "quiet mitigations=off");
	CHECK_STR(bb_kvs_get(&p, "nr"), "25%");
	bb_kvs_free(&p);
}

TEST(load_collect_folder)
{
	struct bb_results r;
	char err[512];
	CHECK_INT(bb_results_load(test_fixture("results/cgroup"), &r, err, sizeof(err)), ==, 0);
	CHECK_INT(r.nboots, ==, 6);
	CHECK_STR(r.boots[0].name, "0001-8f3c2a1b");
	CHECK_STR(bb_kvs_get(&r.boots[0].env, "cgroup.mode_requested"), "v1");
	CHECK_STR(bb_kvs_get(&r.boots[1].env, "cgroup.mounts.0.type"), "cgroup2");
	CHECK_STR(bb_kvs_get(&r.boots[1].params, "cgroup.mode"), "v2");
	CHECK_STR(bb_kvs_get(&r.boots[1].params, "cgroup.controllers"), "memory");
	CHECK_INT(r.boots[0].done, ==, 1);
	CHECK_INT(r.boots[0].nruns, ==, 1);
	const struct bb_res_run *run = &r.boots[0].runs[0];
	CHECK_STR(bb_kvs_get(&run->params, "send_size"), "10K");
	CHECK_INT(run->params_derived, ==, 0);
	const struct bb_res_stat *st = bb_run_stat(run, "netperf.Throughput_Mbps");
	CHECK(st && st->n == 1);
	CHECK_NEAR(st->vals[0], 1093.41, 0);
	/* lookups: exact, alias, unique suffix */
	const char *res;
	CHECK_STR(bb_run_lookup(run, "cgroup", &res), "v1");
	CHECK_STR(res, "boot:cgroup.mode");
	CHECK_STR(bb_run_lookup(run, "kernel", &res), "6.1.0-57-amd64");
	CHECK_STR(res, "env:kernel.release");
	CHECK_STR(bb_run_lookup(run, "image", &res),
	          "c3f1a9e07b22d4159e0d5b7a4e2c8f61d0b9a3e57c4f2186ab09d7e3c5f1b824");
	CHECK_STR(res, "env:image_id");
	CHECK_STR(bb_run_lookup(run, "cmdline", &res),
	          "console=ttyS0 panic=-1 quiet benchboot.cgroup.mode=v1");
	CHECK_STR(res, "env:kernel.cmdline");
	CHECK_STR(bb_run_lookup(run, "total_kB", &res), "1004328");
	CHECK_STR(res, "env:memory.total_kB");
	CHECK(!bb_run_lookup(run, "no_such_key", NULL));
	bb_results_free(&r);

	/* one boot folder; params only in the RUNID; no done file */
	CHECK_INT(
	    bb_results_load(test_fixture("results/prsctp/0001-0badf00d"), &r, err, sizeof(err)), ==,
	    0);
	CHECK_INT(r.nboots, ==, 1);
	CHECK_INT(r.boots[0].done, ==, 0);
	CHECK_INT(r.boots[0].nruns, ==, 2);
	CHECK_INT(r.boots[0].runs[1].params_derived, ==, 1);
	CHECK_STR(bb_kvs_get(&r.boots[0].runs[1].params, "prsctp_enable"), "1");
	CHECK_INT(bb_run_stat(&r.boots[0].runs[1], "netperf.Throughput_Mbps")->n, ==, 4);
	bb_results_free(&r);

	/* failed iterations and the sysctl read back from status */
	CHECK_INT(bb_results_load(test_fixture("results/kernels/B"), &r, err, sizeof(err)), ==, 0);
	run = &r.boots[0].runs[1];
	CHECK_INT(run->iterations, ==, 3);
	CHECK_INT(run->failed_iterations, ==, 1);
	CHECK_STR(bb_kvs_get(&run->env, "sysctl.net.sctp.prsctp_enable.actual"), "1");
	CHECK_STR(bb_run_lookup(run, "prsctp_enable", NULL), "1");
	bb_results_free(&r);

	CHECK_INT(bb_results_load(test_fixture("results"), &r, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "no results here");
	CHECK_INT(bb_results_load("/nonexistent/x", &r, err, sizeof(err)), ==, -ENOENT);
	CHECK_CONTAINS(err, "No such file");
}

TEST(load_malformed)
{
	const char *d = test_tmpdir();
	char err[512];
	struct bb_results r;
	test_write_file(d, "0001-x/env.json", "{\"kernel\": {\"release\": \"6.1\"}}");
	test_write_file(d, "0001-x/runs/R.a=1/results.json", "{\"s\": [1, 2,]}");
	CHECK_INT(bb_results_load(d, &r, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "0001-x/runs/R.a=1/results.json: line 1 col 13:");
	test_write_file(d, "0001-x/runs/R.a=1/results.json", "[1]");
	CHECK_INT(bb_results_load(d, &r, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "results.json: line 1 col 1: expected '{'");
}

/* Sides split by KEY=value from one loaded folder. */
static void split(const struct bb_results *r, const char *key, const char *va, const char *vb,
                  struct bb_side s[2])
{
	struct bb_kvs c = {0};
	memset(s, 0, 2 * sizeof(*s));
	bb_kvs_set(&c, key, va);
	CHECK_INT(bb_side_add(&s[0], r, &c), ==, 0);
	bb_kvs_free(&c);
	bb_kvs_set(&c, key, vb);
	CHECK_INT(bb_side_add(&s[1], r, &c), ==, 0);
	bb_kvs_free(&c);
	s[0].label = strdup(va);
	s[1].label = strdup(vb);
}

TEST(compare_cgroup_v1_v2)
{
	struct bb_results r;
	struct bb_side s[2];
	struct bb_comparison c;
	char err[1024];
	const char *axis[] = {"cgroup"};
	CHECK_INT(bb_results_load(test_fixture("results/cgroup"), &r, err, sizeof(err)), ==, 0);
	split(&r, "cgroup", "v1", "v2", s);
	CHECK_INT(bb_compare(&s[0], &s[1], axis, 1, &c, err, sizeof(err)), ==, 0);
	CHECK_INT(c.boots_a, ==, 3);
	CHECK_INT(c.nruns, ==, 1);
	/*
	 * environment: the cgroup fields, boot group and params and the cmdline differ; boot ids
	 * and setup timings do not count; the list cgroup.mounts differs as a set of mounts
	 */
	CHECK_INT(c.nenv, ==, 8);
	CHECK_STR(c.env[3].key, "cgroup.mode_requested");
	CHECK_STR(c.env[3].a, "v1");
	CHECK_STR(c.env[3].b, "v2");
	CHECK_INT(c.env[3].is_set, ==, 0);
	CHECK_STR(c.env[4].key, "cgroup.mounts");
	CHECK_INT(c.env[4].is_set, ==, 1);
	CHECK_STR(c.env[4].a,
	          "{options=rw,relatime path=/sys/fs/cgroup type=tmpfs} "
	          "{options=rw,relatime,memory path=/sys/fs/cgroup/memory type=cgroup}");
	CHECK_STR(c.env[4].b, "{options=rw,relatime path=/sys/fs/cgroup type=cgroup2}");
	CHECK_STR(c.env[7].key, "kernel.cmdline");
	const struct bb_run_cmp *rc = &c.runs[0];
	CHECK_INT(rc->nstats, ==, 4);
	const struct bb_stat_cmp *tp = &rc->stats[0];
	CHECK_STR(tp->name, "netperf.Throughput_Mbps");
	/* (1093.41 + 1108.17 + 1101.65) / 3 = 1101.0767; (998.12 + 1004.57 + 991.30) / 3 = 997.9967
	 */
	CHECK_NEAR(tp->sa.mean, 1101.076667, 1e-6);
	CHECK_NEAR(tp->sb.mean, 997.996667, 1e-6);
	CHECK_NEAR(tp->sa.sd, 6.039367, 1e-6);
	CHECK_NEAR(tp->sb.sd, 5.418157, 1e-6);
	CHECK_NEAR(tp->change, -9.3617, 1e-4);
	/* 3 boots a side, independent: Fieller's interval on per-boot means (test_compare_stats.c)
	 */
	CHECK_INT(tp->iv.basis, ==, BB_IV_BOOTS);
	CHECK_NEAR(tp->iv.lo, -10.7246939833, 1e-6);
	CHECK_NEAR(tp->iv.hi, -7.97777346195, 1e-6);
	CHECK(tp->lkp && tp->interval && tp->significant);
	/* LKP's KPI, higher is better: a -9.4% regression, as 0-day would head its report */
	CHECK_CLOSE(tp->kpi, 1);
	CHECK_STR(tp->verdict, "regression");
	/* elapsed time: 10.02/10.01/10.02 vs 10.02/10.03/10.02, +0.07%: no change */
	const struct bb_stat_cmp *el = &rc->stats[2];
	CHECK_STR(el->name, "netperf.time.elapsed_time");
	CHECK(!el->significant);
	CHECK(!el->verdict && el->kpi == 0);
	CHECK_INT(c.nsignificant, ==, 3);
	bb_comparison_free(&c);
	bb_side_free(&s[0]);
	bb_side_free(&s[1]);
	bb_results_free(&r);
}

/* env records as flattened env.json: KEY=VALUE lines */
static void env_record(struct bb_kvs *p, const char *const *kv)
{
	memset(p, 0, sizeof(*p));
	for (; *kv; kv += 2)
		bb_kvs_set(p, kv[0], kv[1]);
}

TEST(env_lists_diff_as_sets)
{
	static const char *const a0[] = {"modules.loaded.0",
	                                 "sctp",
	                                 "modules.loaded.1",
	                                 "virtio_pci",
	                                 "modules.loaded.2",
	                                 "virtio_ring",
	                                 "modules.loaded.3",
	                                 "dummy",
	                                 "kernel.release",
	                                 "6.1",
	                                 NULL};
	/* one module fewer, one other: index by index, every later line would differ */
	static const char *const b0[] = {"modules.loaded.0",
	                                 "sctp",
	                                 "modules.loaded.1",
	                                 "dummy",
	                                 "modules.loaded.2",
	                                 "e1000",
	                                 "kernel.release",
	                                 "6.1",
	                                 NULL};
	/* the same set in another order: no difference */
	static const char *const b1[] = {"modules.loaded.0",
	                                 "dummy",
	                                 "modules.loaded.1",
	                                 "sctp",
	                                 "modules.loaded.2",
	                                 "virtio_ring",
	                                 "modules.loaded.3",
	                                 "virtio_pci",
	                                 "kernel.release",
	                                 "6.2",
	                                 NULL};
	struct bb_kvs ra, rb, rc;
	env_record(&ra, a0);
	env_record(&rb, b0);
	env_record(&rc, b1);
	const struct bb_kvs *A[] = {&ra}, *B[] = {&rb}, *C[] = {&rc};
	struct bb_env_diff *d;
	size_t n;
	CHECK_INT(bb_env_diff_compute(A, 1, B, 1, &d, &n), ==, 0);
	CHECK_INT(n, ==, 1);
	CHECK_STR(d[0].key, "modules.loaded");
	CHECK_INT(d[0].is_set, ==, 1);
	CHECK_STR(d[0].a, "virtio_pci virtio_ring");
	CHECK_STR(d[0].b, "e1000");
	bb_env_diffs_free(d, n);
	CHECK_INT(bb_env_diff_compute(A, 1, C, 1, &d, &n), ==, 0);
	CHECK_INT(n, ==, 1);
	CHECK_STR(d[0].key, "kernel.release");
	CHECK_INT(d[0].is_set, ==, 0);
	bb_env_diffs_free(d, n);
	/* several boots a side: the elements any boot of a side has and no boot of the other */
	const struct bb_kvs *AB[] = {&ra, &rb};
	CHECK_INT(bb_env_diff_compute(AB, 2, C, 1, &d, &n), ==, 0);
	CHECK_STR(d[1].key, "modules.loaded");
	CHECK_STR(d[1].a, "e1000");
	CHECK_STR(d[1].b, "");
	bb_env_diffs_free(d, n);
	bb_kvs_free(&ra);
	bb_kvs_free(&rb);
	bb_kvs_free(&rc);
}

TEST(compare_single_sample_and_zero_mean)
{
	struct bb_results ra, rb;
	struct bb_side s[2];
	struct bb_comparison c;
	char err[1024];
	memset(s, 0, sizeof(s));
	CHECK_INT(bb_results_load(test_fixture("results/kernels/A"), &ra, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_results_load(test_fixture("results/kernels/B"), &rb, err, sizeof(err)), ==, 0);
	bb_side_add(&s[0], &ra, NULL);
	bb_side_add(&s[1], &rb, NULL);
	s[0].label = strdup("A");
	s[1].label = strdup("B");
	CHECK_INT(bb_compare(&s[0], &s[1], NULL, 0, &c, err, sizeof(err)), ==, 0);
	CHECK_INT(c.nenv, ==, 1);
	CHECK_STR(c.env[0].key, "kernel.release");
	CHECK_INT(c.nruns, ==, 2);
	/* prsctp_enable=1: B has 2 throughput samples (one iteration failed), 1 total sample */
	const struct bb_run_cmp *rc = &c.runs[1];
	CHECK_STR(bb_kvs_get(&rc->params, "sysctl.net.sctp.prsctp_enable"), "1");
	CHECK_INT(rc->failed_b, ==, 1);
	const struct bb_stat_cmp *tot = &rc->stats[1];
	CHECK_STR(tot->name, "netperf.Throughput_total_Mbps");
	CHECK_INT(tot->nb, ==, 1);
	CHECK_INT(tot->iv.basis, ==, BB_IV_NONE);
	/* (1462.4 + 1489.6 + 1476.0) / 3 = 1476 -> 1405: -4.81% */
	CHECK_NEAR(tot->change, 100 * (1405.0 - 1476.0) / 1476.0, 1e-9);
	CHECK(tot->lkp && !tot->interval);
	/* throughput: one boot a side, so an interval of the iterations only, and no I mark */
	const struct bb_stat_cmp *thr = &rc->stats[0];
	CHECK_INT(thr->iv.basis, ==, BB_IV_ITERATIONS);
	CHECK(thr->iv.excludes_zero && !thr->interval && thr->lkp);
	/* major page faults: A all 0, so %change is undefined; B 0 and 3 overlap A: no LKP change
	 */
	const struct bb_stat_cmp *mpf = &rc->stats[2];
	CHECK_STR(mpf->name, "netperf.time.major_page_faults");
	CHECK_INT(mpf->change_defined, ==, 0);
	CHECK_NEAR(mpf->sa.mean, 0, 0);
	CHECK(!mpf->lkp);
	CHECK(!mpf->iv.bounded);
	/* prsctp_enable=0: -0.94%, under 1%: nothing */
	CHECK_INT(c.runs[0].nsignificant, ==, 0);
	bb_comparison_free(&c);
	bb_side_free(&s[0]);
	bb_side_free(&s[1]);
	bb_results_free(&ra);
	bb_results_free(&rb);
}

TEST(compare_refuses_different_parameters)
{
	struct bb_results r;
	struct bb_side s[2];
	struct bb_comparison c;
	char err[1024];
	CHECK_INT(bb_results_load(test_fixture("results/prsctp"), &r, err, sizeof(err)), ==, 0);
	split(&r, "prsctp_enable", "0", "1", s);
	/* not told that prsctp_enable is the axis: refused, naming the parameter */
	CHECK_INT(bb_compare(&s[0], &s[1], NULL, 0, &c, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "no run of 0 has the same parameters as a run of 1");
	CHECK_CONTAINS(err, "prsctp_enable (A: 0; B: 1)");
	CHECK_CONTAINS(err, "--axis");
	const char *axis[] = {"prsctp_enable"};
	CHECK_INT(bb_compare(&s[0], &s[1], axis, 1, &c, err, sizeof(err)), ==, 0);
	CHECK_INT(c.nruns, ==, 1);
	CHECK_STR(c.runs[0].axis_a, "prsctp_enable=0");
	CHECK_NEAR(c.runs[0].stats[0].change, 100 * (742.175 - 806.3) / 806.3, 1e-9);
	CHECK_INT(c.nnotes, ==, 1);
	CHECK_CONTAINS(c.notes[0], "did not finish");
	bb_comparison_free(&c);
	bb_side_free(&s[0]);
	bb_side_free(&s[1]);
	bb_results_free(&r);
}

TEST(run_json_kernel_labels)
{
	const char *d = test_tmpdir();
	char err[512];
	struct bb_results r;
	/* the init writes "boot_params": null for a plan without boot parameters */
	static const char env[] = "{\"kernel\": {\"release\": \"6.1\"}, \"boot_params\": null}";
	test_write_file(d, "0001-aaaa/env.json", env);
	test_write_file(d, "0001-aaaa/runs/T/results.json", "{\"s\": [1]}");
	test_write_file(d, "0002-bbbb/env.json", env);
	test_write_file(d, "0002-bbbb/runs/T/results.json", "{\"s\": [2]}");
	test_write_file(d, "run.json",
	                "{\"boots\": [{\"boot_id\": \"aaaa\", \"params\": {\"kernel\": \"A\"}},"
	                " {\"boot_id\": \"bbbb\", \"params\": {\"kernel\": \"B\"},"
	                "  \"kernel_stalls\": 2, \"kernel_stall\": \"[ 24.9] rcu: INFO: stall\"},"
	                " {\"boot_id\": null, \"outcome\": \"panic\"}]}");
	CHECK_INT(bb_results_load(d, &r, err, sizeof(err)), ==, 0);
	CHECK_INT(r.nboots, ==, 2);
	CHECK_STR(bb_kvs_get(&r.boots[0].labels, "kernel"), "A");
	CHECK_STR(bb_kvs_get(&r.boots[1].labels, "kernel"), "B");
	CHECK_INT(r.boots[0].params.n, ==, 0);
	CHECK_INT(r.boots[1].params.n, ==, 0);
	CHECK_INT(r.boots[0].kernel_stalls, ==, 0);
	CHECK(!r.boots[0].kernel_stall);
	CHECK_INT(r.boots[1].kernel_stalls, ==, 2);
	CHECK_STR(r.boots[1].kernel_stall, "[ 24.9] rcu: INFO: stall");
	/* "kernel" is the label now, not the release */
	const char *res;
	CHECK_STR(bb_run_lookup(&r.boots[1].runs[0], "kernel", &res), "B");
	CHECK_STR(res, "label:kernel");
	/* labels are not matched: A and B compare, and the label shows with the environment */
	struct bb_side s[2];
	struct bb_comparison c;
	memset(s, 0, sizeof(s));
	struct bb_kvs ca = {0}, cb = {0};
	bb_kvs_set(&ca, "boot", "0001-aaaa");
	bb_kvs_set(&cb, "boot", "0002-bbbb");
	bb_side_add(&s[0], &r, &ca);
	bb_side_add(&s[1], &r, &cb);
	s[0].label = strdup("A");
	s[1].label = strdup("B");
	CHECK_INT(bb_compare(&s[0], &s[1], NULL, 0, &c, err, sizeof(err)), ==, 0);
	CHECK_INT(c.nenv, ==, 1);
	CHECK_STR(c.env[0].key, "label.kernel");
	CHECK_STR(c.env[0].a, "A");
	CHECK_STR(c.env[0].b, "B");
	CHECK_NEAR(c.runs[0].stats[0].change, 100, 1e-12);
	/* the boot whose kernel reported stalls is named in the notes, once */
	char want[4300];
	snprintf(
	    want, sizeof(want),
	    "boot %s/0002-bbbb: the kernel reported 2 lockup or stall reports during the boot, "
	    "the first: [ 24.9] rcu: INFO: stall",
	    d);
	int noted = 0;
	for (size_t i = 0; i < c.nnotes; i++)
		noted += !strcmp(c.notes[i], want);
	CHECK_INT(noted, ==, 1);
	for (size_t i = 0; i < c.nnotes; i++)
		CHECK(!strstr(c.notes[i], "0001-aaaa: the kernel"));
	CHECK_INT(c.stalled_boots_a, ==, 0);
	CHECK_INT(c.stalled_boots_b, ==, 1);
	bb_comparison_free(&c);
	bb_side_free(&s[0]);
	bb_side_free(&s[1]);
	bb_kvs_free(&ca);
	bb_kvs_free(&cb);
	bb_results_free(&r);
	/* one boot folder: run.json of the folder above */
	char one[4200];
	snprintf(one, sizeof(one), "%s/0002-bbbb", d);
	CHECK_INT(bb_results_load(one, &r, err, sizeof(err)), ==, 0);
	CHECK_STR(bb_kvs_get(&r.boots[0].labels, "kernel"), "B");
	bb_results_free(&r);
}

/* The four boots of a --parallel run (A1 with B1, A2 with B2 side by side, or as side_by_side
 * says), compared by kernel. */
static void compare_side_by_side(const char *d, const char *sbs[4], struct bb_comparison *c)
{
	static const char *const ids[] = {"a1", "b1", "a2", "b2"};
	/* the second pair ran on a faster host: about +10% in both pairs */
	static const char *const vals[] = {"{\"s\": [100, 100]}", "{\"s\": [110, 110]}",
	                                   "{\"s\": [104, 104]}", "{\"s\": [114.6, 114.6]}"};
	char p[256], json[2048] = "{\"boots\": [";
	char err[512];
	for (int i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "000%d-%s/env.json", i + 1, ids[i]);
		test_write_file(d, p, "{\"kernel\": {\"release\": \"6.1\"}}");
		snprintf(p, sizeof(p), "000%d-%s/runs/T/results.json", i + 1, ids[i]);
		test_write_file(d, p, vals[i]);
		size_t l = strlen(json);
		snprintf(json + l, sizeof(json) - l,
		         "%s{\"boot_id\": \"%s\", \"params\": {\"kernel\": \"%c\"}, "
		         "\"side_by_side\": %s}",
		         i ? ", " : "", ids[i], i % 2 ? 'B' : 'A', sbs[i]);
	}
	strcat(json, "]}");
	test_write_file(d, "run.json", json);
	struct bb_results r;
	struct bb_side s[2];
	struct bb_kvs ca = {0}, cb = {0};
	memset(s, 0, sizeof(s));
	CHECK_INT(bb_results_load(d, &r, err, sizeof(err)), ==, 0);
	bb_kvs_set(&ca, "kernel", "A");
	bb_kvs_set(&cb, "kernel", "B");
	bb_side_add(&s[0], &r, &ca);
	bb_side_add(&s[1], &r, &cb);
	s[0].label = strdup("A");
	s[1].label = strdup("B");
	const char *axis = "kernel";
	CHECK_INT(bb_compare(&s[0], &s[1], &axis, 1, c, err, sizeof(err)), ==, 0);
	bb_side_free(&s[0]);
	bb_side_free(&s[1]);
	bb_kvs_free(&ca);
	bb_kvs_free(&cb);
	bb_results_free(&r);
}

/*
 * Boots that ran side by side (run.json's side_by_side), an A and a B each time, are paired:
 * the host's speed at the time cancels in the pair (here: +10% and +10.2% in pairs 4% apart,
 * a narrow interval; unpaired the 4% between the pairs widens it); boots that ran alone, or
 * side by side with their own side, stay independent boots.
 */
TEST(compare_pairs_boots_run_side_by_side)
{
	struct bb_comparison c;
	const char *pairs[4] = {
	    "{\"group\": 0, \"slot\": 0, \"host_cpus\": \"0\", \"partners\": [\"b1\"]}",
	    "{\"group\": 0, \"slot\": 1, \"host_cpus\": \"1\", \"partners\": [\"a1\"]}",
	    "{\"group\": 1, \"slot\": 1, \"host_cpus\": \"1\", \"partners\": [\"b2\"]}",
	    "{\"group\": 1, \"slot\": 0, \"host_cpus\": \"0\", \"partners\": [\"a2\"]}"};
	compare_side_by_side(test_tmpdir(), pairs, &c);
	const struct bb_stat_cmp *st = &c.runs[0].stats[0];
	CHECK_INT(st->side_by_side, ==, 1);
	CHECK_INT(st->iv.paired, ==, 1);
	CHECK_INT(st->iv.basis, ==, BB_IV_BOOTS);
	CHECK_NEAR(st->iv.df, 1, 1e-12);
	CHECK(st->iv.bounded && st->iv.lo > 8 && st->iv.hi < 12);
	double paired_width = st->iv.hi - st->iv.lo;
	bb_comparison_free(&c);

	const char *alone[4] = {"null", "null", "null", "null"};
	compare_side_by_side(test_tmpdir(), alone, &c);
	st = &c.runs[0].stats[0];
	CHECK_INT(st->side_by_side, ==, 0);
	CHECK_INT(st->iv.paired, ==, 0);
	CHECK(!st->iv.bounded || st->iv.hi - st->iv.lo > 5 * paired_width);
	bb_comparison_free(&c);

	/* A1 with A2 and B1 with B2: no pair of an A and a B */
	const char *same_side[4] = {
	    "{\"group\": 0, \"partners\": [\"a2\"]}", "{\"group\": 1, \"partners\": [\"b2\"]}",
	    "{\"group\": 0, \"partners\": [\"a1\"]}", "{\"group\": 1, \"partners\": [\"b1\"]}"};
	compare_side_by_side(test_tmpdir(), same_side, &c);
	CHECK_INT(c.runs[0].stats[0].side_by_side, ==, 0);
	CHECK_INT(c.runs[0].stats[0].iv.paired, ==, 0);
	bb_comparison_free(&c);
}

/* Boot 0001-aaaa (side A) against boot 0002-bbbb (side B) of r: bb_compare's result. */
static int compare_boots_a_b(const struct bb_results *r, struct bb_comparison *c, char *err,
                             size_t errlen)
{
	struct bb_side s[2];
	struct bb_kvs ca = {0}, cb = {0};
	memset(s, 0, sizeof(s));
	bb_kvs_set(&ca, "boot", "0001-aaaa");
	bb_kvs_set(&cb, "boot", "0002-bbbb");
	bb_side_add(&s[0], r, &ca);
	bb_side_add(&s[1], r, &cb);
	s[0].label = strdup("A");
	s[1].label = strdup("B");
	int rc = bb_compare(&s[0], &s[1], NULL, 0, c, err, errlen);
	bb_side_free(&s[0]);
	bb_side_free(&s[1]);
	bb_kvs_free(&ca);
	bb_kvs_free(&cb);
	return rc;
}

/*
 * Warm-up iterations (the init's runs/RUNID/warmup-K folders, or an iteration folder whose
 * status says "warmup") are kept apart: not counted as iterations, their values never read,
 * never compared; compare says how many it left out.
 */
TEST(warmup_never_compared)
{
	const char *d = test_tmpdir();
	char err[512];
	struct bb_results r;
	static const char *const boots[] = {"0001-aaaa", "0002-bbbb"};
	char p[256];
	for (int b = 0; b < 2; b++) {
		/* the init's layout: results.json of the measured iterations, warm-up apart */
		snprintf(p, sizeof(p), "%s/env.json", boots[b]);
		test_write_file(d, p, "{\"kernel\": {\"release\": \"6.1\"}}");
		snprintf(p, sizeof(p), "%s/runs/T.x=1/results.json", boots[b]);
		test_write_file(d, p, b ? "{\"s\": [20, 22]}" : "{\"s\": [10, 12]}");
		for (int i = 1; i <= 2; i++) {
			snprintf(p, sizeof(p), "%s/runs/T.x=1/%d/status", boots[b], i);
			test_write_file(d, p, "{\"status\": \"ok\", \"params\": {\"x\": \"1\"}}");
		}
		snprintf(p, sizeof(p), "%s/runs/T.x=1/warmup-1/status", boots[b]);
		test_write_file(d, p,
		                "{\"status\": \"ok\", \"warmup\": 1, \"params\": {\"x\": \"1\"}}");
		snprintf(p, sizeof(p), "%s/runs/T.x=1/warmup-1/results.json", boots[b]);
		test_write_file(d, p, "{\"s\": [1000]}");
		/* a layout with per-iteration results only: iteration 3 is marked warm-up */
		for (int i = 1; i <= 3; i++) {
			snprintf(p, sizeof(p), "%s/runs/U.x=1/%d/status", boots[b], i);
			test_write_file(d, p,
			                i == 3
			                    ? "{\"status\": \"ok\", \"warmup\": true}"
			                    : "{\"status\": \"ok\", \"params\": {\"y\": \"2\"}}");
			snprintf(p, sizeof(p), "%s/runs/U.x=1/%d/results.json", boots[b], i);
			test_write_file(d, p,
			                i == 3 ? "{\"u\": [5000]}"
			                : b    ? "{\"u\": [4]}"
			                       : "{\"u\": [2]}");
		}
	}
	CHECK_INT(bb_results_load(d, &r, err, sizeof(err)), ==, 0);
	CHECK_INT(r.nboots, ==, 2);
	for (size_t k = 0; k < r.boots[0].nruns; k++) {
		const struct bb_res_run *run = &r.boots[0].runs[k];
		CHECK_INT(run->iterations, ==, 2);
		CHECK_INT(run->warmups, ==, 1);
		CHECK_INT(run->failed_iterations, ==, 0);
		CHECK_INT(run->stats[0].n, ==, 2);
	}
	struct bb_comparison c;
	CHECK_INT(compare_boots_a_b(&r, &c, err, sizeof(err)), ==, 0);
	CHECK_INT(c.nruns, ==, 2);
	for (size_t k = 0; k < c.nruns; k++) {
		const struct bb_stat_cmp *st = &c.runs[k].stats[0];
		CHECK_INT(st->na, ==, 2);
		CHECK_INT(st->nb, ==, 2);
		CHECK_NEAR(st->change, 100 * (st->sb.mean / st->sa.mean - 1), 1e-12);
		CHECK(st->sa.max < 100 && st->sb.max < 100); /* no warm-up value */
	}
	CHECK_NEAR(c.runs[0].stats[0].sa.mean, 11, 1e-12);
	int noted = 0;
	for (size_t i = 0; i < c.nnotes; i++)
		noted |= !strcmp(c.notes[i],
		                 "warm-up iterations kept apart, not compared: 2 in A, 2 in B");
	CHECK_INT(noted, ==, 1);
	bb_comparison_free(&c);
	bb_results_free(&r);
}

/*
 * Monitored iterations (runs/RUNID/monitored-K, docs/results.md) are kept apart: the test's
 * stats come from the measured iterations only (a monitored iteration's own test value, slowed
 * by its monitors, is never read), the monitors' stats from the monitored iterations; compare
 * says so.
 */
TEST(monitored_iterations_give_monitor_stats_only)
{
	const char *d = test_tmpdir();
	char err[512];
	struct bb_results r;
	static const char *const boots[] = {"0001-aaaa", "0002-bbbb"};
	char p[256];
	for (int b = 0; b < 2; b++) {
		snprintf(p, sizeof(p), "%s/env.json", boots[b]);
		test_write_file(d, p, "{\"kernel\": {\"release\": \"6.1\"}}");
		snprintf(p, sizeof(p), "%s/runs/T.x=1/results.json", boots[b]);
		test_write_file(d, p,
		                b ? "{\"netperf.Throughput_Mbps\": [20, 22]}"
		                  : "{\"netperf.Throughput_Mbps\": [10, 12]}");
		for (int i = 1; i <= 2; i++) {
			snprintf(p, sizeof(p), "%s/runs/T.x=1/%d/status", boots[b], i);
			test_write_file(d, p, "{\"status\": \"ok\", \"params\": {\"x\": \"1\"}}");
		}
		snprintf(p, sizeof(p), "%s/runs/T.x=1/monitored-1/status", boots[b]);
		test_write_file(d, p, "{\"status\": \"ok\", \"monitored\": 1}");
		snprintf(p, sizeof(p), "%s/runs/T.x=1/monitored-1/results.json", boots[b]);
		test_write_file(
		    d, p,
		    b ? "{\"netperf.Throughput_Mbps\": [3], \"vmstat.system.cs\": [900]}"
		      : "{\"netperf.Throughput_Mbps\": [2], \"vmstat.system.cs\": [300]}");
	}
	CHECK_INT(bb_results_load(d, &r, err, sizeof(err)), ==, 0);
	CHECK_INT(r.nboots, ==, 2);
	const struct bb_res_run *run = &r.boots[0].runs[0];
	CHECK_INT(run->iterations, ==, 2);
	CHECK_INT(run->monitored, ==, 1);
	const struct bb_res_stat *tp = bb_run_stat(run, "netperf.Throughput_Mbps");
	const struct bb_res_stat *cs = bb_run_stat(run, "vmstat.system.cs");
	CHECK(tp && cs);
	if (tp && cs) {
		CHECK_INT(tp->n, ==, 2); /* the measured iterations' only */
		CHECK_NEAR(tp->vals[0] + tp->vals[1], 22, 1e-12);
		CHECK_INT(cs->n, ==, 1);
		CHECK_NEAR(cs->vals[0], 300, 1e-12);
	}
	struct bb_comparison c;
	CHECK_INT(compare_boots_a_b(&r, &c, err, sizeof(err)), ==, 0);
	int noted = 0;
	for (size_t i = 0; i < c.nnotes; i++)
		noted |=
		    !strncmp(c.notes[i],
		             "the monitors' stats come from the monitored iterations kept apart "
		             "(1 in A, 1 in B)",
		             80);
	CHECK_INT(noted, ==, 1);
	bb_comparison_free(&c);
	bb_results_free(&r);
}

/* A boot folder DIR/FOLDER with env.json (kernel 6.1) and one run T of one value. */
static void one_run_boot(const char *dir, const char *folder)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/env.json", folder);
	test_write_file(dir, p, "{\"kernel\": {\"release\": \"6.1\"}}");
	snprintf(p, sizeof(p), "%s/runs/T/results.json", folder);
	test_write_file(dir, p, "{\"s\": [1]}");
}

/*
 * The kernel's reports (run.json's "dmesg", a two-host boot's server host's too) become LKP's
 * failure stats: per stat the boots of each side that showed it, of the boots whose console was
 * read (a boot whose entry has no "dmesg" is not counted); changed when one side never showed
 * it; printed in LKP's fail:runs columns.
 */
TEST(kernel_reports_as_lkp_failure_stats)
{
	const char *d = test_tmpdir();
	char err[512];
	struct bb_results r;
	static const char *const boots[] = {"a1", "a2", "a3", "b1", "b2", "b3"};
	for (size_t i = 0; i < 6; i++) {
		char folder[64];
		snprintf(folder, sizeof(folder), "000%zu-%s", i + 1, boots[i]);
		one_run_boot(d, folder);
	}
	test_write_file(
	    d, "run.json",
	    "{\"boots\": ["
	    "{\"boot_id\": \"a1\", \"params\": {\"kernel\": \"A\"}, \"dmesg\": {}},"
	    "{\"boot_id\": \"a2\", \"params\": {\"kernel\": \"A\"}, \"dmesg\": "
	    "{\"dmesg.WARNING:x\": "
	    "\"[ 1.0] WARNING: x\"}},"
	    "{\"boot_id\": \"a3\", \"params\": {\"kernel\": \"A\"}},"
	    "{\"boot_id\": \"b1\", \"params\": {\"kernel\": \"B\"}, \"dmesg\": "
	    "{\"dmesg.WARNING:x\": "
	    "\"[ 2.0] WARNING: x\", \"dmesg.BUG:y\": \"[ 3.0] BUG: y\"}},"
	    "{\"boot_id\": \"b2\", \"params\": {\"kernel\": \"B\"}, \"dmesg\": "
	    "{\"dmesg.WARNING:x\": "
	    "\"[ 4.0] WARNING: x\"}},"
	    "{\"boot_id\": \"b3\", \"params\": {\"kernel\": \"B\"}, \"dmesg\": null, "
	    "\"server_host\": {\"dmesg\": {\"dmesg.BUG:y\": \"[ 5.0] BUG: y\"}}},"
	    /* a boot that left no results: on B by its label, counted in fail:runs */
	    "{\"boot_id\": null, \"params\": {\"kernel\": \"B\"}, \"outcome\": \"panic\", "
	    "\"detail\": \"[ 6.0] Kernel panic - not syncing: z\", \"console\": \"/c/b4.log\", "
	    "\"dmesg\": {\"dmesg.Kernel_panic-not_syncing:z\": \"[ 6.0] Kernel panic - not "
	    "syncing: z\"}},"
	    /* a host not booted (--only) is no boot */
	    "{\"boot_id\": null, \"params\": {\"kernel\": \"B\"}, \"outcome\": "
	    "\"not-booted\"}]}");
	CHECK_INT(bb_results_load(d, &r, err, sizeof(err)), ==, 0);
	struct bb_side s[2];
	struct bb_comparison c;
	split(&r, "kernel", "A", "B", s);
	CHECK_INT(bb_compare(&s[0], &s[1], NULL, 0, &c, err, sizeof(err)), ==, 0);
	CHECK_INT(r.nbare, ==, 1);
	CHECK_INT(s[1].nbare, ==, 1);
	CHECK_INT(c.bare_boots_a, ==, 0);
	CHECK_INT(c.bare_boots_b, ==, 1);
	CHECK_INT(c.nfails, ==, 3);
	CHECK_STR(c.fails[0].name, "dmesg.BUG:y");
	CHECK_INT(c.fails[0].fails_a, ==, 0);
	CHECK_INT(c.fails[0].runs_a, ==, 2); /* a3 said nothing */
	CHECK_INT(c.fails[0].fails_b, ==, 2);
	CHECK_INT(c.fails[0].runs_b, ==, 4); /* b3 by its server host, and the bare boot */
	CHECK_NEAR(c.fails[0].reproduction, 50, 1e-9);
	CHECK_INT(c.fails[0].lkp_changed, ==, 1);
	CHECK_STR(c.fails[0].first, "[ 3.0] BUG: y");
	CHECK_STR(c.fails[1].name, "dmesg.Kernel_panic-not_syncing:z");
	CHECK_INT(c.fails[1].fails_b, ==, 1);
	CHECK_INT(c.fails[1].lkp_changed, ==, 1);
	CHECK_STR(c.fails[2].name, "dmesg.WARNING:x");
	CHECK_INT(c.fails[2].fails_a, ==, 1);
	CHECK_INT(c.fails[2].fails_b, ==, 2);
	CHECK_NEAR(c.fails[2].reproduction, 0, 1e-9);
	CHECK_INT(c.fails[2].lkp_changed, ==, 0); /* both sides showed it: LKP reports no change */
	CHECK_STR(c.fails[2].first, "[ 1.0] WARNING: x");
	CHECK_INT(c.nfails_changed, ==, 2);
	char want[4400];
	snprintf(
	    want, sizeof(want),
	    "B: a boot has no run results (%s/run.json entry 7, kernel=B): panic: [ 6.0] Kernel "
	    "panic - not syncing: z (console log: /c/b4.log)",
	    d);
	int noted = 0;
	for (size_t i = 0; i < c.nnotes; i++)
		noted += !strcmp(c.notes[i], want);
	CHECK_INT(noted, ==, 1);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bb_comparison_print(f, &c, 0);
	fclose(f);
	CHECK_CONTAINS(text, "B: B (3 boots; 1 more without run results)\n");
	CHECK_CONTAINS(text, "       fail:runs  %reproduction    fail:runs\n"
	                     "           |             |             |    \n"
	                     "           :2           50%           2:4     dmesg.BUG:y\n"
	                     "           :2           25%           1:4     "
	                     "dmesg.Kernel_panic-not_syncing:z\n"
	                     "          1:2            0%           2:4     dmesg.WARNING:x\n");
	CHECK_CONTAINS(text, "2 kernel reports changed by LKP's rule for failure stats");
	free(text);
	bb_comparison_free(&c);
	bb_side_free(&s[0]);
	bb_side_free(&s[1]);
	bb_results_free(&r);
}

/* A side whose every boot left no results (a kernel that panics at each boot) is no run to
 * compare: compare says how its boots ended; a folder of such boots only says so too. */
TEST(side_without_results_says_how_its_boots_ended)
{
	const char *d = test_tmpdir();
	char err[4600];
	struct bb_results r;
	one_run_boot(d, "0001-a1");
	/* a boot folder with no run in it: the init crashed after env.json was synced */
	test_write_file(d, "0002-b2/env.json", "{\"kernel\": {\"release\": \"6.1\"}}");
	test_write_file(d, "run.json",
	                "{\"boots\": [{\"boot_id\": \"a1\", \"params\": {\"kernel\": \"A\"}},"
	                "{\"boot_id\": \"b2\", \"params\": {\"kernel\": \"B\"}, \"outcome\": "
	                "\"init-crash\", \"detail\": \"signal 11 in step run\"},"
	                "{\"boot_id\": null, \"params\": {\"kernel\": \"B\"}, \"outcome\": "
	                "\"panic\", \"detail\": \"Kernel panic - not syncing: z\", \"console\": "
	                "\"/c/b1.log\"}]}");
	CHECK_INT(bb_results_load(d, &r, err, sizeof(err)), ==, 0);
	struct bb_side s[2];
	struct bb_comparison c;
	split(&r, "kernel", "A", "B", s);
	CHECK_INT(bb_compare(&s[0], &s[1], NULL, 0, &c, err, sizeof(err)), ==, -EINVAL);
	CHECK_INT(s[1].nbare, ==, 2);
	CHECK_STR(err, "B has no run to compare: its 2 boots left no run results, the first: "
	               "init-crash: signal 11 in step run");
	CHECK_STR(s[1].bare[1]->outcome, "panic");
	bb_side_free(&s[0]);
	bb_side_free(&s[1]);
	bb_results_free(&r);
	/* the same boot alone in a folder */
	char only[4200];
	snprintf(only, sizeof(only), "%s/b", d);
	test_write_file(only, "run.json",
	                "{\"boots\": [{\"boot_id\": null, \"outcome\": \"hang\", \"detail\": \"no "
	                "console output for 60 s\", \"console\": \"/c/b2.log\"}]}");
	CHECK_INT(bb_results_load(only, &r, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "no results here: run.json records 1 boot that left none, the first "
	                    "hang: no console output for 60 s (console log: /c/b2.log)");
}

/* A boot collected from its disk has no console log: its kmsg.log (the init's copy of the
 * kernel's log) gives its kernel reports; a boot with neither has them unknown. */
TEST(kernel_reports_from_kmsg_log)
{
	const char *d = test_tmpdir();
	char err[512];
	struct bb_results r;
	one_run_boot(d, "0001-a1");
	test_write_file(
	    d, "0001-a1/kmsg.log",
	    "[    0.000000] Linux version 6.1.0-57-amd64\n"
	    "[    5.000000] WARNING: CPU: 0 PID: 1 at kernel/foo.c:123 bar+0x12/0x40\n");
	one_run_boot(d, "0002-b1");
	CHECK_INT(bb_results_load(d, &r, err, sizeof(err)), ==, 0);
	CHECK_INT(r.nboots, ==, 2);
	CHECK_INT(r.boots[0].dmesg_read, ==, 1);
	CHECK_INT(r.boots[0].dmesg.n, ==, 1);
	CHECK_STR(r.boots[0].dmesg.v[0].key, "dmesg.WARNING:at_kernel/foo.c:#bar");
	CHECK_INT(r.boots[1].dmesg_read, ==, 0);
	bb_results_free(&r);
}

/* The walk of a folder a boot at a time: each boot once, in folder order, the boots run.json
 * records without a folder after them (bare); a nonzero return of the callback ends the walk
 * and is what the walk returns, whatever its value (-EPERM is -1, as the loader's own). */
struct walk_seen {
	char names[8][64];
	int bare[8], n, stop_at, rc;
};

static int walk_note(struct bb_res_boot *boot, int bare, void *ctx)
{
	struct walk_seen *s = ctx;
	if (s->n < 8) {
		snprintf(s->names[s->n], sizeof s->names[0], "%s", boot->name);
		s->bare[s->n] = bare;
	}
	return ++s->n == s->stop_at ? s->rc : 0;
}

TEST(walk_boot_at_a_time)
{
	const char *d = test_tmpdir();
	char err[512];
	one_run_boot(d, "0001-a1");
	one_run_boot(d, "0002-b1");
	test_write_file(d, "run.json",
	                "{\"boots\": [{\"boot_id\": \"a1\", \"outcome\": \"poweroff\"}, "
	                "{\"boot_id\": \"c1\", \"outcome\": \"panic\"}]}");
	struct walk_seen s = {.stop_at = 0};
	CHECK_INT(bb_results_each(d, walk_note, &s, err, sizeof(err)), ==, 0);
	CHECK_INT(s.n, ==, 3);
	CHECK_STR(s.names[0], "0001-a1");
	CHECK_STR(s.names[1], "0002-b1");
	CHECK_INT(s.bare[1], ==, 0);
	CHECK_INT(s.bare[2], ==, 1);
	CHECK_CONTAINS(s.names[2], "run.json entry 2");
	struct walk_seen stop = {.stop_at = 1, .rc = -EPERM};
	CHECK_INT(bb_results_each(d, walk_note, &stop, err, sizeof(err)), ==, -EPERM);
	CHECK_INT(stop.n, ==, 1);
	struct walk_seen pos = {.stop_at = 2, .rc = 7};
	CHECK_INT(bb_results_each(d, walk_note, &pos, err, sizeof(err)), ==, 7);
	CHECK_INT(pos.n, ==, 2);
}
