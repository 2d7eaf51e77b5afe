/* The kernel's log for the results disk; see kernel_log.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init.h"
#include "kernel_log.h"
#include "setuptime.h"
#include "writer.h"

struct appender {
	FILE *f;
	unsigned long long next_seq; /* the first record not in the file yet */
};

static void put_record(const char *line, void *ctx)
{
	struct appender *a = ctx;
	unsigned long long us;
	const char *text, *comma = strchr(line, ',');
	if (*line == ' ' || !comma || kmsg_parse(line, &us, &text))
		return; /* a continuation line (KEY=VALUE) or not a record */
	unsigned long long seq = strtoull(comma + 1, NULL, 10);
	if (seq < a->next_seq)
		return;
	a->next_seq = seq + 1;
	fprintf(a->f, "[%5llu.%06llu] %s\n", us / 1000000, us % 1000000, text);
}

int kernel_log_append(const char *path, unsigned long long *next_seq)
{
	struct appender a = {fopen(path, "ae"), *next_seq};
	if (!a.f)
		return -errno;
	int r = kmsg_each(put_record, &a);
	if (fclose(a.f) && !r)
		r = -errno;
	*next_seq = a.next_seq;
	return r;
}

void kernel_log_update(void)
{
	static unsigned long long next_seq;
	static int said;
	if (!writer_open.disk)
		return;
	int r = kernel_log_append(init_path("%s", INIT_RESULTS_DIR "/" KERNEL_LOG_NAME), &next_seq);
	if (r && !said++)
		say("cannot keep the kernel's log in %s: %s", KERNEL_LOG_NAME, strerror(-r));
}
