/* The progress of a boot read from its console (lib/host/run/progress.c): the event lines and
 * the terminal's status line, warm-up iterations told apart from the measured ones. */
#include "harness.h"
#include "host/run/progress.h"

struct seen {
	char said[8][512];
	int nsaid;
	char status[512];
};

static void say(void *ctx, enum bb_run_say to, const char *line)
{
	struct seen *s = ctx;
	if (s->nsaid < 8)
		snprintf(s->said[s->nsaid++], sizeof(s->said[0]), "%s", line);
}

static void status(void *ctx, const char *line)
{
	snprintf(((struct seen *)ctx)->status, sizeof(((struct seen *)ctx)->status), "%s", line);
}

static void feed(struct bb_progress *p, const char *line)
{
	bb_progress_line(p, line);
	bb_progress_tick(p);
}

TEST(progress_warmup_then_measured)
{
	struct seen s = {0};
	struct bb_run_opts o = {.say = say, .status = status, .ctx = &s};
	struct bb_plan plan = {.warmup = 2};
	struct bb_progress p = {
	    .o = &o, .boot_no = 1, .nboots = 1, .plan = &plan, .kernel_name = "A"};
	feed(&p, "BENCHBOOT boot-start id=b1 runs=1 iterations=3 order=interleaved seed=1");
	feed(&p, "BENCHBOOT run-start id=R iter=0/3 runtime=10 clients=1 pos=2/5 warmup=2");
	CHECK(strstr(s.status, "run 1/1 R warm-up 2/2, ") != NULL);
	CHECK(strstr(s.status, "iter 0/") == NULL);
	CHECK_STR(s.said[s.nsaid - 1], "boot 1/1: run 1/1 R warm-up 2/2 (10 s)");
	feed(&p, "BENCHBOOT run-end id=R iter=0 warmup=2 status=ok elapsed=10.20");
	CHECK_STR(s.said[s.nsaid - 1], "boot 1/1: run 1/1 R warm-up 2: ok in 10.2 s");
	feed(&p, "BENCHBOOT run-start id=R iter=1/3 runtime=10 clients=1 pos=3/5");
	CHECK(strstr(s.status, "run 1/1 R iter 1/3, ") != NULL);
	CHECK(strstr(s.status, "warm-up") == NULL);
	CHECK_INT(p.ok + p.failed, ==, 0); /* the warm-up is not counted as an iteration */
}

/* Without the plan (an image built elsewhere) the count is at least the one in progress. */
TEST(progress_warmup_without_plan)
{
	struct seen s = {0};
	struct bb_run_opts o = {.say = say, .status = status, .ctx = &s};
	struct bb_progress p = {.o = &o, .boot_no = 2, .nboots = 3, .kernel_name = "B"};
	feed(&p, "BENCHBOOT boot-start id=b2 runs=2 iterations=2");
	feed(&p, "BENCHBOOT run-start id=S iter=0/1 runtime=5 clients=1 pos=1/3 warmup=1");
	CHECK(strstr(s.status, "boot 2/3 B: run 1/2 S warm-up 1/1, ") != NULL);
}

/* A 0-day job's run: its parameters on the progress line, the lkp.* keys of the attachment
 * (queue, host, submit id) not. */
TEST(progress_params_without_lkp_keys)
{
	struct seen s = {0};
	struct bb_run_opts o = {.say = say, .status = status, .ctx = &s};
	struct bb_kv kv[] = {{"lkp.testbox", "lkp-icl-2sp2"},
	                     {"nr_threads", "2"},
	                     {"lkp.submit_id", "63e2"},
	                     {"test", "SCTP_STREAM_MANY"}};
	struct bb_plan_run run = {.id = "R", .grace = 30, .params = {kv, 4, 4}};
	struct bb_plan plan = {.runs = &run, .nruns = 1};
	struct bb_progress p = {
	    .o = &o, .boot_no = 1, .nboots = 1, .plan = &plan, .kernel_name = "A"};
	feed(&p, "BENCHBOOT boot-start id=b1 runs=1 iterations=1 order=interleaved seed=1");
	feed(&p, "BENCHBOOT run-start id=R iter=1/1 runtime=10 clients=2 pos=1/1");
	CHECK_STR(s.said[s.nsaid - 1],
	          "boot 1/1: run 1/1 R iteration 1/1 (10 s): nr_threads=2 test=SCTP_STREAM_MANY");
}
