/*
 * usage: benchboot check [-v] [--plans DIR] [--cpus N] [--mem MB] [--set KEY=VALUE]... JOB.yaml
 *
 * Validate a job file and print its expanded matrix: the boot groups (boot-level parameters),
 * the runs of each boot with their iterations and durations, and an estimated wall time;
 * for a 0-day job also its rootfs's cgroup layout, which words of its kernel command line
 * are applied and which are 0-day's plumbing, and the boots its repeat_to asks for.
 * -v also prints each boot group's plan; --plans DIR writes them as DIR/plan.N; --set
 * overrides a key of the job, as build and run do.
 * Exit 0 when the job is valid, 1 when it is but a run would do nothing at --cpus N vCPUs,
 * 100 with the error (FILE:LINE:COL: ...) when it is not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/job/cmdline.h"
#include "host/job/job.h"
#include "host/job/matrix.h"
#include "host/job/monitors.h"
#include "host/job/planwrite.h"
#include "host/kernel/jobneeds.h"
#include "host/job/jobwarnings.h"
#include "host/job/rootfs.h"
#include "host/job/storage.h"
#include "host/job/suites.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/run/vcpus.h"
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

static const char usage_text[] =
    "usage: benchboot check [-v] [--plans DIR] [--cpus N] [--mem MB] [--set KEY=VALUE]... "
    "JOB.yaml\n"
    "       benchboot check --kconfig [--tree DIR] [--set KEY=VALUE]... JOB.yaml\n\n"
    "Validate a job file and print its matrix: boots, runs per boot, iterations,\n"
    "estimated wall time; for a 0-day job its rootfs's cgroup layout, the kernel command\n"
    "line words applied and those left out (why), the boots its repeat_to asks for.\n"
    "-v prints the plans; --plans DIR writes DIR/plan.N.\n"
    "--kconfig prints, instead, the kernel configuration fragment the job needs (what\n"
    "`benchboot kernel --job` appends to the base config); --tree DIR finds the CONFIG\n"
    "symbols of the job's modules in that kernel tree's Makefiles.\n"
    "--cpus N: the VM's vCPUs the clients are counted from (nr_threads: 25%), as run\n"
    "--cpus N (default 2).\n"
    "--mem MB: the VM's memory LKP's need_memory is compared with, as run --mem MB\n"
    "(default 1024).\n" VERB_SET_HELP
    "exit: 0 valid, 1 valid, but a run would do nothing at these vCPUs or needs more\n"
    "memory (LKP's rules drop it: the way out is said), 100 invalid job (the error names file, "
    "line,\n"
    "column, key), 111 system failure.\n";

enum { OPT_PLANS = 256, OPT_SET, OPT_KCONFIG, OPT_TREE, OPT_CPUS, OPT_MEM };
static const struct option options[] = {
    {"plans", required_argument, NULL, OPT_PLANS},
    {"cpus", required_argument, NULL, OPT_CPUS},
    {"mem", required_argument, NULL, OPT_MEM},
    {"kconfig", no_argument, NULL, OPT_KCONFIG},
    {"tree", required_argument, NULL, OPT_TREE},
    {"set", required_argument, NULL, OPT_SET},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"check", usage_text, ":vh", options};

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

/* Each run's monitored iterations in the boot, 0 when the job runs no monitor. */
static int boot_monitored(const struct bb_job *job, const struct bb_boot *boot)
{
	return bb_job_runs_monitors(job) > 0 ? bb_boot_monitored(boot) : 0;
}

/* Where the monitors run (`monitored:`, docs/jobs.md "Monitors"). */
static void print_monitored(const struct bb_job *job, const struct bb_boot *boot)
{
	if (bb_job_runs_monitors(job) <= 0)
		return;
	int n = bb_boot_monitored(boot);
	if (n)
		printf(
		    "  monitored: %d iteration%s of each run with the monitors, after the measured "
		    "ones (runs/RUNID/monitored-K); the measured iterations run without them, so "
		    "the monitors' cost stays out of the test's numbers\n",
		    n, n == 1 ? "" : "s");
	else
		printf("  monitored: 0, the monitors run in every measured iteration as LKP runs "
		       "them: their cost is in the test's numbers (docs/compare.md, \"What the "
		       "monitors cost\")\n");
}

/*
 * The words of one kernel command line key as written (the job's cmdline.KEY): those the
 * boot gets, then those left out as 0-day's plumbing, one line per reason.
 */
static void print_cmdline_key(const char *key, const char *words)
{
	struct bb_strv w = {0}, why = {0};
	if (bb_strv_add_words(&w, words))
		return;
	printf("  %s: applied (the boot's kernel command line):", key);
	size_t napplied = 0;
	for (size_t i = 0; i < w.n; i++) {
		const char *r = bb_cmdline_plumbing(w.v[i]);
		if (!r) {
			printf(" %s", w.v[i]);
			napplied++;
		} else {
			size_t k = 0;
			while (k < why.n && strcmp(why.v[k], r))
				k++;
			if (k == why.n && bb_strv_add(&why, r))
				break;
		}
	}
	printf("%s\n", napplied ? "" : " none");
	for (size_t k = 0; k < why.n; k++) {
		printf("  %s: left out (%s):", key, why.v[k]);
		for (size_t i = 0; i < w.n; i++) {
			const char *r = bb_cmdline_plumbing(w.v[i]);
			if (r && !strcmp(r, why.v[k]))
				printf(" %s", w.v[i]);
		}
		printf("\n");
	}
	bb_strv_free(&w);
	bb_strv_free(&why);
}

/* bootloader_append and kernel_cmdline of each document (once when the documents agree). */
static void print_cmdline(const struct bb_job *job)
{
	static const char *const keys[] = {"kernel_cmdline", "bootloader_append"};
	const char *last[2] = {NULL, NULL};
	for (size_t d = 0; d < job->ndocs; d++) {
		const char *v[2];
		int any = 0, same = d > 0;
		for (int k = 0; k < 2; k++) {
			char name[64];
			snprintf(name, sizeof name, "cmdline.%s", keys[k]);
			const struct bb_jparam *p = bb_jdoc_get(&job->docs[d], name);
			v[k] = p && p->n ? p->v[0].s : NULL;
			any |= !!v[k];
			same &= (!v[k] && !last[k]) || (v[k] && last[k] && !strcmp(v[k], last[k]));
		}
		if (!any || same)
			continue;
		if (job->ndocs > 1)
			printf("kernel command line of document %d:\n", job->docs[d].index);
		else
			printf("kernel command line (docs/jobs.md \"The boot command line\"):\n");
		for (int k = 0; k < 2; k++)
			if (v[k])
				print_cmdline_key(keys[k], v[k]);
		last[0] = v[0];
		last[1] = v[1];
	}
}

/* The job: its files, cluster, documents and notes. */
static void print_job(const struct bb_job *job, const struct bb_matrix *m)
{
	bb_job_print_warnings("check", job);
	printf("job %s (%s): suite %s, %zu document%s\n", job->name, job->file, job->suite,
	       job->nfiledocs, job->nfiledocs == 1 ? "" : "s");
	for (size_t i = 1; i < job->files.n; i++)
		printf("  includes %s\n", job->files.v[i]);
	if (job->skipped)
		printf("  %s\n", job->skipped);
	print_cluster(job);
	/* runs per document, as LKP counts them (document 0 is a job of its own) */
	for (size_t d = 0; d < job->ndocs && job->nfiledocs > 1; d++) {
		size_t n = 0;
		for (size_t b = 0; b < m->nboots; b++)
			for (size_t r = 0; r < m->boots[b].nruns; r++)
				n += m->boots[b].runs[r].doc == job->docs[d].index;
		printf("  document %d: %zu run%s\n", job->docs[d].index, n, n == 1 ? "" : "s");
	}
	for (size_t i = 0; i < job->sets.n; i++)
		printf("  overridden: --set %s (recorded: env.json job_overrides)\n",
		       job->sets.v[i]);
	bb_job_print_notes(stdout, "", job);
	print_cmdline(job);
}

/*
 * The rootfs of each run of a boot (LKP's `rootfs:`), once per name: the cgroup layout of its
 * systemd (host/job/rootfs.h) when the boot has it, else that the job's own setup won.
 */
static void print_rootfs(const struct bb_boot *boot)
{
	for (size_t r = 0; r < boot->nruns; r++) {
		const char *rootfs = bb_kvs_get(&boot->runs[r].params, "lkp.rootfs");
		int seen = 0;
		for (size_t q = 0; rootfs && q < r && !seen; q++)
			seen =
			    !strcmp(bb_kvs_get_or(&boot->runs[q].params, "lkp.rootfs", ""), rootfs);
		if (!rootfs || seen)
			continue;
		const struct bb_rootfs_env *e = bb_rootfs_find(rootfs);
		const char *mode = bb_kvs_get_or(&boot->params, "cgroup.mode", "none");
		const char *path = bb_kvs_get_or(&boot->params, "cgroup.path", "");
		char line[1024];
		bb_rootfs_describe(rootfs, e, line, sizeof line);
		if (e &&
		    (strcmp(path, e->path) || (strcmp(mode, e->mode) && strcmp(mode, e->mode_v1))))
			printf("  rootfs %s: not its systemd's layout: the job's own cgroup setup "
			       "wins (cgroup.mode=%s), as on 0-day\n",
			       rootfs, mode);
		else if (e && strcmp(mode, e->mode))
			printf("  %s; cgroup.mode=%s: the kernel command line's "
			       "systemd.unified_cgroup_hierarchy=0\n",
			       line, mode);
		else if (e)
			printf("  %s (cgroup.mode=%s)\n", line, mode);
		else
			printf("  %s\n", line);
	}
}

/* --cpus: the vCPUs the clients are counted from; runs LKP's rule would drop there. --mem:
 * the VM's memory LKP's need_memory is compared with. */
static int check_cpus = BB_QEMU_DEFAULT_CPUS;
static int check_mem = 1024;
static size_t ndropped, nshort, nruns_total, ndisk_short;

/* One run of a boot: its iterations, durations, warm-up and clients (a share of the CPUs
 * counted at --cpus, a run that gets none said with the way out). */
static int print_run(const struct bb_job *job, const struct bb_boot *boot, size_t r, char *err,
                     size_t errlen)
{
	const struct bb_run *run = &boot->runs[r];
	struct bb_suite_run sr;
	char d1[32], d2[32], warm[96] = "";
	int rc = bb_suite_run(job->suite, &run->params, &sr, err, errlen);
	if (rc)
		return rc;
	duration(sr.nominal_s, d1, sizeof d1);
	duration(sr.runtime_s, d2, sizeof d2);
	if (r == 0 && boot_warmup(boot) && !warmup_random(boot))
		snprintf(warm, sizeof warm, " + %d warm-up", boot_warmup(boot));
	if (boot_monitored(job, boot))
		snprintf(warm + strlen(warm), sizeof warm - strlen(warm), " + %d monitored",
		         boot_monitored(job, boot));
	char share[64] = "", dropped[256];
	int n = bb_vcpu_clients(sr.client_count, check_cpus, dropped, sizeof dropped);
	if (strchr(sr.client_count, '%'))
		snprintf(share, sizeof share, " (%d at %d vCPU%s)", n, check_cpus,
		         check_cpus == 1 ? "" : "s");
	printf("  run %s: %d x %s%s%s%s%s, clients %s%s\n", run->id, sr.iterations, d1,
	       sr.runtime_s > sr.nominal_s ? " (at most " : "",
	       sr.runtime_s > sr.nominal_s ? d2 : "", sr.runtime_s > sr.nominal_s ? ")" : "", warm,
	       sr.client_count, share);
	nruns_total++;
	if (*dropped) {
		printf("    warning: %s\n", dropped);
		ndropped++;
	}
	const char *need = bb_kvs_get(&run->params, "lkp.need_memory");
	int m =
	    need ? bb_vcpu_need_memory(need, check_cpus, check_mem, dropped, sizeof dropped) : 0;
	if (m < 0) {
		snprintf(err, errlen, "%s", dropped);
		bb_suite_run_free(&sr);
		return -EINVAL;
	}
	if (m > 0) {
		printf("    warning: %s\n", dropped);
		nshort++;
	}
	bb_suite_run_free(&sr);
	return 0;
}

/* A boot's ramdisks take guest memory as they are written: more than this host has can never
 * run here (an error, with the override); more than the VM's --mem is a warning. */
static int check_disk_memory(const struct bb_boot *boot, char *err, size_t errlen)
{
	unsigned long long need = bb_disk_memory(&boot->params);
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	unsigned long long host = pages > 0 && psize > 0 ? (unsigned long long)pages * psize : 0;
	const char *disk = bb_kvs_get(&boot->params, "disk");
	if (!need)
		return 0;
	if (host && need > host) {
		snprintf(
		    err, errlen,
		    "disk %s: its ramdisks take up to %.1f GiB of guest memory when written "
		    "full, and this host has %.1f GiB: --set disk=1BRD_2G (or a size that fits "
		    "beside the VM's other memory)",
		    disk, (double)need / (1 << 30), (double)host / (1 << 30));
		return -EINVAL;
	}
	if (need > (unsigned long long)check_mem << 20) {
		printf(
		    "    warning: disk %s: its ramdisks take up to %.1f GiB of guest memory when "
		    "written full, more than a VM of %d MB has: run --mem %llu or more, or --set "
		    "disk=1BRD_NG with a smaller N\n",
		    disk, (double)need / (1 << 30), check_mem, (need >> 20) + 1024);
		ndisk_short++;
	}
	return 0;
}

/* Each boot group: its parameters, modules, programs and runs. */
static int print_boots(const struct bb_job *job, const struct bb_matrix *m, char *err,
                       size_t errlen)
{
	int rc = 0;
	for (size_t b = 0; b < m->nboots && !rc; b++) {
		const struct bb_boot *boot = &m->boots[b];
		struct bb_strv mods = {0}, files = {0};
		char bp[4096];
		bb_plan_boot_params(boot, bp, sizeof bp);
		if ((rc = bb_plan_needs(m, b, &mods, &files, err, errlen)))
			break;
		printf("boot %zu: %s\n  %zu run%s; modules:", b, bp, boot->nruns,
		       boot->nruns == 1 ? "" : "s");
		for (size_t i = 0; i < mods.n; i++)
			printf(" %s", mods.v[i]);
		printf("%s; programs:", mods.n ? "" : " none");
		for (size_t i = 0; i < files.n; i++)
			printf(" %s", files.v[i]);
		printf("\n");
		if ((rc = check_disk_memory(boot, err, errlen)))
			break;
		print_rootfs(boot);
		print_warmup(boot);
		print_monitored(job, boot);
		bb_strv_free(&mods);
		bb_strv_free(&files);
		for (size_t r = 0; r < boot->nruns && !rc; r++)
			rc = print_run(job, boot, r, err, errlen);
	}
	return rc;
}

/* LKP's repeat_to N: benchboot run boots every group N times (host/run/run.h). */
static void print_repeat_to(const struct bb_matrix *m)
{
	int n = bb_job_repeat_to(m->job);
	if (n > 1)
		printf("repeat_to %d: %zu boots by repeat_to (benchboot run boots every group %d "
		       "times, as 0-day repeats the whole job; --repeat N overrides); the wall "
		       "time above is one round's\n",
		       n, (size_t)n * m->nboots, n);
}

/* The totals: boots, runs, iterations, warm-ups and the estimated wall time. */
static void print_total(const struct bb_matrix *m, double tmin, double tmax)
{
	long iters = 0, warmups = 0, monitored = 0;
	char d1[32], d2[32];
	for (size_t b = 0; b < m->nboots; b++) {
		warmups += boot_warmup(&m->boots[b]);
		monitored += (long)boot_monitored(m->job, &m->boots[b]) * (long)m->boots[b].nruns;
		for (size_t r = 0; r < m->boots[b].nruns; r++) {
			/* the suite's count (fsmark's iterations are fs_mark's loops, in one) */
			struct bb_suite_run sr;
			char err[256];
			if (bb_suite_run(m->job->suite, &m->boots[b].runs[r].params, &sr, err,
			                 sizeof err))
				continue;
			iters += sr.iterations;
			bb_suite_run_free(&sr);
		}
	}
	duration(tmin, d1, sizeof d1);
	duration(tmax, d2, sizeof d2);
	printf("total: %zu boot%s, %zu run%s, %ld iteration%s", m->nboots,
	       m->nboots == 1 ? "" : "s", m->nruns, m->nruns == 1 ? "" : "s", iters,
	       iters == 1 ? "" : "s");
	if (warmups)
		printf(" + %ld warm-up", warmups);
	if (monitored)
		printf(" + %ld monitored", monitored);
	printf(", estimated wall time %s", d1);
	if (tmax > tmin)
		printf(" to %s", d2);
	printf(" (about %.0f s per boot, %.0f s per iteration on top of its runtime)\n",
	       BB_BOOT_OVERHEAD_S, BB_RUN_OVERHEAD_S);
}

/* -v: the plans printed; --plans DIR: written as DIR/plan.N. */
static int print_plans(const struct bb_matrix *m, int verbose, const char *plans, char *err,
                       size_t errlen)
{
	for (size_t b = 0; b < m->nboots; b++) {
		char *text, p[4096];
		int rc = bb_plan_write(m, b, &text, err, errlen);
		if (rc)
			return rc;
		if (verbose)
			printf("\n--- plan of boot %zu\n%s", b, text);
		if (plans) {
			snprintf(p, sizeof p, "%s/plan.%zu", plans, b);
			mkdir(plans, 0777);
			rc = bb_fileio_write_file(p, text, strlen(text));
			if (rc)
				rc = bb_errbuf_fail(err, errlen, rc, "unable to write %s: %s", p,
				                    strerror(-rc));
		}
		free(text);
		if (rc)
			return rc;
	}
	return 0;
}

/* --kconfig: the fragment on stdout, the modules not found in the tree as warnings. */
static int print_kconfig(const char *path, const struct bb_strv *sets, const char *tree)
{
	char *text = NULL, err[4096];
	struct bb_strv warnings = {0};
	int rc = bb_kconfig_job_fragment(path, sets, tree, &text, &warnings, err, sizeof err);
	if (rc)
		fprintf(stderr, "benchboot check: %s\n", err);
	else
		fputs(text, stdout);
	for (size_t i = 0; i < warnings.n; i++)
		fprintf(stderr, "benchboot check: warning: %s\n", warnings.v[i]);
	free(text);
	bb_strv_free(&warnings);
	return verb_exit_status(rc);
}

static int check_main(int argc, char **argv)
{
	const char *path, *plans = NULL, *tree = NULL;
	int verbose = 0, kconfig = 0, opt, rc;
	char err[1024];
	struct bb_strv sets = {0};
	double tmin, tmax;

	while ((opt = verb_getopt(&cmd, argc, argv)) != -1) {
		switch (opt) {
		case VERB_HELP:
			rc = EXIT_OK;
			goto out;
		case VERB_BAD:
			rc = EXIT_USAGE;
			goto out;
		case 'v':
			verbose = 1;
			break;
		case OPT_PLANS:
			plans = optarg;
			break;
		case OPT_KCONFIG:
			kconfig = 1;
			break;
		case OPT_TREE:
			tree = optarg;
			break;
		case OPT_CPUS: {
			double x;
			if ((rc = verb_number(cmd.name, "--cpus", optarg, 1, 256, "1 to 256", NULL,
			                      &x)))
				goto out;
			check_cpus = (int)x;
			break;
		}
		case OPT_MEM: {
			double x;
			if ((rc = verb_number(cmd.name, "--mem", optarg, 128, 1 << 20,
			                      "at least 128 (MB)", NULL, &x)))
				goto out;
			check_mem = (int)x;
			break;
		}
		case OPT_SET:
			if ((rc = verb_add_set(cmd.name, &sets, optarg)))
				goto out;
			break;
		}
	}
	if (optind + 1 != argc) {
		rc = optind == argc
		         ? verb_usage_error(cmd.name, "which JOB.yaml?")
		         : verb_usage_error(cmd.name, "unexpected argument '%s'", argv[optind + 1]);
		goto out;
	}
	path = argv[optind];
	if (tree && !kconfig) {
		rc = verb_usage_error(cmd.name, "--tree DIR goes with --kconfig");
		goto out;
	}
	if (kconfig) {
		rc = print_kconfig(path, &sets, tree);
		goto out;
	}

	struct bb_job job;
	struct bb_matrix m;
	if ((rc = bb_job_parse_file_set(path, &sets, &job, err, sizeof err))) {
		fprintf(stderr, "benchboot check: %s\n", err);
		rc = verb_exit_status(rc);
		goto out;
	}
	if ((rc = bb_matrix_expand(&job, &m, err, sizeof err))) {
		fprintf(stderr, "benchboot check: %s\n", err);
		bb_job_free(&job);
		rc = verb_exit_status(rc);
		goto out;
	}
	if (!(rc = bb_matrix_estimate(&m, &tmin, &tmax, err, sizeof err))) {
		print_job(&job, &m);
		rc = print_boots(&job, &m, err, sizeof err);
	}
	if (!rc) {
		print_total(&m, tmin, tmax);
		print_repeat_to(&m);
		if (verbose || plans)
			rc = print_plans(&m, verbose, plans, err, sizeof err);
	}
	if (!rc && ndropped)
		printf("%zu of %zu runs would do nothing at %d vCPU%s (LKP's rule drops them; "
		       "warnings above)%s\n",
		       ndropped, nruns_total, check_cpus, check_cpus == 1 ? "" : "s",
		       ndropped == nruns_total ? ": benchboot run would boot nothing" : "");
	if (rc)
		fprintf(stderr, "benchboot check: %s%s: %s\n",
		        verb_exit_status(rc) == EXIT_USAGE ? "" : "fatal: ", path, err);
	bb_matrix_free(&m);
	bb_job_free(&job);
	rc = verb_exit_status(rc);
	if (!rc && nshort)
		printf("%zu of %zu runs need more memory than a VM of %d MB has (LKP's filter "
		       "removes such a job; warnings above)\n",
		       nshort, nruns_total, check_mem);
	if (!rc && ndisk_short)
		printf("the ramdisks of %zu boot%s may not fit a VM of %d MB (warnings above)\n",
		       ndisk_short, ndisk_short == 1 ? "" : "s", check_mem);
	if (rc == EXIT_OK && (ndropped || nshort || ndisk_short))
		rc = EXIT_CHANGED;
out:
	bb_strv_free(&sets);
	return rc;
}

BENCHBOOT_VERB(check, "validate a job file and print its matrix", check_main);
