/*
 * Reading LAVA job logs (lib/host/lab/lava_log.c): the console lines in order (target and
 * feedback), the job's end with its error type, the boot id; logs that are not logs; the
 * metadata benchboot writes into a definition, read back from the server's copy. The log
 * lines are in the form lava-server 2023.01 serves them (flow mappings, `!` tags on values).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "host/boot/lava.h"
#include "host/lab/lava_log.h"

static int read_log(const char *text, char **console, struct lava_log_info *info, char *err,
                    size_t errlen)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	size_t len = 0;
	*console = NULL;
	FILE *out = open_memstream(console, &len);
	int r = bb_lava_log_console(in, out, info, err, errlen);
	fclose(in);
	fclose(out);
	return r;
}

static const char incomplete_log[] =
    "- {\"dt\": \"2026-12-01T08:40:51.97\", \"lvl\": \"info\", \"msg\": \"lava-dispatcher, "
    "installed at version: 2023.01\"}\n"
    "- {\"dt\": \"2026-12-01T08:40:52.05\", \"lvl\": \"results\", \"msg\": {\"case\": "
    "\"file-download\", \"definition\": \"lava\", \"extra\": {\"label\": \"kernel\", \"size\": ! "
    "\"8247232\", \"success\": {\"sha256\": \"85\"}}, \"result\": \"pass\"}}\n"
    "- {\"dt\": \"2026-12-01T08:40:59.09\", \"lvl\": \"feedback\", \"msg\": \"Linux version "
    "6.1.0\", \"ns\": \"common\"}\n"
    "- {\"dt\": \"2026-12-01T08:40:59.10\", \"lvl\": \"target\", \"msg\": \"BENCHBOOT "
    "boot-start id=31a7-08 runs=1 iterations=1 job=j cpus=2\"}\n"
    "- {\"dt\": \"2026-12-01T08:40:59.11\", \"lvl\": \"target\", \"msg\": \"BENCHBOOT-FILE "
    "boot=0000-31a7-08 path=a size=1 sha256=ca\"}\n"
    "- {\"dt\": \"2026-12-01T08:40:59.12\", \"lvl\": \"target\", \"msg\": \"quote \\\" and "
    "tab\\t end\"}\n"
    "- {\"dt\": \"2026-12-01T08:41:00.01\", \"lvl\": \"target\", \"msg\": \"[   24.905984] "
    "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\"}\n"
    "- {\"dt\": \"2026-12-01T08:41:00.02\", \"lvl\": \"feedback\", \"msg\": \"[   46.1] "
    "watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [netperf:312]\"}\n"
    "- {\"dt\": \"2026-12-01T08:41:09.30\", \"lvl\": \"error\", \"msg\": \"lava-test-monitor "
    "timed out after 300 seconds\"}\n"
    "- {\"dt\": \"2026-12-01T08:41:09.31\", \"lvl\": \"results\", \"msg\": {\"case\": \"job\", "
    "\"definition\": \"lava\", \"error_msg\": \"lava-test-monitor timed out after 300 "
    "seconds\\nsecond line\", \"error_type\": \"Test\", \"result\": \"fail\"}}\n";

TEST(console_lines_and_end)
{
	struct lava_log_info info;
	char *console, err[256] = "";
	CHECK_INT(read_log(incomplete_log, &console, &info, err, sizeof(err)), ==, 0);
	/* feedback (boot) and target (test action) lines, in order; nothing else */
	CHECK_STR(console, "Linux version 6.1.0\n"
	                   "BENCHBOOT boot-start id=31a7-08 runs=1 iterations=1 job=j cpus=2\n"
	                   "BENCHBOOT-FILE boot=0000-31a7-08 path=a size=1 sha256=ca\n"
	                   "quote \" and tab\t end\n"
	                   "[   24.905984] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
	                   "[   46.1] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! "
	                   "[netperf:312]\n");
	CHECK_INT(info.lines, ==, 10);
	CHECK_INT(info.console_lines, ==, 6);
	/* the kernel's watchdog reports: counted, the first kept */
	CHECK_INT(info.kernel_stalls, ==, 2);
	CHECK_STR(info.kernel_stall,
	          "[   24.905984] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:");
	CHECK_STR(info.boot_id, "31a7-08");
	CHECK_STR(info.job_result, "fail");
	CHECK_STR(info.error_type, "Test");
	CHECK_STR(info.error_msg, "lava-test-monitor timed out after 300 seconds");
	CHECK_STR(info.last_error, "lava-test-monitor timed out after 300 seconds");
	char end[600];
	bb_lava_job_end_text("Incomplete", "", &info, end, sizeof(end));
	CHECK_STR(end, "Incomplete: Test error: lava-test-monitor timed out after 300 seconds");
	free(console);
}

TEST(end_text)
{
	struct lava_log_info info = {0};
	char end[600];
	bb_lava_job_end_text("Complete", "", &info, end, sizeof(end));
	CHECK_STR(end, "Complete");
	/* a job canceled before it ran has no job result in its log */
	bb_lava_job_end_text("Canceled", "", &info, end, sizeof(end));
	CHECK_STR(end, "Canceled");
	bb_lava_job_end_text("Incomplete", "Infrastructure: the device did not answer", NULL, end,
	                     sizeof(end));
	CHECK_STR(end, "Incomplete: Infrastructure: the device did not answer");
	snprintf(info.error_type, sizeof(info.error_type), "Canceled");
	snprintf(info.error_msg, sizeof(info.error_msg), "Canceled by benchboot");
	bb_lava_job_end_text("Canceled", "", &info, end, sizeof(end));
	CHECK_STR(end, "Canceled: Canceled error: Canceled by benchboot");
}

TEST(empty_log_has_no_lines)
{
	struct lava_log_info info;
	char *console, err[256] = "";
	CHECK_INT(read_log("", &console, &info, err, sizeof(err)), ==, 0);
	CHECK_INT(info.lines, ==, 0);
	CHECK_STR(info.job_result, "");
	free(console);
}

TEST(not_a_log)
{
	struct lava_log_info info;
	char *console, err[256] = "";
	/* what a server answers for a job it does not know */
	CHECK_INT(read_log("{\"detail\": \"Not found.\"}", &console, &info, err, sizeof(err)), ==,
	          -EINVAL);
	CHECK_CONTAINS(err, "line 1: not a LAVA job log");
	free(console);
	CHECK_INT(read_log("- {\"lvl\": \"target\", \"msg\": \"a\"}\n- plain\n", &console, &info,
	                   err, sizeof(err)),
	          ==, -EINVAL);
	CHECK_CONTAINS(err, "line 2");
	free(console);
	CHECK_INT(read_log("- {\"lvl\": \"target\", \"msg\": \"a\"\n- {", &console, &info, err,
	                   sizeof(err)),
	          ==, -EINVAL);
	CHECK_CONTAINS(err, "not YAML");
	free(console);
}

/* The metadata bb_lava_job writes comes back from the definition (the server re-serialises it,
 * sorted and unquoted, so it is read as YAML, not as text). */
TEST(definition_metadata)
{
	struct lava_boot b = {.job = "net",
	                      .image = "net.B.boot1",
	                      .group = 1,
	                      .ngroups = 2,
	                      .kernel_url = "file:///k",
	                      .ramdisk_url = "file:///r",
	                      .cmdline = "console=ttyS0",
	                      .kernel = "B"};
	char *y;
	struct lava_job_meta meta;
	CHECK_INT(bb_lava_job(LAVA_QEMU, &b, &y), ==, 0);
	CHECK_CONTAINS(y, "job_name: 'benchboot net boot 1 of 2 kernel B (qemu)'\n");
	CHECK_INT(bb_lava_definition_meta(y, &meta), ==, 0);
	CHECK_STR(meta.job, "net");
	CHECK_STR(meta.image, "net.B.boot1");
	CHECK_STR(meta.boot_group, "1");
	CHECK_STR(meta.kernel, "B");
	free(y);
	CHECK_INT(
	    bb_lava_definition_meta("actions:\n- deploy: {}\nmetadata:\n  benchboot.kernel: A\n"
	                            "  other: [1, 2]\n",
	                            &meta),
	    ==, 0);
	CHECK_STR(meta.kernel, "A");
	CHECK_STR(meta.image, "");
	CHECK_STR(meta.role, "");
	/* one role of a multinode job, as LAVA splits it */
	CHECK_INT(bb_lava_definition_meta("metadata:\n  benchboot.job: two\nprotocols:\n"
	                                  "  lava-multinode:\n    role: server\n    sub_id: 0\n"
	                                  "    target_group: 9c6f0e1a-1b2c\n    group_size: 2\n",
	                                  &meta),
	          ==, 0);
	CHECK_STR(meta.job, "two");
	CHECK_STR(meta.role, "server");
	CHECK_STR(meta.target_group, "9c6f0e1a-1b2c");
	CHECK_INT(bb_lava_definition_meta("a: [", &meta), ==, -EINVAL);
}
