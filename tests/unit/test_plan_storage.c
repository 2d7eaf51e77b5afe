/* The plan's disk and filesystem keys (docs/plan.md): modules.params.NAME, disk.devices,
 * disk.description, and a run's fs, fs.mkfs.arg, fs.mount; each bad value named with its
 * line. */
#include <errno.h>

#include "harness.h"
#include "plan/plan.h"

static const char head[] = "benchboot-plan 1\n"
                           "modules.params.brd=rd_nr=2 rd_size=1048576\n"
                           "disk.devices=/dev/ram0 /dev/ram1\n"
                           "disk.description=2brd\n";
static const char run[] = "\n[run a]\n"
                          "suite=fsmark\n"
                          "runtime=60\n"
                          "fs=xfs\n"
                          "fs.mkfs.arg=/usr/sbin/mkfs.xfs\n"
                          "fs.mkfs.arg=-f\n"
                          "fs.mount=inode64,noatime\n"
                          "client.arg=/bin/true\n";

static int parse(const char *text, struct bb_plan *p, char *err)
{
	return bb_plan_parse(text, strlen(text), p, err, 256);
}

TEST(plan_disk_and_fs)
{
	struct bb_plan p;
	char err[256], text[1024];
	snprintf(text, sizeof text, "%s%s", head, run);
	CHECK_INT(parse(text, &p, err), ==, 0);
	CHECK_STR(bb_kvs_get(&p.module_params, "brd"), "rd_nr=2 rd_size=1048576");
	CHECK_INT(p.disk_devices.n, ==, 2);
	CHECK_STR(p.disk_devices.v[1], "/dev/ram1");
	CHECK_STR(p.disk_description, "2brd");
	CHECK_STR(p.runs[0].fs, "xfs");
	CHECK_INT(p.runs[0].fs_mkfs.n, ==, 2);
	CHECK_STR(p.runs[0].fs_mkfs.v[0], "/usr/sbin/mkfs.xfs");
	CHECK_STR(p.runs[0].fs_mount, "inode64,noatime");
	bb_plan_free(&p);
}

/* a line of the plan, its error */
static void bad(const char *globals, const char *runkeys, const char *want)
{
	struct bb_plan p;
	char err[256], text[1024];
	snprintf(
	    text, sizeof text,
	    "benchboot-plan 1\n%s\n[run a]\nsuite=fsmark\nruntime=60\nclient.arg=/bin/true\n%s",
	    globals, runkeys);
	CHECK_INT(parse(text, &p, err), ==, -EINVAL);
	CHECK_STR(err, want);
}

TEST(plan_disk_and_fs_errors)
{
	bad("modules.params.brd=rd_nr", "",
	    "plan:2: modules.params.brd: 'rd_nr' is not PARAM=VALUE");
	bad("modules.params.b/d=x=1", "", "plan:2: modules.params.b/d: bad module name 'b/d'");
	bad("modules.params.brd=a=1\nmodules.params.brd=a=2", "",
	    "plan:3: modules.params.brd: duplicate key");
	bad("disk.devices=ram0", "", "plan:2: disk.devices: 'ram0' is not a device /dev/NAME");
	bad("disk.devices=/dev/../vda", "",
	    "plan:2: disk.devices: '/dev/../vda' is not a device /dev/NAME");
	bad("disk.devices=/dev/ram0", "fs=zfs\n",
	    "plan:7: fs: 'zfs' is not ext2, ext3, ext4, xfs or btrfs");
	bad("disk.devices=/dev/ram0", "fs=xfs\nfs.mkfs.arg=mkfs.xfs\n",
	    "plan:8: fs.mkfs.arg: the program 'mkfs.xfs' is not an absolute path");
	bad("disk.devices=/dev/ram0", "fs=xfs\nfs.mkfs.arg=/usr/sbin/mkfs.xfs\nfs.mount=a b\n",
	    "plan:9: fs.mount: 'a b': mount options are comma-separated, no blanks");
	bad("disk.devices=/dev/ram0", "fs=xfs\n",
	    "plan:7: run a: fs and fs.mkfs.arg come together");
	bad("", "fs=xfs\nfs.mkfs.arg=/usr/sbin/mkfs.xfs\n",
	    "plan:8: run a: fs=xfs needs disk.devices (before the runs)");
}

/* the command line may name other scratch devices (a lab's disks; the guard's test) */
TEST(plan_disk_devices_on_the_cmdline)
{
	struct bb_plan p;
	char err[256], report[256], text[1024];
	snprintf(text, sizeof text, "%s%s", head, run);
	CHECK_INT(parse(text, &p, err), ==, 0);
	CHECK_INT(
	    bb_plan_cmdline(&p, "quiet benchboot.disk.devices=/dev/vda", report, sizeof report), ==,
	    0);
	CHECK_INT(p.disk_devices.n, ==, 1);
	CHECK_STR(p.disk_devices.v[0], "/dev/vda");
	bb_plan_free(&p);
}
