/* The image manifest; see manifest.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "host/strbuf.h"
#include "host/errbuf.h"
#include "host/image/manifest.h"

static int append(struct bytebuf *out, const char *s)
{
	return bb_bytebuf_append(out, s, strlen(s));
}

int bb_manifest_build(const struct cpio_list *l, const char *kernel, const char *cmdline,
                      const char *initrd, struct bytebuf *out, char id[SHA256_HEX_LEN + 1],
                      char *err, size_t errlen)
{
	static const unsigned type_bits[] = {S_IFREG, S_IFDIR, S_IFLNK, 0};
	char line[8192], hex[SHA256_HEX_LEN + 1];
	size_t start = out->len;

	if (append(out, "benchboot-manifest 1\n"))
		goto out_nomem;
	if (kernel) {
		struct stat st;
		if (stat(kernel, &st) < 0 || bb_sha256_file_hex(kernel, hex) < 0)
			return bb_errbuf_fail(err, errlen, errno == ENOENT ? -EINVAL : -errno,
			                      "unable to read kernel %s: %s", kernel,
			                      strerror(errno));
		bb_strfmt(line, sizeof(line), "kernel %lld %s\n", (long long)st.st_size, hex);
		if (append(out, line))
			goto out_nomem;
	}
	if (cmdline) {
		if (strchr(cmdline, '\n'))
			return bb_errbuf_fail(err, errlen, -EINVAL,
			                      "the kernel command line has a newline");
		if (append(out, "cmdline ") || append(out, cmdline) || append(out, "\n"))
			goto out_nomem;
	}
	if (initrd && (append(out, "initrd ") || append(out, initrd) || append(out, "\n")))
		goto out_nomem;
	for (size_t i = 0; i < l->n; i++) {
		const struct cpio_entry *e = &l->v[i];
		if (!strcmp(e->path, MANIFEST_PATH) || !strcmp(e->path, MANIFEST_ID_PATH))
			continue;
		if (strchr(e->path, '\n'))
			return bb_errbuf_fail(err, errlen, -EINVAL,
			                      "image path with a newline (from %s)", e->origin);
		unsigned mode = e->mode | type_bits[e->type];
		char third[SHA256_HEX_LEN + 1];
		switch (e->type) {
		case CPIO_FILE:
		case CPIO_SLINK:
			bb_sha256_to_hex(e->sha, third);
			break;
		case CPIO_DIR:
			strcpy(third, "-");
			break;
		case CPIO_NOD:
			mode = e->mode | (e->nodtype == 'c' ? S_IFCHR : S_IFBLK);
			bb_strfmt(third, sizeof(third), "%u:%u", e->rmajor, e->rminor);
			break;
		}
		size_t size = e->type == CPIO_FILE || e->type == CPIO_SLINK ? e->size : 0;
		if (bb_strfmt(line, sizeof(line), "%06o %zu %s /%s\n", mode, size, third, e->path))
			return bb_errbuf_fail(err, errlen, -EINVAL, "image path too long: /%s",
			                      e->path);
		if (append(out, line))
			goto out_nomem;
	}
	bb_sha256_hex(out->p + start, out->len - start, id);
	return 0;
out_nomem:
	return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
}
