/*
 * Boots side by side (`benchboot run --parallel N`): the next n boots of the run's order (A, B,
 * A, B with two kernels: an A and a B together) start at once, one thread each watching its
 * VM's console, each VM pinned to its own set of host CPUs (host/run/placement.h) and writing
 * to its own results disk. The slot of each VM rotates with the group (bb_place_slot), so over
 * the groups each side is on each set equally often. Each VM has the usual deadline and
 * silence limits and stops on an interrupt; a VM that fails or hangs is one failed boot, its
 * partners' boots count as usual. When all have ended, each boot is collected from its own
 * disk in the run's order, into the one results folder, as a boot run alone would be.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/run/runctx.h"

struct vm {
	struct run *r;
	const struct bootspec *s;
	size_t idx; /* its record */
	const char *disk;
	const struct bb_cpuset *cpus;
	struct bb_run_opts lo; /* the caller's callbacks, through the lock */
	struct bb_run_vm ctx;
	struct bb_progress p;
	struct bb_qemu_result qres;
	int qr, started;
	pthread_t th;
};

static void *vm_boot(void *arg)
{
	struct vm *v = arg;
	v->qr =
	    bb_run_qemu(v->r, v->s, &v->p, &v->r->res->recs[v->idx], v->disk, v->cpus, &v->qres);
	return NULL;
}

void bb_parallel_boot(struct run *r, const struct bootspec *const *specs, size_t n, size_t nboots)
{
	struct bb_run_result *res = r->res;
	size_t first = res->nrecs, group = r->sbs_groups++;
	struct bb_run_shared *sh = calloc(1, sizeof(*sh));
	struct vm *vms = calloc(n, sizeof(*vms));
	if (!sh || !vms) {
		free(sh);
		free(vms);
		bb_run_say(r, BB_RUN_WARN, "out of memory");
		res->recs[res->nrecs].outcome = "qemu-failed";
		res->nrecs++;
		res->system_failure = res->any_failed = 1;
		return;
	}
	pthread_mutex_init(&sh->mu, NULL);
	sh->o = r->o;
	sh->nvms = n;
	for (size_t j = 0; j < n; j++) {
		struct vm *v = &vms[j];
		size_t idx = first + j, slot = bb_place_slot(group, j, r->nslots);
		struct bb_run_record *rec = &res->recs[idx];
		v->r = r;
		v->s = specs[j];
		v->idx = idx;
		v->disk = r->disks[j];
		v->cpus = &r->place.slots[slot];
		v->ctx = (struct bb_run_vm){sh, j};
		v->lo = *r->o;
		v->lo.say = bb_run_locked_say;
		v->lo.status = r->o->status ? bb_run_locked_status : NULL;
		v->lo.ctx = &v->ctx;
		bb_run_boot_begin(r, v->s, idx, nboots, &v->lo, &v->p);
		rec->sbs = 1;
		rec->sbs_group = group;
		rec->sbs_slot = slot;
		bb_cpulist_format(v->cpus, rec->sbs_cpus, sizeof(rec->sbs_cpus));
	}
	for (size_t j = 0; j < n; j++) {
		int rc = pthread_create(&vms[j].th, NULL, vm_boot, &vms[j]);
		vms[j].started = !rc;
		if (rc) {
			vms[j].qr = -rc;
			snprintf(vms[j].qres.detail, sizeof(vms[j].qres.detail),
			         "pthread_create: %s", strerror(rc));
		}
	}
	for (size_t j = 0; j < n; j++)
		if (vms[j].started)
			pthread_join(vms[j].th, NULL);
	/* in the run's order, from here on as boots run one at a time: the record, the outcome
	 * said, the boot collected from its own disk */
	res->nrecs = first + n;
	for (size_t j = 0; j < n; j++) {
		struct vm *v = &vms[j];
		v->p.o = r->o;
		bb_run_boot_end(r, v->s, v->idx, &v->p, v->qr, &v->qres, v->disk);
	}
	bb_run_write_json(r);
	pthread_mutex_destroy(&sh->mu);
	free(sh);
	free(vms);
}
