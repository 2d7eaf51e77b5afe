/* A console line's LKP dmesg stat; see dmesg.h. The steps and their order are LKP's
 * (lib/dmesg.rb); the expressions are POSIX extended ones with glibc's \b, \w and \W. */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/fileio.h"
#include "host/results/dmesg.h"

#define LINE_MAX_ID 1024

/* Compiled expressions, by their text's address (each is a literal used in one place). */
static regex_t *rx(const char *src)
{
	static struct {
		const char *src;
		regex_t re;
		int ok;
	} cache[128];
	static size_t n;
	for (size_t i = 0; i < n; i++)
		if (cache[i].src == src)
			return cache[i].ok ? &cache[i].re : NULL;
	if (n == sizeof(cache) / sizeof(cache[0]))
		return NULL;
	cache[n].src = src;
	cache[n].ok = !regcomp(&cache[n].re, src, REG_EXTENDED);
	return cache[n].ok ? &cache[n++].re : (n++, NULL);
}

/* Where src first matches s at or after from: 1 with the groups in m, else 0. */
static int find(const char *src, const char *s, size_t from, regmatch_t m[10])
{
	regex_t *re = rx(src);
	if (!re)
		return 0;
	m[0].rm_so = (regoff_t)from;
	m[0].rm_eo = (regoff_t)strlen(s);
	return !regexec(re, s, 10, m, REG_STARTEND);
}

/* repl with \1..\9 replaced by m's groups of s, appended to out (of room cap). */
static void put_repl(char *out, size_t cap, const char *repl, const char *s, const regmatch_t *m)
{
	size_t o = strlen(out);
	for (const char *r = repl; *r && o + 1 < cap; r++) {
		if (r[0] == '\\' && r[1] >= '1' && r[1] <= '9') {
			const regmatch_t *g = &m[*++r - '0'];
			for (regoff_t k = g->rm_so; g->rm_so >= 0 && k < g->rm_eo && o + 1 < cap;
			     k++)
				out[o++] = s[k];
		} else {
			out[o++] = *r;
		}
	}
	out[o] = 0;
}

/* Ruby's String#gsub(src, repl) on s (room cap), in place: every match from left to right,
 * the search going on after each (one character on after an empty match). */
static void gsub(char *s, size_t cap, const char *src, const char *repl)
{
	char out[LINE_MAX_ID * 2] = "";
	regmatch_t m[10];
	size_t pos = 0, len = strlen(s);
	while (pos <= len && find(src, s, pos, m)) {
		size_t so = (size_t)m[0].rm_so, eo = (size_t)m[0].rm_eo, o = strlen(out);
		snprintf(out + o, sizeof(out) - o, "%.*s", (int)(so - pos), s + pos);
		put_repl(out, sizeof(out), repl, s, m);
		if (eo == so) {
			if (so < len) {
				o = strlen(out);
				snprintf(out + o, sizeof(out) - o, "%c", s[so]);
			}
			pos = so + 1;
		} else {
			pos = eo;
		}
	}
	if (pos < len) {
		size_t o = strlen(out);
		snprintf(out + o, sizeof(out) - o, "%s", s + pos);
	}
	snprintf(s, cap, "%s", out);
}

/* Ruby's String#sub: the first match only. */
static void sub(char *s, size_t cap, const char *src, const char *repl)
{
	regmatch_t m[10];
	if (!find(src, s, 0, m))
		return;
	char out[LINE_MAX_ID * 2] = "";
	snprintf(out, sizeof(out), "%.*s", (int)m[0].rm_so, s);
	put_repl(out, sizeof(out), repl, s, m);
	size_t o = strlen(out);
	snprintf(out + o, sizeof(out) - o, "%s", s + m[0].rm_eo);
	snprintf(s, cap, "%s", out);
}

/*
 * The report headers, in the order of LKP's etc/oops-pattern (LKP joins its patterns into one
 * alternation: the match that starts first wins, at one start the earlier pattern).
 */
static const char *const headers[] = {
    "BUG .* \\(.*\\): .*",
    "INFO: .* cpu=.*",
    "INFO: .*detected stall.*",
    "INFO: task .* blocked for more than .* seconds",
    "KASAN: .*",
    "Kernel BUG at",
    "kernel BUG at .*",
    "Kernel panic - not syncing: .*",
    "Oops: .*",
    "PANIC: double fault,",
    "PANIC: early exception",
    "UBSAN: .*",
    "WARNING: .* detected$",
    "WARNING: .* lock.*",
    "WARNING: .*!$",
    "WARNING: at .*",
    "WARNING: CPU: [0-9]+ PID: .+ at .*",
    "WARNING: kernel stack",
    "WARNING: stack recursion",
    "WARNING: suspicious RCU usage",
    "[a-zA-Z0-9_ #]+: [0-9a-f]{4} \\[#[0-9]+\\]",
    "[a-zA-Z0-9_ -]+: BUG: .*",
    "[^ ]*\\.[ch]:[0-9]+ .*!$",
    "\\[ *[0-9.]+\\] BUG: .*",
    "\\[ {0,4}[A-Z][0-9]{1,5}\\] BUG: .*",
    "^BUG: .*",
};

/* The header's text in line (LKP's oops_map key): 1, or 0 when line is no report. */
static int header_key(const char *line, char *key, size_t keylen)
{
	regmatch_t m[10], best = {-1, -1};
	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++)
		if (find(headers[i], line, 0, m) && (best.rm_so < 0 || m[0].rm_so < best.rm_so))
			best = m[0];
	if (best.rm_so < 0)
		return 0;
	snprintf(key, keylen, "%.*s", (int)(best.rm_eo - best.rm_so), line + best.rm_so);
	return 1;
}

/* LKP's handle_simple_patterns and handle_composite_patterns: the line becomes the groups of
 * the first expression that matches. */
static const char *const simple[] = {
    "(INFO: rcu[_a-z]* self-detected stall on CPU)",
    "(INFO: rcu[_a-z]* detected stalls on CPUs/tasks:)",
    "(related general protection fault:)",
    "(BUG: using __this_cpu_read\\(\\) in preemptible)",
    "(BUG: unable to handle kernel)",
    "(BUG: workqueue leaked lock or atomic:)",
    "(BUG: scheduling while atomic:)",
    "(BUG: Bad page map in process)",
    "(BUG: Bad page state in process)",
    "(BUG: Bad page cache in process)",
    "(BUG: soft lockup - CPU#[0-9]+ stuck for [0-9]+s!.*)",
    "(BUG: spinlock .* on CPU#[0-9]+)",
    "(Out of memory: Kill process) [0-9]+ \\(",
    "(BUG: workqueue lockup - pool)",
    "(rcu_sched kthread starved) for [0-9]+ jiffies",
    "(used greatest stack depth:)",
    "([A-Z]+[ a-zA-Z]*): [a-f0-9]{4} \\[#[0-9]+\\] ",
    "(BUG: KASAN: [-a-z_ ]+ in [a-z_]+)\\+",
    "(BUG: KFENCE: [-a-z_ ]+ in [a-z_]+)\\+",
    "(Kernel panic - not syncing: No working init found\\.)  Try passing init= option to "
    "kernel\\. ",
    "(Kernel panic - not syncing: No init found\\.)  Try passing init= option to kernel\\. ",
    "(BUG: ).* (still has locks held)",
    "(INFO: task ).* (blocked for more than [0-9]+ seconds)",
};

/* LKP's handle_known_patterns on line (in place). */
static void known_patterns(char *line, size_t cap)
{
	regmatch_t m[10];
	char out[LINE_MAX_ID] = "";
	for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++)
		if (find(simple[i], line, 0, m)) {
			put_repl(out, sizeof(out), m[2].rm_so >= 0 ? "\\1\\2" : "\\1", line, m);
			snprintf(line, cap, "%s", out);
			return;
		}
	if (find("WARNING:.* at .* ([a-zA-Z.0-9_]+\\+0x)", line, 0, m)) {
		const char *at = strstr(line, "at ");
		snprintf(out, sizeof(out), "WARNING: %s", at);
	} else if (find("(UBSAN: .+)", line, 0, m) ||
	           find("(BUG: using smp_processor_id\\(\\) in preemptible)", line, 0, m)) {
		put_repl(out, sizeof(out), "\\1", line, m);
	} else if (find("(BUG: key )[0-9a-f]+ (not in \\.data)", line, 0, m)) {
		put_repl(out, sizeof(out), "\\1\\2", line, m);
	} else if (find("BUG: Bad rss-counter state mm:([0-9a-f]+|\\(_*ptrval_*\\)) ", line, 0,
	                m)) {
		snprintf(out, sizeof(out), "%s", line);
		sub(out, sizeof(out), "BUG: Bad rss-counter state mm:([0-9a-f]+|\\(_*ptrval_*\\)) ",
		    "BUG: Bad rss-counter state mm:# ");
	} else if (find("Bad pagetable: [0-9a-f]+ \\[#", line, 0, m)) {
		snprintf(out, sizeof(out), "%s", line);
		sub(out, sizeof(out), "Bad pagetable: [0-9a-f]+ \\[#", "Bad pagetable: # [#");
	} else if (find("(.*) \\]---(.*)", line, 0, m)) {
		put_repl(out, sizeof(out), "\\1\\2", line, m);
	} else {
		return;
	}
	snprintf(line, cap, "%s", out);
}

/* LKP's common_error_id. */
static void common_error_id(char *s, size_t cap)
{
	gsub(s, cap, "\\b[3-9]\\.[0-9]+[-a-z0-9.]+", "#");
	gsub(s, cap, "\\b[1-9][0-9]-[A-Z][a-z]+-[0-9]{4}\\b", "#");
	gsub(s, cap, "\\b0x[0-9a-f]+\\b", "#");
	gsub(s, cap, "\\b[a-f0-9]{40}\\b", "#");
	gsub(s, cap, "\\b[0-9][0-9.]*", "#");
	gsub(s, cap, "#x\\b", "0x");
	gsub(s, cap, "[\\\\\"$]", "~");
	gsub(s, cap, "\t", " ");
	gsub(s, cap, "  +", " ");
	gsub(s, cap, "([^a-zA-Z0-9]) ", "\\1");
	gsub(s, cap, " ([^a-zA-Z])", "\\1");
	gsub(s, cap, "^ ", "");
	gsub(s, cap, "  _", "_");
	for (char *p = s; *p; p++)
		if (*p == ' ')
			*p = '_';
	gsub(s, cap, "[-_.,;:#!*[(]+$", "");
}

/* LKP's generate_error_id, without etc/linux-device-names. */
static void generate_error_id(char *s, size_t cap)
{
	gsub(s, cap, " \\]$", "");
	gsub(s, cap, "\\.(isra|constprop|part)\\.[0-9]+", "");
	gsub(s, cap,
	     "\\b(bcache|blkext|btt|dasd|drbd|fd|hd|jsfd|lloop|loop|md|mdp|mmc|nbd|nd_blk|nfhd|"
	     "nullb|nvme|pmem|ramdisk|scm|sd|simdisk|sr|ubd|ubiblock|virtblk|xsysace|zram)[0-9]+",
	     "\\1#");
	gsub(s, cap, "\\b[0-9a-f]{8}\\b", "#");
	gsub(s, cap, "\\b[0-9a-f]{16}\\b", "#");
	gsub(s, cap, "(=)[0-9a-f]+\\b", "\\1#");
	gsub(s, cap, "[+/]0x[0-9a-f]+\\b", "");
	gsub(s, cap, "[+/][0-9a-f]+\\b", "");
	gsub(s, cap, " \\(Tainted:.+\\)", "");
	common_error_id(s, cap);
	gsub(s, cap, "([a-z]:)[0-9]+\\b", "\\1");
	gsub(s, cap, "#:\\[<#>\\]\\[<#>\\]", "");
	gsub(s, cap, "RIP:#:", "RIP:");
	gsub(s, cap, "[^/a-zA-Z0-9_]\\w[0-9]+\\W", "#");
	gsub(s, cap, "\\W\\w[0-9]+[^/a-zA-Z0-9_]", "#");
}

int bb_dmesg_stat(const char *line, char *out, size_t outlen)
{
	char id[LINE_MAX_ID];
	if (strlen(line) >= sizeof(id) / 2 || !header_key(line, id, sizeof(id)))
		return 0;
	/* preprocess_line: a syslog prefix, a PRINTK_CALLER tag, what precedes the first letter */
	sub(id, sizeof(id), "^(kern  |user  |daemon):......: ", "");
	sub(id, sizeof(id), "\\[ {0,4}[A-Z][0-9]{1,5}\\] ", " ");
	sub(id, sizeof(id), "^[^a-zA-Z]+", "");
	known_patterns(id, sizeof(id));
	generate_error_id(id, sizeof(id));
	if (strlen(id) <= 3)
		return 0;
	snprintf(out, outlen, "dmesg.%s", id);
	return 1;
}

/* Add line's stat, if it has one, to stats (stat -> the first line that had it). 0 or -ENOMEM. */
static int bb_dmesg_add_line(struct bb_kvs *stats, const char *line)
{
	char stat[LINE_MAX_ID + 8];
	if (!bb_dmesg_stat(line, stat, sizeof(stat)) || bb_kvs_get(stats, stat))
		return 0;
	return bb_kvs_add(stats, stat, line);
}

/* Every header above has one of these words: the expressions run only for such lines. */
static int maybe_report(const char *line)
{
	static const char *const words[] = {"BUG",  "INFO:", "WARNING:", "panic", "PANIC",
	                                    "Oops", "UBSAN", "KASAN",    "[#",    "!"};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(line, words[i]))
			return 1;
	return 0;
}

int bb_dmesg_scan_file(const char *path, struct bb_kvs *stats)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int r = 0;
	while (!r && (n = getline(&line, &cap, f)) >= 0) {
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (maybe_report(line))
			r = bb_dmesg_add_line(stats, line);
	}
	free(line);
	fclose(f);
	return r;
}
