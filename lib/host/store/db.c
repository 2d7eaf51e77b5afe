/* The store's database, whichever engine holds it; see store_db.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "host/store/store_db.h"

int store_db_is_url(const char *spec)
{
	return !strncmp(spec, "postgresql://", 13) || !strncmp(spec, "postgres://", 11);
}

int store_db_open(const char *spec, struct store_db **out, char *err, size_t errlen)
{
	if (store_db_is_url(spec))
		return store_db_pg_open(spec, out, err, errlen);
	return store_db_sqlite_open(spec, out, err, errlen);
}

void store_db_close(struct store_db *db)
{
	if (db)
		db->ops->close(db);
}

const char *store_db_name(const struct store_db *db)
{
	return db->name;
}

int store_db_query(struct store_db *db, const char *sql, int n, const struct store_db_arg *args,
                   char *err, size_t errlen)
{
	return db->ops->query(db, sql, n, args, err, errlen);
}

int store_db_row(struct store_db *db, char *err, size_t errlen)
{
	return db->ops->row(db, err, errlen);
}

const char *store_db_text(struct store_db *db, int col)
{
	return db->ops->text(db, col);
}

long long store_db_int(struct store_db *db, int col)
{
	return db->ops->integer(db, col);
}

double store_db_real(struct store_db *db, int col)
{
	return db->ops->real(db, col);
}

int store_db_run(struct store_db *db, const char *sql, long long *first, int n,
                 const struct store_db_arg *args, char *err, size_t errlen)
{
	if (!first && db->ops->defer)
		return db->ops->defer(db, sql, n, args, err, errlen);
	int rc = store_db_query(db, sql, n, args, err, errlen), got = 0;
	while (!rc && (rc = store_db_row(db, err, errlen)) == 1)
		if (first && !got++)
			*first = store_db_int(db, 0);
	if (rc < 0)
		return rc;
	return first && !got ? 1 : 0;
}

int store_db_script(struct store_db *db, const char *sql, char *err, size_t errlen)
{
	return db->ops->script(db, sql, err, errlen);
}

int store_db_begin(struct store_db *db, enum store_db_begin how, char *err, size_t errlen)
{
	return store_db_script(
	    db, how == STORE_DB_SCHEMA ? db->ops->begin_schema : db->ops->begin_write, err, errlen);
}

int store_db_commit(struct store_db *db, char *err, size_t errlen)
{
	return store_db_script(db, "COMMIT", err, errlen);
}

void store_db_rollback(struct store_db *db)
{
	char ignored[256];
	store_db_script(db, "ROLLBACK", ignored, sizeof ignored);
}

int store_db_tune(struct store_db *db, char *err, size_t errlen)
{
	/* SQLite turns a store to WAL with the database to itself, and says busy at once (no
	 * busy timeout) while another opens the new store beside it: tried again for a minute */
	int rc;
	for (int tries = 0;
	     (rc = store_db_script(db, db->ops->tune, err, errlen)) == -EAGAIN && tries < 600;
	     tries++)
		usleep(100000);
	return rc;
}

int store_db_tables(struct store_db *db, const char *name, long long *n, char *err, size_t errlen)
{
	const struct store_db_arg args[] = {STORE_DB_TEXT(name)};
	*n = 0;
	int rc = store_db_run(db, db->ops->tables_sql, n, 1, args, err, errlen);
	return rc < 0 ? rc : 0;
}
