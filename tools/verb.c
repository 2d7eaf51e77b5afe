/* What every verb shares: the exit code of a library outcome, usage errors, the option loop. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strv.h"

#include "host/store/store.h"
#include "verb.h"

/* The errnos that mean "bad input" (exit 100); docs/architecture.md lists them too. */
static const int bad_input[] = {
    EINVAL,       /* a malformed job, argument or file */
    ENOENT,       /* a file or folder the user named does not exist */
    ENOTDIR,      /* a file where a folder was wanted */
    EISDIR,       /* a folder where a file was wanted */
    EACCES,       /* a named file that cannot be read or written; a LAVA token refused */
    ENAMETOOLONG, /* a path too long */
    ELOOP,        /* a path through a loop of symbolic links */
    EMEDIUMTYPE,  /* not a results disk; a console log without results */
    EEXIST,       /* a file the verb does not overwrite without --force */
    ENOTEMPTY,    /* a non-empty file or device the verb does not overwrite without --force */
    EBUSY,        /* a device in use (mounted, a swap, held by another device) */
};

int verb_exit_status(int r)
{
	if (!r)
		return EXIT_OK;
	for (size_t i = 0; i < sizeof(bad_input) / sizeof(*bad_input); i++)
		if (r == -bad_input[i])
			return EXIT_USAGE;
	return EXIT_SYSTEM;
}

int verb_usage_error(const char *verb, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "benchboot %s: ", verb);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n'benchboot %s --help' explains the usage\n", verb);
	return EXIT_USAGE;
}

int verb_getopt(const struct verb_cmd *c, int argc, char **argv)
{
	static const struct verb_cmd *current;
	if (current != c) { /* a new command line: getopt starts over */
		current = c;
		optind = 0;
	}
	opterr = 0;
	int opt = getopt_long(argc, argv, c->shortopts, c->longopts, NULL);
	if (opt == 'h') {
		fputs(c->usage, stdout);
		return VERB_HELP;
	}
	if (opt == ':')
		return verb_usage_error(c->name, "option %s needs an argument", argv[optind - 1]),
		       VERB_BAD;
	if (opt == '?')
		return verb_usage_error(c->name, "unknown option %s", argv[optind - 1]), VERB_BAD;
	return opt;
}

int verb_add_set(const char *verb, struct bb_strv *sets, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return verb_usage_error(
		    verb, "--set %s: expected KEY=VALUE (e.g. --set runtime=10s)", arg);
	if (bb_strv_add(sets, arg)) {
		fprintf(stderr, "benchboot %s: fatal: out of memory\n", verb);
		return EXIT_SYSTEM;
	}
	return 0;
}

int verb_number(const char *verb, const char *opt, const char *v, double min, double max,
                const char *range, const char *units, double *out)
{
	char num[64], *end;
	double unit = 1;
	snprintf(num, sizeof(num), "%s", v);
	size_t l = strlen(num);
	if (units && l && strchr(units, num[l - 1])) {
		unit = num[l - 1] == 'h' ? 3600 : num[l - 1] == 'm' ? 60 : 1;
		num[l - 1] = 0;
	}
	double x = strtod(num, &end);
	if (end == num || *end || x < min || x > max)
		return verb_usage_error(verb, "%s %s: %s", opt, v, range);
	*out = x * unit;
	return 0;
}

static volatile sig_atomic_t *interrupt_flag;

static void on_interrupt(int sig)
{
	(void)sig;
	*interrupt_flag = 1;
}

void verb_catch_interrupt(volatile sig_atomic_t *flag)
{
	struct sigaction sa;
	interrupt_flag = flag;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void verb_term_clear(struct verb_term *t)
{
	if (t->status_shown) {
		fputs("\r\033[K", stdout);
		t->status_shown = 0;
	}
}

void verb_term_say(void *term, enum bb_run_say to, const char *line)
{
	struct verb_term *t = term;
	int warn = to == BB_RUN_WARN;
	verb_term_clear(t);
	if (to == BB_RUN_OUT) {
		puts(line);
		fflush(stdout);
	} else {
		fflush(stdout);
		fprintf(stderr, "%s%s%s%s\n", warn ? "benchboot " : "", warn ? t->verb : "",
		        warn ? ": " : "", line);
	}
}

void verb_term_status(void *term, const char *line)
{
	struct verb_term *t = term;
	printf("\r\033[K%.*s", 150, line);
	fflush(stdout);
	t->status_shown = 1;
}

int verb_accel(const char *verb, const char *v, enum bb_accel *out)
{
	static const char *const accels[] = {
	    [BB_ACCEL_AUTO] = "auto", [BB_ACCEL_KVM] = "kvm", [BB_ACCEL_TCG] = "tcg"};
	for (size_t i = 0; i < sizeof(accels) / sizeof(*accels); i++)
		if (!strcmp(v, accels[i])) {
			*out = (enum bb_accel)i;
			return 0;
		}
	return verb_usage_error(verb, "--accel %s: auto, kvm or tcg", v);
}

void verb_job_outdir(const char *job, const char *suffix, char *out, size_t len)
{
	const char *slash = strrchr(job, '/');
	char name[256];
	snprintf(name, sizeof(name), "%s", slash ? slash + 1 : job);
	name[strcspn(name, ".")] = 0;
	snprintf(out, len, "results/%s%s", *name ? name : "job", suffix);
}

void verb_kernel_arg(const char *v, char *name, size_t len, const char **path)
{
	const char *eq = strchr(v, '=');
	if (eq && eq != v && !memchr(v, '/', eq - v)) {
		snprintf(name, len, "%.*s", (int)(eq - v), v);
		*path = eq + 1;
	} else {
		const char *slash = strrchr(v, '/');
		snprintf(name, len, "%s", slash ? slash + 1 : v);
		*path = v;
	}
}

void verb_store_add(const char *verb, const char *db, const char *dir)
{
	struct bb_store *st;
	struct bb_store_added a;
	char err[4096];
	int rc = bb_store_open(db, &st, err, sizeof err);
	if (!rc) {
		rc = bb_store_add(st, dir, &a, err, sizeof err);
		if (!rc)
			printf(
			    "store: %zu new boot%s in %s (benchboot store list; --no-store: not)\n",
			    a.boots_new, a.boots_new == 1 ? "" : "s", bb_store_file(st));
		bb_store_close(st);
	}
	if (rc)
		fprintf(stderr, "benchboot %s: warning: the results are not in the store: %s\n",
		        verb, err);
}
