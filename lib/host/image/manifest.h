/*
 * The image manifest: what an image is made of, one line per entry, stored in the image at
 * /etc/benchboot/manifest and beside it as OUTDIR/NAME/manifest. Its sha256 is the image id.
 *
 *   benchboot-manifest 1
 *   kernel SIZE SHA256
 *   cmdline TEXT
 *   initrd mtime=SECONDS compress=NAME level=N [early-cpio=SHA256]
 *   MODE SIZE SHA256 /PATH        (one per entry, sorted by path)
 *
 * MODE is the octal st_mode (type and permissions). SHA256 is that of the content for a file,
 * of the target for a symlink; a directory has "-", a device node "MAJOR:MINOR". The manifest
 * does not list itself nor /etc/benchboot/image-id.
 */
#ifndef BENCHBOOT_MANIFEST_H
#define BENCHBOOT_MANIFEST_H

#include "host/image/cpio.h"
#include "sha256.h"

#define MANIFEST_PATH "etc/benchboot/manifest"
#define MANIFEST_ID_PATH "etc/benchboot/image-id"

/*
 * Write the manifest of a finished list (bb_cpio_finish) into out and its digest into id.
 * kernel: host path of the kernel (NULL: no kernel line); cmdline may be NULL; initrd: the
 * text of the initrd line (how the archive is written), or NULL.
 */
int bb_manifest_build(const struct cpio_list *l, const char *kernel, const char *cmdline,
                      const char *initrd, struct bytebuf *out, char id[SHA256_HEX_LEN + 1],
                      char *err, size_t errlen);

#endif
