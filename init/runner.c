/*
 * The runner: everything the init does but PID 1's part (main.c). Plan + command line,
 * modules, the results writer (writer.h: its child that finds, opens and writes the results
 * disk), network, cgroups, cpufreq, then every run of the plan, then the results are closed;
 * PID 1 then ends the boot as the plan says (power off, reboot, idle, a debug shell). The disk
 * is opened by the writer while the runner sets up; env.json and the first sync are done while
 * the first server starts, before any client runs (setuptime.h).
 *
 * It runs as PID 1's child and is a subreaper, so the benchmarks' orphans still come back to
 * it (run_reap). It tells PID 1 the step it is in (init_step), so a crash here is reported
 * with its step and the machine still powers off. All signals it cares about are blocked and
 * read from a signalfd, so it sleeps in the kernel while benchmarks run.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/reboot.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "console_proto.h"
#include "init.h"
#include "kernel_log.h"
#include "setuptime.h"
#include "writer.h"

#define PLAN_PATH "/etc/benchboot/plan"

static void read_plan(struct boot *b)
{
	size_t len;
	char *text = init_read(PLAN_PATH, &len);
	if (!text) {
		snprintf(b->plan_error, sizeof(b->plan_error), "cannot read %s: %s", PLAN_PATH,
		         strerror(errno));
	} else if (bb_plan_parse(text, len, &b->plan, b->plan_error, sizeof(b->plan_error)) == 0) {
		*b->plan_error = 0;
	}
	free(text);
	if (*b->plan_error) {
		say("%s", b->plan_error);
		machine(BB_CON_PLAN_ERROR " %s", b->plan_error);
		/* an unreadable plan still gets a boot record and the default end (power off) */
		static const char empty[] = "benchboot-plan 1\n";
		char ignored[64];
		bb_plan_parse(empty, sizeof(empty) - 1, &b->plan, ignored, sizeof(ignored));
	}
	if (bb_plan_cmdline(&b->plan, b->cmdline, b->cmdline_report, sizeof(b->cmdline_report)))
		for (char *l = strtok(strdup(b->cmdline_report), "\n"); l; l = strtok(NULL, "\n"))
			say("%s (ignored)", l);
}

static void boot_id(struct boot *b)
{
	if (init_read_line("/proc/sys/kernel/random/boot_id", b->boot_id, sizeof(b->boot_id)) ||
	    !*b->boot_id)
		snprintf(b->boot_id, sizeof(b->boot_id), "unknown-%ld", (long)init_now_ms());
}

/* The plan's seed, or for a random order without one a fresh one (recorded with the boot). */
static void order_seed(struct boot *b)
{
	unsigned int r;
	b->order_seed = b->plan.order_seed;
	if (b->plan.order_seed_set || b->plan.order != BB_ORDER_RANDOM)
		return;
	if (getrandom(&r, sizeof(r), 0) == sizeof(r))
		b->order_seed = r;
	else
		b->order_seed = (unsigned long)init_now_ms() ^ (unsigned long)getpid();
}

/* Time since the last step mark goes to the step called name. */
static void step(struct boot *b, const char *name, double *mark)
{
	double now = init_now_ms();
	if (b->nsteps < (int)(sizeof(b->steps) / sizeof(b->steps[0]))) {
		b->steps[b->nsteps].name = name;
		b->steps[b->nsteps++].ms = now - *mark;
	}
	*mark = now;
}

/* How long the runner's part of the results disk work took (ms). */
static struct {
	double env;
} disk_ms;

/*
 * The results disk: found and opened by the results writer (writer.h) since the modules were
 * loaded, or here when there is no writer; env.json written, its sync with init.log asked of the
 * writer, which does it while the runner waits for the servers (the answer is awaited before
 * the clients are released: run.c). main() leaves this to the first iteration, which does it
 * while its first server starts (setuptime.h): before anything else is synced. The first sync
 * leaves out runs/ (the first iteration's folder, in the making): those files go to the disk at the
 * end of their iteration, as always.
 */
static void results_start(struct boot *b)
{
	struct init_shared was = *init_shared;
	init_step("results", NULL, 0);
	if (!writer_running())
		writer_open_here(b);
	double t = init_now_ms();
	if (env_write(b))
		say("cannot write env.json");
	disk_ms.env = init_now_ms() - t;
	writer_sync_begin(0, "runs"); /* answered before the clients' release (run.c) */
	init_step(was.step, was.run, was.iter);
}

/* The path to the first client, on CLOCK_BOOTTIME (ms since the exec of /init) and on the
 * kernel log's clock (see setuptime.h). */
static void setup_path_line(struct boot *b)
{
	const char *want[] = {KMSG_RUN_INIT, KMSG_FIRST_CLIENT};
	double klog[2];
	char line[1024] = "";
	const struct {
		const char *name;
		double t;
	} at[] = {
	    {"run_start", first_path.run_start},     {"sysctls", first_path.sysctls},
	    {"server_fork", first_path.server_fork}, {"clients_forked", first_path.clients_forked},
	    {"disk_open_start", writer_open.start},  {"disk_opened", writer_open.end},
	    {"disk_start", setup_deferred_start},    {"disk_end", setup_deferred_end},
	    {"disk_synced", first_path.disk_synced}, {"server_ready", first_path.server_ready},
	    {"release", first_path.release},
	};
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		if (at[i].t)
			snprintf(line + strlen(line), sizeof(line) - strlen(line), " %s=%.1f",
			         at[i].name, at[i].t - b->t_exec_ms);
	kmsg_find(want, klog, 2);
	machine(BB_CON_SETUP_PATH
	        " ready_tries=%d ready_check_ms=%.1f%s writer=%d disk_waited_ms=%.1f "
	        "results_wait_ms=%.1f results_open_ms=%.1f env_ms=%.1f results_sync_ms=%.1f "
	        "sync_wait_ms=%.1f kernel_log_run_init_ms=%.3f kernel_log_first_client_ms=%.3f",
	        first_path.ready_tries, first_path.ready_check_ms, line, writer_open.forked,
	        setup_deferred_waited, writer_open.wait_ms, writer_open.open_ms, disk_ms.env,
	        writer_open.first_sync_ms, first_path.sync_wait_ms, klog[0], klog[1]);
}

void runner_main(struct boot *b)
{
	sigset_t set;
	int ok = 0, failed = 0;

	/* PID 1 blocked the signals before the fork; the runner reads its own from a signalfd */
	init_block_signals(&set);
	b->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (init_read_line("/proc/cmdline", b->cmdline, sizeof(b->cmdline)))
		*b->cmdline = 0;
	init_crash_switch(b->cmdline);

	double mark = b->t_exec_ms;
	step(b, "mount_console", &mark); /* PID 1's mounts, console and the runner's fork */
	say("benchboot init: exec at %.0f ms after boot%s", b->t_exec_ms,
	    b->mount_failures ? " (some mounts failed, see above)" : "");
	init_step("log", NULL, 0);
	if (init_mkdirs(INIT_RESULTS_DIR "/runs", 0755))
		say("cannot create %s: %s", INIT_RESULTS_DIR, strerror(errno));
	console_log_open(INIT_RESULTS_DIR "/init.log");
	step(b, "log", &mark);

	init_step("plan", NULL, 0);
	read_plan(b);
	boot_id(b);
	step(b, "plan", &mark);
	b->ncpu = init_online_cpus(b->online, sizeof(b->online));
	b->run_sysctls = calloc(b->plan.nruns ? b->plan.nruns : 1, sizeof(*b->run_sysctls));
	b->run_failed = calloc(b->plan.nruns ? b->plan.nruns : 1, sizeof(*b->run_failed));
	b->run_mounts = calloc(b->plan.nruns ? b->plan.nruns : 1, sizeof(*b->run_mounts));
	b->run_served = calloc(b->plan.nruns ? b->plan.nruns : 1, sizeof(*b->run_served));
	int total_iter = 0;
	for (size_t i = 0; i < b->plan.nruns; i++)
		total_iter += b->plan.runs[i].iterations;
	order_seed(b);
	machine(BB_CON_BOOT_START
	        " id=%s runs=%zu iterations=%d job=%s cpus=%u order=%s seed=%lu rotate=%d",
	        b->boot_id, b->plan.nruns, total_iter, b->plan.job ? b->plan.job : "-", b->ncpu,
	        bb_order_name(b->plan.order), b->order_seed, b->plan.order_rotate);

	cluster_resolve(b); /* before the network: its NIC */

	init_shared->poweroff = b->plan.poweroff;
	init_shared->reboot = b->plan.reboot;
	init_shared->debug = b->plan.debug;

	init_step("modules", NULL, 0);
	if (modules_load(&b->plan, &b->modules))
		say("some modules failed to load (runs that need them will fail)");
	step(b, "modules", &mark);
	init_step("disk", NULL, 0);
	scratch_setup(b);
	step(b, "disk", &mark);
	/* the results disk's drivers are loaded: its writer opens it beside the steps below */
	int wr = writer_start(b);
	if (wr)
		say("cannot start the results writer (%s): the runner writes the results disk "
		    "itself",
		    strerror(-wr));
	step(b, "writer", &mark);
	init_step("net", NULL, 0);
	if (net_setup(&b->plan, b->net_error, sizeof(b->net_error)))
		say("network setup failed: %s", b->net_error);
	step(b, "net", &mark);
	init_step("cgroup", NULL, 0);
	cgroup_setup(&b->plan, &b->cgroup);
	b->cgroup_fd = cgroup_dir_fd(&b->cgroup);
	step(b, "cgroup", &mark);
	init_step("cpufreq", NULL, 0);
	cpufreq_setup(&b->plan, &b->cpufreq);
	step(b, "cpufreq", &mark);
	setup_deferred = results_start;
	char steps[512] = "";
	for (int i = 0; i < b->nsteps; i++)
		snprintf(steps + strlen(steps), sizeof(steps) - strlen(steps), " %s=%.1f",
		         b->steps[i].name, b->steps[i].ms);
	machine(BB_CON_SETUP_DONE " ms=%.1f modules_load_ms=%.1f%s", init_now_ms() - b->t_exec_ms,
	        b->modules.load_ms, steps);

	cluster_meet(b);
	machine(BB_CON_RESULTS_START);
	if (b->cluster.role == BB_ROLE_SERVER && !*b->cluster.error)
		cluster_serve(b, run_iteration); /* the client host's iterations, on its command */
	else
		run_sequence(b);
	setup_deferred_run(b); /* no run did it (a plan without runs) */
	machine(BB_CON_RESULTS_END);
	init_step("finish", NULL, 0);

	for (size_t i = 0; i < b->plan.nruns; i++)
		b->run_failed[i] ? failed++ : ok++;
	cluster_done(b, ok, failed);
	if (b->t_first_client_ms)
		machine(BB_CON_SETUP_TIME " init_to_first_client_ms=%.1f modules_ms=%.1f "
		                          "excluding_modules_ms=%.1f "
		                          "exec_boottime_ms=%.1f first_client_boottime_ms=%.1f",
		        b->t_first_client_ms - b->t_exec_ms, b->modules.load_ms,
		        b->t_first_client_ms - b->t_exec_ms - b->modules.load_ms, b->t_exec_ms,
		        b->t_first_client_ms);
	if (b->t_first_client_ms)
		setup_path_line(b);
	say("summary: %d runs ok, %d runs with failures, %zu runs in the plan", ok, failed,
	    b->plan.nruns);
	for (size_t i = 0; i < b->plan.nruns; i++)
		say("  %-6s %s", b->run_failed[i] ? "FAILED" : "ok", b->plan.runs[i].id);
	env_write(b);
	kernel_log_update();
	writer_sync(0, NULL, NULL);
	writer_finish();
	machine(BB_CON_BOOT_END " id=%s ok=%d failed=%d", b->boot_id, ok, failed);
	init_shared->boot_end = 1;
}
