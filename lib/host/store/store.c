/* The results store in SQLite; see store.h. */
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/compare/results_tree.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/store/lkp_tree.h"
#include "host/store/schema.h"
#include "host/store/store.h"
#include "strv.h"

struct bb_store {
	sqlite3 *db;
	char path[4096];
	/* statements prepared once, by their text's address (the SQL is in string constants) */
	struct {
		const char *sql;
		sqlite3_stmt *s;
	} cache[24];
};

/* sql's statement, prepared the first time, reset after that; NULL with *rc on failure. */
static sqlite3_stmt *prepared(struct bb_store *st, const char *sql, int *rc)
{
	size_t n = sizeof st->cache / sizeof *st->cache, i;
	for (i = 0; i < n && st->cache[i].sql; i++)
		if (st->cache[i].sql == sql) {
			sqlite3_reset(st->cache[i].s);
			sqlite3_clear_bindings(st->cache[i].s);
			return st->cache[i].s;
		}
	sqlite3_stmt *s;
	if ((*rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL)) != SQLITE_OK)
		return NULL;
	if (i < n) {
		st->cache[i].sql = sql;
		st->cache[i].s = s;
	}
	return s;
}

/* Done with a statement of prepared(): finalized unless the cache keeps it. */
static void done_with(struct bb_store *st, sqlite3_stmt *s)
{
	for (size_t i = 0; i < sizeof st->cache / sizeof *st->cache; i++)
		if (st->cache[i].s == s) {
			sqlite3_reset(s);
			return;
		}
	sqlite3_finalize(s);
}

int bb_store_path(const char *spec, char *path, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("BENCHBOOT_DB");
	if (!spec && env && *env)
		spec = env;
	if (spec && !strncmp(spec, "sqlite:", 7))
		spec += 7;
	else if (spec && strstr(spec, "://"))
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "'%s': benchboot keeps its store in SQLite (sqlite:PATH or a "
		                      "PATH); a PostgreSQL store is not built yet",
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
		                      "sqlite:PATH or BENCHBOOT_DB)");
	return 0;
}

/* An SQLite failure on the store as -errno with the reason: a file that is not a database (or
 * is damaged) is -EINVAL, a store locked past the busy timeout -EAGAIN, else -EIO. */
static int sqlfail(struct bb_store *st, int code, const char *what, char *err, size_t errlen)
{
	int prim = code & 0xff;
	if (prim == SQLITE_NOTADB || prim == SQLITE_CORRUPT)
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "%s is not a benchboot store or is damaged (%s: %s); the results folders are "
		    "the source of truth: move the file away and add them again (benchboot store "
		    "add DIR...)",
		    st->path, what, sqlite3_errstr(code));
	return bb_errbuf_fail(err, errlen, prim == SQLITE_BUSY ? -EAGAIN : -EIO, "%s: %s: %s",
	                      st->path, what, sqlite3_errmsg(st->db));
}

/*
 * Run sql with its n text parameters bound in order (NULL: SQL NULL). A row it returns puts its
 * first column into *id (when id is given); 0, 1 when id was asked and no row came, or
 * sqlfail's -errno.
 */
static int run(struct bb_store *st, const char *sql, long long *id, int n, const char *const *args,
               char *err, size_t errlen)
{
	int rc = SQLITE_OK;
	sqlite3_stmt *s = prepared(st, sql, &rc);
	if (!s)
		return sqlfail(st, rc, "prepare", err, errlen);
	for (int i = 0; i < n && rc == SQLITE_OK; i++)
		rc = args[i] ? sqlite3_bind_text(s, i + 1, args[i], -1, SQLITE_TRANSIENT)
		             : sqlite3_bind_null(s, i + 1);
	int got = 0;
	while (rc == SQLITE_OK || rc == SQLITE_ROW) {
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW && id && !got) {
			*id = sqlite3_column_int64(s, 0);
			got = 1;
		}
	}
	done_with(st, s);
	if (rc != SQLITE_DONE)
		return sqlfail(st, rc, "step", err, errlen);
	return id && !got ? 1 : 0;
}

#define RUN(st, sql, id, err, errlen, ...)                                                         \
	run(st, sql, id, (int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *)),      \
	    (const char *[]){__VA_ARGS__}, err, errlen)

static int exec(struct bb_store *st, const char *sql, char *err, size_t errlen)
{
	int rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : sqlfail(st, rc, sql, err, errlen);
}

/* The store's schema version: 0 for an empty file; -EINVAL for a database that is not a store. */
static int schema_version(struct bb_store *st, char *err, size_t errlen)
{
	long long tables = 0, v = 0;
	int rc = run(st, "SELECT count(*) FROM sqlite_master", &tables, 0, NULL, err, errlen);
	if (rc < 0)
		return rc;
	if (!tables)
		return 0;
	rc = run(st, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
	         &v, 0, NULL, err, errlen);
	if (rc < 0)
		return rc;
	if (!v || (rc = RUN(st, "SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?", &v, err,
	                    errlen, "schema")))
		return rc < 0 ? rc
		              : bb_errbuf_fail(err, errlen, -EINVAL,
		                               "%s is an SQLite database but not a benchboot store "
		                               "(no schema version): give another --db",
		                               st->path);
	return (int)v;
}

static int migrate(struct bb_store *st, int from, char *err, size_t errlen)
{
	char v[24];
	int rc = exec(st, "BEGIN IMMEDIATE", err, errlen);
	for (size_t i = (size_t)from; !rc && i < bb_store_nmigrations; i++)
		rc = exec(st, bb_store_migrations[i], err, errlen);
	snprintf(v, sizeof v, "%zu", bb_store_nmigrations);
	if (!rc)
		rc = RUN(st, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", NULL, err,
		         errlen, "schema", v);
	if (!rc)
		return exec(st, "COMMIT", err, errlen);
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int bb_store_open(const char *spec, struct bb_store **out, char *err, size_t errlen)
{
	struct bb_store *st = calloc(1, sizeof *st);
	int rc;
	*out = NULL;
	if (!st)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if ((rc = bb_store_path(spec, st->path, sizeof st->path, err, errlen)))
		goto fail;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", st->path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		if (bb_fileio_mkdirs(dir)) {
			rc = bb_errbuf_fail(err, errlen, -errno, "unable to create %s: %s", dir,
			                    strerror(errno));
			goto fail;
		}
	}
	if ((rc = sqlite3_open_v2(st->path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
	                          NULL)) != SQLITE_OK) {
		rc =
		    bb_errbuf_fail(err, errlen, rc == SQLITE_CANTOPEN ? -EACCES : -EIO,
		                   "unable to open the store %s: %s", st->path, sqlite3_errstr(rc));
		goto fail;
	}
	/* two writers at once (two runs adding): the second waits for the first */
	sqlite3_busy_timeout(st->db, 60000);
	int v = schema_version(st, err, errlen);
	if ((rc = v) < 0)
		goto fail;
	if (v > (int)bb_store_nmigrations) {
		rc = bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "%s has schema version %d, written by a newer benchboot (this one "
		    "knows versions up to %zu): use that benchboot, or another --db",
		    st->path, v, bb_store_nmigrations);
		goto fail;
	}
	if ((rc = exec(st, "PRAGMA foreign_keys = ON", err, errlen)) ||
	    (rc = exec(st, "PRAGMA journal_mode = WAL", err, errlen)) ||
	    /* WAL's own: a commit is atomic and survives the process being killed; only a
	     * power cut may lose the last ones, which `store add` (or rebuild) puts back */
	    (rc = exec(st, "PRAGMA synchronous = NORMAL", err, errlen)) ||
	    (v < (int)bb_store_nmigrations && (rc = migrate(st, v, err, errlen))))
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
	for (size_t i = 0; i < sizeof st->cache / sizeof *st->cache; i++)
		sqlite3_finalize(st->cache[i].s);
	sqlite3_close(st->db);
	free(st);
}

const char *bb_store_file(const struct bb_store *st)
{
	return st->path;
}

/* A kernel's or a job's row id, made when missing (its key: the values of a UNIQUE). */
static int row_of(struct bb_store *st, const char *insert, const char *select, long long *id, int n,
                  const char *const *args, char *err, size_t errlen)
{
	int rc = run(st, insert, NULL, n, args, err, errlen);
	if (!rc && (rc = run(st, select, id, n, args, err, errlen)) == 1)
		rc =
		    bb_errbuf_fail(err, errlen, -EIO, "%s: a row just made is not there", st->path);
	return rc;
}

/* One run of a boot: its row, parameters and every iteration's values. */
static int add_run(struct bb_store *st, long long boot, const struct bb_res_run *r,
                   struct bb_store_added *a, char *err, size_t errlen)
{
	char b[32], it[32], failed[32];
	long long id;
	snprintf(b, sizeof b, "%lld", boot);
	snprintf(it, sizeof it, "%zu", r->iterations);
	snprintf(failed, sizeof failed, "%zu", r->failed_iterations);
	int rc = RUN(st,
	             "INSERT INTO runs (boot, run_id, iterations, failed) VALUES (?, ?, ?, ?) "
	             "RETURNING id",
	             &id, err, errlen, b, r->id, it, failed);
	if (rc)
		return rc < 0 ? rc : -EIO;
	char rid[32];
	snprintf(rid, sizeof rid, "%lld", id);
	for (size_t k = 0; k < r->params.n && !rc; k++)
		rc = RUN(st, "INSERT OR REPLACE INTO params (run, key, value) VALUES (?, ?, ?)",
		         NULL, err, errlen, rid, r->params.v[k].key, r->params.v[k].value);
	static const char insert_val[] =
	    "INSERT OR REPLACE INTO vals (run, stat, i, value) VALUES (?, ?, ?, ?)";
	int prc = SQLITE_OK;
	sqlite3_stmt *s = rc ? NULL : prepared(st, insert_val, &prc);
	if (!rc && !s)
		return sqlfail(st, prc, "prepare", err, errlen);
	for (size_t k = 0; k < r->nstats && !rc; k++)
		for (size_t i = 0; i < r->stats[k].n && !rc; i++) {
			sqlite3_reset(s);
			sqlite3_bind_int64(s, 1, id);
			sqlite3_bind_text(s, 2, r->stats[k].name, -1, SQLITE_STATIC);
			sqlite3_bind_int64(s, 3, (long long)i);
			sqlite3_bind_double(s, 4, r->stats[k].vals[i]);
			int sr = sqlite3_step(s);
			rc = sr == SQLITE_DONE ? 0 : sqlfail(st, sr, "step", err, errlen);
			a->values += !rc;
		}
	if (s)
		done_with(st, s);
	a->runs++;
	return rc;
}

/* One boot, in the transaction the caller began: 1 when the store has it already. */
static int add_boot(struct bb_store *st, long long folder, const struct bb_res_boot *bt,
                    struct bb_store_added *a, char *err, size_t errlen)
{
	const char *boot_id = bb_kvs_get(&bt->env, "boot_id");
	if (!boot_id || !*boot_id)
		boot_id = bt->name;
	long long id;
	int rc = RUN(st, "SELECT id FROM boots WHERE boot_id = ?", &id, err, errlen, boot_id);
	if (rc <= 0)
		return rc < 0 ? rc : 1;
	const char *kname = bb_kvs_get(&bt->labels, "kernel");
	const char *kernel[] = {kname ? kname : "", bb_kvs_get_or(&bt->env, "kernel.release", ""),
	                        bb_kvs_get_or(&bt->env, "kernel.cmdline", "")};
	const char *job[] = {bb_kvs_get_or(&bt->env, "job", ""),
	                     bb_kvs_get_or(&bt->env, "plan_digest", "")};
	long long kid, jid;
	if ((rc = row_of(st,
	                 "INSERT OR IGNORE INTO kernels (name, release, cmdline) VALUES (?, ?, ?)",
	                 "SELECT id FROM kernels WHERE name = ? AND release = ? AND cmdline = ?",
	                 &kid, 3, kernel, err, errlen)) ||
	    (rc = row_of(st, "INSERT OR IGNORE INTO jobs (name, digest) VALUES (?, ?)",
	                 "SELECT id FROM jobs WHERE name = ? AND digest = ?", &jid, 2, job, err,
	                 errlen)))
		return rc;
	char f[32], k[32], j[32], b[32];
	snprintf(f, sizeof f, "%lld", folder);
	snprintf(k, sizeof k, "%lld", kid);
	snprintf(j, sizeof j, "%lld", jid);
	rc =
	    RUN(st,
	        "INSERT INTO boots (boot_id, folder, path, kernel, job, boot_group, outcome, done, "
	        "added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, strftime('%s', 'now')) RETURNING id",
	        &id, err, errlen, boot_id, f, bt->path, k, j, bb_kvs_get(&bt->env, "boot_group"),
	        bt->outcome, bt->done ? "1" : "0");
	if (rc)
		return rc < 0 ? rc : -EIO;
	snprintf(b, sizeof b, "%lld", id);
	for (size_t i = 0; i < bt->env.n && !rc; i++)
		rc = RUN(st, "INSERT OR REPLACE INTO env (boot, key, value) VALUES (?, ?, ?)", NULL,
		         err, errlen, b, bt->env.v[i].key, bt->env.v[i].value);
	for (size_t i = 0; i < bt->nruns && !rc; i++)
		rc = add_run(st, id, &bt->runs[i], a, err, errlen);
	return rc;
}

int bb_store_add(struct bb_store *st, const char *dir, struct bb_store_added *out, char *err,
                 size_t errlen)
{
	struct bb_results res;
	char real[PATH_MAX];
	long long folder;
	memset(out, 0, sizeof *out);
	int rc = bb_results_load(dir, &res, err, errlen);
	if (rc == -EINVAL || rc == -ENOTDIR) {
		/* not benchboot's: LKP's result tree? */
		char why[1024];
		int lrc = bb_lkp_tree_load(dir, &res, why, sizeof why);
		if (!lrc && !res.nboots)
			bb_results_free(&res);
		else if (lrc)
			return bb_errbuf_fail(err, errlen, lrc, "%s", why);
		else
			rc = 0;
	}
	if (rc)
		return rc;
	if (!realpath(dir, real))
		snprintf(real, sizeof real, "%s", dir);
	rc =
	    RUN(st, "INSERT OR IGNORE INTO folders (path, added) VALUES (?, strftime('%s', 'now'))",
	        NULL, err, errlen, real);
	if (!rc && (rc = RUN(st, "SELECT id FROM folders WHERE path = ?", &folder, err, errlen,
	                     real)) == 1)
		rc = -EIO;
	for (size_t i = 0; i < res.nboots && !rc; i++) {
		struct bb_store_added a = {0};
		if ((rc = exec(st, "BEGIN IMMEDIATE", err, errlen)))
			break;
		rc = add_boot(st, folder, &res.boots[i], &a, err, errlen);
		if (rc < 0) {
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			break;
		}
		int known = rc == 1;
		if ((rc = exec(st, "COMMIT", err, errlen)))
			break;
		out->boots_known += known;
		out->boots_new += !known;
		out->runs += a.runs;
		out->values += a.values;
	}
	bb_results_free(&res);
	return rc;
}

static int count(struct bb_store *st, const char *sql, size_t *n, char *err, size_t errlen)
{
	long long v = 0;
	int rc = run(st, sql, &v, 0, NULL, err, errlen);
	*n = (size_t)v;
	return rc < 0 ? rc : 0;
}

static char *column_text(sqlite3_stmt *s, int col)
{
	const unsigned char *t = sqlite3_column_text(s, col);
	return strdup(t ? (const char *)t : "");
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
	static const char kernels[] = "SELECT k.name, k.release, count(*), k.cmdline FROM kernels "
	                              "k JOIN boots b ON b.kernel = "
	                              "k.id "
	                              "GROUP BY k.id ORDER BY min(b.id)";
	static const char jobs[] =
	    "SELECT j.name, count(DISTINCT b.id), count(r.id) FROM jobs j JOIN boots b ON b.job = "
	    "j.id LEFT JOIN runs r ON r.boot = b.id GROUP BY j.name ORDER BY j.name";
	for (int pass = 0; pass < 2 && !rc; pass++) {
		sqlite3_stmt *s;
		if ((rc = sqlite3_prepare_v2(st->db, pass ? jobs : kernels, -1, &s, NULL)) !=
		    SQLITE_OK)
			return sqlfail(st, rc, "prepare", err, errlen);
		rc = 0;
		int sr;
		while (!rc && (sr = sqlite3_step(s)) == SQLITE_ROW) {
			if (!pass) {
				struct bb_store_kernel *k =
				    realloc(out->kernels, (out->nkernels + 1) * sizeof *k);
				if (!k) {
					rc = -ENOMEM;
					break;
				}
				out->kernels = k;
				k += out->nkernels++;
				k->name = column_text(s, 0);
				k->release = column_text(s, 1);
				k->boots = (size_t)sqlite3_column_int64(s, 2);
				k->cmdline = column_text(s, 3);
			} else {
				struct bb_store_job *j =
				    realloc(out->jobs, (out->njobs + 1) * sizeof *j);
				if (!j) {
					rc = -ENOMEM;
					break;
				}
				out->jobs = j;
				j += out->njobs++;
				j->name = column_text(s, 0);
				j->boots = (size_t)sqlite3_column_int64(s, 1);
				j->runs = (size_t)sqlite3_column_int64(s, 2);
			}
		}
		if (!rc && sr != SQLITE_DONE)
			rc = sqlfail(st, sr, "step", err, errlen);
		sqlite3_finalize(s);
	}
	if (rc == -ENOMEM)
		bb_errbuf_fail(err, errlen, rc, "out of memory");
	return rc;
}

void bb_store_summary_free(struct bb_store_summary *s)
{
	for (size_t i = 0; i < s->nkernels; i++) {
		free(s->kernels[i].name);
		free(s->kernels[i].release);
		free(s->kernels[i].cmdline);
	}
	for (size_t i = 0; i < s->njobs; i++)
		free(s->jobs[i].name);
	free(s->kernels);
	free(s->jobs);
	memset(s, 0, sizeof *s);
}

int bb_store_rebuild(struct bb_store *st, struct bb_store_added *out, char *missing,
                     size_t missinglen, char *err, size_t errlen)
{
	struct bb_strv folders = {0};
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(st->db, "SELECT path FROM folders ORDER BY id", -1, &s, NULL);
	memset(out, 0, sizeof *out);
	*missing = 0;
	if (rc != SQLITE_OK)
		return sqlfail(st, rc, "prepare", err, errlen);
	rc = 0;
	while (!rc && sqlite3_step(s) == SQLITE_ROW)
		rc = bb_strv_add(&folders, (const char *)sqlite3_column_text(s, 0)) ? -ENOMEM : 0;
	sqlite3_finalize(s);
	if (!rc)
		rc = exec(
		    st,
		    "BEGIN IMMEDIATE; DELETE FROM vals; DELETE FROM params; DELETE FROM runs; "
		    "DELETE FROM env; DELETE FROM boots; DELETE FROM kernels; DELETE FROM jobs; "
		    "DELETE FROM folders; COMMIT",
		    err, errlen);
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
	if (rc == -ENOMEM)
		bb_errbuf_fail(err, errlen, rc, "out of memory");
	return rc;
}

/* The first column of every row of sql (its n text parameters bound) into out. */
static int column_list(struct bb_store *st, const char *sql, int n, const char *const *args,
                       struct bb_strv *out, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL), sr = SQLITE_DONE;
	if (rc != SQLITE_OK)
		return sqlfail(st, rc, "prepare", err, errlen);
	for (int i = 0; i < n; i++)
		sqlite3_bind_text(s, i + 1, args[i], -1, SQLITE_TRANSIENT);
	rc = 0;
	while (!rc && (sr = sqlite3_step(s)) == SQLITE_ROW)
		if (bb_strv_add(out, (const char *)sqlite3_column_text(s, 0)))
			rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if (!rc && sr != SQLITE_DONE)
		rc = sqlfail(st, sr, "step", err, errlen);
	sqlite3_finalize(s);
	return rc;
}

int bb_store_runs(struct bb_store *st, const char *job, struct bb_strv *out, char *err,
                  size_t errlen)
{
	const char *args[] = {job};
	return column_list(st,
	                   "SELECT DISTINCT r.run_id FROM runs r JOIN boots b ON r.boot = b.id "
	                   "JOIN jobs j ON b.job = j.id WHERE j.name = ? ORDER BY r.run_id",
	                   1, args, out, err, errlen);
}

int bb_store_stats(struct bb_store *st, const char *job, const char *run_id, struct bb_strv *out,
                   char *err, size_t errlen)
{
	const char *args[] = {run_id, job};
	return column_list(st,
	                   "SELECT DISTINCT v.stat FROM jobs j JOIN boots b ON b.job = j.id JOIN "
	                   "runs r ON r.boot = b.id AND r.run_id = ? JOIN vals v ON v.run = r.id "
	                   "WHERE j.name = ? ORDER BY v.stat",
	                   2, args, out, err, errlen);
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
	int rc = run(st, "SELECT coalesce(max(id), 0) FROM kernels", &max, 0, NULL, err, errlen);
	*labels = NULL;
	*n = 0;
	if (rc < 0)
		return rc;
	char **l = calloc((size_t)max + 1, sizeof *l);
	sqlite3_stmt *s;
	if (!l)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if ((rc = sqlite3_prepare_v2(st->db,
	                             "SELECT id, CASE WHEN name != '' THEN name ELSE "
	                             "release END FROM kernels",
	                             -1, &s, NULL)) != SQLITE_OK) {
		free(l);
		return sqlfail(st, rc, "prepare", err, errlen);
	}
	rc = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(s, 0);
		if (id >= 1 && id <= max && !(l[id] = column_text(s, 1)))
			rc = -ENOMEM;
	}
	sqlite3_finalize(s);
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

int bb_store_series(struct bb_store *st, const char *job, const char *run_id, const char *stat,
                    struct bb_store_point **out, size_t *n, char *err, size_t errlen)
{
	static const char sql[] =
	    "SELECT b.kernel, b.boot_id, avg(v.value), count(v.value) FROM runs r JOIN vals v ON "
	    "v.run = r.id AND v.stat = ? JOIN boots b ON r.boot = b.id JOIN jobs j ON b.job = j.id "
	    "WHERE r.run_id = ? AND j.name = ? GROUP BY b.id ORDER BY b.id";
	char **labels;
	size_t nlabels;
	sqlite3_stmt *s;
	*out = NULL;
	*n = 0;
	int rc = kernel_labels(st, &labels, &nlabels, err, errlen), sr = SQLITE_DONE;
	if (!rc && (rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL)) != SQLITE_OK)
		rc = sqlfail(st, rc, "prepare", err, errlen);
	else if (!rc) {
		sqlite3_bind_text(s, 1, stat, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, run_id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, job, -1, SQLITE_TRANSIENT);
		while (!rc && (sr = sqlite3_step(s)) == SQLITE_ROW) {
			struct bb_store_point *p = realloc(*out, (*n + 1) * sizeof *p);
			if (!p) {
				rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
				break;
			}
			*out = p;
			p += (*n)++;
			p->kernel_id = sqlite3_column_int64(s, 0);
			const char *label = p->kernel_id >= 1 && (size_t)p->kernel_id <= nlabels
			                        ? labels[p->kernel_id]
			                        : NULL;
			p->kernel = strdup(label ? label : "");
			p->boot_id = column_text(s, 1);
			p->value = sqlite3_column_double(s, 2);
			p->nvals = (size_t)sqlite3_column_int64(s, 3);
			if (!p->kernel || !p->boot_id)
				rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		}
		if (!rc && sr != SQLITE_DONE)
			rc = sqlfail(st, sr, "step", err, errlen);
		sqlite3_finalize(s);
	}
	for (size_t i = 0; labels && i <= nlabels; i++)
		free(labels[i]);
	free(labels);
	/* the kernels in the order of their first boots, each kernel's boots together */
	if (!rc && *n)
		rc = group_by_kernel(*out, *n)
		         ? bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory")
		         : 0;
	return rc;
}

void bb_store_points_free(struct bb_store_point *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].kernel);
		free(p[i].boot_id);
	}
	free(p);
}
