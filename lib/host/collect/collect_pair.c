/*
 * Two-host boots in a results folder (docs/results.md, "Two-host boots"): the server host's
 * boots go to DIR/server-host/, and each client boot folder links to the server host's boot of
 * the same cluster run as DIR/NNNN-BOOTID/server-host. `benchboot run` and `benchboot collect`
 * both link through bb_collect_link_server_host.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/errbuf.h"
#include "host/json.h"
#include "host/collect/collect.h"

int bb_collect_link_server_host(const char *outdir, const char *client_folder,
                                const char *server_folder, char *err, size_t errlen)
{
	char link[PATH_MAX], target[PATH_MAX], old[PATH_MAX];
	if (bb_collect_bad_name(client_folder) || bb_collect_bad_name(server_folder))
		return bb_errbuf_fail(err, errlen, -EINVAL, "not boot folder names: %s, %s",
		                      client_folder, server_folder);
	snprintf(link, sizeof(link), "%s/%s/" COLLECT_SERVER_DIR, outdir, client_folder);
	snprintf(target, sizeof(target), "../" COLLECT_SERVER_DIR "/%s", server_folder);
	ssize_t n = readlink(link, old, sizeof(old) - 1);
	if (n >= 0) {
		old[n] = 0;
		if (!strcmp(old, target))
			return 0;
	}
	/* only a link is replaced: a real file or folder of that name is the boot's own */
	if ((n >= 0 && unlink(link)) || symlink(target, link))
		return bb_errbuf_fail(err, errlen, -errno, "unable to link %s to %s: %s", link,
		                      target, strerror(errno));
	return 1;
}

/* The server host's boot folder in DIR/server-host/ of the client boot self: its env.json has
 * the boot id the client received (peer) and the client's plan digest and cluster name (the
 * two hosts met only if their plans matched). Into out: 1 found, 0 not. */
static int find_server_boot(const char *outdir, const struct collect_env_ids *self,
                            const struct collect_env_ids *peer, char *out, size_t outlen)
{
	char dir[PATH_MAX], path[PATH_MAX + 300];
	struct collect_env_ids ids;
	int found = 0;
	snprintf(dir, sizeof(dir), "%s/" COLLECT_SERVER_DIR, outdir);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	for (struct dirent *e; !found && (e = readdir(d));) {
		const char *id = strchr(e->d_name, '-');
		if (!bb_collect_is_boot_name(e->d_name) || !id || strcmp(id + 1, peer->boot_id))
			continue;
		snprintf(path, sizeof(path), "%s/%s/env.json", dir, e->d_name);
		if (bb_collect_env_ids_read(path, &ids) || strcmp(ids.boot_id, peer->boot_id) ||
		    strcmp(ids.plan, self->plan) || strcmp(ids.cluster, self->cluster) ||
		    strcmp(ids.role, "server"))
			continue;
		snprintf(out, outlen, "%s", e->d_name);
		found = 1;
	}
	closedir(d);
	return found;
}

/* Link client boot NAME to its server host's boot, said through o->msg. */
static void link_one(const struct collect_opts *o, const char *name, struct collect_stats *st)
{
	char path[PATH_MAX], server[256], err[PATH_MAX + 64];
	struct collect_env_ids self, peer;
	snprintf(path, sizeof(path), "%s/%s/env.json", o->outdir, name);
	if (bb_collect_env_ids_read(path, &self) || strcmp(self.role, "client"))
		return;
	snprintf(path, sizeof(path), "%s/%s/peer/env.json", o->outdir, name);
	if (bb_collect_env_ids_read(path, &peer) || !*peer.boot_id) {
		bb_collect_msgf(
		    o,
		    "%s: a client host's boot without the server host's env.json (peer/env.json): "
		    "no server-host link",
		    name);
		return;
	}
	if (!find_server_boot(o->outdir, &self, &peer, server, sizeof(server))) {
		bb_collect_msgf(o,
		                "%s: its server host's boot %s is not in %s/" COLLECT_SERVER_DIR
		                "/ (yet): collect the server host's results disk into %s too",
		                name, peer.boot_id, o->outdir, o->outdir);
		return;
	}
	int r = bb_collect_link_server_host(o->outdir, name, server, err, sizeof(err));
	if (r < 0) {
		bb_collect_msgf(o, "%s: %s", name, err);
		st->problems++;
	} else if (r > 0) {
		bb_collect_msgf(
		    o, "%s: linked to its server host's boot: %s -> ../" COLLECT_SERVER_DIR "/%s",
		    name, COLLECT_SERVER_DIR, server);
	}
}

int bb_collect_link_pairs(const struct collect_opts *o, struct collect_stats *st)
{
	DIR *d = opendir(o->outdir);
	if (!d)
		return -errno;
	for (struct dirent *e; (e = readdir(d));)
		if (bb_collect_is_boot_name(e->d_name))
			link_one(o, e->d_name, st);
	closedir(d);
	return 0;
}
