/* LAVA job definitions (see lava.h). The YAML is written by hand: a fixed shape, every string
 * single-quoted. */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/fileio.h"
#include "host/errbuf.h"
#include "host/job/jobimage.h"
#include "host/job/matrix.h"
#include "host/job/planwrite.h"
#include "host/boot/lava.h"
#include "host/strbuf.h"
#include "sha256.h"
#include "host/boot/uki.h"

/* A YAML single-quoted scalar: quotes doubled, nothing else escaped. */
static void quoted(struct strbuf *o, const char *s)
{
	strbuf_printf(o, "'");
	for (; *s; s++)
		strbuf_printf(o, *s == '\'' ? "''" : "%c", *s);
	strbuf_printf(o, "'");
}

static void key_quoted(struct strbuf *o, const char *indent_key, const char *value)
{
	strbuf_printf(o, "%s ", indent_key);
	quoted(o, value);
	strbuf_printf(o, "\n");
}

int lava_job(enum lava_flavour flavour, const struct lava_boot *b, char **out)
{
	struct strbuf o = {0};
	char name[1024], arg[4200];
	unsigned test = b->test_minutes ? b->test_minutes : 10;

	*out = NULL;
	if (strpbrk(b->cmdline, "\"\n"))
		return -EINVAL;
	char kern[200] = "";
	if (b->kernel)
		snprintf(kern, sizeof(kern), " kernel %s", b->kernel);
	if (b->ngroups > 1)
		snprintf(name, sizeof(name), "benchboot %s boot %zu of %zu%s (%s)%s%s", b->job,
			 b->group, b->ngroups, kern, flavour == LAVA_QEMU ? "qemu" : "lab",
			 b->params && *b->params ? ": " : "", b->params ? b->params : "");
	else
		snprintf(name, sizeof(name), "benchboot %s%s (%s)", b->job, kern,
			 flavour == LAVA_QEMU ? "qemu" : "lab");

	strbuf_printf(&o, "# LAVA job definition written by benchboot: image %s, boot group %zu\n",
	              b->image, b->group);
	strbuf_printf(&o, "device_type: %s\n",
	              flavour == LAVA_QEMU ? "qemu"
	              : b->device_type     ? b->device_type
	                                   : "x86");
	key_quoted(&o, "job_name:", name);
	strbuf_printf(&o, "priority: medium\nvisibility: public\n");
	/* What `collect --lava` reads back to label the boot as `benchboot run` does. */
	strbuf_printf(&o, "metadata:\n");
	key_quoted(&o, "  benchboot.job:", b->job);
	key_quoted(&o, "  benchboot.image:", b->image);
	strbuf_printf(&o, "  benchboot.boot_group: '%zu'\n", b->group);
	if (b->kernel)
		key_quoted(&o, "  benchboot.kernel:", b->kernel);
	strbuf_printf(&o,
	              "timeouts:\n  job:\n    minutes: %u\n  action:\n    minutes: %u\n"
	              "  connection:\n    minutes: 2\n",
	              test + 20, test + 5);
	if (flavour == LAVA_QEMU) {
		strbuf_printf(
		    &o, "context:\n  arch: amd64\n  machine: pc\n  no_kvm: true\n  memory: %u\n",
		    b->memory_mb ? b->memory_mb : 1024);
		strbuf_printf(&o, "  extra_options:\n  - -smp %u\n", b->cpus ? b->cpus : 2);
	} else {
		strbuf_printf(&o, "context:\n");
		key_quoted(&o, "  extra_kernel_args:", b->cmdline);
	}
	strbuf_printf(&o, "actions:\n- deploy:\n    timeout:\n      minutes: 10\n");
	if (flavour == LAVA_QEMU) {
		strbuf_printf(&o, "    to: tmpfs\n    os: oe\n    images:\n      kernel:\n");
		snprintf(arg, sizeof(arg), "-kernel {kernel} -append \"%s\"", b->cmdline);
		key_quoted(&o, "        image_arg:", arg);
		key_quoted(&o, "        url:", b->kernel_url);
		if (b->kernel_sha256)
			strbuf_printf(&o, "        sha256sum: %s\n", b->kernel_sha256);
		strbuf_printf(&o, "      ramdisk:\n");
		key_quoted(&o, "        image_arg:", "-initrd {ramdisk}");
		key_quoted(&o, "        url:", b->ramdisk_url);
		if (b->ramdisk_sha256)
			strbuf_printf(&o, "        sha256sum: %s\n", b->ramdisk_sha256);
		strbuf_printf(&o, "- boot:\n    timeout:\n      minutes: 5\n    method: qemu\n"
		                  "    media: tmpfs\n");
	} else {
		strbuf_printf(&o, "    to: tftp\n    os: oe\n    kernel:\n");
		key_quoted(&o, "      url:", b->kernel_url);
		if (b->kernel_sha256)
			strbuf_printf(&o, "      sha256sum: %s\n", b->kernel_sha256);
		strbuf_printf(&o, "    ramdisk:\n");
		key_quoted(&o, "      url:", b->ramdisk_url);
		if (b->ramdisk_sha256)
			strbuf_printf(&o, "      sha256sum: %s\n", b->ramdisk_sha256);
		if (b->ramdisk_compression)
			strbuf_printf(&o, "      compression: %s\n", b->ramdisk_compression);
		/* The initramfs is the image as built: LAVA adds no overlay to it. */
		strbuf_printf(&o, "      install_modules: false\n      install_overlay: false\n");
		strbuf_printf(&o, "- boot:\n    timeout:\n      minutes: 10\n    method: ipxe\n"
		                  "    commands: ramdisk\n");
	}
	strbuf_printf(&o, "- test:\n    timeout:\n      minutes: %u\n    monitors:\n", test);
	strbuf_printf(&o, "    - name: benchboot\n");
	key_quoted(&o, "      start:", LAVA_START);
	key_quoted(&o, "      end:", LAVA_END);
	key_quoted(&o, "      pattern:", LAVA_PATTERN);
	strbuf_printf(&o, "      fixupdict:\n        PASS: pass\n        FAIL: fail\n");
	if (o.oom) {
		free(o.s);
		return -ENOMEM;
	}
	*out = o.s;
	return 0;
}

/* The initramfs's compression, from its first bytes (gzip unless it says otherwise). */
static const char *ramdisk_compression(const char *path)
{
	unsigned char m[4] = {0};
	FILE *f = fopen(path, "rb");
	if (!f)
		return "gz";
	size_t n = fread(m, 1, sizeof(m), f);
	fclose(f);
	if (n == 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd)
		return "zstd";
	if (n >= 6 && !memcmp(m, "0707", 4))
		return NULL;
	return "gz";
}

static char *read_line_file(const char *path)
{
	char buf[8192];
	return fileio_read_line(path, buf, sizeof(buf)) ? NULL : strdup(buf);
}

int lava_write_jobs(const char *jobpath, const struct lava_opts *opts,
		    int (*written)(const struct lava_written *w, void *ctx), void *ctx, char *err,
		    size_t errlen)
{
	struct bb_job job;
	struct bb_matrix m;
	char images[4096], path[4400], url[4400], kernel[4500], ramdisk[4500], params[4096];
	int r, ret = 0;

	/* Absolute: the file:// URLs must not depend on where LAVA runs. */
	if (!realpath(opts->images ? opts->images : "images", images))
		return errbuf_fail(err, errlen, -EINVAL,
		                   "no image directory %s: build the images first",
		                   opts->images ? opts->images : "images");
	if ((r = bb_job_parse_file(jobpath, &job, err, errlen)))
		return r == -ENOENT ? -EINVAL : r;
	if ((r = bb_matrix_expand(&job, &m, err, errlen))) {
		bb_job_free(&job);
		return r;
	}
	size_t nk = opts->nkernels ? opts->nkernels : 1;
	for (size_t bk = 0; bk < m.nboots * nk && !ret; bk++) {
		size_t b = bk / nk, k = bk % nk;
		struct bb_jobimage g;
		struct bb_matrix one = m;
		double tmin, tmax;
		char prefix[512];
		/* the image names `benchboot run --kernel NAME=...` gives: PREFIX.NAME */
		if (opts->nkernels) {
			snprintf(prefix, sizeof(prefix), "%.255s.%.127s",
			         opts->name ? opts->name : job.name, opts->kernels[k]);
			for (char *c = prefix; *c; c++)
				if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				            "._+-",
				            *c))
					*c = '_';
		}
		if ((r = bb_jobimage_group(&m, b, opts->nkernels ? prefix : opts->name, NULL, &g,
		                           err, errlen))) {
			ret = r;
			break;
		}
		one.boots = &m.boots[b];
		one.nboots = 1;
		one.nruns = m.boots[b].nruns;
		if (bb_matrix_estimate(&one, &tmin, &tmax, err, errlen))
			tmax = 3600;
		bb_plan_boot_params(&m.boots[b], params, sizeof(params));
		snprintf(path, sizeof(path), "%s/%s/cmdline", images, g.name);
		char *cmdline = read_line_file(path);
		char ksum[SHA256_HEX_LEN + 1], rsum[SHA256_HEX_LEN + 1];
		snprintf(path, sizeof(path), "%s/%s/vmlinuz", images, g.name);
		int have_kernel = !sha256_file_hex(path, ksum);
		snprintf(path, sizeof(path), "%s/%s/initrd.img", images, g.name);
		int have_ramdisk = !sha256_file_hex(path, rsum);
		struct lava_boot lb = {
			.kernel_sha256 = have_kernel ? ksum : NULL,
			.ramdisk_sha256 = have_ramdisk ? rsum : NULL,
			.job = job.name, .image = g.name, .group = b, .ngroups = m.nboots,
			.params = params, .cmdline = cmdline ? cmdline : g.cmdline,
			.ramdisk_compression = ramdisk_compression(path),
			/* TCG runs several times slower than the estimate's real machine. */
			.test_minutes = (unsigned)(tmax * 3 / 60) + 5,
			.cpus = opts->cpus, .memory_mb = opts->memory_mb,
			.device_type = opts->device_type,
			.kernel = opts->nkernels ? opts->kernels[k] : NULL,
		};
		for (int f = LAVA_QEMU; f <= LAVA_LAB && !ret; f++) {
			char *text;
			if (!(opts->flavours & (1u << f)))
				continue;
			if (f == LAVA_LAB && opts->url)
				snprintf(url, sizeof(url), "%s/%s", opts->url, g.name);
			else
				snprintf(url, sizeof(url), "file://%s/%s", images, g.name);
			snprintf(kernel, sizeof(kernel), "%s/vmlinuz", url);
			snprintf(ramdisk, sizeof(ramdisk), "%s/initrd.img", url);
			lb.kernel_url = kernel;
			lb.ramdisk_url = ramdisk;
			if ((r = lava_job((enum lava_flavour)f, &lb, &text))) {
				ret = errbuf_fail(
				    err, errlen, r,
				    r == -EINVAL ? "the command line of %s has a double quote or "
				                   "a newline: LAVA cannot pass it"
				                 : "out of memory (%s)",
				    g.name);
				break;
			}
			const char *fl = f == LAVA_QEMU ? "qemu" : "lab";
			if (opts->outdir)
				snprintf(path, sizeof(path), "%s/%s.lava-%s.yaml", opts->outdir, g.name,
					 fl);
			else
				snprintf(path, sizeof(path), "%s/%s/lava-%s.yaml", images, g.name, fl);
			char dir[4400];
			snprintf(dir, sizeof(dir), "%s", path);
			*strrchr(dir, '/') = 0;
			if (mkdir(dir, 0755) && errno != EEXIST)
				ret = errbuf_fail(err, errlen, -errno, "unable to create %s: %s", dir,
				                  strerror(errno));
			else if ((r = uki_write_file(path, text, strlen(text))))
				ret = errbuf_fail(err, errlen, r, "unable to write %s: %s", path,
				                  strerror(-r));
			else if (written) {
				struct lava_written w = {path, text, (enum lava_flavour)f, &lb, k};
				ret = written(&w, ctx);
			}
			free(text);
		}
		free(cmdline);
		bb_jobimage_free(&g);
	}
	bb_matrix_free(&m);
	bb_job_free(&job);
	return ret;
}
