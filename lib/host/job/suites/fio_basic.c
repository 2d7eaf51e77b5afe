/*
 * fio-basic, LKP's suite of fio jobs (jobs/fio-basic/): its setup programs/fio-setup-basic
 * writes a fio job file from the job's keys, then lays the files out (the job with
 * create_only=1), and programs/fio/run runs the job without create_only: `fio
 * --output-format=json -` with the job on its input. The keys sit in LKP's blocks
 * `fio-setup-basic:` and `fio:`, or at the top level.
 *
 * The job file is written here, on the host, as the setup writes it (its lines, its order, its
 * empty lines), so that `check -v` shows it; what only the guest knows (nr_task as a percentage
 * of its CPUs, hence the size of each job) stays @size@ and @numjobs@, which the run's script
 * fills in there, as LKP's setup computes them. The storages are the job's: the directories
 * /fs/ramN where the init mounts the `fs:` it makes on each brd ramdisk (LKP's $mount_points),
 * or with raw_disk the ramdisks themselves (LKP's $partitions). Parser: init/parse_fio.c
 * (LKP's programs/fio/parse).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/suites/suite.h"
#include "host/strbuf.h"

/*
 * The run: $1 nr_task (a count or N%), $2 test_size in bytes, $3 raw (1: the ramdisks, LKP's
 * $partitions; 0: $mount_points), $4 the job file's [global] part (its lines ended by \n, as
 * a plan's line holds it: printf's %b makes them lines again) with create_only=1 (LKP's
 * create_task), which may hold @size@, $5 its [task_@no@] part for each storage, with
 * @storage@ and @numjobs@. As LKP's setup: the storages' room checked against test_size, the
 * files laid out (fio with create_only=1, its output dropped), the job without create_only
 * written to fio.task; as LKP's run: the job echoed, then fio's JSON on stdout.
 */
static const char script[] =
    "if [ \"$3\" = 1 ]; then S=$partitions; else S=$mount_points; fi; "
    "if [ -z \"$S\" ]; then echo \"fio-basic: storages is empty: the job needs disk: and fs: "
    "(or raw_disk: 1)\" >&2; exit 1; fi; "
    "n=$(nproc); t=$1; case $t in *%) t=$((n * ${t%\\%} / 100));; esac; "
    "if [ \"$t\" -lt 1 ]; then echo \"fio-basic: nr_task $1 of $n CPUs is 0 tasks\" >&2; "
    "exit 1; fi; "
    "ns=$(echo $S | wc -w); "
    "if [ $((t % ns)) -ne 0 ]; then echo \"fio-basic: nr_task % nr_storages = $((t % ns))\" "
    ">&2; exit 1; fi; "
    "size=$(($2 / t)); nj=$((t / ns)); "
    "for s in $S; do "
    "if [ \"$3\" = 1 ]; then a=$(($(cat /sys/block/${s##*/}/size) * 512)); "
    "else a=$(($(df -k $s | awk 'NR == 2 { print $4 }') * 1024)); fi; "
    "if [ $a -lt $2 ]; then echo \"fio-basic: storage $s available size: $a < $2\" >&2; "
    "exit 1; fi; done; "
    "mkdir -p /tmp/fio || exit 1; f=/tmp/fio/create.task; "
    "printf '%b' \"$4\" | sed \"s/@size@/$size/g\" >$f; "
    "no=0; for s in $S; do "
    "printf '%b' \"$5\" | sed \"s|@no@|$no|; s|@storage@|$s|; s|@numjobs@|$nj|\" >>$f; "
    "no=$((no + 1)); done; "
    "fio --output-format=json - <$f >/tmp/fio/create.out 2>&1 || "
    "{ cat /tmp/fio/create.out >&2; echo 'fio-basic: laying out the files failed' >&2; "
    "exit 1; }; "
    "sed '/create_only/d' $f >/tmp/fio/fio.task; "
    "task=$(cat /tmp/fio/fio.task); "
    "echo \"echo '$task' | fio --output-format=json -\"; "
    "echo \"$task\" | /usr/bin/fio --output-format=json -";

/* LKP's lib/common.sh parse_bool: empty, or 0..., n..., no..., false... is 0; the rest 1 */
static int lkp_bool(const char *s)
{
	return s && *s && *s != '0' && *s != 'n' && strncmp(s, "false", 5) != 0;
}

/* fio's sizes: N, Nk, NKiB, NM, ... */
static int fio_size(const char *s)
{
	size_t n = strspn(s, "0123456789");
	if (!n)
		return 0;
	s += n;
	if (!*s)
		return 1;
	if (!strchr("kKmMgGtTpP", *s++))
		return 0;
	return !*s || !strcmp(s, "b") || !strcmp(s, "B") || !strcasecmp(s, "ib");
}

static int check_fio_size(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (fio_size(s))
		return 0;
	return jfail(w, m, "%s: '%s' is not a fio size (4k, 128k, 4M, 64G)", key, s);
}

static const char *const rws[] = {"read",     "write",     "randread",      "randwrite",
                                  "rw",       "readwrite", "randrw",        "trim",
                                  "randtrim", "trimwrite", "randtrimwrite", NULL};

static int check_rw(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (job_one_of(s, rws))
		return 0;
	const char *near = job_nearest_in(s, rws);
	return jfail(w, m,
	             "%s: '%s' is not one of fio's I/O patterns (read, write, randread, "
	             "randwrite, rw, readwrite, randrw, trim, randtrim, trimwrite, "
	             "randtrimwrite)%s%s%s",
	             key, s, near ? ": did you mean '" : "", near ? near : "", near ? "'?" : "");
}

/* fio's engines that run on a file or a block device of the guest (LKP's jobs name these) */
static const char *const engines[] = {
    "sync",       "psync",    "vsync",      "pvsync",    "pvsync2", "io_uring",
    "libaio",     "posixaio", "mmap",       "splice",    "falloc",  "ftruncate",
    "filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete",
    "cpuio",      "e4defrag", "null",       NULL};
/* the others of LKP's lists, and why not here */
static const struct {
	const char *name, *why;
} other_engines[] = {
    {"sg", "it writes SCSI commands to the device under a mounted filesystem (LKP's "
           "allow_mounted_write): brd is no SCSI device"},
    {"io_uring_cmd", "it needs an NVMe character device, and the job's disks are brd ramdisks"},
    {"dev-dax", "it needs a DAX device (pmem), and the job's disks are brd ramdisks"},
    {"libpmem", "it needs a DAX filesystem (pmem), and the job's disks are brd ramdisks"},
    {"net", "it needs a peer fio, which benchboot does not run"},
    {"netsplice", "it needs a peer fio, which benchboot does not run"},
    {"exec", "it runs third-party tools and moves no data"},
    {"mtd", "it needs an MTD device"},
    {"rbd", "it needs a ceph cluster"},
    {"rados", "it needs a ceph cluster"},
    {"gfapi", "it needs a glusterfs server"},
    {"gfapi_async", "it needs a glusterfs server"},
    {"nfs", "it needs an NFS server"},
    {"nbd", "it needs an NBD server"},
    {"http", "it needs an HTTP server"},
    {"rdma", "it needs an RDMA peer"},
};

static int check_engine(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (job_one_of(s, engines))
		return 0;
	for (size_t i = 0; i < sizeof other_engines / sizeof other_engines[0]; i++)
		if (!strcmp(s, other_engines[i].name))
			return jfail(w, m, "%s: '%s' does not run in benchboot's guest: %s", key, s,
			             other_engines[i].why);
	const char *near = job_nearest_in(s, engines);
	return jfail(w, m,
	             "%s: '%s' is not one of fio's I/O engines benchboot runs (sync, libaio, "
	             "io_uring, posixaio, pvsync2, ... docs/jobs.md)%s%s%s",
	             key, s, near ? ": did you mean '" : "", near ? near : "", near ? "'?" : "");
}

static int check_range(struct walker *w, const char *key, const char *s, yaml_mark_t m, long lo,
                       long hi)
{
	char *e;
	errno = 0;
	long v = strtol(s, &e, 10);
	if (*s >= '0' && *s <= '9' && !*e && !errno && v >= lo && v <= hi)
		return 0;
	return jfail(w, m, "%s: '%s' is not a number %ld..%ld", key, s, lo, hi);
}

static int check_iodepth(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	return check_range(w, key, s, m, 1, 65536);
}

static int check_percent(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	return check_range(w, key, s, m, 0, 100);
}

static int check_fallocate(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	static const char *const v[] = {"none",     "native", "posix", "keep",
	                                "truncate", "0",      "1",     NULL};
	if (job_one_of(s, v))
		return 0;
	return jfail(w, m, "%s: '%s' is not one of fio's none, native, posix, keep, truncate, 0, 1",
	             key, s);
}

/* a value of a line `key=value` of the job file: one word of letters, digits and .:,_-/ */
static int check_word(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (*s &&
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:,_-/") ==
	        strlen(s))
		return 0;
	return jfail(
	    w, m, "%s: '%s' is not one word for fio's job file (letters, digits and . : , _ - /)",
	    key, s);
}

static int check_ramp(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	size_t n = strspn(s, "0123456789");
	if (n && (!s[n] || !strcmp(s + n, "s") || !strcmp(s + n, "m") || !strcmp(s + n, "ms")))
		return 0;
	return jfail(w, m, "%s: '%s' is not a time for fio (5, 5s, 500ms, 1m)", key, s);
}

static int check_policy(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (!strcmp(s, "split") || !strcmp(s, "shared"))
		return 0;
	return check_word(w, key, s, m); /* LKP writes no line for other values */
}

static int check_generator(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	static const char *const v[] = {"tausworthe", "lfsr", "tausworthe64", NULL};
	if (job_one_of(s, v))
		return 0;
	return jfail(w, m, "%s: '%s' is not one of fio's tausworthe, lfsr, tausworthe64", key, s);
}

/* LKP's even spread over the NUMA nodes needs the guest's node count: not written here */
static int check_numa(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	if (strstr(s, "even"))
		return jfail(w, m,
		             "%s: '%s': LKP's spread of the storages over the NUMA nodes (even) is "
		             "not done by benchboot: name the policy or nodes (bind:0, 0)",
		             key, s);
	return check_word(w, key, s, m);
}

static int check_by_instance(struct walker *w, const char *key, const char *s, yaml_mark_t m)
{
	(void)s;
	return jfail(w, m,
	             "%s: LKP's per-instance iodepth needs its nr_instances, which benchboot does "
	             "not run: set iodepth",
	             key);
}

#define KEY(name, kind, check)                                                                     \
	{                                                                                          \
		C_BLOCK, name, NULL, kind, F_AXIS, BB_LEVEL_RUN, C_NONE, NULL, check               \
	}
static const struct keydef keys[] = {
    KEY("rw", K_CHECK, check_rw),
    KEY("bs", K_CHECK, check_fio_size),
    KEY("ioengine", K_CHECK, check_engine),
    KEY("iodepth", K_CHECK, check_iodepth),
    KEY("direct", K_CHECK, check_word),
    KEY("offset_increment", K_CHECK, check_fio_size),
    KEY("test_size", K_CHECK, bb_suite_check_bytes),
    KEY("nr_task", K_COUNT, NULL),
    KEY("fallocate", K_CHECK, check_fallocate),
    KEY("time_based", K_CHECK, check_word),
    KEY("raw_disk", K_CHECK, check_word),
    KEY("invalidate", K_CHECK, check_word),
    KEY("nr_files", K_POSINT, NULL),
    KEY("filesize", K_CHECK, check_fio_size),
    KEY("io_size", K_CHECK, check_fio_size),
    KEY("file_service_type", K_CHECK, check_word),
    KEY("random_distribution", K_CHECK, check_word),
    KEY("numa_mem_policy", K_CHECK, check_numa),
    KEY("numa_cpu_nodes", K_CHECK, check_numa),
    KEY("pre_read", K_CHECK, check_word),
    KEY("rwmixread", K_CHECK, check_percent),
    KEY("refill_buffers", K_CHECK, check_word),
    KEY("cpuload", K_CHECK, check_percent),
    KEY("cpus_allowed_policy", K_CHECK, check_policy),
    KEY("cpus_allowed", K_CPULIST, NULL),
    KEY("donorname", K_CHECK, check_word),
    KEY("testfile", K_CHECK, check_word),
    KEY("buffered", K_CHECK, check_word),
    KEY("norandommap", K_CHECK, check_word),
    KEY("random_generator", K_CHECK, check_generator),
    KEY("allrandrepeat", K_CHECK, check_word),
    KEY("group_reporting", K_CHECK, check_word),
    KEY("exitall", K_CHECK, check_word),
    KEY("ramp_time", K_CHECK, check_ramp),
    KEY("stonewall", K_CHECK, check_word),
    KEY("iodepth_by_instance", K_CHECK, check_by_instance),
};

/* LKP's `create_task="\n$create_task\nLINE\n"`: each addition after the first lines */
static void add(struct strbuf *t, const char *line)
{
	char *old = t->s ? strdup(t->s) : strdup("");
	if (!old) {
		t->oom = 1;
		return;
	}
	t->len = 0;
	if (t->s)
		t->s[0] = 0;
	bb_strbuf_printf(t, "\n%s\n%s\n", old, line);
	free(old);
}

static const char *get(const struct bb_kvs *p, const char *k, const char *def)
{
	return bb_kvs_get_or(p, k, def);
}

/* LKP's fio-setup-basic: the job file's [global] part (with create_only=1) into g, size the
 * text of each job's size (a number, or @size@), and its [task_@no@] part into t. */
static void job_file(const struct bb_kvs *p, const char *size, int raw, struct strbuf *g,
                     struct strbuf *t)
{
	char line[512];
	bb_strbuf_printf(g,
	                 "[global]\nbs=%s\nioengine=%s\niodepth=%s\nsize=%s\ndirect=%d\n"
	                 "runtime=%s\nfile_service_type=%s\nrandom_distribution=%s\n"
	                 "group_reporting\ncreate_only=1\npre_read=%d\n",
	                 get(p, "bs", "4k"), get(p, "ioengine", "sync"), get(p, "iodepth", "32"),
	                 size, lkp_bool(bb_kvs_get(p, "direct")), get(p, "runtime", "300"),
	                 get(p, "file_service_type", "roundrobin"),
	                 get(p, "random_distribution", "random"),
	                 lkp_bool(bb_kvs_get(p, "pre_read")));
	if (!bb_kvs_get(p, "offset_increment"))
		snprintf(line, sizeof line,
		         "nr_files=%s\nfilesize=%s\ninvalidate=%s\nfallocate=%s\nio_size=%s",
		         get(p, "nr_files", "1"), get(p, "filesize", size),
		         get(p, "invalidate", "1"), get(p, "fallocate", "posix"),
		         get(p, "io_size", size));
	else
		snprintf(line, sizeof line, "offset_increment=%s",
		         bb_kvs_get(p, "offset_increment"));
	add(g, line);
	/* the lines LKP adds when a key is true (parse_bool), or set, in its order */
	static const struct {
		const char *key;
		int with_value, when_set;
	} opt[] = {{"time_based", 0, 0},       {"cpuload", 1, 0},       {"refill_buffers", 0, 0},
	           {"donorname", 1, 0},        {"buffered", 2, 0},      {"norandommap", 0, 0},
	           {"random_generator", 1, 1}, {"allrandrepeat", 2, 0}, {"group_reporting", 0, 0},
	           {"exitall", 0, 0},          {"ramp_time", 1, 1},     {"stonewall", 0, 0}};
	for (size_t i = 0; i < sizeof opt / sizeof opt[0]; i++) {
		const char *v = bb_kvs_get(p, opt[i].key);
		if (opt[i].with_value == 2) /* always: key=parse_bool */
			snprintf(line, sizeof line, "%s=%d", opt[i].key, lkp_bool(v));
		else if (opt[i].when_set ? !v : !lkp_bool(v))
			continue;
		else if (opt[i].with_value)
			snprintf(line, sizeof line, "%s=%s", opt[i].key, v);
		else
			snprintf(line, sizeof line, "%s", opt[i].key);
		add(g, line);
	}
	const char *mix = bb_kvs_get(p, "rwmixread"), *mem = bb_kvs_get(p, "numa_mem_policy"),
	           *cpu = bb_kvs_get(p, "numa_cpu_nodes"), *pol = get(p, "cpus_allowed_policy", "");
	int known_pol = !strcmp(pol, "split") || !strcmp(pol, "shared");
	bb_strbuf_printf(t, "\n[task_@no@]\nrw=%s\n", get(p, "rw", "write"));
	if (raw)
		bb_strbuf_printf(t, "filename=@storage@\n");
	else if (!strcmp(get(p, "testfile", ""), "y"))
		bb_strbuf_printf(t, "directory=@storage@\nfilename=fio_testfile\n\n");
	else
		bb_strbuf_printf(t, "directory=@storage@\n");
	bb_strbuf_printf(t, "numjobs=@numjobs@\n");
	bb_strbuf_printf(t, "%s%s\n", mix ? "rwmixread=" : "", mix ? mix : "");
	bb_strbuf_printf(t, "%s%s\n", mem ? "numa_mem_policy=" : "", mem ? mem : "");
	bb_strbuf_printf(t, "%s%s\n", cpu ? "numa_cpu_nodes=" : "", cpu ? cpu : "");
	bb_strbuf_printf(t, "%s%s\n", known_pol ? "cpus_allowed_policy=" : "",
	                 known_pol ? pol : "");
	bb_strbuf_printf(t, "%s%s\n", !strcmp(pol, "split") ? "cpus_allowed=" : "",
	                 !strcmp(pol, "split") ? bb_kvs_get(p, "cpus_allowed") : "");
}

/* text with its newlines written \n (a plan's value is one line) */
static char *one_line(const char *s)
{
	size_t n = 0;
	for (const char *c = s; *c; c++)
		n += *c == '\n' ? 2 : 1;
	char *o = malloc(n + 1), *q = o;
	for (; o && *s; s++)
		if (*s == '\n')
			*q++ = '\\', *q++ = 'n';
		else
			*q++ = *s;
	if (o)
		*q = 0;
	return o;
}

static int build(const struct bb_kvs *p, long secs, struct bb_suite_run *sr, char *err,
                 size_t errlen)
{
	const char *fs = bb_kvs_get(p, "fs");
	int raw = lkp_bool(bb_kvs_get(p, "raw_disk"));
	if (raw && fs) {
		snprintf(err, errlen,
		         "fio-basic: raw_disk writes to the ramdisks themselves, and this run "
		         "mounts %s on them: drop fs: or raw_disk:",
		         fs);
		return -EINVAL;
	}
	if (!raw && !fs) {
		snprintf(
		    err, errlen,
		    "fio-basic runs on the job's filesystem (LKP's $mount_points), and this run "
		    "has none: add `fs: ext4` (or xfs, btrfs) and `disk: 1BRD_2G`, or "
		    "`raw_disk: 1` for fio on the ramdisk itself (LKP's partitions)");
		return -EINVAL;
	}
	const char *ts = bb_kvs_get(p, "test_size");
	unsigned long long tsb;
	if (!ts || bb_suite_to_byte(ts, &tsb) || !tsb) {
		snprintf(err, errlen,
		         "fio-basic: test_size must be specified for fio (LKP's setup says so): "
		         "test_size: 1G");
		return -EINVAL;
	}
	const char *pol = get(p, "cpus_allowed_policy", "");
	if (!strcmp(pol, "split") != !!bb_kvs_get(p, "cpus_allowed")) {
		snprintf(
		    err, errlen,
		    strcmp(pol, "split")
		        ? "fio-basic: cpus_allowed_policy is not split, cpus_allowed shouldn't be "
		          "specified for fio (LKP's setup): drop cpus_allowed"
		        : "fio-basic: cpus_allowed must be specified for fio with "
		          "cpus_allowed_policy: split (LKP's setup)");
		return -EINVAL;
	}
	/* nr_task a count: each job's size is known here; a percentage: the guest's */
	const char *nt = get(p, "nr_task", "1");
	char size[32] = "@size@", tsb_s[32];
	if (!strchr(nt, '%'))
		snprintf(size, sizeof size, "%llu", tsb / (unsigned long long)atol(nt));
	snprintf(tsb_s, sizeof tsb_s, "%llu", tsb);
	struct strbuf g = {0}, t = {0};
	job_file(p, size, raw, &g, &t);
	double ramp = atof(get(p, "ramp_time", "0"));
	sr->iterations = 1;
	sr->nominal_s = (double)secs + ramp;
	sr->runtime_s = (double)secs + ramp;
	sr->timed = lkp_bool(bb_kvs_get(p, "time_based"));
	struct bb_strv *c = &sr->client_argv;
	int rc = 0;
	char *ge = g.s ? one_line(g.s) : NULL, *te = t.s ? one_line(t.s) : NULL;
	free(g.s);
	free(t.s);
	g.s = ge;
	t.s = te;
	if (!ge || !te || bb_strv_add(c, "/bin/sh") || bb_strv_add(c, "-c") ||
	    bb_strv_add(c, script) || bb_strv_add(c, "fio-basic") || bb_strv_add(c, nt) ||
	    bb_strv_add(c, tsb_s) || bb_strv_add(c, raw ? "1" : "0") || bb_strv_add(c, g.s) ||
	    bb_strv_add(c, t.s))
		rc = -ENOMEM;
	free(g.s);
	free(t.s);
	if (rc)
		return rc;
	snprintf(sr->client_count, sizeof sr->client_count, "1");
	return bb_strv_add(&sr->files, "/usr/bin/fio");
}

/* raw_disk writes to the job's ramdisks: the job needs them */
static int check_doc(struct walker *w, const struct bb_jdoc *d)
{
	const struct bb_jparam *raw = bb_jdoc_get(d, "raw_disk");
	int some = 0;
	for (size_t i = 0; raw && i < raw->n; i++)
		some |= !raw->v[i].unset && lkp_bool(raw->v[i].s);
	if (some && !bb_jdoc_get(d, "disk"))
		return jfail(
		    w, job_ymark(raw->mark),
		    "raw_disk: fio writes to the job's ramdisks, and the job has none: add "
		    "`disk: 1BRD_2G` (docs/jobs.md, \"Disks and filesystems\")");
	return 0;
}
/* the `# - key` lines of LKP's fio-setup-basic and fio run: all of them at the top level too */
static const char *const loose[] = {"rw",
                                    "bs",
                                    "ioengine",
                                    "iodepth",
                                    "direct",
                                    "offset_increment",
                                    "test_size",
                                    "nr_task",
                                    "fallocate",
                                    "time_based",
                                    "raw_disk",
                                    "invalidate",
                                    "nr_files",
                                    "filesize",
                                    "io_size",
                                    "file_service_type",
                                    "random_distribution",
                                    "numa_mem_policy",
                                    "numa_cpu_nodes",
                                    "pre_read",
                                    "rwmixread",
                                    "refill_buffers",
                                    "cpuload",
                                    "cpus_allowed_policy",
                                    "cpus_allowed",
                                    "donorname",
                                    "testfile",
                                    "buffered",
                                    "norandommap",
                                    "random_generator",
                                    "allrandrepeat",
                                    "group_reporting",
                                    "exitall",
                                    "ramp_time",
                                    "stonewall",
                                    "iodepth_by_instance",
                                    NULL};
static const char *const blocks[] = {"fio-setup-basic", "fio", NULL};
static const struct bb_suite_default defaults[] = {
    {"nr_task", "1"}, /* LKP's setup's default (its size is computed before it: see docs) */
    {NULL, NULL},
};
static const struct bb_suite_file files[] = {
    {"/usr/bin/fio", "usr/bin/fio", 0},
    {NULL, NULL, 0},
};
static const char *const primary[] = {"fio.write_iops", "fio.read_iops", "fio.write_bw_MBps",
                                      "fio.read_bw_MBps", NULL};

const struct bb_suite bb_suite_fio_basic = {
    .name = "fio-basic",
    .summary = "fio's IOPS, bandwidth and latencies on the job's filesystem or ramdisk",
    .runtime_key = "runtime",
    .default_runtime = "300",
    .keys = keys,
    .nkeys = sizeof keys / sizeof keys[0],
    .loose = loose,
    .blocks = blocks,
    .check_doc = check_doc,
    .defaults = defaults,
    .build = build,
    .files = files,
    .primary = primary,
};
