/*
 * A small unit-test harness: each TEST runs in its own forked child (as kmod's testsuite does),
 * so a crash or exit in one case cannot take the others down. Output lines, read by tests/run:
 *   PASS file:name      FAIL file:name: why      SKIP file:name: why
 * A test skips only when something it needs is absent (test_need, or a SKIP that says what is
 * missing), never because something failed (FAIL). Under CI=true a skip is a failure, as for
 * the shell tests: CI has everything. Each case has a time limit, BB_TEST_TIMEOUT seconds
 * (default 300); a case that passes it is killed and fails with "timed out".
 */
#ifndef BENCHBOOT_TEST_HARNESS_H
#define BENCHBOOT_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

struct bb_test {
	const char *name;
	void (*fn)(void);
};

#define TEST(tname)                                                                                \
	static void tname(void);                                                                   \
	static const struct bb_test bb_test_##tname                                                \
	    __attribute__((used, section("bb_tests"), aligned(sizeof(void *)))) = {#tname, tname}; \
	static void tname(void)

void bb_test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
void bb_test_skip(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* A fresh empty directory for the running test, removed after it ends. */
const char *test_tmpdir(void);
/* Path of a file under tests/fixtures. */
const char *test_fixture(const char *name);
/* The whole text of a file under tests/fixtures (malloc'd); the test fails when it is missing. */
char *test_slurp(const char *name);
/* Write a file (creating parent directories) under dir; returns its full path (static). */
const char *test_write_file(const char *dir, const char *rel, const char *content);
/* Run a shell command, capture stdout into a malloc'd string; returns exit status. */
int test_run(const char *cmd, char **out);

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond))                                                                       \
			bb_test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                      \
	} while (0)

#define CHECK_INT(a, op, b)                                                                        \
	do {                                                                                       \
		long long _a = (long long)(a), _b = (long long)(b);                                \
		if (!(_a op _b))                                                                   \
			bb_test_fail(__FILE__, __LINE__, "%s %s %s: %lld vs %lld", #a, #op, #b,    \
			             _a, _b);                                                      \
	} while (0)

#define CHECK_STR(a, b)                                                                            \
	do {                                                                                       \
		const char *_a = (a), *_b = (b);                                                   \
		if (!_a || !_b || strcmp(_a, _b))                                                  \
			bb_test_fail(__FILE__, __LINE__, "%s == %s: \"%s\" vs \"%s\"", #a, #b,     \
			             _a ? _a : "(null)", _b ? _b : "(null)");                      \
	} while (0)

/* |got - want| <= tol, for numbers computed in floating point. */
#define CHECK_NEAR(got, want, tol)                                                                 \
	do {                                                                                       \
		double _g = (got), _w = (want), _t = (tol);                                        \
		if (!(fabs(_g - _w) <= _t))                                                        \
			bb_test_fail(__FILE__, __LINE__, "%s = %.12g, expected %.12g (+-%g)",      \
			             #got, _g, _w, _t);                                            \
	} while (0)
/* got equals want up to rounding: a relative 1e-9 (plus 1e-9 near zero). */
#define CHECK_CLOSE(got, want) CHECK_NEAR(got, want, 1e-9 * (fabs((double)(want)) + 1))

#define CHECK_CONTAINS(hay, needle)                                                                \
	do {                                                                                       \
		const char *_h = (hay), *_n = (needle);                                            \
		if (!_h || !strstr(_h, _n))                                                        \
			bb_test_fail(__FILE__, __LINE__, "%s does not contain \"%s\": \"%s\"",     \
			             #hay, _n, _h ? _h : "(null)");                                \
	} while (0)

#define SKIP(...) bb_test_skip(__VA_ARGS__)
#define FAIL(...) bb_test_fail(__FILE__, __LINE__, __VA_ARGS__)
/* Skip the test unless the program `tool` is on PATH (say which package brings it). */
void test_need(const char *tool, const char *package);

#endif
