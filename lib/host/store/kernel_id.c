/* A boot's kernel identity: commit, vmlinuz and its sha256; see kernel_id.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/store/kernel_id.h"
#include "host/store/store_db.h"

/* A name of 12 to 40 lower-case hex digits: an abbreviated commit. */
static int is_commit(const char *s)
{
	size_t n = s ? strspn(s, "0123456789abcdef") : 0;
	return n >= 12 && n <= 40 && !s[n];
}

/* The sha256 of the file at path (sb its stat), from the store when this path, size and mtime
 * were read before, else read now and kept. 0 or -errno with err. */
static int file_digest(struct store_db *db, const char *path, const struct stat *sb,
                       char hex[SHA256_HEX_LEN + 1], char *err, size_t errlen)
{
	const struct store_db_arg args[] = {
	    STORE_DB_TEXT(path), STORE_DB_INT((long long)sb->st_size),
	    STORE_DB_INT((long long)sb->st_mtime), STORE_DB_TEXT(hex)};
	static const char select[] =
	    "SELECT sha256 FROM file_digests WHERE path = $1 AND size = $2 AND mtime = $3";
	int rc = store_db_query(db, select, 3, args, err, errlen);
	if (!rc && (rc = store_db_row(db, err, errlen)) == 1) {
		snprintf(hex, SHA256_HEX_LEN + 1, "%s", store_db_text(db, 0));
		while ((rc = store_db_row(db, err, errlen)) == 1)
			;
		return rc;
	}
	if (rc)
		return rc;
	if (bb_sha256_file_hex(path, hex)) {
		*hex = 0; /* unreadable: not known */
		return 0;
	}
	return store_db_run(db,
	                    "INSERT INTO file_digests (path, size, mtime, sha256) VALUES ($1, $2, "
	                    "$3, $4) ON CONFLICT DO NOTHING",
	                    NULL, 4, args, err, errlen);
}

int store_kernel_id(struct store_db *db, const struct bb_res_boot *bt, struct store_kernel_id *id,
                    char *err, size_t errlen)
{
	const char *name = bb_kvs_get(&bt->labels, "kernel");
	struct stat sb;
	char real[PATH_MAX];
	memset(id, 0, sizeof *id);
	if (is_commit(bt->commit))
		snprintf(id->commit, sizeof id->commit, "%s", bt->commit);
	else if (is_commit(name))
		snprintf(id->commit, sizeof id->commit, "%s", name);
	if (!bt->vmlinuz || !*bt->vmlinuz)
		return 0;
	snprintf(id->vmlinuz, sizeof id->vmlinuz, "%s",
	         realpath(bt->vmlinuz, real) ? real : bt->vmlinuz);
	if (stat(id->vmlinuz, &sb) || !S_ISREG(sb.st_mode))
		return 0;
	return file_digest(db, id->vmlinuz, &sb, id->sha256, err, errlen);
}
