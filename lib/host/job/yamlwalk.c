/*
 * The walk of a job's YAML (libyaml's document API): each document, its keys looked up in the
 * key table (keys.c), flattened into parameters as LKP does (netperf's `test` is the parameter
 * `test`), so a later document overrides its header parameter by parameter. LKP's quirks are
 * taken as LKP takes them: its cgroup setups' knobs, its monitors as top-level keys, the keys
 * it knows and benchboot records (lkp.KEY), program options at the top level, keys no program
 * reads (a warning). Before libyaml sees the text, the depth of its flow collections is
 * limited.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "grow.h"
#include "host/editdist.h"
#include "host/job/job_internal.h"
#include "host/job/lkpkeys.h"
#include "host/job/monitor_options.h"
#include "host/job/suites/suite.h"
#include "parse/parse_perf.h" /* bb_monitor_known */

/*
 * A key of a mapping is a plain word. Given twice, the last one wins, as LKP's YAML reader
 * (Ruby's) takes it: LKP's jobs override an included file's key so (`<<: hackbench.yaml`, then
 * `nr_threads: 1600%`). Both in the job's own file is a warning (a slip, most likely). 0, 1
 * when a later key of the mapping overrides this one (skip it), or jfail's -EINVAL.
 */
static int check_pair_key(struct walker *w, yaml_node_t *map, yaml_node_pair_t *pair,
                          yaml_node_t **key)
{
	*key = yaml_document_get_node(w->yd, pair->key);
	if ((*key)->type != YAML_SCALAR_NODE)
		return jfail(w, (*key)->start_mark, "a key must be a plain word");
	for (yaml_node_pair_t *p = pair + 1; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *o = yaml_document_get_node(w->yd, p->key);
		if (o->type != YAML_SCALAR_NODE || strcmp(job_scalar(o), job_scalar(*key)))
			continue;
		int first_line, last_line;
		const char *first = job_src_of(w, (*key)->start_mark.line, &first_line);
		const char *last = job_src_of(w, o->start_mark.line, &last_line);
		if (strcmp(first, last))
			return 1; /* an included file's key, overridden by the job's */
		int rc = jwarn(
		    w, (*key)->start_mark,
		    "%s: given again at line %d, which wins (as LKP's YAML reader takes the last)",
		    job_scalar(*key), last_line);
		return rc ? rc : 1;
	}
	return 0;
}

/* `sysctl:` and `cgroup: limits:`: any well-formed name, a value or a list (axis). */
static int walk_free_map(struct walker *w, const struct keydef *k, const char *prefix,
                         yaml_node_t *map)
{
	int rc;
	if (job_is_null(map))
		return 0;
	if (map->type != YAML_MAPPING_NODE)
		return jfail(w, map->start_mark, "%s: expected a mapping of %s", k->key,
		             k->kind == K_SYSCTL
		                 ? "sysctl keys to values (net.core.somaxconn: 4096)"
		                 : "cgroup files to values (memory.high: 1G)");
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *key, *val = yaml_document_get_node(w->yd, pair->value);
		if ((rc = check_pair_key(w, map, pair, &key)) == 1)
			continue;
		if (rc)
			return rc;
		const char *name = job_scalar(key);
		size_t len = strlen(name);
		/* LKP's sysctl setup names sysctls sc_NAME (resolved by the init) */
		int sc = k->kind == K_SYSCTL && !strncmp(name, "sc_", 3) && len > 3;
		int ok = len > 0 && len < 100 && isalpha((unsigned char)name[0]) &&
		         (strchr(name, '.') || sc);
		for (size_t i = 0; ok && i < len; i++)
			ok = isalnum((unsigned char)name[i]) || strchr("._-", name[i]);
		if (!ok) {
			if (k->kind == K_SYSCTL)
				return jfail(w, key->start_mark,
				             "sysctl: '%s' is not a sysctl name "
				             "(dotted, as `sysctl -a` prints it: "
				             "net.sctp.prsctp_enable)",
				             name);
			return jfail(w, key->start_mark,
			             "cgroup.limits: '%s' is not a cgroup "
			             "file name (e.g. memory.high)",
			             name);
		}
		char pname[160], label[160];
		snprintf(pname, sizeof pname, "%s.%s", prefix, name);
		snprintf(label, sizeof label, "%s.%s",
		         k->kind == K_SYSCTL ? "sysctl" : "cgroup.limits", name);
		struct keydef vk = *k;
		vk.kind = K_IGNORE;
		struct bb_jvalue *v;
		size_t n;
		int axis;
		if ((rc = job_take_values(w, &vk, label, val, &v, &n, &axis)))
			return rc;
		for (size_t i = 0; i < n; i++)
			if (strchr(v[i].s, '\n')) {
				yaml_mark_t vm = val->start_mark;
				job_values_free(v, n);
				return jfail(w, vm, "%s: a value is one line", label);
			}
		if ((rc = job_add_param(w, key->start_mark, label, pname, v, n, axis, k->level)))
			return rc;
	}
	return 0;
}

static int unknown_key(struct walker *w, enum ctx ctx, yaml_node_t *key)
{
	size_t nkeys;
	const struct keydef *keys = job_key_table(&nkeys);
	if (!keys)
		return -ENOMEM;
	const char *name = job_scalar(key);
	const char *sug = NULL;
	unsigned best = 1000;
	for (size_t i = 0; i < nkeys; i++)
		if (keys[i].ctx == ctx && job_near(name, keys[i].key, &best))
			sug = keys[i].key;
	if (sug)
		return jfail(w, key->start_mark, "unknown key '%s' %s (did you mean '%s'?)", name,
		             job_ctx_name(ctx), sug);
	/* a key of other sections: say where it belongs */
	char where[256] = "";
	for (size_t i = 0; i < nkeys; i++)
		if (!strcmp(keys[i].key, name) && keys[i].ctx != ctx) {
			size_t l = strlen(where);
			snprintf(where + l, sizeof where - l, "%s%s", l ? " or " : "",
			         job_ctx_name(keys[i].ctx));
		}
	if (*where)
		return jfail(w, key->start_mark, "unknown key '%s' %s (it belongs %s)", name,
		             job_ctx_name(ctx), where);
	if (ctx == C_TOP) {
		const struct bb_suite *o = bb_suite_of_option(name);
		if (o)
			return jfail(w, key->start_mark,
			             "unknown key '%s' at the top level (%s options go in '%s:')",
			             name, o->name, o->name);
	}
	return jfail(w, key->start_mark, "unknown key '%s' %s", name, job_ctx_name(ctx));
}

static int add_one(struct walker *w, yaml_mark_t km, const char *key, const char *name,
                   const char *value, yaml_mark_t vm, enum bb_level level)
{
	struct bb_jvalue *v = calloc(1, sizeof *v);
	if (!v || !(v->s = strdup(value))) {
		free(v);
		return -ENOMEM;
	}
	v->mark = (struct bb_mark){(int)vm.line + 1, (int)vm.column + 1};
	return job_add_param(w, km, key, name, v, 1, 0, level);
}

static int add_note(struct walker *w, yaml_node_t *key, yaml_node_t *val);

/*
 * A knob of LKP's cgroup setups (`cgroup2:` knobs, or `cgroup:` with v1 knobs such as
 * memory.limit_in_bytes): the job cgroup's file FILE gets the value; a knob without a value
 * is left alone, as LKP's setup skips it. Knobs without a dot (cg_count, cg_bind, group) are
 * recorded only. The controllers come from the knobs (check_doc).
 */
static int lkp_cgroup_knob(struct walker *w, const char *where, yaml_node_t *key, yaml_node_t *val)
{
	const char *name = job_scalar(key);
	char pname[160], label[160];
	if (!strchr(name, '.'))
		return add_note(w, key, val);
	if (job_is_null(val))
		return 0;
	if (val->type != YAML_SCALAR_NODE || strchr(job_scalar(val), '\n'))
		return jfail(w, val->start_mark, "%s.%s: expected one value", where, name);
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return jfail(w, key->start_mark,
			             "%s: '%s' is not a cgroup file name (e.g. memory.high)", where,
			             name);
	snprintf(pname, sizeof pname, "cgroup.limit.%s", name);
	snprintf(label, sizeof label, "%s.%s", where, name);
	return add_one(w, key->start_mark, label, pname, job_scalar(val), val->start_mark,
	               BB_LEVEL_BOOT);
}

/* `cgroup2:` (LKP's jobs/cgroup2.yaml): cgroup v2 for the boot, the job in one cgroup with
 * these knobs. */
static int walk_cgroup2(struct walker *w, yaml_node_t *key, yaml_node_t *val)
{
	int rc;
	if (!job_is_null(val) && val->type != YAML_MAPPING_NODE)
		return jfail(w, val->start_mark,
		             "cgroup2: expected a mapping of cgroup files to values "
		             "(memory.high: 90%%)");
	if ((rc = add_one(w, key->start_mark, "cgroup2", "cgroup.mode", "v2", key->start_mark,
	                  BB_LEVEL_BOOT)))
		return rc;
	if (job_is_null(val))
		return 0;
	for (yaml_node_pair_t *pair = val->data.mapping.pairs.start;
	     pair < val->data.mapping.pairs.top; pair++) {
		yaml_node_t *k;
		if ((rc = check_pair_key(w, val, pair, &k)) == 1)
			continue;
		if (rc || (rc = lkp_cgroup_knob(w, "cgroup2", k,
		                                yaml_document_get_node(w->yd, pair->value))))
			return rc;
	}
	return 0;
}

/* A YAML value as one line: scalars as they are, [a, b], {k: v}. */
static void node_line(struct walker *w, yaml_node_t *n, char *buf, size_t len, size_t *off)
{
#define PUT(...)                                                                                   \
	do {                                                                                       \
		if (*off < len)                                                                    \
			*off += (size_t)snprintf(buf + *off, len - *off, __VA_ARGS__);             \
	} while (0)
	if (n->type == YAML_SCALAR_NODE) {
		for (const char *p = job_scalar(n); *p; p++)
			PUT("%c", *p == '\n' || *p == '\r' ? ' ' : *p);
	} else if (n->type == YAML_SEQUENCE_NODE) {
		PUT("[");
		for (yaml_node_item_t *it = n->data.sequence.items.start;
		     it < n->data.sequence.items.top; it++) {
			if (it > n->data.sequence.items.start)
				PUT(", ");
			node_line(w, yaml_document_get_node(w->yd, *it), buf, len, off);
		}
		PUT("]");
	} else if (n->type == YAML_MAPPING_NODE) {
		PUT("{");
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
		     p < n->data.mapping.pairs.top; p++) {
			if (p > n->data.mapping.pairs.start)
				PUT(", ");
			node_line(w, yaml_document_get_node(w->yd, p->key), buf, len, off);
			PUT(": ");
			node_line(w, yaml_document_get_node(w->yd, p->value), buf, len, off);
		}
		PUT("}");
	}
#undef PUT
	if (*off >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

/* An LKP key recorded, not acted on: parameter "lkp.KEY" with the value on one line. */
static int add_note(struct walker *w, yaml_node_t *key, yaml_node_t *val)
{
	char name[160], text[512];
	size_t off = 0;
	snprintf(name, sizeof name, "lkp.%s", job_scalar(key));
	for (char *p = name + 4; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			*p = '_';
	text[0] = 0;
	if (!job_is_null(val))
		node_line(w, val, text, sizeof text, &off);
	struct bb_jvalue *v = calloc(1, sizeof *v);
	if (!v || !(v->s = strdup(text))) {
		free(v);
		return -ENOMEM;
	}
	v->mark = job_mark_of(val->start_mark);
	return job_add_param(w, key->start_mark, job_scalar(key), name, v, 1, 0, BB_LEVEL_NOTE);
}

/*
 * Two LKP keys that shape the boot: `rootfs: [a, b]` is an axis, as in LKP (rootfs is one
 * of its expanded dimensions), each value a boot of its own through its environment
 * (rootfs.h); `bootloader_append:` (a list of words, or words) is recorded as a note and its
 * words kept (parameter "cmdline.bootloader_append") for the kernel command line.
 */
static int lkp_boot_key(struct walker *w, yaml_node_t *key, yaml_node_t *val)
{
	const char *name = job_scalar(key);
	struct keydef k = {C_TOP, name, NULL, K_NOTE, F_AXIS, BB_LEVEL_NOTE, C_NONE, NULL, NULL};
	struct bb_jvalue *v;
	size_t n;
	int axis, rc;
	if (!strcmp(name, "rootfs")) {
		if ((rc = job_take_values(w, &k, name, val, &v, &n, &axis)))
			return rc;
		return job_add_param(w, key->start_mark, name, "lkp.rootfs", v, n, axis,
		                     BB_LEVEL_NOTE);
	}
	if ((rc = add_note(w, key, val)))
		return rc;
	struct strwords {
		char *s;
		size_t len, cap;
	} words = {0};
	int seq = val->type == YAML_SEQUENCE_NODE;
	yaml_node_item_t *it = seq ? val->data.sequence.items.start : NULL;
	size_t count = seq ? (size_t)(val->data.sequence.items.top - it) : 1;
	for (size_t i = 0; i < count; i++) {
		yaml_node_t *e = seq ? yaml_document_get_node(w->yd, it[i]) : val;
		if (e->type != YAML_SCALAR_NODE || job_is_null(e))
			continue;
		size_t l = strlen(job_scalar(e));
		if (bb_grow(&words.s, &words.cap, words.len + l + 2, 1)) {
			free(words.s);
			return -ENOMEM;
		}
		if (words.len)
			words.s[words.len++] = ' ';
		for (const char *p = job_scalar(e); *p; p++)
			words.s[words.len++] = *p == '\n' || *p == '\t' ? ' ' : *p;
		words.s[words.len] = 0;
	}
	if (!words.len) {
		free(words.s);
		return 0;
	}
	struct bb_jvalue *jv = calloc(1, sizeof *jv);
	if (!jv) {
		free(words.s);
		return -ENOMEM;
	}
	jv->s = words.s;
	jv->mark = job_mark_of(val->start_mark);
	return job_add_param(w, key->start_mark, name, "cmdline.bootloader_append", jv, 1, 0,
	                     BB_LEVEL_INFO);
}

/*
 * One of LKP's monitors as a top-level key: `vmstat:`, or with its options (`vmstat:
 * {interval: 2}`, as in a 0-day job.yaml). The key is recorded (lkp.NAME: what turns the
 * monitor on, host/job/monitors.h); an option benchboot reads becomes the boot parameter
 * monitor.NAME.OPTION (the plan's key), a list of values an axis; an option of LKP's that
 * benchboot does not act on stays in the record; an unknown option of a monitor whose options
 * benchboot knows is a warning (LKP ignores it).
 */
static int monitor_key(struct walker *w, yaml_node_t *key, yaml_node_t *val)
{
	const char *mon = job_scalar(key);
	int rc;
	if (val->type == YAML_MAPPING_NODE && bb_monitor_has_options(mon))
		for (yaml_node_pair_t *pair = val->data.mapping.pairs.start;
		     pair < val->data.mapping.pairs.top; pair++) {
			yaml_node_t *ok, *ov = yaml_document_get_node(w->yd, pair->value);
			if ((rc = check_pair_key(w, val, pair, &ok)) == 1)
				continue;
			if (rc)
				return rc;
			const char *opt = job_scalar(ok);
			enum bb_monopt use = bb_monitor_option(mon, opt);
			char name[200], all[400];
			if (use == BB_MONOPT_UNKNOWN) {
				const char *sug = bb_monitor_option_nearest(mon, opt);
				bb_monitor_option_names(mon, all, sizeof all);
				rc = jwarn(
				    w, ok->start_mark,
				    "%s: unknown option '%s'%s%s%s; LKP's %s takes %s: ignored, "
				    "as LKP ignores it",
				    mon, opt, sug ? " (did you mean '" : "", sug ? sug : "",
				    sug ? "'?)" : "", mon, *all ? all : "no options");
				if (rc)
					return rc;
				continue;
			}
			if (use == BB_MONOPT_RECORDED)
				continue;
			snprintf(name, sizeof name, "monitor.%s.%s", mon, opt);
			enum kind kind = use == BB_MONOPT_SECONDS ? K_MONSECS
			                 : use == BB_MONOPT_DELAY ? K_MONDELAY
			                                          : K_MONTEXT;
			struct keydef k = {C_NONE,        name,   NULL, kind, F_AXIS,
			                   BB_LEVEL_BOOT, C_NONE, NULL, NULL};
			struct bb_jvalue *v;
			size_t n;
			int axis;
			snprintf(all, sizeof all, "%s.%s", mon, opt);
			if ((rc = job_take_values(w, &k, all, ov, &v, &n, &axis)))
				return rc;
			if (!bb_monitor_known(mon)) { /* checked; its monitor does not run here */
				job_values_free(v, n);
				continue;
			}
			if ((rc = job_add_param(w, ok->start_mark, all, name, v, n, axis,
			                        BB_LEVEL_BOOT)))
				return rc;
		}
	return add_note(w, key, val);
}

/* LKP's minus key `NAME-:` for one of its monitors: NAME taken out of the job (the default
 * set of category: benchmark included), recorded as lkp.NAME-. */
static int minus_monitor_key(const char *name)
{
	char base[128];
	size_t l = strlen(name);
	if (l < 2 || l >= sizeof base || name[l - 1] != '-')
		return 0;
	memcpy(base, name, l - 1);
	base[l - 1] = 0;
	return bb_monitor_is_lkp(base);
}

/*
 * A key outside a program's block that benchboot has no entry for: an LKP key it knows is
 * recorded; anything else LKP would pass to no program, so it is ignored with a warning.
 */
static int other_key(struct walker *w, enum ctx ctx, yaml_node_t *key, yaml_node_t *val)
{
	const char *name = job_scalar(key);
	if (!strcmp(name, "<<"))
		return jfail(w, key->start_mark,
		             "<<: an include inside an included file (LKP expands includes one "
		             "level deep; include that file from the job itself)");
	if (!strcmp(name, "bootloader_append") ||
	    (!strcmp(name, "rootfs") && val->type == YAML_SEQUENCE_NODE))
		return lkp_boot_key(w, key, val);
	if (ctx == C_TOP && bb_monitor_is_lkp(name))
		return monitor_key(w, key, val);
	if (ctx == C_TOP && minus_monitor_key(name))
		return add_note(w, key, val);
	if (bb_lkp_key_kind(name))
		return add_note(w, key, val);
	size_t nkeys;
	const struct keydef *keys = job_key_table(&nkeys);
	if (!keys)
		return -ENOMEM;
	const char *sug = NULL;
	unsigned best = 1000;
	for (size_t i = 0; i < nkeys; i++)
		if (keys[i].ctx == ctx && job_near(name, keys[i].key, &best))
			sug = keys[i].key;
	const char *const *po = job_prog_opts(w->suite);
	for (; po && *po; po++)
		if (job_near(name, *po, &best))
			sug = *po;
	/* a benchboot key in the wrong place, or a program's option outside its block */
	char hint[256] = "";
	for (size_t i = 0; i < nkeys && !sug; i++)
		if (!strcmp(keys[i].key, name) && keys[i].ctx != ctx) {
			size_t l = strlen(hint);
			snprintf(hint + l, sizeof hint - l, "%s%s", l ? " or " : " (it belongs ",
			         job_ctx_name(keys[i].ctx));
		}
	if (*hint)
		strncat(hint, ")", sizeof hint - strlen(hint) - 1);
	else if (!sug && bb_suite_of_option(name))
		snprintf(hint, sizeof hint, " (%s options go in '%s:')",
		         bb_suite_of_option(name)->name, bb_suite_of_option(name)->name);
	return jwarn(w, key->start_mark,
	             "unknown key '%s' %s%s%s%s%s: no program benchboot runs reads it; ignored, "
	             "as LKP ignores it",
	             name, job_ctx_name(ctx), hint, sug ? " (did you mean '" : "", sug ? sug : "",
	             sug ? "'?)" : "");
}

/* LKP reads `runtime` for netperf and `testtime` for stress-ng (default 1 s), each suite one
 * of them (its runtime_key): the other one is recorded, with a warning, and does not set the
 * duration. */
static int other_duration(struct walker *w, const struct bb_suite *suite, yaml_node_t *key,
                          yaml_node_t *val)
{
	const char *name = job_scalar(key);
	int rc = jwarn(w, key->start_mark, "%s: LKP's %s reads '%s', not '%s': recorded, not used",
	               name, w->suite, suite->runtime_key, name);
	return rc ? rc : add_note(w, key, val);
}

/* The keys of one mapping. Kept whole, though long: the order in which a key is tried (LKP's
 * comment keys, the other suite's duration, the key table, a program option at the top
 * level, then the fallbacks: stress-ng options, LKP's cgroup knobs, keys outside the table)
 * and the switch over the table's kinds read as one decision. */
/* The key table's entry for name in ctx; a loose key (the top level, a role's section) may be a
 * program option outside its block, as LKP allows (`send_size:` beside `runtime:`). NULL:
 * none. */
static const struct keydef *find_keydef(const struct walker *w, enum ctx ctx, const char *name,
                                        const struct keydef *keys, size_t nkeys)
{
	for (size_t i = 0; i < nkeys; i++)
		if (keys[i].ctx == ctx && !strcmp(keys[i].key, name))
			return &keys[i];
	int loose = ctx == C_TOP || ctx == C_SERVER || ctx == C_CLIENT;
	const char *const *opts = job_prog_opts(w->suite);
	if (!loose || !job_one_of(name, opts ? opts : (const char *const[]){NULL}))
		return NULL;
	enum ctx pc = job_suite_ctx(w->suite);
	for (size_t i = 0; i < nkeys; i++)
		if (keys[i].ctx == pc && !strcmp(keys[i].key, name))
			return &keys[i];
	return NULL;
}

/* A key the table does not have: the suite's block's own (block_other), LKP's cgroup v1 knobs
 * in `cgroup:`, a loose key of LKP's (other_key); else refused. */
static int walk_unknown(struct walker *w, enum ctx ctx, const struct bb_suite *suite,
                        yaml_node_t *key, yaml_node_t *val)
{
	const char *name = job_scalar(key);
	int rc;
	if (ctx >= C_SUITE0 && suite && ctx == job_suite_ctx(suite->name) && suite->block_other)
		return suite->block_other(w, key, val);
	/* LKP's cgroup setup (v1): knobs in `cgroup:` */
	if (ctx == C_CGROUP && (strchr(name, '.') || !strcmp(name, "cg_count") ||
	                        !strcmp(name, "cg_bind") || !strcmp(name, "group"))) {
		if ((rc = lkp_cgroup_knob(w, "cgroup", key, val)))
			return rc;
		w->lkp_v1 = 1;
		return 0;
	}
	if (ctx == C_TOP || ctx == C_SERVER || ctx == C_CLIENT)
		return other_key(w, ctx, key, val);
	return unknown_key(w, ctx, key);
}

/* A section key's mapping, walked in its own context (a program's block: w->prog). */
static int walk_section(struct walker *w, const struct keydef *k, const char *name,
                        yaml_node_t *val)
{
	if (job_is_null(val))
		return 0;
	if (val->type != YAML_MAPPING_NODE)
		return jfail(w, val->start_mark,
		             "%s: expected a mapping of keys (see docs/jobs.md)", name);
	int was = w->prog;
	w->prog |= k->sub >= C_SUITE0;
	int rc = job_walk_map(w, k->sub, val);
	w->prog = was;
	return rc;
}

/* A suite's server key (`netserver:`): no options, one empty value. */
static int walk_server(struct walker *w, const struct keydef *k, const char *name,
                       const char *pname, yaml_node_t *key, yaml_node_t *val)
{
	struct bb_jvalue *v;
	if (!job_is_null(val) && !(val->type == YAML_MAPPING_NODE &&
	                           val->data.mapping.pairs.start == val->data.mapping.pairs.top))
		return jfail(w, val->start_mark, "%s: takes no options (benchboot runs %s)", name,
		             bb_suite_find(k->suite) ? bb_suite_find(k->suite)->server_cmd
		                                     : "the server itself");
	if (!(v = calloc(1, sizeof *v)) || !(v->s = strdup(""))) {
		free(v);
		return -ENOMEM;
	}
	v->mark = job_mark_of(val->start_mark);
	return job_add_param(w, key->start_mark, name, pname, v, 1, 0, BB_LEVEL_RUN);
}

/* The value of a key the table has, by its kind. */
static int walk_known(struct walker *w, const struct keydef *k, yaml_node_t *key, yaml_node_t *val)
{
	const char *name = job_scalar(key);
	const char *pname = k->param ? k->param : k->key;
	struct bb_jvalue *v;
	size_t n;
	int axis, rc;
	if (k->kind == K_SECTION && k->sub >= C_SUITE0)
		w->doc->has_program = 1;
	switch (k->kind) {
	case K_SECTION:
		return walk_section(w, k, name, val);
	case K_SYSCTL:
		return walk_free_map(w, k, "sysctl", val);
	case K_LIMITS:
		return walk_free_map(w, k, "cgroup.limit", val);
	case K_SERVER:
		return walk_server(w, k, name, pname, key, val);
	case K_CGROUP2:
		return walk_cgroup2(w, key, val);
	case K_NETBUF:
		return add_one(w, key->start_mark, name, "net-buffer", "1", val->start_mark,
		               BB_LEVEL_RUN);
	case K_CGROUP:
		if (val->type == YAML_MAPPING_NODE) {
			w->lkp_v1 = 0;
			if ((rc = job_walk_map(w, C_CGROUP, val)))
				return rc;
			/* only LKP knobs, no mode: LKP's cgroup setup is v1 */
			if (w->lkp_v1 && !job_doc_find(w->doc, "cgroup.mode"))
				return add_one(w, key->start_mark, "cgroup", "cgroup.mode", "v1",
				               key->start_mark, BB_LEVEL_BOOT);
			return 0;
		}
		/* `cgroup: v2` or `cgroup: [v1, v2]` */
		__attribute__((fallthrough));
	default:
		if ((rc = job_take_values(w, k, name, val, &v, &n, &axis)))
			return rc;
		if (k->kind == K_IGNORE) {
			job_values_free(v, n);
			return 0;
		}
		return job_add_param(w, key->start_mark, name, pname, v, n, axis, k->level);
	}
}

int job_walk_map(struct walker *w, enum ctx ctx, yaml_node_t *map)
{
	const struct bb_suite *suite = bb_suite_find(w->suite);
	int rc;
	size_t nkeys;
	const struct keydef *keys = job_key_table(&nkeys);
	if (!keys)
		return -ENOMEM;
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *key, *val = yaml_document_get_node(w->yd, pair->value);
		if ((rc = check_pair_key(w, map, pair, &key)) == 1)
			continue;
		if (rc)
			return rc;
		const char *name = job_scalar(key);
		int loose = ctx == C_TOP || ctx == C_SERVER || ctx == C_CLIENT;
		/* LKP's comment keys: a `#! FILE` or `# ...` line after an empty line is the key
		 * :"#! FILE" in LKP (lib/job.rb load), written `:#! FILE:` when a job is dumped
		 * without turning them back into comments */
		if (loose && !strncmp(name, ":#", 2))
			continue;
		if (ctx == C_TOP) {
			if (bb_strv_add(&w->doc->tops, name))
				return -ENOMEM;
			w->top = w->doc->tops.v[w->doc->tops.n - 1];
		}
		if (loose && suite && (!strcmp(name, "testtime") || !strcmp(name, "runtime")) &&
		    strcmp(name, suite->runtime_key))
			rc = other_duration(w, suite, key, val);
		else {
			const struct keydef *k = find_keydef(w, ctx, name, keys, nkeys);
			rc = k ? walk_known(w, k, key, val) : walk_unknown(w, ctx, suite, key, val);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* Keys that only make sense in one suite, checked once the suite is known. */
static int check_suite_keys(struct walker *w, yaml_node_t *map, enum ctx ctx, const char *suite)
{
	int rc;
	size_t nkeys;
	const struct keydef *keys = job_key_table(&nkeys);
	if (!keys)
		return -ENOMEM;
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *key = yaml_document_get_node(w->yd, pair->key);
		yaml_node_t *val = yaml_document_get_node(w->yd, pair->value);
		for (size_t i = 0; i < nkeys; i++) {
			const struct keydef *k = &keys[i];
			if (k->ctx != ctx || strcmp(k->key, job_scalar(key)))
				continue;
			if (k->suite && strcmp(k->suite, suite))
				return jfail(w, key->start_mark, "%s: not part of suite %s", k->key,
				             suite);
			if (k->kind == K_SECTION && val->type == YAML_MAPPING_NODE &&
			    (rc = check_suite_keys(w, val, k->sub, suite)))
				return rc;
		}
	}
	return 0;
}

/* The suite of the file: the first `suite:` or `testcase:` of any document. */
static const char *find_suite(yaml_document_t *yds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *root = yaml_document_get_root_node(&yds[i]);
		if (!root || root->type != YAML_MAPPING_NODE)
			continue;
		for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
		     p < root->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(&yds[i], p->key);
			yaml_node_t *v = yaml_document_get_node(&yds[i], p->value);
			if (k->type == YAML_SCALAR_NODE && v->type == YAML_SCALAR_NODE &&
			    (!strcmp(job_scalar(k), "suite") || !strcmp(job_scalar(k), "testcase")))
				return job_scalar(v);
		}
	}
	return NULL;
}

/* Parse all documents, find the suite, walk each into a parameter list. */
int job_load_docs(struct walker *w, const char *text, size_t len, struct bb_jdoc **docs,
                  size_t *ndocs, char **suite)
{
	yaml_parser_t parser;
	yaml_document_t *yds = NULL;
	size_t nyds = 0, yds_cap = 0;
	int rc = 0;
	*docs = NULL;
	*ndocs = 0;
	*suite = NULL;
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	for (;;) {
		if (bb_grow(&yds, &yds_cap, nyds + 1, sizeof(*yds))) {
			rc = -ENOMEM;
			break;
		}
		if (!yaml_parser_load(&parser, &yds[nyds])) {
			jfail(w, parser.problem_mark, "YAML syntax error: %s%s%s",
			      parser.problem ? parser.problem : "unknown",
			      parser.context ? " " : "", parser.context ? parser.context : "");
			rc = -EINVAL;
			break;
		}
		if (!yaml_document_get_root_node(&yds[nyds])) {
			yaml_document_delete(&yds[nyds]);
			if (!nyds) {
				snprintf(w->err, w->errlen, "%s: empty job file", w->file);
				rc = -EINVAL;
			}
			break;
		}
		nyds++;
	}
	const char *s = rc ? NULL : find_suite(yds, nyds);
	if (!rc && s && !bb_suite_known(s))
		s = NULL; /* the walk reports it */
	w->suite = s;
	if (!rc && !(*docs = calloc(nyds ? nyds : 1, sizeof **docs)))
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < nyds; i++) {
		yaml_node_t *root = yaml_document_get_root_node(&yds[i]);
		w->yd = &yds[i];
		w->doc = &(*docs)[(*ndocs)++];
		w->doc->index = (int)i;
		w->doc->mark = job_mark_of(root->start_mark);
		w->top = NULL;
		w->prog = 0;
		if (root->type != YAML_MAPPING_NODE)
			rc = jfail(w, root->start_mark,
			           "a job document is a mapping of keys (suite: netperf, ...)");
		else
			rc = job_walk_map(w, C_TOP, root);
	}
	/* one suite per file */
	for (size_t i = 0; !rc && i < *ndocs; i++) {
		w->yd = &yds[i];
		w->doc = &(*docs)[i];
		const struct bb_jparam *sp = bb_jdoc_get(w->doc, "suite");
		if (!sp)
			continue;
		if (*suite && strcmp(*suite, sp->v[0].s))
			rc = jfail(w, job_ymark(sp->mark),
			           "suite: '%s' here, '%s' before: one job file runs one suite",
			           sp->v[0].s, *suite);
		else if (!*suite && !(*suite = strdup(sp->v[0].s)))
			rc = -ENOMEM;
	}
	if (!rc && !*suite) {
		/* a mistyped `suite:` (sutie:) is named where it is, with the key it wants */
		yaml_node_t *root = yaml_document_get_root_node(&yds[0]), *near = NULL;
		for (yaml_node_pair_t *pair = root && root->type == YAML_MAPPING_NODE
		                                  ? root->data.mapping.pairs.start
		                                  : NULL;
		     pair && pair < root->data.mapping.pairs.top && !near; pair++) {
			yaml_node_t *k = yaml_document_get_node(&yds[0], pair->key);
			if (k && k->type == YAML_SCALAR_NODE &&
			    bb_edit_distance(job_scalar(k), "suite") <= 2)
				near = k;
		}
		if (near)
			rc = jfail(w, near->start_mark,
			           "unknown key '%s' (did you mean 'suite'?), and the job has no "
			           "'suite' (benchboot runs %s)",
			           job_scalar(near), bb_suite_names());
		else
			rc = jfail(w, root ? root->start_mark : yds[0].start_mark,
			           "missing key 'suite' (benchboot runs %s)", bb_suite_names());
	}
	for (size_t i = 0; !rc && i < *ndocs; i++) {
		w->yd = &yds[i];
		w->doc = &(*docs)[i];
		rc = check_suite_keys(w, yaml_document_get_root_node(w->yd), C_TOP, *suite);
	}
	for (size_t i = 0; i < nyds; i++)
		yaml_document_delete(&yds[i]);
	free(yds);
	yaml_parser_delete(&parser);
	return rc;
}

/* How deep a job's flow collections ([ and {) may nest: LKP's jobs use two or three levels;
 * libyaml takes quadratic time on deep nesting (a 400 KB file of [ ran past 20 s). */
#define MAX_FLOW_DEPTH 32

/* The job's text before libyaml sees it: its [ and { (outside quotes and comments) nested no
 * deeper than MAX_FLOW_DEPTH, else an error at the one too deep. */
int job_flow_depth_ok(struct walker *w, const char *t, size_t len)
{
	int depth = 0;
	char quote = 0;
	yaml_mark_t m = {0, 0, 0};
	for (size_t i = 0; i < len; i++, m.index++, m.column++) {
		char c = t[i];
		if (c == '\n') {
			m.line++;
			m.column = (size_t)-1;
			quote = 0; /* a quoted scalar over lines: counted no further */
			continue;
		}
		if (quote) {
			if (c == quote)
				quote = 0;
			else if (c == '\\' && quote == '"' && i + 1 < len && t[i + 1] != '\n')
				i++, m.index++, m.column++;
			continue;
		}
		if (c == '#' && (!i || t[i - 1] == ' ' || t[i - 1] == '\t' || t[i - 1] == '\n')) {
			while (i + 1 < len && t[i + 1] != '\n')
				i++, m.index++, m.column++;
			continue;
		}
		if (c == '\'' || c == '"')
			quote = c;
		else if (c == '[' || c == '{') {
			if (++depth > MAX_FLOW_DEPTH)
				return jfail(
				    w, m,
				    "[ and { nested deeper than %d levels: not a job (LKP's "
				    "nest two or three)",
				    MAX_FLOW_DEPTH);
		} else if ((c == ']' || c == '}') && depth > 0)
			depth--;
	}
	return 0;
}
