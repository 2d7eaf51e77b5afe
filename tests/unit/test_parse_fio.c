/* fio's parser in the init on output captured from benchboot's own images
 * (tests/fixtures/fio/README) -> LKP's stats (its programs/fio/parse). */
#include <errno.h>
#include <math.h>

#include "harness.h"
#include "parse_fio.h"
#include "stats.h"

static double stat_of(const struct bb_stats *s, const char *name)
{
	const struct bb_stat *st = bb_stats_find(s, name);
	if (!st)
		bb_test_fail(__FILE__, __LINE__, "no stat %s", name);
	return st ? st->value : NAN;
}

/* random writes: fio's write numbers of the first job; bw in KiB/s / 1024; the reads' 0 */
TEST(fio_randwrite)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("fio/ext4-4k-randwrite.txt");
	const char *outs[1] = {out};
	CHECK_INT(parse_fio_stats(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK(stat_of(&s, "fio.write_iops") == 15997.400520);
	CHECK(stat_of(&s, "fio.write_bw_MBps") == 63989 / 1024.0);
	CHECK(stat_of(&s, "fio.write_clat_mean_ns") == 51854.397635);
	CHECK(stat_of(&s, "fio.write_clat_90%_ns") == 101888);
	CHECK(stat_of(&s, "fio.write_clat_95%_ns") >= 101888);
	CHECK(stat_of(&s, "fio.write_clat_99%_ns") >= stat_of(&s, "fio.write_clat_95%_ns"));
	CHECK(stat_of(&s, "fio.write_slat_mean_us") == 0);
	CHECK(stat_of(&s, "fio.read_iops") == 0);
	CHECK(stat_of(&s, "fio.read_bw_MBps") == 0);
	/* no read I/O: fio gives no percentiles, LKP's parse none */
	CHECK(bb_stats_find(&s, "fio.read_clat_90%_ns") == NULL);
	CHECK(stat_of(&s, "fio.workload") == 80003);
	CHECK(stat_of(&s, "fio.latency_250us%") == 9.237154);
	CHECK(stat_of(&s, "fio.latency_2ms%") == 0.023749);
	CHECK(stat_of(&s, "fio.latency_>=2000ms%") == 0);
	CHECK_STR(bb_stats_find(&s, "fio.write_bw_MBps")->unit, "MB/s");
	CHECK_STR(bb_stats_find(&s, "fio.write_clat_99%_ns")->unit, "ns");
	bb_stats_free(&s);
	free(out);
}

/* random reads, through the init's table: the suite's name selects the parser; the stats agree
 * with fio's JSON as Python reads it */
TEST(fio_randread_by_suite_name)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("fio/ext4-4k-randread.txt");
	const char *outs[1] = {out};
	CHECK_INT(stats_for_run("fio-basic", outs, NULL, 1, 7.0, &s, err, sizeof err), ==, 0);
	const char *j = strstr(out, "\"read\" : {");
	double iops = 0, total = 0;
	CHECK(j != NULL);
	CHECK_INT(sscanf(strstr(j, "\"total_ios\" :"), "\"total_ios\" : %lf", &total), ==, 1);
	CHECK_INT(sscanf(strstr(j, "\"iops\" :"), "\"iops\" : %lf", &iops), ==, 1);
	CHECK(iops > 0);
	CHECK(stat_of(&s, "fio.read_iops") == iops);
	CHECK(stat_of(&s, "fio.workload") == total);
	CHECK(stat_of(&s, "fio.read_clat_99%_ns") > 0);
	CHECK(stat_of(&s, "fio.write_iops") == 0);
	bb_stats_free(&s);
	free(out);
}

/* no JSON (fio failed before its report), or JSON cut short: the reason, no stats */
TEST(fio_no_json)
{
	struct bb_stats s = {0};
	char err[256];
	const char *outs[1] = {"fio: pid=0, err=28/file:io_u.c:1889, func=io_u error, "
	                       "error=No space left on device\n"};
	CHECK_INT(parse_fio_stats(outs, 1, &s, err, sizeof err), ==, -EINVAL);
	CHECK_INT(s.n, ==, 0);
	CHECK(strstr(err, "no JSON") != NULL);
	char *out = test_slurp("fio/ext4-4k-randwrite.txt");
	out[strlen(out) / 2] = 0;
	outs[0] = out;
	CHECK_INT(parse_fio_stats(outs, 1, &s, err, sizeof err), ==, -EINVAL);
	CHECK(strstr(err, "cut short") != NULL);
	CHECK_INT(s.n, ==, 0);
	free(out);
}
