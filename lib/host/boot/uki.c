/* Unified kernel images from the systemd EFI stub (see uki.h). */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/boot/pe.h"
#include "host/boot/uki.h"

/* The default os-release text for an image (malloc'd, NULL when out of memory). */
static char *uki_osrel(const char *name, const char *id)
{
	char *s = NULL;
	if (asprintf(&s,
	             "NAME=\"benchboot\"\nID=benchboot\nPRETTY_NAME=\"benchboot %s\"\n"
	             "IMAGE_ID=%s\nIMAGE_VERSION=%.16s\n",
	             name ? name : "image", name ? name : "image", id && *id ? id : "0") < 0)
		return NULL;
	return s;
}

int bb_uki_build(const struct uki_spec *spec, const char *out, char *err, size_t errlen)
{
	uint8_t *stub = NULL, *kernel = NULL, *initrd = NULL;
	size_t stub_len, kernel_len, initrd_len;
	struct pe_image pe = {0};
	char *osrel = NULL, *cmdline = NULL;
	int r, ret = 0;

	if ((r = bb_fileio_read_all(spec->stub, &stub, &stub_len))) {
		ret = bb_errbuf_fail(err, errlen, -EINVAL, "unable to read the EFI stub %s: %s",
		                     spec->stub, strerror(-r));
		goto out_free;
	}
	if ((r = bb_fileio_read_all(spec->kernel, &kernel, &kernel_len))) {
		ret = bb_errbuf_fail(err, errlen, -EINVAL, "unable to read the kernel %s: %s",
		                     spec->kernel, strerror(-r));
		goto out_free;
	}
	/* A bzImage: "HdrS" at 0x202 (the boot protocol header the stub hands the kernel). */
	if (kernel_len < 0x210 || memcmp(kernel + 0x202, "HdrS", 4)) {
		ret = bb_errbuf_fail(err, errlen, -EINVAL, "%s is not an x86 bzImage kernel",
		                     spec->kernel);
		goto out_free;
	}
	if ((r = bb_fileio_read_all(spec->initrd, &initrd, &initrd_len))) {
		ret = bb_errbuf_fail(err, errlen, -EINVAL, "unable to read the initrd %s: %s",
		                     spec->initrd, strerror(-r));
		goto out_free;
	}
	if ((r = bb_pe_load(&pe, stub, stub_len))) {
		ret = bb_errbuf_fail(err, errlen, -EINVAL, "%s is not a usable PE image: %s",
		                     spec->stub, strerror(-r));
		goto out_free;
	}
	osrel = spec->osrel ? strdup(spec->osrel) : uki_osrel(spec->name, spec->id);
	cmdline = strdup(spec->cmdline ? spec->cmdline : "");
	if (!osrel || !cmdline) {
		ret = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t n = strlen(cmdline); n && (cmdline[n - 1] == '\n' || cmdline[n - 1] == ' ');)
		cmdline[--n] = 0;

	const struct {
		const char *name;
		const void *data;
		size_t len;
	} sections[] = {
	    {".osrel", osrel, strlen(osrel)},
	    {".cmdline", cmdline, strlen(cmdline)},
	    {".initrd", initrd, initrd_len},
	    {".linux", kernel, kernel_len},
	};
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		if ((r = bb_pe_add_section(&pe, sections[i].name, sections[i].data, sections[i].len,
		                           0))) {
			ret = bb_errbuf_fail(
			    err, errlen, -EINVAL, "unable to add %s to %s: %s", sections[i].name,
			    spec->stub,
			    r == -EEXIST    ? "the stub has that section already (is it a UKI?)"
			    : r == -ENOSPC  ? "no room for another section header"
			    : r == -ENOTSUP ? "signed stub or unknown data after its sections"
			                    : strerror(-r));
			goto out_free;
		}
	}
	bb_pe_set_timestamp(&pe, spec->timestamp);
	bb_pe_update_checksum(&pe);
	if ((r = bb_fileio_write_file(out, pe.buf, pe.len)))
		ret = bb_errbuf_fail(err, errlen, r, "unable to write %s: %s", out, strerror(-r));
out_free:
	bb_pe_free(&pe);
	free(stub);
	free(kernel);
	free(initrd);
	free(osrel);
	free(cmdline);
	return ret;
}
