/* Reading a LAVA job log with libyaml's event parser (a log can be large); see lava_log.h. */
#include <yaml.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/errbuf.h"
#include "host/lab/lava_log.h"
#include "host/console_reader.h"

/* One log line as read: its lvl, its msg when a string, the fields of a results msg. */
struct item {
	char lvl[32];
	char *msg;
	char definition[64], tcase[64], result[16], error_type[64];
	char *error_msg;
};

static void item_reset(struct item *it)
{
	free(it->msg);
	free(it->error_msg);
	memset(it, 0, sizeof(*it));
}

static void copy(char *out, size_t outlen, const char *s)
{
	snprintf(out, outlen, "%s", s);
}

static int item_done(struct item *it, FILE *out, struct lava_log_info *info)
{
	info->lines++;
	if (it->msg && (!strcmp(it->lvl, "target") || !strcmp(it->lvl, "feedback"))) {
		info->console_lines++;
		if (out && (fputs(it->msg, out) == EOF || putc('\n', out) == EOF))
			return -errno;
		if (bb_console_stall(it->msg) && !info->kernel_stalls++)
			copy(info->kernel_stall, sizeof(info->kernel_stall), it->msg);
		const char *b = strstr(it->msg, "BENCHBOOT boot-start id=");
		if (b && !*info->boot_id) {
			b += strlen("BENCHBOOT boot-start id=");
			snprintf(info->boot_id, sizeof(info->boot_id), "%.*s",
			         (int)strcspn(b, " \t\r"), b);
		}
	} else if (it->msg && !strcmp(it->lvl, "error")) {
		copy(info->last_error, sizeof(info->last_error), it->msg);
	} else if (!strcmp(it->lvl, "results") && !strcmp(it->definition, "lava") &&
	           !strcmp(it->tcase, "job")) {
		copy(info->job_result, sizeof(info->job_result), it->result);
		copy(info->error_type, sizeof(info->error_type), it->error_type);
		if (it->error_msg) {
			copy(info->error_msg, sizeof(info->error_msg), it->error_msg);
			info->error_msg[strcspn(info->error_msg, "\n")] = 0;
		}
	}
	return 0;
}

/* A value of the msg mapping of a results line. */
static int result_field(struct item *it, const char *key, const char *val)
{
	if (!strcmp(key, "definition"))
		copy(it->definition, sizeof(it->definition), val);
	else if (!strcmp(key, "case"))
		copy(it->tcase, sizeof(it->tcase), val);
	else if (!strcmp(key, "result"))
		copy(it->result, sizeof(it->result), val);
	else if (!strcmp(key, "error_type"))
		copy(it->error_type, sizeof(it->error_type), val);
	else if (!strcmp(key, "error_msg")) {
		free(it->error_msg);
		if (!(it->error_msg = strdup(val)))
			return -ENOMEM;
	}
	return 0;
}

int bb_lava_log_console(FILE *in, FILE *out, struct lava_log_info *info, char *err, size_t errlen)
{
	yaml_parser_t p;
	yaml_event_t ev;
	struct item it = {0};
	/*
	 * depth: 1 inside the list, 2 inside a line's mapping, 3 inside a msg mapping, more in
	 * values below that (skipped). want_key[d]: the next scalar at depth d is a key.
	 */
	int depth = 0, want_key[4] = {0}, msg_map = 0, r = 0, done = 0;
	char key2[16] = "", key3[64] = "";

	memset(info, 0, sizeof(*info));
	if (!yaml_parser_initialize(&p))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	yaml_parser_set_input_file(&p, in);
	while (!done && !r) {
		if (!yaml_parser_parse(&p, &ev)) {
			r = ferror(in)
			        ? bb_errbuf_fail(err, errlen, -EIO, "reading the log failed")
			        : bb_errbuf_fail(err, errlen, -EINVAL, "line %zu: not YAML: %s",
			                         p.problem_mark.line + 1,
			                         p.problem ? p.problem : "?");
			break;
		}
		size_t line = ev.start_mark.line + 1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT: {
			int map = ev.type == YAML_MAPPING_START_EVENT;
			if (depth == 0 && map)
				r = bb_errbuf_fail(
				    err, errlen, -EINVAL,
				    "line %zu: not a LAVA job log (a mapping, not a list of "
				    "log lines)",
				    line);
			else if (depth == 1 && !map)
				r = bb_errbuf_fail(
				    err, errlen, -EINVAL,
				    "line %zu: not a LAVA job log (a list in the list)", line);
			else if (depth == 1)
				item_reset(&it);
			else if (depth == 2 && !want_key[2] && !strcmp(key2, "msg"))
				msg_map = map;
			if (depth < 3)
				want_key[depth + 1] = 1;
			depth++;
			break;
		}
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			if (depth == 1 && (r = item_done(&it, out, info)))
				r = bb_errbuf_fail(err, errlen, r, "writing the console: %s",
				                   strerror(-r));
			if (depth == 2)
				msg_map = 0;
			/* a collection was a value: the next scalar is a key again */
			if (depth >= 1 && depth <= 3)
				want_key[depth] = 1;
			break;
		case YAML_SCALAR_EVENT: {
			const char *v = (const char *)ev.data.scalar.value;
			if (depth == 1) {
				r = bb_errbuf_fail(
				    err, errlen, -EINVAL,
				    "line %zu: not a LAVA job log (a bare value in the list)",
				    line);
			} else if (depth == 2) {
				if (want_key[2]) {
					copy(key2, sizeof(key2), v);
				} else if (!strcmp(key2, "lvl")) {
					copy(it.lvl, sizeof(it.lvl), v);
				} else if (!strcmp(key2, "msg")) {
					free(it.msg);
					if (!(it.msg = strdup(v)))
						r = bb_errbuf_fail(err, errlen, -ENOMEM,
						                   "out of memory");
				}
				want_key[2] = !want_key[2];
			} else if (depth == 3 && msg_map) {
				if (want_key[3])
					copy(key3, sizeof(key3), v);
				else if (result_field(&it, key3, v))
					r = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
				want_key[3] = !want_key[3];
			}
			break;
		}
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	item_reset(&it);
	yaml_parser_delete(&p);
	return r;
}

/* The scalar value of key in a YAML mapping node, or NULL. */
static const char *map_scalar(yaml_document_t *doc, yaml_node_t *map, const char *key,
                              yaml_node_t **node)
{
	if (node)
		*node = NULL;
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *m = map->data.mapping.pairs.start; m < map->data.mapping.pairs.top;
	     m++) {
		yaml_node_t *k = yaml_document_get_node(doc, m->key);
		yaml_node_t *v = yaml_document_get_node(doc, m->value);
		if (!k || !v || k->type != YAML_SCALAR_NODE ||
		    strcmp((char *)k->data.scalar.value, key))
			continue;
		if (node)
			*node = v;
		return v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : NULL;
	}
	return NULL;
}

int bb_lava_definition_meta(const char *definition, struct lava_job_meta *meta)
{
	static const char *const keys[] = {"benchboot.job", "benchboot.image",
	                                   "benchboot.boot_group", "benchboot.kernel"};
	char *const out[] = {meta->job, meta->image, meta->boot_group, meta->kernel};
	const size_t len[] = {sizeof(meta->job), sizeof(meta->image), sizeof(meta->boot_group),
	                      sizeof(meta->kernel)};
	yaml_parser_t p;
	yaml_document_t doc;
	yaml_node_t *md, *protocols, *mn;
	memset(meta, 0, sizeof(*meta));
	if (!yaml_parser_initialize(&p))
		return -ENOMEM;
	yaml_parser_set_input_string(&p, (const unsigned char *)definition, strlen(definition));
	if (!yaml_parser_load(&p, &doc)) {
		yaml_parser_delete(&p);
		return -EINVAL;
	}
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	map_scalar(&doc, root, "metadata", &md);
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		const char *v = map_scalar(&doc, md, keys[i], NULL);
		if (v)
			copy(out[i], len[i], v);
	}
	map_scalar(&doc, root, "protocols", &protocols);
	map_scalar(&doc, protocols, "lava-multinode", &mn);
	const char *role = map_scalar(&doc, mn, "role", NULL);
	const char *group = map_scalar(&doc, mn, "target_group", NULL);
	if (role)
		copy(meta->role, sizeof(meta->role), role);
	if (group)
		copy(meta->target_group, sizeof(meta->target_group), group);
	yaml_document_delete(&doc);
	yaml_parser_delete(&p);
	return 0;
}

void bb_lava_job_end_text(const char *health, const char *failure, const struct lava_log_info *info,
                          char *out, size_t outlen)
{
	if (!strcmp(health, "Complete"))
		snprintf(out, outlen, "%s", health);
	else if (info && *info->error_type)
		snprintf(out, outlen, "%s: %s error: %s", health, info->error_type,
		         *info->error_msg ? info->error_msg : "-");
	else if (failure && *failure)
		snprintf(out, outlen, "%s: %s", health, failure);
	else if (info && *info->last_error)
		snprintf(out, outlen, "%s: %s", health, info->last_error);
	else
		snprintf(out, outlen, "%s", health);
}
