/* Network boot trees for iPXE and PXELINUX (see pxe.h). */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/boot/pxe.h"
#include "host/strbuf.h"
#include "host/boot/uki.h"

static int label_ok(const char *s)
{
	if (!*s || *s == '.' || strlen(s) > 64)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._-", *s)))
			return 0;
	return 1;
}

static int mkdir_ok(const char *path)
{
	return mkdir(path, 0755) && errno != EEXIST ? -errno : 0;
}

/* The command line without a trailing newline (malloc'd), or NULL. */
static char *clean_cmdline(const char *s)
{
	char *c = strdup(s ? s : "");
	for (size_t n = c ? strlen(c) : 0; n && (c[n - 1] == '\n' || c[n - 1] == ' ');)
		c[--n] = 0;
	return c;
}

static void ipxe_boot(struct strbuf *t, const char *prefix, const char *cmdline)
{
	/* initrd= names the initramfs for the kernel's EFI stub when iPXE runs on UEFI. */
	bb_strbuf_printf(t, "kernel %svmlinuz initrd=initrd.img %s\n", prefix, cmdline);
	bb_strbuf_printf(t, "initrd %sinitrd.img\n", prefix);
	bb_strbuf_printf(t, "boot\n");
}

/* Entry i checked (its label valid and unlike those before it, its command line one line),
 * its command line cleaned into *cmdline (malloc'd). 0, or -errno with err. */
static int check_entry(const struct pxe_entry *entries, size_t i, char **cmdline, char *err,
                       size_t errlen)
{
	if (!label_ok(entries[i].label))
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "bad label '%s' (letters, digits, '.', '_', '-')",
		                      entries[i].label);
	for (size_t j = 0; j < i; j++)
		if (!strcmp(entries[i].label, entries[j].label))
			return bb_errbuf_fail(err, errlen, -EINVAL, "label '%s' given twice",
			                      entries[i].label);
	if (!(*cmdline = clean_cmdline(entries[i].cmdline)))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if (strchr(*cmdline, '\n'))
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "the command line of %s has several lines", entries[i].label);
	return 0;
}

int bb_pxe_build(const char *dir, const char *name, const struct pxe_entry *entries, size_t n,
                 char *err, size_t errlen)
{
	struct strbuf ipxe = {0}, pxelinux = {0};
	char path[4096], **cmdlines = calloc(n ? n : 1, sizeof(*cmdlines));
	int r, ret = 0;

	if (!cmdlines)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if (!n) {
		ret = bb_errbuf_fail(err, errlen, -EINVAL, "no boot entries");
		goto out_free;
	}
	for (size_t i = 0; i < n && !ret; i++)
		ret = check_entry(entries, i, &cmdlines[i], err, errlen);
	if (ret)
		goto out_free;
	snprintf(path, sizeof(path), "%s/pxelinux.cfg", dir);
	if ((r = mkdir_ok(dir)) || (r = mkdir_ok(path))) {
		ret = bb_errbuf_fail(err, errlen, r, "unable to create %s: %s", path, strerror(-r));
		goto out_free;
	}

	bb_strbuf_printf(
	    &ipxe, "#!ipxe\n# benchboot %s: kernel, initramfs and command line of each boot\n",
	    name);
	bb_strbuf_printf(&pxelinux, "# benchboot %s: PXELINUX entries, one per boot\nDEFAULT %s\n",
	                 name, entries[0].label);
	bb_strbuf_printf(&pxelinux, n > 1 ? "PROMPT 1\nTIMEOUT 50\n" : "PROMPT 0\n");
	if (n > 1) {
		bb_strbuf_printf(&ipxe, "menu benchboot %s\n", name);
		for (size_t i = 0; i < n; i++)
			bb_strbuf_printf(&ipxe, "item %s %s\n", entries[i].label,
			                 entries[i].title ? entries[i].title : entries[i].label);
		bb_strbuf_printf(&ipxe,
		                 "choose --timeout 5000 --default %s target || set target %s\n"
		                 "goto ${target}\n",
		                 entries[0].label, entries[0].label);
	}
	for (size_t i = 0; i < n; i++) {
		const struct pxe_entry *e = &entries[i];
		char prefix[128], kernel[4200], initrd[4200];
		snprintf(prefix, sizeof(prefix), n > 1 ? "%s/" : "", e->label);
		snprintf(kernel, sizeof(kernel), "%s/%svmlinuz", dir, prefix);
		snprintf(initrd, sizeof(initrd), "%s/%sinitrd.img", dir, prefix);
		if (n > 1) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->label);
			if ((r = mkdir_ok(path))) {
				ret = bb_errbuf_fail(err, errlen, r, "unable to create %s: %s",
				                     path, strerror(-r));
				goto out_free;
			}
		}
		if ((r = bb_fileio_copy_file(e->kernel, kernel)) ||
		    (r = bb_fileio_copy_file(e->initrd, initrd))) {
			ret = bb_errbuf_fail(err, errlen, r == -ENOENT ? -EINVAL : r,
			                     "unable to copy %s and %s into %s: %s", e->kernel,
			                     e->initrd, dir, strerror(-r));
			goto out_free;
		}
		if (n > 1) {
			struct strbuf one = {0};
			bb_strbuf_printf(&ipxe, ":%s\n", e->label);
			bb_strbuf_printf(&one, "#!ipxe\n# benchboot %s: boot %s\n", name, e->label);
			ipxe_boot(&one, prefix, cmdlines[i]);
			snprintf(path, sizeof(path), "%s/%s.ipxe", dir, e->label);
			r = one.oom ? -ENOMEM : bb_fileio_write_file(path, one.s, one.len);
			free(one.s);
			if (r) {
				ret = bb_errbuf_fail(err, errlen, r, "unable to write %s: %s", path,
				                     strerror(-r));
				goto out_free;
			}
		}
		ipxe_boot(&ipxe, prefix, cmdlines[i]);
		bb_strbuf_printf(&pxelinux, "\nLABEL %s\n", e->label);
		if (e->title)
			bb_strbuf_printf(&pxelinux, "  MENU LABEL %s\n", e->title);
		bb_strbuf_printf(&pxelinux,
		                 "  KERNEL %svmlinuz\n  INITRD %sinitrd.img\n  APPEND %s\n", prefix,
		                 prefix, cmdlines[i]);
	}
	if (ipxe.oom || pxelinux.oom) {
		ret = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		goto out_free;
	}
	snprintf(path, sizeof(path), "%s/boot.ipxe", dir);
	if (!(r = bb_fileio_write_file(path, ipxe.s, ipxe.len))) {
		snprintf(path, sizeof(path), "%s/pxelinux.cfg/default", dir);
		r = bb_fileio_write_file(path, pxelinux.s, pxelinux.len);
	}
	if (r)
		ret = bb_errbuf_fail(err, errlen, r, "unable to write %s: %s", path, strerror(-r));
out_free:
	for (size_t i = 0; i < n; i++)
		free(cmdlines[i]);
	free(cmdlines);
	free(ipxe.s);
	free(pxelinux.s);
	return ret;
}
