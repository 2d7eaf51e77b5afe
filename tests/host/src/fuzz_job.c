/*
 * libFuzzer target for the job parser: the input is a job file's text, parsed as `benchboot
 * check` parses it (lib/host/job/job.c: includes, LKP's documents, the key table, --set),
 * then expanded into its matrix and its plans written (lib/host/job/matrix.c, planwrite.c).
 * Crashes, sanitizer reports, leaks and inputs slower than libFuzzer's -timeout abort. The
 * job's path is inside a folder of its own, so an include (<<: FILE) finds nothing else.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/job/job.h"
#include "host/job/matrix.h"
#include "host/job/planwrite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[300];
	if (!*path) {
		char dir[] = "/tmp/bbfuzzjob.XXXXXX";
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof path, "%s/job.yaml", dir);
	}
	struct bb_job job;
	struct bb_matrix m;
	char err[2048];
	/* as bb_fileio_read_all gives a file to the parser: NUL-terminated */
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	int rc = bb_job_parse_text(path, text, size, &job, err, sizeof err);
	free(text);
	if (rc)
		return 0;
	if (!bb_matrix_expand(&job, &m, err, sizeof err)) {
		for (size_t b = 0; b < m.nboots && b < 4; b++) {
			char *plan = NULL;
			if (!bb_plan_write(&m, b, &plan, err, sizeof err))
				free(plan);
		}
		bb_matrix_free(&m);
	}
	bb_job_free(&job);
	return 0;
}
