/*
 * A monitor's status file, ITER/monitor.NAME.status, next to its raw file (docs/results.md):
 * a first line `ok` or `unavailable: REASON` (what is missing and why), then any number of
 * lines `note: TEXT`. Every monitor asked for gets one; an unavailable monitor contributes no
 * stats (never zeros). The iteration's status and the run's results.json carry it.
 */
#ifndef BENCHBOOT_INIT_MONITOR_STATUS_H
#define BENCHBOOT_INIT_MONITOR_STATUS_H

#include <stddef.h>

#include "json.h"
#include "strv.h"

/* Write dir/monitor.NAME.status (dir under init_root): status ("ok" or "unavailable: ...")
 * then notes (NULL, or "note: ...\n" lines, the last newline optional). Said on the console
 * when it cannot be written. */
void monitor_status(const char *dir, const char *name, const char *status, const char *notes);

/* Read it back: its first line into status, the text of its note lines (without `note: `),
 * one a line, into notes (may be NULL). 0, or -errno (no status file: -ENOENT). */
int monitor_status_read(const char *dir, const char *name, char *status, size_t slen, char *notes,
                        size_t nlen);

/* 1 when dir/monitor.NAME.status says ok. */
int monitor_status_ok(const char *dir, const char *name);

/* The status line of each monitor of names, malloc'd, in out[i] (n = names->n): a missing
 * status file as `unavailable: no status recorded`. 0 or -ENOMEM (nothing to free then). */
int monitor_status_lines(const struct bb_strv *names, const char *dir, char ***out);
void monitor_status_lines_free(char **lines, size_t n);

/* The iteration status's member "monitors": {NAME: {"status": LINE, "notes": [...]}}, NAME
 * null when it has no status file (the iteration ended before its monitors started). */
void monitor_status_json(struct ijw *w, const struct bb_strv *names, const char *dir);

#endif
