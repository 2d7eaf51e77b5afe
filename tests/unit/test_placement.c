/*
 * Side-by-side placement (lib/host/run/placement.c) on fake sysfs trees of several shapes:
 * this 2-CPU machine, SMT siblings kept together, two NUMA nodes not split, CPU 0's core left
 * to the host on larger machines, offline CPUs skipped, too small a host, the rotation.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "host/run/placement.h"

/* A tree of ncpu CPUs (online: the list), smt threads a core, CPUs split evenly into nodes. */
static const char *tree(const char *name, int ncpu, const char *online, int smt, int nodes)
{
	static char root[4096];
	char rel[128], list[64];
	snprintf(root, sizeof root, "%s/%s", test_tmpdir(), name);
	test_write_file(root, "sys/devices/system/cpu/online", online);
	for (int c = 0; c < ncpu; c++) {
		int first = c - c % smt;
		if (smt > 1)
			snprintf(list, sizeof list, "%d-%d\n", first, first + smt - 1);
		else
			snprintf(list, sizeof list, "%d\n", c);
		snprintf(rel, sizeof rel,
		         "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c);
		test_write_file(root, rel, list);
	}
	for (int n = 0; nodes > 1 && n < nodes; n++) {
		int per = ncpu / nodes;
		snprintf(rel, sizeof rel, "sys/devices/system/node/node%d/cpulist", n);
		snprintf(list, sizeof list, "%d-%d\n", n * per, n * per + per - 1);
		test_write_file(root, rel, list);
	}
	return root;
}

static const char *slot(const struct bb_placement *p, size_t i)
{
	static char buf[4][256];
	bb_cpulist_format(&p->slots[i], buf[i % 4], sizeof buf[0]);
	return buf[i % 4];
}

TEST(placement_two_cpus_two_single_vcpu_vms)
{
	struct bb_topology t;
	struct bb_placement p;
	char err[512] = "";
	CHECK_INT(bb_topology_read(tree("two", 2, "0-1\n", 1, 1), &t, err, sizeof err), ==, 0);
	CHECK_INT(t.ncores, ==, 2);
	CHECK_INT(t.nnodes, ==, 1);
	CHECK_INT(bb_place(&t, 2, 1, &p, err, sizeof err), ==, 0);
	CHECK_INT(p.nslots, ==, 2);
	CHECK_STR(slot(&p, 0), "0");
	CHECK_STR(slot(&p, 1), "1");
	CHECK_INT(bb_cpuset_count(&p.host), ==, 0); /* 2 cores: none kept back */
	/* two 2-vCPU VMs do not fit: one does, and the reason says so */
	CHECK_INT(bb_place(&t, 2, 2, &p, err, sizeof err), ==, 0);
	CHECK_INT(p.nslots, ==, 1);
	CHECK_STR(slot(&p, 0), "0-1");
	CHECK_CONTAINS(err, "2 VMs of 2 vCPUs need 4 host CPUs");
	CHECK_CONTAINS(err, "1 fit");
	/* 3 vCPUs on 2 CPUs: nothing fits */
	CHECK_INT(bb_place(&t, 1, 3, &p, err, sizeof err), ==, -ENOSPC);
	CHECK_INT(p.nslots, ==, 0);
}

TEST(placement_smt_siblings_stay_together)
{
	struct bb_topology t;
	struct bb_placement p;
	char err[512] = "";
	/* 8 CPUs, 2 threads a core: cores {0,1} {2,3} {4,5} {6,7}; core 0 to the host */
	CHECK_INT(bb_topology_read(tree("smt", 8, "0-7\n", 2, 1), &t, err, sizeof err), ==, 0);
	CHECK_INT(t.ncores, ==, 4);
	CHECK_INT(bb_place(&t, 4, 1, &p, err, sizeof err), ==, 0);
	/* a 1-vCPU VM still takes a whole core: its sibling is not given to another VM */
	CHECK_INT(p.nslots, ==, 3);
	CHECK_STR(slot(&p, 0), "2-3");
	CHECK_STR(slot(&p, 1), "4-5");
	CHECK_STR(slot(&p, 2), "6-7");
	char host[64];
	bb_cpulist_format(&p.host, host, sizeof host);
	CHECK_STR(host, "0-1");
	CHECK_INT(bb_place(&t, 2, 3, &p, err, sizeof err), ==, 0);
	CHECK_INT(p.nslots, ==, 1); /* 3 vCPUs: two cores, and only three free cores */
	CHECK_STR(slot(&p, 0), "2-5");
}

TEST(placement_numa_nodes_not_split)
{
	struct bb_topology t;
	struct bb_placement p;
	char err[512] = "";
	/* 16 CPUs, no SMT, nodes 0-7 and 8-15 */
	CHECK_INT(bb_topology_read(tree("numa", 16, "0-15\n", 1, 2), &t, err, sizeof err), ==, 0);
	CHECK_INT(t.nnodes, ==, 2);
	CHECK_INT(t.cores[9].node, ==, 1);
	/* 3 vCPUs each: node 0 has 7 free CPUs (CPU 0 to the host): two VMs there, the third
	 * would straddle 7 and 8, so it starts on node 1 */
	CHECK_INT(bb_place(&t, 4, 3, &p, err, sizeof err), ==, 0);
	CHECK_INT(p.nslots, ==, 4);
	CHECK_STR(slot(&p, 0), "1-3");
	CHECK_STR(slot(&p, 1), "4-6");
	CHECK_STR(slot(&p, 2), "8-10");
	CHECK_STR(slot(&p, 3), "11-13");
	/* 9 vCPUs: more than a node holds, never split: no slot */
	CHECK_INT(bb_place(&t, 1, 9, &p, err, sizeof err), ==, -ENOSPC);
	CHECK_CONTAINS(err, "one NUMA node");
}

TEST(placement_offline_cpus_skipped)
{
	struct bb_topology t;
	struct bb_placement p;
	char err[512] = "";
	CHECK_INT(bb_topology_read(tree("offline", 6, "0-2,5\n", 1, 1), &t, err, sizeof err), ==,
	          0);
	CHECK_INT(t.ncpus, ==, 4);
	CHECK_INT(t.ncores, ==, 4);
	CHECK_INT(bb_place(&t, 2, 1, &p, err, sizeof err), ==, 0);
	CHECK_STR(slot(&p, 0), "1");
	CHECK_STR(slot(&p, 1), "2");
	CHECK_INT(bb_place(&t, 3, 1, &p, err, sizeof err), ==, 0);
	CHECK_STR(slot(&p, 2), "5");
}

TEST(placement_missing_tree_is_an_error)
{
	struct bb_topology t;
	char err[512] = "";
	char root[4096];
	snprintf(root, sizeof root, "%s/none", test_tmpdir());
	CHECK(bb_topology_read(root, &t, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "cpu/online");
}

TEST(placement_rotation_balances_sides)
{
	/* over 2 groups each of 2 sides is on each of 2 slots once; over 6 groups of 3, twice */
	int count[3][3] = {{0}};
	for (size_t g = 0; g < 2; g++)
		for (size_t s = 0; s < 2; s++)
			count[s][bb_place_slot(g, s, 2)]++;
	CHECK_INT(count[0][0], ==, 1);
	CHECK_INT(count[0][1], ==, 1);
	CHECK_INT(count[1][0], ==, 1);
	CHECK(bb_place_slot(0, 0, 2) != bb_place_slot(0, 1, 2));
	memset(count, 0, sizeof count);
	for (size_t g = 0; g < 6; g++)
		for (size_t s = 0; s < 3; s++)
			count[s][bb_place_slot(g, s, 3)]++;
	for (size_t s = 0; s < 3; s++)
		for (size_t k = 0; k < 3; k++)
			CHECK_INT(count[s][k], ==, 2);
}

TEST(placement_this_host)
{
	/* the real tree: as many online CPUs as the C library counts, each in one core */
	struct bb_topology t;
	char err[512] = "";
	CHECK_INT(bb_topology_read("/", &t, err, sizeof err), ==, 0);
	CHECK_INT(t.ncpus, ==, sysconf(_SC_NPROCESSORS_ONLN));
	unsigned n = 0;
	for (size_t i = 0; i < t.ncores; i++)
		n += bb_cpuset_count(&t.cores[i].cpus);
	CHECK_INT(n, ==, t.ncpus);
}
