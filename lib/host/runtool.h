/* The one way the host library runs a tool to its end (mke2fs, e2fsck, depmod, busybox). */
#ifndef BENCHBOOT_RUNTOOL_H
#define BENCHBOOT_RUNTOOL_H

#include <stddef.h>

struct bytebuf;

/* Where the tool's stdout goes: into *captured, to our stderr, or to /dev/null, its stderr
 * being ours; or both appended to the file log (a build's log). */
enum bb_tool_out { BB_TOOL_CAPTURE, BB_TOOL_TO_STDERR, BB_TOOL_TO_NULL, BB_TOOL_TO_LOG };

struct bb_tool {
	char *const *argv;       /* argv[0]: a path, or a name looked up in $PATH, then in dirs */
	const char *const *dirs; /* NULL-terminated, e.g. {"/sbin", NULL}; may be NULL */
	enum bb_tool_out out;
	struct bytebuf *captured;         /* BB_TOOL_CAPTURE: appended to */
	const char *env_name, *env_value; /* one variable set for the tool (NULL: none) */
	const char *log;                  /* BB_TOOL_TO_LOG: the file appended to */
	/* Not with BB_TOOL_CAPTURE: called every tick_s seconds while the tool runs (progress
	 * of a long build); NULL: none */
	void (*tick)(void *ctx, unsigned seconds);
	void *tick_ctx;
	unsigned tick_s;
};

/*
 * Run the tool and wait for it. 0 with its wait status in *status (WIFEXITED...); -ENOEXEC
 * with a message when it could not be run (not found, not executable), another -errno (pipe,
 * fork, reading its output) with a message.
 */
int bb_tool_run(const struct bb_tool *t, int *status, char *err, size_t errlen);

#endif
