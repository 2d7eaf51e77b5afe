/*
 * The init's setup time: how long the path from the exec of /init to the first benchmark client
 * takes, and what keeps it short.
 *
 * - The first iteration's path is marked on CLOCK_BOOTTIME (first_path), and the release of the
 *   first clients is marked in the kernel log too (/dev/kmsg, level 7: stored, not printed), so
 *   that it can be put next to the kernel's "Run /init as init process" on the kernel log's
 *   clock: CLOCK_BOOTTIME and the kernel log's clock differ by an offset that changes from boot
 *   to boot (tens of ms under QEMU TCG), so the two must never be mixed.
 * - The readiness check of a server backs off 1, 2, 4 ms, then tries every READY_MAX_MS.
 * - The results disk is found and opened by the results writer (writer.h), a child forked
 *   after the modules are loaded, beside the runner's network, cgroup and first server steps;
 *   the runner's part (the first env.json, the first sync asked of the writer and awaited) is
 *   deferred by main() and done while the first server starts (setup_deferred_run).
 */
#ifndef BENCHBOOT_INIT_SETUPTIME_H
#define BENCHBOOT_INIT_SETUPTIME_H

#include <stddef.h>
#include <sys/types.h>

struct boot;

#define READY_MAX_MS 4
/* How long to sleep after readiness try number `tries` (0, 1, ...) failed, in ms. */
int ready_backoff_ms(int tries);

/* The first iteration's path to its clients: CLOCK_BOOTTIME ms, 0 when not reached. */
struct first_path {
	double run_start;      /* the iteration started (run-start line) */
	double sysctls;        /* its sysctls written and read back */
	double server_fork;    /* the first server forked, placed, let go */
	double clients_forked; /* the clients forked and placed, waiting on their gate */
	double server_ready;   /* the last server's port accepted a connection */
	double disk_synced;    /* the first sync (env.json) answered, before the release */
	double release;        /* the clients were let go */
	int ready_tries;       /* connects until the ports accepted */
	double ready_check_ms; /* how long the check that found it listening took */
	double sync_wait_ms;   /* how long the runner waited for that answer */
};
extern struct first_path first_path;
/* Start the path again for an iteration (until some iteration released its clients). */
void first_path_start(void);
/* *field = now, while no iteration released its clients yet. */
void first_path_mark(double *field);

/*
 * Work main() leaves for the first iteration (env.json, the first sync; the disk's open too
 * when there is no results writer): done once, while its first server starts (its clients
 * forked and waiting), or before its clients are released when it has no server, or before
 * its results are recorded when it failed earlier; main() does it at the end when there is no
 * run at all. (Not in a thread: with a second thread in the init,
 * Debian's 6.1 kernel under TCG hit a soft lockup in mmap (kmem_cache_alloc_bulk for the
 * maple tree) in one boot of about a dozen, and one more boot hung without a log.)
 */
extern void (*setup_deferred)(struct boot *b);
/* CLOCK_BOOTTIME ms: the work began and ended; setup_deferred_waited: how long it took. */
extern double setup_deferred_start, setup_deferred_end, setup_deferred_waited;
void setup_deferred_run(struct boot *b);
/* The same while process `busy` (the first server, starting) runs: on the CPUs the init may use
 * and `busy` may not, when there are such CPUs (a server pinned to cpu0 starts while the disk
 * work runs on cpu1, where the clients wait on their gate), then back on the init's own. */
void setup_deferred_run_beside(struct boot *b, pid_t busy);

#define KMSG_RUN_INIT "Run /init as init process"
#define KMSG_FIRST_CLIENT "benchboot: first client released"
/* Write a level-7 record (kept in the kernel log, not printed on the console). */
void kmsg_mark(const char *text);
/*
 * One /dev/kmsg record, "PRI,SEQ,USEC,FLAGS[,...];TEXT": 0 with *usec and *text (up to the
 * end of the line), or -1 when it is not one.
 */
int kmsg_parse(const char *rec, unsigned long long *usec, const char **text);
/*
 * Kernel log times (ms since boot, the log's clock) of the first record whose text starts
 * with prefix[i], for i < n; -1 for those not found. Reads /dev/kmsg (under init_root) from
 * the start, without blocking.
 */
void kmsg_find(const char *const *prefix, double *ms, size_t n);
/* Every line /dev/kmsg (under init_root) holds now, records and their continuation lines, to
 * fn, without waiting for more (a regular file there: a saved log, one record a line). 0, or
 * -errno when it cannot be opened. */
int kmsg_each(void (*fn)(const char *line, void *ctx), void *ctx);

#endif
