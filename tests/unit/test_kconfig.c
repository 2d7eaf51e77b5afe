/*
 * The kernel configuration a job needs (host/kernel/kconfig.h): a plan's needs (cgroup
 * controllers named and limited, the governor, the modules, the monitors, the sysctls that
 * need a CONFIG symbol, a NIC) into the
 * fragment; a module's CONFIG symbol found in a fake kernel tree's Makefiles and Kconfig (a
 * tristate one taken over a bool one that builds an object of the same name, names with
 * dashes, lines continued with '\'); and a built .config checked against the fragment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "host/kernel/kconfig.h"

/* A tree: net/sctp builds sctp.o (tristate), kernel/dma a bool dummy.o, drivers/net the
 * tristate dummy.o, drivers/x a module with dashes over a continued line, tools/ ignored. */
static const char *fake_tree(void)
{
	static char tree[4096];
	snprintf(tree, sizeof(tree), "%s/linux", test_tmpdir());
	test_write_file(tree, "Makefile", "obj-y += kernel/ net/ drivers/\n");
	test_write_file(tree, "kernel/dma/Makefile",
	                "obj-$(CONFIG_DMA_OPS) += dummy.o mapping.o\n");
	test_write_file(tree, "kernel/dma/Kconfig", "config DMA_OPS\n\tbool\n");
	test_write_file(tree, "net/sctp/Makefile",
	                "obj-$(CONFIG_IP_SCTP) += sctp.o\nsctp-y := sm_sideeffect.o\n");
	test_write_file(tree, "net/sctp/Kconfig",
	                "menuconfig IP_SCTP\n\ttristate \"SCTP\"\nconfig SCTP_DBG\n\tbool\n");
	test_write_file(tree, "drivers/net/Makefile", "obj-$(CONFIG_DUMMY) += dummy.o\n");
	test_write_file(tree, "drivers/net/Kconfig",
	                "config DUMMY\n\ttristate \"Dummy net driver support\"\n");
	test_write_file(tree, "drivers/x/Makefile",
	                "obj-$(CONFIG_X_THING) += a.o \\\n\tsnd-x-thing.o\n");
	test_write_file(tree, "drivers/x/Kconfig.thing", "config X_THING\n\tbool \"a bool\"\n");
	test_write_file(tree, "tools/Makefile", "obj-$(CONFIG_TOOLS_ONLY) += only.o\n");
	return tree;
}

TEST(module_symbols)
{
	const char *tree = fake_tree();
	struct bb_kmodsym s;
	CHECK_INT(bb_kconfig_module_symbol(tree, "sctp", &s), ==, 0);
	CHECK_STR(s.symbol, "IP_SCTP");
	CHECK_STR(s.makefile, "net/sctp/Makefile");
	CHECK_INT(s.value, ==, 'm');
	CHECK_INT(bb_kconfig_module_symbol(tree, "dummy", &s), ==, 0);
	CHECK_STR(s.symbol, "DUMMY");
	CHECK_STR(s.makefile, "drivers/net/Makefile");
	CHECK_INT(bb_kconfig_module_symbol(tree, "snd_x_thing", &s), ==, 0);
	CHECK_STR(s.symbol, "X_THING");
	CHECK_INT(s.value, ==, 'y');
	CHECK_INT(bb_kconfig_module_symbol(tree, "only", &s), ==, -ENOENT);
	CHECK_INT(bb_kconfig_module_symbol(tree, "sm_sideeffect", &s), ==, -ENOENT);
	CHECK_INT(bb_kconfig_module_symbol(tree, "nosuch", &s), ==, -ENOENT);
}

static void plan_needs(struct bb_kneeds *n)
{
	struct bb_plan p;
	memset(&p, 0, sizeof(p));
	p.cgroup_mode = BB_CGROUP_V2;
	bb_strv_add(&p.cgroup_controllers, "cpu memory");
	bb_kvs_add(&p.cgroup_limits, "pids.max", "100");
	p.cpufreq_governor = "performance";
	bb_strv_add(&p.modules_boot, "dummy");
	bb_strv_add(&p.modules_boot, "sctp");
	bb_strv_add(&p.monitors, "vmstat");
	bb_strv_add(&p.monitors, "perf-profile");
	p.cluster = "two";
	struct bb_plan_run run;
	memset(&run, 0, sizeof(run));
	bb_kvs_add(&run.sysctls, "kernel.sched_autogroup_enabled", "0");
	bb_kvs_add(&run.sysctls, "net.sctp.addip_enable", "1");
	bb_kvs_add(&run.sysctls, "net.core.somaxconn", "4096"); /* needs nothing of its own */
	p.runs = &run;
	p.nruns = 1;
	CHECK_INT(bb_kneeds_add_plan(n, &p), ==, 0);
	CHECK_INT(bb_kneeds_add_plan(n, &p), ==, 0); /* a second boot adds nothing twice */
	bb_strv_free(&p.cgroup_controllers);
	bb_kvs_free(&p.cgroup_limits);
	bb_strv_free(&p.modules_boot);
	bb_strv_free(&p.monitors);
	bb_kvs_free(&run.sysctls);
}

static int count(const char *text, const char *line)
{
	int n = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		n += !strncmp(l, line, strlen(line)) &&
		     (l[strlen(line)] == '\n' || !l[strlen(line)]);
	return n;
}

TEST(fragment)
{
	struct bb_kneeds n;
	memset(&n, 0, sizeof(n));
	plan_needs(&n);
	CHECK_INT(n.controllers.n, ==, 3);
	CHECK_INT(n.modules.n, ==, 2);
	CHECK_INT(n.monitors.n, ==, 1); /* vmstat needs nothing of its own */
	CHECK_INT(n.sysctls.n, ==, 2);
	char *text;
	struct bb_strv unresolved = {0};
	CHECK_INT(bb_kconfig_fragment(&n, fake_tree(), &text, &unresolved), ==, 0);
	const char *want[] = {"CONFIG_VIRTIO_BLK=y",
	                      "CONFIG_SERIAL_8250_CONSOLE=y",
	                      "CONFIG_BLK_DEV_INITRD=y",
	                      "CONFIG_CGROUPS=y",
	                      "CONFIG_CGROUP_SCHED=y",
	                      "CONFIG_CFS_BANDWIDTH=y",
	                      "CONFIG_MEMCG=y",
	                      "CONFIG_CGROUP_PIDS=y",
	                      "CONFIG_CPU_FREQ_GOV_PERFORMANCE=y",
	                      "CONFIG_VIRTIO_NET=y",
	                      "CONFIG_PERF_EVENTS=y",
	                      "CONFIG_KALLSYMS_ALL=y",
	                      "CONFIG_IP_SCTP=m",
	                      "CONFIG_DUMMY=y"};
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++)
		if (count(text, want[i]) != 1)
			bb_test_fail(__FILE__, __LINE__, "%s %d times in:\n%s", want[i],
			             count(text, want[i]), text);
	/* dummy is built in by the base lines: not asked for again as a module */
	CHECK_INT(count(text, "CONFIG_DUMMY=m"), ==, 0);
	CHECK(strstr(text, "# the job's module sctp (net/sctp/Makefile)") != NULL);
	CHECK_INT(unresolved.n, ==, 0);
	free(text);
	/* without a tree, the modules are named, not resolved */
	CHECK_INT(bb_kconfig_fragment(&n, NULL, &text, NULL), ==, 0);
	CHECK(strstr(text, "# the job's modules: dummy sctp") != NULL);
	CHECK(strstr(text, "# the job's module sctp (") == NULL);
	CHECK_INT(count(text, "CONFIG_IP_SCTP=m"), ==, 1); /* for the net.sctp sysctl */
	free(text);
	/* a module no Makefile builds */
	bb_strv_add(&n.modules, "nosuch");
	CHECK_INT(bb_kconfig_fragment(&n, fake_tree(), &text, &unresolved), ==, 0);
	CHECK_INT(unresolved.n, ==, 1);
	CHECK_STR(unresolved.v[0], "nosuch");
	CHECK(strstr(text, "# the job's module nosuch: no Makefile of the tree builds nosuch.o") !=
	      NULL);
	free(text);
	bb_strv_free(&unresolved);
	bb_kneeds_free(&n);
}

TEST(nothing_asked)
{
	struct bb_kneeds n;
	memset(&n, 0, sizeof(n));
	char *text;
	CHECK_INT(bb_kconfig_fragment(&n, NULL, &text, NULL), ==, 0);
	CHECK_INT(count(text, "CONFIG_VIRTIO_PCI=y"), ==, 1);
	CHECK(strstr(text, "CGROUP") == NULL);
	CHECK(strstr(text, "CPU_FREQ") == NULL);
	CHECK(strstr(text, "VIRTIO_NET") == NULL);
	free(text);
}

TEST(config_check)
{
	const char *fragment = "# why\nCONFIG_A=y\nCONFIG_B=m\nCONFIG_C=y\nCONFIG_D=m\nCONFIG_E=y\n"
	                       "CONFIG_F=\"x\"\n";
	const char *config = "CONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\nCONFIG_D=m\n"
	                     "CONFIG_F=\"y\"\nCONFIG_AA=y\n";
	struct bb_strv missing = {0};
	CHECK_INT(bb_kconfig_check(fragment, config, &missing), ==, 0);
	CHECK_INT(missing.n, ==, 3);
	CHECK_STR(missing.v[0],
	          "CONFIG_C=y (the .config has: CONFIG_C is not set: a dependency is off)");
	CHECK_STR(missing.v[1], "CONFIG_E=y (the .config lacks it: unknown to this tree?)");
	CHECK_STR(missing.v[2], "CONFIG_F=\"x\" (the .config has: CONFIG_F=\"y\")");
	bb_strv_free(&missing);
}
