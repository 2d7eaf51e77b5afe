/* DIR/run.json; see runjson.h. */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "host/run/runjson.h"

/* A two-host boot's server host (null when it was not booted, or one host). */
static void write_server(struct jout *w, const struct bb_run_record *r)
{
	if (!r->server_outcome) {
		jout_null(w);
		return;
	}
	jout_obj_begin(w);
	jout_key(w, "boot_id");
	jout_str(w, *r->server_boot_id ? r->server_boot_id : NULL);
	jout_key(w, "folder");
	jout_str(w, *r->server_folder ? r->server_folder : NULL);
	jout_key(w, "outcome");
	jout_str(w, r->server_outcome);
	jout_key(w, "detail");
	jout_str(w, *r->server_detail ? r->server_detail : NULL);
	jout_key(w, "finished");
	jout_bool(w, r->server_finished);
	jout_key(w, "iterations_ok");
	jout_int(w, r->server_ok);
	jout_key(w, "iterations_failed");
	jout_int(w, r->server_failed);
	jout_key(w, "wall_s");
	jout_num(w, r->server_wall);
	jout_key(w, "console");
	jout_str(w, r->server_console);
	jout_obj_end(w);
}

static void write_boot(struct jout *w, const struct bb_run_record *r,
                       const struct bb_run_booted *b)
{
	jout_obj_begin(w);
	jout_key(w, "boot_id");
	jout_str(w, *r->boot_id ? r->boot_id : NULL);
	jout_key(w, "folder");
	jout_str(w, *r->folder ? r->folder : NULL);
	jout_key(w, "params");
	jout_obj_begin(w);
	jout_key(w, "kernel");
	jout_str(w, b->kernel_name);
	jout_obj_end(w);
	jout_key(w, "vmlinuz");
	jout_str(w, b->vmlinuz);
	jout_key(w, "initrd");
	jout_str(w, b->initrd);
	jout_key(w, "cmdline");
	jout_str(w, b->cmdline);
	jout_key(w, "boot_group");
	jout_int(w, r->group);
	jout_key(w, "accel");
	jout_str(w, r->accel);
	jout_key(w, "outcome");
	jout_str(w, r->outcome);
	jout_key(w, "detail");
	jout_str(w, *r->detail ? r->detail : NULL);
	jout_key(w, "finished");
	jout_bool(w, r->finished);
	jout_key(w, "iterations_ok");
	jout_int(w, r->ok);
	jout_key(w, "iterations_failed");
	jout_int(w, r->failed);
	jout_key(w, "wall_s");
	jout_num(w, r->wall);
	jout_key(w, "console");
	jout_str(w, *r->console ? r->console : NULL);
	jout_key(w, "server_host");
	write_server(w, r);
	jout_obj_end(w);
}

int bb_runjson_write(const char *outdir, const struct jn *old, const struct bb_run_record *recs,
                     const struct bb_run_booted *booted, size_t nrecs)
{
	char path[4200], tmp[4300];
	snprintf(path, sizeof(path), "%s/run.json", outdir);
	snprintf(tmp, sizeof(tmp), "%s/.run.json.tmp", outdir);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -errno;
	struct jout w;
	jout_init(&w, f);
	jout_obj_begin(&w);
	jout_key(&w, "benchboot_run");
	jout_int(&w, 1);
	jout_key(&w, "boots");
	jout_arr_begin(&w);
	const struct jn *ob = old ? jn_get(old, "boots") : NULL;
	for (size_t i = 0; ob && ob->type == JN_ARR && i < ob->n; i++)
		jout_node(&w, ob->items[i]);
	for (size_t i = 0; i < nrecs; i++)
		write_boot(&w, &recs[i], &booted[i]);
	jout_arr_end(&w);
	jout_obj_end(&w);
	if (fclose(f) || rename(tmp, path))
		return -errno;
	return 0;
}

int bb_run_find_folder(const char *outdir, const char *boot_id, char *out, size_t len)
{
	char path[4500];
	*out = 0;
	if (!*boot_id)
		return -ENOENT;
	for (int seq = 0; seq < 10000; seq++) {
		struct stat st;
		snprintf(path, sizeof(path), "%s/%04d-%s", outdir, seq, boot_id);
		if (!stat(path, &st)) {
			snprintf(out, len, "%04d-%s", seq, boot_id);
			return 0;
		}
	}
	return -ENOENT;
}
