/*
 * `benchboot build JOB.yaml`: the images a job needs. The init reads one plan
 * (/etc/benchboot/plan), so every boot group gets an image of its own: OUTDIR/JOB for a job
 * with one boot group, OUTDIR/JOB.bootN (N = 0, 1, ...) for more. Each image holds only what
 * its runs use: the suite's programs (netperf and netserver from build/netperf, stress-ng from
 * the sysroot) with their libraries, perf (the sysroot's) when the job has a perf monitor, the
 * modules of the plan's modules.boot with their dependencies (sctp only when an SCTP test
 * runs; dummy for netperf's non-loopback address), busybox, the init and the plan. The
 * group's kernel_cmdline is appended to the image's cmdline file.
 */
#ifndef BENCHBOOT_HOST_JOBIMAGE_H
#define BENCHBOOT_HOST_JOBIMAGE_H

#include <stddef.h>

#include "host/image/image.h"
#include "host/job/matrix.h"

/* One boot group's image spec; the strings are owned here. */
struct bb_jobimage {
	char name[256];
	char *plan_text;
	char cmdline[4096];
	struct bb_strv modules;
	struct image_pair *binaries; /* src/dest strings owned */
	size_t nbinaries;
};

/* 1 if path names a job file (ends in .yaml or .yml). */
int bb_jobimage_is_job(const char *path);

/* The spec of boot group `boot`; name_prefix NULL: the job's name. base_cmdline NULL:
 * IMAGE_DEFAULT_CMDLINE. 0 or -errno with err. */
int bb_jobimage_group(const struct bb_matrix *m, size_t boot, const char *name_prefix,
                      const char *base_cmdline, struct bb_jobimage *g, char *err, size_t errlen);
void bb_jobimage_free(struct bb_jobimage *g);
/* A program at path in the image of g too (once), from where benchboot takes it (the sysroot's
 * Debian packages, or the tree's builds): 0, or -EINVAL (no source known), -ENOENT (not
 * built), -ENOMEM, with err. */
int bb_jobimage_add_file(struct bb_jobimage *g, const char *path, char *err, size_t errlen);

/*
 * Build the image of one boot group (g from bb_jobimage_group) on top of base, as
 * bb_jobimage_build does for each group; name NULL: g->name. For a caller that holds the
 * expanded matrix already (benchboot run: one parse, several kernels). 0, or -errno (-EINVAL: bad
 * input) with err.
 */
int bb_jobimage_build_group(const struct bb_jobimage *g, const struct image_spec *base,
                            const char *name, struct image_result *res, char *err, size_t errlen);

/*
 * Build every image of a job, with its --set overrides (sets, NULL for none:
 * bb_job_parse_file_set): base carries the options given on the command line (outdir,
 * sysroot, kernel, init, compression, extra modules, binaries and files; a name becomes the
 * prefix); the group's name, modules, binaries, plan and cmdline are added. res receives one
 * result per boot group (malloc'd array). 0, -EINVAL (bad job: err names file, line,
 * column) or another -errno (errbuf.h).
 */
int bb_jobimage_build(const char *jobpath, const struct bb_strv *sets,
                      const struct image_spec *base, struct image_result **res, size_t *nres,
                      char *err, size_t errlen);

#endif
