/* fsmark's parser in the init on output captured from benchboot's own images
 * (tests/fixtures/fsmark/README) -> LKP's stats. */
#include <errno.h>
#include <math.h>

#include "harness.h"
#include "stat_check.h"
#include "parse_fsmark.h"
#include "stats.h"

/* one loop: its line is the result */
TEST(fsmark_one_loop)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("fsmark/ext4-8k-one-loop.txt");
	const char *outs[1] = {out};
	CHECK_INT(parse_fsmark_stats(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 2);
	CHECK(stat_of(&s, "fsmark.files_per_sec") == 620.4);
	CHECK(stat_of(&s, "fsmark.app_overhead") == 421167);
	CHECK_STR(s.v[0].unit, "files/s");
	CHECK_STR(s.v[1].unit, "us");
	bb_stats_free(&s);
	free(out);
}

/* LKP's average over fs_mark's loops (-L 3) */
TEST(fsmark_loops_averaged)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("fsmark/xfs-8k-three-loops.txt");
	const char *outs[1] = {out};
	CHECK_INT(parse_fsmark_stats(outs, 1, &s, err, sizeof err), ==, 0);
	double f[3], o[3], files = 0, over = 0;
	const char *l = strstr(out, "\nFSUse%");
	CHECK(l != NULL);
	l = strchr(l + 1, '\n') + 1;
	for (int i = 0; i < 3; i++, l = strchr(l, '\n') + 1) {
		CHECK_INT(sscanf(l, "%*s %*s %*s %lf %lf", &f[i], &o[i]), ==, 2);
		files += f[i] / 3;
		over += o[i] / 3;
	}
	CHECK(fabs(stat_of(&s, "fsmark.files_per_sec") - files) < 1e-9 * files);
	CHECK(fabs(stat_of(&s, "fsmark.app_overhead") - over) < 1e-9 * over);
	bb_stats_free(&s);
	free(out);
}

/* the table ends at the first line that is not five fields (LKP's parse) */
TEST(fsmark_table_ends)
{
	struct bb_stats s = {0};
	char err[256];
	const char *outs[1] = {
	    "#  fs_mark\n\nFSUse%        Count         Size    Files/sec     App "
	    "Overhead\n    10         4096         8192        100.0      "
	    "1000\n    20         4096         8192        300.0      3000\n"
	    "Average 1 2 3 4 5 6\n    30 4096 8192 999.0 9\n"};
	CHECK_INT(parse_fsmark_stats(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK(stat_of(&s, "fsmark.files_per_sec") == 200.0);
	CHECK(stat_of(&s, "fsmark.app_overhead") == 2000.0);
	bb_stats_free(&s);
}

/* no result line: fs_mark's own last words in the reason, no stats (an incomplete run, as
 * LKP's parse prints nothing) */
TEST(fsmark_no_result)
{
	struct bb_stats s = {0};
	char err[256];
	const char *outs[1] = {"fs_mark -d /fs/ram0/1 -n 4096\nError in mkdir: No space left on "
	                       "device\n"};
	CHECK_INT(parse_fsmark_stats(outs, 1, &s, err, sizeof err), ==, -EINVAL);
	CHECK_INT(s.n, ==, 0);
	CHECK(strstr(err, "no result line") != NULL);
	CHECK(strstr(err, "Error in mkdir: No space left on device") != NULL);
}

/* through the init's table: the suite's name selects the parser */
TEST(fsmark_by_suite_name)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("fsmark/ext4-8k-one-loop.txt");
	const char *outs[1] = {out};
	CHECK_INT(stats_for_run("fsmark", outs, NULL, 1, 7.0, &s, err, sizeof err), ==, 0);
	CHECK(stat_of(&s, "fsmark.files_per_sec") == 620.4);
	bb_stats_free(&s);
	free(out);
}
