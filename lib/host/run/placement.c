/* Side-by-side VMs on the host's topology; see placement.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/run/placement.h"

#define MAX_NODES 64

/* The CPU list in ROOT/sys/devices/system/PATH: 0, -ENOENT when absent, -EINVAL when bad. */
static int read_list(const char *root, const char *path, struct bb_cpuset *set)
{
	char file[512];
	snprintf(file, sizeof file, "%s/sys/devices/system/%s", root, path);
	FILE *f = fopen(file, "re");
	if (!f)
		return -errno;
	char line[4096];
	int r = fgets(line, sizeof line, f) ? bb_cpulist_parse(line, set) : -EINVAL;
	fclose(f);
	return r;
}

static int read_siblings(const char *root, unsigned cpu, struct bb_cpuset *set)
{
	static const char *const names[] = {"core_cpus_list", "thread_siblings_list"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char path[128];
		snprintf(path, sizeof path, "cpu/cpu%u/topology/%s", cpu, names[i]);
		memset(set, 0, sizeof(*set));
		int r = read_list(root, path, set);
		if (r != -ENOENT)
			return r;
	}
	memset(set, 0, sizeof(*set));
	bb_cpuset_add(set, cpu);
	return 0;
}

static void cpuset_and(struct bb_cpuset *a, const struct bb_cpuset *b)
{
	for (size_t i = 0; i < sizeof a->bits / sizeof *a->bits; i++)
		a->bits[i] &= b->bits[i];
}

static void cpuset_andnot(struct bb_cpuset *a, const struct bb_cpuset *b)
{
	for (size_t i = 0; i < sizeof a->bits / sizeof *a->bits; i++)
		a->bits[i] &= ~b->bits[i];
}

static void cpuset_or(struct bb_cpuset *a, const struct bb_cpuset *b)
{
	for (size_t i = 0; i < sizeof a->bits / sizeof *a->bits; i++)
		a->bits[i] |= b->bits[i];
}

int bb_topology_read(const char *root, struct bb_topology *t, char *err, size_t errlen)
{
	struct bb_cpuset online = {0}, seen = {0};
	int node_of[BB_CPUSET_MAX];
	memset(t, 0, sizeof(*t));
	if (!root || !strcmp(root, "/"))
		root = "";
	int r = read_list(root, "cpu/online", &online);
	if (r || !bb_cpuset_count(&online)) {
		snprintf(err, errlen, "%s/sys/devices/system/cpu/online: %s", root,
		         r ? strerror(-r) : "no online CPU");
		return r ? r : -EINVAL;
	}
	for (unsigned c = 0; c < BB_CPUSET_MAX; c++)
		node_of[c] = 0;
	struct bb_cpuset nodes_seen = {0};
	for (int n = 0; n < MAX_NODES; n++) {
		struct bb_cpuset cpus = {0};
		char path[64];
		snprintf(path, sizeof path, "node/node%d/cpulist", n);
		if (read_list(root, path, &cpus))
			continue;
		cpuset_and(&cpus, &online);
		for (unsigned c = 0; c < BB_CPUSET_MAX; c++)
			if (bb_cpuset_has(&cpus, c)) {
				node_of[c] = n;
				bb_cpuset_add(&nodes_seen, (unsigned)n);
			}
	}
	t->nnodes = bb_cpuset_count(&nodes_seen) ? (int)bb_cpuset_count(&nodes_seen) : 1;
	t->ncpus = bb_cpuset_count(&online);
	for (unsigned c = 0; c < BB_CPUSET_MAX; c++) {
		if (!bb_cpuset_has(&online, c) || bb_cpuset_has(&seen, c))
			continue;
		struct bb_core *core = &t->cores[t->ncores];
		if (t->ncores == BB_TOPO_MAX_CORES) {
			snprintf(err, errlen, "more than %d cores: not supported",
			         BB_TOPO_MAX_CORES);
			return -ERANGE;
		}
		if ((r = read_siblings(root, c, &core->cpus))) {
			snprintf(err, errlen, "CPU %u's topology: %s", c, strerror(-r));
			return r;
		}
		bb_cpuset_add(&core->cpus, c);
		cpuset_and(&core->cpus, &online);
		/* a sibling already in a core (a tree listing siblings unevenly) stays there */
		cpuset_andnot(&core->cpus, &seen);
		core->first = (int)c;
		core->node = node_of[c];
		cpuset_or(&seen, &core->cpus);
		t->ncores++;
	}
	return 0;
}

int bb_place(const struct bb_topology *t, int vms, int vcpus, struct bb_placement *p, char *err,
             size_t errlen)
{
	unsigned char used[BB_TOPO_MAX_CORES] = {0};
	memset(p, 0, sizeof(*p));
	if (vms < 1)
		vms = 1;
	if (vms > (int)(sizeof p->slots / sizeof *p->slots))
		vms = (int)(sizeof p->slots / sizeof *p->slots);
	if (vcpus < 1)
		vcpus = 1;
	if (t->ncores > 2) { /* CPU 0's core to the host */
		used[0] = 1;
		p->host = t->cores[0].cpus;
	}
	/* node by node, in the order of their lowest CPU, as many slots as fit in each */
	for (size_t start = 0; start < t->ncores && p->nslots < (size_t)vms; start++) {
		if (used[start])
			continue;
		struct bb_cpuset set = {0};
		size_t taken[BB_TOPO_MAX_CORES], ntaken = 0;
		for (size_t i = start; i < t->ncores && bb_cpuset_count(&set) < (unsigned)vcpus;
		     i++)
			if (!used[i] && t->cores[i].node == t->cores[start].node) {
				cpuset_or(&set, &t->cores[i].cpus);
				taken[ntaken++] = i;
			}
		if (bb_cpuset_count(&set) < (unsigned)vcpus)
			continue; /* the rest of this node is too small: try the next node's cores
			           */
		for (size_t i = 0; i < ntaken; i++)
			used[taken[i]] = 1;
		p->slots[p->nslots++] = set;
	}
	if (p->nslots < (size_t)vms)
		snprintf(
		    err, errlen,
		    "%d VMs of %d vCPUs need %d host CPUs in whole cores of one NUMA node each%s; "
		    "this host has %u online CPUs in %zu cores and %d nodes: %zu fit",
		    vms, vcpus, vms * vcpus, t->ncores > 2 ? ", CPU 0's core left to the host" : "",
		    t->ncpus, t->ncores, t->nnodes, p->nslots);
	return p->nslots ? 0 : -ENOSPC;
}

size_t bb_place_slot(size_t group, size_t side, size_t nslots)
{
	return nslots ? (side + group) % nslots : 0;
}
