/*
 * usage: benchboot check [-v] [--plans DIR] JOB.yaml
 *
 * Validate a job file and print its expanded matrix: the boot groups (boot-level parameters),
 * the runs of each boot with their iterations and durations, and an estimated wall time.
 * -v also prints each boot group's plan; --plans DIR writes them as DIR/plan.N.
 * Exit 0 when the job is valid, 100 with the error (FILE:LINE:COL: ...) when it is not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/job/job.h"
#include "host/job/matrix.h"
#include "host/job/planwrite.h"
#include "host/job/jobwarnings.h"
#include "verb.h"

/* The cluster: one host (both roles), or each host with its role, address, NIC and MAC. */
static void print_cluster(const struct bb_job *job)
{
	const struct bb_cluster *c = job->cluster;
	if (!c)
		return; /* one host (cs-localhost, or none named): nothing to show */
	printf("cluster %s (%s): two hosts\n", c->name, c->file);
	for (size_t i = 0; i < c->nhosts; i++) {
		char mac[32];
		bb_cluster_mac(c, i, mac, sizeof mac);
		printf("  host %s: role %s, address %s, nic %s, mac %s%s\n", c->hosts[i].name,
		       c->hosts[i].server ? "server" : "client", c->hosts[i].address,
		       c->hosts[i].nic, mac, c->hosts[i].nmacs ? "" : " (made up for a VM)");
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: benchboot check [-v] [--plans DIR] JOB.yaml\n\n"
	           "Validate a job file and print its matrix: boots, runs per boot, iterations,\n"
	           "estimated wall time. -v prints the plans; --plans DIR writes DIR/plan.N.\n"
	           "Exit 0: valid, 100: invalid job (the error names file, line, column, key).\n");
}

static void duration(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm%02lds", t / 3600, t / 60 % 60, t % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}

/* The boot's warm-up iterations (`warmup:`, docs/jobs.md): N of its first run, kept apart. */
static int boot_warmup(const struct bb_boot *boot)
{
	return atoi(bb_kvs_get_or(&boot->params, "warmup", "0"));
}

/* With `order: random` the boot's first run, the one warmed up, is the shuffle's. */
static int warmup_random(const struct bb_boot *boot)
{
	return !strcmp(bb_kvs_get_or(&boot->params, "order", "interleaved"), "random");
}

static void print_warmup(const struct bb_boot *boot)
{
	int n = boot_warmup(boot);
	if (!n)
		return;
	printf("  warm-up: %d iteration%s of %s%s before the measured ones (runs/RUNID/warmup-K, "
	       "not compared)\n",
	       n, n == 1 ? "" : "s", warmup_random(boot) ? "the random order's first run" : "run ",
	       warmup_random(boot) ? "" : boot->runs[0].id);
}

static int check_main(int argc, char **argv)
{
	const char *path = NULL, *plans = NULL;
	int verbose = 0;
	char err[1024];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "--plans") && i + 1 < argc) {
			plans = argv[++i];
		} else if (argv[i][0] == '-' || path) {
			usage(stderr);
			return EXIT_USAGE;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		usage(stderr);
		return EXIT_USAGE;
	}

	struct bb_job job;
	struct bb_matrix m;
	int rc = bb_job_parse_file(path, &job, err, sizeof err);
	if (rc) {
		fprintf(stderr, "benchboot check: %s\n", err);
		return rc == -EINVAL ? EXIT_USAGE : EXIT_SYSTEM;
	}
	if ((rc = bb_matrix_expand(&job, &m, err, sizeof err))) {
		fprintf(stderr, "benchboot check: %s\n", err);
		bb_job_free(&job);
		return rc == -EINVAL ? EXIT_USAGE : EXIT_SYSTEM;
	}
	double tmin, tmax;
	if ((rc = bb_matrix_estimate(&m, &tmin, &tmax, err, sizeof err))) {
		fprintf(stderr, "benchboot check: %s: %s\n", path, err);
		goto out;
	}
	long iters = 0, warmups = 0;
	for (size_t b = 0; b < m.nboots; b++) {
		warmups += boot_warmup(&m.boots[b]);
		for (size_t r = 0; r < m.boots[b].nruns; r++)
			iters += atoi(bb_kvs_get_or(&m.boots[b].runs[r].params, "iterations", "1"));
	}
	job_print_warnings("check", &job);
	printf("job %s (%s): suite %s, %zu document%s\n", job.name, job.file, job.suite,
	       job.nfiledocs, job.nfiledocs == 1 ? "" : "s");
	for (size_t i = 1; i < job.files.n; i++)
		printf("  includes %s\n", job.files.v[i]);
	if (job.skipped)
		printf("  %s\n", job.skipped);
	print_cluster(&job);
	/* runs per document, as LKP counts them (document 0 is a job of its own) */
	for (size_t d = 0; d < job.ndocs && job.nfiledocs > 1; d++) {
		size_t n = 0;
		for (size_t b = 0; b < m.nboots; b++)
			for (size_t r = 0; r < m.boots[b].nruns; r++)
				n += m.boots[b].runs[r].doc == job.docs[d].index;
		printf("  document %d: %zu run%s\n", job.docs[d].index, n, n == 1 ? "" : "s");
	}
	job_print_notes(stdout, "", &job);
	for (size_t b = 0; b < m.nboots && !rc; b++) {
		const struct bb_boot *boot = &m.boots[b];
		struct bb_strv mods = {0}, files = {0};
		char bp[4096];
		bb_plan_boot_params(boot, bp, sizeof bp);
		if ((rc = bb_plan_needs(&m, b, &mods, &files, err, sizeof err)))
			break;
		printf("boot %zu: %s\n  %zu run%s; modules:", b, bp, boot->nruns,
		       boot->nruns == 1 ? "" : "s");
		for (size_t i = 0; i < mods.n; i++)
			printf(" %s", mods.v[i]);
		printf("%s; programs:", mods.n ? "" : " none");
		for (size_t i = 0; i < files.n; i++)
			printf(" %s", files.v[i]);
		printf("\n");
		print_warmup(boot);
		bb_strv_free(&mods);
		bb_strv_free(&files);
		for (size_t r = 0; r < boot->nruns && !rc; r++) {
			const struct bb_run *run = &boot->runs[r];
			struct bb_suite_run sr;
			char d1[32], d2[32];
			if ((rc = bb_suite_run(job.suite, &run->params, &sr, err, sizeof err)))
				break;
			duration(sr.nominal_s, d1, sizeof d1);
			duration(sr.runtime_s, d2, sizeof d2);
			char warm[48] = "";
			if (r == 0 && boot_warmup(boot) && !warmup_random(boot))
				snprintf(warm, sizeof warm, " + %d warm-up", boot_warmup(boot));
			printf("  run %s: %d x %s%s%s%s%s, clients %s\n", run->id, sr.iterations,
			       d1, sr.runtime_s > sr.nominal_s ? " (at most " : "",
			       sr.runtime_s > sr.nominal_s ? d2 : "",
			       sr.runtime_s > sr.nominal_s ? ")" : "", warm, sr.client_count);
			bb_suite_run_free(&sr);
		}
	}
	if (rc) {
		fprintf(stderr, "benchboot check: %s: %s\n", path, err);
		goto out;
	}
	char d1[32], d2[32];
	duration(tmin, d1, sizeof d1);
	duration(tmax, d2, sizeof d2);
	printf("total: %zu boot%s, %zu run%s, %ld iteration%s", m.nboots, m.nboots == 1 ? "" : "s",
	       m.nruns, m.nruns == 1 ? "" : "s", iters, iters == 1 ? "" : "s");
	if (warmups)
		printf(" + %ld warm-up", warmups);
	printf(", estimated wall time %s", d1);
	if (tmax > tmin)
		printf(" to %s", d2);
	printf(" (about %.0f s per boot, %.0f s per iteration on top of its runtime)\n",
	       BB_BOOT_OVERHEAD_S, BB_RUN_OVERHEAD_S);

	for (size_t b = 0; b < m.nboots && (verbose || plans); b++) {
		char *text;
		if ((rc = bb_plan_write(&m, b, &text, err, sizeof err))) {
			fprintf(stderr, "benchboot check: %s: %s\n", path, err);
			goto out;
		}
		if (verbose)
			printf("\n--- plan of boot %zu\n%s", b, text);
		if (plans) {
			char p[4096];
			snprintf(p, sizeof p, "%s/plan.%zu", plans, b);
			mkdir(plans, 0777);
			FILE *f = fopen(p, "w");
			if (!f || fputs(text, f) < 0 || fclose(f)) {
				fprintf(stderr, "benchboot check: fatal: unable to write %s: %s\n",
				        p, strerror(errno));
				free(text);
				rc = -EIO;
				goto out;
			}
		}
		free(text);
	}
out:
	bb_matrix_free(&m);
	bb_job_free(&job);
	if (rc == -ENOMEM || rc == -EIO)
		return EXIT_SYSTEM;
	return rc ? EXIT_USAGE : EXIT_OK;
}

BENCHBOOT_VERB(check, "validate a job file and print its matrix", check_main);
