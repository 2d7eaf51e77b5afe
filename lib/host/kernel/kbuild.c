/* Building a kernel from a tree; see kbuild.h. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host/bytebuf.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/image/image.h"
#include "host/kernel/gitsrc.h"
#include "host/kernel/kbuild.h"
#include "host/kernel/kconfig.h"
#include "host/runtool.h"
#include "host/strbuf.h"
#include "sha256.h"

struct kb {
	const struct bb_kbuild_opts *o;
	struct bb_kbuild_result *r;
	char src[4096]; /* what make -C builds */
	char obj[4096]; /* make O= */
	char tmp[4200]; /* the build's folder while it is made */
	char what[160]; /* for progress */
	double start;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void say(const struct kb *k, const char *fmt, ...)
{
	char line[4600];
	va_list ap;
	if (!k->o->say)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	k->o->say(k->o->ctx, line);
}

static void tick(void *ctx, unsigned s)
{
	const struct kb *k = ctx;
	say(k, "building %s: %u min %02u s so far (log: %s)", k->what, s / 60, s % 60, k->r->log);
}

static int rm_rf(const char *path)
{
	char *argv[] = {"rm", "-rf", (char *)path, NULL};
	struct bb_tool t = {.argv = argv, .out = BB_TOOL_TO_NULL};
	char err[256];
	int status;
	return bb_tool_run(&t, &status, err, sizeof(err)) || !WIFEXITED(status) ||
	               WEXITSTATUS(status)
	           ? -EIO
	           : 0;
}

/* make -C src O=obj ARGS... with its output appended to the log. 0, 1 failed (step named),
 * -EINTR, -errno. */
static int make(struct kb *k, const char *step, char *err, size_t errlen, ...)
{
	char c[4200], o[4200], j[32];
	char *argv[16] = {"make", "-C", c, o};
	size_t n = 4;
	snprintf(c, sizeof(c), "%s", k->src);
	snprintf(o, sizeof(o), "O=%s", k->obj);
	if (!strcmp(step, "make")) {
		snprintf(j, sizeof(j), "-j%d", k->o->jobs);
		argv[n++] = j;
	}
	va_list ap;
	va_start(ap, errlen);
	for (char *a; n < 15 && (a = va_arg(ap, char *));)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	FILE *log = fopen(k->r->log, "a");
	if (log) {
		fprintf(log, "\n### benchboot: step %s:", step);
		for (size_t i = 0; argv[i]; i++)
			fprintf(log, " %s", argv[i]);
		fprintf(log, "\n");
		fclose(log);
	}
	struct bb_tool t = {.argv = argv,
	                    .out = BB_TOOL_TO_LOG,
	                    .log = k->r->log,
	                    .tick = k->o->say ? tick : NULL,
	                    .tick_ctx = k,
	                    .tick_s = 60};
	int status, rc = bb_tool_run(&t, &status, err, errlen);
	if (rc)
		return rc;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)
		return bb_errbuf_fail(err, errlen, -EINTR, "the kernel build was interrupted");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
		/* make's own exit code when a child it ran was killed by Ctrl-C, too: make then
		 * says "make[N]: *** [FILE:LINE: TARGET] Interrupt" (a compiler's message that
		 * merely holds the word is a build failure, not an interrupt) */
		FILE *f = fopen(k->r->log, "r");
		char line[1024];
		int intr = 0;
		while (f && fgets(line, sizeof(line), f)) {
			size_t n = strcspn(line, "\r\n");
			line[n] = 0;
			intr |= !strncmp(line, "make", 4) && strstr(line, ": *** ") && n >= 10 &&
			        !strcmp(line + n - 10, " Interrupt");
		}
		if (f)
			fclose(f);
		if (intr)
			return bb_errbuf_fail(err, errlen, -EINTR,
			                      "the kernel build was interrupted");
	}
	snprintf(k->r->failed_step, sizeof(k->r->failed_step), "%s", step);
	return 1;
}

/* The cache key: a commit's hash, the clean tree's HEAD, or "" (built anew every time). */
static int pick_key(struct kb *k, char *err, size_t errlen)
{
	const struct bb_kbuild_opts *o = k->o;
	struct bb_kbuild_result *r = k->r;
	int rc;
	if (o->commit) {
		if (!bb_git_is_repo(o->tree))
			return bb_errbuf_fail(
			    err, errlen, -EINVAL,
			    "%s is not a git repository (the top of a work tree, or a "
			    "bare one): --commit needs one",
			    o->tree);
		if ((rc = bb_git_resolve(o->tree, o->commit, r->commit, err, errlen)))
			return rc;
	} else if (bb_git_is_tree(o->tree) && bb_git_dirty(o->tree) == 0) {
		if ((rc = bb_git_resolve(o->tree, "HEAD", r->commit, err, errlen)))
			return rc;
	}
	snprintf(r->name, sizeof(r->name), "%.12s", *r->commit ? r->commit : "tree");
	return 0;
}

/* The digest of what configures the build: the base (or "defconfig") and the fragment. */
static int config_digest(struct kb *k, char *err, size_t errlen)
{
	struct sha256 s;
	unsigned char d[SHA256_DIGEST_LEN];
	char hex[SHA256_HEX_LEN + 1];
	bb_sha256_init(&s);
	if (k->o->base_config) {
		unsigned char *data;
		size_t len;
		int rc = bb_fileio_read_all(k->o->base_config, &data, &len);
		if (rc)
			return bb_errbuf_fail(err, errlen, rc == -ENOENT ? -EINVAL : rc,
			                      "--config %s: %s", k->o->base_config, strerror(-rc));
		bb_sha256_update(&s, "base\n", 5);
		bb_sha256_update(&s, data, len);
		free(data);
	} else {
		bb_sha256_update(&s, "defconfig\n", 10);
	}
	bb_sha256_update(&s, "fragment\n", 9);
	if (k->o->fragment)
		bb_sha256_update(&s, k->o->fragment, strlen(k->o->fragment));
	bb_sha256_final(&s, d);
	bb_sha256_to_hex(d, hex);
	snprintf(k->r->config_digest, sizeof(k->r->config_digest), "%.16s", hex);
	return 0;
}

/* The folders: the kept build, the object folder, the source (a clone for a commit). */
static int pick_dirs(struct kb *k, const char *cache, char *err, size_t errlen)
{
	struct bb_kbuild_result *r = k->r;
	char real[PATH_MAX], hex[SHA256_HEX_LEN + 1];
	if (!realpath(k->o->tree, real))
		return bb_errbuf_fail(err, errlen, errno == ENOENT ? -EINVAL : -errno, "%s: %s",
		                      k->o->tree, strerror(errno));
	bb_sha256_hex(real, strlen(real), hex);
	hex[12] = 0;
	if (bb_strfmt(r->dir, sizeof(r->dir), "%s/kernels/builds/%s-%s", cache,
	              *r->commit ? r->commit : hex, r->config_digest) ||
	    bb_strfmt(k->obj, sizeof(k->obj), "%s/kernels/obj/%s-%s", cache, hex, r->config_digest))
		return bb_errbuf_fail(err, errlen, -ENAMETOOLONG, "the cache path %s is too long",
		                      cache);
	if (k->o->commit)
		snprintf(k->src, sizeof(k->src), "%s/kernels/src/%s", cache, hex);
	else
		snprintf(k->src, sizeof(k->src), "%s", real);
	return 0;
}

static void set_paths(struct bb_kbuild_result *r)
{
	snprintf(r->vmlinuz, sizeof(r->vmlinuz), "%s/vmlinuz", r->dir);
	snprintf(r->modules, sizeof(r->modules), "%s/modules/lib/modules/%s", r->dir, r->release);
	snprintf(r->log, sizeof(r->log), "%s/build.log", r->dir);
}

/* A kept build of this commit and configuration: 0 found (r filled), 1 a kept failure,
 * -ENOENT none. */
static int find_kept(struct kb *k)
{
	struct bb_kbuild_result *r = k->r;
	char p[4600];
	struct stat st;
	if (!*r->commit)
		return -ENOENT;
	snprintf(p, sizeof(p), "%s/release", r->dir);
	if (!bb_fileio_read_line(p, r->release, sizeof(r->release))) {
		set_paths(r);
		if (!stat(r->vmlinuz, &st))
			return 0;
	}
	snprintf(p, sizeof(p), "%s.failed/build.log", r->dir);
	if (!stat(p, &st)) {
		snprintf(r->log, sizeof(r->log), "%.4300s", p);
		snprintf(p, sizeof(p), "%s.failed/step", r->dir);
		if (bb_fileio_read_line(p, r->failed_step, sizeof(r->failed_step)))
			snprintf(r->failed_step, sizeof(r->failed_step), "make");
		strcat(r->dir, ".failed");
		return 1;
	}
	return -ENOENT;
}

static int configure(struct kb *k, char *err, size_t errlen)
{
	char cfg[4200];
	int rc;
	snprintf(cfg, sizeof(cfg), "%s/.config", k->obj);
	if (k->o->base_config) {
		if ((rc = bb_fileio_copy_file(k->o->base_config, cfg)))
			return bb_errbuf_fail(err, errlen, rc, "copying %s to %s: %s",
			                      k->o->base_config, cfg, strerror(-rc));
	} else if ((rc = make(k, "defconfig", err, errlen, "defconfig", NULL))) {
		return rc;
	}
	if (k->o->fragment) {
		FILE *f = fopen(cfg, "a");
		if (!f || fprintf(f, "%s", k->o->fragment) < 0 || fclose(f))
			return bb_errbuf_fail(err, errlen, -EIO,
			                      "appending the fragment to %s failed", cfg);
	}
	return make(k, "olddefconfig", err, errlen, "olddefconfig", NULL);
}

/* The fragment's lines the final .config lost, into r->config_missing. */
static void check_config(struct kb *k)
{
	char cfg[4200];
	unsigned char *data;
	size_t len;
	snprintf(cfg, sizeof(cfg), "%s/.config", k->obj);
	if (!k->o->fragment || bb_fileio_read_all(cfg, &data, &len))
		return;
	bb_kconfig_check(k->o->fragment, (char *)data, &k->r->config_missing);
	free(data);
}

static int copy_out(struct kb *k, char *err, size_t errlen)
{
	struct bb_kbuild_result *r = k->r;
	char from[4600], to[4600];
	int rc = 0;
	const char *files[][2] = {{"arch/x86/boot/bzImage", "vmlinuz"}, {".config", "config"}};
	for (size_t i = 0; !rc && i < 2; i++) {
		snprintf(from, sizeof(from), "%s/%s", k->obj, files[i][0]);
		snprintf(to, sizeof(to), "%s/%s", k->tmp, files[i][1]);
		if ((rc = bb_fileio_copy_file(from, to)))
			rc = bb_errbuf_fail(err, errlen, rc, "copying %s to %s: %s", from, to,
			                    strerror(-rc));
	}
	snprintf(to, sizeof(to), "%s/fragment", k->tmp);
	if (!rc && k->o->fragment &&
	    (rc = bb_fileio_write_file(to, k->o->fragment, strlen(k->o->fragment))))
		rc = bb_errbuf_fail(err, errlen, rc, "writing %s: %s", to, strerror(-rc));
	snprintf(to, sizeof(to), "%s/release", k->tmp);
	char line[200];
	snprintf(line, sizeof(line), "%s\n", r->release);
	if (!rc && (rc = bb_fileio_write_file(to, line, strlen(line))))
		rc = bb_errbuf_fail(err, errlen, rc, "writing %s: %s", to, strerror(-rc));
	/* the module tree stands alone: no links back into the object folder */
	for (size_t i = 0; !rc && i < 2; i++) {
		snprintf(to, sizeof(to), "%s/modules/lib/modules/%s/%s", k->tmp, r->release,
		         i ? "source" : "build");
		unlink(to);
	}
	return rc;
}

/* The build itself, into k->tmp, r->log being k->tmp/build.log. */
static int build(struct kb *k, char *err, size_t errlen)
{
	struct bb_kbuild_result *r = k->r;
	int rc;
	if (k->o->commit) {
		say(k, "checking out %s in %s", r->commit, k->src);
		if ((rc = bb_git_checkout(k->o->tree, r->commit, k->src, err, errlen)))
			return rc;
	}
	if ((rc = bb_fileio_mkdirs(k->obj)))
		return bb_errbuf_fail(err, errlen, rc, "unable to create %s: %s", k->obj,
		                      strerror(-rc));
	if ((rc = configure(k, err, errlen)))
		return rc;
	check_config(k);
	say(k, "building %s: make -j%d bzImage modules (log: %s)", k->what, k->o->jobs, r->log);
	if ((rc = make(k, "make", err, errlen, "bzImage", "modules", NULL)))
		return rc;
	struct bytebuf rel = {0};
	char c[4200], o[4200];
	snprintf(c, sizeof(c), "%s", k->src);
	snprintf(o, sizeof(o), "O=%s", k->obj);
	char *argv[] = {"make", "-s", "-C", c, o, "kernelrelease", NULL};
	struct bb_tool t = {.argv = argv, .out = BB_TOOL_CAPTURE, .captured = &rel};
	int status;
	rc = bb_tool_run(&t, &status, err, errlen);
	if (!rc && (!WIFEXITED(status) || WEXITSTATUS(status) || !rel.len || rel.len > 120)) {
		snprintf(r->failed_step, sizeof(r->failed_step), "kernelrelease");
		rc = 1;
	}
	if (!rc) {
		snprintf(r->release, sizeof(r->release), "%.*s", (int)strcspn((char *)rel.p, "\n"),
		         (char *)rel.p);
	}
	bb_bytebuf_free(&rel);
	if (rc)
		return rc;
	char mp[4300];
	snprintf(mp, sizeof(mp), "INSTALL_MOD_PATH=%s/modules", k->tmp);
	if ((rc = make(k, "modules_install", err, errlen, "INSTALL_MOD_STRIP=1", mp,
	               "modules_install", NULL)))
		return rc;
	return copy_out(k, err, errlen);
}

int bb_kernel_build(const struct bb_kbuild_opts *opts, struct bb_kbuild_result *r, char *err,
                    size_t errlen)
{
	struct bb_kbuild_opts o = *opts;
	struct kb k = {.o = &o, .r = r};
	char cache[3900];
	struct stat st;
	int rc;
	memset(r, 0, sizeof(*r));
	if (!o.tree || stat(o.tree, &st) || !S_ISDIR(st.st_mode))
		return bb_errbuf_fail(err, errlen, -EINVAL, "%s: not a folder (a kernel tree)",
		                      o.tree ? o.tree : "(none)");
	snprintf(cache, sizeof(cache), "%s/Makefile", o.tree);
	if (!o.commit && stat(cache, &st))
		return bb_errbuf_fail(err, errlen, -EINVAL, "%s has no Makefile: not a kernel tree",
		                      o.tree);
	if (o.jobs <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		o.jobs = n > 0 ? (int)n : 1;
	}
	if (o.cachedir)
		snprintf(cache, sizeof(cache), "%s", o.cachedir);
	else
		bb_image_default_cachedir(cache, sizeof(cache));
	if ((rc = pick_key(&k, err, errlen)) || (rc = config_digest(&k, err, errlen)) ||
	    (rc = pick_dirs(&k, cache, err, errlen)))
		return rc;
	snprintf(k.what, sizeof(k.what), "%s (config %s)", r->name, r->config_digest);
	if ((rc = find_kept(&k)) >= 0) {
		r->cached = 1;
		if (rc == 1)
			return bb_errbuf_fail(
			    err, errlen, 1,
			    "%s failed to build at step %s before (log: %s; remove %s "
			    "to try again)",
			    r->name, r->failed_step, r->log, r->dir);
		say(&k, "kernel %s (config %s) is built: %s", r->name, r->config_digest, r->dir);
		return 0;
	}
	snprintf(k.tmp, sizeof(k.tmp), "%s.tmp", r->dir);
	if (rm_rf(k.tmp) || (rc = bb_fileio_mkdirs(k.tmp)))
		return bb_errbuf_fail(err, errlen, rc ? rc : -EIO, "unable to create %s", k.tmp);
	snprintf(r->log, sizeof(r->log), "%s/build.log", k.tmp);
	k.start = now();
	rc = build(&k, err, errlen);
	r->seconds = now() - k.start;
	if (rc == 0) {
		rm_rf(r->dir);
		if (rename(k.tmp, r->dir))
			return bb_errbuf_fail(err, errlen, -errno, "rename %s: %s", k.tmp,
			                      strerror(errno));
		set_paths(r);
		return 0;
	}
	if (rc == 1) {
		char failed[4300], p[4600];
		snprintf(failed, sizeof(failed), "%s.failed", r->dir);
		snprintf(p, sizeof(p), "%s/step", k.tmp);
		char line[80];
		snprintf(line, sizeof(line), "%s\n", r->failed_step);
		bb_fileio_write_file(p, line, strlen(line));
		rm_rf(failed);
		if (!rename(k.tmp, failed)) {
			snprintf(r->dir, sizeof(r->dir), "%.4000s", failed);
			snprintf(r->log, sizeof(r->log), "%s/build.log", failed);
		}
		return bb_errbuf_fail(err, errlen, 1,
		                      "%s failed to build at step %s after %.0f s (log: %s)",
		                      r->name, r->failed_step, r->seconds, r->log);
	}
	rm_rf(k.tmp);
	return rc;
}

void bb_kbuild_result_free(struct bb_kbuild_result *r)
{
	bb_strv_free(&r->config_missing);
}

void bb_kbuild_missing_warning(const struct bb_kbuild_result *r, size_t i, char *out, size_t len)
{
	snprintf(out, len, "kernel %s: the fragment asks for %s; the boots may miss it", r->name,
	         i < r->config_missing.n ? r->config_missing.v[i] : "?");
}
