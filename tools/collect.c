/*
 * usage: benchboot collect DISK... -o DIR
 *        benchboot collect --console LOG -o DIR
 *        benchboot collect --lava URL JOBID... -o DIR [--token-file FILE]
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
#include "resdisk.h"
#include "host/size.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot collect DISK... -o DIR\n"
    "       benchboot collect --console LOG -o DIR\n"
    "       benchboot collect --lava URL JOBID... -o DIR [--token-file FILE]\n"
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
    "  -o DIR                 where to put the boots (created if needed)\n"
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
    "\n"
    "exit: 0 collected (or nothing new), 1 collected with problems (refused names, damaged\n"
    "files: the messages say which; with --lava: a job not Complete, not finished or without\n"
    "results), 100 wrong usage or not a results disk (with --lava: no such job, a wrong\n"
    "token), 111 system failure (with --lava: the server unreachable).\n";

static void print_msg(void *ctx, const char *line)
{
	printf("%s\n", line);
}

static int parse_size(const char *s, unsigned long long *out)
{
	unsigned long long v;
	if (bb_size_parse(s, &v) || !v)
		return -1;
	*out = v;
	return 0;
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
		if (job_id(ids[i]) < 0) {
			fprintf(stderr, "benchboot collect: '%s' is not a LAVA job id\n", ids[i]);
			return EXIT_USAGE;
		}
	/* no token at all is fine: public jobs are read anonymously */
	if ((token_file || getenv(LAVA_TOKEN_ENV)) &&
	    lava_api_token(token_file, token, sizeof(token), err, sizeof(err))) {
		fprintf(stderr, "benchboot collect: %s\n", err);
		return EXIT_USAGE;
	}
	if (lava_api_open(url, token, &api, err, sizeof(err))) {
		fprintf(stderr, "benchboot collect: %s\n", err);
		return EXIT_USAGE;
	}
	unsigned ok = 0, bad = 0;
	struct collect_lava_job *jobs = calloc((size_t)nids, sizeof(*jobs));
	if (!jobs) {
		lava_api_close(api);
		fprintf(stderr, "benchboot collect: fatal: out of memory\n");
		return EXIT_SYSTEM;
	}
	for (int i = 0; i < nids; i++) {
		struct collect_lava_job job;
		long id = job_id(ids[i]);
		r = collect_lava_job(api, url, id, o, &st, &job, err, sizeof(err));
		jobs[i] = job;
		if (r == -ECONNREFUSED) {
			fprintf(stderr, "benchboot collect: fatal: %s\n", err);
			rc = EXIT_SYSTEM;
			break;
		}
		if (r) {
			fprintf(stderr, "benchboot collect: %s\n", err);
			bad++;
			if (r == -EACCES || r == -ENOENT || r == -EINVAL)
				rc = EXIT_USAGE;
			else if (r != -EAGAIN && r != -EMEDIUMTYPE && r != -EPROTO)
				rc = EXIT_SYSTEM;
			else if (rc == EXIT_OK)
				rc = EXIT_CHANGED;
			continue;
		}
		printf("job %ld on %s: %s; %s%sboot %s%s%s%s%s\n", id,
		       *job.device ? job.device : "-", job.end, *job.role ? job.role : "",
		       *job.role ? " host, " : "",
		       !strcmp(job.role, "server") ? "server-host/" : "",
		       *job.folder ? job.folder : job.boot_id, job.complete ? "" : " (INCOMPLETE)",
		       *job.kernel ? ", kernel=" : "", job.kernel);
		if (job.kernel_stalls)
			printf("  the kernel reported %d lockup or stall report%s, the first: %s\n",
			       job.kernel_stalls, job.kernel_stalls == 1 ? "" : "s",
			       job.kernel_stall);
		for (size_t k = 0; k < job.dmesg.n; k++)
			printf("  kernel report %s, first: %s\n", job.dmesg.v[k].key,
			       job.dmesg.v[k].value);
		if (strcmp(job.health, "Complete") || !job.complete) {
			bad++;
			if (rc == EXIT_OK)
				rc = EXIT_CHANGED;
		} else {
			ok++;
		}
	}
	lava_api_close(api);
	/* a two-host job: the client's boot folder links to its server host's, and its run.json
	 * entry names it (server_host) */
	for (int c = 0; c < nids; c++)
		for (int sv = 0; sv < nids && !strcmp(jobs[c].role, "client"); sv++)
			if (!strcmp(jobs[sv].role, "server") && *jobs[c].group &&
			    !strcmp(jobs[sv].group, jobs[c].group) &&
			    collect_lava_link(url, o->outdir, &jobs[c], &jobs[sv], err, sizeof(err))) {
				fprintf(stderr, "benchboot collect: %s\n", err);
				if (rc == EXIT_OK)
					rc = EXIT_CHANGED;
			}
	for (int i = 0; i < nids; i++)
		collect_lava_job_free(&jobs[i]);
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
	if (!console && !collect_find_gpt_results(src, part, sizeof(part), &partno) && partno) {
		printf("%s: GPT disk: collecting its results partition %u\n", src, partno);
		src = part;
	}
	unsigned before = st->boots_collected;
	int r = console ? collect_console(src, o, st) : collect_disk(src, o, st);
	if (r == -EMEDIUMTYPE) {
		fprintf(stderr, "benchboot collect: fatal: unable to collect %s: %s\n", src,
		        console ? "no BENCHBOOT-FILE lines in the log"
		                : "not a benchboot results disk (no ext2/3/4 filesystem with the "
		                  "benchboot marker and boots folder)");
		return EXIT_USAGE;
	}
	if (r) {
		fprintf(stderr, "benchboot collect: fatal: unable to collect %s into %s: %s\n", src,
		        o->outdir, resdisk_strerror(r));
		if (st->boots_collected > before)
			fprintf(stderr, "benchboot collect: %u boots were collected before that\n",
			        st->boots_collected - before);
		return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

static int collect_main(int argc, char **argv)
{
	const char *out = NULL, *lava = NULL, *token_file = NULL;
	char *ids[1024], *srcs[1024];
	int console = 0, nids = 0, nsrcs = 0;
	unsigned long long max = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--console") && i + 1 < argc && !nsrcs) {
			console = 1;
			srcs[nsrcs++] = argv[++i];
		} else if (!strcmp(argv[i], "--lava") && i + 1 < argc && !nsrcs && !lava) {
			lava = argv[++i];
		} else if (!strcmp(argv[i], "--token-file") && i + 1 < argc) {
			token_file = argv[++i];
		} else if (lava && argv[i][0] != '-') {
			if (nids == (int)(sizeof(ids) / sizeof(*ids))) {
				fprintf(stderr, "benchboot collect: at most 1024 LAVA jobs at once\n");
				return EXIT_USAGE;
			}
			ids[nids++] = argv[i];
		} else if (!strcmp(argv[i], "--max-file-size") && i + 1 < argc) {
			if (parse_size(argv[++i], &max)) {
				fprintf(stderr, "benchboot collect: bad size '%s'\n", argv[i]);
				return EXIT_USAGE;
			}
		} else if ((argv[i][0] == '-' && strcmp(argv[i], "-")) || console ||
		           nsrcs == (int)(sizeof(srcs) / sizeof(*srcs))) {
			fprintf(stderr, "benchboot collect: unexpected argument '%s'\n%s", argv[i],
			        usage_text);
			return EXIT_USAGE;
		} else {
			srcs[nsrcs++] = argv[i];
		}
	}
	if (lava && (!nids || !out)) {
		fprintf(stderr, "benchboot collect: --lava URL needs job ids and -o DIR\n%s",
		        usage_text);
		return EXIT_USAGE;
	}
	if (token_file && !lava) {
		fprintf(stderr, "benchboot collect: --token-file goes with --lava\n");
		return EXIT_USAGE;
	}
	struct collect_opts o = {.outdir = out, .max_file_size = max, .msg = print_msg};
	if (lava)
		return collect_lava(lava, ids, nids, token_file, &o);
	if (!nsrcs || !out) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	/* the server host's boots where `benchboot run` puts them */
	o.file_server_boots = 1;
	struct collect_stats st = {0};
	int rc = EXIT_OK;
	for (int i = 0; i < nsrcs && rc != EXIT_SYSTEM; i++) {
		int r = collect_one(srcs[i], console, &o, &st);
		if (r > rc)
			rc = r;
	}
	if (rc != EXIT_OK && nsrcs == 1)
		return rc;
	if (st.boots_collected && collect_link_pairs(&o, &st))
		fprintf(stderr, "benchboot collect: unable to read %s to link two-host boots\n",
		        out);
	printf("%u boots collected (%u incomplete), %u already there; %u files, %llu bytes; "
	       "%u problems\n",
	       st.boots_collected, st.boots_incomplete, st.boots_skipped, st.files, st.bytes,
	       st.problems);
	if (rc != EXIT_OK)
		return rc;
	return st.problems ? EXIT_CHANGED : EXIT_OK;
}

BENCHBOOT_VERB(collect, "copy results from a results disk or a console log", collect_main);
