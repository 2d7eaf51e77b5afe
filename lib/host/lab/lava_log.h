/*
 * Reading a LAVA job log (what GET /api/v0.2/jobs/N/logs/ returns, the server's output.yaml):
 * a YAML list with one mapping per line, {dt, lvl, msg}. The lines of lvl `target` are the
 * device's console as LAVA read it while a test action ran; `feedback` lines are console
 * output LAVA read at other times (during boot, after the test's monitor ended). Both are
 * console lines; together, in order, they are the serial console log `collect --console`
 * reads (the init's BENCHBOOT-FILE lines carry every result file). The `results` line of
 * definition lava, case job, says how the job ended, with error_type and error_msg when it
 * failed. Host only.
 */
#ifndef BENCHBOOT_HOST_LAVA_LOG_H
#define BENCHBOOT_HOST_LAVA_LOG_H

#include <stddef.h>
#include <stdio.h>

struct lava_log_info {
	unsigned lines, console_lines;
	char job_result[16];  /* "pass", "fail" or "" (no such line: the job did not end) */
	char error_type[64];  /* Infrastructure, Job, Test, Bug, Configuration, Canceled, ... */
	char error_msg[512];  /* the first line of it */
	char boot_id[128];    /* from the init's `BENCHBOOT boot-start id=` line ("" if none) */
	char last_error[512]; /* the last lvl error line */
	/* the kernel's lockup and stall reports among the console lines (bb_console_stall):
	 * how many, and the first */
	int kernel_stalls;
	char kernel_stall[512];
};

/*
 * Read the log from in; write every console line to out (NULL: not written), one per line,
 * as the console had it. 0, -EINVAL when in is not a LAVA job log (err says at which line),
 * -errno for an I/O error.
 */
int bb_lava_log_console(FILE *in, FILE *out, struct lava_log_info *info, char *err, size_t errlen);

/*
 * How a finished job ended, in one line: "Complete"; "Incomplete: TYPE error: MESSAGE" (LAVA's
 * error type and message from the log's job result), else the server's failure comment;
 * "Canceled" likewise. info may be NULL (log not read).
 */
void bb_lava_job_end_text(const char *health, const char *failure, const struct lava_log_info *info,
                          char *out, size_t outlen);

/*
 * What benchboot put in a job definition's metadata (lib/host/boot/lava.h), and for one role
 * of a multinode job (a two-host job) what LAVA put in its protocols: lava-multinode: role
 * (server or client) and target_group (the same in every role of one submission); "" when
 * absent.
 */
struct lava_job_meta {
	char job[256], image[256], boot_group[16], kernel[128];
	char role[32], target_group[128];
};
/* From the definition's text as the server keeps it. 0, or -EINVAL (not YAML), -ENOMEM. */
int bb_lava_definition_meta(const char *definition, struct lava_job_meta *meta);

#endif
