/*
 * The init's setup steps against fake /proc, /sys and /etc trees under a root prefix, with the
 * real syscalls (mount, mknod, finit_module, network) replaced by recording fakes.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include "harness.h"
#include "init_fake_root.h"
#include "init.h"

static const char *rel(const char *path)
{
	return path + strlen(init_root);
}

static int fake_mount(const char *src, const char *target, const char *type, unsigned long flags,
                      const void *data)
{
	init_fake_record("mount %s %s %s", type, rel(target), data ? (const char *)data : "-");
	if (!strcmp(type, "devtmpfs")) {
		errno = ENODEV;
		return -1;
	}
	return 0;
}

static int fake_mknod(const char *path, mode_t mode, dev_t dev)
{
	init_fake_record("mknod %s %c %u:%u", rel(path), S_ISCHR(mode) ? 'c' : 'b', major(dev),
	                 minor(dev));
	return 0;
}

/* Module files hold their name; "enosys" ones make finit_module fail with ENOSYS, "fail" with
 * ENOEXEC. A successful load creates /sys/module/NAME, as the kernel does. */
static int load(const char *content)
{
	char name[64];
	snprintf(name, sizeof(name), "%s", content);
	name[strcspn(name, " \n")] = 0;
	if (strstr(content, "fail")) {
		errno = ENOEXEC;
		return -1;
	}
	if (strstr(content, "nodev")) {
		errno = ENODEV;
		return -1;
	}
	init_fake_record("load %s", name);
	mkdir(init_path("/sys/module/%s", name), 0755);
	return 0;
}

static int fake_finit_module(int fd, const char *params, int flags)
{
	char buf[256] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = 0;
	if (strstr(buf, "enosys")) {
		errno = ENOSYS;
		return -1;
	}
	return load(buf);
}

static int fake_init_module(void *image, unsigned long len, const char *params)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%.*s", (int)len, (char *)image);
	init_fake_record("init_module");
	return load(buf);
}

static int fake_reboot(int cmd)
{
	init_fake_record("reboot %x", cmd);
	return 0;
}

static int net_fail_addr;
static int fake_link_up(const char *ifname)
{
	init_fake_record("up %s", ifname);
	return 0;
}
static int fake_addr_add(const char *ifname, const char *addr, int prefix)
{
	init_fake_record("addr %s %s/%d", ifname, addr, prefix);
	return net_fail_addr ? -EPERM : 0;
}

static const struct init_ops fake_ops = {
    .mount = fake_mount,
    .mknod = fake_mknod,
    .finit_module = fake_finit_module,
    .init_module = fake_init_module,
    .reboot = fake_reboot,
    .link_up = fake_link_up,
    .link_add_dummy = init_fake_link_add_dummy,
    .addr_add = fake_addr_add,
};

/* A fake root in the test's temp dir; console lines go to a file there. */
static const char *fake_root(void)
{
	return init_fake_root(&fake_ops);
}

static char *file(const char *path)
{
	char *s = init_read(path, NULL);
	if (!s)
		bb_test_fail(__FILE__, __LINE__, "cannot read %s: %s", path, strerror(errno));
	return s;
}

TEST(mount_devtmpfs_fallback)
{
	const char *root = fake_root();
	test_write_file(root, "sys/dev/char/1:3/uevent", "MAJOR=1\nMINOR=3\nDEVNAME=null\n");
	test_write_file(root, "sys/dev/char/13:64/uevent",
	                "MAJOR=13\nMINOR=64\nDEVNAME=input/event0\n");
	test_write_file(root, "sys/dev/block/8:0/uevent",
	                "MAJOR=8\nMINOR=0\nDEVNAME=sda\nDEVTYPE=disk\n");
	test_write_file(root, "sys/dev/block/junk/uevent", "DEVNAME=nope\n");
	CHECK_INT(mount_early(), ==, 0);
	CHECK_CONTAINS(init_fake_calls,
	               "mount proc /proc -\nmount sysfs /sys -\nmount devtmpfs /dev mode=0755\n"
	               "mount tmpfs /dev mode=0755\n");
	CHECK_CONTAINS(init_fake_calls, "mknod /dev/null c 1:3\n");
	CHECK_CONTAINS(init_fake_calls, "mknod /dev/input/event0 c 13:64\n");
	CHECK_CONTAINS(init_fake_calls, "mknod /dev/sda b 8:0\n");
	CHECK(!strstr(init_fake_calls, "nope"));
	CHECK_CONTAINS(
	    init_fake_calls,
	    "mount tmpfs /run mode=0755\nmount tmpfs /tmp mode=1777\nmount tmpfs /dev/shm");
	struct stat st;
	CHECK_INT(stat(init_path("/dev/input"), &st), ==, 0);
	CHECK_CONTAINS(init_fake_console(), "created 3 device nodes from /sys/dev");
}

TEST(modules_order_and_failures)
{
	const char *root = fake_root();
	struct bb_plan p;
	struct modules_result res;
	char why[256];
	test_write_file(root, "etc/benchboot/modules.order",
	                "/lib/modules/6.1/kernel/hw-accel.ko\n"
	                "/lib/modules/6.1/kernel/a.ko\n/lib/modules/6.1/kernel/gone.ko\n"
	                "/lib/modules/6.1/kernel/c-d.ko\n/lib/modules/6.1/kernel/bad.ko\n"
	                "/lib/modules/6.1/kernel/old.ko\n");
	test_write_file(root, "lib/modules/6.1/kernel/a.ko", "a");
	test_write_file(root, "lib/modules/6.1/kernel/hw-accel.ko", "hw_accel nodev");
	test_write_file(root, "lib/modules/6.1/kernel/c-d.ko", "c_d enosys");
	test_write_file(root, "lib/modules/6.1/kernel/bad.ko", "bad fail");
	test_write_file(root, "lib/modules/6.1/kernel/old.ko", "old");
	test_write_file(root, "sys/module/old/initstate", "live\n");
	test_write_file(root, "sys/module/builtin/parameters/x", "1\n");
	init_fake_plan(&p, "modules.boot=a c-d builtin missing\n");
	CHECK_INT(modules_load(&p, &res), ==, 3); /* gone, bad, missing; not hw_accel (ENODEV) */
	/* in modules.order order, init_module after ENOSYS, nothing for what is present */
	CHECK_STR(init_fake_calls, "load a\ninit_module\nload c_d\n");
	CHECK_INT(res.n, ==, 8);
	CHECK(!module_available(&res, "hw_accel", why, sizeof(why)));
	CHECK_CONTAINS(why, "No such device");
	CHECK(module_available(&res, "a", why, sizeof(why)));
	CHECK(module_available(&res, "c-d", why, sizeof(why)));
	CHECK(module_available(&res, "old", why, sizeof(why)));
	CHECK(module_available(&res, "builtin", why, sizeof(why)));
	CHECK(!module_available(&res, "gone", why, sizeof(why)));
	CHECK_CONTAINS(why, "module gone: open /lib/modules/6.1/kernel/gone.ko: No such file");
	CHECK(!module_available(&res, "bad", why, sizeof(why)));
	CHECK_CONTAINS(
	    why,
	    "module bad: finit_module /lib/modules/6.1/kernel/bad.ko: Exec format error (errno 8)");
	CHECK(!module_available(&res, "missing", why, sizeof(why)));
	CHECK_CONTAINS(why, "module missing: not in the image");
	CHECK(!module_available(&res, "other", why, sizeof(why)));
	CHECK_CONTAINS(why, "module other: not in the image");
	char *con = init_fake_console();
	CHECK_CONTAINS(con, "BENCHBOOT module name=a status=ok\n");
	CHECK_CONTAINS(con, "BENCHBOOT module name=hw_accel status=nodev reason=finit_module");
	CHECK_CONTAINS(con, "BENCHBOOT module name=bad status=failed reason=finit_module");
	CHECK_CONTAINS(con, "BENCHBOOT module name=missing status=failed reason=not in the image");
}

TEST(net_dummy_address)
{
	struct bb_plan p;
	char err[256] = "";
	fake_root();
	init_fake_plan(&p, "net.dummy=10.1.2.3/16\n");
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, 0);
	CHECK_STR(init_fake_calls, "up lo\ndummy dummy0\naddr dummy0 10.1.2.3/16\nup dummy0\n");
	CHECK_CONTAINS(init_fake_console(), "BENCHBOOT net lo=up dummy0=10.1.2.3/16");
	bb_plan_free(&p);
	init_fake_calls[0] = 0;
	net_fail_addr = 1;
	init_fake_plan(&p, "");
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, -EPERM);
	CHECK_STR(err, "dummy0 address 192.0.2.1/24: Operation not permitted");
}

TEST(cgroup_v2)
{
	const char *root = fake_root();
	struct bb_plan p;
	struct cgroup_state cg;
	char seen[256];
	test_write_file(root, "sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
	test_write_file(root, "sys/fs/cgroup/cgroup.subtree_control", "");
	test_write_file(root, "sys/fs/cgroup/benchboot/memory.high", "max\n");
	test_write_file(root, "sys/fs/cgroup/benchboot/cgroup.procs", "");
	init_fake_plan(
	    &p, "cgroup.mode=v2\ncgroup.controllers=cpu memory\ncgroup.limit.memory.high=1G\n");
	CHECK_INT(cgroup_setup(&p, &cg), ==, 0);
	CHECK(cg.ok);
	CHECK_STR(init_fake_calls, "mount cgroup2 /sys/fs/cgroup -\n");
	char *s = file("/sys/fs/cgroup/cgroup.subtree_control");
	CHECK_STR(s, "+memory"); /* the last write; each controller is enabled on its own */
	CHECK_STR(file("/sys/fs/cgroup/benchboot/memory.high"), "1G");
	CHECK_CONTAINS(init_fake_console(),
	               "BENCHBOOT cgroup mode=v2 controllers=cpu,memory job=/benchboot");
	CHECK_INT(cgroup_place(&cg, 4242), ==, 0);
	CHECK_STR(file("/sys/fs/cgroup/benchboot/cgroup.procs"), "4242");
	test_write_file(root, "proc/10/cgroup", "0::/benchboot\n");
	test_write_file(root, "proc/11/cgroup", "0::/\n");
	CHECK_INT(cgroup_check(&cg, 10, seen, sizeof(seen)), ==, 1);
	CHECK_STR(seen, "0::/benchboot");
	CHECK_INT(cgroup_check(&cg, 11, seen, sizeof(seen)), ==, 0);
	CHECK_STR(seen, "0::/");
	CHECK_INT(cgroup_check(&cg, 12, seen, sizeof(seen)), ==, 0);
	CHECK_CONTAINS(seen, "cannot read /proc/12/cgroup");
}

TEST(cgroup_v2_missing_controller)
{
	const char *root = fake_root();
	struct bb_plan p;
	struct cgroup_state cg;
	test_write_file(root, "sys/fs/cgroup/cgroup.controllers", "cpu io\n");
	init_fake_plan(&p, "cgroup.controllers=memory\n");
	CHECK_INT(cgroup_setup(&p, &cg), ==, -1);
	CHECK(!cg.ok);
	CHECK_STR(cg.error, "controller memory not available (cgroup.controllers: cpu io)");
	CHECK_CONTAINS(init_fake_console(), "cgroup setup failed: controller memory not available");
}

TEST(cgroup_v1)
{
	const char *root = fake_root();
	struct bb_plan p;
	struct cgroup_state cg;
	char seen[256];
	test_write_file(root, "sys/fs/cgroup/memory/benchboot/memory.limit_in_bytes", "0\n");
	test_write_file(root, "sys/fs/cgroup/memory/benchboot/cgroup.procs", "");
	test_write_file(root, "sys/fs/cgroup/cpu/benchboot/cgroup.procs", "");
	init_fake_plan(&p, "cgroup.mode=v1\ncgroup.controllers=memory cpu\n"
	                   "cgroup.limit.memory.limit_in_bytes=1G\n");
	CHECK_INT(cgroup_setup(&p, &cg), ==, 0);
	CHECK_STR(init_fake_calls, "mount tmpfs /sys/fs/cgroup mode=0755\n"
	                           "mount cgroup /sys/fs/cgroup/memory memory\n"
	                           "mount cgroup /sys/fs/cgroup/cpu cpu\n");
	CHECK_STR(file("/sys/fs/cgroup/memory/benchboot/memory.limit_in_bytes"), "1G");
	CHECK_INT(cgroup_place(&cg, 77), ==, 0);
	CHECK_STR(file("/sys/fs/cgroup/cpu/benchboot/cgroup.procs"), "77");
	test_write_file(root, "proc/5/cgroup", "3:cpu:/benchboot\n2:memory:/benchboot\n0::/\n");
	test_write_file(root, "proc/6/cgroup", "3:cpu:/\n2:memory:/benchboot\n0::/\n");
	CHECK_INT(cgroup_check(&cg, 5, seen, sizeof(seen)), ==, 1);
	CHECK_STR(seen, "3:cpu:/benchboot;2:memory:/benchboot;0::/");
	CHECK_INT(cgroup_check(&cg, 6, seen, sizeof(seen)), ==, 0);
	/* no controllers: one named hierarchy */
	bb_plan_free(&p);
	init_fake_calls[0] = 0;
	init_fake_plan(&p, "cgroup.mode=v1\n");
	CHECK_INT(cgroup_setup(&p, &cg), ==, 0);
	CHECK_CONTAINS(init_fake_calls,
	               "mount cgroup /sys/fs/cgroup/benchboot none,name=benchboot\n");
	test_write_file(root, "proc/7/cgroup", "1:name=benchboot:/benchboot\n");
	CHECK_INT(cgroup_check(&cg, 7, seen, sizeof(seen)), ==, 1);
	/* a limit for a controller that is not mounted */
	bb_plan_free(&p);
	init_fake_plan(&p, "cgroup.mode=v1\ncgroup.controllers=cpu\ncgroup.limit.memory.high=1\n");
	CHECK_INT(cgroup_setup(&p, &cg), ==, -1);
	CHECK_STR(cg.error, "limit memory.high: controller memory is not in cgroup.controllers");
}

/* A rootfs's systemd layout: the job in /system.slice/lkp-bootstrap.service, the
 * controllers enabled at every level above it (v2), or in each hierarchy plus systemd's
 * cgroup2 at unified/ (hybrid). */
TEST(cgroup_service_path)
{
	const char *root = fake_root();
	struct bb_plan p;
	struct cgroup_state cg;
	char seen[256];
	test_write_file(root, "sys/fs/cgroup/cgroup.controllers", "cpu io memory pids\n");
	test_write_file(root, "sys/fs/cgroup/cgroup.subtree_control", "");
	test_write_file(root, "sys/fs/cgroup/system.slice/cgroup.subtree_control", "");
	test_write_file(root, "sys/fs/cgroup/system.slice/lkp-bootstrap.service/cgroup.procs", "");
	init_fake_plan(&p, "cgroup.mode=v2\ncgroup.controllers=memory\n"
	                   "cgroup.path=/system.slice/lkp-bootstrap.service\n");
	CHECK_INT(cgroup_setup(&p, &cg), ==, 0);
	CHECK_STR(file("/sys/fs/cgroup/cgroup.subtree_control"), "+memory");
	CHECK_STR(file("/sys/fs/cgroup/system.slice/cgroup.subtree_control"), "+memory");
	CHECK_CONTAINS(init_fake_console(), "BENCHBOOT cgroup mode=v2 controllers=memory "
	                                    "job=/system.slice/lkp-bootstrap.service");
	CHECK_INT(cgroup_place(&cg, 99), ==, 0);
	CHECK_STR(file("/sys/fs/cgroup/system.slice/lkp-bootstrap.service/cgroup.procs"), "99");
	test_write_file(root, "proc/9/cgroup", "0::/system.slice/lkp-bootstrap.service\n");
	CHECK_INT(cgroup_check(&cg, 9, seen, sizeof(seen)), ==, 1);
	test_write_file(root, "proc/8/cgroup", "0::/benchboot\n");
	CHECK_INT(cgroup_check(&cg, 8, seen, sizeof(seen)), ==, 0);
	bb_plan_free(&p);
	/* hybrid: v1 hierarchies and cgroup2 at unified/, the job in each */
	init_fake_calls[0] = 0;
	test_write_file(root,
	                "sys/fs/cgroup/memory/system.slice/lkp-bootstrap.service/cgroup.procs", "");
	test_write_file(
	    root, "sys/fs/cgroup/unified/system.slice/lkp-bootstrap.service/cgroup.procs", "");
	init_fake_plan(&p, "cgroup.mode=hybrid\ncgroup.controllers=memory\n"
	                   "cgroup.path=/system.slice/lkp-bootstrap.service\n");
	CHECK_INT(cgroup_setup(&p, &cg), ==, 0);
	CHECK_STR(init_fake_calls, "mount tmpfs /sys/fs/cgroup mode=0755\n"
	                           "mount cgroup /sys/fs/cgroup/memory memory\n"
	                           "mount cgroup2 /sys/fs/cgroup/unified -\n");
	CHECK_INT(cgroup_place(&cg, 98), ==, 0);
	CHECK_STR(file("/sys/fs/cgroup/unified/system.slice/lkp-bootstrap.service/cgroup.procs"),
	          "98");
	test_write_file(root, "proc/7/cgroup",
	                "4:memory:/system.slice/lkp-bootstrap.service\n"
	                "0::/system.slice/lkp-bootstrap.service\n");
	CHECK_INT(cgroup_check(&cg, 7, seen, sizeof(seen)), ==, 1);
	test_write_file(root, "proc/6/cgroup",
	                "4:memory:/system.slice/lkp-bootstrap.service\n0::/\n");
	CHECK_INT(cgroup_check(&cg, 6, seen, sizeof(seen)), ==, 0);
	bb_plan_free(&p);
	/* a path the plan parser refuses */
	struct bb_plan bad;
	char err[256];
	const char *text = "benchboot-plan 1\ncgroup.path=/a/../b\n";
	CHECK_INT(bb_plan_parse(text, strlen(text), &bad, err, sizeof err), !=, 0);
	CHECK_CONTAINS(err, "cgroup.path: '/a/../b' is not a cgroup path");
}

TEST(sysctl_apply_restore)
{
	const char *root = fake_root();
	struct bb_kvs want = {0};
	struct bb_kv kv[2] = {{"net.sctp.prsctp_enable", "0"},
	                      {"net.ipv4.tcp_rmem", "4096  131072 6291456"}};
	struct sysctl_set set;
	char why[256] = "";
	test_write_file(root, "proc/sys/net/sctp/prsctp_enable", "1\n");
	test_write_file(root, "proc/sys/net/ipv4/tcp_rmem", "4096\t131072\t6291456\n");
	want.v = kv;
	want.n = 2;
	CHECK_INT(sysctl_apply(&want, &set, why, sizeof(why)), ==, 0);
	CHECK_STR(file("/proc/sys/net/sctp/prsctp_enable"), "0");
	CHECK_STR(set.v[0].requested, "0");
	CHECK_STR(set.v[0].actual, "0");
	CHECK_STR(set.v[0].original, "1");
	CHECK_STR(set.v[1].actual, "4096 131072 6291456"); /* whitespace does not matter */
	CHECK_INT(sysctl_restore(&set), ==, 0);
	CHECK_STR(file("/proc/sys/net/sctp/prsctp_enable"), "1");
	sysctl_free(&set);

	/* unknown key: the run fails with that reason */
	struct bb_kv unknown = {"net.sctp.no_such_knob", "1"};
	want.v = &unknown;
	want.n = 1;
	CHECK_INT(sysctl_apply(&want, &set, why, sizeof(why)), ==, -1);
	CHECK_STR(why,
	          "sysctl net.sctp.no_such_knob: unknown key (no /proc/sys/net/sctp/no_such_knob)");
	sysctl_free(&set);

	/* a value the kernel refuses (here: the entry cannot be written) */
	CHECK_INT(init_mkdirs("/proc/sys/kernel/dir", 0755), ==, 0);
	test_write_file(root, "proc/sys/kernel/ro", "5\n");
	chmod(init_path("/proc/sys/kernel/ro"), 0444);
	struct bb_kv ro = {"kernel.ro", "6"};
	want.v = &ro;
	if (geteuid() != 0) {
		CHECK_INT(sysctl_apply(&want, &set, why, sizeof(why)), ==, -1);
		CHECK_STR(why, "sysctl kernel.ro=6 refused: Permission denied");
		sysctl_free(&set);
	}
	/* a value that reads back differently */
	char norm[64];
	sysctl_normalize("  1 \t 2\n", norm, sizeof(norm));
	CHECK_STR(norm, "1 2");
}

TEST(cpufreq_governor)
{
	const char *root = fake_root();
	struct bb_plan p;
	struct cpufreq_state st;
	test_write_file(root, "sys/devices/system/cpu/online", "0-1\n");
	test_write_file(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	                "powersave\n");
	test_write_file(root, "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor",
	                "powersave\n");
	init_fake_plan(&p, "cpufreq.governor=performance\n");
	CHECK_INT(cpufreq_setup(&p, &st), ==, 0);
	CHECK(st.ok && st.present);
	CHECK_STR(file("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"), "performance");
	CHECK_STR(st.governors, "{\"cpu0\": \"performance\", \"cpu1\": \"performance\"}");
	CHECK_CONTAINS(init_fake_console(), "BENCHBOOT cpufreq status=ok requested=performance");
}

TEST(cpufreq_absent_is_recorded)
{
	const char *root = fake_root();
	struct bb_plan p;
	struct cpufreq_state st;
	test_write_file(root, "sys/devices/system/cpu/online", "0-3\n");
	init_fake_plan(&p, "cpufreq.governor=performance\n");
	CHECK_INT(cpufreq_setup(&p, &st), ==, 0);
	CHECK(st.ok && !st.present);
	CHECK_STR(st.governors, "{}");
	CHECK_CONTAINS(init_fake_console(),
	               "BENCHBOOT cpufreq status=absent requested=performance");
}

TEST(console_fallbacks)
{
	fake_root();
	/* no /dev at all: every mknod is tried (the fake creates nothing), then it gives up */
	CHECK_INT(console_setup(), ==, -1);
	CHECK_STR(init_fake_calls,
	          "mknod /dev/console c 5:1\nmknod /dev/ttyS0 c 4:64\nmknod /dev/kmsg c 1:11\n"
	          "mknod /dev/null c 1:3\n");
	/* a /dev/kmsg that opens: the third choice */
	test_write_file(test_tmpdir(), "dev/kmsg", "");
	init_fake_calls[0] = 0;
	CHECK_INT(console_setup(), ==, 2);
}

TEST(online_cpus)
{
	const char *root = fake_root();
	char list[64];
	test_write_file(root, "sys/devices/system/cpu/online", "0-2,4\n");
	CHECK_INT(init_online_cpus(list, sizeof(list)), ==, 4);
	CHECK_STR(list, "0-2,4");
}

/* env.json is read back from the (fake) system, not copied from the plan. */
TEST(env_json_from_the_system)
{
	const char *root = fake_root();
	static struct boot b;
	char err[256];
	static const char plan[] = "benchboot-plan 1\njob=j\nplan.digest=abcd\ncgroup.mode=v2\n"
	                           "cgroup.controllers=memory\ncgroup.limit.memory.high=1G\n"
	                           "[run r1]\nsuite=netperf\nruntime=1\nclient.arg=/x\n";
	CHECK_INT(bb_plan_parse(plan, strlen(plan), &b.plan, err, sizeof(err)), ==, 0);
	test_write_file(
	    root, "proc/cpuinfo",
	    "processor\t: 0\nmodel name\t: Fake CPU @ 2.0GHz\nmicrocode\t: 0x2b\n"
	    "flags\t\t: fpu hypervisor\n\nprocessor\t: 1\nmodel name\t: Fake CPU @ 2.0GHz\n");
	test_write_file(root, "proc/meminfo", "MemTotal:        1012345 kB\nMemFree: 1 kB\n");
	test_write_file(root, "proc/modules", "sctp 1 0 - Live 0x0\ndummy 2 0 - Live 0x0\n");
	test_write_file(root, "proc/self/mountinfo",
	                "22 1 0:20 / /proc rw - proc proc rw\n"
	                "30 21 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n");
	test_write_file(root, "sys/fs/cgroup/cgroup.controllers", "cpu memory\n");
	test_write_file(root, "sys/fs/cgroup/cgroup.subtree_control", "memory\n");
	test_write_file(root, "sys/fs/cgroup/benchboot/cgroup.controllers", "memory\n");
	test_write_file(root, "sys/fs/cgroup/benchboot/memory.high", "1073741824\n");
	test_write_file(root, "sys/devices/system/cpu/online", "0-1\n");
	test_write_file(root, "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor",
	                "performance\n");
	test_write_file(root, "etc/benchboot/manifest", "benchboot-manifest 1\n");
	snprintf(b.boot_id, sizeof(b.boot_id), "bid");
	snprintf(b.cmdline, sizeof(b.cmdline), "console=ttyS0 benchboot.x=1");
	snprintf(b.cmdline_report, sizeof(b.cmdline_report), "cmdline: benchboot.x: unknown key");
	b.ncpu = init_online_cpus(b.online, sizeof(b.online));
	b.cgroup.mode = BB_CGROUP_V2;
	b.cgroup.ok = 1;
	b.cpufreq.ok = 1;
	b.run_sysctls = calloc(1, sizeof(*b.run_sysctls));
	b.run_sysctls[0].v = calloc(1, sizeof(struct sysctl_entry));
	b.run_sysctls[0].n = 1;
	snprintf(b.run_sysctls[0].v[0].key, sizeof(b.run_sysctls[0].v[0].key), "kernel.x");
	snprintf(b.run_sysctls[0].v[0].actual, sizeof(b.run_sysctls[0].v[0].actual), "7");
	init_mkdirs(INIT_RESULTS_DIR, 0755);
	CHECK_INT(env_write(&b), ==, 0);
	char *e = file(INIT_RESULTS_DIR "/env.json");
	CHECK_CONTAINS(e, "\"boot_id\": \"bid\"");
	/* sha256 of "benchboot-manifest 1\n" */
	char *hex = NULL;
	test_run("printf 'benchboot-manifest 1\\n' | sha256sum | cut -c1-64", &hex);
	hex[strcspn(hex, "\n")] = 0;
	char want[128];
	snprintf(want, sizeof(want), "\"image_id\": \"%s\"", hex);
	CHECK_CONTAINS(e, want);
	CHECK_CONTAINS(e, "\"plan_digest\": \"abcd\"");
	CHECK_CONTAINS(e, "\"cmdline\": \"console=ttyS0 benchboot.x=1\"");
	CHECK_CONTAINS(e,
	               "\"cmdline_problems\": [\n    \"cmdline: benchboot.x: unknown key\"\n  ]");
	CHECK_CONTAINS(e, "\"model\": \"Fake CPU @ 2.0GHz\"");
	CHECK_CONTAINS(e, "\"microcode\": \"0x2b\"");
	CHECK_CONTAINS(e, "\"hypervisor\": true");
	CHECK_CONTAINS(e, "\"count\": 2");
	CHECK_CONTAINS(e, "\"online\": \"0-1\"");
	CHECK_CONTAINS(e, "\"total_kB\": 1012345");
	CHECK_CONTAINS(e, "\"type\": \"cgroup2\",\n        \"path\": \"/sys/fs/cgroup\"");
	CHECK_CONTAINS(e, "\"root_subtree_control\": \"memory\"");
	CHECK_CONTAINS(e, "\"job_controllers\": \"memory\"");
	CHECK_CONTAINS(e, "\"memory.high\": {\n        \"requested\": \"1G\",\n        \"actual\": "
	                  "\"1073741824\"");
	CHECK_CONTAINS(e, "\"governors\": {\"cpu1\": \"performance\"}");
	CHECK_CONTAINS(e, "\"loaded\": [\n      \"sctp\",\n      \"dummy\"\n    ]");
	CHECK_CONTAINS(e, "\"r1\": {\n      \"sysctl\": {\n        \"kernel.x\": \"7\"");
	CHECK_CONTAINS(e, "\"release\": ");
}

TEST(cgroup_kill_leftovers)
{
	const char *root = fake_root();
	struct cgroup_state cg = {.mode = BB_CGROUP_V2, .ok = 1, .n = 1};
	char procs[128];
	pid_t daemon = fork();
	if (daemon == 0) {
		execl("/bin/sleep", "sleep", "100", NULL);
		_exit(127);
	}
	pid_t zombie = fork();
	if (zombie == 0)
		_exit(0);
	usleep(100000);
	snprintf(cg.procs[0], sizeof(cg.procs[0]), "/cg/benchboot/cgroup.procs");
	snprintf(procs, sizeof(procs), "%d\n%d\n", (int)daemon, (int)zombie);
	test_write_file(root, "cg/benchboot/cgroup.procs", procs);
	/* /proc/PID/stat under the fake root: the zombie says so */
	char path[64], stat[128];
	snprintf(path, sizeof(path), "proc/%d/stat", (int)zombie);
	snprintf(stat, sizeof(stat), "%d (x) Z 1 1 1\n", (int)zombie);
	test_write_file(root, path, stat);
	/* a command name with a space and parentheses, as a process may set it */
	snprintf(path, sizeof(path), "proc/%d/stat", (int)daemon);
	snprintf(stat, sizeof(stat), "%d (net (d) x) S 1 1 1\n", (int)daemon);
	test_write_file(root, path, stat);
	char names[64], want[64];
	CHECK_INT(cgroup_kill_all(&cg, names, sizeof(names)), ==, 1);
	snprintf(want, sizeof(want), "net (d) x[%d]", (int)daemon);
	CHECK_STR(names, want);
	int status;
	CHECK_INT(waitpid(daemon, &status, 0), ==, daemon);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	cg.mode = BB_CGROUP_NONE;
	CHECK_INT(cgroup_kill_all(&cg, NULL, 0), ==, 0);
}

TEST(cgroup_oom_kill_counts)
{
	const char *root = fake_root();
	struct cgroup_state cg = {.mode = BB_CGROUP_V2, .ok = 1, .n = 1};
	snprintf(cg.procs[0], sizeof(cg.procs[0]), "/cg/benchboot/cgroup.procs");
	CHECK_INT(cgroup_oom_kills(&cg), ==, -1); /* no memory controller: no count */
	test_write_file(root, "cg/benchboot/memory.events",
	                "low 0\nhigh 12\nmax 3\noom 2\noom_kill 2\noom_group_kill 0\n");
	CHECK_INT(cgroup_oom_kills(&cg), ==, 2);
	/* v1: the memory hierarchy's memory.oom_control, the other hierarchy has none */
	struct cgroup_state v1 = {.mode = BB_CGROUP_V1, .ok = 1, .n = 2};
	snprintf(v1.procs[0], sizeof(v1.procs[0]), "/v1/cpu/benchboot/cgroup.procs");
	snprintf(v1.procs[1], sizeof(v1.procs[1]), "/v1/memory/benchboot/cgroup.procs");
	test_write_file(root, "v1/memory/benchboot/memory.oom_control",
	                "oom_kill_disable 0\nunder_oom 0\noom_kill 5\n");
	CHECK_INT(cgroup_oom_kills(&v1), ==, 5);
	cg.mode = BB_CGROUP_NONE;
	CHECK_INT(cgroup_oom_kills(&cg), ==, -1);
}
