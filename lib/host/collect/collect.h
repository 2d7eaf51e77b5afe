/*
 * `benchboot collect`: copy the boots of a results disk (read with libext2fs, read-only) or of
 * a serial console log (lib/results/consfile.h) into DIR/NNNN-BOOTID/, once each. Host only.
 *
 * Nothing is ever written outside DIR: names are checked (no "..", no absolute paths, no
 * control characters, no '.'-names, which the writer reserves for temporary files), symbolic
 * links and device files are refused, and files are created with openat(O_NOFOLLOW) under
 * directories collect made itself. A boot is assembled in DIR/.NAME.tmp-PID and renamed into
 * place when done, with DIR/NAME/.collect describing what was collected.
 */
#ifndef BENCHBOOT_HOST_COLLECT_H
#define BENCHBOOT_HOST_COLLECT_H

#include <stdint.h>
#include <stdio.h>

struct collect_opts {
	const char *outdir;
	uint64_t max_file_size; /* larger files are refused (0: 1 GiB) */
	/* each message line ("0001-x: ...") goes here */
	void (*msg)(void *ctx, const char *line);
	void *ctx;
	/* a server host's boot (bb_collect_boot_role) goes to OUTDIR/server-host/NNNN-BOOTID (where
	 * `benchboot run` puts a server host's boots) */
	int file_server_boots;
	/* the role of a boot that brought no env.json (collect --lava: the LAVA job definition's
	 * role), or NULL */
	const char *role_fallback;
};

/* Where a two-host boot's server host boots go, under DIR (collect_pair.c). */
#define COLLECT_SERVER_DIR "server-host"

struct collect_stats {
	unsigned boots_collected, boots_skipped, boots_incomplete;
	unsigned files;
	unsigned long long bytes;
	unsigned problems; /* refused names, unreadable or mismatching files, damaged parts */
	char why[512];     /* with -EMEDIUMTYPE: what the source is instead (empty: none said) */
};

/*
 * Collect from a disk or image. Returns 0 (problems, if any, are counted in st), -EMEDIUMTYPE
 * when disk holds no ext2/3/4 filesystem or no benchboot results, or another -errno for a
 * failure that stopped everything (DIR not writable, the disk unreadable).
 */
int bb_collect_disk(const char *disk, const struct collect_opts *o, struct collect_stats *st);

/*
 * A whole disk with a GPT (a `benchboot build --disk` image, or a USB stick as /dev/sdX): find
 * the partition holding the benchboot results filesystem (ext4 superblock with the benchboot
 * label) and write to out the name libext2fs opens it by, DISK?offset=BYTES. Returns 0 with
 * the partition number in *partno (0 when the disk has no GPT or no such partition), or -errno.
 */
int bb_collect_find_gpt_results(const char *disk, char *out, size_t outlen, unsigned *partno);

/* Collect from a console log ("-" is stdin). Same returns. */
int bb_collect_console(const char *log, const struct collect_opts *o, struct collect_stats *st);

/*
 * After a crash (an interrupted boot, a killed VM) the disk is marked not clean and the init
 * refuses it: collect first, then run `e2fsck -p` on it (an image file or a block device that is
 * not mounted). 0 with e2fsck's exit status in *fsck_exit (0 clean, 1 repaired: usable; 4 or
 * more: it could not repair it alone), or -errno when e2fsck could not run (-ENOEXEC: not
 * found, or killed). Its output goes to stderr.
 */
int bb_collect_repair_disk(const char *disk, int *fsck_exit);

/*
 * Why a name (one path component) may not be written under DIR, or NULL when it is fine.
 * A relative path is checked component by component by collect_bad_path.
 */
const char *bb_collect_bad_name(const char *name);
/* One line through o->msg (nothing when it is NULL). */
void bb_collect_msgf(const struct collect_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Is name a boot folder name (NNNN-BOOTID)? */
int bb_collect_is_boot_name(const char *name);

/* What a collected boot's .collect says (source=, status=complete|incomplete, files=, bytes=;
 * absent lines: "" and 0). */
struct collect_record {
	char status[32], source[128];
	unsigned long long files, bytes;
};
/* Read DIR/NAME/.collect, DIR open as dirfd (AT_FDCWD: NAME is a path). 0, or -errno. */
int bb_collect_record_read(int dirfd, const char *name, struct collect_record *rec);

/* What a boot's env.json says of its two-host run: cluster.role, cluster.name, boot_id and
 * plan_digest ("" when absent). 0, or -EINVAL when env.json cannot be read or parsed. */
struct collect_env_ids {
	char role[16], boot_id[128], plan[80], cluster[128];
};
int bb_collect_env_ids_read(const char *path, struct collect_env_ids *ids);
/*
 * The two-host role of the boot in folder bootdir ("server", "client", or "" for a one-host
 * boot), the one rule of every collect: its env.json's cluster.role, what the init recorded
 * (the truth of what ran); fallback (NULL: "") only when env.json cannot be read, e.g. a LAVA
 * job definition's role when the job's log carried no env.json. Written to role; returns it.
 */
const char *bb_collect_boot_role(const char *bootdir, const char *fallback, char *role, size_t len);

/* Two-host boots (collect_pair.c). */

/*
 * Link a client host's boot folder to its server host's: OUTDIR/CLIENT/server-host ->
 * ../server-host/SERVER (an old link there is replaced). 1 linked, 0 already so, or -errno
 * with err set.
 */
int bb_collect_link_server_host(const char *outdir, const char *client_folder,
                                const char *server_folder, char *err, size_t errlen);

/*
 * Link every client host's boot in o->outdir to the server host's boot of the same cluster run
 * in o->outdir/server-host/: the one whose env.json has the boot_id of the client's
 * peer/env.json (the server host's env.json as it sent it) and the client's own plan_digest and
 * cluster name. Client boots without
 * peer/env.json, or whose server host's boot is not there, are said through o->msg and left
 * unlinked; failures to link count as problems. 0, or -errno when OUTDIR cannot be read.
 */
int bb_collect_link_pairs(const struct collect_opts *o, struct collect_stats *st);

/*
 * Compress the raw monitor files of a boot folder being collected (bootfd): each
 * runs/RUNID/ITER/monitor.NAME but monitor.NAME.status becomes monitor.NAME.gz (gzip, no name,
 * mtime 0). Returns how many were compressed; *problems counts the files that could not be
 * (left as they were, the last reason in err).
 */
unsigned bb_collect_compress_monitors(int bootfd, unsigned *problems, char *err, size_t errlen);

/*
 * The monitors' stats of the iteration folder iterdir (runs/RUNID/ITER of a collected boot)
 * computed again with this build's parsers (lib/parse/parse_monitor.h) from its raw files
 * (monitor.NAME.gz or monitor.NAME): `NAME.KEY VALUE` lines on out, `# NAME: unavailable: ...`
 * for a monitor its status file says was not available. 0; -ENOENT (no monitor files) or
 * -EINVAL (a file unreadable or not parsed; the others still printed) with err set.
 */
int bb_collect_monitor_stats(const char *iterdir, FILE *out, char *err, size_t errlen);

#endif
