/* The boots' folders for report; see store_report.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/errbuf.h"
#include "host/store/store_db.h"
#include "host/store/store_report.h"

int bb_store_boot_paths(struct bb_store *st, const char *const *boot_ids, size_t n, char **paths,
                        char *err, size_t errlen)
{
	struct store_db *db = store_db_of(st);
	int rc = 0;
	memset(paths, 0, n * sizeof *paths);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct store_db_arg args[] = {STORE_DB_TEXT(boot_ids[i])};
		rc = store_db_query(db, "SELECT path FROM boots WHERE boot_id = $1", 1, args, err,
		                    errlen);
		while (!rc && (rc = store_db_row(db, err, errlen)) == 1)
			rc = !paths[i] && !(paths[i] = strdup(store_db_text(db, 0)))
			         ? bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory")
			         : 0;
	}
	if (rc)
		for (size_t i = 0; i < n; i++) {
			free(paths[i]);
			paths[i] = NULL;
		}
	return rc;
}
