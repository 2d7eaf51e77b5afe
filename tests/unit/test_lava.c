/* LAVA job definitions and PXE trees: the text they carry, quoting, refused inputs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "host/boot/lava.h"
#include "host/boot/pxe.h"
#include "host/boot/uki.h"

static struct lava_boot boot(const char *cmdline)
{
	return (struct lava_boot){.job = "j",
	                          .image = "j.boot1",
	                          .group = 1,
	                          .ngroups = 2,
	                          .params = "cgroup.mode=v2",
	                          .kernel_url = "file:///i/vmlinuz",
	                          .ramdisk_url = "file:///i/initrd.img",
	                          .cmdline = cmdline,
	                          .ramdisk_compression = "gz",
	                          .test_minutes = 7,
	                          .cpus = 4,
	                          .memory_mb = 2048,
	                          .kernel_sha256 = "ab12"};
}

TEST(qemu_flavour)
{
	struct lava_boot b = boot("console=ttyS0 it's");
	char *y;
	CHECK_INT(bb_lava_job(LAVA_QEMU, &b, &y), ==, 0);
	CHECK_CONTAINS(y, "device_type: qemu\n");
	CHECK_CONTAINS(y, "job_name: 'benchboot j boot 1 of 2 (qemu): cgroup.mode=v2'\n");
	CHECK_CONTAINS(y, "  no_kvm: true\n  memory: 2048\n  extra_options:\n  - -smp 4\n");
	/* single quotes doubled inside a single-quoted scalar */
	CHECK_CONTAINS(y, "image_arg: '-kernel {kernel} -append \"console=ttyS0 it''s\"'\n");
	CHECK_CONTAINS(y, "        sha256sum: ab12\n");
	CHECK_CONTAINS(y, "    to: tmpfs\n");
	CHECK_CONTAINS(y, "    method: qemu\n    media: tmpfs\n");
	CHECK_CONTAINS(y, "    timeout:\n      minutes: 7\n    monitors:\n");
	CHECK_CONTAINS(y, "start: 'BENCHBOOT results-start'");
	/* the init's last line: the result files after results-end reach LAVA too */
	CHECK_CONTAINS(y, "end: 'BENCHBOOT boot-end'");
	CHECK_CONTAINS(y, "metadata:\n  benchboot.job: 'j'\n  benchboot.image: 'j.boot1'\n"
	                  "  benchboot.boot_group: '1'\n");
	CHECK(!strstr(y, "benchboot.kernel"));
	CHECK_CONTAINS(y, "(?P<test_case_id>\\S+) RESULT=(?P<result>pass|fail)");
	CHECK_CONTAINS(y, "(?P<measurement>\\S+)");
	free(y);
}

TEST(lab_flavour)
{
	struct lava_boot b = boot("console=ttyS0,115200 benchboot.boot.group=1");
	char *y;
	b.device_type = "x86-lab";
	CHECK_INT(bb_lava_job(LAVA_LAB, &b, &y), ==, 0);
	CHECK_CONTAINS(y, "device_type: x86-lab\n");
	CHECK_CONTAINS(y, "  extra_kernel_args: 'console=ttyS0,115200 benchboot.boot.group=1'\n");
	CHECK_CONTAINS(y, "    to: tftp\n");
	CHECK_CONTAINS(y, "      compression: gz\n      install_modules: false\n"
	                  "      install_overlay: false\n");
	CHECK_CONTAINS(y, "    method: ipxe\n    commands: ramdisk\n");
	CHECK(!strstr(y, "no_kvm"));
	free(y);
}

TEST(cmdline_lava_cannot_carry)
{
	struct lava_boot b = boot("a=\"b c\"");
	char *y;
	CHECK_INT(bb_lava_job(LAVA_QEMU, &b, &y), ==, -EINVAL);
	b.cmdline = "a\nb";
	CHECK_INT(bb_lava_job(LAVA_LAB, &b, &y), ==, -EINVAL);
}

TEST(pxe_refuses_bad_entries)
{
	const char *dir = test_tmpdir();
	char out[4096], err[256];
	const char *k = test_write_file(dir, "k", "kernel");
	char kernel[4096];
	snprintf(kernel, sizeof(kernel), "%s", k);
	const char *initrd = test_write_file(dir, "i", "initrd");
	snprintf(out, sizeof(out), "%s/pxe", dir);
	struct pxe_entry e[2] = {
	    {.label = "a b", .kernel = kernel, .initrd = initrd, .cmdline = "x"},
	    {.label = "g", .kernel = kernel, .initrd = initrd, .cmdline = "x"}};
	CHECK_INT(bb_pxe_build(out, "n", e, 1, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "bad label 'a b'");
	e[0].label = "g";
	CHECK_INT(bb_pxe_build(out, "n", e, 2, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "label 'g' given twice");
	e[0].label = "f";
	e[0].cmdline = "two\nlines";
	CHECK_INT(bb_pxe_build(out, "n", e, 2, err, sizeof(err)), ==, -EINVAL);
	e[0].cmdline = "console=ttyS0\n";
	e[0].kernel = "/nonexistent/vmlinuz";
	CHECK_INT(bb_pxe_build(out, "n", e, 2, err, sizeof(err)), ==, -EINVAL);
	e[0].kernel = kernel;
	CHECK_INT(bb_pxe_build(out, "n", e, 2, err, sizeof(err)), ==, 0);
	char *text = NULL, cmd[20000];
	snprintf(cmd, sizeof(cmd),
	         "cat %s/boot.ipxe %s/f.ipxe %s/pxelinux.cfg/default %s/f/vmlinuz", out, out, out,
	         out);
	CHECK_INT(test_run(cmd, &text), ==, 0);
	CHECK_CONTAINS(text, "choose --timeout 5000 --default f target || set target f\n");
	CHECK_CONTAINS(text,
	               ":g\nkernel g/vmlinuz initrd=initrd.img x\ninitrd g/initrd.img\nboot\n");
	CHECK_CONTAINS(text,
	               "# benchboot n: boot f\nkernel f/vmlinuz initrd=initrd.img console=ttyS0\n");
	CHECK_CONTAINS(text, "DEFAULT f\nPROMPT 1\nTIMEOUT 50\n");
	CHECK_CONTAINS(text, "LABEL g\n  KERNEL g/vmlinuz\n  INITRD g/initrd.img\n  APPEND x\n");
	CHECK_CONTAINS(text, "kernel");
	free(text);
}

/* A two-host job: LAVA's multinode protocol, roles server and client, the role on each
 * command line, the qemu devices joined by a test network with the cluster's MACs. */
TEST(multinode_two_hosts)
{
	static const char pair[] = "s:\n  roles: [server]\n  macs: [\"52:54:00:bb:00:01\"]\n"
	                           "c:\n  roles: [client]\n";
	struct bb_cluster c;
	char err[512], *y;
	CHECK_INT(bb_cluster_parse_text("cs-pair", "f", pair, strlen(pair), &c, err, sizeof err),
	          ==, 0);
	struct lava_boot b = boot("console=ttyS0");
	b.cluster = &c;
	b.mcast_port = 21234;
	CHECK_INT(bb_lava_job(LAVA_QEMU, &b, &y), ==, 0);
	/* no top-level device_type or context with multinode */
	CHECK(!strstr(y, "\ndevice_type:"));
	CHECK(!strstr(y, "\ncontext:"));
	CHECK_CONTAINS(y,
	               "job_name: 'benchboot j boot 1 of 2 (qemu, two hosts): cgroup.mode=v2'\n");
	CHECK_CONTAINS(y, "  benchboot.cluster: 'cs-pair'\n");
	CHECK_CONTAINS(y, "protocols:\n  lava-multinode:\n    roles:\n      server:\n"
	                  "        device_type: qemu\n        count: 1\n        essential: true\n"
	                  "        context:\n");
	CHECK_CONTAINS(
	    y, "          - -netdev socket,id=bbtest,mcast=230.0.0.77:21234,localaddr=127.0.0.1\n"
	       "          - -device virtio-net-pci,netdev=bbtest,mac=52:54:00:bb:00:01\n"
	       "      client:\n");
	/* no MAC in the cluster file: the one benchboot run gives the VM */
	CHECK_CONTAINS(y, "mac=52:54:00:bb:00:02\n");
	CHECK_CONTAINS(y, "- deploy:\n    role:\n    - server\n");
	CHECK_CONTAINS(y, "-append \"console=ttyS0 benchboot.role=server\"'\n");
	CHECK_CONTAINS(y, "- test:\n    role:\n    - client\n");
	CHECK_CONTAINS(y, "-append \"console=ttyS0 benchboot.role=client\"'\n");
	free(y);
	/* the lab flavour: the role in each role's kernel arguments */
	b.device_type = "x86-lab";
	CHECK_INT(bb_lava_job(LAVA_LAB, &b, &y), ==, 0);
	CHECK_CONTAINS(y, "      client:\n        device_type: x86-lab\n        count: 1\n"
	                  "        essential: true\n        context:\n"
	                  "          extra_kernel_args: 'console=ttyS0 benchboot.role=client'\n");
	CHECK_CONTAINS(y, "    method: ipxe\n");
	CHECK(!strstr(y, "bbtest"));
	free(y);
}
