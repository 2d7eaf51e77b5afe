/* Boot media of a built image (see bootmedia.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/boot/bootdisk.h"
#include "host/boot/bootmedia.h"
#include "host/boot/pxe.h"
#include "host/boot/uki.h"

int bb_bootmedia_make(const struct bootmedia_spec *spec, char *err, size_t errlen)
{
	char kernel[4096], initrd[4096], cmdpath[4096], stub[4096], efi[4096], out[4096];
	uint8_t *cmdline = NULL;
	size_t cmdlen;
	int r, ret = 0;

	snprintf(kernel, sizeof(kernel), "%s/vmlinuz", spec->dir);
	snprintf(initrd, sizeof(initrd), "%s/initrd.img", spec->dir);
	snprintf(cmdpath, sizeof(cmdpath), "%s/cmdline", spec->dir);
	snprintf(stub, sizeof(stub), "%s/%s", spec->sysroot, UKI_STUB_PATH);
	snprintf(efi, sizeof(efi), "%s/benchboot.efi", spec->dir);
	if ((r = bb_fileio_read_all(cmdpath, &cmdline, &cmdlen)))
		return bb_errbuf_fail(err, errlen, -EINVAL, "unable to read %s: %s", cmdpath,
		                      strerror(-r));
	char *text = realloc(cmdline, cmdlen + 1);
	if (!text) {
		free(cmdline);
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	text[cmdlen] = 0;

	if (spec->what & (BOOTMEDIA_UKI | BOOTMEDIA_DISK)) {
		struct uki_spec u = {.stub = stub,
		                     .kernel = kernel,
		                     .initrd = initrd,
		                     .cmdline = text,
		                     .name = spec->name,
		                     .id = spec->id,
		                     .timestamp = spec->mtime};
		if ((ret = bb_uki_build(&u, efi, err, errlen)))
			goto out_free;
	}
	if (spec->what & BOOTMEDIA_DISK) {
		struct bootdisk_spec d = {.uki = efi,
		                          .seed = spec->id,
		                          .mtime = spec->mtime,
		                          .results_size = spec->results_size};
		snprintf(out, sizeof(out), "%s/disk.img", spec->dir);
		if ((ret = bb_bootdisk_build(&d, out, NULL, err, errlen)))
			goto out_free;
	}
	if (spec->what & BOOTMEDIA_PXE) {
		struct pxe_entry e = {
		    .label = spec->name, .kernel = kernel, .initrd = initrd, .cmdline = text};
		snprintf(out, sizeof(out), "%s/pxe", spec->dir);
		ret = bb_pxe_build(out, spec->name, &e, 1, err, errlen);
	}
out_free:
	free(text);
	return ret;
}

int bb_bootmedia_pxe_groups(const char *const *dirs, size_t n, const char *out, const char *name,
                            char *err, size_t errlen)
{
	struct pxe_entry *e = calloc(n ? n : 1, sizeof(*e));
	char **paths = calloc(n ? 3 * n : 1, sizeof(*paths));
	char **titles = calloc(n ? n : 1, sizeof(*titles));
	int ret = 0;

	if (!e || !paths || !titles) {
		ret = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < n; i++) {
		const char *slash = strrchr(dirs[i], '/');
		uint8_t *cmdline;
		size_t len;
		int r;
		if (asprintf(&paths[3 * i], "%s/vmlinuz", dirs[i]) < 0 ||
		    asprintf(&paths[3 * i + 1], "%s/initrd.img", dirs[i]) < 0) {
			ret = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
			goto out_free;
		}
		char cmdpath[4096];
		snprintf(cmdpath, sizeof(cmdpath), "%s/cmdline", dirs[i]);
		if ((r = bb_fileio_read_all(cmdpath, &cmdline, &len))) {
			ret = bb_errbuf_fail(err, errlen, -EINVAL, "unable to read %s: %s", cmdpath,
			                     strerror(-r));
			goto out_free;
		}
		/* The group, also on the command line: the plan has the same boot.group, and the
		 * line shows which group a boot was in /proc/cmdline and env.json. */
		while (len && (cmdline[len - 1] == '\n' || cmdline[len - 1] == ' '))
			len--;
		int has = memmem(cmdline, len, "benchboot.boot.group=", 21) != NULL;
		r = has ? asprintf(&paths[3 * i + 2], "%.*s", (int)len, (char *)cmdline)
		        : asprintf(&paths[3 * i + 2], "%.*s benchboot.boot.group=%zu", (int)len,
		                   (char *)cmdline, i);
		free(cmdline);
		if (r < 0) {
			paths[3 * i + 2] = NULL;
			ret = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
			goto out_free;
		}
		if (asprintf(&titles[i], "boot group %zu: %s", i, slash ? slash + 1 : dirs[i]) <
		    0) {
			titles[i] = NULL;
			ret = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
			goto out_free;
		}
		e[i] = (struct pxe_entry){.label = slash ? slash + 1 : dirs[i],
		                          .title = titles[i],
		                          .kernel = paths[3 * i],
		                          .initrd = paths[3 * i + 1],
		                          .cmdline = paths[3 * i + 2]};
	}
	ret = bb_pxe_build(out, name, e, n, err, errlen);
out_free:
	for (size_t i = 0; paths && i < 3 * n; i++)
		free(paths[i]);
	for (size_t i = 0; titles && i < n; i++)
		free(titles[i]);
	free(paths);
	free(titles);
	free(e);
	return ret;
}
