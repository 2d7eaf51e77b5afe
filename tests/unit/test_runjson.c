/* DIR/run.json (lib/host/collect/runjson.c): one boot's entry put at a time, an earlier entry of
 * the same boot replaced, an unreadable file left alone; boot folders found by boot id. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "host/json.h"
#include "host/collect/runjson.h"

struct entry {
	const char *boot_id, *outcome;
};

static void write_entry(struct jout *w, void *ctx)
{
	const struct entry *e = ctx;
	bb_jout_obj_begin(w);
	bb_jout_key(w, "boot_id");
	bb_jout_str(w, e->boot_id);
	bb_jout_key(w, "outcome");
	bb_jout_str(w, e->outcome);
	bb_jout_obj_end(w);
}

/* "ID:OUTCOME ID:OUTCOME ..." of DIR/run.json's boots */
static void boots_of(const char *dir, char *out, size_t len)
{
	char path[4200], err[256], b1[128], b2[128];
	snprintf(path, sizeof(path), "%s/run.json", dir);
	struct jn *j = bb_jn_parse_file(path, err, sizeof(err));
	CHECK(j != NULL);
	CHECK_STR(bb_jn_scalar_text(bb_jn_get(j, "benchboot_run"), b1, sizeof(b1)), "1");
	const struct jn *boots = bb_jn_get(j, "boots");
	*out = 0;
	for (size_t i = 0; boots && i < boots->n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s:%s", i ? " " : "",
		         bb_jn_scalar_text(bb_jn_get(boots->items[i], "boot_id"), b1, sizeof(b1)),
		         bb_jn_scalar_text(bb_jn_get(boots->items[i], "outcome"), b2, sizeof(b2)));
	bb_jn_free(j);
}

TEST(runjson_put_appends_and_replaces)
{
	const char *d = test_tmpdir();
	char err[512], got[512];
	/* an earlier invocation's entries, as `benchboot run` wrote them */
	test_write_file(d, "run.json",
	                "{\"benchboot_run\": 1, \"boots\": [{\"boot_id\": \"a\", \"outcome\": "
	                "\"poweroff\", \"console\": \"c/a.log\"}, {\"boot_id\": \"b\", "
	                "\"outcome\": \"failed\"}]}");
	struct entry c = {"c", "finished"}, b = {"b", "finished"};
	CHECK_INT(bb_runjson_put(d, "c", write_entry, &c, err, sizeof(err)), ==, 0);
	boots_of(d, got, sizeof(got));
	CHECK_STR(got, "a:poweroff b:failed c:finished");
	/* the same boot again (collected once more): its entry replaced, the others kept */
	CHECK_INT(bb_runjson_put(d, "b", write_entry, &b, err, sizeof(err)), ==, 0);
	boots_of(d, got, sizeof(got));
	CHECK_STR(got, "a:poweroff c:finished b:finished");
	char path[4200];
	snprintf(path, sizeof(path), "%s/.run.json.tmp-%ld", d, (long)getpid());
	struct stat st;
	CHECK_INT(stat(path, &st), ==, -1); /* no temporary file left */
}

TEST(runjson_put_new_file_and_unreadable)
{
	const char *d = test_tmpdir();
	char err[512], got[512];
	struct entry a = {"a", "finished"};
	CHECK_INT(bb_runjson_put(d, "a", write_entry, &a, err, sizeof(err)), ==, 0);
	boots_of(d, got, sizeof(got));
	CHECK_STR(got, "a:finished");
	const char *p = test_write_file(d, "run.json", "{\"boots\": [ truncated");
	CHECK_INT(bb_runjson_put(d, "a", write_entry, &a, err, sizeof(err)), ==, -EINVAL);
	CHECK(strstr(err, "run.json is unreadable") && strstr(err, "not replaced"));
	char *text = NULL;
	char cmd[4300];
	snprintf(cmd, sizeof(cmd), "cat '%s'", p);
	CHECK_INT(test_run(cmd, &text), ==, 0);
	CHECK_STR(text, "{\"boots\": [ truncated");
	free(text);
}

TEST(run_find_folder_any_width)
{
	const char *d = test_tmpdir();
	char out[256];
	test_write_file(d, "0007-xy/env.json", "{}");
	test_write_file(d, "10000-abc/env.json", "{}");
	test_write_file(d, "0001-zabc/env.json", "{}");
	CHECK_INT(bb_run_find_folder(d, "abc", out, sizeof(out)), ==, 0);
	CHECK_STR(out, "10000-abc");
	CHECK_INT(bb_run_find_folder(d, "xy", out, sizeof(out)), ==, 0);
	CHECK_STR(out, "0007-xy");
	CHECK_INT(bb_run_find_folder(d, "y", out, sizeof(out)), ==, -ENOENT);
	CHECK_INT(bb_run_find_folder(d, "", out, sizeof(out)), ==, -ENOENT);
}

/* `run`'s entry: "dmesg" holds the kernel's reports in the boot's console log (each host's),
 * as LKP's dmesg stats with their first line; null when the log cannot be read. */
TEST(runjson_write_dmesg_from_console)
{
	const char *d = test_tmpdir();
	char err[256];
	test_write_file(d, "client.log",
	                "[    1.000000] Run /init as init process\n"
	                "[   24.912345] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
	                "[   30.000000] Kernel panic - not syncing: sysrq triggered crash\n");
	test_write_file(d, "server.log", "[    1.000000] Run /init as init process\n");
	struct bb_run_record rec = {.boot_id = "c1",
	                            .folder = "0001-c1",
	                            .outcome = "panic",
	                            .server_outcome = "finished",
	                            .server_boot_id = "s1"};
	snprintf(rec.console, sizeof(rec.console), "%s/client.log", d);
	snprintf(rec.server_console, sizeof(rec.server_console), "%s/server.log", d);
	struct bb_run_booted booted = {0};
	CHECK_INT(bb_run_booted_set(&booted, "k", "vmlinuz", "initrd", "/jobs/netperf.yaml"), ==,
	          0);
	CHECK_INT(bb_runjson_write(d, NULL, &rec, &booted, 1), ==, 0);
	char path[4200];
	snprintf(path, sizeof(path), "%s/run.json", d);
	struct jn *j = bb_jn_parse_file(path, err, sizeof(err));
	CHECK(j != NULL);
	const struct jn *e = bb_jn_get(j, "boots")->items[0];
	/* the job file the boot ran, for the store's job identity */
	CHECK_STR(bb_jn_get(e, "job_file")->str, "/jobs/netperf.yaml");
	const struct jn *dm = bb_jn_get(e, "dmesg");
	CHECK(dm && dm->type == JN_OBJ);
	CHECK_INT(dm->n, ==, 2);
	CHECK_STR(dm->keys[0], "dmesg.INFO:rcu_preempt_detected_stalls_on_CPUs/tasks");
	CHECK_STR(dm->items[0]->str,
	          "[   24.912345] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:");
	CHECK_STR(dm->keys[1], "dmesg.Kernel_panic-not_syncing:sysrq_triggered_crash");
	const struct jn *sdm = bb_jn_get(bb_jn_get(e, "server_host"), "dmesg");
	CHECK(sdm && sdm->type == JN_OBJ);
	CHECK_INT(sdm->n, ==, 0);
	bb_jn_free(j);
	/* a console log that is gone: null, not an empty set */
	snprintf(rec.console, sizeof(rec.console), "%s/gone.log", d);
	CHECK_INT(bb_runjson_write(d, NULL, &rec, &booted, 1), ==, 0);
	j = bb_jn_parse_file(path, err, sizeof(err));
	CHECK(j != NULL);
	dm = bb_jn_get(bb_jn_get(j, "boots")->items[0], "dmesg");
	CHECK(dm && dm->type == JN_NULL);
	bb_jn_free(j);
	bb_run_booted_free(&booted);
}

/* What each entry names is its own copy: a bisection frees and makes again its kernels' paths
 * (and its records grow by realloc) between boots, and every write of run.json names all the
 * boots so far. The command line is the record's. */
TEST(runjson_write_booted_outlives_its_sources)
{
	const char *d = test_tmpdir();
	char err[256], name[64], vmlinuz[128], path[4200];
	enum { N = 20 };
	struct bb_run_record *recs = calloc(N, sizeof(*recs));
	struct bb_run_booted *booted = calloc(N, sizeof(*booted));
	CHECK(recs && booted);
	for (size_t i = 0; i < N; i++) {
		snprintf(recs[i].boot_id, sizeof(recs[i].boot_id), "b%zu", i);
		recs[i].outcome = "poweroff";
		snprintf(recs[i].cmdline, sizeof(recs[i].cmdline), "console=ttyS0 n=%zu", i);
		snprintf(name, sizeof(name), "c%zu", i % 3);
		snprintf(vmlinuz, sizeof(vmlinuz), "/cache/%zu/vmlinuz", i);
		CHECK_INT(bb_run_booted_set(&booted[i], name, vmlinuz, NULL, NULL), ==, 0);
		memset(name, 'x', sizeof(name) - 1); /* the sources change after the boot */
		memset(vmlinuz, '\\', sizeof(vmlinuz) - 1);
		name[sizeof(name) - 1] = vmlinuz[sizeof(vmlinuz) - 1] = 0;
	}
	/* a record set again (the same slot reused) replaces its copies */
	CHECK_INT(bb_run_booted_set(&booted[0], "c0", "/cache/0/vmlinuz", "/img/initrd", NULL), ==,
	          0);
	CHECK_INT(bb_runjson_write(d, NULL, recs, booted, N), ==, 0);
	snprintf(path, sizeof(path), "%s/run.json", d);
	struct jn *j = bb_jn_parse_file(path, err, sizeof(err));
	CHECK(j != NULL);
	const struct jn *boots = bb_jn_get(j, "boots");
	CHECK_INT(boots->n, ==, N);
	for (size_t i = 0; i < N; i++) {
		const struct jn *e = boots->items[i];
		snprintf(name, sizeof(name), "c%zu", i % 3);
		snprintf(vmlinuz, sizeof(vmlinuz), "/cache/%zu/vmlinuz", i);
		CHECK_STR(bb_jn_get(bb_jn_get(e, "params"), "kernel")->str, name);
		CHECK_STR(bb_jn_get(e, "vmlinuz")->str, vmlinuz);
		snprintf(vmlinuz, sizeof(vmlinuz), "console=ttyS0 n=%zu", i);
		CHECK_STR(bb_jn_get(e, "cmdline")->str, vmlinuz);
		CHECK_INT(bb_jn_get(e, "initrd")->type, ==, i ? JN_NULL : JN_STR);
	}
	bb_jn_free(j);
	for (size_t i = 0; i < N; i++)
		bb_run_booted_free(&booted[i]);
	free(booted);
	free(recs);
}
