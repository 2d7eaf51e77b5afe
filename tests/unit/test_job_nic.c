/* The `nic:` key of job files: what it accepts, its errors, and the plan and image it gives. */
#include <errno.h>

#include "harness.h"
#include "host/job/job.h"
#include "host/job/matrix.h"
#include "host/job/planwrite.h"
#include "plan/plan.h"

static const char *parse_err(const char *yaml)
{
	static char err[1024];
	struct bb_job job;
	err[0] = 0;
	if (!bb_job_parse_text("t.yaml", yaml, strlen(yaml), &job, err, sizeof err)) {
		bb_job_free(&job);
		return "(parsed)";
	}
	return err;
}

TEST(nic_job_to_plan)
{
	static const char yaml[] = "suite: netperf\n"
	                           "runtime: 2s\n"
	                           "nic:\n"
	                           "  name: 52:54:00:12:34:56\n"
	                           "  address: 10.0.2.15/24 fd00::15/64\n"
	                           "  gateway: 10.0.2.2\n"
	                           "  mtu: 1500\n"
	                           "  wait: 1m\n"
	                           "  module: virtio_net virtio_pci\n"
	                           "cgroup: [v1, v2]\n";
	struct bb_job job;
	struct bb_matrix m;
	char err[1024];
	CHECK_INT(bb_job_parse_text("t.yaml", yaml, strlen(yaml), &job, err, sizeof err), ==, 0);
	CHECK_INT(bb_matrix_expand(&job, &m, err, sizeof err), ==, 0);
	/* boot level but not an axis: the two cgroup modes make the two boots */
	CHECK_INT(m.nboots, ==, 2);
	for (size_t b = 0; b < m.nboots; b++) {
		char *text;
		struct bb_plan plan;
		CHECK_INT(bb_plan_write(&m, b, &text, err, sizeof err), ==, 0);
		CHECK_CONTAINS(text,
		               "\nnet.nic.name=52:54:00:12:34:56\n"
		               "net.nic.address=10.0.2.15/24 fd00::15/64\n"
		               "net.nic.gateway=10.0.2.2\nnet.nic.mtu=1500\nnet.nic.wait=60\n");
		CHECK_CONTAINS(text, "\nmodules.boot=dummy virtio_net virtio_pci\n");
		/* the init reads it */
		CHECK_INT(bb_plan_parse(text, strlen(text), &plan, err, sizeof err), ==, 0);
		CHECK_STR(plan.nic_name, "52:54:00:12:34:56");
		CHECK_INT(plan.nic_address.n, ==, 2);
		CHECK_INT(plan.nic_wait, ==, 60);
		bb_plan_free(&plan);
		free(text);
		/* the image gets the driver */
		struct bb_strv mods = {0}, files = {0};
		CHECK_INT(bb_plan_needs(&m, b, &mods, &files, err, sizeof err), ==, 0);
		CHECK_INT(mods.n, ==, 3);
		CHECK_STR(mods.v[1], "virtio_net");
		bb_strv_free(&mods);
		bb_strv_free(&files);
	}
	bb_matrix_free(&m);
	bb_job_free(&job);
}

TEST(nic_job_without_nic_has_no_nic_keys)
{
	static const char yaml[] = "suite: stress-ng\nstress-ng:\n  test: cpu\n";
	struct bb_job job;
	struct bb_matrix m;
	char err[1024], *text;
	CHECK_INT(bb_job_parse_text("t.yaml", yaml, strlen(yaml), &job, err, sizeof err), ==, 0);
	CHECK_INT(bb_matrix_expand(&job, &m, err, sizeof err), ==, 0);
	CHECK_INT(bb_plan_write(&m, 0, &text, err, sizeof err), ==, 0);
	CHECK(!strstr(text, "net.nic."));
	free(text);
	bb_matrix_free(&m);
	bb_job_free(&job);
}

TEST(nic_job_errors)
{
	static const struct {
		const char *yaml, *err;
	} bad[] = {
	    {"suite: netperf\nnic:\n  name: eth/0\n",
	     "t.yaml:3:9: name: expected an interface name (e.g. eth0) or a MAC address "
	     "(xx:xx:xx:xx:xx:xx), not 'eth/0'"},
	    {"suite: netperf\nnic:\n  name: eth0\n  gateway: 10.0.2.2 10.0.2.3\n",
	     "t.yaml:4:12: gateway: one gateway per address family, not two IPv4 ones"},
	    {"suite: netperf\nnic:\n  name: eth0\n  mtu: 9x\n",
	     "t.yaml:4:8: mtu: expected 68..65535, not '9x'"},
	    {"suite: netperf\nnic:\n  name: eth0\n  wait: 11m\n",
	     "t.yaml:4:9: wait: '11m' is not a duration of 0 to 600 s (e.g. 10s)"},
	    {"suite: netperf\nnic:\n  name: eth0\n  module: virtio/net\n",
	     "t.yaml:4:11: module: 'virtio/net' is not a list of module names (e.g. virtio_net, "
	     "or several: virtio_net virtio_pci)"},
	    {"suite: netperf\nnic:\n  name: [eth0, eth1]\n",
	     "t.yaml:3:9: name: takes one value, not a list (a list would make it a matrix axis)"},
	    {"suite: netperf\nnic:\n  adress: 10.0.2.15/24\n",
	     "t.yaml:3:3: unknown key 'adress' in 'nic:' (did you mean 'address'?)"},
	    {"suite: netperf\nnic: eth0\n",
	     "t.yaml:2:6: nic: expected a mapping of keys (see docs/jobs.md)"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *err = parse_err(bad[i].yaml);
		if (strcmp(err, bad[i].err))
			bb_test_fail(__FILE__, __LINE__, "case %zu: \"%s\", expected \"%s\"", i,
			             err, bad[i].err);
	}
}
