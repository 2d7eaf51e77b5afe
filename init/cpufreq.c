/*
 * cpufreq: the plan's governor on every online CPU, read back per CPU. A machine without
 * cpufreq (QEMU) is recorded as such; that is not an error.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "console_proto.h"
#include "init.h"
#include "json.h"

#define GOV_PATH "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor"

void cpufreq_read(char *buf, size_t len, int *present)
{
	struct bb_cpuset set;
	char list[1024], gov[64];
	size_t n = (size_t)snprintf(buf, len, "{");
	*present = 0;
	init_online_cpus(list, sizeof(list));
	bb_cpulist_parse(list, &set);
	for (int i = 0, cpu; (cpu = bb_cpuset_nth(&set, (unsigned)i)) >= 0; i++) {
		char path[128];
		snprintf(path, sizeof(path), GOV_PATH, cpu);
		if (init_read_line(path, gov, sizeof(gov)))
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0,
		                      "%s\"cpu%d\": ", *present ? ", " : "", cpu);
		if (n < len)
			ijson_quote(buf, len, gov);
		n = strlen(buf);
		*present = 1;
	}
	if (n + 2 <= len)
		snprintf(buf + n, len - n, "}");
}

int cpufreq_setup(const struct bb_plan *plan, struct cpufreq_state *st)
{
	struct bb_cpuset set;
	char list[1024];

	memset(st, 0, sizeof(*st));
	st->ok = 1;
	cpufreq_read(st->governors, sizeof(st->governors), &st->present);
	if (!plan->cpufreq_governor) {
		machine(BB_CON_CPUFREQ " status=%s requested=-",
		        st->present ? "left-alone" : "absent");
		return 0;
	}
	if (!st->present) {
		machine(BB_CON_CPUFREQ " status=absent requested=%s", plan->cpufreq_governor);
		say("no cpufreq on this machine: governor %s not applicable (recorded)",
		    plan->cpufreq_governor);
		return 0;
	}
	init_online_cpus(list, sizeof(list));
	bb_cpulist_parse(list, &set);
	for (int i = 0, cpu; (cpu = bb_cpuset_nth(&set, (unsigned)i)) >= 0; i++) {
		char path[128], back[64] = "";
		snprintf(path, sizeof(path), GOV_PATH, cpu);
		int r = init_write(path, plan->cpufreq_governor, 0);
		init_read_line(path, back, sizeof(back));
		if (r || strcmp(back, plan->cpufreq_governor)) {
			snprintf(st->error, sizeof(st->error),
			         "cpu%d: governor %s %s (in force: %s)", cpu,
			         plan->cpufreq_governor, r ? strerror(-r) : "not taken",
			         *back ? back : "?");
			st->ok = 0;
		}
	}
	cpufreq_read(st->governors, sizeof(st->governors), &st->present);
	machine(BB_CON_CPUFREQ " status=%s requested=%s", st->ok ? "ok" : "failed",
	        plan->cpufreq_governor);
	if (!st->ok)
		say("cpufreq: %s", st->error);
	return st->ok ? 0 : -1;
}
