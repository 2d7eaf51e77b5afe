/*
 * Reading a job file (job.h): its includes expanded (jobinclude.h), its documents walked
 * (yamlwalk.c), then the jobs made as LKP makes them (document 0, and document 0 merged with
 * each later document), the `--set` overrides applied to every job, and the checks across
 * keys of each job.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "host/fileio.h"
#include "host/job/cmdline.h"
#include "host/job/expr.h"
#include "host/job/job_internal.h"
#include "host/job/jobinclude.h"
#include "host/job/monitor_options.h"
#include "host/job/rootfs.h"
#include "host/job/storage.h"
#include "host/job/suites/suite.h"
#include "sha256.h"

static int has_top(const struct bb_jdoc *d, const char *top)
{
	for (size_t i = 0; i < d->tops.n; i++)
		if (!strcmp(d->tops.v[i], top))
			return 1;
	return 0;
}

/*
 * Job i of a multi-document file, as LKP's each_jobs makes it: document 0 with document i's
 * top-level keys replacing document 0's whole values (Hash#merge! at the top level).
 */
static int merge_doc0(const struct bb_jdoc *doc0, const struct bb_jdoc *di, struct bb_jdoc *out)
{
	int rc = 0;
	memset(out, 0, sizeof *out);
	out->index = di->index;
	out->mark = di->mark;
	out->has_program = di->has_program || doc0->has_program;
	for (size_t i = 0; i < doc0->n && !rc; i++)
		if (!has_top(di, doc0->p[i].top))
			rc = job_copy_param(out, &doc0->p[i]);
	for (size_t i = 0; i < di->n && !rc; i++) {
		/* document 0's top-level option and document i's program block setting it:
		 * the block's wins, as within one document (and the other way round) */
		struct bb_jparam *old = job_doc_find(out, di->p[i].name);
		if (old && old->prog && !di->p[i].prog)
			continue;
		if (old) {
			job_param_free(old);
			*old = out->p[--out->n];
		}
		rc = job_copy_param(out, &di->p[i]);
	}
	for (size_t i = 0; i < doc0->tops.n && !rc; i++)
		if (!has_top(di, doc0->tops.v[i]))
			rc = bb_strv_add(&out->tops, doc0->tops.v[i]);
	for (size_t i = 0; i < di->tops.n && !rc; i++)
		rc = bb_strv_add(&out->tops, di->tops.v[i]);
	return rc;
}

/* Parameters keep the order of the file (by where their key is): axes expand in that order. */
static int cmp_param_pos(const void *a, const void *b)
{
	const struct bb_jparam *x = a, *y = b;
	if (x->mark.line != y->mark.line)
		return x->mark.line - y->mark.line;
	return x->mark.col - y->mark.col;
}

/* Cross-key checks on a merged document. */
/* The controllers of the limits (LKP's cgroup setups name knobs only): "memory pids". */
static int controllers_of_limits(struct bb_jdoc *d)
{
	char list[256] = "";
	struct bb_mark at = {0, 0};
	for (size_t i = 0; i < d->n; i++) {
		const char *f = d->p[i].name;
		if (strncmp(f, "cgroup.limit.", 13) || !strncmp(f + 13, "cgroup.", 7))
			continue;
		f += 13;
		char c[32];
		snprintf(c, sizeof c, "%.*s", (int)strcspn(f, "."), f);
		if (!at.line)
			at = d->p[i].mark;
		int have = 0;
		for (const char *p = list; *p && !have;) {
			size_t n = strcspn(p, " ");
			have = n == strlen(c) && !strncmp(p, c, n);
			p += n + (p[n] == ' ');
		}
		if (!have)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
			         *list ? " " : "", c);
	}
	if (!*list)
		return 0;
	struct bb_jparam *p = job_doc_slot(d);
	if (!p)
		return -ENOMEM;
	p->v = calloc(1, sizeof *p->v);
	p->name = strdup("cgroup.controllers");
	p->top = strdup("cgroup");
	if (!p->v || !p->name || !p->top || !(p->v[0].s = strdup(list))) {
		if (p->v)
			free(p->v[0].s);
		free(p->v);
		free(p->name);
		free(p->top);
		return -ENOMEM;
	}
	p->n = 1;
	p->level = BB_LEVEL_BOOT;
	p->mark = p->v[0].mark = at;
	d->n++;
	return 0;
}

/* The words of s that are no plumbing (cmdline.h), appended to out (a blank between). */
static void applied_words(const char *s, char *out, size_t len)
{
	char word[512];
	while (*s) {
		size_t n = strcspn(s, " \t");
		if (n && n < sizeof word) {
			memcpy(word, s, n);
			word[n] = 0;
			if (!bb_cmdline_plumbing(word))
				snprintf(out + strlen(out), len - strlen(out), "%s%s",
				         *out ? " " : "", word);
		}
		s += n;
		s += strspn(s, " \t");
	}
}

/*
 * The boot's kernel command line: the applied words of `kernel_cmdline:` (each value of an
 * axis), then those of `bootloader_append:`, as 0-day's boot loader put both on one line.
 * The words as written stay for check (cmdline.kernel_cmdline, cmdline.bootloader_append).
 */
static int fold_cmdline(struct bb_jdoc *d)
{
	struct bb_jparam *kp = job_doc_find(d, "kernel_cmdline");
	const struct bb_jparam *ba = bb_jdoc_get(d, "cmdline.bootloader_append");
	char line[4096];
	int rc;
	if (!kp && !ba)
		return 0;
	if (kp) {
		/* one value (every word of every value): no axis of its own */
		line[0] = 0;
		for (size_t i = 0; i < kp->n; i++)
			snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s",
			         *line ? " " : "", kp->v[i].s);
		struct bb_jparam copy = {.name = "cmdline.kernel_cmdline",
		                         .top = kp->top,
		                         .v = &(struct bb_jvalue){.s = line, .mark = kp->mark},
		                         .n = 1,
		                         .level = BB_LEVEL_INFO,
		                         .mark = kp->mark};
		if ((rc = job_copy_param(d, &copy)))
			return rc;
		/* d->p may have moved: both found again */
		kp = job_doc_find(d, "kernel_cmdline");
		ba = bb_jdoc_get(d, "cmdline.bootloader_append");
		for (size_t i = 0; i < kp->n; i++) {
			line[0] = 0;
			applied_words(kp->v[i].s, line, sizeof line);
			if (ba)
				applied_words(ba->v[0].s, line, sizeof line);
			char *t = strdup(line);
			if (!t)
				return -ENOMEM;
			free(kp->v[i].s);
			kp->v[i].s = t;
		}
		return 0;
	}
	line[0] = 0;
	applied_words(ba->v[0].s, line, sizeof line);
	if (!*line)
		return 0;
	struct bb_jparam np = {.name = "kernel_cmdline",
	                       .top = "bootloader_append",
	                       .v = &(struct bb_jvalue){.s = line, .mark = ba->mark},
	                       .n = 1,
	                       .level = BB_LEVEL_BOOT,
	                       .mark = ba->mark};
	return job_copy_param(d, &np);
}

static int check_doc(struct walker *w, const char *suite, struct bb_jdoc *d)
{
	int rc;
	if ((rc = fold_cmdline(d)))
		return rc;
	/* a rootfs whose environment benchboot does not know, when the job leaves the cgroup
	 * setup to it */
	const struct bb_jparam *rootfs = bb_jdoc_get(d, "lkp.rootfs");
	for (size_t i = 0; rootfs && !bb_jdoc_get(d, "cgroup.mode") && i < rootfs->n; i++)
		if (!bb_rootfs_find(rootfs->v[i].s)) {
			char msg[512];
			bb_rootfs_describe(rootfs->v[i].s, NULL, msg, sizeof msg);
			if ((rc = jwarn(w, job_ymark(rootfs->v[i].mark), "%s", msg)))
				return rc;
		}
	if (!bb_jdoc_get(d, "cgroup.controllers") && (rc = controllers_of_limits(d)))
		return rc;
	const struct bb_jparam *ctrls = bb_jdoc_get(d, "cgroup.controllers");
	const struct bb_jparam *mode = bb_jdoc_get(d, "cgroup.mode");
	for (size_t i = 0; i < d->n; i++) {
		const struct bb_jparam *p = &d->p[i];
		if (strncmp(p->name, "cgroup.", 7) || !strcmp(p->name, "cgroup.mode"))
			continue;
		if (!mode) {
			return jfail(w, job_ymark(p->mark), "%s: needs 'cgroup: mode:' (v1 or v2)",
			             p->name);
		}
		for (size_t k = 0; k < mode->n; k++)
			if (!strcmp(mode->v[k].s, "none")) {
				return jfail(w, job_ymark(p->mark),
				             "%s: cgroup mode none has no "
				             "controllers or limits",
				             p->name);
			}
		if (!strncmp(p->name, "cgroup.limit.", 13)) {
			const char *file_name = p->name + 13;
			size_t clen = strcspn(file_name, ".");
			char ctrl[32];
			snprintf(ctrl, sizeof ctrl, "%.*s", (int)clen, file_name);
			int found = 0;
			if (ctrls) {
				const char *s = ctrls->v[0].s;
				while (*s && !found) {
					size_t n = strcspn(s, " ");
					found = n == strlen(ctrl) && !strncmp(s, ctrl, n);
					s += n;
					s += strspn(s, " ");
				}
			}
			if (!found && strcmp(ctrl, "cgroup")) {
				return jfail(w, job_ymark(p->mark),
				             "cgroup.limits.%s: needs the %s "
				             "controller in 'controllers'",
				             file_name, ctrl);
			}
		}
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct bb_jparam *p = &d->p[i];
		if (!strncmp(p->name, "nic.", 4) && strcmp(p->name, "nic.module") &&
		    !bb_jdoc_get(d, "nic.name")) {
			return jfail(w, job_ymark(p->mark),
			             "nic.%s: needs 'name' in 'nic:' (the interface, e.g. eth0, "
			             "or its MAC address)",
			             p->name + 4);
		}
	}
	/* a two-host job's NICs and addresses are the cluster file's */
	static const char *const cluster_nic[] = {"nic.name", "nic.address", "nic.gateway",
	                                          "nic.mtu", "nic.wait"};
	for (size_t i = 0; w->job->cluster && i < sizeof cluster_nic / sizeof *cluster_nic; i++) {
		const struct bb_jparam *p = bb_jdoc_get(d, cluster_nic[i]);
		if (p)
			return jfail(
			    w, job_ymark(p->mark),
			    "%s: a two-host job's NIC and address are in its cluster file "
			    "(%s: nic, address); 'nic:' takes only module (the driver) here",
			    p->name, w->job->cluster->file);
	}
	if ((rc = bb_check_storage_doc(w, d)))
		return rc;
	const struct bb_suite *su = bb_suite_find(suite);
	if (su && su->check_doc && (rc = su->check_doc(w, d)))
		return rc;
	qsort(d->p, d->n, sizeof *d->p, cmp_param_pos);
	return 0;
}

static void set_name(struct bb_job *job, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".yaml"))
		n -= 5;
	else if (n > 4 && !strcmp(base + n - 4, ".yml"))
		n -= 4;
	job->name = strndup(base, n);
}

/* The sections an override may reach into (SECTION.KEY=VALUE); any other dotted key is one
 * key. */
static const char *const set_sections[] = {"cgroup", "cgroup2", "sysctl", "nic", "affinity", NULL};

static void doc_drop(struct bb_jdoc *d, size_t i)
{
	job_param_free(&d->p[i]);
	d->p[i] = d->p[--d->n];
}

/* One --set KEY=VALUE on every job of the file (bb_job_parse_text_set). */
static int apply_set(struct walker *w, struct bb_job *job, const char *set)
{
	const char *eq = strchr(set, '=');
	char key[128], text[2048], label[256];
	int rc = 0;
	snprintf(label, sizeof label, "--set %s", set);
	size_t kl = eq ? (size_t)(eq - set) : 0;
	int ok = kl > 0 && kl < sizeof key;
	for (size_t i = 0; ok && i < kl; i++)
		ok = isalnum((unsigned char)set[i]) || strchr("._+-", set[i]);
	if (!ok || strchr(set, '\n')) {
		snprintf(w->err, w->errlen,
		         "%s: expected KEY=VALUE (runtime=10s, netperf.send_size=4K, "
		         "nr_threads=[1, 2])",
		         label);
		return -EINVAL;
	}
	memcpy(key, set, kl);
	key[kl] = 0;
	const char *dot = strchr(key, '.');
	int nested = 0;
	for (const char *const *sec = set_sections; dot && *sec && !nested; sec++)
		nested = strlen(*sec) == (size_t)(dot - key) && !strncmp(key, *sec, dot - key);
	if (dot && !nested) { /* a suite's block: --set netperf.send_size=4K */
		char sec[128];
		snprintf(sec, sizeof sec, "%.*s", (int)(dot - key), key);
		nested = bb_suite_known(sec);
	}
	if (dot && !nested) { /* a monitor's option: --set vmstat.interval=2 */
		char mon[128];
		snprintf(mon, sizeof mon, "%.*s", (int)(dot - key), key);
		nested = bb_monitor_has_options(mon);
	}
	if (!nested && !eq[1]) { /* --set fs2=: the key taken out of the job */
		for (size_t d = 0; d < job->ndocs; d++)
			for (size_t i = job->docs[d].n; i-- > 0;)
				if (!strcmp(job->docs[d].p[i].top, key))
					doc_drop(&job->docs[d], i);
		return 0;
	}
	if (nested)
		snprintf(text, sizeof text, "%.*s:\n  %s: %s\n", (int)(dot - key), key, dot + 1,
		         eq + 1);
	else
		snprintf(text, sizeof text, "%s: %s\n", key, eq + 1);

	struct bb_jdoc ov = {0};
	yaml_parser_t parser;
	yaml_document_t yd;
	struct walker sw = *w;
	sw.file = label;
	sw.map = NULL;
	sw.doc = &ov;
	sw.yd = &yd;
	sw.top = NULL;
	sw.prog = 0;
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
	if (!yaml_parser_load(&parser, &yd)) {
		yaml_parser_delete(&parser);
		snprintf(w->err, w->errlen, "%s: not a YAML value: %s", label,
		         parser.problem ? parser.problem : "syntax error");
		return -EINVAL;
	}
	yaml_node_t *root = yaml_document_get_root_node(&yd);
	if (!root || root->type != YAML_MAPPING_NODE)
		rc = jfail(&sw, (yaml_mark_t){0}, "expected KEY=VALUE");
	else
		rc = job_walk_map(&sw, C_TOP, root);
	yaml_document_delete(&yd);
	yaml_parser_delete(&parser);
	for (size_t d = 0; d < job->ndocs && !rc; d++) {
		struct bb_jdoc *jd = &job->docs[d];
		if (!nested) /* the whole top-level key is replaced, as LKP's Hash merge does */
			for (size_t i = jd->n; i-- > 0;)
				if (!strcmp(jd->p[i].top, key))
					doc_drop(jd, i);
		for (size_t i = 0; i < ov.n && !rc; i++) {
			struct bb_jparam *old = job_doc_find(jd, ov.p[i].name);
			if (old && old->prog && !ov.p[i].prog) {
				int line;
				job_src_of(w, (size_t)old->mark.line - 1, &line);
				rc = jwarn(&sw, (yaml_mark_t){0},
				           "%s: the job's '%s' in '%s:' (line %d) wins, as in LKP: "
				           "--set %s.%s=%s replaces it",
				           ov.p[i].name, ov.p[i].name, old->top, line, job->suite,
				           ov.p[i].name, eq + 1);
				continue;
			}
			struct bb_mark at = old ? old->mark : (struct bb_mark){0, 0};
			if (old)
				doc_drop(jd, (size_t)(old - jd->p));
			if ((rc = job_copy_param(jd, &ov.p[i])))
				break;
			jd->p[jd->n - 1].mark = at;
		}
		jd->has_program |= ov.has_program;
	}
	job_doc_free(&ov);
	return rc;
}

static int parse_text(const char *path, const char *text, size_t len, const struct bb_strv *sets,
                      struct bb_job *job, char *err, size_t errlen);

int bb_job_parse_text(const char *path, const char *text, size_t len, struct bb_job *job, char *err,
                      size_t errlen)
{
	return parse_text(path, text, len, NULL, job, err, errlen);
}

int bb_job_parse_text_set(const char *path, const char *text, size_t len,
                          const struct bb_strv *sets, struct bb_job *job, char *err, size_t errlen)
{
	return parse_text(path, text, len, sets, job, err, errlen);
}

int bb_job_repeat_to(const struct bb_job *job)
{
	int most = 0;
	for (size_t d = 0; d < job->ndocs; d++) {
		const struct bb_jparam *p = bb_jdoc_get(&job->docs[d], "lkp.repeat_to");
		char *e;
		long n = p ? strtol(p->v[0].s, &e, 10) : 0;
		if (p && *e == 0 && n > most && n <= 1000)
			most = (int)n;
	}
	return most;
}

static int parse_text(const char *path, const char *text, size_t len, const struct bb_strv *sets,
                      struct bb_job *job, char *err, size_t errlen)
{
	struct bb_jdoc *docs = NULL;
	size_t ndocs = 0;
	char *suite = NULL, *xtext = NULL;
	size_t xlen;
	struct bb_srcmap map;
	struct walker w = {.file = path, .map = &map, .job = job, .err = err, .errlen = errlen};
	int rc;

	memset(job, 0, sizeof *job);
	rc = bb_job_expand_includes(path, text, len, &xtext, &xlen, &map, err, errlen);
	if (rc)
		return rc;
	/* LKP's {{ }} values become YAML strings, line for line (expr.h) */
	char *quoted;
	size_t qlen;
	if ((rc = bb_expr_quote(xtext, xlen, &quoted, &qlen))) {
		snprintf(err, errlen, "out of memory");
		free(xtext);
		bb_srcmap_free(&map);
		return rc;
	}
	free(xtext);
	xtext = quoted;
	xlen = qlen;
	rc = job_flow_depth_ok(&w, xtext, xlen);
	if (!rc)
		rc = job_load_docs(&w, xtext, xlen, &docs, &ndocs, &suite);
	if (rc)
		goto out;
	job->file = strdup(path);
	set_name(job, path);
	job->suite = suite;
	suite = NULL;
	bb_sha256_hex(xtext, xlen, job->digest);
	job->nfiledocs = ndocs;
	if (!(job->docs = calloc(ndocs, sizeof *job->docs))) {
		rc = -ENOMEM;
		goto out;
	}
	/* LKP: document 0 is a job, then document 0 + document i for every later one. A
	 * document 0 that names no program would run no benchmark in LKP: not a job here. */
	for (size_t i = 0; i < ndocs && !rc; i++) {
		if (i == 0 && ndocs > 1 && !docs[0].has_program) {
			char buf[256];
			snprintf(buf, sizeof buf,
			         "document 0 names no program (%s:): LKP would run it as a job "
			         "with no benchmark; benchboot runs only the documents after it",
			         job->suite);
			if (!(job->skipped = strdup(buf)))
				rc = -ENOMEM;
			continue;
		}
		if (i == 0) {
			rc = merge_doc0(&(struct bb_jdoc){0}, &docs[0], &job->docs[job->ndocs]);
			job->docs[job->ndocs].index = 0;
		} else {
			rc = merge_doc0(&docs[0], &docs[i], &job->docs[job->ndocs]);
		}
		job->ndocs++;
	}
	for (size_t i = 0; sets && i < sets->n && !rc; i++)
		if (!(rc = apply_set(&w, job, sets->v[i])))
			rc = bb_strv_add(&job->sets, sets->v[i]);
	for (size_t i = 0; i < job->ndocs && !rc; i++)
		rc = check_doc(&w, job->suite, &job->docs[i]);
	if (!rc && (!job->file || !job->name))
		rc = -ENOMEM;
	if (!rc) {
		job->files = map.files; /* the job takes them over */
		map.files = (struct bb_strv){0};
	}
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	for (size_t i = 0; i < ndocs; i++)
		job_doc_free(&docs[i]);
	free(docs);
	free(suite);
	free(xtext);
	bb_srcmap_free(&map);
	if (rc)
		bb_job_free(job);
	return rc;
}

int bb_job_parse_file(const char *path, struct bb_job *job, char *err, size_t errlen)
{
	return bb_job_parse_file_set(path, NULL, job, err, errlen);
}

int bb_job_parse_file_set(const char *path, const struct bb_strv *sets, struct bb_job *job,
                          char *err, size_t errlen)
{
	unsigned char *buf;
	size_t len;
	memset(job, 0, sizeof *job);
	/* the job's name is its file's, and it names the images and the results folder: refused
	 * here, as build would refuse it, before anything is read */
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t bl = strlen(base), nl = bl > 5 && !strcmp(base + bl - 5, ".yaml")  ? bl - 5
	                               : bl > 4 && !strcmp(base + bl - 4, ".yml") ? bl - 4
	                                                                          : 0;
	if (!nl) {
		snprintf(err, errlen, "%s: a job file's name ends in .yaml (or .yml): rename it",
		         path);
		return -EINVAL;
	}
	for (size_t i = 0; i < nl; i++)
		if (!isalnum((unsigned char)base[i]) || (unsigned char)base[i] >= 0x80)
			if (!strchr("._+-", base[i])) {
				snprintf(
				    err, errlen,
				    "%s: the job's name '%.*s' (its file's) must be made of "
				    "letters, digits and ._+-: it names the images and the results "
				    "folder; rename the file",
				    path, (int)nl, base);
				return -EINVAL;
			}
	int rc = bb_fileio_read_all(path, &buf, &len);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (len > (1u << 20)) {
		snprintf(err, errlen, "%s: larger than 1 MiB: not a job file", path);
		rc = -EINVAL;
	} else {
		rc = parse_text(path, (char *)buf, len, sets, job, err, errlen);
	}
	free(buf);
	return rc;
}

void bb_job_free(struct bb_job *job)
{
	for (size_t i = 0; i < job->ndocs; i++)
		job_doc_free(&job->docs[i]);
	bb_strv_free(&job->warnings);
	bb_strv_free(&job->files);
	bb_strv_free(&job->sets);
	free(job->skipped);
	free(job->docs);
	free(job->file);
	free(job->name);
	free(job->suite);
	free(job->cluster);
	memset(job, 0, sizeof *job);
}
