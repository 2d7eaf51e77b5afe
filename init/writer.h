/*
 * The results writer: one process, the runner's child, that owns the results disk for the
 * whole boot (writer.c). Forked right after the modules are loaded (the disk's drivers come
 * with them), it waits for the disk, finds and opens it once (results_open, slow under TCG:
 * libext2fs), on the other vCPU while the runner sets up the network, cgroups and the first
 * server. Then it syncs the init's results dir (INIT_RESULTS_DIR) to the disk on the runner's
 * request, over a socketpair, and sleeps in read() in between (no CPU during the benchmarks).
 *
 * Each answer is awaited up to the plan's results.timeout (the first also results.wait): a
 * writer that does not answer in time (a disk that stopped completing its I/O) is killed and
 * treated as dead.
 *
 * Without a writer (the fork failed, or it died) the same calls do the work in the runner, as
 * before the writer existed: writer_sync and writer_finish are the runner's only way to the
 * results disk. A writer that died is reported once (`BENCHBOOT writer-died`); the disk is
 * then given up and the results go to the console only (every file, from then on).
 */
#ifndef BENCHBOOT_INIT_WRITER_H
#define BENCHBOOT_INIT_WRITER_H

#include <sys/types.h>

struct boot;

/* What the writer found when it opened the disk (its first answer), and the first sync, for
 * the setup-path line. */
struct writer_open {
	int forked;        /* the writer ran (1), or the runner opened the disk itself (0) */
	int disk;          /* a results disk is open */
	double start, end; /* CLOCK_BOOTTIME ms: the writer's wait for the disk began, opened */
	double wait_ms, open_ms; /* results_wait_for_disk, results_open */
	int synced;              /* the first sync was answered, */
	double first_sync_ms;    /* and took that long */
};
extern struct writer_open writer_open;

/* Fork the writer (after the modules are loaded, b->boot_id and b->plan known). 0, or -errno:
 * no writer, the runner does the disk work itself (writer_open_here, writer_sync). */
int writer_start(const struct boot *b);
/* 1 while the writer runs (forked and not known to be dead). */
int writer_running(void);
/* No writer: wait for the disk and open it in this process (the work the writer does first). */
void writer_open_here(const struct boot *b);
/*
 * Sync INIT_RESULTS_DIR to the disk (results_sync_except: skip = a top-level entry left out, or
 * NULL), by the writer when it runs (waiting for its answer, and first for its open), else here.
 * Returns the sync's status (0 or -errno); *ms (if not NULL): how long the sync itself took.
 */
int writer_sync(int dump_console, const char *skip, double *ms);
/* The same in two halves: ask (the writer syncs while the runner goes on; without a writer the
 * sync is done here, now), then wait for the answer and return its status (0 when nothing was
 * asked). One sync at a time: a new request first waits for the one owed. */
void writer_sync_begin(int dump_console, const char *skip);
int writer_sync_wait(double *ms);
/* results_finish (the `done` file, the disk closed), then the writer exits. 0 or -errno. */
int writer_finish(void);
/* For the runner's reaping (run_reap): 1 when pid was the writer (its death is reported, the
 * disk given up), 0 for any other process. */
int writer_reaped(pid_t pid, int status);

#endif
