/*
 * A job document's parameter list (struct bb_jdoc, job.h): finding, adding (one definition per
 * document; a program's block wins over the top level, as in LKP), copying and freeing
 * parameters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "host/job/job_internal.h"

struct bb_jparam *job_doc_find(struct bb_jdoc *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->p[i].name, name))
			return &d->p[i];
	return NULL;
}

const struct bb_jparam *bb_jdoc_get(const struct bb_jdoc *d, const char *name)
{
	return job_doc_find((struct bb_jdoc *)d, name);
}

void job_param_free(struct bb_jparam *p)
{
	job_values_free(p->v, p->n);
	free(p->name);
	free(p->top);
}

void job_doc_free(struct bb_jdoc *d)
{
	for (size_t i = 0; i < d->n; i++)
		job_param_free(&d->p[i]);
	free(d->p);
	d->p = NULL;
	d->n = d->cap = 0;
	bb_strv_free(&d->tops);
}

/* Room for one more parameter in d: the new slot (d->p[d->n]), zeroed, or NULL. The caller
 * fills it and counts it (d->n++) when it is whole. */
struct bb_jparam *job_doc_slot(struct bb_jdoc *d)
{
	if (bb_grow(&d->p, &d->cap, d->n + 1, sizeof(*d->p)))
		return NULL;
	memset(&d->p[d->n], 0, sizeof(d->p[d->n]));
	return &d->p[d->n];
}

/* Add a parameter taking ownership of v; a second definition in one document is an error. */
int job_add_param(struct walker *w, yaml_mark_t km, const char *key, const char *name,
                  struct bb_jvalue *v, size_t n, int axis, enum bb_level level)
{
	struct bb_jparam *old = job_doc_find(w->doc, name);
	int rc = 0, oline;
	if (old)
		job_src_of(w, (size_t)old->mark.line - 1, &oline);
	if (old && !strcmp(name, "suite") && n == 1 && !strcmp(old->v[0].s, v[0].s))
		goto out_free; /* suite: netperf + testcase: netperf, as LKP jobs have */
	if (old && !strcmp(name, "suite")) {
		rc = jfail(w, km, "%s: '%s' differs from '%s' at line %d col %d", key, v[0].s,
		           old->v[0].s, oline, old->mark.col);
		goto out_free;
	}
	/* an option at the top level and in its program's block: the block's wins, as in
	 * LKP (the program runs with its block's values in its environment) */
	if (old && old->prog != w->prog) {
		if (old->prog)
			goto out_free;
		job_param_free(old);
		*old = w->doc->p[--w->doc->n];
		old = NULL;
	}
	if (old) {
		rc = jfail(w, km, "%s: sets '%s', already set at line %d col %d", key, name, oline,
		           old->mark.col);
		goto out_free;
	}
	struct bb_jparam *p = job_doc_slot(w->doc);
	if (!p) {
		rc = -ENOMEM;
		goto out_free;
	}
	if (!(p->name = strdup(name))) {
		rc = -ENOMEM;
		goto out_free;
	}
	if (!(p->top = strdup(w->top ? w->top : name))) {
		free(p->name);
		rc = -ENOMEM;
		goto out_free;
	}
	w->doc->n++;
	p->v = v;
	p->n = n;
	p->axis = axis;
	p->level = level;
	p->mark = job_mark_of(km);
	p->prog = w->prog;
	return 0;
out_free:
	job_values_free(v, n);
	return rc;
}

int job_copy_param(struct bb_jdoc *to, const struct bb_jparam *from)
{
	struct bb_jparam *p = job_doc_slot(to);
	if (!p)
		return -ENOMEM;
	*p = *from;
	p->v = calloc(from->n, sizeof *p->v);
	p->name = strdup(from->name);
	p->top = strdup(from->top);
	p->n = 0;
	if (!p->v || !p->name || !p->top) {
		free(p->v);
		free(p->name);
		free(p->top);
		return -ENOMEM;
	}
	to->n++;
	for (size_t k = 0; k < from->n; k++) {
		if (!(p->v[k].s = strdup(from->v[k].s)))
			return -ENOMEM;
		p->v[k].mark = from->v[k].mark;
		p->v[k].unset = from->v[k].unset;
		p->n++;
	}
	return 0;
}
