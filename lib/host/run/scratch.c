/* The VM's scratch disks: sparse files and QEMU's arguments (see scratch.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/run/scratch.h"

int bb_scratch_make(const struct bb_plan *plan, const char *outdir, size_t idx,
                    struct bb_scratch *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	if (!plan || !plan->disk_vm)
		return 0;
	int nvme = !strcmp(plan->disk_vm, "nvme");
	char dir[4300];
	snprintf(dir, sizeof dir, "%s/scratch", outdir);
	if (bb_fileio_mkdirs(dir))
		return bb_errbuf_fail(err, errlen, -errno, "unable to create %s: %s", dir,
		                      strerror(errno));
	if (strchr(dir, ','))
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "%s: a ',' in the path of a disk given to QEMU", dir);
	if (!nvme) {
		s->args[s->nargs++] = "-device";
		s->args[s->nargs++] = "virtio-scsi-pci,id=scratch";
	}
	for (size_t i = 0; i < plan->disk_devices.n && i < BB_SCRATCH_MAX; i++) {
		snprintf(s->paths[i], sizeof s->paths[i], "%s/boot%03zu-%s%zu.img", dir, idx + 1,
		         plan->disk_vm, i);
		int fd = open(s->paths[i], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || ftruncate(fd, (off_t)plan->disk_vm_bytes)) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			bb_scratch_remove(s, 0);
			return bb_errbuf_fail(err, errlen, -e, "scratch disk %s: %s", s->paths[i],
			                      strerror(e));
		}
		close(fd);
		s->n = i + 1;
		snprintf(s->drive[i], sizeof s->drive[i],
		         "file=%s,if=none,id=scratch%zu,format=raw", s->paths[i], i);
		if (nvme)
			snprintf(s->device[i], sizeof s->device[i],
			         "nvme,drive=scratch%zu,serial=benchboot%zu", i, i);
		else
			snprintf(s->device[i], sizeof s->device[i],
			         "scsi-hd,drive=scratch%zu,bus=scratch.0,rotation_rate=7200,"
			         "serial=benchboot%zu",
			         i, i);
		s->args[s->nargs++] = "-drive";
		s->args[s->nargs++] = s->drive[i];
		s->args[s->nargs++] = "-device";
		s->args[s->nargs++] = s->device[i];
	}
	s->args[s->nargs] = NULL;
	return 0;
}

void bb_scratch_remove(struct bb_scratch *s, int keep)
{
	for (size_t i = 0; i < s->n && !keep; i++)
		unlink(s->paths[i]);
	s->n = 0;
}
