/* Cluster files: LKP's host -> {roles, macs} plus address and nic; see cluster.h. */
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/image/image.h"
#include "host/job/cluster.h"
#include "plan/plan.h"

struct cparse {
	const char *file;
	yaml_document_t *doc;
	char *err;
	size_t errlen;
};

static int cfail(struct cparse *p, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int cfail(struct cparse *p, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%zu: %s", p->file, n ? n->start_mark.line + 1 : 1, msg);
	return -EINVAL;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The words of a value: a YAML list of scalars, or one scalar (words split on blanks and
 * commas, as `roles: server client` reads). Calls add for each; 0 or its error. */
static int each_word(struct cparse *p, const char *key, yaml_node_t *v,
                     int (*add)(struct cparse *, yaml_node_t *, const char *, void *), void *ctx)
{
	if (v->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = v->data.sequence.items.start;
		     it < v->data.sequence.items.top; it++) {
			yaml_node_t *e = yaml_document_get_node(p->doc, *it);
			const char *s = scalar(e);
			if (!s)
				return cfail(p, e, "%s: a list of words, not a nested value", key);
			int rc = add(p, e, s, ctx);
			if (rc)
				return rc;
		}
		return 0;
	}
	const char *s = scalar(v);
	if (!s)
		return cfail(p, v, "%s: a word or a list of words", key);
	char buf[512];
	snprintf(buf, sizeof buf, "%s", s);
	for (char *save, *tok = strtok_r(buf, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		int rc = add(p, v, tok, ctx);
		if (rc)
			return rc;
	}
	return 0;
}

static int add_role(struct cparse *p, yaml_node_t *n, const char *s, void *ctx)
{
	struct bb_cluster_host *h = ctx;
	if (!strcmp(s, "server"))
		h->server = 1;
	else if (!strcmp(s, "client"))
		h->client = 1;
	else
		return cfail(p, n, "roles: '%s' is not a role benchboot runs (server, client)", s);
	return 0;
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

static int add_mac(struct cparse *p, yaml_node_t *n, const char *s, void *ctx)
{
	struct bb_cluster_host *h = ctx;
	if (!bb_plan_is_mac(s))
		return cfail(p, n, "macs: '%s' is not a MAC address (xx:xx:xx:xx:xx:xx)", s);
	if (h->nmacs == BB_CLUSTER_MAX_MACS)
		return cfail(p, n, "macs: at most %d per host", BB_CLUSTER_MAX_MACS);
	snprintf(h->macs[h->nmacs], sizeof h->macs[0], "%s", s);
	lower(h->macs[h->nmacs++]);
	return 0;
}

/* An interface name as the kernel takes it (IFNAMSIZ - 1, no '/', ':' or blank), or a MAC. */
static int nic_ok(const char *s)
{
	if (bb_plan_is_mac(s))
		return 1;
	if (!*s || strlen(s) > 15 || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	return strcspn(s, "/: \t") == strlen(s);
}

/* One scalar key of a host: address or nic. */
static int host_scalar(struct cparse *p, struct bb_cluster_host *h, const char *key, yaml_node_t *v)
{
	const char *s = scalar(v);
	if (!s || !*s)
		return cfail(p, v, "%s: one value", key);
	if (!strcmp(key, "address")) {
		char addr[64], full[80];
		int prefix;
		snprintf(full, sizeof full, "%s%s", s, strchr(s, '/') ? "" : "/24");
		if (bb_plan_addr_prefix(full, addr, sizeof addr, &prefix) != AF_INET ||
		    strlen(full) >= sizeof h->address)
			return cfail(p, v,
			             "address: '%s' is not an IPv4 address on the test network "
			             "(ADDR/PREFIX, e.g. 192.168.77.1/24)",
			             s);
		snprintf(h->address, sizeof h->address, "%s", full);
		return 0;
	}
	if (!nic_ok(s))
		return cfail(p, v, "nic: '%s' is not an interface name or a MAC address", s);
	snprintf(h->nic, sizeof h->nic, "%s", s);
	if (bb_plan_is_mac(h->nic))
		lower(h->nic);
	return 0;
}

static int parse_host(struct cparse *p, yaml_node_t *k, yaml_node_t *v, struct bb_cluster_host *h)
{
	const char *name = scalar(k);
	if (!name || !*name || strlen(name) >= sizeof h->name ||
	    strcspn(name, " \t/=") != strlen(name))
		return cfail(p, k, "a host name (one word, under 64 characters) as the key");
	snprintf(h->name, sizeof h->name, "%s", name);
	h->line = (int)k->start_mark.line + 1;
	if (v->type != YAML_MAPPING_NODE)
		return cfail(p, v, "%s: a mapping with roles (and macs, address, nic)", name);
	for (yaml_node_pair_t *pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *hk = yaml_document_get_node(p->doc, pr->key);
		yaml_node_t *hv = yaml_document_get_node(p->doc, pr->value);
		const char *key = scalar(hk);
		int rc;
		if (!key)
			return cfail(p, hk, "%s: keys are words", name);
		if (!strcmp(key, "roles"))
			rc = each_word(p, key, hv, add_role, h);
		else if (!strcmp(key, "macs"))
			rc = each_word(p, key, hv, add_mac, h);
		else if (!strcmp(key, "address") || !strcmp(key, "nic"))
			rc = host_scalar(p, h, key, hv);
		else
			rc = cfail(p, hk, "%s: unknown key '%s' (roles, macs, address, nic)", name,
			           key);
		if (rc)
			return rc;
	}
	if (!h->server && !h->client)
		return cfail(p, k, "%s: roles: missing (server, client or both)", name);
	return 0;
}

/* Defaults, then the shape benchboot runs: one host with both roles, or a server host and a
 * client host with distinct addresses. */
static int check_cluster(struct cparse *p, yaml_node_t *root, struct bb_cluster *c)
{
	for (size_t i = 0; i < c->nhosts; i++) {
		struct bb_cluster_host *h = &c->hosts[i];
		if (!*h->address)
			snprintf(h->address, sizeof h->address, "192.168.77.%zu/24", i + 1);
		if (!*h->nic)
			snprintf(h->nic, sizeof h->nic, "%s", h->nmacs ? h->macs[0] : "eth0");
	}
	if (c->nhosts == 1) {
		if (!c->hosts[0].server || !c->hosts[0].client)
			return cfail(p, root, "%s: one host needs both roles (server, client)",
			             c->hosts[0].name);
		return 0;
	}
	struct bb_cluster_host *a = &c->hosts[0], *b = &c->hosts[1];
	if ((a->server && a->client) || (b->server && b->client) || a->server == b->server)
		return cfail(p, root,
		             "two hosts: one with roles [server], the other with roles "
		             "[client] (%s: %s, %s: %s)",
		             a->name, a->server ? a->client ? "both" : "server" : "client", b->name,
		             b->server ? b->client ? "both" : "server" : "client");
	char x[64], y[64];
	bb_cluster_addr(a, x, sizeof x);
	bb_cluster_addr(b, y, sizeof y);
	if (!strcmp(x, y))
		return cfail(p, root, "%s and %s: the same address %s", a->name, b->name, x);
	c->two_host = 1;
	c->server = a->server ? 0 : 1;
	c->client = 1 - c->server;
	return 0;
}

static int parse_doc(struct cparse *p, struct bb_cluster *c)
{
	yaml_node_t *root = yaml_document_get_root_node(p->doc);
	if (!root)
		return cfail(p, NULL, "empty: a mapping of hosts, each with roles");
	if (root->type != YAML_MAPPING_NODE)
		return cfail(p, root, "a mapping of hosts (HOST: {roles: [...], macs: [...]})");
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
	     pr < root->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(p->doc, pr->key);
		yaml_node_t *v = yaml_document_get_node(p->doc, pr->value);
		if (c->nhosts == 2)
			return cfail(p, k,
			             "%s: a third host: benchboot runs a server host and a client "
			             "host",
			             scalar(k) ? scalar(k) : "?");
		struct bb_cluster_host *h = &c->hosts[c->nhosts];
		int rc = parse_host(p, k, v, h);
		if (rc)
			return rc;
		for (size_t i = 0; i < c->nhosts; i++)
			if (!strcmp(c->hosts[i].name, h->name))
				return cfail(p, k, "%s: named twice (line %d)", h->name,
				             c->hosts[i].line);
		c->nhosts++;
	}
	if (!c->nhosts)
		return cfail(p, root, "no hosts: a mapping of hosts, each with roles");
	return check_cluster(p, root, c);
}

int bb_cluster_parse_text(const char *name, const char *file, const char *text, size_t len,
                          struct bb_cluster *c, char *err, size_t errlen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	struct cparse p = {.file = file, .doc = &doc, .err = err, .errlen = errlen};
	int rc;

	memset(c, 0, sizeof *c);
	snprintf(c->name, sizeof c->name, "%s", name);
	snprintf(c->file, sizeof c->file, "%s", file);
	if (!yaml_parser_initialize(&parser))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		rc = bb_errbuf_fail(err, errlen, -EINVAL, "%s:%zu: %s", file,
		                    parser.problem_mark.line + 1,
		                    parser.problem ? parser.problem : "not YAML");
		yaml_parser_delete(&parser);
		return rc;
	}
	rc = parse_doc(&p, c);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}

/* Where cluster NAME is: JOBDIR/clusters/NAME, then benchboot's config/clusters/NAME. */
static int find_cluster(const char *name, const char *jobfile, char *path, size_t len, char *err,
                        size_t errlen)
{
	const char *slash = jobfile ? strrchr(jobfile, '/') : NULL;
	char beside[4096], rel[300];
	snprintf(beside, sizeof beside, "%.*s%sclusters/%s", slash ? (int)(slash - jobfile) : 0,
	         jobfile ? jobfile : "", slash ? "/" : "", name);
	if (!access(beside, F_OK)) {
		snprintf(path, len, "%s", beside);
		return 0;
	}
	snprintf(rel, sizeof rel, "config/clusters/%s", name);
	if (!bb_image_find_data(rel, path, len))
		return 0;
	return bb_errbuf_fail(err, errlen, -ENOENT, "no cluster file '%s': looked at %s and %s",
	                      name, beside, rel);
}

int bb_cluster_load(const char *name, const char *jobfile, struct bb_cluster *c, char *err,
                    size_t errlen)
{
	char path[4096];
	unsigned char *text;
	size_t len;
	if (!*name || strlen(name) >= 128 || strchr(name, '/') || name[0] == '.')
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "'%s' is not a cluster name (a file name under clusters/)",
		                      name);
	int rc = find_cluster(name, jobfile, path, sizeof path, err, errlen);
	if (rc == -ENOENT && !strcmp(name, "cs-localhost")) {
		static const char builtin[] = "localhost:\n  roles: [ server, client ]\n";
		return bb_cluster_parse_text(name, "", builtin, sizeof builtin - 1, c, err, errlen);
	}
	if (rc)
		return rc;
	if ((rc = bb_fileio_read_all(path, &text, &len)))
		return bb_errbuf_fail(err, errlen, rc, "%s: %s", path, strerror(-rc));
	rc = bb_cluster_parse_text(name, path, (const char *)text, len, c, err, errlen);
	free(text);
	return rc;
}

void bb_cluster_addr(const struct bb_cluster_host *h, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(h->address, "/"), h->address);
}

void bb_cluster_mac(const struct bb_cluster *c, size_t i, char *buf, size_t len)
{
	const struct bb_cluster_host *h = &c->hosts[i];
	if (h->nmacs)
		snprintf(buf, len, "%s", h->macs[0]);
	else if (bb_plan_is_mac(h->nic))
		snprintf(buf, len, "%s", h->nic);
	else
		snprintf(buf, len, "52:54:00:bb:00:%02zx", i + 1);
}

void bb_cluster_role_args(const char *role, char *buf, size_t len)
{
	snprintf(buf, len, "benchboot.role=%s", role);
}
