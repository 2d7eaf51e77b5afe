/* A LAVA job's results from its log; see collect_lava.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/lab/lava_api.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/json.h"
#include "host/collect/collect_lava.h"
#include "host/results/dmesg.h"
#include "host/lab/lava_log.h"
#include "host/collect/runjson.h"

struct lava_entry {
	const char *url;
	const struct collect_lava_job *j;
	const struct collect_lava_job *server; /* a client's server host's job, or NULL */
};

/* What an entry and a server_host object share: the boot, its LAVA job, how it ended. */
static void write_boot(struct jout *w, const char *url, const struct collect_lava_job *j,
                       int with_params)
{
	char idtext[32];
	snprintf(idtext, sizeof(idtext), "%ld", j->id);
	bb_jout_kv_text(w, "boot_id", j->boot_id);
	bb_jout_kv_text(w, "folder", j->folder);
	if (with_params) {
		bb_jout_key(w, "params");
		bb_jout_obj_begin(w);
		if (*j->kernel) {
			bb_jout_kv_str(w, "kernel", j->kernel);
		}
		bb_jout_kv_str(w, "lava_job", idtext);
		bb_jout_kv_str(w, "lava_device", j->device);
		bb_jout_obj_end(w);
	}
	bb_jout_key(w, "lava");
	bb_jout_obj_begin(w);
	bb_jout_kv_str(w, "url", url);
	bb_jout_kv_int(w, "job", j->id);
	bb_jout_kv_str(w, "device", j->device);
	bb_jout_kv_str(w, "health", j->health);
	bb_jout_kv_str(w, "end", j->end);
	bb_jout_obj_end(w);
	bb_jout_kv_str(w, "outcome",
	               !strcmp(j->health, "Complete") && j->complete ? "finished" : "failed");
	bb_jout_kv_bool(w, "finished", j->complete);
	bb_jout_kv_int(w, "kernel_stalls", j->kernel_stalls);
	bb_jout_kv_text(w, "kernel_stall", j->kernel_stall);
	bb_runjson_dmesg(w, &j->dmesg);
}

/* This job's run.json entry, as `benchboot run` writes one ({"boot_id", "folder", "params":
 * {...}, ...}, the params being the boot's labels), with its LAVA job and device, and, as
 * `run` writes for a two-host boot, "server_host": the server host's boot (its folder under
 * DIR/server-host/) or null. */
static void write_entry(struct jout *w, void *ctx)
{
	const struct lava_entry *e = ctx;
	bb_jout_obj_begin(w);
	write_boot(w, e->url, e->j, 1);
	bb_jout_key(w, "server_host");
	if (e->server) {
		bb_jout_obj_begin(w);
		write_boot(w, e->url, e->server, 0);
		bb_jout_obj_end(w);
	} else {
		bb_jout_null(w);
	}
	bb_jout_obj_end(w);
}

static FILE *temp_file(char *name, size_t namelen)
{
	FILE *f = tmpfile();
	if (f)
		snprintf(name, namelen, "/proc/self/fd/%d", fileno(f));
	return f;
}

void bb_collect_lava_job_free(struct collect_lava_job *job)
{
	bb_kvs_free(&job->dmesg);
}

int bb_collect_lava_job(struct lava_api *api, const char *url, long id,
                        const struct collect_opts *o, struct collect_stats *st,
                        struct collect_lava_job *job, char *err, size_t errlen)
{
	struct lava_job lj;
	struct lava_log_info info;
	struct lava_job_meta meta;
	char consname[64], e2[512], defrole[sizeof(job->role)] = "", where[4200], bootdir[4600];
	FILE *log = NULL, *cons = NULL;
	int r;

	memset(job, 0, sizeof(*job));
	job->id = id;
	if ((r = bb_lava_api_job(api, id, &lj, err, errlen)))
		return r;
	snprintf(job->state, sizeof(job->state), "%s", lj.state);
	snprintf(job->health, sizeof(job->health), "%s", lj.health);
	snprintf(job->device, sizeof(job->device), "%s", lj.device);
	if (lj.definition && !bb_lava_definition_meta(lj.definition, &meta)) {
		snprintf(job->kernel, sizeof(job->kernel), "%s", meta.kernel);
		snprintf(defrole, sizeof(defrole), "%s", meta.role);
		snprintf(job->group, sizeof(job->group), "%s", meta.target_group);
	}
	snprintf(job->role, sizeof(job->role), "%s", defrole);
	/* a two-host job's server host: its boot goes to OUTDIR/server-host, as `run` and a
	 * results disk's collect put it, by their one rule (bb_collect_boot_role): the role its
	 * env.json says, the definition's only when the log brought no env.json */
	struct collect_opts so = *o;
	so.file_server_boots = 1;
	so.role_fallback = defrole;
	if (strcmp(lj.state, "Finished")) {
		r = bb_errbuf_fail(err, errlen, -EAGAIN,
		                   "job %ld is %s%s%s, not finished: collect it "
		                   "when it is",
		                   id, lj.state, *lj.device ? " on " : "", lj.device);
		goto out;
	}
	if (!(log = tmpfile()) || !(cons = temp_file(consname, sizeof(consname)))) {
		r = bb_errbuf_fail(err, errlen, -errno, "unable to make a temporary file: %s",
		                   strerror(errno));
		goto out;
	}
	if ((r = bb_lava_api_log(api, id, log, err, errlen)))
		goto out;
	rewind(log);
	if ((r = bb_lava_log_console(log, cons, &info, e2, sizeof(e2)))) {
		r = bb_errbuf_fail(err, errlen, r, "job %ld's log: %s", id, e2);
		goto out;
	}
	if (fflush(cons)) {
		r = bb_errbuf_fail(err, errlen, -errno, "writing a temporary file: %s",
		                   strerror(errno));
		goto out;
	}
	bb_lava_job_end_text(lj.health, lj.failure, &info, job->end, sizeof(job->end));
	snprintf(job->boot_id, sizeof(job->boot_id), "%s", info.boot_id);
	job->kernel_stalls = info.kernel_stalls;
	snprintf(job->kernel_stall, sizeof(job->kernel_stall), "%s", info.kernel_stall);
	if ((r = bb_dmesg_scan_file(consname, &job->dmesg))) {
		r = bb_errbuf_fail(err, errlen, r, "reading a temporary file: %s", strerror(-r));
		goto out;
	}

	r = bb_collect_console(consname, &so, st);
	if (r == -EMEDIUMTYPE) {
		r = bb_errbuf_fail(
		    err, errlen, -EMEDIUMTYPE,
		    "job %ld (%s on %s): no result file in its log (%u console lines%s%s)", id,
		    job->end, *lj.device ? lj.device : "no device", info.console_lines,
		    *info.boot_id ? ", boot " : ", the init never started", info.boot_id);
		goto out;
	}
	if (r) {
		r = bb_errbuf_fail(err, errlen, r, "job %ld: collecting its console into %s: %s",
		                   id, o->outdir, strerror(-r));
		goto out;
	}
	/* where it went: DIR/NNNN-BOOTID or DIR/server-host/NNNN-BOOTID (its run.json beside it) */
	snprintf(where, sizeof(where), "%s", o->outdir);
	if (bb_run_find_folder(where, job->boot_id, job->folder, sizeof(job->folder))) {
		snprintf(where, sizeof(where), "%s/" COLLECT_SERVER_DIR, o->outdir);
		if (bb_run_find_folder(where, job->boot_id, job->folder, sizeof(job->folder)))
			*job->folder = 0;
	}
	if (*job->folder) {
		/* skipped as collected before, or collected now: complete unless counted otherwise
		 */
		struct collect_record rec;
		snprintf(bootdir, sizeof(bootdir), "%s/%s", where, job->folder);
		bb_collect_boot_role(bootdir, defrole, job->role, sizeof(job->role));
		job->complete = !bb_collect_record_read(AT_FDCWD, bootdir, &rec) &&
		                !strcmp(rec.status, "complete");
	} else if (!strcmp(job->role, "server")) {
		snprintf(where, sizeof(where), "%s/" COLLECT_SERVER_DIR, o->outdir);
		if (bb_fileio_mkdirs(where)) {
			r = bb_errbuf_fail(err, errlen, -errno, "unable to create %s: %s", where,
			                   strerror(errno));
			goto out;
		}
	} else {
		snprintf(where, sizeof(where), "%s", o->outdir);
	}
	if (*job->boot_id) {
		struct lava_entry e = {url, job, NULL};
		r = bb_runjson_put(where, job->boot_id, write_entry, &e, err, errlen);
	}
out:
	if (log)
		fclose(log);
	if (cons)
		fclose(cons);
	bb_lava_job_free(&lj);
	return r;
}

/*
 * The client job's boot folder linked to its server job's (both collected, same group):
 * OUTDIR/CLIENTFOLDER/server-host -> ../server-host/SERVERFOLDER, and the client's entry in
 * OUTDIR/run.json given its "server_host" (the server job's boot, job and end; folder: its
 * folder under OUTDIR/server-host/), as `benchboot run` records a two-host boot. 0 or -errno
 * with err.
 */
static int collect_lava_link(const char *url, const char *outdir,
                             const struct collect_lava_job *client,
                             const struct collect_lava_job *server, char *err, size_t errlen)
{
	if (!*client->folder || !*server->folder)
		return 0;
	int r = bb_collect_link_server_host(outdir, client->folder, server->folder, err, errlen);
	if (r < 0)
		return r;
	struct lava_entry e = {url, client, server};
	return bb_runjson_put(outdir, client->boot_id, write_entry, &e, err, errlen);
}

unsigned bb_collect_lava_link_groups(const char *url, const char *outdir,
                                     const struct collect_lava_job *jobs, size_t n,
                                     void (*msg)(void *ctx, const char *line), void *ctx)
{
	unsigned failed = 0;
	char err[2048];
	for (size_t c = 0; c < n; c++) {
		if (strcmp(jobs[c].role, "client") || !*jobs[c].group)
			continue;
		for (size_t sv = 0; sv < n; sv++) {
			if (strcmp(jobs[sv].role, "server") ||
			    strcmp(jobs[sv].group, jobs[c].group))
				continue;
			if (collect_lava_link(url, outdir, &jobs[c], &jobs[sv], err, sizeof(err))) {
				msg(ctx, err);
				failed++;
			}
		}
	}
	return failed;
}
