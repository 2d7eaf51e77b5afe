/*
 * Where VMs that run side by side go on the host: disjoint sets of host CPUs read off the
 * host's topology (/sys/devices/system/cpu and /sys/devices/system/node), so one command
 * scales from a 2-CPU laptop to a 64-CPU lab server.
 *
 * The rules (docs/verbs/run.md, "Side by side"):
 * - a set is made of whole cores: SMT siblings are never given to two VMs, since siblings
 *   share a core's execution units and would couple the two VMs' numbers;
 * - a set never spans NUMA nodes (a VM whose memory is on one node and vCPUs on another
 *   measures the interconnect);
 * - each VM gets as many host CPUs as it has vCPUs (rounded up to whole cores) and QEMU's own
 *   threads (main loop, I/O) share its set: under TCG the vCPU threads are the busy ones;
 * - on a host with more than 2 cores the first core (CPU 0's) is left to the host: the
 *   kernel's housekeeping and benchboot itself run there.
 */
#ifndef BENCHBOOT_HOST_RUN_PLACEMENT_H
#define BENCHBOOT_HOST_RUN_PLACEMENT_H

#include <stddef.h>

#include "cpulist.h"

#define BB_TOPO_MAX_CORES 512

struct bb_core {
	struct bb_cpuset cpus; /* the online CPUs of one core (SMT siblings) */
	int node;              /* its NUMA node, 0 without a node tree */
	int first;             /* its lowest CPU */
};

struct bb_topology {
	size_t ncores;
	struct bb_core cores[BB_TOPO_MAX_CORES]; /* by lowest CPU */
	int nnodes;                              /* nodes with an online CPU */
	unsigned ncpus;                          /* online CPUs */
};

/*
 * Read the topology under root ("" or "/" for the real one, a fake tree in tests):
 * ROOT/sys/devices/system/cpu/online, each online CPU's topology/thread_siblings_list
 * (core_cpus_list on newer kernels; neither: a core of its own) and
 * ROOT/sys/devices/system/node/node*\/cpulist (none: one node). 0, or -errno with the reason
 * in err.
 */
int bb_topology_read(const char *root, struct bb_topology *t, char *err, size_t errlen);

#define BB_PLACE_MAX_SLOTS 64

struct bb_placement {
	size_t nslots; /* VMs that fit side by side, at most the number asked for */
	struct bb_cpuset slots[BB_PLACE_MAX_SLOTS]; /* the host CPUs of each */
	struct bb_cpuset host;                      /* the CPUs left to the host (may be empty) */
};

/*
 * Up to vms VMs of vcpus vCPUs each, each on its own set. Fewer slots than asked when the host
 * has not the room (the reason in err, e.g. "2 VMs of 4 vCPUs need 8 host CPUs in whole cores
 * of one node; this host has 6 online"); 0 slots is -ENOSPC. Otherwise 0.
 */
int bb_place(const struct bb_topology *t, int vms, int vcpus, struct bb_placement *p, char *err,
             size_t errlen);

/*
 * The slot of one side (0: A, 1: B, ...) of the k-th group of VMs that run together, so that
 * over the groups each side is on each slot equally often: a rotation by k.
 */
size_t bb_place_slot(size_t group, size_t side, size_t nslots);

#endif
