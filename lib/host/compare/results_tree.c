/* Reading a collected results folder; see results_tree.h and docs/results.md. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/errbuf.h"
#include "host/fileio.h"
#include "grow.h"
#include "host/json.h"
#include "host/collect/collect.h"
#include "host/results/dmesg.h"
#include "host/compare/results_tree.h"
#include "host/compare/stat_rules.h"
#include "results/resjson.h"

int bb_runid_params(const char *runid, struct bb_kvs *params)
{
	char *copy = strdup(runid), *save = NULL;
	char *name = NULL, *lastkey = NULL;
	int r = 0;
	if (!copy)
		return -ENOMEM;
	for (char *p = strtok_r(copy, ".", &save); p && !r; p = strtok_r(NULL, ".", &save)) {
		char *eq = strchr(p, '=');
		if (eq) {
			*eq = 0;
			free(lastkey);
			lastkey = strdup(p);
			r = !lastkey || bb_kvs_set(params, p, eq + 1);
		} else if (lastkey) {
			char *v;
			r = asprintf(&v, "%s.%s", bb_kvs_get(params, lastkey), p) < 0;
			r = r || bb_kvs_set(params, lastkey, v);
			if (!r)
				free(v);
		} else {
			char *v;
			r = asprintf(&v, "%s%s%s", name ? name : "", name ? "." : "", p) < 0;
			if (!r) {
				free(name);
				name = v;
			}
		}
	}
	if (!r && name)
		r = bb_kvs_set(params, "run", name);
	free(name);
	free(lastkey);
	free(copy);
	return r ? -ENOMEM : 0;
}

const struct bb_res_stat *bb_run_stat(const struct bb_res_run *run, const char *name)
{
	for (size_t i = 0; i < run->nstats; i++)
		if (!strcmp(run->stats[i].name, name))
			return &run->stats[i];
	return NULL;
}

/* ---- loading ---- */

struct loader {
	char *err;
	size_t errlen;
	int rc;    /* the -errno of the failure said in err; 0: bad input (-EINVAL) */
	int fn_rc; /* bb_results_each: what its callback returned to end the walk */
};

/* out of memory, said and carried */
static void ld_oom(struct loader *ld)
{
	snprintf(ld->err, ld->errlen, "out of memory");
	ld->rc = -ENOMEM;
}

static int is_dir(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int exists(const char *path)
{
	struct stat st;
	return !stat(path, &st);
}

static char *join(const char *a, const char *b)
{
	char *s;
	if (asprintf(&s, "%s/%s", a, b) < 0)
		return NULL;
	return s;
}

/* Entries of a directory that are directories themselves, sorted (numbers numerically). */
static int entry_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	char *ex, *ey;
	unsigned long long nx = strtoull(x, &ex, 10), ny = strtoull(y, &ey, 10);
	if (ex != x && ey != y && !*ex && !*ey && nx != ny)
		return nx < ny ? -1 : 1;
	return strcmp(x, y);
}

static char **list_dirs(const char *path, size_t *count)
{
	DIR *d = opendir(path);
	char **names = NULL;
	size_t n = 0, cap = 0;
	*count = 0;
	if (!d)
		return NULL;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *full = join(path, de->d_name);
		int dir = full && is_dir(full);
		free(full);
		if (!dir)
			continue;
		if (bb_grow(&names, &cap, n + 1, sizeof(*names)) ||
		    !(names[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), entry_cmp);
	*count = n;
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Parse a JSON file that may be absent: 0 with *out NULL when absent, -1 on any other error. */
static int load_json(struct loader *ld, const char *path, struct jn **out)
{
	char msg[256];
	*out = NULL;
	if (!exists(path))
		return 0;
	*out = bb_jn_parse_file(path, msg, sizeof(msg));
	if (!*out) {
		snprintf(ld->err, ld->errlen, "%s: %s", path, msg);
		return -1;
	}
	return 0;
}

static int add_values(struct bb_res_run *run, const struct bb_resjson_series *series,
                      int only_monitors)
{
	if (only_monitors && !bb_stat_is_monitor(series->name))
		return 0;
	struct bb_res_stat *st = NULL;
	for (size_t i = 0; i < run->nstats; i++)
		if (!strcmp(run->stats[i].name, series->name))
			st = &run->stats[i];
	if (!st) {
		if (bb_grow(&run->stats, &run->stats_cap, run->nstats + 1, sizeof(*run->stats)))
			return -1;
		st = &run->stats[run->nstats];
		memset(st, 0, sizeof(*st));
		if (!(st->name = strdup(series->name)))
			return -1;
		run->nstats++;
	}
	double *nv = realloc(st->vals, (st->n + series->n + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	st->vals = nv;
	int test = !only_monitors && !bb_stat_is_monitor(series->name);
	for (size_t i = 0; i < series->n; i++)
		if (!isnan(series->v[i])) { /* null: the iteration had no value */
			st->vals[st->n++] = series->v[i];
			run->test_values += test;
		}
	return 0;
}

/* results.json, read with the init's own parser (lib/results/resjson.c): {"stat": [it1, it2, ...]};
 * only_monitors: the monitors' stats alone (a monitored iteration's, docs/results.md). */
static int load_stats(struct loader *ld, struct bb_res_run *run, const char *path, int *found,
                      int only_monitors)
{
	unsigned char *text;
	size_t len;
	char msg[256];
	*found = 0;
	if (!exists(path))
		return 0;
	int r = bb_fileio_read_all(path, &text, &len);
	if (r) {
		snprintf(ld->err, ld->errlen, "%s: %s", path, strerror(-r));
		ld->rc = r;
		return -1;
	}
	*found = 1;
	struct bb_resjson rj = {0};
	r = strlen((char *)text) != len ? -EINVAL
	                                : bb_resjson_parse((char *)text, &rj, msg, sizeof(msg));
	free(text);
	if (r) {
		if (r == -ENOMEM)
			ld_oom(ld);
		else
			snprintf(ld->err, ld->errlen, "%s: %s", path,
			         strlen(msg) ? msg : "a NUL byte in the file");
		bb_resjson_free(&rj);
		return -1;
	}
	for (size_t i = 0; i < rj.n; i++) {
		if (add_values(run, &rj.s[i], only_monitors)) {
			bb_resjson_free(&rj);
			ld_oom(ld);
			return -1;
		}
	}
	bb_resjson_free(&rj);
	return 0;
}

static int status_failed(const struct jn *st)
{
	static const char *const good[] = {"ok",      "pass",     "passed",   "done",
	                                   "success", "finished", "completed"};
	const struct jn *v = bb_jn_get(st, "status");
	if (!v)
		v = bb_jn_get(st, "result");
	if (!v)
		v = bb_jn_get(st, "state");
	if (v && v->type == JN_STR) {
		for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
			if (!strcasecmp(v->str, good[i]))
				return 0;
		return 1;
	}
	v = bb_jn_get(st, "ok");
	if (v && v->type == JN_BOOL)
		return !v->boolean;
	return 0;
}

/* A warm-up iteration's status: "warmup" K > 0 (benchboot's init) or true. */
static int is_warmup(const struct jn *st)
{
	const struct jn *v = bb_jn_get(st, "warmup");
	return v && ((v->type == JN_BOOL && v->boolean) || (v->type == JN_NUM && v->num > 0));
}

/* Parameters and per-run environment from a status or params object. */
static int take_params(struct bb_res_run *run, const struct jn *obj, int whole)
{
	const struct jn *p = whole ? obj : bb_jn_get(obj, "params");
	if (p && p->type == JN_OBJ && p->n && !run->params.n)
		if (bb_kvs_flatten(&run->params, "", p))
			return -1;
	if (whole)
		return 0;
	static const char *const envkeys[] = {"sysctl", "sysctls", "env", "environment"};
	for (size_t i = 0; i < sizeof(envkeys) / sizeof(*envkeys); i++) {
		const struct jn *e = bb_jn_get(obj, envkeys[i]);
		if (e && (e->type == JN_OBJ || e->type == JN_ARR))
			if (bb_kvs_flatten(&run->env, envkeys[i], e))
				return -1;
	}
	/* a two-host iteration: the sysctls the server host read back (docs/results.md) */
	const struct jn *peer = bb_jn_get(obj, "peer");
	const struct jn *ps = peer && peer->type == JN_OBJ ? bb_jn_get(peer, "sysctl") : NULL;
	if (ps && ps->type == JN_OBJ && bb_kvs_flatten(&run->env, "server.sysctl", ps))
		return -1;
	return 0;
}

static int load_run(struct loader *ld, struct bb_res_run *run, const char *dir)
{
	char *p = NULL;
	struct jn *j = NULL;
	int found = 0, r = -1;
	char **iters = NULL;
	size_t niters = 0;

	if (!(p = join(dir, "params.json")) || load_json(ld, p, &j))
		goto out;
	if (j && take_params(run, j, 1))
		goto out_oom;
	bb_jn_free(j);
	j = NULL;
	free(p);
	if (!(p = join(dir, "status")) || load_json(ld, p, &j))
		goto out;
	if (j && take_params(run, j, 0))
		goto out_oom;
	bb_jn_free(j);
	j = NULL;
	free(p);
	if (!(p = join(dir, "results.json")) || load_stats(ld, run, p, &found, 0))
		goto out;
	iters = list_dirs(dir, &niters);
	for (size_t i = 0; i < niters; i++) {
		char *end;
		if (!strncmp(iters[i], "warmup-", 7)) {
			run->warmups++; /* kept apart by the init, never compared */
			continue;
		}
		if (!strncmp(iters[i], "monitored-", 10)) {
			/* kept apart by the init: its monitors' stats only, the test's stay clean
			 */
			int f;
			run->monitored++;
			free(p);
			char *idir = join(dir, iters[i]);
			p = idir ? join(idir, "results.json") : NULL;
			free(idir);
			if (!p)
				goto out_oom;
			if (load_stats(ld, run, p, &f, 1))
				goto out;
			continue;
		}
		strtoul(iters[i], &end, 10);
		if (*end || end == iters[i])
			continue;
		char *idir = join(dir, iters[i]);
		if (!idir)
			goto out_oom;
		free(p);
		p = join(idir, "status");
		if (!p || load_json(ld, p, &j)) {
			free(idir);
			goto out;
		}
		if (j && is_warmup(j)) {
			run->warmups++;
			bb_jn_free(j);
			j = NULL;
			free(idir);
			continue;
		}
		run->iterations++;
		if (j) {
			const struct jn *pos = bb_jn_get(j, "position");
			if (pos && pos->type == JN_NUM && pos->num >= 1 && pos->num < 1e6 &&
			    (!run->first_position || pos->num < run->first_position))
				run->first_position = (int)pos->num;
			run->failed_iterations += status_failed(j);
			if (take_params(run, j, 0)) {
				free(idir);
				goto out_oom;
			}
			bb_jn_free(j);
			j = NULL;
		}
		if (!found) {
			int f;
			free(p);
			p = join(idir, "results.json");
			if (!p || load_stats(ld, run, p, &f, 0)) {
				free(idir);
				goto out;
			}
		}
		free(idir);
	}
	if (!run->params.n) {
		run->params_derived = 1;
		if (bb_runid_params(run->id, &run->params))
			goto out_oom;
	}
	bb_kvs_sort(&run->params);
	bb_kvs_sort(&run->env);
	r = 0;
	goto out;
out_oom:
	ld_oom(ld);
out:
	free_names(iters, niters);
	bb_jn_free(j);
	free(p);
	return r;
}

static const char *const boot_params_keys[] = {"boot.params", "boot_params", "plan.boot.params",
                                               "boot.boot_params"};

/*
 * A two-host boot: the server host's environment as fields "server.KEY", from the client's
 * peer/env.json (what the server host sent), else from the server host's own boot folder
 * beside it (server-host/env.json). 0, or -1 with ld->err.
 */
static int load_server_env(struct loader *ld, struct bb_res_boot *boot, const char *path)
{
	static const char *const where[] = {"peer/env.json", "server-host/env.json"};
	for (size_t i = 0; i < sizeof(where) / sizeof(*where); i++) {
		struct jn *j;
		char *p = join(path, where[i]);
		if (!p) {
			ld_oom(ld);
			return -1;
		}
		int r = load_json(ld, p, &j);
		free(p);
		if (r)
			return -1;
		if (!j)
			continue;
		r = bb_kvs_flatten(&boot->env, "server", j);
		bb_jn_free(j);
		if (r)
			ld_oom(ld);
		return r ? -1 : 0;
	}
	return 0;
}

/* The init's copy of the kernel's log (kmsg.log), when the boot has one: its reports as LKP's
 * dmesg stats (run.json's "dmesg", from the console, adds to them). 0, or -1 out of memory (an
 * unreadable kmsg.log is no reports known). */
static int load_kernel_log(struct bb_res_boot *boot, const char *p)
{
	if (!exists(p))
		return 0;
	int r = bb_dmesg_scan_file(p, &boot->dmesg);
	boot->dmesg_read = !r;
	return r == -ENOMEM ? -1 : 0;
}

/* A boot folder that collect made is complete only when its .collect record says so; a
 * folder collect is still assembling (`.NAME.tmp-PID`, given as the path itself) never is.
 * Folders without a .collect (made by hand, fixtures) are judged by their `done` alone. */
static int collected_complete(const char *path)
{
	struct collect_record rec;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (base[0] == '.' && strstr(base, ".tmp-"))
		return 0;
	int r = bb_collect_record_read(AT_FDCWD, path, &rec);
	return r == -ENOENT || (!r && !strcmp(rec.status, "complete"));
}

static int load_boot(struct loader *ld, struct bb_res_boot *boot, const char *path)
{
	char *p = NULL, *runs = NULL;
	struct jn *j = NULL;
	char **names = NULL;
	size_t n = 0;
	int r = -1;
	const char *slash = strrchr(path, '/');

	if (!(boot->path = strdup(path)) || !(boot->name = strdup(slash ? slash + 1 : path)))
		goto out_oom;
	if (!(p = join(path, "env.json")) || load_json(ld, p, &j))
		goto out;
	if (j && bb_kvs_flatten(&boot->env, "", j))
		goto out_oom;
	boot->env_missing = !boot->env.n;
	if (load_server_env(ld, boot, path))
		goto out;
	bb_kvs_sort(&boot->env);
	for (size_t i = 0; i < sizeof(boot_params_keys) / sizeof(*boot_params_keys); i++) {
		const char *bp = bb_kvs_get(&boot->env, boot_params_keys[i]);
		/* "null": the init's JSON null, a plan without boot parameters (not a word) */
		if (bp && strcmp(bp, "null") && bb_kvs_parse_words(&boot->params, bp))
			goto out_oom;
		/* an object form: boot.params.KEY=VALUE */
		size_t l = strlen(boot_params_keys[i]);
		for (size_t k = 0; k < boot->env.n; k++)
			if (!strncmp(boot->env.v[k].key, boot_params_keys[i], l) &&
			    boot->env.v[k].key[l] == '.')
				if (bb_kvs_set(&boot->params, boot->env.v[k].key + l + 1,
				               boot->env.v[k].value))
					goto out_oom;
	}
	bb_kvs_sort(&boot->params);
	free(p);
	if (!(p = join(path, "done")))
		goto out_oom;
	boot->done = exists(p) && collected_complete(path);
	free(p);
	if (!(p = join(path, "kmsg.log")) || load_kernel_log(boot, p))
		goto out_oom;
	if (!(runs = join(path, "runs")))
		goto out_oom;
	names = list_dirs(runs, &n);
	if (n && !(boot->runs = calloc(n, sizeof(*boot->runs))))
		goto out_oom;
	for (size_t i = 0; i < n; i++) {
		struct bb_res_run *run = &boot->runs[boot->nruns++];
		run->boot = boot;
		char *rd = join(runs, names[i]);
		if (!rd || !(run->id = strdup(names[i]))) {
			free(rd);
			goto out_oom;
		}
		int lr = load_run(ld, run, rd);
		free(rd);
		if (lr)
			goto out;
	}
	r = 0;
	goto out;
out_oom:
	ld_oom(ld);
out:
	free_names(names, n);
	bb_jn_free(j);
	free(p);
	free(runs);
	return r;
}

/* An entry's "dmesg" (the kernel's reports as LKP's dmesg stats, each with its first line)
 * added to the boot's: the first line of a stat seen before stays. */
static int add_dmesg(struct bb_res_boot *boot, const struct jn *entry)
{
	const struct jn *d = bb_jn_get(entry, "dmesg");
	if (d && d->type == JN_OBJ)
		boot->dmesg_read = 1;
	for (size_t k = 0; d && d->type == JN_OBJ && k < d->n; k++)
		if (!bb_kvs_get(&boot->dmesg, d->keys[k]) &&
		    bb_kvs_add(&boot->dmesg, d->keys[k],
		               d->items[k]->type == JN_STR ? d->items[k]->str : ""))
			return -1;
	return 0;
}

/*
 * DIR/run.json, written by `benchboot run`: which kernel (and so on) each boot had, as boot
 * labels: {"boots": [{"boot_id": ID, "params": {"kernel": "NAME"}}, ...]}; and the kernel's
 * reports during the boot: its lockup and stall reports ("kernel_stalls", "kernel_stall"),
 * every report as LKP's dmesg stats ("dmesg"; a two-host boot's server host's too).
 */
static int apply_kernel_reports(struct loader *ld, struct bb_res_boot *boot, const struct jn *entry)
{
	const struct jn *n = bb_jn_get(entry, "kernel_stalls");
	const struct jn *first = bb_jn_get(entry, "kernel_stall");
	if (add_dmesg(boot, entry) || add_dmesg(boot, bb_jn_get(entry, "server_host")))
		goto nomem;
	if (!n || n->type != JN_NUM || n->num < 1)
		return 0;
	boot->kernel_stalls = n->num > 1e6 ? 1000000 : (int)n->num;
	free(boot->kernel_stall);
	boot->kernel_stall = strdup(first && first->type == JN_STR ? first->str : "");
	if (boot->kernel_stall)
		return 0;
nomem:
	ld_oom(ld);
	return -1;
}

/* A copy of entry's string member key, or NULL (absent, not a string, or no memory: *oom). */
static char *entry_text(const struct jn *entry, const char *key, int *oom)
{
	const struct jn *v = bb_jn_get(entry, key);
	char *c = v && v->type == JN_STR ? strdup(v->str) : NULL;
	*oom |= v && v->type == JN_STR && !c;
	return c;
}

/* The least of the entry's boot id and its side-by-side partners' (a copy), or NULL: it ran
 * alone (no side_by_side) or the entry has no boot id (*oom: no memory). */
static char *entry_ran_with(const struct jn *entry, int *oom)
{
	const struct jn *id = bb_jn_get(entry, "boot_id");
	const struct jn *partners = bb_jn_get(bb_jn_get(entry, "side_by_side"), "partners");
	if (!id || id->type != JN_STR || !*id->str || !partners || partners->type != JN_ARR ||
	    !partners->n)
		return NULL;
	const char *least = id->str;
	for (size_t i = 0; i < partners->n; i++)
		if (partners->items[i]->type == JN_STR &&
		    strcmp(partners->items[i]->str, least) < 0)
			least = partners->items[i]->str;
	char *c = strdup(least);
	*oom |= !c;
	return c;
}

/* One run.json entry applied to a boot: its params as labels, how it ended, its kernel
 * reports, the boots it ran side by side with. */
static int apply_entry(struct loader *ld, struct bb_res_boot *boot, const struct jn *entry)
{
	int oom = 0;
	free(boot->outcome);
	free(boot->detail);
	free(boot->console);
	boot->outcome = entry_text(entry, "outcome", &oom);
	boot->detail = entry_text(entry, "detail", &oom);
	boot->console = entry_text(entry, "console", &oom);
	free(boot->ran_with);
	boot->ran_with = entry_ran_with(entry, &oom);
	free(boot->vmlinuz);
	free(boot->job_file);
	free(boot->commit);
	boot->vmlinuz = entry_text(entry, "vmlinuz", &oom);
	boot->job_file = entry_text(entry, "job_file", &oom);
	boot->commit = entry_text(entry, "commit", &oom);
	if (oom) {
		ld_oom(ld);
		return -1;
	}
	const struct jn *params = bb_jn_get(entry, "params");
	for (size_t k = 0; params && params->type == JN_OBJ && k < params->n; k++) {
		char buf[64];
		const char *v = bb_jn_scalar_text(params->items[k], buf, sizeof(buf));
		if (v && bb_kvs_set(&boot->labels, params->keys[k], v)) {
			ld_oom(ld);
			return -1;
		}
	}
	bb_kvs_sort(&boot->labels);
	return apply_kernel_reports(ld, boot, entry);
}

/* Does the boot folder's name NNNN-BOOTID end in the entry's boot id? */
static int entry_is_boot(const struct jn *entry, const struct bb_res_boot *boot)
{
	const struct jn *id = bb_jn_get(entry, "boot_id");
	if (!id || id->type != JN_STR || !*id->str)
		return 0;
	size_t il = strlen(id->str), nl = strlen(boot->name);
	return nl > il && boot->name[nl - il - 1] == '-' && !strcmp(boot->name + nl - il, id->str);
}

static void boot_free(struct bb_res_boot *boot);

/* DIR/run.json, or NULL when there is none (0), or -1 with the reason in ld. */
static int load_run_json(struct loader *ld, const char *dir, struct jn **j, char **path)
{
	*j = NULL;
	if (!(*path = join(dir, "run.json"))) {
		ld_oom(ld);
		return -1;
	}
	return load_json(ld, *path, j);
}

/* The run.json entries that are the boot applied to it; each entry matched is marked. */
static int apply_run_json(struct loader *ld, const struct jn *rj, struct bb_res_boot *boot,
                          unsigned char *matched)
{
	const struct jn *boots = rj ? bb_jn_get(rj, "boots") : NULL;
	for (size_t i = 0; boots && boots->type == JN_ARR && i < boots->n; i++)
		if (entry_is_boot(boots->items[i], boot)) {
			if (matched)
				matched[i] = 1;
			if (apply_entry(ld, boot, boots->items[i]))
				return -1;
		}
	return 0;
}

/* The entries of run.json that match no boot folder and booted: boots that left no results
 * (a panic before the results disk was written, a boot not collected), given to fn one at a
 * time as bare boots. */
static int walk_bare(struct loader *ld, const struct jn *rj, const char *runjson,
                     const unsigned char *matched, bb_results_boot_fn fn, void *ctx, size_t *nbare,
                     char *first, size_t firstlen)
{
	const struct jn *boots = rj ? bb_jn_get(rj, "boots") : NULL;
	for (size_t i = 0; boots && boots->type == JN_ARR && i < boots->n; i++) {
		const struct jn *e = boots->items[i], *outcome = bb_jn_get(e, "outcome");
		if (matched[i] || e->type != JN_OBJ ||
		    (outcome && outcome->type == JN_STR && !strcmp(outcome->str, "not-booted")))
			continue;
		struct bb_res_boot boot = {0};
		int r = -1;
		if (asprintf(&boot.name, "%s entry %zu", runjson, i + 1) < 0) {
			boot.name = NULL;
			ld_oom(ld);
		} else if (!(boot.path = strdup(boot.name)))
			ld_oom(ld);
		else if (!apply_entry(ld, &boot, e)) {
			if (!*nbare)
				bb_boot_end_text(&boot, first, firstlen);
			r = ld->fn_rc = fn(&boot, 1, ctx);
		}
		boot_free(&boot);
		if (r)
			return r;
		(*nbare)++;
	}
	return 0;
}

static int is_boot_dir(const char *path)
{
	static const char *const marks[] = {"env.json", "runs", "done"};
	for (size_t i = 0; i < 3; i++) {
		char *p = join(path, marks[i]);
		int e = p && exists(p);
		free(p);
		if (e)
			return 1;
	}
	return 0;
}

/* One boot folder loaded, its run.json entries applied, given to fn and freed. */
static int walk_boot(struct loader *ld, const char *path, const struct jn *rj,
                     unsigned char *matched, bb_results_boot_fn fn, void *ctx)
{
	struct bb_res_boot boot = {0};
	int r = load_boot(ld, &boot, path) || apply_run_json(ld, rj, &boot, matched)
	            ? -1
	            : (ld->fn_rc = fn(&boot, 0, ctx));
	boot_free(&boot);
	return r;
}

static int walk(struct loader *ld, const char *clean, bb_results_boot_fn fn, void *ctx,
                size_t *nboots, size_t *nbare, char *first, size_t firstlen)
{
	struct jn *rj = NULL;
	char *runjson = NULL, **names = NULL;
	unsigned char *matched = NULL;
	size_t n = 0;
	int r = -1;
	if (is_boot_dir(clean)) {
		/* one boot folder: its entry in the run.json of the folder above, no bare boots */
		char *parent = strdup(clean), *slash = parent ? strrchr(parent, '/') : NULL;
		if (!parent)
			ld_oom(ld);
		else {
			if (slash)
				*slash = 0;
			const char *up = slash ? (*parent ? parent : "/") : ".";
			if (!load_run_json(ld, up, &rj, &runjson) &&
			    !(r = walk_boot(ld, clean, rj, NULL, fn, ctx)))
				*nboots = 1;
		}
		free(parent);
		goto out;
	}
	if (load_run_json(ld, clean, &rj, &runjson))
		goto out;
	const struct jn *entries = rj ? bb_jn_get(rj, "boots") : NULL;
	size_t nentries = entries && entries->type == JN_ARR ? entries->n : 0;
	if (!(matched = calloc(nentries + 1, 1))) {
		ld_oom(ld);
		goto out;
	}
	names = list_dirs(clean, &n);
	for (size_t i = 0; i < n; i++) {
		char *bp = join(clean, names[i]);
		if (!bp) {
			ld_oom(ld);
			goto out;
		}
		if (!is_boot_dir(bp)) {
			free(bp);
			continue;
		}
		r = walk_boot(ld, bp, rj, matched, fn, ctx);
		free(bp);
		if (r)
			goto out;
		(*nboots)++;
	}
	r = walk_bare(ld, rj, runjson, matched, fn, ctx, nbare, first, firstlen);
out:
	free_names(names, n);
	free(matched);
	bb_jn_free(rj);
	free(runjson);
	return r;
}

int bb_results_each(const char *path, bb_results_boot_fn fn, void *ctx, char *err, size_t errlen)
{
	struct loader ld = {err, errlen, 0, 0};
	size_t nboots = 0, nbare = 0;
	char first[4400] = ""; /* how the first bare boot ended */
	if (!is_dir(path)) {
		int e = exists(path) ? ENOTDIR : errno;
		return bb_errbuf_fail(err, errlen, -e, "%s: %s", path,
		                      e == ENOTDIR ? "not a folder" : strerror(e));
	}
	char *clean = strdup(path);
	if (!clean)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t l = strlen(clean); l > 1 && clean[l - 1] == '/'; l--)
		clean[l - 1] = 0;
	int r = walk(&ld, clean, fn, ctx, &nboots, &nbare, first, sizeof first);
	if (r && ld.fn_rc) /* the callback's own end, said in its err */
		r = ld.fn_rc;
	else if (r) /* the loader's failure, said in err */
		r = ld.rc ? ld.rc : -EINVAL;
	else if (!r && !nboots && nbare)
		r = bb_errbuf_fail(err, errlen, -EINVAL,
		                   "%s: no results here: run.json records %zu boot%s that left "
		                   "none, the first %s",
		                   clean, nbare, nbare == 1 ? "" : "s", first);
	else if (!r && !nboots)
		r = bb_errbuf_fail(err, errlen, -EINVAL,
		                   "%s: no results here (neither a boot folder with env.json and "
		                   "runs/ nor a folder of them)",
		                   clean);
	free(clean);
	return r;
}

/* bb_results_load's walk: each boot moved into its array (its runs point back to it once the
 * array stops moving). */
struct load_ctx {
	struct bb_results *res;
	size_t cap, bare_cap;
};

static int keep_boot(struct bb_res_boot *boot, int bare, void *ctx)
{
	struct load_ctx *lc = ctx;
	struct bb_res_boot **arr = bare ? &lc->res->bare : &lc->res->boots;
	size_t *n = bare ? &lc->res->nbare : &lc->res->nboots;
	if (bb_grow(arr, bare ? &lc->bare_cap : &lc->cap, *n + 1, sizeof(**arr)))
		return -ENOMEM;
	(*arr)[(*n)++] = *boot;
	memset(boot, 0, sizeof *boot); /* moved: nothing left for the walk to free */
	return 0;
}

int bb_results_load(const char *path, struct bb_results *res, char *err, size_t errlen)
{
	struct load_ctx lc = {res, 0, 0};
	memset(res, 0, sizeof(*res));
	int r = bb_results_each(path, keep_boot, &lc, err, errlen);
	if (r == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (!r && !(res->path = strdup(path)))
		r = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if (r) {
		bb_results_free(res);
		return r;
	}
	for (size_t l = strlen(res->path); l > 1 && res->path[l - 1] == '/'; l--)
		res->path[l - 1] = 0;
	for (size_t b = 0; b < res->nboots; b++)
		for (size_t k = 0; k < res->boots[b].nruns; k++)
			res->boots[b].runs[k].boot = &res->boots[b];
	return 0;
}

static void boot_free(struct bb_res_boot *boot)
{
	for (size_t r = 0; r < boot->nruns; r++) {
		struct bb_res_run *run = &boot->runs[r];
		free(run->id);
		bb_kvs_free(&run->params);
		bb_kvs_free(&run->env);
		for (size_t s = 0; s < run->nstats; s++) {
			free(run->stats[s].name);
			free(run->stats[s].vals);
		}
		free(run->stats);
	}
	free(boot->runs);
	free(boot->path);
	free(boot->name);
	bb_kvs_free(&boot->env);
	bb_kvs_free(&boot->params);
	bb_kvs_free(&boot->labels);
	free(boot->kernel_stall);
	bb_kvs_free(&boot->dmesg);
	free(boot->outcome);
	free(boot->detail);
	free(boot->console);
	free(boot->ran_with);
	free(boot->vmlinuz);
	free(boot->job_file);
	free(boot->commit);
}

void bb_boot_end_text(const struct bb_res_boot *b, char *out, size_t len)
{
	snprintf(out, len, "%s%s%s%s%s%s", b->outcome ? b->outcome : "(how it ended is not known)",
	         b->detail && *b->detail ? ": " : "", b->detail ? b->detail : "",
	         b->console ? " (console log: " : "", b->console ? b->console : "",
	         b->console ? ")" : "");
}

void bb_results_free(struct bb_results *res)
{
	for (size_t b = 0; b < res->nboots; b++)
		boot_free(&res->boots[b]);
	for (size_t b = 0; b < res->nbare; b++)
		boot_free(&res->bare[b]);
	free(res->boots);
	free(res->bare);
	free(res->path);
	memset(res, 0, sizeof(*res));
}
