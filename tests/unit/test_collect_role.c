/* bb_collect_boot_role and bb_collect_record_read (lib/host/collect/collect.c): a boot's two-host
 * role is what its env.json recorded, the fallback (a LAVA definition's role) only without a
 * readable env.json; a boot's .collect read back. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "host/collect/collect.h"

static void put(const char *dir, const char *name, const char *text)
{
	char path[8400];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	fputs(text, f);
	fclose(f);
}

static const char *role_of(const char *env, const char *fallback)
{
	static char role[16];
	char dir[4200];
	static int n;
	snprintf(dir, sizeof(dir), "%s/boot%d", test_tmpdir(), n++);
	CHECK_INT(mkdir(dir, 0755), ==, 0);
	if (env)
		put(dir, "env.json", env);
	return bb_collect_boot_role(dir, fallback, role, sizeof(role));
}

TEST(env_json_role_wins_over_the_fallback)
{
	CHECK_STR(role_of("{\"boot_id\": \"a\", \"cluster\": {\"role\": \"server\"}}", "client"),
	          "server");
	CHECK_STR(role_of("{\"boot_id\": \"a\", \"cluster\": {\"role\": \"client\"}}", "server"),
	          "client");
	/* a one-host boot is one, whatever a definition said */
	CHECK_STR(role_of("{\"boot_id\": \"a\", \"cluster\": null}", "server"), "");
}

TEST(fallback_without_a_readable_env_json)
{
	CHECK_STR(role_of(NULL, "server"), "server");
	CHECK_STR(role_of("{\"boot_id\": ", "server"), "server");
	CHECK_STR(role_of(NULL, NULL), "");
}

TEST(record_read_back)
{
	char dir[4200];
	struct collect_record rec;
	snprintf(dir, sizeof(dir), "%s/0001-x", test_tmpdir());
	CHECK_INT(mkdir(dir, 0755), ==, 0);
	CHECK_INT(bb_collect_record_read(AT_FDCWD, dir, &rec), ==, -ENOENT);
	put(dir, ".collect", "source=log\nstatus=incomplete\nfiles=3\nbytes=1234\nproblems=0\n");
	CHECK_INT(bb_collect_record_read(AT_FDCWD, dir, &rec), ==, 0);
	CHECK_STR(rec.status, "incomplete");
	CHECK_STR(rec.source, "log");
	CHECK_INT(rec.files, ==, 3);
	CHECK_INT(rec.bytes, ==, 1234);
}
