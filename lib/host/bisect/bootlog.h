/*
 * DIR/boots.jsonl, a bisection's log of its boots: one JSON object a line, appended (and
 * synced) after every boot, so that an interrupted or undecided bisection continues with
 * --resume without booting again what it has (the log is replayed into the bisection first):
 *
 *   {"candidate": "k2", "index": 2, "boot": 3, "outcome": "ok", "stat": "...",
 *    "values": [...], "folder": "0007-...", "detail": ""}
 *
 * index: the candidate's line among the candidates (0 the good end); boot: the candidate's
 * own boot count, from 1; outcome: "ok" (values taken), else how the boot failed (a boot
 * outcome such as hang or panic, "failed-runs", "build-failed"), detail the words; folder: the
 * boot's results folder inside DIR ("" when none). Host only.
 */
#ifndef BENCHBOOT_HOST_BISECT_BOOTLOG_H
#define BENCHBOOT_HOST_BISECT_BOOTLOG_H

#include <stddef.h>

#include "host/bisect/decide.h"
#include "host/bisect/kernels.h"

struct bb_bootlog_entry {
	char name[BB_BISECT_NAME_MAX];
	size_t index;
	unsigned boot;
	int ok;
	char outcome[64], stat[256], folder[300], detail[512];
	double vals[BB_BISECT_MAX_VALUES];
	size_t n;
};

/* Append e to path (made when missing). 0 or -errno with err. */
int bb_bootlog_append(const char *path, const struct bb_bootlog_entry *e, char *err, size_t errlen);

/*
 * Read path: 0 with *out (*n entries, free()); -ENOENT when there is none; -EINVAL for a
 * malformed line ("PATH:LINE: what"), except a last line cut short (no newline: an
 * interrupted write), which is dropped and said in note ("" otherwise); -ENOMEM.
 */
int bb_bootlog_read(const char *path, struct bb_bootlog_entry **out, size_t *n, char *note,
                    size_t notelen, char *err, size_t errlen);

#endif
