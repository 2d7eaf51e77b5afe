/*
 * Results on the benchboot results disk (docs/results.md), written with libext2fs straight to
 * the block device, and over the console in the consfile encoding (lib/results/consfile.h).
 *
 * The init fills a local directory (tmpfs) with the boot's files, in the layout of the boot
 * folder (env.json, init.log, runs/RUNID/ITER/..., runs/RUNID/results.json), and calls
 * results_sync after each finished run: new and changed files go to the disk, which is flushed
 * before results_sync returns.
 */
#ifndef BENCHBOOT_INIT_RESULTS_H
#define BENCHBOOT_INIT_RESULTS_H

/*
 * Find the benchboot results disk under root ("" in the real init), open it, create the boot
 * folder boots/NNNN-BOOTID (NNNN = 1 + highest existing sequence). Returns 0, or -ENODEV when
 * there is no benchboot disk (results go to the console only: that is printed), or another
 * -errno (printed; the results then go to the console only as well).
 */
int results_open(const char *root, const char *boot_id);

/*
 * Wait up to seconds for a benchboot disk to appear under root (a USB stick's partitions show up
 * some time after its driver is loaded), polling quietly. Returns 1 as soon as one is there, 0
 * when the time ran out. Call it before results_open.
 */
int results_wait_for_disk(const char *root, int seconds);

/*
 * Copy every file under localdir that is new or changed since the last sync into the boot
 * folder, then flush to the device. Also dumps each new/changed file to the console in the
 * consfile encoding when dump_console is nonzero, or always when there is no disk. Returns 0 or
 * -errno (e.g. -ENOSPC, printed; nothing already written is damaged).
 */
int results_sync(const char *localdir, int dump_console);

/* The same, leaving out the top-level entry named skip (a file, or a folder and all under it):
 * those files are not synced (they are at the next sync that does not skip them). */
int results_sync_except(const char *localdir, int dump_console, const char *skip);

/* Write the `done` file (a manifest of the boot's files), flush, close. 0 or -errno. */
int results_finish(void);

/* The boot folder's name (NNNN-BOOTID; 0000-BOOTID without a disk), "" before results_open. */
const char *results_bootdir(void);

/* 1 while a results disk is open (results_open succeeded, results_finish not yet done). */
int results_disk_open(void);

/* The disk is out of this process's reach (the results writer died): no disk, the boot folder
 * named bootdir on the console, no second look for a disk: the next sync dumps every file this
 * process did not sync yet (all of them, in the runner that had a writer). */
void results_console_only(const char *bootdir);

#endif
