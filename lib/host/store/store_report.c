/*
 * The boots' folders for report; see store_report.h. Read through a connection of its own,
 * read only, on the store's file: the store's own connection stays store.c's.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "host/errbuf.h"
#include "host/store/store_report.h"

int bb_store_boot_paths(struct bb_store *st, const char *const *boot_ids, size_t n, char **paths,
                        char *err, size_t errlen)
{
	static const char sql[] = "SELECT path FROM boots WHERE boot_id = ?";
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	int rc = 0, sr;
	memset(paths, 0, n * sizeof *paths);
	if ((sr = sqlite3_open_v2(bb_store_file(st), &db, SQLITE_OPEN_READONLY, NULL)) !=
	        SQLITE_OK ||
	    (sr = sqlite3_prepare_v2(db, sql, -1, &s, NULL)) != SQLITE_OK) {
		rc =
		    bb_errbuf_fail(err, errlen, -EIO, "%s: unable to read the boots' folders: %s",
		                   bb_store_file(st), db ? sqlite3_errmsg(db) : sqlite3_errstr(sr));
		goto out_close;
	}
	sqlite3_busy_timeout(db, 5000);
	for (size_t i = 0; i < n && !rc; i++) {
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, boot_ids[i], -1, SQLITE_STATIC);
		if ((sr = sqlite3_step(s)) == SQLITE_ROW) {
			const unsigned char *p = sqlite3_column_text(s, 0);
			if (p && !(paths[i] = strdup((const char *)p)))
				rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		} else if (sr != SQLITE_DONE)
			rc = bb_errbuf_fail(err, errlen, -EIO,
			                    "%s: unable to read a boot's folder: %s",
			                    bb_store_file(st), sqlite3_errmsg(db));
	}
	if (rc)
		for (size_t i = 0; i < n; i++) {
			free(paths[i]);
			paths[i] = NULL;
		}
out_close:
	sqlite3_finalize(s);
	sqlite3_close(db);
	return rc;
}
