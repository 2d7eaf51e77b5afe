/* Reading a benchboot console on the host; see console_reader.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console_proto.h"
#include "host/console_reader.h"

int bb_console_stall(const char *line)
{
	static const char *const reports[] = {
	    "BUG: soft lockup",         /* watchdog: BUG: soft lockup - CPU#1 stuck for 22s! */
	    " detected stalls on CPUs", /* rcu: INFO: rcu_preempt detected stalls on CPUs/tasks: */
	    " self-detected stall on CPU", /* rcu: INFO: rcu_sched self-detected stall on CPU */
	    " blocked for more than ", /* INFO: task netserver:301 blocked for more than 120 s */
	};
	for (size_t i = 0; i < sizeof(reports) / sizeof(*reports); i++)
		if (strstr(line, reports[i]))
			return 1;
	return 0;
}

int bb_console_is_kernel_log(const char *line)
{
	double ts;
	char close;
	return sscanf(line, "[ %lf%c", &ts, &close) == 2 && close == ']';
}

int bb_console_is_kernel(const char *line)
{
	if (strstr(line, "Linux version ") || strstr(line, "BENCHBOOT "))
		return 1;
	return bb_console_is_kernel_log(line);
}

/* The value of word KEY=VALUE in text (VALUE runs to the next space; "reason=" to the end). */
static int word(const char *text, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);
	for (const char *p = text; (p = strstr(p, key)); p++) {
		if ((p != text && p[-1] != ' ') || p[kl] != '=')
			continue;
		const char *v = p + kl + 1;
		size_t n = strcmp(key, "reason") ? strcspn(v, " ") : strlen(v);
		snprintf(out, len, "%.*s", (int)n, v);
		return 1;
	}
	return 0;
}

int bb_console_event(const char *line, struct bb_console_event *ev)
{
	static const struct {
		const char *tag;
		enum bb_event_kind kind;
	} tags[] = {{BB_CON_LINE(BB_CON_BOOT_START), BB_EV_BOOT_START},
	            {BB_CON_LINE(BB_CON_RUN_START), BB_EV_RUN_START},
	            {BB_CON_LINE(BB_CON_RUN_END), BB_EV_RUN_END},
	            {BB_CON_LINE(BB_CON_BOOT_END), BB_EV_BOOT_END},
	            {BB_CON_LINE(BB_CON_INIT_CRASH), BB_EV_INIT_CRASH}};
	char v[64];
	memset(ev, 0, sizeof(*ev));
	for (size_t i = 0; i < sizeof(tags) / sizeof(*tags); i++) {
		const char *p = strstr(line, tags[i].tag);
		if (!p)
			continue;
		p += strlen(tags[i].tag);
		ev->kind = tags[i].kind;
		word(p, "id", ev->id, sizeof(ev->id));
		if (word(p, "iter", v, sizeof(v)) && sscanf(v, "%d/%d", &ev->iter, &ev->niter) < 1)
			ev->iter = 0;
		if (word(p, "runs", v, sizeof(v)))
			ev->runs = atoi(v);
		if (word(p, "warmup", v, sizeof(v)))
			ev->warmup = atoi(v);
		if (word(p, "monitored", v, sizeof(v)))
			ev->monitored = atoi(v);
		if (word(p, "iterations", v, sizeof(v)))
			ev->niter = atoi(v);
		if (word(p, "ok", v, sizeof(v)))
			ev->ok = atoi(v);
		if (word(p, "failed", v, sizeof(v)))
			ev->failed = atoi(v);
		if (word(p, "runtime", v, sizeof(v)))
			ev->runtime = strtod(v, NULL);
		if (word(p, "elapsed", v, sizeof(v)))
			ev->elapsed = strtod(v, NULL);
		word(p, "status", ev->status, sizeof(ev->status));
		if (word(p, "signal", v, sizeof(v)))
			ev->signal = atoi(v);
		if (word(p, "exit", v, sizeof(v)))
			ev->exit_status = atoi(v);
		word(p, "step", ev->step, sizeof(ev->step));
		if (ev->kind == BB_EV_INIT_CRASH)
			word(p, "run", ev->id, sizeof(ev->id));
		word(p, "reason", ev->reason, sizeof(ev->reason));
		return 1;
	}
	/* benchboot: RUNID iteration I: STAT = VALUE UNIT */
	const char *p = strstr(line, BB_CON_HUMAN_PREFIX);
	if (!p)
		return 0;
	p += strlen(BB_CON_HUMAN_PREFIX);
	const char *it = strstr(p, " iteration ");
	const char *eq = it ? strstr(it, ": ") : NULL;
	if (!it || !eq || !strstr(eq, " = "))
		return 0;
	char stat[160];
	double value;
	int n = 0;
	if (sscanf(eq + 2, "%159s = %lf %n", stat, &value, &n) < 2)
		return 0;
	ev->kind = BB_EV_RESULT;
	snprintf(ev->id, sizeof(ev->id), "%.*s", (int)(it - p), p);
	ev->iter = atoi(it + strlen(" iteration "));
	snprintf(ev->stat, sizeof(ev->stat), "%s", stat);
	ev->value = value;
	if (n > 0)
		snprintf(ev->unit, sizeof(ev->unit), "%.31s", eq + 2 + n);
	ev->unit[strcspn(ev->unit, " \r\n")] = 0;
	return 1;
}

void bb_init_crash_text(const struct bb_console_event *ev, char *buf, size_t len)
{
	char how[96], where[400] = "";
	if (ev->signal > 0)
		snprintf(how, sizeof(how), "signal %d, %s", ev->signal, strsignal(ev->signal));
	else
		snprintf(how, sizeof(how), "exit status %d before boot-end", ev->exit_status);
	if (*ev->id)
		snprintf(where, sizeof(where), ", run %.256s iteration %d", ev->id, ev->iter);
	snprintf(buf, len,
	         "benchboot's init crashed (%s, step %s%s); not a kernel failure: "
	         "what it synced before stays on the results disk",
	         how, *ev->step ? ev->step : "?", where);
}
