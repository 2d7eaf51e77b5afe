/*
 * The console protocol between the init and the host (docs/console.md): the words of the
 * machine lines, `BENCHBOOT WORD key=value ...`, one event per line. The init writes them
 * (init/console.c machine()), the host reads them (bb_console_event in lib/host/console_reader.c,
 * the LAVA monitors, `collect --console`). One table, so the two cannot drift apart: a new
 * event is a new line here and in docs/console.md.
 *
 * Written as string literals so they concatenate with formats and with the prefix:
 * machine(BB_CON_RUN_END " id=%s ...") in the init, BB_CON_LINE(BB_CON_RUN_END) on the host.
 */
#ifndef BENCHBOOT_CONSOLE_PROTO_H
#define BENCHBOOT_CONSOLE_PROTO_H

/* What starts every machine line, and every human line (their wording may change). */
#define BB_CON_PREFIX "BENCHBOOT "
#define BB_CON_HUMAN_PREFIX "benchboot: "
/* "BENCHBOOT WORD " as one literal: what a reader looks for. */
#define BB_CON_LINE(word) BB_CON_PREFIX word " "

/* The words, in the order they appear in a boot. */
#define BB_CON_PLAN_ERROR "plan-error" /* the plan could not be read: no runs */
#define BB_CON_BOOT_START "boot-start" /* id= runs= iterations= job= cpus= order= seed= */
#define BB_CON_MODULE "module"         /* name= status= [reason=] */
#define BB_CON_NET "net"               /* lo= dummy0= */
#define BB_CON_NIC "nic"               /* want= name= ... status= */
/* two-host plans (docs/cluster.md): role= name= self= peer= port= status= [reason=] */
#define BB_CON_CLUSTER "cluster"
/* the other host: status=connected|timeout|lost|mismatch host= address= ms= reason= */
#define BB_CON_PEER "peer"
#define BB_CON_CGROUP_LIMIT "cgroup-limit"   /* file= requested= actual= */
#define BB_CON_CGROUP "cgroup"               /* mode= controllers= job= */
#define BB_CON_CPUFREQ "cpufreq"             /* status= requested= */
#define BB_CON_SETUP_DONE "setup-done"       /* ms= STEP=T ... */
#define BB_CON_RESULTS_START "results-start" /* start marker of the LAVA lines */
#define BB_CON_RUN_START "run-start"         /* id= iter=I/N runtime= clients= pos=P/T */
#define BB_CON_SYSCTL "sysctl"               /* run= key= requested= actual= */
#define BB_CON_PROC "proc"                   /* run= iter= role= index= pid= cpus= cgroup= */
#define BB_CON_RUN_END "run-end"             /* id= iter= status= elapsed= ... reason= */
/* the init is at work (a run, a monitor's post-processing): what= [run=] at most every
 * BB_HEARTBEAT_S seconds while it is busy; a host calls the boot hung only after
 * BB_HEARTBEAT_SILENCE_S without one (docs/console.md) */
#define BB_CON_HEARTBEAT "heartbeat"
#define BB_HEARTBEAT_S 30
#define BB_HEARTBEAT_SILENCE_S 150
#define BB_CON_RESULTS_END "results-end" /* end marker of the LAVA lines */
#define BB_CON_SETUP_TIME "setup-time"   /* init_to_first_client_ms= ... */
#define BB_CON_SETUP_PATH "setup-path"   /* the first iteration's path to its clients */
/* the results writer (the runner's child that owns the results disk) died: signal=N exit=N
 * requests=N; results go to the console only from then on */
#define BB_CON_WRITER_DIED "writer-died"
/* an I/O error on the results disk: errno= while=writing|flushing|closing
 * path= reason=; the disk is given up, results go to the console only from then on */
#define BB_CON_RESULTS_DISK_ERROR "results-disk-error"
/* benchboot.debug.disk_stat=1: at= sync= writes= flushes= (docs/console.md) */
#define BB_CON_DISK_STAT "disk-stat"
#define BB_CON_BOOT_END "boot-end" /* id= ok= failed=: everything is written */
/* From PID 1 itself: the runner (everything but mounts, console, reaping and power off)
 * died; signal=N (0: it exited, exit=N then) step=STEP [run=RUNID iter=I] */
#define BB_CON_INIT_CRASH "init-crash"

/* The results over the console (lib/results/consfile.h, docs/results.md). */
#define BB_CON_FILE "BENCHBOOT-FILE"
#define BB_CON_DATA "BENCHBOOT-DATA"
#define BB_CON_END "BENCHBOOT-END"

#endif
