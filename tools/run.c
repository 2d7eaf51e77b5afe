/*
 * usage: benchboot run JOB [--kernel [NAME=]VMLINUZ [--modules DIR]]... [--repeat N]
 *                      [--cpus N] [--mem MB] [-o DIR] [--accel auto|kvm|tcg]
 *        benchboot run --image DIR | --initrd FILE [--kernel VMLINUZ]... [OPTIONS]
 *
 * From a job to results: build the images of the job (one per boot group and kernel), make a
 * results disk if there is none, boot QEMU once per boot group and kernel (A, B, A, B with
 * --repeat), show the progress from the console, stop a boot that panics, oopses, hangs or
 * overruns its deadline, collect what finished after every boot, and say where it all is.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host/results/collect.h"
#include "host/image/image.h"
#include "host/job/job.h"
#include "host/job/jobimage.h"
#include "host/json.h"
#include "host/job/matrix.h"
#include "host/vm/qemu.h"
#include "plan.h"
#include "verb.h"

static const char usage_text[] =
    "usage: benchboot run JOB [--kernel [NAME=]VMLINUZ [--modules DIR]]... [OPTIONS]\n"
    "       benchboot run --image DIR | --initrd FILE [--kernel VMLINUZ]... [OPTIONS]\n"
    "\n"
    "Build the images of JOB (one per boot group and kernel), make a results disk if there\n"
    "is none, boot each under QEMU (KVM when it really works, else TCG), show the progress,\n"
    "collect the results after every boot and print where they are. Default kernel: the\n"
    "pinned Debian kernel of the sysroot. With several --kernel, boots alternate A, B, A, B.\n"
    "A boot whose kernel panics, oopses, hangs (no console output for too long) or overruns\n"
    "its deadline is stopped and marked failed; what finished is collected; the next boot\n"
    "goes on. Ctrl-C stops the VM, collects what finished and ends.\n"
    "\n"
    "  --kernel [NAME=]PATH  a kernel to boot (repeatable; NAME labels its boots, default the\n"
    "                        file name); its boots carry the boot parameter kernel=NAME\n"
    "  --modules DIR         the lib/modules/VERSION of the --kernel before it\n"
    "  --repeat N            boot every group and kernel N times (default 1)\n"
    "  --cpus N, --mem MB    the VM (default 2 CPUs, 1024 MB)\n"
    "  -o DIR                results folder (default results/NAME): the collected boots,\n"
    "                        console/ (serial logs), results.img (the results disk), run.json\n"
    "  --disk FILE           results disk (default DIR/results.img; made when missing)\n"
    "  --no-disk             boot without a results disk (console only)\n"
    "  --nic                 give the VM a virtio-net NIC on QEMU's user network (guest\n"
    "                        10.0.2.15/24, the host is 10.0.2.2); on for a job with nic:\n"
    "  --accel auto|kvm|tcg  default auto: KVM when the job's kernel prints under it (a\n"
    "                        probe of up to 5 s; a KVM boot silent for 10 s switches the rest\n"
    "                        of the run to TCG), else TCG; the reason is printed\n"
    "  --images DIR          where images are built (default images)\n"
    "  --image DIR           boot an image built before (DIR/vmlinuz, initrd.img, cmdline)\n"
    "  --initrd FILE         boot this initramfs (with --kernel, default the pinned kernel)\n"
    "  --append TEXT         more kernel command line\n"
    "  --deadline S          seconds per boot (default from the plan: runtimes, iterations,\n"
    "                        grace, plus the boot allowance)\n"
    "  --boot-allowance S    seconds for booting and setup (default 300 under TCG, 60 KVM)\n"
    "  --silence S           console silence that counts as a hang outside runs (default\n"
    "                        the boot allowance; during a run: runtime + grace + 60)\n"
    "\n"
    "exit: 0 every boot finished and every run passed, 1 a boot or a run failed (or Ctrl-C),\n"
    "100 bad usage or job, 111 system failure (QEMU, build, disk).\n";

#define MAX_KERNELS 16

struct kernel {
	char name[128];
	const char *vmlinuz, *modules;
};

/* What one boot needs, and what its plan says about durations. */
struct bootspec {
	char vmlinuz[4096], initrd[4096], cmdline[4096], image[4096];
	int kernel, group;
	double deadline;
	struct bb_plan plan;
	int have_plan;
};

struct progress {
	int tty;
	int boot_no, nboots;
	const struct bootspec *spec;
	const char *kernel_name;
	char boot_id[128];
	int runs_total, run_no, ok, failed;
	char run_id[256], counted_run[256];
	int iter, niter;
	double run_start, runtime, boot_start;
	char last[256];
	int boot_end_seen, iterations;
	char shown[1024];
	double default_silence;
	int status_shown;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "benchboot run: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n'benchboot run --help' explains the usage\n");
	return EXIT_USAGE;
}

static int mkdir_p(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%.4000s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* ---- progress ---- */

static const struct bb_plan_run *plan_run(const struct bootspec *s, const char *id)
{
	for (size_t i = 0; s->have_plan && i < s->plan.nruns; i++)
		if (!strcmp(s->plan.runs[i].id, id))
			return &s->plan.runs[i];
	return NULL;
}

static void clear_status(struct progress *p)
{
	if (p->tty && p->status_shown) {
		fputs("\r\033[K", stdout);
		p->status_shown = 0;
	}
}

static void event(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void event(struct progress *p, const char *fmt, ...)
{
	va_list ap;
	clear_status(p);
	printf("boot %d/%d: ", p->boot_no, p->nboots);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* e2fsck -p on the results disk after a boot that did not end cleanly, said so. */
static void repair_disk(struct progress *p, const char *disk)
{
	event(p, "repairing the results disk %s (e2fsck -p) for the next boots", disk);
	int r = collect_repair_disk(disk);
	if (r < 0)
		event(p,
		      "unable to run e2fsck -p on %s: %s: the next boots may refuse it and send "
		      "their results over the console",
		      disk, strerror(-r));
	else if (r == 0)
		event(p, "results disk %s: clean", disk);
	else if (r < 4)
		event(p, "results disk %s: repaired (e2fsck -p exit %d)", disk, r);
	else
		event(p,
		      "results disk %s: e2fsck -p could not repair it (exit %d): the next boots "
		      "send their results over the console; run e2fsck on it by hand",
		      disk, r);
}

/* The one-line status on a terminal: which run, time left, last result. */
static void on_tick(void *ctx)
{
	struct progress *p = ctx;
	if (!p->tty)
		return;
	char line[1024];
	double t = now_s();
	if (*p->run_id) {
		double left = p->run_start + p->runtime - t;
		snprintf(line, sizeof(line),
		         "boot %d/%d %.100s: run %d/%d %.200s iter %d/%d, %s%.0f s left%s%.200s",
		         p->boot_no, p->nboots, p->kernel_name, p->run_no, p->runs_total, p->run_id,
		         p->iter, p->niter, left < 0 ? "over by " : "", left < 0 ? -left : left,
		         *p->last ? ", last: " : "", p->last);
	} else if (p->boot_end_seen) {
		snprintf(line, sizeof(line), "boot %d/%d %.100s: done, powering off", p->boot_no,
		         p->nboots, p->kernel_name);
	} else if (*p->boot_id) {
		snprintf(line, sizeof(line), "boot %d/%d %.100s: %d of %d iterations done%s%.200s",
		         p->boot_no, p->nboots, p->kernel_name, p->ok + p->failed, p->iterations,
		         *p->last ? ", last: " : "", p->last);
	} else {
		snprintf(line, sizeof(line), "boot %d/%d %.100s: booting, %.0f s", p->boot_no,
		         p->nboots, p->kernel_name, t - p->boot_start);
	}
	if (p->status_shown && !strcmp(line, p->shown))
		return;
	snprintf(p->shown, sizeof(p->shown), "%s", line);
	printf("\r\033[K%.*s", 150, line);
	fflush(stdout);
	p->status_shown = 1;
}

static double on_line(void *ctx, const char *line)
{
	struct progress *p = ctx;
	struct bb_console_event ev;
	const char *pe = strstr(line, "BENCHBOOT plan-error ");
	if (pe) {
		event(p, "the init could not read its plan: %s",
		      pe + strlen("BENCHBOOT plan-error "));
		return 0;
	}
	if (!bb_console_event(line, &ev))
		return 0;
	switch (ev.kind) {
	case BB_EV_BOOT_START:
		snprintf(p->boot_id, sizeof(p->boot_id), "%.127s", ev.id);
		p->runs_total = ev.runs;
		p->iterations = ev.niter;
		event(p, "booted (%.0f s), boot id %s, %d run%s", now_s() - p->boot_start, ev.id,
		      ev.runs, ev.runs == 1 ? "" : "s");
		return 0;
	case BB_EV_RUN_START: {
		const struct bb_plan_run *r = plan_run(p->spec, ev.id);
		/* the init interleaves the runs' iterations: number a run by its place in the plan */
		if (r) {
			p->run_no = (int)(r - p->spec->plan.runs) + 1;
		} else if (strcmp(p->counted_run, ev.id)) {
			p->run_no++;
			snprintf(p->counted_run, sizeof(p->counted_run), "%s", ev.id);
		}
		snprintf(p->run_id, sizeof(p->run_id), "%s", ev.id);
		p->iter = ev.iter;
		p->niter = ev.niter;
		p->runtime = ev.runtime;
		p->run_start = now_s();
		char params[1024] = "";
		for (size_t i = 0; r && i < r->params.n; i++)
			snprintf(params + strlen(params), sizeof(params) - strlen(params), " %s=%s",
			         r->params.v[i].key, r->params.v[i].value);
		event(p, "run %d/%d %s iteration %d/%d (%g s)%s%s", p->run_no, p->runs_total, ev.id,
		      ev.iter, ev.niter, ev.runtime, *params ? ":" : "", params);
		return ev.runtime + (r ? r->grace : 60) + 60;
	}
	case BB_EV_RESULT:
		if (!*p->last || strstr(ev.stat, "Throughput") || strstr(ev.stat, "ops_per_sec"))
			snprintf(p->last, sizeof(p->last), "%s = %g %s", ev.stat, ev.value,
			         ev.unit);
		return 0;
	case BB_EV_RUN_END:
		if (!strcmp(ev.status, "ok"))
			p->ok++;
		else
			p->failed++;
		event(p, "run %d/%d %s iteration %d: %s in %.1f s%s%s", p->run_no, p->runs_total,
		      ev.id, ev.iter, ev.status, ev.elapsed,
		      strcmp(ev.status, "ok") ? ": " : (*p->last ? ", " : ""),
		      strcmp(ev.status, "ok") ? ev.reason : p->last);
		*p->run_id = 0;
		return p->default_silence;
	case BB_EV_BOOT_END:
		p->boot_end_seen = 1;
		event(p, "all runs done: %d ok, %d failed", ev.ok, ev.failed);
		return 0;
	case BB_EV_INIT_CRASH: {
		char text[600];
		bb_init_crash_text(&ev, text, sizeof(text));
		event(p, "%s", text);
		return 0;
	}
	default:
		return 0;
	}
}

/* ---- pieces ---- */

/* `benchboot mkdisk PATH` with this very binary. */
static int make_disk(const char *path)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return -errno;
	self[n] = 0;
	char *argv[] = {self, "mkdisk", (char *)path, NULL};
	pid_t pid;
	int r = posix_spawn(&pid, self, NULL, NULL, argv, NULL), status;
	if (r)
		return -r;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

static void collect_msg(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "collect: %s\n", line);
}

/* Deadline of one boot from its plan: every iteration's runtime and grace, plus setup. */
static double plan_deadline(const struct bb_plan *plan, double allowance)
{
	double t = allowance;
	for (size_t i = 0; i < plan->nruns; i++)
		t += plan->runs[i].iterations * (plan->runs[i].runtime + plan->runs[i].grace + 15);
	return t;
}

struct run_record {
	char boot_id[128], folder[300];
	int kernel, group;
	const char *outcome, *accel;
	char detail[512], console[4096];
	double wall;
	int ok, failed, finished;
};

static int write_run_json(const char *outdir, const struct jn *old, const struct kernel *kernels,
                          const struct bootspec *specs, const struct run_record *recs, size_t nrecs)
{
	char path[4200], tmp[4300];
	snprintf(path, sizeof(path), "%s/run.json", outdir);
	snprintf(tmp, sizeof(tmp), "%s/.run.json.tmp", outdir);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -errno;
	struct jout w;
	jout_init(&w, f);
	jout_obj_begin(&w);
	jout_key(&w, "benchboot_run");
	jout_int(&w, 1);
	jout_key(&w, "boots");
	jout_arr_begin(&w);
	const struct jn *ob = old ? jn_get(old, "boots") : NULL;
	for (size_t i = 0; ob && ob->type == JN_ARR && i < ob->n; i++)
		jout_node(&w, ob->items[i]);
	for (size_t i = 0; i < nrecs; i++) {
		const struct run_record *r = &recs[i];
		const struct bootspec *s = &specs[i];
		jout_obj_begin(&w);
		jout_key(&w, "boot_id");
		jout_str(&w, *r->boot_id ? r->boot_id : NULL);
		jout_key(&w, "folder");
		jout_str(&w, *r->folder ? r->folder : NULL);
		jout_key(&w, "params");
		jout_obj_begin(&w);
		jout_key(&w, "kernel");
		jout_str(&w, kernels[r->kernel].name);
		jout_obj_end(&w);
		jout_key(&w, "vmlinuz");
		jout_str(&w, s->vmlinuz);
		jout_key(&w, "initrd");
		jout_str(&w, s->initrd);
		jout_key(&w, "cmdline");
		jout_str(&w, s->cmdline);
		jout_key(&w, "boot_group");
		jout_int(&w, r->group);
		jout_key(&w, "accel");
		jout_str(&w, r->accel);
		jout_key(&w, "outcome");
		jout_str(&w, r->outcome);
		jout_key(&w, "detail");
		jout_str(&w, *r->detail ? r->detail : NULL);
		jout_key(&w, "finished");
		jout_bool(&w, r->finished);
		jout_key(&w, "iterations_ok");
		jout_int(&w, r->ok);
		jout_key(&w, "iterations_failed");
		jout_int(&w, r->failed);
		jout_key(&w, "wall_s");
		jout_num(&w, r->wall);
		jout_key(&w, "console");
		jout_str(&w, r->console);
		jout_obj_end(&w);
	}
	jout_arr_end(&w);
	jout_obj_end(&w);
	if (fclose(f) || rename(tmp, path))
		return -errno;
	return 0;
}

static int find_folder(const char *outdir, const char *boot_id, char *out, size_t len)
{
	char path[4500];
	*out = 0;
	if (!*boot_id)
		return -1;
	for (int seq = 0; seq < 10000; seq++) {
		struct stat st;
		snprintf(path, sizeof(path), "%s/%04d-%s", outdir, seq, boot_id);
		if (!stat(path, &st)) {
			snprintf(out, len, "%04d-%s", seq, boot_id);
			return 0;
		}
	}
	return -1;
}

/*
 * The VM's NIC (--nic, or a job with nic:): virtio-net on QEMU's user network, where the
 * guest is 10.0.2.15/24 and 10.0.2.2 is the host. The MAC is the one the job names, if it
 * names its NIC by MAC.
 */
static void nic_device(const struct bootspec *s, char *buf, size_t len)
{
	const char *name = s->have_plan ? s->plan.nic_name : NULL;
	snprintf(buf, len, "virtio-net-pci,netdev=n0,mac=%s",
	         name && strlen(name) == 17 && name[2] == ':' ? name : "52:54:00:12:34:56");
}

static int run_main(int argc, char **argv)
{
	struct kernel kernels[MAX_KERNELS];
	size_t nk = 0;
	const char *job = NULL, *outdir_opt = NULL, *disk_opt = NULL, *image = NULL, *initrd = NULL;
	const char *append = NULL, *images = "images";
	int repeat = 1, cpus = 2, mem = 1024, no_disk = 0, want_nic = 0;
	double deadline = 0, allowance = 0, silence = 0;
	enum bb_accel accel = BB_ACCEL_AUTO;
	int rc = EXIT_SYSTEM;
	char err[2048];
	memset(kernels, 0, sizeof(kernels));

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--kernel") && has) {
			if (nk == MAX_KERNELS)
				return usage_error("at most %s kernels", "16");
			const char *v = argv[++i], *eq = strchr(v, '=');
			if (eq && eq != v && !memchr(v, '/', eq - v)) {
				snprintf(kernels[nk].name, sizeof(kernels[nk].name), "%.*s",
				         (int)(eq - v), v);
				kernels[nk].vmlinuz = eq + 1;
			} else {
				const char *slash = strrchr(v, '/');
				snprintf(kernels[nk].name, sizeof(kernels[nk].name), "%s",
				         slash ? slash + 1 : v);
				kernels[nk].vmlinuz = v;
			}
			nk++;
		} else if (!strcmp(a, "--modules") && has) {
			if (!nk)
				return usage_error("--modules %s belongs after a --kernel",
				                   argv[i + 1]);
			kernels[nk - 1].modules = argv[++i];
		} else if (!strcmp(a, "--repeat") && has) {
			repeat = atoi(argv[++i]);
			if (repeat < 1 || repeat > 1000)
				return usage_error("--repeat %s: 1 to 1000", argv[i]);
		} else if (!strcmp(a, "--cpus") && has) {
			cpus = atoi(argv[++i]);
			if (cpus < 1 || cpus > 256)
				return usage_error("--cpus %s: 1 to 256", argv[i]);
		} else if (!strcmp(a, "--mem") && has) {
			mem = atoi(argv[++i]);
			if (mem < 128)
				return usage_error("--mem %s: at least 128 (MB)", argv[i]);
		} else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has) {
			outdir_opt = argv[++i];
		} else if (!strcmp(a, "--disk") && has) {
			disk_opt = argv[++i];
		} else if (!strcmp(a, "--no-disk")) {
			no_disk = 1;
		} else if (!strcmp(a, "--nic")) {
			want_nic = 1;
		} else if (!strcmp(a, "--accel") && has) {
			const char *v = argv[++i];
			if (!strcmp(v, "auto"))
				accel = BB_ACCEL_AUTO;
			else if (!strcmp(v, "kvm"))
				accel = BB_ACCEL_KVM;
			else if (!strcmp(v, "tcg"))
				accel = BB_ACCEL_TCG;
			else
				return usage_error("--accel %s: auto, kvm or tcg", v);
		} else if (!strcmp(a, "--images") && has) {
			images = argv[++i];
		} else if (!strcmp(a, "--image") && has) {
			image = argv[++i];
		} else if (!strcmp(a, "--initrd") && has) {
			initrd = argv[++i];
		} else if (!strcmp(a, "--append") && has) {
			append = argv[++i];
		} else if (!strcmp(a, "--deadline") && has) {
			deadline = atof(argv[++i]);
			if (deadline <= 0)
				return usage_error("--deadline %s: seconds > 0", argv[i]);
		} else if (!strcmp(a, "--boot-allowance") && has) {
			allowance = atof(argv[++i]);
			if (allowance <= 0)
				return usage_error("--boot-allowance %s: seconds > 0", argv[i]);
		} else if (!strcmp(a, "--silence") && has) {
			silence = atof(argv[++i]);
			if (silence <= 0)
				return usage_error("--silence %s: seconds > 0", argv[i]);
		} else if (a[0] == '-') {
			return usage_error("unknown option or missing argument: %s", a);
		} else if (!job) {
			job = a;
		} else {
			return usage_error("unexpected argument '%s'", a);
		}
	}
	if (!!job + !!image + !!initrd != 1)
		return usage_error("what to boot? a JOB file, or --image DIR, or --initrd FILE%s",
		                   "");
	if (image && nk)
		return usage_error("--image %s has its kernel; --kernel does not go with it",
		                   image);

	/* the default kernel: the pinned one of the sysroot */
	char sysroot[4096], defkernel[4300];
	if (!nk && !image) {
		if (image_default_sysroot(sysroot, sizeof(sysroot), err, sizeof(err))) {
			fprintf(stderr, "benchboot run: fatal: unable to find the sysroot: %s\n",
			        err);
			return EXIT_SYSTEM;
		}
		char pattern[4200];
		glob_t gl = {0};
		snprintf(pattern, sizeof(pattern), "%s/boot/vmlinuz-*", sysroot);
		if (glob(pattern, 0, NULL, &gl) || gl.gl_pathc != 1) {
			fprintf(
			    stderr,
			    "benchboot run: fatal: unable to find the pinned kernel: %s matches "
			    "%zu files, not 1 (make fetch)\n",
			    pattern, (size_t)(gl.gl_pathc));
			return EXIT_SYSTEM;
		}
		snprintf(defkernel, sizeof(defkernel), "%s", gl.gl_pathv[0]);
		globfree(&gl);
		const char *slash = strrchr(defkernel, '/');
		snprintf(kernels[0].name, sizeof(kernels[0].name), "%s", slash + 1);
		kernels[0].vmlinuz = defkernel;
		nk = 1;
	}
	if (image) {
		snprintf(kernels[0].name, sizeof(kernels[0].name), "image");
		nk = 1;
	}
	for (size_t i = 0; i < nk; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(kernels[i].name, kernels[j].name)) {
				fprintf(stderr,
				        "benchboot run: two kernels are called '%s': name them, "
				        "--kernel A=PATH --kernel B=PATH\n",
				        kernels[i].name);
				return EXIT_USAGE;
			}

	/* the results folder */
	char outdir[4096];
	if (outdir_opt) {
		snprintf(outdir, sizeof(outdir), "%s", outdir_opt);
	} else {
		const char *base = job ? job : image ? image : initrd;
		const char *slash = strrchr(base, '/');
		char name[256];
		snprintf(name, sizeof(name), "%s", slash ? slash + 1 : base);
		name[strcspn(name, ".")] = 0;
		snprintf(outdir, sizeof(outdir), "results/%s", *name ? name : "run");
	}
	char consdir[4200];
	snprintf(consdir, sizeof(consdir), "%s/console", outdir);
	if (mkdir_p(consdir)) {
		fprintf(stderr, "benchboot run: fatal: unable to create %s: %s\n", consdir,
		        strerror(errno));
		return EXIT_SYSTEM;
	}

	/* what to boot: one spec per boot group and kernel */
	struct bootspec *specs = NULL;
	size_t ngroups = 0;
	struct bb_job bj;
	struct bb_matrix m;
	int have_job = 0, have_matrix = 0;
	struct image_result *ires = NULL;
	size_t nires = 0;
	double allow = allowance > 0 ? allowance : 300;
	if (job) {
		memset(&bj, 0, sizeof(bj));
		if (bb_job_parse_file(job, &bj, err, sizeof(err))) {
			fprintf(stderr, "benchboot run: fatal: %s\n", err);
			return EXIT_USAGE;
		}
		have_job = 1;
		if (bb_matrix_expand(&bj, &m, err, sizeof(err))) {
			fprintf(stderr, "benchboot run: fatal: %s\n", err);
			rc = EXIT_USAGE;
			goto out;
		}
		have_matrix = 1;
		ngroups = m.nboots;
	} else {
		ngroups = 1;
	}
	specs = calloc(ngroups * nk, sizeof(*specs));
	if (!specs) {
		fprintf(stderr, "benchboot run: fatal: out of memory\n");
		goto out;
	}
	for (size_t k = 0; k < nk; k++) {
		if (job) {
			struct image_spec base;
			char prefix[512];
			const char *jslash = strrchr(job, '/');
			char jname[256];
			snprintf(jname, sizeof(jname), "%s", jslash ? jslash + 1 : job);
			jname[strcspn(jname, ".")] = 0;
			if (nk > 1)
				snprintf(prefix, sizeof(prefix), "%.255s.%.127s", jname,
				         kernels[k].name);
			else
				snprintf(prefix, sizeof(prefix), "%s", jname);
			for (char *c = prefix; *c; c++)
				if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01"
				            "23456789._+-",
				            *c))
					*c = '_';
			memset(&base, 0, sizeof(base));
			base.name = prefix;
			base.outdir = images;
			base.kernel = kernels[k].vmlinuz;
			base.modules_dir = kernels[k].modules;
			/* the results disk is a virtio disk: its driver goes in the image */
			static const char *const disk_modules[] = {"virtio_pci", "virtio_blk"};
			if (!no_disk) {
				base.modules = disk_modules;
				base.nmodules = 2;
			}
			printf("building the image%s of %s for kernel %s\n", ngroups > 1 ? "s" : "",
			       job, kernels[k].name);
			fflush(stdout);
			free(ires);
			ires = NULL;
			int br = bb_jobimage_build(job, &base, &ires, &nires, err, sizeof(err));
			if (br) {
				fprintf(stderr,
				        "benchboot run: fatal: unable to build the image: %s\n",
				        err);
				rc = exit_status(br);
				goto out;
			}
			for (size_t g = 0; g < ngroups && g < nires; g++) {
				struct bootspec *s = &specs[g * nk + k];
				s->kernel = k;
				s->group = g;
				snprintf(s->image, sizeof(s->image), "%s", ires[g].dir);
				printf("  %s (image id %.16s)\n", ires[g].dir, ires[g].id);
			}
		} else if (image) {
			snprintf(specs[k].image, sizeof(specs[k].image), "%s", image);
		}
		for (size_t g = 0; g < ngroups; g++) {
			struct bootspec *s = &specs[g * nk + k];
			s->kernel = k;
			s->group = g;
			if (*s->image) {
				char p[4400];
				snprintf(s->vmlinuz, sizeof(s->vmlinuz), "%s/vmlinuz", s->image);
				snprintf(s->initrd, sizeof(s->initrd), "%s/initrd.img", s->image);
				snprintf(p, sizeof(p), "%s/cmdline", s->image);
				if (read_small(p, s->cmdline, sizeof(s->cmdline)))
					snprintf(s->cmdline, sizeof(s->cmdline), "%s",
					         IMAGE_DEFAULT_CMDLINE);
			} else {
				snprintf(s->vmlinuz, sizeof(s->vmlinuz), "%s", kernels[k].vmlinuz);
				snprintf(s->initrd, sizeof(s->initrd), "%s", initrd);
				snprintf(s->cmdline, sizeof(s->cmdline), "%s",
				         IMAGE_DEFAULT_CMDLINE);
			}
			if (append)
				snprintf(s->cmdline + strlen(s->cmdline),
				         sizeof(s->cmdline) - strlen(s->cmdline), " %s", append);
			if (have_matrix) {
				struct bb_jobimage ji;
				memset(&ji, 0, sizeof(ji));
				if (!bb_jobimage_group(&m, g, NULL, NULL, &ji, err, sizeof(err)) &&
				    !bb_plan_parse(ji.plan_text, strlen(ji.plan_text), &s->plan,
				                   err, sizeof(err)))
					s->have_plan = 1;
				bb_jobimage_free(&ji);
			}
			struct stat st;
			if (stat(s->vmlinuz, &st) || stat(s->initrd, &st)) {
				fprintf(stderr, "benchboot run: fatal: unable to read %s: %s\n",
				        stat(s->vmlinuz, &st) ? s->vmlinuz : s->initrd,
				        strerror(errno));
				rc = EXIT_USAGE;
				goto out;
			}
		}
	}

	/* the results disk */
	char disk[4200] = "";
	if (!no_disk) {
		struct stat st;
		if (disk_opt)
			snprintf(disk, sizeof(disk), "%s", disk_opt);
		else
			snprintf(disk, sizeof(disk), "%s/results.img", outdir);
		if (stat(disk, &st)) {
			printf("making the results disk %s\n", disk);
			fflush(stdout);
			int r = make_disk(disk);
			if (r) {
				fprintf(stderr,
				        "benchboot run: fatal: unable to make the results disk "
				        "%s: %s\n",
				        disk, strerror(-r));
				goto out;
			}
		}
	}

	/* Ctrl-C: stop the VM cleanly, collect, end */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	/* the accelerator, once: KVM only when the job's own kernel prints under it */
	enum bb_accel use = accel;
	char why[256] = "";
	if (accel == BB_ACCEL_AUTO) {
		printf("probing KVM with kernel %s (up to %.0f s)\n", specs[0].vmlinuz,
		       BB_KVM_PROBE_S);
		fflush(stdout);
		use = bb_kvm_probe(NULL, specs[0].vmlinuz, BB_KVM_PROBE_S, why, sizeof(why))
		          ? BB_ACCEL_KVM
		          : BB_ACCEL_TCG;
		if (use == BB_ACCEL_KVM)
			printf("accelerator: KVM (%s)\n", why);
		else
			printf("accelerator: TCG (KVM: %s)\n", why);
	} else {
		printf("accelerator: %s (as asked)\n", use == BB_ACCEL_KVM ? "KVM" : "TCG");
	}
	if (allowance <= 0)
		allow = use == BB_ACCEL_KVM ? 60 : 300;

	/* old run.json entries are kept */
	struct jn *old = NULL;
	{
		char p[4300], msg[256];
		struct stat st;
		snprintf(p, sizeof(p), "%s/run.json", outdir);
		if (!stat(p, &st) && !(old = jn_parse_file(p, msg, sizeof(msg))))
			fprintf(stderr,
			        "benchboot run: %s is unreadable (%s): its entries are dropped\n",
			        p, msg);
	}

	size_t nboots = (size_t)repeat * ngroups * nk;
	struct run_record *recs = calloc(nboots, sizeof(*recs));
	struct bootspec *order = calloc(nboots, sizeof(*order));
	if (!recs || !order) {
		free(recs);
		free(order);
		jn_free(old);
		fprintf(stderr, "benchboot run: fatal: out of memory\n");
		goto out;
	}
	int any_failed = 0, system_failure = 0;
	size_t done = 0;
	char stamp[32];
	time_t now = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	for (int r = 0; r < repeat && !interrupted; r++)
		for (size_t g = 0; g < ngroups && !interrupted; g++)
			for (size_t k = 0; k < nk && !interrupted; k++) {
				const struct bootspec *s = &specs[g * nk + k];
				struct run_record *rec = &recs[done];
			boot_again:;
				struct progress p;
				memset(&p, 0, sizeof(p));
				p.tty = isatty(1);
				p.boot_no = (int)done + 1;
				p.nboots = (int)nboots;
				p.spec = s;
				p.kernel_name = kernels[k].name;
				p.boot_start = now_s();
				p.default_silence = silence > 0 ? silence : allow;
				double dl = deadline > 0   ? deadline
				            : s->have_plan ? plan_deadline(&s->plan, allow)
				                           : allow;
				rec->kernel = (int)k;
				rec->group = (int)g;
				snprintf(rec->console, sizeof(rec->console),
				         "%.3800s/%s-%03zu-%.127s.g%zu.log", consdir, stamp,
				         done + 1, kernels[k].name, g);
				event(&p,
				      "kernel %s, boot group %zu, %s, %d CPUs, %d MB, deadline "
				      "%.0f s%s",
				      kernels[k].name, g, use == BB_ACCEL_KVM ? "KVM" : "TCG", cpus,
				      mem, dl,
				      want_nic || (s->have_plan && s->plan.nic_name)
				          ? ", NIC on QEMU's user network"
				          : "");
				struct bb_qemu_opts qo;
				memset(&qo, 0, sizeof(qo));
				qo.accel = use;
				qo.kernel = s->vmlinuz;
				qo.initrd = s->initrd;
				qo.append = s->cmdline;
				qo.disk = *disk ? disk : NULL;
				qo.cpus = cpus;
				qo.mem_mb = mem;
				qo.console_log = rec->console;
				qo.deadline_s = dl;
				qo.silence_s = p.default_silence;
				/* belt and braces after the probe: a kernel silent under KVM */
				qo.kernel_wait_s = use == BB_ACCEL_KVM && accel == BB_ACCEL_AUTO
				                       ? BB_KVM_KERNEL_WAIT_S
				                       : 0;
				qo.on_line = on_line;
				qo.on_tick = on_tick;
				qo.ctx = &p;
				qo.interrupt = &interrupted;
				char nicdev[160];
				const char *nic_args[] = {"-netdev", "user,id=n0", "-device",
				                          nicdev, NULL};
				if (want_nic || (s->have_plan && s->plan.nic_name)) {
					nic_device(s, nicdev, sizeof(nicdev));
					qo.extra_args = nic_args;
				}
				struct bb_qemu_result res;
				int qr = bb_qemu_boot(&qo, &res);
				if (!qr && res.outcome == BB_BOOT_NO_KERNEL) {
					/* not a failed boot: the same image again under TCG, with
					 * TCG's allowance in its deadline */
					event(&p,
					      "%s under KVM: stopped; KVM does not run this kernel "
					      "here: TCG for the rest of this run, booting again",
					      res.detail);
					use = BB_ACCEL_TCG;
					if (allowance <= 0)
						allow = 300;
					goto boot_again;
				}
				rec->accel = use == BB_ACCEL_KVM ? "kvm" : "tcg";
				order[done] = *s;
				done++;
				snprintf(rec->boot_id, sizeof(rec->boot_id), "%s", p.boot_id);
				rec->ok = p.ok;
				rec->failed = p.failed;
				rec->wall = res.wall_s;
				if (qr) {
					rec->outcome = "qemu-failed";
					snprintf(rec->detail, sizeof(rec->detail), "%s",
					         res.detail);
					event(&p, "FAILED: unable to run QEMU: %s", res.detail);
					system_failure = 1;
					break;
				}
				rec->outcome = bb_boot_outcome_name(res.outcome);
				rec->finished = res.outcome == BB_BOOT_POWEROFF && p.boot_end_seen;
				snprintf(rec->detail, sizeof(rec->detail), "%s", res.detail);
				if (res.outcome == BB_BOOT_POWEROFF && !p.boot_end_seen)
					snprintf(
					    rec->detail, sizeof(rec->detail),
					    "the VM stopped before the init reported boot-end");
				if (rec->finished) {
					event(&p, "finished in %.0f s", res.wall_s);
				} else {
					any_failed = 1;
					event(&p, "FAILED (%s after %.0f s)%s%s; console: %s",
					      rec->outcome, res.wall_s, *rec->detail ? ": " : "",
					      rec->detail, rec->console);
					if (res.outcome == BB_BOOT_QEMU_FAILED)
						system_failure = 1;
				}
				if (p.failed)
					any_failed = 1;
				if (*disk) {
					struct collect_opts co = {.outdir = outdir,
					                          .msg = collect_msg};
					struct collect_stats cs;
					memset(&cs, 0, sizeof(cs));
					int cr = collect_disk(disk, &co, &cs);
					if (cr && cr != -EMEDIUMTYPE) {
						fprintf(stderr,
						        "benchboot run: unable to collect %s: %s\n",
						        disk, strerror(-cr));
						system_failure = 1;
					} else if (cs.problems) {
						fprintf(
						    stderr,
						    "benchboot run: collect found %u problem%s\n",
						    cs.problems, cs.problems == 1 ? "" : "s");
					}
					find_folder(outdir, rec->boot_id, rec->folder,
					            sizeof(rec->folder));
				}
				/* nothing on the disk (no disk, or the image could not use it): the
				 * results the init printed on the console */
				if (!*rec->folder && *rec->boot_id) {
					struct collect_opts co = {.outdir = outdir,
					                          .msg = collect_msg};
					struct collect_stats cs;
					memset(&cs, 0, sizeof(cs));
					int cr = collect_console(rec->console, &co, &cs);
					if (!cr && cs.boots_collected)
						printf("collected boot %s from the console log\n",
						       rec->boot_id);
					else if (cr && cr != -EMEDIUMTYPE)
						fprintf(stderr,
						        "benchboot run: unable to collect the "
						        "console log "
						        "%s: %s\n",
						        rec->console, strerror(-cr));
					find_folder(outdir, rec->boot_id, rec->folder,
					            sizeof(rec->folder));
				}
				/* a VM that did not power off after boot-end left the disk marked
				 * not clean, and the init refuses such a disk: now that it is
				 * collected, preen it for the next boots */
				if (*disk && !rec->finished)
					repair_disk(&p, disk);
				int wr = write_run_json(outdir, old, kernels, order, recs, done);
				if (wr)
					fprintf(stderr,
					        "benchboot run: unable to write %s/run.json: %s\n",
					        outdir, strerror(-wr));
				if (system_failure && res.outcome == BB_BOOT_QEMU_FAILED)
					break;
			}
	if (interrupted)
		printf("interrupted: the VM was stopped; what finished is collected\n");
	printf("\nresults: %s\n", outdir);
	for (size_t i = 0; i < done; i++)
		printf("  boot %zu: kernel %s, group %d: %s%s%s%s%s\n", i + 1,
		       kernels[recs[i].kernel].name, recs[i].group,
		       recs[i].finished ? "finished" : recs[i].outcome,
		       recs[i].failed ? " (failed runs)" : "", *recs[i].folder ? ", " : "",
		       recs[i].folder, *disk && !*recs[i].folder ? ", no results collected" : "");
	printf("  console logs: %s\n", consdir);
	if (nk > 1)
		printf("compare: benchboot compare %s --by kernel\n", outdir);
	else if (*disk)
		printf("compare with another results folder: benchboot compare %s OTHER\n", outdir);
	free(recs);
	free(order);
	jn_free(old);
	rc = system_failure ? EXIT_SYSTEM : (any_failed || interrupted) ? EXIT_CHANGED : EXIT_OK;
out:
	for (size_t i = 0; specs && i < ngroups * nk; i++)
		if (specs[i].have_plan)
			bb_plan_free(&specs[i].plan);
	free(specs);
	free(ires);
	if (have_matrix)
		bb_matrix_free(&m);
	if (have_job)
		bb_job_free(&bj);
	return rc;
}

BENCHBOOT_VERB(run, "build, boot under QEMU, collect: a job to results", run_main);
