/* A LAVA job's results from its log; see collect_lava.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/boot/lava_api.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/json.h"
#include "host/results/collect_lava.h"
#include "host/results/lava_log.h"

/* The boot folder collect made for boot_id: DIR/NNNN-BOOTID. */
static void find_folder(const char *dir, const char *boot_id, char *out, size_t outlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t il = strlen(boot_id);
	*out = 0;
	if (!d || !il)
		goto out;
	while ((e = readdir(d))) {
		size_t nl = strlen(e->d_name);
		if (collect_is_boot_name(e->d_name) && nl > il && e->d_name[nl - il - 1] == '-' &&
		    !strcmp(e->d_name + nl - il, boot_id)) {
			snprintf(out, outlen, "%s", e->d_name);
			break;
		}
	}
out:
	if (d)
		closedir(d);
}

/*
 * DIR/run.json as `benchboot run` writes it ({"boots": [{"boot_id", "folder", "params": {...}},
 * ...]}, the params being the boot's labels), with this job's entry in place of any earlier one
 * for the same boot.
 */
static int write_run_json(const char *dir, const char *url, const struct collect_lava_job *j,
                          char *err, size_t errlen)
{
	char path[4200], tmp[4300], msg[256], idtext[32];
	struct stat sb;
	struct jn *old = NULL;
	snprintf(path, sizeof(path), "%s/run.json", dir);
	snprintf(tmp, sizeof(tmp), "%s/.run.json.tmp-%ld", dir, (long)getpid());
	if (!stat(path, &sb) && !(old = jn_parse_file(path, msg, sizeof(msg))))
		return errbuf_fail(err, errlen, -EINVAL, "%s is unreadable (%s): not replaced",
		                   path, msg);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		jn_free(old);
		return errbuf_fail(err, errlen, -errno, "unable to write %s: %s", tmp,
		                   strerror(errno));
	}
	struct jout w;
	jout_init(&w, f);
	jout_obj_begin(&w);
	jout_key(&w, "benchboot_run");
	jout_int(&w, 1);
	jout_key(&w, "boots");
	jout_arr_begin(&w);
	const struct jn *ob = old ? jn_get(old, "boots") : NULL;
	for (size_t i = 0; ob && ob->type == JN_ARR && i < ob->n; i++) {
		const struct jn *id = jn_get(ob->items[i], "boot_id");
		if (id && id->type == JN_STR && !strcmp(id->str, j->boot_id))
			continue;
		jout_node(&w, ob->items[i]);
	}
	snprintf(idtext, sizeof(idtext), "%ld", j->id);
	jout_obj_begin(&w);
	jout_key(&w, "boot_id");
	jout_str(&w, j->boot_id);
	jout_key(&w, "folder");
	jout_str(&w, *j->folder ? j->folder : NULL);
	jout_key(&w, "params");
	jout_obj_begin(&w);
	if (*j->kernel) {
		jout_key(&w, "kernel");
		jout_str(&w, j->kernel);
	}
	jout_key(&w, "lava_job");
	jout_str(&w, idtext);
	jout_key(&w, "lava_device");
	jout_str(&w, j->device);
	jout_obj_end(&w);
	jout_key(&w, "lava");
	jout_obj_begin(&w);
	jout_key(&w, "url");
	jout_str(&w, url);
	jout_key(&w, "job");
	jout_int(&w, j->id);
	jout_key(&w, "device");
	jout_str(&w, j->device);
	jout_key(&w, "health");
	jout_str(&w, j->health);
	jout_key(&w, "end");
	jout_str(&w, j->end);
	jout_obj_end(&w);
	jout_key(&w, "outcome");
	jout_str(&w, !strcmp(j->health, "Complete") && j->complete ? "finished" : "failed");
	jout_key(&w, "finished");
	jout_bool(&w, j->complete);
	jout_obj_end(&w);
	jout_arr_end(&w);
	jout_obj_end(&w);
	jn_free(old);
	int bad = ferror(f);
	if (fclose(f) || bad || rename(tmp, path)) {
		int e = errno ? errno : EIO;
		unlink(tmp);
		return errbuf_fail(err, errlen, -e, "unable to write %s: %s", path, strerror(e));
	}
	return 0;
}

/* An unlinked temporary file, and its /proc/self/fd name for the readers that take a path. */
static FILE *temp_file(char *name, size_t namelen)
{
	FILE *f = tmpfile();
	if (f)
		snprintf(name, namelen, "/proc/self/fd/%d", fileno(f));
	return f;
}

int collect_lava_job(struct lava_api *api, const char *url, long id, const struct collect_opts *o,
                     struct collect_stats *st, struct collect_lava_job *job, char *err,
                     size_t errlen)
{
	struct lava_job lj;
	struct lava_log_info info;
	struct lava_job_meta meta;
	char consname[64], e2[512];
	FILE *log = NULL, *cons = NULL;
	int r;

	memset(job, 0, sizeof(*job));
	job->id = id;
	if ((r = lava_api_job(api, id, &lj, err, errlen)))
		return r;
	snprintf(job->state, sizeof(job->state), "%s", lj.state);
	snprintf(job->health, sizeof(job->health), "%s", lj.health);
	snprintf(job->device, sizeof(job->device), "%s", lj.device);
	if (lj.definition && !lava_definition_meta(lj.definition, &meta)) {
		snprintf(job->kernel, sizeof(job->kernel), "%s", meta.kernel);
		snprintf(job->role, sizeof(job->role), "%s", meta.role);
		snprintf(job->group, sizeof(job->group), "%s", meta.target_group);
	}
	/* a two-host job's server host: its boots go to OUTDIR/server-host, as `run` puts them */
	struct collect_opts so = *o;
	char serverdir[4200];
	if (!strcmp(job->role, "server")) {
		snprintf(serverdir, sizeof(serverdir), "%s/" COLLECT_SERVER_DIR, o->outdir);
		if (fileio_mkdirs(serverdir)) {
			r = errbuf_fail(err, errlen, -errno, "unable to create %s: %s", serverdir,
			                strerror(errno));
			goto out;
		}
		so.outdir = serverdir;
		o = &so;
	}
	if (strcmp(lj.state, "Finished")) {
		r = errbuf_fail(err, errlen, -EAGAIN,
		                "job %ld is %s%s%s, not finished: collect it "
		                "when it is",
		                id, lj.state, *lj.device ? " on " : "", lj.device);
		goto out;
	}
	if (!(log = tmpfile()) || !(cons = temp_file(consname, sizeof(consname)))) {
		r = errbuf_fail(err, errlen, -errno, "unable to make a temporary file: %s",
		                strerror(errno));
		goto out;
	}
	if ((r = lava_api_log(api, id, log, err, errlen)))
		goto out;
	rewind(log);
	if ((r = lava_log_console(log, cons, &info, e2, sizeof(e2)))) {
		r = errbuf_fail(err, errlen, r, "job %ld's log: %s", id, e2);
		goto out;
	}
	if (fflush(cons)) {
		r = errbuf_fail(err, errlen, -errno, "writing a temporary file: %s",
		                strerror(errno));
		goto out;
	}
	lava_job_end_text(lj.health, lj.failure, &info, job->end, sizeof(job->end));
	snprintf(job->boot_id, sizeof(job->boot_id), "%s", info.boot_id);

	r = collect_console(consname, o, st);
	if (r == -EMEDIUMTYPE) {
		r = errbuf_fail(
		    err, errlen, -EMEDIUMTYPE,
		    "job %ld (%s on %s): no result file in its log (%u console lines%s%s)", id,
		    job->end, *lj.device ? lj.device : "no device", info.console_lines,
		    *info.boot_id ? ", boot " : ", the init never started", info.boot_id);
		goto out;
	}
	if (r) {
		r = errbuf_fail(err, errlen, r, "job %ld: collecting its console into %s: %s", id,
		                o->outdir, strerror(-r));
		goto out;
	}
	find_folder(o->outdir, job->boot_id, job->folder, sizeof(job->folder));
	if (*job->folder) {
		/* skipped as collected before, or collected now: complete unless counted otherwise
		 */
		char p[4500], status[64] = "";
		snprintf(p, sizeof(p), "%s/%s/.collect", o->outdir, job->folder);
		FILE *c = fopen(p, "r");
		char line[256];
		while (c && fgets(line, sizeof(line), c))
			if (!strncmp(line, "status=", 7))
				snprintf(status, sizeof(status), "%.*s",
				         (int)strcspn(line + 7, "\n"), line + 7);
		if (c)
			fclose(c);
		job->complete = !strcmp(status, "complete");
	}
	if (*job->boot_id)
		r = write_run_json(o->outdir, url, job, err, errlen);
out:
	if (log)
		fclose(log);
	if (cons)
		fclose(cons);
	lava_job_free(&lj);
	return r;
}

int collect_lava_link(const char *outdir, const struct collect_lava_job *client,
                      const struct collect_lava_job *server, char *err, size_t errlen)
{
	if (!*client->folder || !*server->folder)
		return 0;
	int r = collect_link_server_host(outdir, client->folder, server->folder, err, errlen);
	return r < 0 ? r : 0;
}
