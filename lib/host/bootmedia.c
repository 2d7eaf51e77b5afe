/* Boot media of a built image (see bootmedia.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootdisk.h"
#include "bootmedia.h"
#include "pxe.h"
#include "uki.h"

static int say(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}

uint32_t bootmedia_mtime(void)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	char *end;
	if (!s || !*s)
		return 0;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	return errno || *end || v > UINT32_MAX ? 0 : (uint32_t)v;
}

int bootmedia_make(const struct bootmedia_spec *spec, char *err, size_t errlen)
{
	char kernel[4096], initrd[4096], cmdpath[4096], stub[4096], efi[4096], out[4096];
	uint8_t *cmdline = NULL;
	size_t cmdlen;
	int r, ret = UKI_OK;

	snprintf(kernel, sizeof(kernel), "%s/vmlinuz", spec->dir);
	snprintf(initrd, sizeof(initrd), "%s/initrd.img", spec->dir);
	snprintf(cmdpath, sizeof(cmdpath), "%s/cmdline", spec->dir);
	snprintf(stub, sizeof(stub), "%s/%s", spec->sysroot, UKI_STUB_PATH);
	snprintf(efi, sizeof(efi), "%s/benchboot.efi", spec->dir);
	if ((r = uki_read_file(cmdpath, &cmdline, &cmdlen)))
		return say(err, errlen, UKI_EINPUT, "unable to read %s: %s", cmdpath, strerror(-r));
	char *text = realloc(cmdline, cmdlen + 1);
	if (!text) {
		free(cmdline);
		return say(err, errlen, UKI_ESYS, "out of memory");
	}
	text[cmdlen] = 0;

	if (spec->what & (BOOTMEDIA_UKI | BOOTMEDIA_DISK)) {
		struct uki_spec u = {.stub = stub, .kernel = kernel, .initrd = initrd,
				     .cmdline = text, .name = spec->name, .id = spec->id,
				     .timestamp = spec->mtime};
		if ((ret = uki_build(&u, efi, err, errlen)))
			goto out_free;
	}
	if (spec->what & BOOTMEDIA_DISK) {
		struct bootdisk_spec d = {.uki = efi, .seed = spec->id, .mtime = spec->mtime,
					  .results_size = spec->results_size};
		snprintf(out, sizeof(out), "%s/disk.img", spec->dir);
		if ((ret = bootdisk_build(&d, out, NULL, err, errlen)))
			goto out_free;
	}
	if (spec->what & BOOTMEDIA_PXE) {
		struct pxe_entry e = {.label = spec->name, .kernel = kernel, .initrd = initrd,
				      .cmdline = text};
		snprintf(out, sizeof(out), "%s/pxe", spec->dir);
		ret = pxe_build(out, spec->name, &e, 1, err, errlen);
	}
out_free:
	free(text);
	return ret;
}
