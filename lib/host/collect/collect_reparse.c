/*
 * `benchboot collect --monitor-stats ITER...` (collect.h): the monitors' stats of a collected
 * iteration folder computed again from its raw files (monitor.NAME.gz, or monitor.NAME before
 * collect compressed it) with this build's parsers, as the init computed them: the /proc
 * monitors', then perf-stat's and perf-profile's (from perf report's text, monitor.perf-profile).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "host/collect/collect.h"
#include "parse/parse_monitor.h"
#include "parse/parse_perf.h"
#include "results/statset.h"

/* The whole (gunzipped: gzread reads a plain file as it is) file, or NULL with errno. */
static char *slurp(const char *path)
{
	gzFile f = gzopen(path, "rb");
	size_t len = 0, cap = 0;
	char *buf = NULL;
	if (!f)
		return NULL;
	for (;;) {
		if (len + 65536 + 1 > cap) {
			char *nb = realloc(buf, cap = (len + 65536 + 1) * 2);
			if (!nb) {
				free(buf);
				gzclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		int n = gzread(f, buf + len, 65536);
		if (n < 0) {
			free(buf);
			gzclose(f);
			errno = EIO;
			return NULL;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	gzclose(f);
	buf[len] = 0;
	return buf;
}

int bb_collect_monitor_stats(const char *iterdir, FILE *out, char *err, size_t errlen)
{
	int found = 0, problems = 0;
	*err = 0;
	static const char *const perf[] = {"perf-stat", "perf-profile"};
	for (size_t i = 0; i < bb_nmonitors + 2; i++) {
		const struct bb_monitor *m = i < bb_nmonitors ? &bb_monitors[i] : NULL;
		const char *name = m ? m->name : perf[i - bb_nmonitors];
		char path[4200], line[1024] = "";
		snprintf(path, sizeof path, "%s/monitor.%s.status", iterdir, name);
		FILE *sf = fopen(path, "r");
		if (sf) {
			if (!fgets(line, sizeof line, sf))
				*line = 0;
			fclose(sf);
			line[strcspn(line, "\n")] = 0;
			found = 1;
			if (strcmp(line, "ok")) {
				fprintf(out, "# %s: %s\n", name, line);
				continue;
			}
		}
		snprintf(path, sizeof path, "%s/monitor.%s.gz", iterdir, name);
		char *raw = slurp(path);
		if (!raw && errno == ENOENT) {
			snprintf(path, sizeof path, "%s/monitor.%s", iterdir, name);
			raw = slurp(path);
		}
		if (!raw) {
			if (errno != ENOENT || sf) {
				snprintf(err, errlen, "%s: %s", path, strerror(errno));
				problems++;
			}
			continue;
		}
		found = 1;
		struct bb_stats st = {0};
		char perr[256] = "";
		int r = m ? bb_monitor_stats(m, raw, &st, perr, sizeof perr)
		        : i == bb_nmonitors
		            ? bb_perf_stat_stats(raw, &st, NULL, 0, perr, sizeof perr)
		            : bb_perf_profile_stats(raw, &st, NULL, 0, perr, sizeof perr);
		free(raw);
		if (r) {
			snprintf(err, errlen, "%s: %s", path, r == -EINVAL ? perr : strerror(-r));
			problems++;
		}
		for (size_t k = 0; !r && k < st.n; k++)
			fprintf(out, "%s %.17g\n", st.v[k].name, st.v[k].value);
		bb_stats_free(&st);
	}
	if (!found && !problems) {
		snprintf(err, errlen, "%s: no monitor files (monitor.NAME.gz, monitor.NAME.status)",
		         iterdir);
		return -ENOENT;
	}
	return problems ? -EINVAL : 0;
}
