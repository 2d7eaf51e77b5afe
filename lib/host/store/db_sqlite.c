/*
 * The store in SQLite (store_db.h): one file, no server. $N parameters are SQLite's named
 * ones, bound by name, so a statement may use one twice or out of order. Two writers at once
 * wait for each other (a busy timeout; WAL mode, set by store_db_tune, lets readers go on).
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/errbuf.h"
#include "host/store/store_db.h"

struct sqlite_db {
	struct store_db base;
	sqlite3 *db;
	sqlite3_stmt *cur; /* the last query's statement, until its rows are read */
	/* statements prepared once, by their text's address (the SQL is in string constants) */
	struct {
		const char *sql;
		sqlite3_stmt *s;
	} cache[32];
};

static struct sqlite_db *of(struct store_db *db)
{
	return (struct sqlite_db *)db;
}

/* An SQLite failure as -errno with the reason: a file that is not a database (or is damaged)
 * is -EINVAL, a store locked past the busy timeout -EAGAIN, else -EIO. */
static int fail(struct sqlite_db *d, int code, const char *what, char *err, size_t errlen)
{
	int prim = code & 0xff;
	if (prim == SQLITE_NOTADB || prim == SQLITE_CORRUPT)
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "%s is not a benchboot store or is damaged (%s: %s); the results folders are "
		    "the source of truth: move the file away and add them again (benchboot store "
		    "add DIR...)",
		    d->base.name, what, sqlite3_errstr(code));
	return bb_errbuf_fail(err, errlen, prim == SQLITE_BUSY ? -EAGAIN : -EIO, "%s: %s: %s",
	                      d->base.name, what, sqlite3_errmsg(d->db));
}

static int cached(struct sqlite_db *d, sqlite3_stmt *s)
{
	for (size_t i = 0; i < sizeof d->cache / sizeof *d->cache; i++)
		if (d->cache[i].s == s)
			return 1;
	return 0;
}

/* The last query's statement is done: reset when the cache keeps it, else finalized. */
static void end_query(struct sqlite_db *d)
{
	if (d->cur && cached(d, d->cur))
		sqlite3_reset(d->cur);
	else if (d->cur)
		sqlite3_finalize(d->cur);
	d->cur = NULL;
}

/* sql's statement, prepared the first time, reset after that: SQLite's result code. */
static int prepared(struct sqlite_db *d, const char *sql, sqlite3_stmt **out)
{
	size_t n = sizeof d->cache / sizeof *d->cache, i;
	for (i = 0; i < n && d->cache[i].sql; i++)
		if (d->cache[i].sql == sql) {
			sqlite3_clear_bindings(d->cache[i].s);
			*out = d->cache[i].s;
			return SQLITE_OK;
		}
	int rc = sqlite3_prepare_v2(d->db, sql, -1, out, NULL);
	if (rc == SQLITE_OK && i < n) {
		d->cache[i].sql = sql;
		d->cache[i].s = *out;
	}
	return rc;
}

static int bind(sqlite3_stmt *s, int i, const struct store_db_arg *a)
{
	char name[16];
	snprintf(name, sizeof name, "$%d", i);
	int at = sqlite3_bind_parameter_index(s, name);
	if (!at)
		return SQLITE_RANGE;
	switch (a->type) {
	case STORE_DB_TEXT_V:
		return a->text ? sqlite3_bind_text(s, at, a->text, -1, SQLITE_TRANSIENT)
		               : sqlite3_bind_null(s, at);
	case STORE_DB_INT_V:
		return sqlite3_bind_int64(s, at, a->i);
	case STORE_DB_REAL_V:
		return sqlite3_bind_double(s, at, a->d);
	default:
		return sqlite3_bind_null(s, at);
	}
}

static int query(struct store_db *db, const char *sql, int n, const struct store_db_arg *args,
                 char *err, size_t errlen)
{
	struct sqlite_db *d = of(db);
	end_query(d);
	int rc = prepared(d, sql, &d->cur);
	if (rc != SQLITE_OK) {
		d->cur = NULL;
		return fail(d, rc, "prepare", err, errlen);
	}
	for (int i = 0; i < n; i++)
		if ((rc = bind(d->cur, i + 1, &args[i])) != SQLITE_OK) {
			rc = fail(d, rc, "bind", err, errlen);
			end_query(d);
			return rc;
		}
	return 0;
}

static int row(struct store_db *db, char *err, size_t errlen)
{
	struct sqlite_db *d = of(db);
	if (!d->cur)
		return 0;
	int rc = sqlite3_step(d->cur);
	if (rc == SQLITE_ROW)
		return 1;
	rc = rc == SQLITE_DONE ? 0 : fail(d, rc, "step", err, errlen);
	end_query(d);
	return rc;
}

static const char *text(struct store_db *db, int col)
{
	const unsigned char *t = sqlite3_column_text(of(db)->cur, col);
	return t ? (const char *)t : "";
}

static long long integer(struct store_db *db, int col)
{
	return sqlite3_column_int64(of(db)->cur, col);
}

static double real(struct store_db *db, int col)
{
	return sqlite3_column_double(of(db)->cur, col);
}

static int script(struct store_db *db, const char *sql, char *err, size_t errlen)
{
	struct sqlite_db *d = of(db);
	end_query(d);
	int rc = sqlite3_exec(d->db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : fail(d, rc, sql, err, errlen);
}

static void close_db(struct store_db *db)
{
	struct sqlite_db *d = of(db);
	end_query(d);
	for (size_t i = 0; i < sizeof d->cache / sizeof *d->cache; i++)
		sqlite3_finalize(d->cache[i].s);
	sqlite3_close(d->db);
	free(d);
}

static const struct store_db_ops ops = {
    .query = query,
    .row = row,
    .text = text,
    .integer = integer,
    .real = real,
    .script = script,
    .close = close_db,
    /* the write lock at once: a second writer waits (busy timeout) rather than failing at
     * its first write inside a transaction that read first */
    .begin_write = "BEGIN IMMEDIATE",
    .begin_schema = "BEGIN IMMEDIATE",
    .tables_sql = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND ($1 IS NULL OR "
                  "name = $1)",
    /* WAL: readers go on beside a writer; a commit is atomic and survives the process being
     * killed; synchronous NORMAL: only a power cut may lose the last ones, which `store add`
     * (or rebuild) puts back */
    .tune = "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL",
};

int store_db_sqlite_open(const char *path, struct store_db **out, char *err, size_t errlen)
{
	struct sqlite_db *d = calloc(1, sizeof *d);
	*out = NULL;
	if (!d)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	d->base.ops = &ops;
	snprintf(d->base.name, sizeof d->base.name, "%s", path);
	int rc = sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		rc = bb_errbuf_fail(err, errlen, rc == SQLITE_CANTOPEN ? -EACCES : -EIO,
		                    "unable to open the store %s: %s", path, sqlite3_errstr(rc));
		close_db(&d->base);
		return rc;
	}
	/* two writers at once (two runs adding): the second waits for the first */
	sqlite3_busy_timeout(d->db, 60000);
	if ((rc = script(&d->base, "PRAGMA foreign_keys = ON", err, errlen))) {
		close_db(&d->base);
		return rc;
	}
	*out = &d->base;
	return 0;
}
