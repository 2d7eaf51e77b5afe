/*
 * The store's schema, one migration per version (store.h): migration N brings a store of
 * version N - 1 to N, applied in order in one transaction on open. A change to the schema is a
 * new migration at the end, never an edit of an old one.
 */
#include <stddef.h>

#include "host/store/schema.h"

const char *const bb_store_migrations[] = {
    /* 1: folders, kernels, jobs, boots with their environment, runs with their parameters,
     * every iteration's value of every stat */
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE folders (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE,"
    "  added INTEGER NOT NULL);"
    "CREATE TABLE kernels (id INTEGER PRIMARY KEY, name TEXT NOT NULL, release TEXT NOT NULL,"
    "  cmdline TEXT NOT NULL, UNIQUE (name, release, cmdline));"
    "CREATE TABLE jobs (id INTEGER PRIMARY KEY, name TEXT NOT NULL, digest TEXT NOT NULL,"
    "  UNIQUE (name, digest));"
    "CREATE TABLE boots (id INTEGER PRIMARY KEY, boot_id TEXT NOT NULL UNIQUE,"
    "  folder INTEGER NOT NULL REFERENCES folders(id), path TEXT NOT NULL,"
    "  kernel INTEGER NOT NULL REFERENCES kernels(id), job INTEGER NOT NULL REFERENCES jobs(id),"
    "  boot_group TEXT, outcome TEXT, done INTEGER NOT NULL, added INTEGER NOT NULL);"
    "CREATE TABLE env (boot INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,"
    "  key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (boot, key));"
    "CREATE TABLE runs (id INTEGER PRIMARY KEY,"
    "  boot INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE, run_id TEXT NOT NULL,"
    "  iterations INTEGER NOT NULL, failed INTEGER NOT NULL, UNIQUE (boot, run_id));"
    "CREATE TABLE params (run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (run, key));"
    "CREATE TABLE vals (run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  stat TEXT NOT NULL, i INTEGER NOT NULL, value REAL NOT NULL, PRIMARY KEY (run, stat, i));"
    "CREATE INDEX vals_stat ON vals (stat);"
    "CREATE INDEX boots_kernel ON boots (kernel);",
    /* 2: the kernel's identity (its commit when known, its vmlinuz and the file's sha256), the
     * job file a boot ran, and the digests of the vmlinuz files hashed (by path, size and
     * mtime: a file is read once) */
    "ALTER TABLE kernels ADD COLUMN git_commit TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE kernels ADD COLUMN vmlinuz TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE kernels ADD COLUMN sha256 TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE boots ADD COLUMN job_file TEXT NOT NULL DEFAULT '';"
    "CREATE TABLE file_digests (path TEXT NOT NULL, size INTEGER NOT NULL,"
    "  mtime INTEGER NOT NULL, sha256 TEXT NOT NULL, PRIMARY KEY (path, size, mtime));",
};
const size_t bb_store_nmigrations = sizeof bb_store_migrations / sizeof *bb_store_migrations;
