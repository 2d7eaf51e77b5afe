/*
 * usage: benchboot run JOB [--kernel [NAME=]VMLINUZ [--modules DIR]]... [--repeat N]
 *                      [--cpus N] [--mem MB] [-o DIR] [--accel auto|kvm|tcg]
 *                      [--server-kernel [NAME=]VMLINUZ] [--only server|client]
 *                      [--set KEY=VALUE]... [--parallel N]
 *        benchboot run --image DIR | --initrd FILE [--kernel VMLINUZ]... [OPTIONS]
 *
 * From a job to results: build the images of the job (one per boot group and kernel), make a
 * results disk if there is none, boot QEMU once per boot group and kernel (A, B, A, B with
 * --repeat), show the progress from the console, stop a boot that panics, oopses, hangs or
 * overruns its deadline, collect what finished after every boot, and say where it all is.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/run/run.h"
#include "host/job/jobwarnings.h"
#include "host/job/monitors.h"
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
    "goes on. A lockup or stall report of the kernel does not stop a boot: it is counted\n"
    "(run.json: kernel_stalls) and compare notes it. Ctrl-C stops the VM, collects what\n"
    "finished and ends.\n"
    "\n"
    "  --kernel [NAME=]PATH  a kernel to boot (repeatable; NAME labels its boots, default the\n"
    "                        file name); its boots carry the boot parameter kernel=NAME\n"
    "  --modules DIR         the lib/modules/VERSION of the --kernel before it\n"
    "  --repeat N            boot every group and kernel N times (default the job's LKP\n"
    "                        repeat_to, else 1)\n" VERB_SET_HELP
    "  --cpus N, --mem MB    the VM (default 2 CPUs, 1024 MB; with --until or --parallel\n"
    "                        under TCG, fewer CPUs when 2 would crowd the host, said)\n"
    "  -o, --output DIR      results folder (default results/NAME): the collected boots,\n"
    "                        console/ (serial logs), results.img (the results disk), run.json\n"
    "  --disk FILE           results disk (default DIR/results.img; made when missing)\n"
    "  --no-disk             boot without a results disk (console only)\n"
    "  --blkdebug FILE       attach the results disk through QEMU's blkdebug driver with the\n"
    "                        rules in FILE (I/O errors on purpose: tests of the init's\n"
    "                        handling of a failing disk, docs/results.md)\n"
    "  --keep                keep the VM's scratch disks of a job's disk: 1SSD or NHDD\n"
    "                        (sparse files in DIR/scratch, removed after each boot without it)\n"
    "  --nic                 give the VM a virtio-net NIC on QEMU's user network (guest\n"
    "                        10.0.2.15/24, the host is 10.0.2.2); on for a job with nic:\n"
    "  --accel auto|kvm|tcg  default auto: KVM when the job's kernel prints under it (a\n"
    "                        probe of up to 5 s; a KVM boot silent for 10 s switches the rest\n"
    "                        of the run to TCG), else TCG; the reason is printed\n"
    "  --images DIR          where images are built (default images)\n"
    "  --image DIR           boot an image built before (DIR/vmlinuz, initrd.img, cmdline)\n"
    "  --initrd FILE         boot this initramfs (with --kernel, default the pinned kernel)\n"
    "  --append TEXT         more kernel command line\n"
    "  --monitors none|default|LIST  the monitors every boot runs instead of the job's:\n"
    "                        none, default (those of LKP's default set benchboot runs), or\n"
    "                        names separated by commas (vmstat,uptime); the job's options\n"
    "                        (vmstat: {interval: 2}) still apply. Goes on the kernel\n"
    "                        command line (benchboot.monitors=): the images stay the same\n"
    "                        but for perf, which perf-stat and perf-profile add to them\n"
    "  --deadline S          seconds per boot (default from the plan: runtimes, iterations,\n"
    "                        grace, plus the boot allowance)\n"
    "  --boot-allowance S    seconds for booting and setup (default 300 under TCG, 60 KVM)\n"
    "  --until P%            repeat until sure: boot A, B, A, B ... (two kernels, or the two\n"
    "                        values of --by) until the interval of the primary stat's\n"
    "                        %change is within +/-P% of its estimate or excludes 0 by more\n"
    "                        than P%; the interval is shown after every boot, each at\n"
    "                        1 - 5%/looks confidence (looks: --max-boots - 3), so that\n"
    "                        stopping at any of them keeps 95%\n"
    "  --by KEY              --until: the key of the two sides (default kernel)\n"
    "  --stat NAME           --until: the stat (default netperf Throughput, stress-ng\n"
    "                        ops_per_sec)\n"
    "  --max-boots N         --until: at most N boots (default 20)\n"
    "  --max-time S          --until: no new boot after S seconds (suffix s, m or h)\n"
    "  --parallel N          boot up to N VMs at once, side by side, each pinned to its own\n"
    "                        host CPUs (a CPU per vCPU, whole cores of one NUMA node), as\n"
    "                        many as fit (fewer said); with two kernels (or sides) the VMs\n"
    "                        that run together are an A and a B, each side on each CPU set\n"
    "                        equally often; each VM has its own results disk (DIR/results.img,\n"
    "                        results-2.img, ...); run.json: side_by_side (not for a\n"
    "                        two-host job)\n"
    "  --silence S           console silence that counts as a hang outside runs (default\n"
    "                        the boot allowance; during a run: runtime + grace + 60)\n"
    "  --db SPEC             the results store the collected boots are added to (default\n"
    "                        $BENCHBOOT_DB, else ~/.local/share/benchboot/results.db;\n"
    "                        docs/verbs/store.md)\n"
    "  --no-store            do not add them to a store\n"
    "\n"
    "A two-host job (its cluster: has a server host and a client host) boots both hosts at\n"
    "once, joined by a private network between the two guests only, each with its results\n"
    "disk; the client's boots are collected into DIR, the server host's into DIR/server-host\n"
    "(linked from each boot folder as server-host).\n"
    "  --server-kernel [NAME=]PATH  the server host boots this kernel (default: the same as\n"
    "                        the client); --modules after it gives its modules\n"
    "  --server-disk FILE    the server host's results disk (default DIR/server-host.img)\n"
    "  --only server|client  boot that host alone (the other is a machine elsewhere, or\n"
    "                        missing: the booted host reports it)\n"
    "\n"
    "exit: 0 every boot finished and every run passed, 1 a boot or a run failed (or Ctrl-C),\n"
    "100 bad usage or job, 111 system failure (QEMU, build, disk).\n";

static volatile sig_atomic_t interrupted;

/* [NAME=]PATH: NAME labels the kernel's boots, default the file name. */
static void kernel_name(struct bb_run_kernel *k, const char *v)
{
	verb_kernel_arg(v, k->name, sizeof(k->name), &k->vmlinuz);
}

static int number(const char *opt, const char *v, double min, double max, const char *range,
                  const char *units, double *out)
{
	return verb_number("run", opt, v, min, max, range, units, out);
}

enum {
	OPT_KERNEL = 256,
	OPT_MODULES,
	OPT_SERVER_KERNEL,
	OPT_SERVER_DISK,
	OPT_ONLY,
	OPT_REPEAT,
	OPT_CPUS,
	OPT_MEM,
	OPT_DISK,
	OPT_NO_DISK,
	OPT_BLKDEBUG,
	OPT_NIC,
	OPT_KEEP,
	OPT_ACCEL,
	OPT_IMAGES,
	OPT_IMAGE,
	OPT_INITRD,
	OPT_APPEND,
	OPT_DEADLINE,
	OPT_ALLOWANCE,
	OPT_UNTIL,
	OPT_BY,
	OPT_STAT,
	OPT_MAX_BOOTS,
	OPT_MAX_TIME,
	OPT_SILENCE,
	OPT_SET,
	OPT_MONITORS,
	OPT_PARALLEL,
	OPT_DB,
	OPT_NO_STORE,
};
static const struct option options[] = {
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"modules", required_argument, NULL, OPT_MODULES},
    {"server-kernel", required_argument, NULL, OPT_SERVER_KERNEL},
    {"server-disk", required_argument, NULL, OPT_SERVER_DISK},
    {"only", required_argument, NULL, OPT_ONLY},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"cpus", required_argument, NULL, OPT_CPUS},
    {"mem", required_argument, NULL, OPT_MEM},
    {"output", required_argument, NULL, 'o'},
    {"disk", required_argument, NULL, OPT_DISK},
    {"no-disk", no_argument, NULL, OPT_NO_DISK},
    {"blkdebug", required_argument, NULL, OPT_BLKDEBUG},
    {"nic", no_argument, NULL, OPT_NIC},
    {"keep", no_argument, NULL, OPT_KEEP},
    {"accel", required_argument, NULL, OPT_ACCEL},
    {"images", required_argument, NULL, OPT_IMAGES},
    {"image", required_argument, NULL, OPT_IMAGE},
    {"initrd", required_argument, NULL, OPT_INITRD},
    {"append", required_argument, NULL, OPT_APPEND},
    {"deadline", required_argument, NULL, OPT_DEADLINE},
    {"boot-allowance", required_argument, NULL, OPT_ALLOWANCE},
    {"until", required_argument, NULL, OPT_UNTIL},
    {"by", required_argument, NULL, OPT_BY},
    {"stat", required_argument, NULL, OPT_STAT},
    {"max-boots", required_argument, NULL, OPT_MAX_BOOTS},
    {"max-time", required_argument, NULL, OPT_MAX_TIME},
    {"silence", required_argument, NULL, OPT_SILENCE},
    {"set", required_argument, NULL, OPT_SET},
    {"monitors", required_argument, NULL, OPT_MONITORS},
    {"parallel", required_argument, NULL, OPT_PARALLEL},
    {"db", required_argument, NULL, OPT_DB},
    {"no-store", no_argument, NULL, OPT_NO_STORE},
    VERB_HELP_OPTION,
    {NULL, 0, NULL, 0},
};
static const struct verb_cmd cmd = {"run", usage_text, ":o:h", options};

/* The --set overrides of the job (o->sets points here). */
static struct bb_strv sets;
/* the results store the collected boots go to (--db; NULL the default), or none (--no-store) */
static const char *store_db;
static int no_store;

/* --monitors none|default|NAME,...: checked, the names into o->monitors (comma-separated). */
static int take_monitors(struct bb_run_opts *o, const char *v)
{
	static char list[1024];
	struct bb_strv names = {0};
	char err[1024];
	size_t off = 0;
	int rc = bb_monitors_from_list(v, &names, err, sizeof(err));
	if (rc == -ENOMEM)
		snprintf(err, sizeof(err), "out of memory");
	if (rc) {
		bb_strv_free(&names);
		return verb_usage_error(cmd.name, "--monitors %s: %s", v, err);
	}
	list[0] = 0;
	for (size_t i = 0; i < names.n && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s", i ? "," : "",
		                        names.v[i]);
	bb_strv_free(&names);
	o->monitors = list;
	return 0;
}

/* One option's value into o: 0, or EXIT_USAGE (said). last_server: the kernel --modules
 * belongs to is the --server-kernel's. */
static int take_option(struct bb_run_opts *o, int opt, const char *v, int *last_server)
{
	double x = 0;
	int rc = 0;
	switch (opt) {
	case OPT_KERNEL:
		if (o->nkernels == BB_RUN_MAX_KERNELS)
			return verb_usage_error(cmd.name, "at most %d kernels", BB_RUN_MAX_KERNELS);
		kernel_name(&o->kernels[o->nkernels++], v);
		*last_server = 0;
		return 0;
	case OPT_MODULES:
		if (!o->nkernels && !*last_server)
			return verb_usage_error(cmd.name, "--modules %s belongs after a --kernel",
			                        v);
		*(*last_server ? &o->server_kernel.modules : &o->kernels[o->nkernels - 1].modules) =
		    v;
		return 0;
	case OPT_SERVER_KERNEL:
		kernel_name(&o->server_kernel, v);
		*last_server = 1;
		return 0;
	case OPT_SERVER_DISK:
		o->server_disk = v;
		return 0;
	case OPT_ONLY:
		if (strcmp(v, "server") && strcmp(v, "client"))
			return verb_usage_error(cmd.name, "--only %s: server or client", v);
		o->only = v;
		return 0;
	case OPT_REPEAT:
		rc = number("--repeat", v, 1, 1000, "1 to 1000", NULL, &x);
		o->repeat = (int)x;
		break;
	case OPT_CPUS:
		rc = number("--cpus", v, 1, 256, "1 to 256", NULL, &x);
		o->cpus = (int)x;
		break;
	case OPT_MEM:
		rc = number("--mem", v, 128, 1 << 20, "at least 128 (MB)", NULL, &x);
		o->mem_mb = (int)x;
		break;
	case 'o':
		o->outdir = v;
		return 0;
	case OPT_DISK:
		o->disk = v;
		return 0;
	case OPT_NO_DISK:
		o->no_disk = 1;
		return 0;
	case OPT_BLKDEBUG:
		o->blkdebug = v;
		return 0;
	case OPT_NIC:
		o->nic = 1;
		return 0;
	case OPT_KEEP:
		o->keep_scratch = 1;
		return 0;
	case OPT_ACCEL:
		return verb_accel(cmd.name, v, &o->accel);
	case OPT_IMAGES:
		o->images = v;
		return 0;
	case OPT_IMAGE:
		o->image = v;
		return 0;
	case OPT_INITRD:
		o->initrd = v;
		return 0;
	case OPT_APPEND:
		o->append = v;
		return 0;
	case OPT_DEADLINE:
		return number("--deadline", v, 1e-3, 1e9, "seconds > 0", NULL, &o->deadline);
	case OPT_ALLOWANCE:
		return number("--boot-allowance", v, 1e-3, 1e9, "seconds > 0", NULL, &o->allowance);
	case OPT_UNTIL:
		return number("--until", v, 1e-3, 1000, "a percentage > 0, e.g. 2%", "%",
		              &o->until);
	case OPT_BY:
		o->until_by = v;
		return 0;
	case OPT_STAT:
		o->until_stat = v;
		return 0;
	case OPT_MAX_BOOTS:
		rc = number("--max-boots", v, 1, 10000, "1 to 10000", NULL, &x);
		o->max_boots = (int)x;
		break;
	case OPT_MAX_TIME:
		return number("--max-time", v, 1e-3, 1e9, "a duration > 0 (S, or with s, m, h)",
		              "smh", &o->max_time);
	case OPT_SILENCE:
		return number("--silence", v, 1e-3, 1e9, "seconds > 0", NULL, &o->silence);
	case OPT_PARALLEL:
		rc = number("--parallel", v, 1, BB_RUN_MAX_PARALLEL, "1 to 64 (VMs at once)", NULL,
		            &x);
		o->parallel = (int)x;
		break;
	case OPT_SET:
		o->sets = &sets;
		return verb_add_set(cmd.name, &sets, v);
	case OPT_DB:
		store_db = v;
		break;
	case OPT_NO_STORE:
		no_store = 1;
		break;
	case OPT_MONITORS:
		return take_monitors(o, v);
	}
	return rc;
}

/* The command line into o: 0, EXIT_USAGE (said), or -1 for --help (printed). */
static int parse_args(int argc, char **argv, struct bb_run_opts *o)
{
	int opt, rc, last_server = 0;
	while ((opt = verb_getopt(&cmd, argc, argv)) != -1) {
		if (opt == VERB_HELP)
			return -1;
		if (opt == VERB_BAD)
			return EXIT_USAGE;
		if ((rc = take_option(o, opt, optarg, &last_server)))
			return rc;
	}
	if (optind < argc)
		o->job = argv[optind++];
	if (optind < argc)
		return verb_usage_error(cmd.name, "unexpected argument '%s'", argv[optind]);
	if (!!o->job + !!o->image + !!o->initrd != 1)
		return verb_usage_error(
		    cmd.name, "what to boot? a JOB file, or --image DIR, or --initrd FILE");
	if (sets.n && !o->job)
		return verb_usage_error(
		    cmd.name, "--set %s: overrides a job's key; give a JOB file", sets.v[0]);
	if (o->image && o->nkernels)
		return verb_usage_error(
		    cmd.name, "--image %s has its kernel; --kernel does not go with it", o->image);
	if (o->until > 0 && o->repeat)
		return verb_usage_error(cmd.name,
		                        "--until repeats until sure: --repeat does not go with it");
	if (o->until <= 0 && (o->until_by || o->until_stat || o->max_boots || o->max_time))
		return verb_usage_error(cmd.name,
		                        "--by, --stat, --max-boots and --max-time go with --until");
	return 0;
}

/* " (kernel lockup or stall reports: N)" for a host whose kernel reported any, else "". */
static void stall_count(char *out, size_t len, int stalls)
{
	if (stalls)
		snprintf(out, len, " (kernel lockup or stall reports: %d)", stalls);
	else
		*out = 0;
}

static void summary(const struct bb_run_result *res)
{
	if (res->interrupted)
		printf("interrupted: the VM%s stopped; what finished is collected\n",
		       res->side_by_side > 1 ? "s were" : " was");
	printf("\nresults: %s\n", res->outdir);
	for (size_t i = 0; i < res->nrecs; i++) {
		const struct bb_run_record *r = &res->recs[i];
		char stalls[64], server_stalls[64];
		stall_count(stalls, sizeof(stalls), r->stalls);
		stall_count(server_stalls, sizeof(server_stalls), r->server_stalls);
		printf("  boot %zu: kernel %s, group %d: %s%s%s%s%s%s%s\n", i + 1,
		       res->kernels[r->kernel].name, r->group, res->two_host ? "client host " : "",
		       r->finished ? "finished" : r->outcome, r->failed ? " (failed runs)" : "",
		       stalls, *r->folder ? ", " : "", r->folder,
		       *res->disk && !*r->folder && *r->boot_id ? ", no results collected" : "");
		if (*r->disk_error)
			printf(
			    "          results disk I/O error (%s): the results after it came from "
			    "the console\n",
			    r->disk_error);
		if (r->server_outcome)
			printf("          server host %s%s%s%s%s%s%s%s\n",
			       r->server_finished ? "finished" : r->server_outcome,
			       r->server_failed ? " (failed runs)" : "", server_stalls,
			       !r->server_finished && *r->server_detail ? ": " : "",
			       !r->server_finished ? r->server_detail : "",
			       *r->server_folder ? ", " : "",
			       *r->server_folder ? "server-host/" : "", r->server_folder);
	}
	printf("  console logs: %s\n", res->consdir);
	if (*res->until_why)
		printf("until: stopped: %s\n", res->until_why);
	if (res->nkernels > 1)
		printf("compare: benchboot compare %s --by kernel\n", res->outdir);
	else if (*res->disk)
		printf("compare with another results folder: benchboot compare %s OTHER\n",
		       res->outdir);
}

static int run_main(int argc, char **argv)
{
	struct bb_run_opts o;
	struct bb_run_result res;
	struct verb_term term = {.verb = "run", .tty = isatty(1)};
	char err[4096];
	memset(&o, 0, sizeof(o));
	int rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	o.interrupt = &interrupted;
	o.say = verb_term_say;
	o.status = term.tty ? verb_term_status : NULL;
	o.ctx = &term;

	/* Ctrl-C: stop the VM cleanly, collect, end */
	verb_catch_interrupt(&interrupted);

	if (o.job)
		bb_job_file_warnings("run", o.job, o.sets);
	if (o.monitors)
		fprintf(stderr,
		        "benchboot run: --monitors: every boot runs %s%s instead of its "
		        "plan's monitors\n",
		        *o.monitors ? "the monitors " : "no monitors", o.monitors);
	int r = bb_run(&o, &res, err, sizeof(err));
	verb_term_clear(&term);
	if (r) {
		fflush(stdout);
		fprintf(stderr, "benchboot run: fatal: %s\n", err);
		rc = verb_exit_status(r);
	} else {
		summary(&res);
		size_t collected = 0;
		for (size_t i = 0; i < res.nrecs; i++)
			collected += *res.recs[i].folder != 0;
		if (collected && !no_store)
			verb_store_add(cmd.name, store_db, res.outdir);
		rc = res.until_error                     ? verb_exit_status(res.until_error)
		     : res.system_failure                ? EXIT_SYSTEM
		     : res.any_failed || res.interrupted ? EXIT_CHANGED
		                                         : EXIT_OK;
	}
	bb_run_result_free(&res);
	bb_strv_free(&sets);
	return rc;
}

BENCHBOOT_VERB(run, "build, boot under QEMU, collect: a job to results", run_main);
