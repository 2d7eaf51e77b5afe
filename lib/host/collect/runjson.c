/* DIR/run.json; see runjson.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/errbuf.h"
#include "host/collect/collect.h"
#include "host/results/dmesg.h"
#include "host/collect/runjson.h"
#include "host/fileio.h"

/* How one host's boot ended: the fields a boot's entry and its server_host share. */
struct host_end {
	const char *outcome, *detail, *console;
	int finished, ok, failed;
	double wall;
	int stalls;
	const char *stall;
	const char *disk_error; /* "" or NULL: none */
};

/* "dmesg": the kernel's reports in the console log as LKP's dmesg stats (dmesg.h), each with
 * its first line; null when the log cannot be read. The log is read again at each write of
 * run.json: only its lines with a report's word go through the expressions. */
static void write_dmesg(struct jout *w, const char *console)
{
	struct bb_kvs st = {0};
	if (!console || !*console || bb_dmesg_scan_file(console, &st)) {
		bb_jout_key(w, "dmesg");
		bb_jout_null(w);
	} else {
		bb_runjson_dmesg(w, &st);
	}
	bb_kvs_free(&st);
}

void bb_runjson_dmesg(struct jout *w, const struct bb_kvs *stats)
{
	bb_jout_key(w, "dmesg");
	bb_jout_obj_begin(w);
	for (size_t i = 0; i < stats->n; i++)
		bb_jout_kv_str(w, stats->v[i].key, stats->v[i].value);
	bb_jout_obj_end(w);
}

static void write_end(struct jout *w, const struct host_end *e)
{
	bb_jout_kv_str(w, "outcome", e->outcome);
	bb_jout_kv_text(w, "detail", e->detail);
	bb_jout_kv_bool(w, "finished", e->finished);
	bb_jout_kv_int(w, "iterations_ok", e->ok);
	bb_jout_kv_int(w, "iterations_failed", e->failed);
	bb_jout_kv_num(w, "wall_s", e->wall);
	bb_jout_kv_int(w, "kernel_stalls", e->stalls);
	bb_jout_kv_text(w, "kernel_stall", e->stall);
	bb_jout_kv_text(w, "results_disk_error",
	                e->disk_error && *e->disk_error ? e->disk_error : NULL);
	write_dmesg(w, e->console);
	bb_jout_kv_text(w, "console", e->console);
}

/* A two-host boot's server host (null when it was not booted, or one host). */
static void write_server(struct jout *w, const struct bb_run_record *r)
{
	if (!r->server_outcome) {
		bb_jout_null(w);
		return;
	}
	bb_jout_obj_begin(w);
	bb_jout_kv_text(w, "boot_id", r->server_boot_id);
	bb_jout_kv_text(w, "folder", r->server_folder);
	write_end(w, &(struct host_end){r->server_outcome, r->server_detail, r->server_console,
	                                r->server_finished, r->server_ok, r->server_failed,
	                                r->server_wall, r->server_stalls, r->server_stall, NULL});
	bb_jout_obj_end(w);
}

/* "side_by_side": null for a boot that ran alone, else its group of VMs that ran at once, its
 * slot, its host CPUs and the boot ids of the others of its group (its partners). */
static void write_sbs(struct jout *w, const struct bb_run_record *recs, size_t n,
                      const struct bb_run_record *r)
{
	bb_jout_key(w, "side_by_side");
	if (!r->sbs) {
		bb_jout_null(w);
		return;
	}
	bb_jout_obj_begin(w);
	bb_jout_kv_int(w, "group", (long long)r->sbs_group);
	bb_jout_kv_int(w, "slot", (long long)r->sbs_slot);
	bb_jout_kv_str(w, "host_cpus", r->sbs_cpus);
	bb_jout_key(w, "partners");
	bb_jout_arr_begin(w);
	for (size_t i = 0; i < n; i++)
		if (&recs[i] != r && recs[i].sbs && recs[i].sbs_group == r->sbs_group)
			bb_jout_str(w, recs[i].boot_id);
	bb_jout_arr_end(w);
	bb_jout_obj_end(w);
}

static void write_boot(struct jout *w, const struct bb_run_record *recs, size_t n,
                       const struct bb_run_record *r, const struct bb_run_booted *b)
{
	bb_jout_obj_begin(w);
	bb_jout_kv_text(w, "boot_id", r->boot_id);
	bb_jout_kv_text(w, "folder", r->folder);
	bb_jout_key(w, "params");
	bb_jout_obj_begin(w);
	bb_jout_kv_str(w, "kernel", b->kernel_name);
	bb_jout_obj_end(w);
	bb_jout_kv_str(w, "vmlinuz", b->vmlinuz);
	bb_jout_kv_str(w, "initrd", b->initrd);
	if (b->job_file)
		bb_jout_kv_str(w, "job_file", b->job_file);
	bb_jout_kv_str(w, "cmdline", r->cmdline);
	bb_jout_kv_int(w, "boot_group", r->group);
	bb_jout_kv_int(w, "order_rotate", r->order_rotate);
	bb_jout_kv_str(w, "accel", r->accel);
	bb_jout_key(w, "host_cpus");
	if (r->host_cpus > 0)
		bb_jout_int(w, r->host_cpus);
	else
		bb_jout_null(w);
	bb_jout_kv_int(w, "vcpus", r->vcpus);
	bb_jout_kv_bool(w, "vcpus_oversubscribed", r->vcpus_oversubscribed);
	write_end(w, &(struct host_end){r->outcome, r->detail, r->console, r->finished, r->ok,
	                                r->failed, r->wall, r->stalls, r->stall, r->disk_error});
	bb_jout_key(w, "server_host");
	write_server(w, r);
	write_sbs(w, recs, n, r);
	bb_jout_obj_end(w);
}

static int copy(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? strdup(src) : NULL;
	return src && !*dst ? -ENOMEM : 0;
}

int bb_run_booted_set(struct bb_run_booted *b, const char *kernel_name, const char *vmlinuz,
                      const char *initrd, const char *job_file)
{
	int a = copy(&b->kernel_name, kernel_name), v = copy(&b->vmlinuz, vmlinuz),
	    i = copy(&b->initrd, initrd), j = copy(&b->job_file, job_file);
	return a ? a : v ? v : i ? i : j;
}

void bb_run_booted_free(struct bb_run_booted *b)
{
	free(b->kernel_name);
	free(b->vmlinuz);
	free(b->initrd);
	free(b->job_file);
	memset(b, 0, sizeof(*b));
}

struct recs {
	const struct bb_run_record *recs;
	const struct bb_run_booted *booted;
	size_t n;
};

static void write_recs(struct jout *w, void *ctx)
{
	const struct recs *r = ctx;
	for (size_t i = 0; i < r->n; i++)
		write_boot(w, r->recs, r->n, &r->recs[i], &r->booted[i]);
}

/* DIR/run.json: old's boots (but drop_id's, when given) in their order, then what emit writes,
 * made in memory and written whole (bb_fileio_write_file: DIR/.run.json.tmp-PID renamed into
 * place). 0 or -errno. */
static int write_file(const char *outdir, const struct jn *old, const char *drop_id,
                      void (*emit)(struct jout *w, void *ctx), void *ctx)
{
	char path[4200], *text = NULL;
	size_t len = 0;
	snprintf(path, sizeof(path), "%s/run.json", outdir);
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return -errno;
	struct jout w;
	bb_jout_init(&w, f);
	bb_jout_obj_begin(&w);
	bb_jout_kv_int(&w, "benchboot_run", 1);
	bb_jout_key(&w, "boots");
	bb_jout_arr_begin(&w);
	const struct jn *ob = old ? bb_jn_get(old, "boots") : NULL;
	for (size_t i = 0; ob && ob->type == JN_ARR && i < ob->n; i++) {
		const struct jn *id = bb_jn_get(ob->items[i], "boot_id");
		if (drop_id && id && id->type == JN_STR && !strcmp(id->str, drop_id))
			continue;
		bb_jout_node(&w, ob->items[i]);
	}
	emit(&w, ctx);
	bb_jout_arr_end(&w);
	bb_jout_obj_end(&w);
	int bad = ferror(f);
	int r = fclose(f) || bad ? -ENOMEM : bb_fileio_write_file(path, text, len);
	free(text);
	return r;
}

int bb_runjson_write(const char *outdir, const struct jn *old, const struct bb_run_record *recs,
                     const struct bb_run_booted *booted, size_t nrecs)
{
	struct recs r = {recs, booted, nrecs};
	return write_file(outdir, old, NULL, write_recs, &r);
}

int bb_runjson_put(const char *outdir, const char *boot_id,
                   void (*write_entry)(struct jout *w, void *ctx), void *ctx, char *err,
                   size_t errlen)
{
	char path[4200], msg[256];
	struct stat sb;
	struct jn *old = NULL;
	snprintf(path, sizeof(path), "%s/run.json", outdir);
	if (!stat(path, &sb) && !(old = bb_jn_parse_file(path, msg, sizeof(msg))))
		return bb_errbuf_fail(err, errlen, -EINVAL, "%s is unreadable (%s): not replaced",
		                      path, msg);
	int r = write_file(outdir, old, boot_id, write_entry, ctx);
	bb_jn_free(old);
	if (r)
		return bb_errbuf_fail(err, errlen, r, "unable to write %s: %s", path, strerror(-r));
	return 0;
}

int bb_run_find_folder(const char *outdir, const char *boot_id, char *out, size_t len)
{
	size_t il = strlen(boot_id);
	DIR *d = il ? opendir(outdir) : NULL;
	int r = -ENOENT;
	*out = 0;
	if (!d)
		return r;
	/* NNNN-BOOTID, NNNN any width (10000 and up after 9999) */
	for (struct dirent *e; r && (e = readdir(d));) {
		size_t nl = strlen(e->d_name);
		if (bb_collect_is_boot_name(e->d_name) && nl > il &&
		    e->d_name[nl - il - 1] == '-' && !strcmp(e->d_name + nl - il, boot_id)) {
			snprintf(out, len, "%s", e->d_name);
			r = 0;
		}
	}
	closedir(d);
	return r;
}
