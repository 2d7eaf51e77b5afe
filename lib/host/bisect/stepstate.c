/* The state of `benchboot bisect-step`; see stepstate.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/bisect/stepstate.h"
#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/json.h"

int bb_step_state_write(const char *dir, const struct bb_step_state *s, char *err, size_t errlen)
{
	char path[4200], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct jout w;
	if (!f)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	bb_jout_init(&w, f);
	bb_jout_obj_begin(&w);
	bb_jout_kv_str(&w, "job", s->job);
	bb_jout_key(&w, "sets");
	bb_jout_arr_begin(&w);
	for (size_t i = 0; i < s->sets.n; i++)
		bb_jout_str(&w, s->sets.v[i]);
	bb_jout_arr_end(&w);
	bb_jout_kv_str(&w, "good_name", s->good_name);
	bb_jout_kv_str(&w, "good_vmlinuz", s->good_vmlinuz);
	bb_jout_kv_str(&w, "good_modules", s->good_modules);
	bb_jout_kv_str(&w, "good_append", s->good_append);
	bb_jout_kv_str(&w, "bad_name", s->bad_name);
	bb_jout_kv_str(&w, "stat", s->stat);
	bb_jout_kv_str(&w, "images", s->images);
	bb_jout_kv_str(&w, "accel", s->accel);
	bb_jout_kv_str(&w, "config", s->config);
	bb_jout_kv_num(&w, "change", s->change);
	bb_jout_kv_num(&w, "change_lo", s->lo);
	bb_jout_kv_num(&w, "change_hi", s->hi);
	bb_jout_kv_num(&w, "alpha", s->alpha);
	bb_jout_kv_num(&w, "min_change", s->min_change);
	bb_jout_kv_int(&w, "max_boots", s->max_boots);
	bb_jout_kv_int(&w, "first_look", s->first_look);
	bb_jout_kv_int(&w, "cpus", s->cpus);
	bb_jout_kv_int(&w, "mem_mb", s->mem_mb);
	bb_jout_kv_int(&w, "parallel", s->parallel);
	bb_jout_kv_int(&w, "candidates", (long long)s->ncand);
	bb_jout_kv_int(&w, "comparisons", (long long)s->done);
	bb_jout_obj_end(&w);
	fputc('\n', f);
	if (fclose(f)) {
		free(text);
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	snprintf(path, sizeof(path), "%s/state.json", dir);
	int rc = bb_fileio_write_file(path, text, len);
	free(text);
	if (rc)
		return bb_errbuf_fail(err, errlen, rc, "unable to write %s: %s", path,
		                      strerror(-rc));
	return 0;
}

static void str(const struct jn *o, const char *key, char *out, size_t len)
{
	const struct jn *v = bb_jn_get(o, key);
	snprintf(out, len, "%s", v && v->type == JN_STR ? v->str : "");
}

static double num(const struct jn *o, const char *key, int *bad)
{
	const struct jn *v = bb_jn_get(o, key);
	if (!v || v->type != JN_NUM)
		*bad = 1;
	return v && v->type == JN_NUM ? v->num : 0;
}

int bb_step_state_read(const char *dir, struct bb_step_state *s, char *err, size_t errlen)
{
	char path[4200], msg[512];
	int bad = 0;
	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/state.json", dir);
	struct jn *o = bb_jn_parse_file(path, msg, sizeof(msg));
	if (!o)
		return errno == ENOENT
		           ? bb_errbuf_fail(
		                 err, errlen, -ENOENT,
		                 "%s: no bisection here (benchboot bisect-step JOB --init "
		                 "--state %s --good ... --bad ... first)",
		                 path, dir)
		           : bb_errbuf_fail(err, errlen, -EINVAL, "%s: %s", path, msg);
	str(o, "job", s->job, sizeof(s->job));
	str(o, "good_name", s->good_name, sizeof(s->good_name));
	str(o, "good_vmlinuz", s->good_vmlinuz, sizeof(s->good_vmlinuz));
	str(o, "good_modules", s->good_modules, sizeof(s->good_modules));
	str(o, "good_append", s->good_append, sizeof(s->good_append));
	str(o, "bad_name", s->bad_name, sizeof(s->bad_name));
	str(o, "stat", s->stat, sizeof(s->stat));
	str(o, "images", s->images, sizeof(s->images));
	str(o, "accel", s->accel, sizeof(s->accel));
	str(o, "config", s->config, sizeof(s->config));
	s->change = num(o, "change", &bad);
	s->lo = num(o, "change_lo", &bad);
	s->hi = num(o, "change_hi", &bad);
	s->alpha = num(o, "alpha", &bad);
	s->min_change = num(o, "min_change", &bad);
	s->max_boots = (int)num(o, "max_boots", &bad);
	s->first_look = (int)num(o, "first_look", &bad);
	s->cpus = (int)num(o, "cpus", &bad);
	s->mem_mb = (int)num(o, "mem_mb", &bad);
	int no_parallel = 0; /* a state written before --parallel: one VM at a time */
	s->parallel = (int)num(o, "parallel", &no_parallel);
	s->ncand = (size_t)num(o, "candidates", &bad);
	s->done = (size_t)num(o, "comparisons", &bad);
	const struct jn *sets = bb_jn_get(o, "sets");
	for (size_t i = 0; sets && sets->type == JN_ARR && i < sets->n && !bad; i++)
		if (sets->items[i]->type != JN_STR || bb_strv_add(&s->sets, sets->items[i]->str))
			bad = 1;
	bb_jn_free(o);
	if (bad || !*s->job || !*s->good_vmlinuz || !*s->stat) {
		bb_step_state_free(s);
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "%s: not a state of benchboot bisect-step (a field is missing)", path);
	}
	return 0;
}

void bb_step_state_free(struct bb_step_state *s)
{
	bb_strv_free(&s->sets);
}
