/*
 * For tests/unit/test_init_*.c: the init's "/" is a fresh temp dir of the test case, and the
 * console (the init's stdout) a file in it, /console.txt, which init_fake_console() reads.
 */
#ifndef BENCHBOOT_INIT_FAKE_ROOT_H
#define BENCHBOOT_INIT_FAKE_ROOT_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "init.h"

/* A fresh root with the console in it; OPS (if not NULL) replaces the real syscalls. */
static inline const char *init_fake_root(const struct init_ops *ops)
{
	const char *root = test_tmpdir();
	char log[4096];
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

#endif
