/*
 * Modules: load every module of /etc/benchboot/modules.order, in that order (the host put the
 * closure of the job's modules there, dependencies first), with finit_module, falling back to
 * init_module on ENOSYS, with the plan's modules.params.NAME (brd's rd_nr and rd_size). Already
 * loaded or built in is fine. A failure is reported with its
 * errno; modules.boot names that end up absent are reported too. Runs that need an absent
 * module fail (module_available), the others go on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console_proto.h"
#include "grow.h"
#include "init.h"

#define MODULES_ORDER "/etc/benchboot/modules.order"

static void module_name(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strcspn(base, ".");
	if (n >= len)
		n = len - 1;
	for (size_t i = 0; i < n; i++)
		name[i] = base[i] == '-' ? '_' : base[i];
	name[n] = 0;
}

static int in_sysfs(const char *name)
{
	struct stat st;
	return stat(init_path("/sys/module/%s", name), &st) == 0;
}

static struct module_state *add(struct modules_result *res, const char *name)
{
	if (bb_grow(&res->v, &res->cap, res->n + 1, sizeof(*res->v)))
		return NULL;
	struct module_state *v = res->v;
	memset(&v[res->n], 0, sizeof(v[0]));
	snprintf(v[res->n].name, sizeof(v[0].name), "%s", name);
	return &v[res->n++];
}

static struct module_state *find(const struct modules_result *res, const char *name)
{
	for (size_t i = 0; i < res->n; i++)
		if (!strcmp(res->v[i].name, name))
			return &res->v[i];
	return NULL;
}

static int wanted(const struct bb_plan *plan, const char *name)
{
	for (size_t i = 0; i < plan->modules_boot.n; i++) {
		char n[64];
		module_name(plan->modules_boot.v[i], n, sizeof(n));
		if (!strcmp(n, name))
			return 1;
	}
	return 0;
}

static int load_one(const char *path, const char *params, struct module_state *m, double *ms)
{
	int fd = open(init_path("%s", path), O_RDONLY | O_CLOEXEC);
	double t0;
	int r;
	if (fd < 0) {
		snprintf(m->reason, sizeof(m->reason), "open %s: %s", path, strerror(errno));
		return -errno;
	}
	t0 = init_now_ms();
	r = init_ops->finit_module(fd, params, 0);
	if (r < 0 && errno == ENOSYS) {
		struct stat st;
		void *img = NULL;
		if (fstat(fd, &st) == 0 && (img = malloc((size_t)st.st_size)) &&
		    read(fd, img, (size_t)st.st_size) == st.st_size)
			r = init_ops->init_module(img, (unsigned long)st.st_size, params);
		else
			errno = ENOMEM;
		free(img);
	}
	int e = errno;
	*ms += init_now_ms() - t0;
	close(fd);
	if (r < 0 && e != EEXIST) {
		snprintf(m->reason, sizeof(m->reason), "finit_module %s: %s (errno %d)", path,
		         strerror(e), e);
		return -e;
	}
	snprintf(m->reason, sizeof(m->reason), r < 0 ? "already loaded" : "loaded");
	return 0;
}

int modules_load(const struct bb_plan *plan, struct modules_result *res)
{
	char *order = init_read(MODULES_ORDER, NULL), *line, *save = NULL;
	int failures = 0, r;

	memset(res, 0, sizeof(*res));
	if (!order && errno != ENOENT)
		say("cannot read %s: %s", MODULES_ORDER, strerror(errno));
	for (line = order ? strtok_r(order, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		if (!*line || *line == '#')
			continue;
		module_name(line, name, sizeof(name));
		struct module_state *m = find(res, name) ? NULL : add(res, name);
		if (!m)
			continue;
		if (in_sysfs(name)) {
			m->loaded = 1;
			snprintf(m->reason, sizeof(m->reason), "already present");
		} else if ((r = load_one(line, bb_kvs_get_or(&plan->module_params, name, ""), m,
		                         &res->load_ms)) == 0) {
			m->loaded = 1;
		} else if (r == -ENODEV && !wanted(plan, name)) {
			/* a driver for hardware this machine lacks (crc32c-intel without SSE4.2):
			 * the closure has the generic alternative; not a failure */
			m->nodev = 1;
		} else {
			failures++;
		}
		machine(BB_CON_MODULE " name=%s status=%s%s%s", name,
		        m->loaded  ? "ok"
		        : m->nodev ? "nodev"
		                   : "failed",
		        m->loaded ? "" : " reason=", m->loaded ? "" : m->reason);
	}
	free(order);
	for (size_t i = 0; i < plan->modules_boot.n; i++) {
		char name[64];
		module_name(plan->modules_boot.v[i], name, sizeof(name));
		if (find(res, name))
			continue;
		struct module_state *m = add(res, name);
		if (!m)
			continue;
		if (in_sysfs(name)) {
			m->loaded = 1;
			snprintf(m->reason, sizeof(m->reason), "built in");
		} else {
			snprintf(m->reason, sizeof(m->reason), "not in the image (%s)",
			         MODULES_ORDER);
			failures++;
			machine(BB_CON_MODULE " name=%s status=failed reason=%s", name, m->reason);
		}
	}
	return failures;
}

int module_available(const struct modules_result *res, const char *want, char *reason, size_t len)
{
	char name[64];
	module_name(want, name, sizeof(name));
	if (in_sysfs(name))
		return 1;
	struct module_state *m = find(res, name);
	snprintf(reason, len, "module %s: %s", name,
	         m && !m->loaded ? m->reason
	         : m             ? "loaded but absent from /sys/module"
	                         : "not in the image (" MODULES_ORDER ")");
	return 0;
}
