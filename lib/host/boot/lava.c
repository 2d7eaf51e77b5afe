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
	bb_strbuf_printf(o, "'");
	for (; *s; s++)
		bb_strbuf_printf(o, *s == '\'' ? "''" : "%c", *s);
	bb_strbuf_printf(o, "'");
}

static void key_quoted(struct strbuf *o, const char *indent_key, const char *value)
{
	bb_strbuf_printf(o, "%s ", indent_key);
	quoted(o, value);
	bb_strbuf_printf(o, "\n");
}

/* The job's name: "benchboot JOB[ boot G of N][ kernel K] (FLAVOUR)[: PARAMS]". */
static void job_name(enum lava_flavour flavour, const struct lava_boot *b, char *name, size_t len)
{
	char kern[200] = "";
	const char *fl = flavour == LAVA_QEMU ? "qemu" : "lab";
	if (b->kernel)
		snprintf(kern, sizeof(kern), " kernel %s", b->kernel);
	if (b->ngroups > 1)
		snprintf(name, len, "benchboot %s boot %zu of %zu%s (%s%s)%s%s", b->job, b->group,
		         b->ngroups, kern, fl, b->cluster ? ", two hosts" : "",
		         b->params && *b->params ? ": " : "", b->params ? b->params : "");
	else
		snprintf(name, len, "benchboot %s%s (%s%s)", b->job, kern, fl,
		         b->cluster ? ", two hosts" : "");
}

/* A context: the QEMU device's (the test network's NIC for a two-host role), or the lab
 * machine's kernel arguments. indent: "" at the top, "      " in a multinode role. */
static void write_context(struct strbuf *o, enum lava_flavour flavour, const struct lava_boot *b,
                          const char *indent, const char *cmdline, const char *mac)
{
	char key[64];
	bb_strbuf_printf(o, "%scontext:\n", indent);
	if (flavour == LAVA_LAB) {
		snprintf(key, sizeof(key), "%s  extra_kernel_args:", indent);
		key_quoted(o, key, cmdline);
		return;
	}
	bb_strbuf_printf(o, "%s  arch: amd64\n%s  machine: pc\n%s  no_kvm: true\n%s  memory: %u\n",
	                 indent, indent, indent, indent, b->memory_mb ? b->memory_mb : 1024);
	bb_strbuf_printf(o, "%s  extra_options:\n%s  - -smp %u\n", indent, indent,
	                 b->cpus ? b->cpus : 2);
	if (mac) {
		/* the test network: a QEMU multicast socket on the loopback interface (the
		 * traffic never leaves the worker), both devices on one worker */
		bb_strbuf_printf(o,
		                 "%s  - -netdev socket,id=bbtest,mcast=230.0.0.77:%u,"
		                 "localaddr=127.0.0.1\n",
		                 indent, b->mcast_port);
		bb_strbuf_printf(o, "%s  - -device virtio-net-pci,netdev=bbtest,mac=%s\n", indent,
		                 mac);
	}
}

/* deploy, boot and test of one machine (role: a multinode role, or NULL). */
static void write_actions(struct strbuf *o, enum lava_flavour flavour, const struct lava_boot *b,
                          const char *role, const char *cmdline, unsigned test)
{
	char arg[4300], rl[64] = "";
	if (role)
		snprintf(rl, sizeof(rl), "    role:\n    - %s\n", role);
	bb_strbuf_printf(o, "- deploy:\n%s    timeout:\n      minutes: 10\n", rl);
	if (flavour == LAVA_QEMU) {
		bb_strbuf_printf(o, "    to: tmpfs\n    os: oe\n    images:\n      kernel:\n");
		snprintf(arg, sizeof(arg), "-kernel {kernel} -append \"%s\"", cmdline);
		key_quoted(o, "        image_arg:", arg);
		key_quoted(o, "        url:", b->kernel_url);
		if (b->kernel_sha256)
			bb_strbuf_printf(o, "        sha256sum: %s\n", b->kernel_sha256);
		bb_strbuf_printf(o, "      ramdisk:\n");
		key_quoted(o, "        image_arg:", "-initrd {ramdisk}");
		key_quoted(o, "        url:", b->ramdisk_url);
		if (b->ramdisk_sha256)
			bb_strbuf_printf(o, "        sha256sum: %s\n", b->ramdisk_sha256);
		bb_strbuf_printf(o,
		                 "- boot:\n%s    timeout:\n      minutes: 5\n    method: qemu\n"
		                 "    media: tmpfs\n",
		                 rl);
	} else {
		bb_strbuf_printf(o, "    to: tftp\n    os: oe\n    kernel:\n");
		key_quoted(o, "      url:", b->kernel_url);
		if (b->kernel_sha256)
			bb_strbuf_printf(o, "      sha256sum: %s\n", b->kernel_sha256);
		bb_strbuf_printf(o, "    ramdisk:\n");
		key_quoted(o, "      url:", b->ramdisk_url);
		if (b->ramdisk_sha256)
			bb_strbuf_printf(o, "      sha256sum: %s\n", b->ramdisk_sha256);
		if (b->ramdisk_compression)
			bb_strbuf_printf(o, "      compression: %s\n", b->ramdisk_compression);
		/* The initramfs is the image as built: LAVA adds no overlay to it. */
		bb_strbuf_printf(o, "      install_modules: false\n      install_overlay: false\n");
		bb_strbuf_printf(o,
		                 "- boot:\n%s    timeout:\n      minutes: 10\n    method: ipxe\n"
		                 "    commands: ramdisk\n",
		                 rl);
	}
	bb_strbuf_printf(o, "- test:\n%s    timeout:\n      minutes: %u\n    monitors:\n", rl,
	                 test);
	bb_strbuf_printf(o, "    - name: benchboot\n");
	key_quoted(o, "      start:", LAVA_START);
	key_quoted(o, "      end:", LAVA_END);
	key_quoted(o, "      pattern:", LAVA_PATTERN);
	bb_strbuf_printf(o, "      fixupdict:\n        PASS: pass\n        FAIL: fail\n");
}

/*
 * A two-host job: LAVA's multinode protocol, roles server and client (one device each, both
 * essential), each booting the same image with benchboot.role=ROLE on its command line.
 */
static void write_multinode(struct strbuf *o, enum lava_flavour flavour, const struct lava_boot *b,
                            unsigned test)
{
	static const char *const roles[] = {"server", "client"};
	const struct bb_cluster *c = b->cluster;
	char cmd[2][4200], mac[32];
	for (int i = 0; i < 2; i++) {
		char words[128];
		bb_cluster_role_args(roles[i], words, sizeof(words));
		snprintf(cmd[i], sizeof(cmd[i]), "%s %s", b->cmdline, words);
	}
	bb_strbuf_printf(o, "protocols:\n  lava-multinode:\n    roles:\n");
	for (int i = 0; i < 2; i++) {
		size_t h = i == 0 ? (size_t)c->server : (size_t)c->client;
		bb_cluster_mac(c, h, mac, sizeof(mac));
		bb_strbuf_printf(o,
		                 "      %s:\n        device_type: %s\n        count: 1\n"
		                 "        essential: true\n",
		                 roles[i],
		                 flavour == LAVA_QEMU ? "qemu"
		                 : b->device_type     ? b->device_type
		                                      : "x86");
		write_context(o, flavour, b, "        ", cmd[i], flavour == LAVA_QEMU ? mac : NULL);
	}
	bb_strbuf_printf(o, "    timeout:\n      minutes: %u\n", test);
	bb_strbuf_printf(o, "actions:\n");
	for (int i = 0; i < 2; i++)
		write_actions(o, flavour, b, roles[i], cmd[i], test);
}

int bb_lava_job(enum lava_flavour flavour, const struct lava_boot *b, char **out)
{
	struct strbuf o = {0};
	char name[1024];
	unsigned test = b->test_minutes ? b->test_minutes : 10;

	*out = NULL;
	if (strpbrk(b->cmdline, "\"\n"))
		return -EINVAL;
	job_name(flavour, b, name, sizeof(name));
	bb_strbuf_printf(&o,
	                 "# LAVA job definition written by benchboot: image %s, boot group %zu\n",
	                 b->image, b->group);
	if (!b->cluster)
		bb_strbuf_printf(&o, "device_type: %s\n",
		                 flavour == LAVA_QEMU ? "qemu"
		                 : b->device_type     ? b->device_type
		                                      : "x86");
	key_quoted(&o, "job_name:", name);
	bb_strbuf_printf(&o, "priority: medium\nvisibility: public\n");
	/* What `collect --lava` reads back to label the boot as `benchboot run` does. */
	bb_strbuf_printf(&o, "metadata:\n");
	key_quoted(&o, "  benchboot.job:", b->job);
	key_quoted(&o, "  benchboot.image:", b->image);
	bb_strbuf_printf(&o, "  benchboot.boot_group: '%zu'\n", b->group);
	if (b->kernel)
		key_quoted(&o, "  benchboot.kernel:", b->kernel);
	if (b->cluster)
		key_quoted(&o, "  benchboot.cluster:", b->cluster->name);
	bb_strbuf_printf(&o,
	                 "timeouts:\n  job:\n    minutes: %u\n  action:\n    minutes: %u\n"
	                 "  connection:\n    minutes: 2\n",
	                 test + 20, test + 5);
	if (b->cluster) {
		write_multinode(&o, flavour, b, test);
	} else {
		write_context(&o, flavour, b, "", b->cmdline, NULL);
		bb_strbuf_printf(&o, "actions:\n");
		write_actions(&o, flavour, b, NULL, b->cmdline, test);
	}
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

/* The multicast port of a two-host job's QEMU test network: from its name and boot group,
 * so two jobs on one worker are apart (20000..29999). */
static unsigned mcast_port(const char *job, size_t group)
{
	unsigned h = 2166136261u;
	for (const char *c = job; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	return 20000 + (h + (unsigned)group * 7919u) % 10000;
}

static char *read_line_file(const char *path)
{
	char buf[8192];
	return bb_fileio_read_line(path, buf, sizeof(buf)) ? NULL : strdup(buf);
}

/* One boot group's LAVA job of flavour f written (beside its image, or in opts->outdir) and
 * handed to written. 0, or -errno with err. */
static int write_flavour(enum lava_flavour f, struct lava_boot *lb, const struct lava_opts *opts,
                         const char *images, const char *image, size_t k,
                         int (*written)(const struct lava_written *w, void *ctx), void *ctx,
                         char *err, size_t errlen)
{
	char url[4400], kernel[4500], ramdisk[4500], path[4400], dir[4400], *text;
	int r, ret = 0;
	if (f == LAVA_LAB && opts->url)
		snprintf(url, sizeof(url), "%s/%s", opts->url, image);
	else
		snprintf(url, sizeof(url), "file://%s/%s", images, image);
	snprintf(kernel, sizeof(kernel), "%s/vmlinuz", url);
	snprintf(ramdisk, sizeof(ramdisk), "%s/initrd.img", url);
	lb->kernel_url = kernel;
	lb->ramdisk_url = ramdisk;
	if ((r = bb_lava_job(f, lb, &text)))
		return bb_errbuf_fail(err, errlen, r,
		                      r == -EINVAL ? "the command line of %s has a double quote or "
		                                     "a newline: LAVA cannot pass it"
		                                   : "out of memory (%s)",
		                      image);
	const char *fl = f == LAVA_QEMU ? "qemu" : "lab";
	if (opts->outdir)
		snprintf(path, sizeof(path), "%s/%s.lava-%s.yaml", opts->outdir, image, fl);
	else
		snprintf(path, sizeof(path), "%s/%s/lava-%s.yaml", images, image, fl);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = 0;
	if (mkdir(dir, 0755) && errno != EEXIST)
		ret = bb_errbuf_fail(err, errlen, -errno, "unable to create %s: %s", dir,
		                     strerror(errno));
	else if ((r = bb_fileio_write_file(path, text, strlen(text))))
		ret = bb_errbuf_fail(err, errlen, r, "unable to write %s: %s", path, strerror(-r));
	else if (written) {
		struct lava_written w = {path, text, f, lb, k};
		ret = written(&w, ctx);
	}
	free(text);
	/* the URLs were this function's */
	lb->kernel_url = lb->ramdisk_url = NULL;
	return ret;
}

int bb_lava_write_jobs(const char *jobpath, const struct lava_opts *opts,
                       int (*written)(const struct lava_written *w, void *ctx), void *ctx,
                       char *err, size_t errlen)
{
	struct bb_job job;
	struct bb_matrix m;
	char images[4096], path[4400], params[4096];
	int r, ret = 0;

	/* Absolute: the file:// URLs must not depend on where LAVA runs. */
	if (!realpath(opts->images ? opts->images : "images", images))
		return bb_errbuf_fail(err, errlen, -EINVAL,
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
				if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01"
				            "23456789"
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
		int have_kernel = !bb_sha256_file_hex(path, ksum);
		snprintf(path, sizeof(path), "%s/%s/initrd.img", images, g.name);
		int have_ramdisk = !bb_sha256_file_hex(path, rsum);
		struct lava_boot lb = {
		    .kernel_sha256 = have_kernel ? ksum : NULL,
		    .ramdisk_sha256 = have_ramdisk ? rsum : NULL,
		    .job = job.name,
		    .image = g.name,
		    .group = b,
		    .ngroups = m.nboots,
		    .params = params,
		    .cmdline = cmdline ? cmdline : g.cmdline,
		    .ramdisk_compression = ramdisk_compression(path),
		    /* TCG runs several times slower than the estimate's real machine. */
		    .test_minutes = (unsigned)(tmax * 3 / 60) + 5,
		    .cpus = opts->cpus,
		    .memory_mb = opts->memory_mb,
		    .device_type = opts->device_type,
		    .kernel = opts->nkernels ? opts->kernels[k] : NULL,
		    .cluster = job.cluster,
		    .mcast_port = mcast_port(job.name, b),
		};
		for (int f = LAVA_QEMU; f <= LAVA_LAB && !ret; f++)
			if (opts->flavours & (1u << f))
				ret = write_flavour((enum lava_flavour)f, &lb, opts, images, g.name,
				                    k, written, ctx, err, errlen);
		free(cmdline);
		bb_jobimage_free(&g);
	}
	bb_matrix_free(&m);
	bb_job_free(&job);
	return ret;
}
