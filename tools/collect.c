/*
 * usage: benchboot collect DISK... -o DIR
 *        benchboot collect --console LOG -o DIR
 *        benchboot collect --lava URL JOBID... -o DIR [--token-file FILE]
 *        benchboot collect --monitor-stats ITERDIR...
 *
 * Copy the boots of a results disk (an image file or a block device, read with libext2fs: no
 * mount, no root) or of a serial console log into DIR/NNNN-BOOTID/, each boot once; a two-host
 * boot's server host boots into DIR/server-host/, linked from the client host's boot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/lab/lava_api.h"
#include "host/collect/collect.h"
#include "host/collect/collect_lava.h"
#include "results/resdisk.h"
#include "host/size.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot collect DISK... -o DIR\n"
    "       benchboot collect --console LOG -o DIR\n"
    "       benchboot collect --lava URL JOBID... -o DIR [--token-file FILE]\n"
    "       benchboot collect --monitor-stats ITERDIR...\n"
    "\n"
    "Copy the results of every boot on a results disk (an image file or a block device; read\n"
    "with libext2fs, read-only: no mount, no root) into DIR/NNNN-BOOTID/. With --console, read\n"
    "them from a serial console log instead (the BENCHBOOT-FILE lines the init prints when\n"
    "there is no results disk, or when asked to; LOG may be '-' for stdin).\n"
    "\n"
    "Two-host boots (a job with a cluster): a boot whose env.json says it was the server host\n"
    "goes to DIR/server-host/NNNN-BOOTID/, and each client host's boot links to the server\n"
    "host's boot of the same cluster run as DIR/NNNN-BOOTID/server-host, as `benchboot run`\n"
    "does: collect both machines' disks (in one call or one after the other) into one DIR.\n"
    "\n"
    "Boots collected complete before are skipped, so collect can run again after every boot.\n"
    "A boot without its `done` file was interrupted: it is collected and marked incomplete\n"
    "(DIR/NNNN-BOOTID/.collect says status=incomplete; the runs with a results.json finished).\n"
    "Complete boots are checked against the sha256 manifest in `done`. Names that could\n"
    "escape DIR (.., absolute paths, symbolic links, device files) are refused.\n"
    "\n"
    "options:\n"
    "  -o, --output DIR       where to put the boots (created if needed)\n"
    "  --console LOG          read a console log instead of a disk\n"
    "  --lava URL             read the logs of these finished LAVA jobs from the server at\n"
    "                         URL (its REST API) as console logs; DIR/run.json records each\n"
    "                         boot's job id, device and end and labels it lava_job=ID,\n"
    "                         lava_device=NAME (and kernel=NAME for `lava --kernel` jobs).\n"
    "                         Token: $BENCHBOOT_LAVA_TOKEN, else --token-file, else none\n"
    "                         (public jobs). A job that failed, has no results or has not\n"
    "                         finished is reported and the others are still collected.\n"
    "                         A two-host job's LAVA jobs (one per role, as `benchboot lava\n"
    "                         --submit` lists them): the server host's boot goes to\n"
    "                         DIR/server-host/, linked from the client's boot folder\n"
    "  --token-file FILE      the LAVA API token's file (its first line)\n"
    "  --max-file-size N      refuse larger files (default 1G; K, M, G suffixes)\n"
    "  --monitor-stats        print the monitors' stats of collected iteration folders\n"
    "                         (DIR/NNNN-BOOTID/runs/RUNID/ITER), computed again from their\n"
    "                         raw files (monitor.NAME.gz) by this benchboot's parsers:\n"
    "                         `NAME.KEY VALUE` lines, `# NAME: unavailable: REASON` (after\n"
    "                         a parser fix: the stats the init would compute now)\n"
    "  --db SPEC              the results store the collected boots are added to (default\n"
    "                         $BENCHBOOT_DB, else ~/.local/share/benchboot/results.db;\n"
    "                         docs/verbs/store.md)\n"
    "  --no-store             do not add them to a store\n"
    "\n"
    "exit: 0 collected (or nothing new), 1 collected with problems (refused names, damaged\n"
    "files: the messages say which; with --lava: a job not Complete, not finished or without\n"
    "results), 100 wrong usage or not a results disk (with --lava: no such job, a wrong\n"
    "token), 111 system failure (with --lava: the server unreachable).\n";

static void print_msg(void *ctx, const char *line)
{
	printf("%s\n", line);
}

enum {
	OPT_CONSOLE = 256,
	OPT_LAVA,
	OPT_TOKEN_FILE,
	OPT_MAX_FILE_SIZE,
	OPT_MONITOR_STATS,
	OPT_DB,
	OPT_NO_STORE
};
static const struct option options[] = {
    {"output", required_argument, NULL, 'o'},
    {"console", required_argument, NULL, OPT_CONSOLE},
    {"lava", required_argument, NULL, OPT_LAVA},
    {"token-file", required_argument, NULL, OPT_TOKEN_FILE},
    {"max-file-size", required_argument, NULL, OPT_MAX_FILE_SIZE},
    {"monitor-stats", no_argument, NULL, OPT_MONITOR_STATS},
    {"db", required_argument, NULL, OPT_DB},
    {"no-store", no_argument, NULL, OPT_NO_STORE},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"collect", usage_text, ":o:h", options};

static void print_err(void *ctx, const char *line)
{
	fprintf(stderr, "benchboot collect: %s\n", line);
}

/* A collected LAVA job: its line, and the kernel's reports under it. */
static void print_job(long id, const struct collect_lava_job *job)
{
	printf("job %ld on %s: %s; %s%sboot %s%s%s%s%s\n", id, *job->device ? job->device : "-",
	       job->end, *job->role ? job->role : "", *job->role ? " host, " : "",
	       !strcmp(job->role, "server") ? "server-host/" : "",
	       *job->folder ? job->folder : job->boot_id, job->complete ? "" : " (INCOMPLETE)",
	       *job->kernel ? ", kernel=" : "", job->kernel);
	if (job->kernel_stalls)
		printf("  the kernel reported %d lockup or stall report%s, the first: %s\n",
		       job->kernel_stalls, job->kernel_stalls == 1 ? "" : "s", job->kernel_stall);
	for (size_t k = 0; k < job->dmesg.n; k++)
		printf("  kernel report %s, first: %s\n", job->dmesg.v[k].key,
		       job->dmesg.v[k].value);
}

static long job_id(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	return *s && !*end && v > 0 ? v : -1;
}

/* --lava: each job in turn; one that fails is reported and the next still collected. */
static int collect_lava(const char *url, char **ids, int nids, const char *token_file,
                        const struct collect_opts *o)
{
	char token[1024] = "", err[2048];
	struct lava_api *api;
	struct collect_stats st = {0};
	int rc = EXIT_OK, r;
	for (int i = 0; i < nids; i++)
		if (job_id(ids[i]) < 0)
			return verb_usage_error(cmd.name, "'%s' is not a LAVA job id", ids[i]);
	/* no token at all is fine: public jobs are read anonymously */
	if ((token_file || getenv(LAVA_TOKEN_ENV)) &&
	    (r = bb_lava_api_token(token_file, token, sizeof(token), err, sizeof(err)))) {
		fprintf(stderr, "benchboot collect: %s\n", err);
		return verb_exit_status(r);
	}
	if ((r = bb_lava_api_open(url, token, &api, err, sizeof(err)))) {
		fprintf(stderr, "benchboot collect: %s\n", err);
		return verb_exit_status(r);
	}
	unsigned ok = 0, bad = 0;
	struct collect_lava_job *jobs = calloc((size_t)nids, sizeof(*jobs));
	if (!jobs) {
		bb_lava_api_close(api);
		fprintf(stderr, "benchboot collect: fatal: out of memory\n");
		return EXIT_SYSTEM;
	}
	for (int i = 0; i < nids; i++) {
		struct collect_lava_job job;
		long id = job_id(ids[i]);
		r = bb_collect_lava_job(api, url, id, o, &st, &job, err, sizeof(err));
		jobs[i] = job;
		if (r == -ECONNREFUSED) {
			fprintf(stderr, "benchboot collect: fatal: %s\n", err);
			rc = EXIT_SYSTEM;
			break;
		}
		if (r) {
			fprintf(stderr, "benchboot collect: %s\n", err);
			bad++;
			/* a job not finished, without results or not Complete: collect's own 1 */
			if (r != -EAGAIN && r != -EMEDIUMTYPE && r != -EPROTO)
				rc = verb_exit_status(r);
			else if (rc == EXIT_OK)
				rc = EXIT_CHANGED;
			continue;
		}
		print_job(id, &job);
		if (strcmp(job.health, "Complete") || !job.complete) {
			bad++;
			if (rc == EXIT_OK)
				rc = EXIT_CHANGED;
		} else {
			ok++;
		}
	}
	bb_lava_api_close(api);
	/* a two-host job: the client's boot folder links to its server host's, and its run.json
	 * entry names it (server_host) */
	if (bb_collect_lava_link_groups(url, o->outdir, jobs, (size_t)nids, print_err, NULL) &&
	    rc == EXIT_OK)
		rc = EXIT_CHANGED;
	for (int i = 0; i < nids; i++)
		bb_collect_lava_job_free(&jobs[i]);
	free(jobs);
	printf("%d LAVA jobs: %u collected complete, %u not (see above); %u boots collected (%u "
	       "incomplete), %u already there; %u files, %llu bytes; %u problems\n",
	       nids, ok, bad, st.boots_collected, st.boots_incomplete, st.boots_skipped, st.files,
	       st.bytes, st.problems);
	if (st.problems && rc == EXIT_OK)
		rc = EXIT_CHANGED;
	return rc;
}

/* One disk or console log into o->outdir. Its exit code. */
static int collect_one(const char *src, int console, const struct collect_opts *o,
                       struct collect_stats *st)
{
	char part[4200];
	unsigned partno = 0;
	if (!console && !bb_collect_find_gpt_results(src, part, sizeof(part), &partno) && partno) {
		printf("%s: GPT disk: collecting its results partition %u\n", src, partno);
		src = part;
	}
	unsigned before = st->boots_collected;
	int r = console ? bb_collect_console(src, o, st) : bb_collect_disk(src, o, st);
	if (r == -EMEDIUMTYPE) {
		fprintf(stderr, "benchboot collect: fatal: unable to collect %s: %s\n", src,
		        *st->why  ? st->why
		        : console ? "no BENCHBOOT-FILE lines in the log"
		                  : "not a benchboot results disk (no ext2/3/4 filesystem with the "
		                    "benchboot marker and boots folder)");
		st->why[0] = 0;
		return verb_exit_status(r);
	}
	if (r) {
		fprintf(stderr, "benchboot collect: fatal: unable to collect %s into %s: %s\n", src,
		        o->outdir, bb_resdisk_strerror(r));
		if (st->boots_collected > before)
			fprintf(stderr, "benchboot collect: %u boots were collected before that\n",
			        st->boots_collected - before);
		return verb_exit_status(r);
	}
	return EXIT_OK;
}

/* --monitor-stats: each iteration folder's monitor stats again, from its raw files. */
static int monitor_stats(char **dirs, int n)
{
	int rc = EXIT_OK;
	for (int i = 0; i < n; i++) {
		char err[4400];
		if (n > 1)
			printf("%s%s:\n", i ? "\n" : "", dirs[i]);
		int r = bb_collect_monitor_stats(dirs[i], stdout, err, sizeof err);
		if (r) {
			fprintf(stderr, "benchboot collect: %s\n", err);
			rc = EXIT_CHANGED;
		}
	}
	return rc;
}

static int collect_main(int argc, char **argv)
{
	const char *out = NULL, *lava = NULL, *token_file = NULL, *console = NULL, *db = NULL;
	unsigned long long max = 0;
	int opt, mstats = 0, no_store = 0;
	while ((opt = verb_getopt(&cmd, argc, argv)) != -1) {
		switch (opt) {
		case VERB_HELP:
			return EXIT_OK;
		case VERB_BAD:
			return EXIT_USAGE;
		case 'o':
			out = optarg;
			break;
		case OPT_CONSOLE:
			console = optarg;
			break;
		case OPT_LAVA:
			lava = optarg;
			break;
		case OPT_TOKEN_FILE:
			token_file = optarg;
			break;
		case OPT_MONITOR_STATS:
			mstats = 1;
			break;
		case OPT_DB:
			db = optarg;
			break;
		case OPT_NO_STORE:
			no_store = 1;
			break;
		case OPT_MAX_FILE_SIZE:
			if (bb_size_parse(optarg, &max) || !max)
				return verb_usage_error(cmd.name, "bad size '%s'", optarg);
			break;
		}
	}
	char **srcs = argv + optind;
	int nsrcs = argc - optind;
	if (mstats && (console || lava || out || !nsrcs))
		return verb_usage_error(cmd.name, "--monitor-stats takes iteration folders, alone");
	if (mstats)
		return monitor_stats(srcs, nsrcs);
	if (console && lava)
		return verb_usage_error(cmd.name, "--console and --lava: choose one");
	if (console && nsrcs)
		return verb_usage_error(cmd.name, "unexpected argument '%s'", srcs[0]);
	if (lava && (!nsrcs || !out))
		return verb_usage_error(cmd.name, "--lava URL needs job ids and -o DIR");
	if (token_file && !lava)
		return verb_usage_error(cmd.name, "--token-file goes with --lava");
	struct collect_opts o = {.outdir = out, .max_file_size = max, .msg = print_msg};
	if (lava) {
		int lrc = collect_lava(lava, srcs, nsrcs, token_file, &o);
		if ((lrc == EXIT_OK || lrc == EXIT_CHANGED) && !no_store)
			verb_store_add(cmd.name, db, out);
		return lrc;
	}
	if (console) {
		srcs = (char **)&console;
		nsrcs = 1;
	}
	if (!nsrcs || !out)
		return verb_usage_error(cmd.name, "%s", !out ? "where to? -o DIR" : "which DISK?");
	/* the server host's boots where `benchboot run` puts them */
	o.file_server_boots = 1;
	struct collect_stats st = {0};
	int rc = EXIT_OK;
	/* a collect that fails leaves no folder of its own behind (an empty one it made) */
	int existed = !access(out, F_OK);
	for (int i = 0; i < nsrcs && rc != EXIT_SYSTEM; i++) {
		int r = collect_one(srcs[i], !!console, &o, &st);
		if (r > rc)
			rc = r;
	}
	if (rc != EXIT_OK && rc != EXIT_CHANGED && !existed && !st.boots_collected)
		(void)rmdir(out);
	if (rc != EXIT_OK && nsrcs == 1)
		return rc;
	if (st.boots_collected && bb_collect_link_pairs(&o, &st))
		fprintf(stderr, "benchboot collect: unable to read %s to link two-host boots\n",
		        out);
	printf("%u boots collected (%u incomplete), %u already there; %u files, %llu bytes; "
	       "%u problems\n",
	       st.boots_collected, st.boots_incomplete, st.boots_skipped, st.files, st.bytes,
	       st.problems);
	if (st.boots_collected && !no_store)
		verb_store_add(cmd.name, db, out);
	if (rc != EXIT_OK)
		return rc;
	return st.problems ? EXIT_CHANGED : EXIT_OK;
}

BENCHBOOT_VERB(collect, "copy results from a results disk or a console log", collect_main);
