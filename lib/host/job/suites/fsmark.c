/*
 * fsmark (Debian's fs_mark), as LKP's programs/fsmark/run runs it, on the filesystem the job's
 * `fs:` makes on its `disk:` (storage.h; the first mount point, as LKP's "1 disk only"):
 * nr_threads writers (a percentage of the online CPUs, resolved in the guest; at most 64, fs_mark's
 * limit), one directory each; test_size / filesize / writers / iterations files each (LKP's
 * defaults 80G, or 20G below 1M files; the filesystem's size caps it; files below 4 KiB count as
 * 4 KiB; at most 1000000), sync_method by LKP's names, nr_directories and
 * nr_files_per_directory (LKP's 16d, 256fpd). LKP's `iterations` is fs_mark's -L (its loops,
 * averaged by LKP's parse): each iteration of benchboot runs the whole job, on a filesystem made
 * for it. Parser: init/parse_fsmark.c (LKP's programs/fsmark/parse).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/suites/suite.h"

/* LKP's run script, one line: $1 nr_threads, $2 filesize in bytes, $3 test_size in bytes or
 * -, $4 nr_directories or -, $5 nr_files_per_directory or -, $6 sync_method's number, $7
 * fs_mark's loops. The filesystem is $mount_points' first (the init's, as LKP's). */
static const char script[] =
    "d=${mount_points%% *}; if [ -z \"$d\" ]; then echo \"fsmark: no filesystem is mounted: "
    "the job needs fs: and disk:\" >&2; exit 1; fi; "
    "n=$(nproc); t=$1; case $t in *%) t=$((n * ${t%\\%} / 100));; esac; "
    "if [ \"$t\" -lt 1 ]; then echo \"fsmark: nr_threads $1 of $n CPUs is 0 writers: the run "
    "is dropped, as LKP drops such a job\" >&2; exit 1; fi; "
    "[ $t -gt 64 ] && t=64; "
    "P=; i=1; while [ $i -le $t ]; do mkdir -p $d/$i || exit 1; P=\"$P -d $d/$i\"; "
    "i=$((i + 1)); done; "
    "fsz=$2; ts=$3; L=$7; "
    "if [ \"$ts\" = - ]; then ts=$((80 << 30)); [ $fsz -lt $((1 << 20)) ] && ts=$((20 << 30)); "
    "fi; "
    "kb=$(df -k $d | awk 'NR == 2 { print $2 }'); ds=$(((kb + 1023) / 1024 << 20)); "
    "[ $ts -gt $ds ] && ts=$ds; "
    "s=$fsz; [ $s -lt 4096 ] && s=4096; "
    "nf=$((ts / s / t / L)); if [ $nf -lt 1 ]; then echo \"Warning: nr_files too small; \"; "
    "nf=1; fi; [ $nf -gt 1000000 ] && nf=1000000; "
    "nd=$4; nfd=$5; [ \"$nd\" = - ] && nd=; [ \"$nfd\" = - ] && nfd=; "
    "[ -z \"$nd\" ] && [ -n \"$nfd\" ] && nd=$((nf / nfd)); "
    "[ -n \"$nd\" ] && [ -n \"$nfd\" ] && P=\"$P -D $nd -N $nfd\"; "
    "cd /tmp || exit 1; "
    "echo \"fs_mark$P -n $nf -L $L -S $6 -s $fsz\"; "
    "exec /usr/bin/fs_mark $P -n $nf -L $L -S $6 -s $fsz";

static int check_dirs(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	return bb_suite_check_whole(w, key, s, m, 1, 1000000, "d", "(LKP writes 16d)");
}

static int check_fpd(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	return bb_suite_check_whole(w, key, s, m, 1, 1000000, "fpd", "(LKP writes 256fpd)");
}

/* LKP's names of fs_mark's -S methods, in the order of their numbers */
static const char *const sync_methods[] = {
    "NoSync",    "fsyncBeforeClose", "syncFsync", "PostReverseFsync", "syncPostReverseFsync",
    "PostFsync", "syncPostFsync",    NULL};

static int sync_number(const char *s)
{
	for (int i = 0; sync_methods[i]; i++)
		if (!strcmp(s, sync_methods[i]))
			return i;
	return -1;
}

static int check_sync(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (sync_number(s) >= 0)
		return 0;
	const char *near = job_nearest_in(s, sync_methods);
	return jfail(
	    w, m,
	    "%s: '%s' is not one of LKP's sync methods (NoSync, fsyncBeforeClose, "
	    "syncFsync, PostReverseFsync, syncPostReverseFsync, PostFsync, syncPostFsync)%s%s%s",
	    key, s, near ? ": did you mean '" : "", near ? near : "", near ? "'?" : "");
}

static const struct keydef keys[] = {
    {C_BLOCK, "filesize", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, bb_suite_check_bytes},
    {C_BLOCK, "test_size", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, bb_suite_check_bytes},
    {C_BLOCK, "nr_directories", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_dirs},
    {C_BLOCK, "nr_files_per_directory", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL,
     check_fpd},
    {C_BLOCK, "sync_method", NULL, K_CHECK, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check_sync},
    {C_BLOCK, "nr_threads", NULL, K_COUNT, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, NULL},
    {C_BLOCK, "iterations", NULL, K_POSINT, 0, BB_LEVEL_RUN, C_NONE, NULL, NULL},
};

/* "16d" -> "16"; NULL -> "-" */
static void number_or_dash(const char *s, char *out, size_t len)
{
	snprintf(out, len, "%.*s", s ? (int)strspn(s, "0123456789") : 1, s ? s : "-");
}

static int build(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	if (!bb_kvs_get(p, "fs")) {
		snprintf(
		    err, errlen,
		    "fsmark writes to the job's filesystem, and this run has none: add `fs: xfs` "
		    "(or ext4, btrfs) and `disk: 1BRD_2G`");
		return -EINVAL;
	}
	unsigned long long fsz, ts = 0;
	const char *f = bb_kvs_get(p, "filesize"), *t = bb_kvs_get(p, "test_size");
	if (!f) {
		snprintf(err, errlen, "fsmark: filesize is needed (LKP's jobs give 9B, 8K or 16M)");
		return -EINVAL;
	}
	if (bb_suite_to_byte(f, &fsz) || (t && bb_suite_to_byte(t, &ts))) {
		snprintf(err, errlen, "filesize or test_size: not a size");
		return -EINVAL;
	}
	char fsz_s[24], ts_s[24], nd[16], nfd[16], sync[4], loops[16];
	snprintf(fsz_s, sizeof fsz_s, "%llu", fsz);
	snprintf(ts_s, sizeof ts_s, t ? "%llu" : "-", ts);
	number_or_dash(bb_kvs_get(p, "nr_directories"), nd, sizeof nd);
	number_or_dash(bb_kvs_get(p, "nr_files_per_directory"), nfd, sizeof nfd);
	snprintf(sync, sizeof sync, "%d",
	         sync_number(bb_kvs_get_or(p, "sync_method", "")) < 0
	             ? 1 /* LKP: fsyncBeforeClose when none */
	             : sync_number(bb_kvs_get(p, "sync_method")));
	/* LKP's iterations: fs_mark's loops, in one iteration of benchboot */
	snprintf(loops, sizeof loops, "%s", bb_kvs_get_or(p, "iterations", "1"));
	sr->iterations = 1;
	sr->nominal_s = 1;
	sr->runtime_s = (double)secs;
	struct bb_strv *c = &sr->client_argv;
	if (bb_strv_add(c, "/bin/sh") || bb_strv_add(c, "-c") || bb_strv_add(c, script) ||
	    bb_strv_add(c, "fsmark") || bb_strv_add(c, bb_kvs_get_or(p, "nr_threads", "1")) ||
	    bb_strv_add(c, fsz_s) || bb_strv_add(c, ts_s) || bb_strv_add(c, nd) ||
	    bb_strv_add(c, nfd) || bb_strv_add(c, sync) || bb_strv_add(c, loops))
		return -ENOMEM;
	snprintf(sr->client_count, sizeof sr->client_count, "1");
	return bb_strv_add(&sr->files, "/usr/bin/fs_mark");
}

static const char *const loose[] = {
    "filesize", "test_size", "nr_directories", "nr_files_per_directory", "sync_method", NULL};
static const struct bb_suite_default defaults[] = {
    {"sync_method", "fsyncBeforeClose"}, /* LKP's run, when the job gives none */
    {NULL, NULL},
};
static const struct bb_suite_file files[] = {
    {"/usr/bin/fs_mark", "usr/bin/fs_mark", 0},
    {NULL, NULL, 0},
};
static const char *const primary[] = {"fsmark.files_per_sec", NULL};

const struct bb_suite bb_suite_fsmark = {
    .name = "fsmark",
    .summary = "files written per second, synchronously, to the job's filesystem",
    .runtime_key = "runtime",
    .default_runtime = "600s",
    .keys = keys,
    .nkeys = sizeof keys / sizeof keys[0],
    .loose = loose,
    .defaults = defaults,
    .build = build,
    .files = files,
    .primary = primary,
};
