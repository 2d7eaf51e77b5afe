/* What a job file asks of the kernel; see jobneeds.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/errbuf.h"
#include "host/job/job.h"
#include "host/job/matrix.h"
#include "host/job/planwrite.h"
#include "host/kernel/jobneeds.h"

/* 0, -EINVAL for a bad job (err: FILE:LINE: ...), or another -errno with err. */
static int bb_kneeds_from_job(const char *job, const struct bb_strv *sets, struct bb_kneeds *n,
                              char *err, size_t errlen)
{
	struct bb_job j;
	struct bb_matrix m;
	memset(&m, 0, sizeof(m));
	int rc = bb_job_parse_file_set(job, sets, &j, err, errlen);
	if (rc)
		return rc;
	rc = bb_matrix_expand(&j, &m, err, errlen);
	for (size_t b = 0; !rc && b < m.nboots; b++) {
		char *text = NULL;
		struct bb_plan p;
		if ((rc = bb_plan_write(&m, b, &text, err, errlen)))
			break;
		rc = bb_plan_parse(text, strlen(text), &p, err, errlen);
		free(text);
		if (rc)
			break;
		if ((rc = bb_kneeds_add_plan(n, &p)))
			bb_errbuf_fail(err, errlen, rc, "out of memory");
		bb_plan_free(&p);
	}
	bb_matrix_free(&m);
	bb_job_free(&j);
	return rc;
}

int bb_kconfig_job_fragment(const char *job, const struct bb_strv *sets, const char *tree,
                            char **text, struct bb_strv *warnings, char *err, size_t errlen)
{
	struct bb_kneeds n;
	struct bb_strv unresolved = {0};
	memset(&n, 0, sizeof(n));
	int rc = job ? bb_kneeds_from_job(job, sets, &n, err, errlen) : 0;
	if (rc)
		goto out;
	rc = bb_kconfig_fragment(&n, tree, text, &unresolved);
	for (size_t i = 0; !rc && warnings && i < unresolved.n; i++) {
		char line[2048];
		snprintf(line, sizeof(line),
		         "the job's module %.200s: no Makefile of %.1500s builds %.200s.o under a "
		         "CONFIG symbol: set it in --config",
		         unresolved.v[i], tree, unresolved.v[i]);
		rc = bb_strv_add(warnings, line);
	}
	if (rc)
		bb_errbuf_fail(err, errlen, rc, "out of memory");
out:
	bb_strv_free(&unresolved);
	bb_kneeds_free(&n);
	return rc;
}
