/*
 * For tests/unit/test_init_*.c: the init's "/" is a fresh temp dir of the test case, and the
 * console (the init's stdout) a file in it, /console.txt, which init_fake_console() reads.
 */
#ifndef BENCHBOOT_INIT_FAKE_ROOT_H
#define BENCHBOOT_INIT_FAKE_ROOT_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "init.h"

/* What the recording fakes of the init's operations were asked, one call a line, in order
 * (init_fake_record); init_fake_root empties it. */
static char init_fake_calls[8192] __attribute__((unused));

static inline void init_fake_record(const char *fmt, ...)
{
	va_list ap;
	size_t n = strlen(init_fake_calls);
	va_start(ap, fmt);
	vsnprintf(init_fake_calls + n, sizeof(init_fake_calls) - n, fmt, ap);
	va_end(ap);
	strncat(init_fake_calls, "\n", sizeof(init_fake_calls) - strlen(init_fake_calls) - 1);
}

/* The recording fake of init_ops.link_add_dummy. */
static inline int init_fake_link_add_dummy(const char *ifname)
{
	init_fake_record("dummy %s", ifname);
	return 0;
}

/* A plan of these global lines ("key=value\n"...), or the test case fails. */
static inline void init_fake_plan(struct bb_plan *p, const char *globals)
{
	char text[2048], err[256];
	snprintf(text, sizeof(text), "benchboot-plan 1\n%s", globals);
	if (bb_plan_parse(text, strlen(text), p, err, sizeof(err)))
		bb_test_fail(__FILE__, __LINE__, "plan: %s", err);
}

/* A fresh root with the console in it; OPS (if not NULL) replaces the real syscalls. */
static inline const char *init_fake_root(const struct init_ops *ops)
{
	const char *root = test_tmpdir();
	char log[4096];
	init_fake_calls[0] = 0;
	init_root = root;
	if (ops)
		init_ops = ops;
	snprintf(log, sizeof(log), "%s/console.txt", root);
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		bb_test_fail(__FILE__, __LINE__, "cannot create %s", log);
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	return root;
}

/* What the init printed so far (never NULL; free it). */
static inline char *init_fake_console(void)
{
	char *s = init_read("/console.txt", NULL);
	return s ? s : strdup("");
}

/*
 * A 4 MB ext4 image labelled BENCHBOOT (no marker) at ROOT/NAME.img, seen by the init as block
 * device NAME (DEV "MAJ:MIN", under /sys/class/block and /dev); its path in img. 0, or the
 * failing command's status with its output in *out (free it).
 */
static inline int init_fake_disk(const char *root, const char *name, const char *dev, char *img,
                                 size_t len, char **out)
{
	char cmd[8192], rel[256], devline[64];
	snprintf(img, len, "%s/%s.img", root, name);
	snprintf(cmd, sizeof(cmd),
	         "truncate -s 4M %s && mke2fs -q -F -t ext4 -L BENCHBOOT -m 0 -b 4096 %s 2>&1", img,
	         img);
	int r = test_run(cmd, out);
	if (r)
		return r;
	free(*out);
	snprintf(rel, sizeof(rel), "sys/class/block/%s/size", name);
	test_write_file(root, rel, "8192\n");
	snprintf(rel, sizeof(rel), "sys/class/block/%s/dev", name);
	snprintf(devline, sizeof(devline), "%s\n", dev);
	test_write_file(root, rel, devline);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/dev && ln -s %s %s/dev/%s", root, img, root, name);
	return test_run(cmd, out);
}

#endif
