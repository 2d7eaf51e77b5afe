/* From a job to results under QEMU; see run.h. */
#include <errno.h>
#include <limits.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/image/image.h"
#include "host/job/job.h"
#include "host/job/jobimage.h"
#include "host/job/matrix.h"
#include "host/job/storage.h"
#include "host/json.h"
#include "host/collect/collect.h"
#include "host/results/mkdisk.h"
#include "host/run/progress.h"
#include "host/run/run.h"
#include "parse/parse_perf.h"
#include "host/run/scratch.h"
#include "host/run/runctx.h"
#include "host/collect/runjson.h"
#include "host/run/until.h"
#include "plan/plan.h"

#define TCG_ALLOWANCE_S 300.0 /* booting and setup under TCG */
#define KVM_ALLOWANCE_S 60.0

/* The kernels: as given, else the pinned one of the sysroot (or the image's own). */
static int pick_kernels(struct run *r, char *err, size_t errlen)
{
	struct bb_run_kernel *k = r->res->kernels;
	memcpy(k, r->o->kernels, sizeof(r->o->kernels));
	r->nk = r->o->nkernels;
	if (r->o->image) {
		snprintf(k[0].name, sizeof(k[0].name), "image");
		r->nk = 1;
	} else if (!r->nk) {
		char sysroot[4096], pattern[4200], msg[1024];
		char *vmlinuz = r->res->default_kernel;
		glob_t gl = {0};
		if (bb_image_default_sysroot(sysroot, sizeof(sysroot), msg, sizeof(msg)))
			return bb_errbuf_fail(err, errlen, -ENOENT,
			                      "unable to find the sysroot: %s", msg);
		snprintf(pattern, sizeof(pattern), "%s/boot/vmlinuz-*", sysroot);
		if (glob(pattern, 0, NULL, &gl) || gl.gl_pathc != 1) {
			size_t n = gl.gl_pathc;
			globfree(&gl);
			return bb_errbuf_fail(
			    err, errlen, -ENOENT,
			    "unable to find the pinned kernel: %s matches %zu files, "
			    "not 1 (make fetch)",
			    pattern, n);
		}
		snprintf(vmlinuz, sizeof(r->res->default_kernel), "%s", gl.gl_pathv[0]);
		globfree(&gl);
		snprintf(k[0].name, sizeof(k[0].name), "%s", strrchr(vmlinuz, '/') + 1);
		k[0].vmlinuz = vmlinuz;
		r->nk = 1;
	}
	for (size_t i = 0; i < r->nk; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(k[i].name, k[j].name))
				return bb_errbuf_fail(
				    err, errlen, -EINVAL,
				    "two kernels are called '%s': name them, --kernel "
				    "A=PATH --kernel B=PATH",
				    k[i].name);
	r->kernels = k;
	r->res->nkernels = r->nk;
	return 0;
}

/* The results folder (default results/NAME) and its console/ folder. */
static int make_outdir(struct run *r, char *err, size_t errlen)
{
	struct bb_run_result *res = r->res;
	if (r->o->outdir) {
		snprintf(res->outdir, sizeof(res->outdir), "%s", r->o->outdir);
	} else {
		const char *base = r->o->job ? r->o->job : r->o->image ? r->o->image : r->o->initrd;
		const char *slash = strrchr(base, '/');
		char name[256];
		snprintf(name, sizeof(name), "%s", slash ? slash + 1 : base);
		name[strcspn(name, ".")] = 0;
		snprintf(res->outdir, sizeof(res->outdir), "results/%s", *name ? name : "run");
	}
	snprintf(res->consdir, sizeof(res->consdir), "%s/console", res->outdir);
	if (bb_fileio_mkdirs(res->consdir))
		return bb_errbuf_fail(err, errlen, -errno, "unable to create %s: %s", res->consdir,
		                      strerror(errno));
	return 0;
}

/* The image name prefix for kernel k: the job's name (to its first dot), .KERNEL with several
 * kernels, characters outside [A-Za-z0-9._+-] as '_'. */
static void image_prefix(const struct run *r, size_t k, char *out, size_t len)
{
	const char *slash = strrchr(r->o->job, '/');
	char jname[256];
	snprintf(jname, sizeof(jname), "%s", slash ? slash + 1 : r->o->job);
	jname[strcspn(jname, ".")] = 0;
	if (r->nk > 1)
		snprintf(out, len, "%.255s.%.127s", jname, r->kernels[k].name);
	else
		snprintf(out, len, "%s", jname);
	for (char *c = out; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-",
		            *c))
			*c = '_';
}

/* Build every group's image on kernel k (server: the --server-kernel, into sspecs). */
static int build_kernel(struct run *r, struct bb_jobimage *groups, const struct bb_run_kernel *kern,
                        size_t k, int server, char *err, size_t errlen)
{
	/* the results disk is a virtio disk, a two-host job's NIC a virtio NIC: their drivers
	 * go in the image */
	const char *mods[3];
	size_t nmods = 0;
	struct image_spec base = {0};
	char prefix[512], name[700];
	int rc = 0;
	if (r->res->two_host || !r->o->no_disk)
		mods[nmods++] = "virtio_pci";
	if (r->res->two_host)
		mods[nmods++] = "virtio_net";
	if (!r->o->no_disk)
		mods[nmods++] = "virtio_blk";
	image_prefix(r, k, prefix, sizeof(prefix));
	base.outdir = r->o->images ? r->o->images : "images";
	base.kernel = kern->vmlinuz;
	base.modules_dir = kern->modules;
	base.modules = mods;
	base.nmodules = nmods;
	bb_run_say(r, BB_RUN_OUT, "building the image%s of %s for %skernel %s",
	           r->ngroups > 1 ? "s" : "", r->o->job, server ? "the server host's " : "",
	           kern->name);
	for (size_t g = 0; g < r->ngroups && !rc; g++) {
		struct image_result ires;
		struct bootspec *s = server ? &r->sspecs[g] : &r->specs[g * r->nk + k];
		char grp[32] = "";
		if (r->ngroups > 1)
			snprintf(grp, sizeof(grp), ".boot%zu", g);
		snprintf(name, sizeof(name), "%s%s%s", prefix, grp, server ? ".server" : "");
		int br = bb_jobimage_build_group(&groups[g], &base, name, &ires, err, errlen);
		if (br) {
			char msg[2048];
			snprintf(msg, sizeof(msg), "%s", err);
			return bb_errbuf_fail(err, errlen, br, "unable to build the image: %s",
			                      msg);
		}
		snprintf(s->image, sizeof(s->image), "%s", ires.dir);
		bb_run_say(r, BB_RUN_OUT, "  %s (image id %.16s)", ires.dir, ires.id);
	}
	return rc;
}

/* 1 when the comma-separated list of --monitors names a perf monitor. */
static int names_perf(const char *list)
{
	for (const char *s = list; s && *s; s += strspn(s, ",")) {
		char name[64];
		size_t n = strcspn(s, ",");
		snprintf(name, sizeof(name), "%.*s", (int)n, s);
		if (bb_perf_monitor(name))
			return 1;
		s += n;
	}
	return 0;
}

/* The boot groups of the job (plan, modules, programs), derived once from the matrix and kept
 * for the kernels' builds; each plan parsed once for the progress display. A perf monitor of
 * --monitors puts perf in every image, as a job that names one does. */
static int derive_groups(struct run *r, const struct bb_matrix *m, char *err, size_t errlen)
{
	r->groups = calloc(r->ngroups, sizeof(*r->groups));
	r->plans = calloc(r->ngroups, sizeof(*r->plans));
	r->have_plan = calloc(r->ngroups, sizeof(*r->have_plan));
	if (!r->groups || !r->plans || !r->have_plan)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t g = 0; g < r->ngroups; g++) {
		char perr[512];
		int rc = bb_jobimage_group(m, g, NULL, NULL, &r->groups[g], err, errlen);
		if (!rc && names_perf(r->o->monitors))
			rc = bb_jobimage_add_file(&r->groups[g], "/usr/bin/perf", err, errlen);
		if (rc)
			return rc == -ENOENT ? -EINVAL : rc;
		r->have_plan[g] =
		    !bb_plan_parse(r->groups[g].plan_text, strlen(r->groups[g].plan_text),
		                   &r->plans[g], perr, sizeof(perr));
		for (size_t k = 0; k < r->nk; k++)
			r->specs[g * r->nk + k].plan = r->have_plan[g] ? &r->plans[g] : NULL;
		if (r->sspecs)
			r->sspecs[g].plan = r->have_plan[g] ? &r->plans[g] : NULL;
	}
	return 0;
}

static int fill_spec(struct run *r, struct bootspec *s, const struct bb_run_kernel *kern, char *err,
                     size_t errlen);

/* Kernel k's images (every boot group's, once) and what its boots boot. */
int bb_run_build_kernel(struct run *r, size_t k, char *err, size_t errlen)
{
	int rc = 0;
	if (r->built[k])
		return 0;
	if (r->groups)
		rc = build_kernel(r, r->groups, &r->kernels[k], k, 0, err, errlen);
	for (size_t g = 0; g < r->ngroups && !rc; g++) {
		struct bootspec *s = &r->specs[g * r->nk + k];
		s->group = (int)g;
		s->kernel = (int)k;
		rc = fill_spec(r, s, &r->kernels[k], err, errlen);
	}
	r->built[k] = !rc;
	return rc;
}

/* What spec s boots: the built (or given) image's files, or the initramfs on a kernel. */
static int fill_spec(struct run *r, struct bootspec *s, const struct bb_run_kernel *kern, char *err,
                     size_t errlen)
{
	const char *vmlinuz = kern->vmlinuz;
	struct stat st;
	if (r->o->image)
		snprintf(s->image, sizeof(s->image), "%s", r->o->image);
	if (*s->image) {
		char p[4400];
		snprintf(s->vmlinuz, sizeof(s->vmlinuz), "%.4000s/vmlinuz", s->image);
		snprintf(s->initrd, sizeof(s->initrd), "%.4000s/initrd.img", s->image);
		snprintf(p, sizeof(p), "%s/cmdline", s->image);
		if (bb_fileio_read_line(p, s->cmdline, sizeof(s->cmdline)))
			snprintf(s->cmdline, sizeof(s->cmdline), "%s", IMAGE_DEFAULT_CMDLINE);
	} else {
		snprintf(s->vmlinuz, sizeof(s->vmlinuz), "%s", vmlinuz);
		snprintf(s->initrd, sizeof(s->initrd), "%s", r->o->initrd);
		snprintf(s->cmdline, sizeof(s->cmdline), "%s", IMAGE_DEFAULT_CMDLINE);
	}
	if (r->o->append)
		snprintf(s->cmdline + strlen(s->cmdline), sizeof(s->cmdline) - strlen(s->cmdline),
		         " %s", r->o->append);
	if (kern->append && *kern->append)
		snprintf(s->cmdline + strlen(s->cmdline), sizeof(s->cmdline) - strlen(s->cmdline),
		         " %s", kern->append);
	if (r->o->monitors)
		snprintf(s->cmdline + strlen(s->cmdline), sizeof(s->cmdline) - strlen(s->cmdline),
		         " benchboot.monitors=%s", r->o->monitors);
	const char *missing = stat(s->vmlinuz, &st)  ? s->vmlinuz
	                      : stat(s->initrd, &st) ? s->initrd
	                                             : NULL;
	if (missing)
		return bb_errbuf_fail(err, errlen, -EINVAL, "unable to read %s: %s", missing,
		                      strerror(errno));
	return 0;
}

/* The kernels' images, built now (lazy 0: every kernel; else the first, the others at their
 * first boot: a bisection boots few of its candidates), and the server host's. */
static int build_all(struct run *r, int lazy, char *err, size_t errlen)
{
	int rc = 0;
	if (!r->built && !(r->built = calloc(r->nk, 1)))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	for (size_t k = 0; k < (lazy ? 1 : r->nk) && !rc; k++)
		rc = bb_run_build_kernel(r, k, err, errlen);
	if (!rc && r->sspecs && r->groups)
		rc = build_kernel(r, r->groups, &r->o->server_kernel, 0, 1, err, errlen);
	for (size_t g = 0; r->sspecs && g < r->ngroups && !rc; g++) {
		r->sspecs[g].group = (int)g;
		rc = fill_spec(r, &r->sspecs[g], &r->o->server_kernel, err, errlen);
	}
	return rc;
}

/* A two-host job: its cluster, and the server host's own kernel (--server-kernel). */
static int take_cluster(struct run *r, const struct bb_job *job, char *err, size_t errlen)
{
	const struct bb_run_opts *o = r->o;
	if (job && job->cluster) {
		r->cluster = *job->cluster;
		r->res->two_host = 1;
	}
	if (!r->res->two_host && (o->only || o->server_kernel.vmlinuz || o->server_disk))
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "--only, --server-kernel and --server-disk are for a two-host job "
		    "(its cluster: names a server host and a client host)%s%s",
		    job ? "; this job's cluster is " : "",
		    job ? (*job->cluster_name ? job->cluster_name : "none") : "");
	if (o->server_kernel.vmlinuz && !(r->sspecs = calloc(r->ngroups, sizeof(*r->sspecs))))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	return 0;
}

/* The job parsed once, its matrix expanded once: one spec per boot group and kernel. */
static int prepare_boots(struct run *r, int lazy, char *err, size_t errlen)
{
	struct bb_job job;
	struct bb_matrix m;
	int rc = 0, have_matrix = 0;
	memset(&job, 0, sizeof(job));
	r->ngroups = 1;
	if (r->o->job) {
		if (bb_job_parse_file_set(r->o->job, r->o->sets, &job, err, errlen))
			return -EINVAL;
		if (bb_matrix_expand(&job, &m, err, errlen)) {
			bb_job_free(&job);
			return -EINVAL;
		}
		have_matrix = 1;
		r->ngroups = m.nboots;
		/* LKP's samples come from whole-job repeats: repeat_to N is N rounds */
		r->repeat_to = bb_job_repeat_to(&job);
	}
	if (!(r->specs = calloc(r->ngroups * r->nk, sizeof(*r->specs)))) {
		rc = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = take_cluster(r, have_matrix ? &job : NULL, err, errlen)))
		goto out;
	if (have_matrix && (rc = derive_groups(r, &m, err, errlen)))
		goto out;
	rc = build_all(r, lazy, err, errlen);
out:
	if (have_matrix) {
		bb_matrix_free(&m);
		bb_job_free(&job);
	}
	return rc;
}

/* A results disk at path, made when missing. */
static int make_disk(struct run *r, const char *path, char *err, size_t errlen)
{
	struct stat st;
	char msg[2048], id[33];
	struct bb_mkdisk mo = {0};
	if (!stat(path, &st))
		return 0;
	bb_run_say(r, BB_RUN_OUT, "making the results disk %s", path);
	int rc = bb_mkdisk(path, &mo, id, msg, sizeof(msg));
	if (rc)
		return bb_errbuf_fail(err, errlen, rc, "unable to make the results disk %s: %s",
		                      path, msg);
	bb_run_say(r, BB_RUN_OUT, "%s: results disk %s", path, id);
	return 0;
}

/* The results disk: DIR/results.img (or --disk); a two-host job's server host has its own,
 * DIR/server-host.img (or --server-disk), its boots collected into DIR/server-host/. */
static int ensure_disk(struct run *r, char *err, size_t errlen)
{
	struct bb_run_result *res = r->res;
	if (res->two_host) {
		snprintf(res->server_outdir, sizeof(res->server_outdir), "%s/" COLLECT_SERVER_DIR,
		         res->outdir);
		if (bb_fileio_mkdirs(res->server_outdir))
			return bb_errbuf_fail(err, errlen, -errno, "unable to create %s: %s",
			                      res->server_outdir, strerror(errno));
	}
	if (r->o->no_disk)
		return 0;
	if (r->o->disk)
		snprintf(res->disk, sizeof(res->disk), "%s", r->o->disk);
	else
		snprintf(res->disk, sizeof(res->disk), "%s/results.img", res->outdir);
	int rc = make_disk(r, res->disk, err, errlen);
	/* --parallel: one results disk a VM, DISK-2.img ... beside DISK (.img dropped) */
	for (size_t i = 0; r->disks && i < r->nslots && !rc; i++) {
		size_t l = strlen(res->disk);
		if (l > 4 && !strcmp(res->disk + l - 4, ".img"))
			l -= 4;
		if (i)
			snprintf(r->disks[i], sizeof(r->disks[i]), "%.*s-%zu.img", (int)l,
			         res->disk, i + 1);
		else
			snprintf(r->disks[i], sizeof(r->disks[i]), "%s", res->disk);
		rc = make_disk(r, r->disks[i], err, errlen);
	}
	if (rc || !res->two_host)
		return rc;
	if (r->o->server_disk)
		snprintf(res->server_disk, sizeof(res->server_disk), "%s", r->o->server_disk);
	else
		snprintf(res->server_disk, sizeof(res->server_disk), "%s/server-host.img",
		         res->outdir);
	return make_disk(r, res->server_disk, err, errlen);
}

/* Once a run, when the accelerator is TCG and the vCPUs that run at once crowd the host's
 * CPUs: the warning (host/run/vcpus.h). */
static void warn_vcpus(struct run *r)
{
	struct bb_vcpu_load l = bb_run_vcpu_load(r);
	char line[1024];
	if (!l.oversubscribed || r->vcpus_warned)
		return;
	bb_vcpu_warning(&l, line, sizeof(line));
	bb_run_say(r, BB_RUN_WARN, "%s", line);
	r->vcpus_warned = 1;
}

/*
 * --parallel N: the VMs that fit side by side on the host's topology (host/run/placement.h:
 * a host CPU per vCPU in whole cores of one NUMA node, QEMU's own threads on its VM's CPUs),
 * at most N; fewer said once, with the reason; 1 is one at a time, as without --parallel.
 */
static int place_vms(struct run *r, char *err, size_t errlen)
{
	const struct bb_run_opts *o = r->o;
	int cpus = r->cpus > 0 ? r->cpus : BB_QEMU_DEFAULT_CPUS;
	char why[1024] = "", sets[2048] = "";
	if (o->parallel <= 1)
		return 0;
	if (r->res->two_host)
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "--parallel boots one-host VMs side by side; a two-host job "
		    "already boots its two hosts at once: run it without --parallel");
	struct bb_topology *t = malloc(sizeof(*t));
	if (!t)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	int rc = bb_topology_read("", t, why, sizeof(why));
	if (rc) {
		bb_run_say(
		    r, BB_RUN_WARN,
		    "--parallel %d: unable to read the host's topology (%s): one VM at a time",
		    o->parallel, why);
		free(t);
		return 0;
	}
	bb_place(t, o->parallel, cpus, &r->place, why, sizeof(why));
	if (r->place.nslots < (size_t)o->parallel) {
		/* would smaller VMs fit more? said as a hint: the VM's size is the user's choice */
		struct bb_placement small;
		char hint[128] = "", ignored[1024];
		int fewer = cpus;
		while (fewer > 1) {
			fewer--;
			bb_place(t, o->parallel, fewer, &small, ignored, sizeof(ignored));
			if (small.nslots > r->place.nslots) {
				snprintf(hint, sizeof(hint), " (with --cpus %d, %zu would fit)",
				         fewer, small.nslots);
				break;
			}
		}
		bb_run_say(r, BB_RUN_WARN, "--parallel %d: %s; %s%s", o->parallel, why,
		           r->place.nslots > 1 ? "booting as many at once as fit"
		                               : "booting one VM at a time",
		           hint);
	}
	free(t);
	if (r->place.nslots <= 1)
		return 0;
	r->nslots = r->place.nslots;
	for (size_t i = 0; i < r->nslots; i++) {
		size_t l = strlen(sets);
		snprintf(sets + l, sizeof(sets) - l, "%s", i ? " | " : "");
		l = strlen(sets);
		bb_cpulist_format(&r->place.slots[i], sets + l, sizeof(sets) - l);
	}
	bb_run_say(r, BB_RUN_OUT,
	           "side by side: %zu VMs at once, each pinned to its own host CPUs: %s (a host "
	           "CPU per vCPU, QEMU's own threads on its VM's CPUs%s)",
	           r->nslots, sets,
	           bb_cpuset_count(&r->place.host) ? ", CPU 0's core left to the host" : "");
	r->res->side_by_side = r->nslots;
	if (!(r->disks = calloc(r->nslots, sizeof(*r->disks))))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	return 0;
}

/* The accelerator, once: KVM only when the job's own kernel prints under it. */
static void choose_accel(struct run *r)
{
	char why[256];
	r->use = r->o->accel;
	if (r->o->accel == BB_ACCEL_AUTO) {
		bb_run_say(r, BB_RUN_OUT, "probing KVM with kernel %s (up to %.0f s)",
		           r->specs[0].vmlinuz, BB_KVM_PROBE_S);
		int kvm = bb_kvm_probe(NULL, r->specs[0].vmlinuz, BB_KVM_PROBE_S, why, sizeof(why));
		r->use = kvm ? BB_ACCEL_KVM : BB_ACCEL_TCG;
		bb_run_say(r, BB_RUN_OUT, "accelerator: %s (%s%s)", kvm ? "KVM" : "TCG",
		           kvm ? "" : "KVM: ", why);
	} else {
		bb_run_say(r, BB_RUN_OUT, "accelerator: %s (as asked)",
		           r->use == BB_ACCEL_KVM ? "KVM" : "TCG");
	}
	r->allow = r->o->allowance > 0      ? r->o->allowance
	           : r->use == BB_ACCEL_KVM ? KVM_ALLOWANCE_S
	                                    : TCG_ALLOWANCE_S;
}

/* What a boot group's memory must hold that the VM's may not (said, the boots go on, as
 * `check` warns): LKP's need_memory of each run, the brd ramdisks written full. */
static void warn_memory(struct run *r, const struct bb_plan *plan, int cpus)
{
	int mem = r->o->mem_mb ? r->o->mem_mb : 1024;
	char why[512];
	for (size_t i = 0; i < plan->nruns; i++) {
		const char *need = bb_kvs_get(&plan->runs[i].params, "lkp.need_memory");
		if (need && bb_vcpu_need_memory(need, cpus, mem, why, sizeof(why)) > 0)
			bb_run_say(r, BB_RUN_WARN, "run %s: %s", plan->runs[i].id, why);
	}
	struct bb_kvs bp = {0};
	bb_kvs_parse_words(&bp, plan->boot_params ? plan->boot_params : "");
	unsigned long long mb = bb_disk_memory(&bp) >> 20;
	bb_kvs_free(&bp);
	if (mb > (unsigned long long)mem)
		bb_run_say(
		    r, BB_RUN_WARN,
		    "boot group %d: its ramdisks (%s) take up to %llu MB of guest memory when "
		    "written full, more than the VM's %d MB: --mem %llu or more",
		    plan->boot_group, plan->disk_description ? plan->disk_description : "brd", mb,
		    mem, mb + 1024);
}

/* A boot whose disks are a machine's (LKP's ssd_partitions, hdd_partitions: a host file's)
 * gets as many disks of the VM, named as the VM names them: when the names differ, the init
 * will find none of the machine's; said before the boot, the boots go on. */
static void warn_disks(struct run *r, const struct bb_plan *plan)
{
	enum bb_disk_kind kind;
	if (bb_disk_vm_kind(plan->disk_vm, &kind))
		return;
	char vm[512] = "", machine[512] = "", dev[32];
	int same = 1;
	for (size_t i = 0; i < plan->disk_devices.n; i++) {
		bb_disk_device(kind, (int)i, dev, sizeof dev);
		same &= !strcmp(dev, plan->disk_devices.v[i]);
		snprintf(vm + strlen(vm), sizeof vm - strlen(vm), "%s%s", i ? " " : "", dev);
		snprintf(machine + strlen(machine), sizeof machine - strlen(machine), "%s%s",
		         i ? " " : "", plan->disk_devices.v[i]);
	}
	const char *key = kind == BB_DISK_SSD ? "ssd_partitions" : "hdd_partitions";
	if (!same)
		bb_run_say(r, BB_RUN_WARN,
		           "boot group %d: its disks are a machine's (%s: %s) and the VM's are %s: "
		           "the runs that need them will fail; --set %s= gives the VM's own",
		           plan->boot_group, key, machine, vm, key);
}

/* The runs LKP's rule would drop at the VMs' vCPUs (nr_threads: P% giving 0 clients): each
 * said with the way out; when that is every run, nothing to boot: -EINVAL with the reason.
 * What the VM's memory may not hold is said too (warn_memory). */
static int check_clients(struct run *r, char *err, size_t errlen)
{
	size_t total = 0, dropped = 0;
	int cpus = r->cpus > 0 ? r->cpus : BB_QEMU_DEFAULT_CPUS;
	char why[256] = "", count[16];
	for (size_t g = 0; r->have_plan && g < r->ngroups; g++)
		if (r->have_plan[g]) {
			warn_memory(r, &r->plans[g], cpus);
			warn_disks(r, &r->plans[g]);
		}
	for (size_t g = 0; r->have_plan && g < r->ngroups; g++)
		for (size_t i = 0; r->have_plan[g] && i < r->plans[g].nruns; i++) {
			const struct bb_plan_run *run = &r->plans[g].runs[i];
			total++;
			if (run->client_percent < 0)
				continue;
			snprintf(count, sizeof(count), "%d%%", run->client_percent);
			if (bb_vcpu_clients(count, cpus, why, sizeof(why)))
				continue;
			dropped++;
			bb_run_say(r, BB_RUN_WARN, "run %s: %s", run->id, why);
		}
	if (total && dropped == total)
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "every run would do nothing at %d vCPU%s: %s; nothing booted",
		                      cpus, cpus == 1 ? "" : "s", why);
	return 0;
}

/* The VMs' vCPUs: --cpus, else for boots that decide (bisect, --until, --parallel) a shape
 * that leaves the host room under TCG, said (host/run/vcpus.h). */
static void choose_shape(struct run *r)
{
	const struct bb_run_opts *o = r->o;
	int vms = r->res->two_host && !o->only ? 2 : o->parallel > 1 ? o->parallel : 1;
	char line[1024];
	r->cpus = o->cpus;
	if (o->cpus > 0 || !(o->decide || o->until > 0 || o->parallel > 1))
		return;
	r->cpus = bb_vcpu_shape(r->use, vms, r->host_cpus, line, sizeof(line));
	if (r->cpus)
		bb_run_say(r, BB_RUN_OUT, "%s", line);
}

/*
 * The VM's NIC (--nic, or a job with nic:): virtio-net on QEMU's user network, where the
 * guest is 10.0.2.15/24 and 10.0.2.2 is the host. The MAC is the one the job names, if it
 * names its NIC by MAC.
 */
static int nic_device(const struct run *r, const struct bootspec *s, char *buf, size_t len)
{
	const char *name = s->plan ? s->plan->nic_name : NULL;
	if (!r->o->nic && !name)
		return 0;
	snprintf(buf, len, "virtio-net-pci,netdev=n0,mac=%s",
	         name && strlen(name) == 17 && name[2] == ':' ? name : "52:54:00:12:34:56");
	return 1;
}

/* A pinned VM (side by side) says its QEMU's pid: which VM is which process. */
static void said_pid(void *ctx, int pid)
{
	bb_progress_event(ctx, "QEMU pid %d", pid);
}

/* One QEMU boot of s, watched by p. A boot under KVM whose kernel prints nothing (the probe
 * passed, yet this kernel is silent) is stopped and booted again under TCG, not counted. */
int bb_run_qemu(struct run *r, const struct bootspec *s, struct bb_progress *p,
                struct bb_run_record *rec, const char *disk, const struct bb_cpuset *affinity,
                struct bb_qemu_result *qres)
{
	const struct bb_run_opts *o = r->o;
	char nicdev[160], pinned[300] = "", err[4600];
	const char *extra[4 + 4 * BB_SCRATCH_MAX + 3];
	size_t nextra = 0;
	int nic = nic_device(r, s, nicdev, sizeof(nicdev));
	if (nic) {
		extra[nextra++] = "-netdev";
		extra[nextra++] = "user,id=n0";
		extra[nextra++] = "-device";
		extra[nextra++] = nicdev;
	}
	/* the job's disks of the VM (disk: 1SSD): sparse files for this boot */
	struct bb_scratch scratch;
	int rc = bb_scratch_make(s->plan, r->res->outdir, (size_t)(rec - r->res->recs), &scratch,
	                         err, sizeof err);
	if (rc) {
		bb_progress_event(p, "%s", err);
		return rc;
	}
	for (size_t i = 0; i < scratch.nargs; i++)
		extra[nextra++] = scratch.args[i];
	extra[nextra] = NULL;
	if (scratch.n)
		bb_progress_event(
		    p, "%zu scratch disk%s (%s, %llu GiB each, sparse) in %s/scratch%s", scratch.n,
		    scratch.n == 1 ? "" : "s", s->plan->disk_vm, s->plan->disk_vm_bytes >> 30,
		    r->res->outdir, o->keep_scratch ? ", kept after the boot" : "");
	if (affinity) {
		strcpy(pinned, ", host CPUs ");
		bb_cpulist_format(affinity, pinned + strlen(pinned),
		                  sizeof(pinned) - strlen(pinned));
	}
	for (;;) {
		double dl = bb_run_deadline(r, s);
		p->boot_start = bb_now();
		p->default_silence = o->silence > 0 ? o->silence : r->allow;
		bb_progress_event(
		    p, "kernel %s, boot group %d, %s, %d CPUs, %d MB%s, deadline %.0f s%s",
		    r->kernels[s->kernel].name, s->group, r->use == BB_ACCEL_KVM ? "KVM" : "TCG",
		    r->cpus > 0 ? r->cpus : BB_QEMU_DEFAULT_CPUS, o->mem_mb ? o->mem_mb : 1024,
		    pinned, dl, nic ? ", NIC on QEMU's user network" : "");
		struct bb_qemu_opts qo = {
		    .accel = r->use,
		    .kernel = s->vmlinuz,
		    .initrd = s->initrd,
		    .append = rec->cmdline,
		    .disk = *disk ? disk : NULL,
		    .disk_blkdebug = o->blkdebug,
		    .cpus = r->cpus,
		    .mem_mb = o->mem_mb,
		    .console_log = rec->console,
		    .deadline_s = dl,
		    .silence_s = p->default_silence,
		    .kernel_wait_s = r->use == BB_ACCEL_KVM && o->accel == BB_ACCEL_AUTO
		                         ? BB_KVM_KERNEL_WAIT_S
		                         : 0,
		    .on_line = bb_progress_line,
		    .on_tick = bb_progress_tick,
		    .ctx = p,
		    .interrupt = o->interrupt,
		    .extra_args = nextra ? extra : NULL,
		    .affinity = affinity,
		    .on_start = affinity ? said_pid : NULL,
		};
		int qr = bb_qemu_boot(&qo, qres);
		if (qr || qres->outcome != BB_BOOT_NO_KERNEL) {
			bb_scratch_remove(&scratch, o->keep_scratch);
			return qr;
		}
		/* not a failed boot: the same image again under TCG, with TCG's allowance in
		 * its deadline */
		bb_progress_event(p,
		                  "%s under KVM: stopped; KVM does not run this kernel here: TCG "
		                  "for the rest of this run, booting again",
		                  qres->detail);
		r->use = BB_ACCEL_TCG;
		if (o->allowance <= 0)
			r->allow = TCG_ALLOWANCE_S;
		warn_vcpus(r);
	}
}

void bb_run_boot_begin(struct run *r, const struct bootspec *s, size_t idx, size_t nboots,
                       const struct bb_run_opts *po, struct bb_progress *p)
{
	struct bb_run_record *rec = &r->res->recs[idx];
	memset(p, 0, sizeof(*p));
	p->o = po;
	p->boot_no = (int)idx + 1;
	p->nboots = (int)nboots;
	p->plan = s->plan;
	p->kernel_name = r->kernels[s->kernel].name;
	rec->kernel = s->kernel;
	rec->group = s->group;
	snprintf(rec->console, sizeof(rec->console), "%.3800s/%s-%03zu-%.127s.g%d.log",
	         r->res->consdir, r->stamp, idx + 1, p->kernel_name, s->group);
	bb_run_boot_cmdline(r, idx, s->cmdline, rec);
}

void bb_run_keep_booted(struct run *r, size_t idx, const char *kernel_name, const char *vmlinuz,
                        const char *initrd)
{
	char job[PATH_MAX];
	const char *job_file = r->o->job && realpath(r->o->job, job) ? job : r->o->job;
	if (bb_run_booted_set(&r->booted[idx], kernel_name, vmlinuz, initrd, job_file))
		bb_run_say(r, BB_RUN_WARN, "out of memory: run.json names no kernel for boot %zu",
		           idx + 1);
}

int bb_run_boot_end(struct run *r, const struct bootspec *s, size_t idx, struct bb_progress *p,
                    int qr, const struct bb_qemu_result *qres, const char *disk)
{
	struct bb_run_result *res = r->res;
	struct bb_run_record *rec = &res->recs[idx];
	bb_run_keep_booted(r, idx, p->kernel_name, s->vmlinuz, s->initrd);
	bb_run_record_accel(r, rec);
	snprintf(rec->boot_id, sizeof(rec->boot_id), "%s", p->boot_id);
	rec->ok = p->ok;
	rec->failed = p->failed;
	rec->wall = qres->wall_s;
	rec->stalls = qres->stalls;
	snprintf(rec->stall, sizeof(rec->stall), "%s", qres->stall);
	snprintf(rec->disk_error, sizeof(rec->disk_error), "%s", p->disk_error);
	if (bb_run_outcome(r, p, qr, qres, rec->console, &rec->outcome, rec->detail,
	                   sizeof(rec->detail), &rec->finished))
		return 1;
	bb_run_collect(r, p, disk, res->outdir, rec->console, rec->boot_id, rec->finished,
	               rec->folder, sizeof(rec->folder));
	return 0;
}

void bb_run_write_json(struct run *r)
{
	struct bb_run_result *res = r->res;
	int wr = bb_runjson_write(res->outdir, r->old, res->recs, r->booted, res->nrecs);
	if (wr)
		bb_run_say(r, BB_RUN_WARN, "unable to write %s/run.json: %s", res->outdir,
		           strerror(-wr));
}

/* Boot s (the res->nrecs-th boot of nboots), record it, collect it, update run.json. */
/* --until needs two sides: two kernels, or a key (--by) whose two values the boots hold. */
static int until_check_sides(const struct run *r, char *err, size_t errlen)
{
	if (r->o->until <= 0)
		return 0;
	if (!r->o->until_by && r->nk != 2)
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "--until compares two sides: give two kernels (--kernel A=... "
		    "--kernel B=...), or name the key of the sides with --by (%zu "
		    "kernel%s here)",
		    r->nk, r->nk == 1 ? "" : "s");
	return 0;
}

/* The run.json of earlier invocations (kept), and the stamp of this one's console logs. */
static void begin_boots(struct run *r)
{
	char p[4300], msg[256];
	struct stat st;
	snprintf(p, sizeof(p), "%s/run.json", r->res->outdir);
	if (!stat(p, &st) && !(r->old = bb_jn_parse_file(p, msg, sizeof(msg))))
		bb_run_say(r, BB_RUN_WARN, "%s is unreadable (%s): its entries are dropped", p,
		           msg);
	time_t now = time(NULL);
	strftime(r->stamp, sizeof(r->stamp), "%Y%m%d-%H%M%S", localtime(&now));
}

int bb_run_open(struct run *r, int lazy, char *err, size_t errlen)
{
	const struct bb_run_opts *o = r->o;
	int rc;
	memset(r->res, 0, sizeof(*r->res));
	if (!!o->job + !!o->image + !!o->initrd != 1)
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "what to boot? a JOB file, or --image DIR, or --initrd FILE");
	if ((rc = pick_kernels(r, err, errlen)) || (rc = until_check_sides(r, err, errlen)) ||
	    (rc = make_outdir(r, err, errlen)) || (rc = prepare_boots(r, lazy, err, errlen)))
		return rc;
	r->host_cpus = bb_host_cpus();
	choose_accel(r);
	choose_shape(r);
	if ((rc = check_clients(r, err, errlen)) || (rc = place_vms(r, err, errlen)) ||
	    (rc = ensure_disk(r, err, errlen)))
		return rc;
	r->res->ngroups = r->ngroups;
	warn_vcpus(r);
	begin_boots(r);
	return 0;
}

void bb_run_close(struct run *r)
{
	for (size_t g = 0; r->have_plan && g < r->ngroups; g++)
		if (r->have_plan[g])
			bb_plan_free(&r->plans[g]);
	for (size_t g = 0; r->groups && g < r->ngroups; g++)
		bb_jobimage_free(&r->groups[g]);
	free(r->groups);
	free(r->built);
	free(r->plans);
	free(r->have_plan);
	free(r->specs);
	free(r->sspecs);
	for (size_t i = 0; i < r->nbooted; i++)
		bb_run_booted_free(&r->booted[i]);
	free(r->booted);
	free(r->disks);
	bb_jn_free(r->old);
}

void bb_run_result_free(struct bb_run_result *res)
{
	free(res->recs);
	res->recs = NULL;
	res->nrecs = 0;
}
