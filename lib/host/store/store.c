/* The results store in SQLite or PostgreSQL (store_db.h); see store.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "host/cmdline.h"
#include "host/compare/results_tree.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/store/kernel_id.h"
#include "host/store/lkp_tree.h"
#include "host/store/schema.h"
#include "host/store/store.h"
#include "host/store/store_db.h"
#include "strv.h"

struct bb_store {
	struct store_db *db;
};

/* the new boots of one store add after which the store's statistics are gathered again */
#define BB_STORE_ANALYZE_BOOTS 1000

struct store_db *store_db_of(struct bb_store *st)
{
	return st->db;
}

#define ARGS(...)                                                                                  \
	(int)(sizeof((struct store_db_arg[]){__VA_ARGS__}) / sizeof(struct store_db_arg)),         \
	    (struct store_db_arg[])                                                                \
	{                                                                                          \
		__VA_ARGS__                                                                        \
	}

/* Where the store is: spec "sqlite:PATH" or a plain PATH; NULL: $BENCHBOOT_DB, else
 * $XDG_DATA_HOME/benchboot/results.db (~/.local/share/benchboot/results.db). Into path. 0, or
 * -EINVAL with the reason (a scheme benchboot does not have). */
static int store_path(const char *spec, char *path, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("BENCHBOOT_DB");
	if (!spec && env && *env)
		spec = env;
	if (spec && !strncmp(spec, "sqlite:", 7))
		spec += 7;
	else if (spec && strstr(spec, "://") && !store_db_is_url(spec))
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "'%s': benchboot keeps its store in SQLite (sqlite:PATH or a "
		                      "PATH) or PostgreSQL (postgresql://... or postgres://...)",
		                      spec);
	if (spec && *spec) {
		snprintf(path, len, "%s", spec);
		return 0;
	}
	const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	if (data && *data)
		snprintf(path, len, "%s/benchboot/results.db", data);
	else if (home && *home)
		snprintf(path, len, "%s/.local/share/benchboot/results.db", home);
	else
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "no HOME and no XDG_DATA_HOME: say where the store is (--db "
		                      "sqlite:PATH, --db postgresql://... or BENCHBOOT_DB)");
	return 0;
}

/* The store's schema version: 0 for an empty database; -EINVAL for one that is not a store. */
static int schema_version(struct bb_store *st, char *err, size_t errlen)
{
	long long tables = 0, v = 0;
	int rc = store_db_tables(st->db, NULL, &tables, err, errlen);
	if (rc || !tables)
		return rc;
	if ((rc = store_db_tables(st->db, "meta", &v, err, errlen)))
		return rc;
	if (!v ||
	    (rc = store_db_run(st->db, "SELECT CAST(value AS INTEGER) FROM meta WHERE key = $1", &v,
	                       ARGS(STORE_DB_TEXT("schema")), err, errlen)))
		return rc < 0 ? rc
		              : bb_errbuf_fail(err, errlen, -EINVAL,
		                               "%s is a database but not a benchboot store (no "
		                               "schema version): give another --db",
		                               bb_store_file(st));
	return (int)v;
}

/* The migrations after the version the store has, in one transaction; the version read again
 * inside it (another benchboot may have just migrated the same store). */
static int migrate(struct bb_store *st, char *err, size_t errlen)
{
	int rc = store_db_begin(st->db, STORE_DB_SCHEMA, err, errlen), v = 0;
	if (!rc && (rc = v = schema_version(st, err, errlen)) > 0)
		rc = 0;
	for (size_t i = (size_t)v; !rc && i < bb_store_nmigrations; i++)
		rc = store_db_script(st->db, bb_store_migrations[i], err, errlen);
	if (!rc && (size_t)v < bb_store_nmigrations)
		rc = store_db_run(
		    st->db,
		    "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO "
		    "UPDATE SET value = excluded.value",
		    NULL,
		    ARGS(STORE_DB_TEXT("schema"), STORE_DB_INT((long long)bb_store_nmigrations)),
		    err, errlen);
	if (!rc)
		return store_db_commit(st->db, err, errlen);
	store_db_rollback(st->db);
	return rc;
}

int bb_store_open(const char *spec, struct bb_store **out, char *err, size_t errlen)
{
	struct bb_store *st = calloc(1, sizeof *st);
	char path[4096];
	int rc;
	*out = NULL;
	if (!st)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if ((rc = store_path(spec, path, sizeof path, err, errlen)))
		goto fail;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (!store_db_is_url(path) && slash && slash != dir) {
		*slash = 0;
		if (bb_fileio_mkdirs(dir)) {
			rc = bb_errbuf_fail(err, errlen, -errno, "unable to create %s: %s", dir,
			                    strerror(errno));
			goto fail;
		}
	}
	if ((rc = store_db_open(path, &st->db, err, errlen)))
		goto fail;
	int v = schema_version(st, err, errlen);
	if ((rc = v) < 0)
		goto fail;
	if (v > (int)bb_store_nmigrations) {
		rc = bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "%s has schema version %d, written by a newer benchboot (this one "
		    "knows versions up to %zu): use that benchboot, or another --db",
		    bb_store_file(st), v, bb_store_nmigrations);
		goto fail;
	}
	if ((rc = store_db_tune(st->db, err, errlen)) ||
	    (v < (int)bb_store_nmigrations && (rc = migrate(st, err, errlen))))
		goto fail;
	*out = st;
	return 0;
fail:
	bb_store_close(st);
	return rc;
}

void bb_store_close(struct bb_store *st)
{
	if (!st)
		return;
	store_db_close(st->db);
	free(st);
}

const char *bb_store_file(const struct bb_store *st)
{
	return store_db_name(st->db);
}

/* A kernel's, a job's or a folder's row id, made when missing: select finds it by its key
 * (the first nkey of the n values insert takes). Looked up first: a row made at each boot would
 * spend PostgreSQL's identities. */
static int row_of(struct bb_store *st, const char *select, const char *insert, long long *id,
                  int nkey, int n, const struct store_db_arg *args, char *err, size_t errlen)
{
	int rc = store_db_run(st->db, select, id, nkey, args, err, errlen);
	if (rc == 1 && !(rc = store_db_run(st->db, insert, NULL, n, args, err, errlen)) &&
	    (rc = store_db_run(st->db, select, id, nkey, args, err, errlen)) == 1)
		rc = bb_errbuf_fail(err, errlen, -EIO, "%s: a row just made is not there",
		                    bb_store_file(st));
	return rc;
}

/* What is known of kernel kid's identity, kept where the store had nothing (its first known
 * commit, vmlinuz and digest stay). */
static int kernel_identity(struct bb_store *st, long long kid, const struct store_kernel_id *k,
                           char *err, size_t errlen)
{
	if (!*k->commit && !*k->vmlinuz)
		return 0;
	return store_db_run(st->db,
	                    "UPDATE kernels SET git_commit = CASE WHEN git_commit = '' THEN $2 "
	                    "ELSE git_commit END, vmlinuz = CASE WHEN vmlinuz = '' THEN $3 ELSE "
	                    "vmlinuz END, sha256 = CASE WHEN sha256 = '' THEN $4 ELSE sha256 END "
	                    "WHERE id = $1",
	                    NULL,
	                    ARGS(STORE_DB_INT(kid), STORE_DB_TEXT(k->commit),
	                         STORE_DB_TEXT(k->vmlinuz), STORE_DB_TEXT(k->sha256)),
	                    err, errlen);
}

/* One run of a boot: its row, parameters and every iteration's values. */
static int add_run(struct bb_store *st, long long boot, const struct bb_res_run *r,
                   struct bb_store_added *a, char *err, size_t errlen)
{
	long long id;
	int rc = store_db_run(st->db,
	                      "INSERT INTO runs (boot, run_id, iterations, failed) VALUES ($1, $2, "
	                      "$3, $4) RETURNING id",
	                      &id,
	                      ARGS(STORE_DB_INT(boot), STORE_DB_TEXT(r->id),
	                           STORE_DB_INT((long long)r->iterations),
	                           STORE_DB_INT((long long)r->failed_iterations)),
	                      err, errlen);
	if (rc)
		return rc < 0 ? rc : -EIO;
	for (size_t k = 0; k < r->params.n && !rc; k++)
		rc = store_db_run(st->db,
		                  "INSERT INTO params (run, key, value) VALUES ($1, $2, $3) ON "
		                  "CONFLICT (run, key) DO UPDATE SET value = excluded.value",
		                  NULL,
		                  ARGS(STORE_DB_INT(id), STORE_DB_TEXT(r->params.v[k].key),
		                       STORE_DB_TEXT(r->params.v[k].value)),
		                  err, errlen);
	for (size_t k = 0; k < r->nstats && !rc; k++)
		for (size_t i = 0; i < r->stats[k].n && !rc; i++) {
			rc = store_db_run(
			    st->db,
			    "INSERT INTO vals (run, stat, i, value) VALUES ($1, $2, $3, "
			    "$4) ON CONFLICT (run, stat, i) DO UPDATE SET value = "
			    "excluded.value",
			    NULL,
			    ARGS(STORE_DB_INT(id), STORE_DB_TEXT(r->stats[k].name),
			         STORE_DB_INT((long long)i), STORE_DB_REAL(r->stats[k].vals[i])),
			    err, errlen);
			a->values += !rc;
		}
	a->runs++;
	return rc;
}

/* One boot, in the transaction the caller began: 1 when the store has it already (another
 * store add may have added it since this one looked: its insert then adds nothing). */
static int add_boot(struct bb_store *st, long long folder, const struct bb_res_boot *bt,
                    const struct store_kernel_id *kernel, struct bb_store_added *a, char *err,
                    size_t errlen)
{
	const char *boot_id = bb_kvs_get(&bt->env, "boot_id");
	if (!boot_id || !*boot_id)
		boot_id = bt->name;
	long long id, kid, jid;
	int rc = store_db_run(st->db, "SELECT id FROM boots WHERE boot_id = $1", &id,
	                      ARGS(STORE_DB_TEXT(boot_id)), err, errlen);
	if (rc <= 0)
		return rc < 0 ? rc : 1;
	const char *kname = bb_kvs_get(&bt->labels, "kernel");
	/* the kernel as booted, not where the boot stood: every round of a run has its own turn
	 * of the run order on the command line (host/cmdline.h) */
	char *cmdline =
	    bb_cmdline_without(bb_kvs_get_or(&bt->env, "kernel.cmdline", ""), BB_CMDLINE_PER_BOOT);
	if (!cmdline)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	rc = row_of(st, "SELECT id FROM kernels WHERE name = $1 AND release = $2 AND cmdline = $3",
	            "INSERT INTO kernels (name, release, cmdline) VALUES ($1, $2, $3) ON "
	            "CONFLICT DO NOTHING",
	            &kid, 3,
	            ARGS(STORE_DB_TEXT(kname ? kname : ""),
	                 STORE_DB_TEXT(bb_kvs_get_or(&bt->env, "kernel.release", "")),
	                 STORE_DB_TEXT(cmdline)),
	            err, errlen);
	free(cmdline);
	if (rc || (rc = kernel_identity(st, kid, kernel, err, errlen)) ||
	    (rc = row_of(st, "SELECT id FROM jobs WHERE name = $1 AND digest = $2",
	                 "INSERT INTO jobs (name, digest) VALUES ($1, $2) ON CONFLICT DO NOTHING",
	                 &jid, 2,
	                 ARGS(STORE_DB_TEXT(bb_kvs_get_or(&bt->env, "job", "")),
	                      STORE_DB_TEXT(bb_kvs_get_or(&bt->env, "plan_digest", ""))),
	                 err, errlen)))
		return rc;
	rc = store_db_run(
	    st->db,
	    "INSERT INTO boots (boot_id, folder, path, kernel, job, boot_group, outcome, done, "
	    "added, job_file) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT "
	    "(boot_id) DO NOTHING RETURNING id",
	    &id,
	    ARGS(STORE_DB_TEXT(boot_id), STORE_DB_INT(folder), STORE_DB_TEXT(bt->path),
	         STORE_DB_INT(kid), STORE_DB_INT(jid),
	         STORE_DB_TEXT(bb_kvs_get(&bt->env, "boot_group")), STORE_DB_TEXT(bt->outcome),
	         STORE_DB_INT(bt->done ? 1 : 0), STORE_DB_INT((long long)time(NULL)),
	         STORE_DB_TEXT(bt->job_file ? bt->job_file : "")),
	    err, errlen);
	if (rc)
		return rc;
	for (size_t i = 0; i < bt->env.n && !rc; i++)
		rc = store_db_run(
		    st->db,
		    "INSERT INTO env (boot, key, value) VALUES ($1, $2, $3) ON CONFLICT "
		    "(boot, key) DO UPDATE SET value = excluded.value",
		    NULL,
		    ARGS(STORE_DB_INT(id), STORE_DB_TEXT(bt->env.v[i].key),
		         STORE_DB_TEXT(bt->env.v[i].value)),
		    err, errlen);
	for (size_t i = 0; i < bt->nruns && !rc; i++)
		rc = add_run(st, id, &bt->runs[i], a, err, errlen);
	return rc;
}

/* One boot of a folder added in a transaction of its own: all of it or nothing. */
struct add_ctx {
	struct bb_store *st;
	const char *dir;
	long long folder; /* 0 until the first boot needs it */
	struct store_kernel_id kernel;
	struct bb_store_added *out;
	size_t seen; /* boots given, bare ones aside */
	char *err;
	size_t errlen;
};

static int folder_row(struct add_ctx *c)
{
	char real[PATH_MAX];
	if (!realpath(c->dir, real))
		snprintf(real, sizeof real, "%s", c->dir);
	return row_of(c->st, "SELECT id FROM folders WHERE path = $1",
	              "INSERT INTO folders (path, added) VALUES ($1, $2) ON CONFLICT DO NOTHING",
	              &c->folder, 1, ARGS(STORE_DB_TEXT(real), STORE_DB_INT((long long)time(NULL))),
	              c->err, c->errlen);
}

static int add_one(struct bb_res_boot *bt, int bare, void *ctx)
{
	struct add_ctx *c = ctx;
	struct bb_store_added a = {0};
	int rc;
	if (bare) /* a boot that left no results: nothing to index */
		return 0;
	c->seen++;
	/* the vmlinuz read before the transaction: no lock held while hashing */
	if ((!c->folder && (rc = folder_row(c))) ||
	    (rc = store_kernel_id(c->st->db, bt, &c->kernel, c->err, c->errlen)) ||
	    (rc = store_db_begin(c->st->db, STORE_DB_WRITE, c->err, c->errlen)))
		return rc;
	rc = add_boot(c->st, c->folder, bt, &c->kernel, &a, c->err, c->errlen);
	if (rc) /* an error, or a boot the store has: nothing to keep */
		store_db_rollback(c->st->db);
	if (rc < 0)
		return rc;
	int known = rc == 1;
	if (!known && (rc = store_db_commit(c->st->db, c->err, c->errlen))) {
		store_db_rollback(c->st->db);
		return rc;
	}
	c->out->boots_known += known;
	c->out->boots_new += !known;
	c->out->runs += a.runs;
	c->out->values += a.values;
	return 0;
}

int bb_store_add(struct bb_store *st, const char *dir, struct bb_store_added *out, char *err,
                 size_t errlen)
{
	struct add_ctx *c = calloc(1, sizeof *c);
	if (!c)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	*c = (struct add_ctx){.st = st, .dir = dir, .out = out, .err = err, .errlen = errlen};
	memset(out, 0, sizeof *out);
	/* benchboot's folders one boot at a time: memory holds one boot whatever the folder */
	int rc = bb_results_each(dir, add_one, c, err, errlen);
	if ((rc == -EINVAL || rc == -ENOTDIR) && !c->seen) {
		/* not benchboot's: LKP's result tree? */
		struct bb_results res;
		char why[1024];
		int lrc = bb_lkp_tree_load(dir, &res, why, sizeof why);
		if (lrc)
			rc = bb_errbuf_fail(err, errlen, lrc, "%s", why);
		else if (res.nboots) /* else benchboot's reason stands */
			rc = 0;
		for (size_t i = 0; !lrc && i < res.nboots && !rc; i++)
			rc = add_one(&res.boots[i], 0, c);
		if (!lrc)
			bb_results_free(&res);
	}
	/* a store that grew by many boots at once: its statistics brought up to date, so that
	 * the next queries are planned for its size (PostgreSQL's autovacuum would, a minute
	 * later; SQLite's never) */
	if (!rc && out->boots_new >= BB_STORE_ANALYZE_BOOTS)
		rc = store_db_script(st->db, "ANALYZE", err, errlen);
	free(c);
	return rc;
}

static int count(struct bb_store *st, const char *sql, size_t *n, char *err, size_t errlen)
{
	long long v = 0;
	int rc = store_db_run(st->db, sql, &v, 0, NULL, err, errlen);
	*n = (size_t)v;
	return rc < 0 ? rc : 0;
}

static char *column_text(struct bb_store *st, int col)
{
	return strdup(store_db_text(st->db, col));
}

/* The current row (name, release, boots, cmdline, commit, vmlinuz, sha256) as a kernel. */
static int add_kernel(struct bb_store *st, struct bb_store_kernel **kernels, size_t *n)
{
	struct bb_store_kernel *k = realloc(*kernels, (*n + 1) * sizeof *k);
	if (!k)
		return -ENOMEM;
	*kernels = k;
	k += (*n)++;
	memset(k, 0, sizeof *k);
	k->name = column_text(st, 0);
	k->release = column_text(st, 1);
	k->boots = (size_t)store_db_int(st->db, 2);
	k->cmdline = column_text(st, 3);
	k->commit = column_text(st, 4);
	k->vmlinuz = column_text(st, 5);
	k->sha256 = column_text(st, 6);
	return k->name && k->release && k->cmdline && k->commit && k->vmlinuz && k->sha256
	           ? 0
	           : -ENOMEM;
}

static int add_job(struct bb_store *st, struct bb_store_summary *out)
{
	struct bb_store_job *j = realloc(out->jobs, (out->njobs + 1) * sizeof *j);
	if (!j)
		return -ENOMEM;
	out->jobs = j;
	j += out->njobs++;
	j->name = column_text(st, 0);
	j->boots = (size_t)store_db_int(st->db, 1);
	j->runs = (size_t)store_db_int(st->db, 2);
	return j->name ? 0 : -ENOMEM;
}

int bb_store_summary(struct bb_store *st, struct bb_store_summary *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	int rc;
	if ((rc = count(st, "SELECT count(*) FROM folders", &out->folders, err, errlen)) ||
	    (rc = count(st, "SELECT count(*) FROM boots", &out->boots, err, errlen)) ||
	    (rc = count(st, "SELECT count(*) FROM runs", &out->runs, err, errlen)) ||
	    (rc = count(st, "SELECT count(*) FROM vals", &out->values, err, errlen)))
		return rc;
	static const char kernels[] =
	    "SELECT k.name, k.release, count(*), k.cmdline, k.git_commit, k.vmlinuz, k.sha256 FROM "
	    "kernels k JOIN boots b ON b.kernel = k.id GROUP BY k.id ORDER BY min(b.id)";
	static const char jobs[] =
	    "SELECT j.name, count(DISTINCT b.id), count(r.id) FROM jobs j JOIN boots b ON b.job = "
	    "j.id LEFT JOIN runs r ON r.boot = b.id GROUP BY j.name ORDER BY j.name";
	for (int pass = 0; pass < 2 && !rc; pass++) {
		rc = store_db_query(st->db, pass ? jobs : kernels, 0, NULL, err, errlen);
		while (!rc && (rc = store_db_row(st->db, err, errlen)) == 1)
			rc =
			    pass ? add_job(st, out) : add_kernel(st, &out->kernels, &out->nkernels);
	}
	if (rc == -ENOMEM)
		bb_errbuf_fail(err, errlen, rc, "out of memory");
	return rc;
}

void bb_store_kernels_free(struct bb_store_kernel *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(k[i].name);
		free(k[i].release);
		free(k[i].cmdline);
		free(k[i].commit);
		free(k[i].vmlinuz);
		free(k[i].sha256);
		free(k[i].label);
	}
	free(k);
}

void bb_store_summary_free(struct bb_store_summary *s)
{
	bb_store_kernels_free(s->kernels, s->nkernels);
	for (size_t i = 0; i < s->njobs; i++)
		free(s->jobs[i].name);
	free(s->jobs);
	memset(s, 0, sizeof *s);
}

/* The first column of every row of sql (its n values bound) into out. */
static int column_list(struct bb_store *st, const char *sql, int n, const struct store_db_arg *args,
                       struct bb_strv *out, char *err, size_t errlen)
{
	int rc = store_db_query(st->db, sql, n, args, err, errlen);
	while (!rc && (rc = store_db_row(st->db, err, errlen)) == 1)
		rc = bb_strv_add(out, store_db_text(st->db, 0))
		         ? bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory")
		         : 0;
	return rc;
}

int bb_store_rebuild(struct bb_store *st, struct bb_store_added *out, char *missing,
                     size_t missinglen, char *err, size_t errlen)
{
	struct bb_strv folders = {0};
	memset(out, 0, sizeof *out);
	*missing = 0;
	int rc =
	    column_list(st, "SELECT path FROM folders ORDER BY id", 0, NULL, &folders, err, errlen);
	if (!rc && !(rc = store_db_begin(st->db, STORE_DB_WRITE, err, errlen)) &&
	    (rc = store_db_script(st->db,
	                          "DELETE FROM vals; DELETE FROM params; DELETE FROM runs; DELETE "
	                          "FROM env; DELETE FROM boots; DELETE FROM kernels; DELETE FROM "
	                          "jobs; DELETE FROM folders",
	                          err, errlen)))
		store_db_rollback(st->db);
	else if (!rc)
		rc = store_db_commit(st->db, err, errlen);
	for (size_t i = 0; i < folders.n && !rc; i++) {
		struct stat sb;
		struct bb_store_added a;
		if (stat(folders.v[i], &sb)) {
			snprintf(missing + strlen(missing), missinglen - strlen(missing), "%s%s",
			         *missing ? " " : "", folders.v[i]);
			continue;
		}
		rc = bb_store_add(st, folders.v[i], &a, err, errlen);
		out->boots_new += a.boots_new;
		out->boots_known += a.boots_known;
		out->runs += a.runs;
		out->values += a.values;
	}
	bb_strv_free(&folders);
	return rc;
}

int bb_store_runs(struct bb_store *st, const char *job, struct bb_strv *out, char *err,
                  size_t errlen)
{
	return column_list(st,
	                   "SELECT DISTINCT r.run_id FROM runs r JOIN boots b ON r.boot = b.id "
	                   "JOIN jobs j ON b.job = j.id WHERE j.name = $1 ORDER BY r.run_id",
	                   ARGS(STORE_DB_TEXT(job)), out, err, errlen);
}

int bb_store_stats(struct bb_store *st, const char *job, const char *run_id, struct bb_strv *out,
                   char *err, size_t errlen)
{
	return column_list(st,
	                   "SELECT DISTINCT v.stat FROM jobs j JOIN boots b ON b.job = j.id JOIN "
	                   "runs r ON r.boot = b.id AND r.run_id = $1 JOIN vals v ON v.run = r.id "
	                   "WHERE j.name = $2 ORDER BY v.stat",
	                   ARGS(STORE_DB_TEXT(run_id), STORE_DB_TEXT(job)), out, err, errlen);
}

/* Reorder points (in boot order) so that each kernel's boots come together, the kernels in the
 * order of their first boots: 0 or -ENOMEM. */
static int group_by_kernel(struct bb_store_point *p, size_t n)
{
	struct bb_store_point *tmp = malloc(n * sizeof *tmp);
	unsigned char *taken = calloc(n, 1);
	if (!tmp || !taken) {
		free(tmp);
		free(taken);
		return -ENOMEM;
	}
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (taken[i])
			continue;
		for (size_t j = i; j < n; j++)
			if (!taken[j] && p[j].kernel_id == p[i].kernel_id) {
				tmp[m++] = p[j];
				taken[j] = 1;
			}
	}
	memcpy(p, tmp, n * sizeof *tmp);
	free(tmp);
	free(taken);
	return 0;
}

/* The kernels' labels (bb_store_point.kernel), by row id: into labels[id] (ids 1..n). */
static int kernel_labels(struct bb_store *st, char ***labels, size_t *n, char *err, size_t errlen)
{
	long long max = 0;
	int rc = store_db_run(st->db, "SELECT coalesce(max(id), 0) FROM kernels", &max, 0, NULL,
	                      err, errlen);
	*labels = NULL;
	*n = 0;
	if (rc < 0)
		return rc;
	char **l = calloc((size_t)max + 1, sizeof *l);
	if (!l)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	rc = store_db_query(
	    st->db, "SELECT id, CASE WHEN name != '' THEN name ELSE release END FROM kernels", 0,
	    NULL, err, errlen);
	while (!rc && (rc = store_db_row(st->db, err, errlen)) == 1) {
		long long id = store_db_int(st->db, 0);
		rc = id >= 1 && id <= max && !(l[id] = column_text(st, 1)) ? -ENOMEM : 0;
	}
	/* two kernels that would read the same: each with #ID */
	for (long long i = 1; !rc && i <= max; i++)
		for (long long j = i + 1; l[i] && j <= max; j++)
			if (l[j] && !strcmp(l[i], l[j])) {
				char buf[600];
				for (int k = 0; k < 2 && !rc; k++) {
					long long id = k ? j : i;
					if (strchr(l[id], '#'))
						continue;
					snprintf(buf, sizeof buf, "%s#%lld", l[id], id);
					free(l[id]);
					if (!(l[id] = strdup(buf)))
						rc = -ENOMEM;
				}
			}
	*labels = l;
	*n = (size_t)max;
	return rc == -ENOMEM ? bb_errbuf_fail(err, errlen, rc, "out of memory") : rc;
}

int bb_store_job_kernels(struct bb_store *st, const char *job, struct bb_store_kernel **out,
                         size_t *n, char *err, size_t errlen)
{
	static const char sql[] =
	    "SELECT k.name, k.release, 0, k.cmdline, k.git_commit, k.vmlinuz, k.sha256, k.id FROM "
	    "kernels k JOIN boots b ON b.kernel = k.id JOIN jobs j ON b.job = j.id WHERE j.name = "
	    "$1 GROUP BY k.id ORDER BY min(b.id)";
	char **labels;
	size_t nlabels;
	*out = NULL;
	*n = 0;
	int rc = kernel_labels(st, &labels, &nlabels, err, errlen);
	if (!rc)
		rc = store_db_query(st->db, sql, ARGS(STORE_DB_TEXT(job)), err, errlen);
	while (!rc && (rc = store_db_row(st->db, err, errlen)) == 1) {
		struct bb_store_kernel *k;
		if (!(rc = add_kernel(st, out, n))) {
			k = &(*out)[*n - 1];
			k->id = store_db_int(st->db, 7);
			const char *l =
			    k->id >= 1 && (size_t)k->id <= nlabels ? labels[k->id] : NULL;
			rc = (k->label = strdup(l ? l : "")) ? 0 : -ENOMEM;
		}
	}
	for (size_t i = 0; labels && i <= nlabels; i++)
		free(labels[i]);
	free(labels);
	return rc == -ENOMEM ? bb_errbuf_fail(err, errlen, rc, "out of memory") : rc;
}

int bb_store_job_file(struct bb_store *st, const char *job, char *out, size_t len, char *err,
                      size_t errlen)
{
	static const char sql[] =
	    "SELECT b.job_file FROM boots b JOIN jobs j ON b.job = j.id WHERE j.name = $1 AND "
	    "b.job_file != '' ORDER BY b.id DESC LIMIT 1";
	int rc = store_db_query(st->db, sql, ARGS(STORE_DB_TEXT(job)), err, errlen);
	*out = 0;
	while (!rc && (rc = store_db_row(st->db, err, errlen)) == 1)
		rc = snprintf(out, len, "%s", store_db_text(st->db, 0)) < 0;
	return rc;
}

/* The current row of the series' query as a point. */
static int add_point(struct bb_store *st, char **labels, size_t nlabels,
                     struct bb_store_point **out, size_t *n)
{
	struct bb_store_point *p = realloc(*out, (*n + 1) * sizeof *p);
	if (!p)
		return -ENOMEM;
	*out = p;
	p += (*n)++;
	p->kernel_id = store_db_int(st->db, 0);
	const char *label =
	    p->kernel_id >= 1 && (size_t)p->kernel_id <= nlabels ? labels[p->kernel_id] : NULL;
	p->kernel = strdup(label ? label : "");
	p->boot_id = column_text(st, 1);
	p->value = store_db_real(st->db, 2);
	p->nvals = (size_t)store_db_int(st->db, 3);
	return p->kernel && p->boot_id ? 0 : -ENOMEM;
}

int bb_store_series(struct bb_store *st, const char *job, const char *run_id, const char *stat,
                    struct bb_store_point **out, size_t *n, char *err, size_t errlen)
{
	static const char sql[] =
	    "SELECT b.kernel, b.boot_id, avg(v.value), count(v.value) FROM runs r JOIN vals v ON "
	    "v.run = r.id AND v.stat = $1 JOIN boots b ON r.boot = b.id JOIN jobs j ON b.job = "
	    "j.id WHERE r.run_id = $2 AND j.name = $3 GROUP BY b.id ORDER BY b.id";
	char **labels;
	size_t nlabels;
	*out = NULL;
	*n = 0;
	int rc = kernel_labels(st, &labels, &nlabels, err, errlen);
	if (!rc)
		rc = store_db_query(
		    st->db, sql,
		    ARGS(STORE_DB_TEXT(stat), STORE_DB_TEXT(run_id), STORE_DB_TEXT(job)), err,
		    errlen);
	while (!rc && (rc = store_db_row(st->db, err, errlen)) == 1)
		rc = add_point(st, labels, nlabels, out, n);
	for (size_t i = 0; labels && i <= nlabels; i++)
		free(labels[i]);
	free(labels);
	/* the kernels in the order of their first boots, each kernel's boots together */
	if (!rc && *n)
		rc = group_by_kernel(*out, *n);
	return rc == -ENOMEM ? bb_errbuf_fail(err, errlen, rc, "out of memory") : rc;
}

void bb_store_points_free(struct bb_store_point *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].kernel);
		free(p[i].boot_id);
	}
	free(p);
}
