/*
 * usage: benchboot lava JOB.yaml [--images DIR] [-o DIR] [--flavour qemu|lab|both]
 *                               [--url URL] [--device-type TYPE] [--name PREFIX]
 *                               [--cpus N] [--memory MB] [--kernel NAME]...
 *                               [--submit URL [--token-file F] [--repeat N] [--no-wait]]
 *
 * LAVA job definitions for the images of a job: one per boot group, kernel and flavour
 * (lib/host/boot/lava.c); with --submit, sent to a LAVA server's REST API
 * (lib/host/lab/lava_api.c), waited for, and each job's end reported.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "host/errbuf.h"
#include "host/boot/lava.h"
#include "host/lab/lava_api.h"
#include "host/lab/lava_watch.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot lava JOB.yaml [options]\n"
    "\n"
    "Write LAVA job definitions for the images `benchboot build JOB.yaml` makes: one per boot\n"
    "group and flavour, IMAGES/IMAGE/lava-qemu.yaml and lava-lab.yaml. Each ends with a test\n"
    "action whose monitor turns the init's LAVA_SIGNAL_TESTCASE lines into LAVA test cases\n"
    "(every measured stat with its measurement and units, every iteration pass or fail).\n"
    "\n"
    "  qemu flavour  deploy to tmpfs, boot method qemu (device type qemu, arch amd64,\n"
    "                no_kvm: true, -smp and memory as given): runs on any LAVA worker\n"
    "  lab flavour   deploy to tftp, boot method ipxe (device type x86 unless --device-type):\n"
    "                a real machine; the image's command line goes in extra_kernel_args\n"
    "\n"
    "  --images DIR        where the images are (default images)\n"
    "  -o, --output DIR    write DIR/IMAGE.lava-FLAVOUR.yaml instead (--outdir: the old name)\n"
    "  --flavour F         qemu, lab or both (default both)\n"
    "  --url URL           lab flavour: the image directory as the lab serves it, e.g.\n"
    "                      http://server/benchboot/images (default file:// of --images)\n"
    "  --device-type TYPE  lab flavour device type (default x86)\n"
    "  --name PREFIX       the image name prefix given to build --name (default the job's)\n"
    "  --cpus N            qemu flavour: -smp N (default 2)\n"
    "  --memory MB         qemu flavour: memory (default 1024)\n"
    "  --kernel NAME       the images of kernel NAME, as `benchboot run --kernel NAME=...`\n"
    "                      builds them (PREFIX.NAME); repeatable: one definition per group\n"
    "                      and kernel, labelled kernel=NAME\n"
    "\n"
    "Submitting to a LAVA server (its REST API, /api/v0.2/):\n"
    "  --submit URL        submit every definition of the one --flavour given (qemu or\n"
    "                      lab) to the server at URL, --repeat times (each round every group\n"
    "                      and kernel: A, B, A, B), wait for them with progress and report how\n"
    "                      each ended: Complete, Incomplete (with LAVA's error type and\n"
    "                      message), Canceled. A job that fails does not stop the others.\n"
    "                      A two-host job is a multinode job: LAVA makes one job per role;\n"
    "                      each is listed (IMAGE, server host / client host), waited for\n"
    "                      and reported.\n"
    "                      The token: $BENCHBOOT_LAVA_TOKEN, else --token-file (never on the\n"
    "                      command line)\n"
    "  --token-file FILE   the API token's file (its first line)\n"
    "  --repeat N          submit every definition N times (default 1)\n"
    "  --no-wait           submit and print the job ids only\n"
    "  --poll S            seconds between two looks at the server (default 5)\n"
    "  --wait-minutes M    give up waiting after M minutes (default: the sum of the jobs'\n"
    "                      LAVA timeouts)\n"
    "Then `benchboot collect --lava URL JOBID... -o DIR` brings the results back.\n"
    "\n"
    "exit: 0 written (and with --submit: every job Complete), 1 a job ended Incomplete\n"
    "or Canceled or was not finished in time, 100 bad job, usage or token, or a definition\n"
    "the server refused, 111 system failure (the server unreachable).\n";

static const struct option options[] = {
    {"images", required_argument, NULL, 'i'},
    {"output", required_argument, NULL, 'o'},
    {"outdir", required_argument, NULL, 'o'},
    {"flavour", required_argument, NULL, 'f'},
    {"url", required_argument, NULL, 'u'},
    {"device-type", required_argument, NULL, 'd'},
    {"name", required_argument, NULL, 'n'},
    {"cpus", required_argument, NULL, 'c'},
    {"memory", required_argument, NULL, 'm'},
    {"kernel", required_argument, NULL, 'k'},
    {"submit", required_argument, NULL, 'S'},
    {"token-file", required_argument, NULL, 'T'},
    {"repeat", required_argument, NULL, 'r'},
    {"no-wait", no_argument, NULL, 'W'},
    {"poll", required_argument, NULL, 'p'},
    {"wait-minutes", required_argument, NULL, 'w'},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"lava", usage_text, ":o:h", options};

static int number(const char *s, unsigned min, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *end || v < min || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* ---- submitting ---- */

#define MAX_KERNELS 16

struct sub {
	char *text, *image, *kernel;
	size_t group, ngroups;
	unsigned minutes; /* the job's LAVA timeout */
};

struct subs {
	struct sub *v;
	size_t n, cap;
	int oom;
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int written(const struct lava_written *w, void *ctx)
{
	printf("%s\n", w->path);
	struct subs *s = ctx;
	if (!s)
		return 0;
	if (bb_grow(&s->v, &s->cap, s->n + 1, sizeof(*s->v)))
		return -ENOMEM;
	struct sub *x = &s->v[s->n];
	memset(x, 0, sizeof(*x));
	x->text = strdup(w->text);
	x->image = strdup(w->boot->image);
	x->kernel = dup_or_null(w->boot->kernel);
	x->group = w->boot->group;
	x->ngroups = w->boot->ngroups;
	/* the job timeout bb_lava_job writes */
	x->minutes = (w->boot->test_minutes ? w->boot->test_minutes : 10) + 20;
	if (!x->text || !x->image || (w->boot->kernel && !x->kernel)) {
		free(x->text);
		free(x->image);
		free(x->kernel);
		return -ENOMEM;
	}
	s->n++;
	return 0;
}

static void describe(const struct lava_watch_job *j, unsigned rounds, char *out, size_t len)
{
	const struct sub *sub = j->user;
	char g[64] = "", k[160] = "", r[48] = "";
	if (sub->ngroups > 1)
		snprintf(g, sizeof(g), ", boot %zu of %zu", sub->group, sub->ngroups);
	if (sub->kernel)
		snprintf(k, sizeof(k), ", kernel %s", sub->kernel);
	if (rounds > 1)
		snprintf(r, sizeof(r), ", round %u of %u", j->round, rounds);
	snprintf(out, len, "%s%s%s%s%s%s", sub->image, g, k, r, *j->role ? ", " : "",
	         *j->role ? j->role : "");
	if (*j->role)
		snprintf(out + strlen(out), len - strlen(out), " host");
}

/* The server, before anything is written: it answers, and takes the token. */
static int connect_server(const char *url, const char *token, struct lava_api **api)
{
	char err[2048], version[64];
	int r;
	if ((r = bb_lava_api_open(url, token, api, err, sizeof(err)))) {
		fprintf(stderr, "benchboot lava: %s\n", err);
		return verb_exit_status(r);
	}
	if ((r = bb_lava_api_version(*api, version, sizeof(version), err, sizeof(err)))) {
		fprintf(stderr, "benchboot lava: %s%s\n",
		        r == -EACCES ? "the LAVA server refuses the token: "
		                     : "fatal: the LAVA server does not answer: ",
		        err);
		bb_lava_api_close(*api);
		*api = NULL;
		return verb_exit_status(r);
	}
	printf("LAVA server %s, version %s\n", url, version);
	return EXIT_OK;
}

/* The watch's progress, printed. */
static void job_changed(void *ctx, const struct lava_watch_job *j)
{
	const unsigned *repeat = ctx;
	char what[600];
	describe(j, *repeat, what, sizeof(what));
	if (j->finished)
		printf("job %ld: %s on %s: %s\n", j->id, what, *j->device ? j->device : "no device",
		       j->end);
	else
		printf("job %ld: %s: %s%s%s\n", j->id, what, j->state, *j->device ? " on " : "",
		       j->device);
	fflush(stdout);
}

static void server_retry(void *ctx, const char *err)
{
	fprintf(stderr, "benchboot lava: %s (trying again)\n", err);
}

static void still_waiting(void *ctx, size_t finished, size_t n, unsigned running, unsigned queued,
                          long minutes)
{
	printf("waiting: %zu of %zu finished, %u running, %u queued (%ld min)\n", finished, n,
	       running, queued, minutes);
	fflush(stdout);
}

static int submit_and_wait(struct lava_api *api, const char *url, const struct subs *subs,
                           unsigned repeat, int wait, unsigned poll, unsigned wait_minutes)
{
	char err[2048];
	int r, rc = EXIT_OK;
	size_t nj = 0, cap = 0;
	struct lava_watch_job *jobs = NULL;
	unsigned minutes = 0;
	for (unsigned round = 1; round <= repeat; round++)
		for (size_t i = 0; i < subs->n; i++) {
			struct lava_watch_job j = {.user = &subs->v[i], .round = round};
			char what[600];
			size_t first = nj;
			describe(&j, repeat, what, sizeof(what));
			if ((r = bb_lava_watch_submit(api, subs->v[i].text, &j, &jobs, &cap, &nj,
			                              err, sizeof(err)))) {
				/* a refused definition is reported; the others still go */
				fprintf(stderr, "benchboot lava: %s: not submitted: %s\n", what,
				        err);
				rc = verb_exit_status(r);
				if (r == -ECONNREFUSED || r == -EACCES)
					goto out; /* nothing else would get through */
				continue;
			}
			for (size_t k = first; k < nj; k++) {
				describe(&jobs[k], repeat, what, sizeof(what));
				printf("submitted job %ld: %s\n", jobs[k].id, what);
			}
			minutes += subs->v[i].minutes;
		}
	fflush(stdout);
	if (!nj)
		goto out;
	printf("jobs:");
	for (size_t i = 0; i < nj; i++)
		printf(" %ld", jobs[i].id);
	printf("\n");
	if (!wait) {
		printf("not waiting (--no-wait); bring the results back with: benchboot collect "
		       "--lava %s JOBID... -o DIR\n",
		       url);
		goto out;
	}

	if (wait_minutes)
		minutes = wait_minutes;
	struct lava_watch_ops ops = {.on_change = job_changed,
	                             .on_retry = server_retry,
	                             .on_waiting = still_waiting,
	                             .ctx = &repeat};
	if ((r = bb_lava_watch(api, jobs, nj, poll, minutes, &ops, err, sizeof(err)))) {
		fprintf(stderr, "benchboot lava: fatal: %s\n", err);
		rc = verb_exit_status(r);
		goto out;
	}

	unsigned complete = 0, incomplete = 0, canceled = 0, unfinished = 0;
	printf("\n%zu LAVA jobs on %s:\n", nj, url);
	for (size_t i = 0; i < nj; i++) {
		char what[600];
		describe(&jobs[i], repeat, what, sizeof(what));
		printf("  job %-6ld %-12s %s: %s\n", jobs[i].id,
		       *jobs[i].device ? jobs[i].device : "-", what, jobs[i].end);
		if (!jobs[i].finished)
			unfinished++;
		else if (!strncmp(jobs[i].end, "Complete", 8))
			complete++;
		else if (!strncmp(jobs[i].end, "Canceled", 8))
			canceled++;
		else
			incomplete++;
	}
	printf("%u complete, %u incomplete, %u canceled, %u not finished\n", complete, incomplete,
	       canceled, unfinished);
	printf("bring the results back with: benchboot collect --lava %s", url);
	for (size_t i = 0; i < nj; i++)
		printf(" %ld", jobs[i].id);
	printf(" -o DIR\n");
	if (rc == EXIT_OK && complete != nj)
		rc = EXIT_CHANGED;
out:
	fflush(stdout);
	free(jobs);
	return rc;
}

/* What the command line asked for. */
struct lava_args {
	struct lava_opts o;
	const char *kernels[MAX_KERNELS];
	const char *submit, *token_file;
	unsigned repeat, poll, wait_minutes;
	int wait, flavour_given;
};

/* One option into A: -1 when taken, else the exit code (a usage error, or 0 after --help). */
static int take_option(struct lava_args *a, int opt)
{
	switch (opt) {
	case 'i':
		a->o.images = optarg;
		break;
	case 'o':
		a->o.outdir = optarg;
		break;
	case 'u':
		a->o.url = optarg;
		break;
	case 'd':
		a->o.device_type = optarg;
		break;
	case 'n':
		a->o.name = optarg;
		break;
	case 'f':
		a->flavour_given = 1;
		if (!strcmp(optarg, "qemu"))
			a->o.flavours = 1u << LAVA_QEMU;
		else if (!strcmp(optarg, "lab"))
			a->o.flavours = 1u << LAVA_LAB;
		else if (!strcmp(optarg, "both"))
			a->o.flavours = 1u << LAVA_QEMU | 1u << LAVA_LAB;
		else
			return verb_usage_error(cmd.name,
			                        "--flavour %s: expected qemu, lab or both", optarg);
		break;
	case 'c':
		if (number(optarg, 1, 1024, &a->o.cpus))
			return verb_usage_error(cmd.name, "--cpus %s: expected 1..1024", optarg);
		break;
	case 'm':
		if (number(optarg, 64, 1u << 22, &a->o.memory_mb))
			return verb_usage_error(
			    cmd.name, "--memory %s: expected megabytes, 64 or more", optarg);
		break;
	case 'k':
		if (a->o.nkernels == MAX_KERNELS)
			return verb_usage_error(cmd.name, "--kernel %s: at most 16 kernels",
			                        optarg);
		if (!*optarg || strchr(optarg, '/') || strchr(optarg, '='))
			return verb_usage_error(cmd.name,
			                        "--kernel %s: a kernel's label (NAME, as given to "
			                        "benchboot run --kernel NAME=PATH)",
			                        optarg);
		a->kernels[a->o.nkernels++] = optarg;
		a->o.kernels = a->kernels;
		break;
	case 'S':
		a->submit = optarg;
		break;
	case 'T':
		a->token_file = optarg;
		break;
	case 'r':
		if (number(optarg, 1, 1000, &a->repeat))
			return verb_usage_error(cmd.name, "--repeat %s: expected 1..1000", optarg);
		break;
	case 'W':
		a->wait = 0;
		break;
	case 'p':
		if (number(optarg, 1, 3600, &a->poll))
			return verb_usage_error(cmd.name, "--poll %s: expected seconds, 1..3600",
			                        optarg);
		break;
	case 'w':
		if (number(optarg, 1, 100000, &a->wait_minutes))
			return verb_usage_error(cmd.name, "--wait-minutes %s: expected minutes",
			                        optarg);
		break;
	case VERB_HELP:
		return EXIT_OK;
	case VERB_BAD:
		return EXIT_USAGE;
	}
	return -1;
}

/* The options, then the rules between them: -1 when all is well, else the exit code. */
static int parse_args(int argc, char **argv, struct lava_args *a)
{
	int opt, rc;
	while ((opt = verb_getopt(&cmd, argc, argv)) != -1)
		if ((rc = take_option(a, opt)) >= 0)
			return rc;
	if (optind + 1 != argc)
		return verb_usage_error(cmd.name,
		                        optind < argc ? "one job file, please" : "which job file?");
	if (!a->submit && (a->token_file || a->repeat != 1 || !a->wait || a->wait_minutes))
		return verb_usage_error(cmd.name,
		                        "--token-file, --repeat, --no-wait and --wait-minutes go "
		                        "with --submit");
	if (a->submit && (!a->flavour_given || a->o.flavours == (1u << LAVA_QEMU | 1u << LAVA_LAB)))
		return verb_usage_error(cmd.name,
		                        "--submit needs the one flavour to submit: --flavour qemu "
		                        "(a QEMU device) or --flavour lab (a real machine)");
	return -1;
}

static int lava_main(int argc, char **argv)
{
	struct lava_args a = {
	    .o.flavours = 1u << LAVA_QEMU | 1u << LAVA_LAB, .repeat = 1, .poll = 5, .wait = 1};
	char err[4096] = "", token[1024];
	int rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	/* the token before anything is written: a missing one is a usage error */
	if (a.submit &&
	    (rc = bb_lava_api_token(a.token_file, token, sizeof(token), err, sizeof(err)))) {
		fprintf(stderr, "benchboot lava: %s\n", err);
		return verb_exit_status(rc);
	}
	struct subs subs = {0};
	struct lava_api *api = NULL;
	rc = a.submit ? connect_server(a.submit, token, &api) : EXIT_OK;
	if (rc)
		return rc;
	rc = bb_lava_write_jobs(argv[optind], &a.o, written, a.submit ? &subs : NULL, err,
	                        sizeof(err));
	if (rc) {
		fprintf(stderr, "benchboot lava: %s%s\n",
		        rc == -EINVAL ? "" : "fatal: ", *err ? err : "out of memory");
		rc = verb_exit_status(rc);
	} else if (a.submit)
		rc =
		    submit_and_wait(api, a.submit, &subs, a.repeat, a.wait, a.poll, a.wait_minutes);
	bb_lava_api_close(api);
	for (size_t i = 0; i < subs.n; i++) {
		free(subs.v[i].text);
		free(subs.v[i].image);
		free(subs.v[i].kernel);
	}
	free(subs.v);
	return rc;
}

BENCHBOOT_VERB(lava, "write LAVA job definitions (QEMU and lab), submit them to a lab", lava_main);
