# The boot command line of a 0-day job (lib/host/job/cmdline.c, docs/jobs.md "The boot command
# line"): the words of bootloader_append and kernel_cmdline that change what the kernel under
# test does reach the booted kernel's /proc/cmdline (env.json kernel.cmdline, read there by the
# init), in the job's order, and 0-day's plumbing (its rootfs and initrds, the paths LKP's boot
# scripts read, its consoles, systemd's and udev's words, a firmware address) does not.
# A job of our own in the layout of a 0-day attachment, one rootfs, one short boot.
. tests/lib.sh
bb_need netperf
. tests/qemu/job.inc
cat >"$T/zday-cmdline.yaml" <<'YAML'
---

#! jobs/netperf-example-cmdline.yaml
suite: netperf
testcase: netperf
category: benchmark
runtime: 2s
nr_threads: 1
cluster: cs-localhost
if role server:
  netserver:
if role client:
  netperf:
    test: TCP_STREAM

#! queue options
queue: example-bisect
testbox: example-box-1
tbox_group: example-box
repeat_to: 3

#! hosts/example-box
nr_cpu: 4
memory: 8G
kernel_cmdline_hw: acpi_rsdp=0x1234567

#! include/testbox/example-box
rootfs: debian-12-x86_64-20240206.cgz
kconfig: x86_64-rhel-9.4
kernel_cmdline: audit=0

#! schedule options
user: lkp
bootloader_append:
- root=/dev/ram0
- RESULT_ROOT=/result/netperf/example/2
- BOOT_IMAGE=/pkg/linux/example/vmlinuz-6.6.0
- job=/lkp/jobs/scheduled/example/netperf-cmdline.yaml
- user=lkp
- ARCH=x86_64
- kconfig=x86_64-rhel-9.4
- commit=0123456789abcdef0123456789abcdef01234567
- LKP_SERVER=lkp-server.example
- max_uptime=2100
- bm_initrd=/osimage/pkg/example/netperf.cgz
- ip=::::example-box-1::dhcp
- nokaslr
- selinux=0
- nmi_watchdog=0
- rcupdate.rcu_cpu_stall_timeout=100
- sysrq_always_enabled
- mitigations=off
- console=ttyS0,115200
- earlyprintk=ttyS0,115200
- vga=normal
- net.ifnames=0
- systemd.log_level=err
- rd.udev.log_level=err
- udev.log_priority=err
YAML
"$BENCHBOOT" check "$T/zday-cmdline.yaml" >"$T/check" 2>"$T/check.err" || fail "check: exit $?: $(cat "$T/check.err")"
[ ! -s "$T/check.err" ] || { cat "$T/check.err"; fail "check warns of a 0-day-style job"; }
cat "$T/check"
JOB_RUN_TIMEOUT=400 JOB_RUN_OPTS="--repeat 1" job_run "$T/zday-cmdline.yaml"
python3 - "$T/res" <<'PY' || fail "the kernel command line of the 0-day job"
import json, os, sys
res = sys.argv[1]
boots = sorted(d for d in os.listdir(res) if d[:1].isdigit() and os.path.isdir(os.path.join(res, d)))
if len(boots) != 1:
    sys.exit("boots %r: want one (--repeat 1 over repeat_to: 3)" % boots)
env = json.load(open(os.path.join(res, boots[0], "env.json")))
words = env["kernel"]["cmdline"].split()
applied = ["audit=0", "nokaslr", "selinux=0", "nmi_watchdog=0",
           "rcupdate.rcu_cpu_stall_timeout=100", "sysrq_always_enabled", "mitigations=off"]
missing = [w for w in applied if w not in words]
if missing:
    sys.exit("/proc/cmdline %r lacks %r" % (words, missing))
if [w for w in words if w in applied] != applied:
    sys.exit("/proc/cmdline %r: the applied words not in the job's order %r" % (words, applied))
left = {"root", "RESULT_ROOT", "BOOT_IMAGE", "job", "user", "ARCH", "kconfig", "commit",
        "LKP_SERVER", "max_uptime", "bm_initrd", "ip", "earlyprintk", "vga", "net.ifnames",
        "systemd.log_level", "rd.udev.log_level", "udev.log_priority", "acpi_rsdp"}
leaked = [w for w in words if w.split("=", 1)[0] in left or w == "console=ttyS0,115200"]
if leaked:
    sys.exit("/proc/cmdline %r carries 0-day's plumbing %r" % (words, leaked))
# the rootfs's layout too (debian-12: unified, the job in lkp-bootstrap.service)
cg = env["cgroup"]
if cg["mode_requested"] != "v2" or cg["job_cgroup"] != "/system.slice/lkp-bootstrap.service":
    sys.exit("cgroup %s %s: want v2 in /system.slice/lkp-bootstrap.service" % (cg["mode_requested"], cg["job_cgroup"]))
print("/proc/cmdline:", " ".join(words))
PY
