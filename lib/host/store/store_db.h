/*
 * The store's database, SQLite or PostgreSQL behind one interface (docs/history.md), so that
 * the schema (schema.c) and every query (store.c) are written once for both. A statement is
 * SQL both engines read, its values bound as $1, $2, ... (never pasted into the text); the
 * types the two spell differently are written as SQLite spells them and translated for
 * PostgreSQL in one place (db_pg.c). A statement whose text is a string constant is prepared
 * once, by its text's address. One statement's rows at a time: a query ends the previous one.
 *
 *     struct store_db *db;
 *     if (store_db_open("postgresql://lab/bench", &db, err, sizeof err)) ...
 *     const struct store_db_arg args[] = {STORE_DB_TEXT("netperf")};
 *     int rc = store_db_query(db, "SELECT id FROM jobs WHERE name = $1", 1, args, err, errlen);
 *     while (!rc && (rc = store_db_row(db, err, errlen)) == 1)
 *             id = store_db_int(db, 0);
 *     store_db_close(db);
 *
 * Errors are -errno with the reason: -EINVAL for a database that is not a store or is damaged,
 * -EAGAIN for a store locked past the busy timeout, -ECONNREFUSED for a server that cannot be
 * reached, else -EIO. Host only; the store's own files alone include it.
 */
#ifndef BENCHBOOT_HOST_STORE_DB_H
#define BENCHBOOT_HOST_STORE_DB_H

#include <stddef.h>

/* A bound value. */
struct store_db_arg {
	enum { STORE_DB_NULL, STORE_DB_TEXT_V, STORE_DB_INT_V, STORE_DB_REAL_V } type;
	const char *text; /* TEXT; NULL text is SQL NULL */
	long long i;
	double d;
};
#define STORE_DB_TEXT(s) ((struct store_db_arg){.type = STORE_DB_TEXT_V, .text = (s)})
#define STORE_DB_INT(v) ((struct store_db_arg){.type = STORE_DB_INT_V, .i = (v)})
#define STORE_DB_REAL(v) ((struct store_db_arg){.type = STORE_DB_REAL_V, .d = (v)})

/* How a transaction begins: a writer's (SQLite takes the write lock at once, so two writers
 * wait for each other instead of failing), or a schema change's (PostgreSQL also takes the
 * store's migration lock: two first opens at once migrate once). */
enum store_db_begin { STORE_DB_WRITE, STORE_DB_SCHEMA };

struct store_db;

/* 1 when spec is a PostgreSQL URL (postgresql:// or postgres://). */
int store_db_is_url(const char *spec);
/* Open a store: spec "postgresql://..." or "postgres://..." (libpq's URL), else an SQLite file
 * (created when missing; its folder is the caller's). 0 or -errno with err. */
int store_db_open(const char *spec, struct store_db **out, char *err, size_t errlen);
void store_db_close(struct store_db *db);
/* The store as messages name it: the file, or the URL without its password. */
const char *store_db_name(const struct store_db *db);

/* Run sql with its n values bound to $1..$n; its rows are then read with store_db_row. */
int store_db_query(struct store_db *db, const char *sql, int n, const struct store_db_arg *args,
                   char *err, size_t errlen);
/* The next row of the last query: 1 a row, 0 no more (the statement is done), -errno. */
int store_db_row(struct store_db *db, char *err, size_t errlen);
/* A column of the current row: text ("" for NULL; valid until the next row), number. */
const char *store_db_text(struct store_db *db, int col);
long long store_db_int(struct store_db *db, int col);
double store_db_real(struct store_db *db, int col);

/* sql run to its end; *first (when given) the first column of its first row. 0, 1 when first
 * was asked and no row came, -errno. Without first, PostgreSQL may send it without waiting for
 * its answer (store_db_ops.defer): a failure is then said by the next call that waits. */
int store_db_run(struct store_db *db, const char *sql, long long *first, int n,
                 const struct store_db_arg *args, char *err, size_t errlen);
/* Statements without values, separated by ';' (a migration). */
int store_db_script(struct store_db *db, const char *sql, char *err, size_t errlen);

int store_db_begin(struct store_db *db, enum store_db_begin how, char *err, size_t errlen);
int store_db_commit(struct store_db *db, char *err, size_t errlen);
void store_db_rollback(struct store_db *db);

/* The engine's settings for a store (store_db_ops.tune), once the database is known to be
 * one: SQLite's WAL, PostgreSQL's commits. */
int store_db_tune(struct store_db *db, char *err, size_t errlen);

/* The tables of the store's database: all (name NULL) or those named name. 0 or -errno. */
int store_db_tables(struct store_db *db, const char *name, long long *n, char *err, size_t errlen);

/* What each engine provides (db_sqlite.c, db_pg.c). */
struct store_db_ops {
	int (*query)(struct store_db *db, const char *sql, int n, const struct store_db_arg *args,
	             char *err, size_t errlen);
	/* a statement whose rows are not read (NULL: run as a query) */
	int (*defer)(struct store_db *db, const char *sql, int n, const struct store_db_arg *args,
	             char *err, size_t errlen);
	int (*row)(struct store_db *db, char *err, size_t errlen);
	const char *(*text)(struct store_db *db, int col);
	long long (*integer)(struct store_db *db, int col);
	double (*real)(struct store_db *db, int col);
	int (*script)(struct store_db *db, const char *sql, char *err, size_t errlen);
	void (*close)(struct store_db *db);
	const char *begin_write, *begin_schema; /* the statements that begin a transaction */
	const char *tables_sql;                 /* count the tables, $1 a name or NULL for all */
	const char *tune; /* the session's settings, once the store is known to be one */
};
struct store_db {
	const struct store_db_ops *ops;
	char name[4096];
};

/* The database of an open store (store.c), for the store's other files. */
struct bb_store;
struct store_db *store_db_of(struct bb_store *st);

int store_db_sqlite_open(const char *path, struct store_db **out, char *err, size_t errlen);
int store_db_pg_open(const char *url, struct store_db **out, char *err, size_t errlen);

#endif
