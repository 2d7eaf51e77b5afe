/*
 * The candidates of `benchboot bisect --kernels FILE` (host/bisect/kernels.h): a good file with
 * comments, blank lines, '-' for no modules and an extra command line; every malformed line
 * refused with the file, the line and what is wrong; the files a line names checked. And the
 * boots log a bisection resumes from (host/bisect/bootlog.h): written, read back, a cut last
 * line dropped, a bad line in the middle refused with its line.
 */
#include <errno.h>
#include <stdio.h>

#include "harness.h"
#include "host/bisect/bootlog.h"
#include "host/bisect/kernels.h"

static int parse(const char *text, struct bb_bisect_cands *c, char *err, size_t errlen)
{
	return bb_bisect_cands_parse(text, strlen(text), "list.txt", 64, c, err, errlen);
}

TEST(good_file)
{
	struct bb_bisect_cands c;
	char err[512] = "";
	const char *text = "# oldest first\n"
	                   "\n"
	                   "v6.1 /k/v6.1/vmlinuz /k/v6.1/lib/modules/6.1.0\n"
	                   "  v6.2-rc1\t/k/rc1/vmlinuz - init_on_free=1 slub_debug=FZPU  # slow?\n"
	                   "v6.2 /k/v6.2/vmlinuz - foo=\"a b\"\n"
	                   "last /k/last/vmlinuz";
	CHECK_INT(parse(text, &c, err, sizeof(err)), ==, 0);
	CHECK_INT(c.n, ==, 4);
	CHECK_STR(c.v[0].name, "v6.1");
	CHECK_STR(c.v[0].vmlinuz, "/k/v6.1/vmlinuz");
	CHECK_STR(c.v[0].modules, "/k/v6.1/lib/modules/6.1.0");
	CHECK_STR(c.v[0].append, "");
	CHECK_INT(c.v[0].line, ==, 3);
	CHECK_STR(c.v[1].name, "v6.2-rc1");
	CHECK(c.v[1].modules == NULL);
	CHECK_STR(c.v[1].append, "init_on_free=1 slub_debug=FZPU");
	CHECK_INT(c.v[1].line, ==, 4);
	CHECK_STR(c.v[2].append, "foo=\"a b\"");
	CHECK_STR(c.v[3].name, "last");
	CHECK(c.v[3].modules == NULL);
	CHECK_INT(c.v[3].line, ==, 6);
	bb_bisect_cands_free(&c);
}

/* text is refused with an error that says where and what */
static void refused(const char *text, const char *where, const char *what)
{
	struct bb_bisect_cands c;
	char err[512] = "";
	CHECK_INT(parse(text, &c, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, where);
	CHECK_CONTAINS(err, what);
	CHECK(c.v == NULL && c.n == 0);
}

TEST(malformed_lines_name_file_and_line)
{
	refused("a /k/a\nb\nc /k/c\n", "list.txt:2:", "'b' has no VMLINUZ");
	refused("a /k/a\n# x\nb/c /k/b\n", "list.txt:3:", "name 'b/c'");
	refused("a /k/a\nb /k/b\na /k/c\n", "list.txt:3:", "name 'a' is taken by line 1");
	refused("a /k/a\n", "list.txt:", "1 candidate:");
	refused("# nothing\n\n", "list.txt:", "0 candidates");
}

TEST(a_nul_byte_is_refused)
{
	struct bb_bisect_cands c;
	char err[512] = "";
	const char text[] = "a /k/a\nb /k/b\0x\n";
	CHECK_INT(
	    bb_bisect_cands_parse(text, sizeof(text) - 1, "list.txt", 64, &c, err, sizeof(err)), ==,
	    -EINVAL);
	CHECK_CONTAINS(err, "list.txt:2: a NUL byte");
}

TEST(too_many_candidates)
{
	struct bb_bisect_cands c;
	char err[512] = "";
	CHECK_INT(bb_bisect_cands_parse("a /a\nb /b\nc /c\n", 15, "l", 2, &c, err, sizeof(err)), ==,
	          -EINVAL);
	CHECK_CONTAINS(err, "l: 3 candidates, at most 2");
}

TEST(read_checks_the_files_named)
{
	const char *dir = test_tmpdir();
	char text[4096], path[1024];
	struct bb_bisect_cands c;
	char err[1024] = "";
	const char *k = test_write_file(dir, "vmlinuz", "kernel");
	char kernel[1024];
	snprintf(kernel, sizeof(kernel), "%s", k);
	test_write_file(dir, "mods/6.1/modules.dep", "");
	snprintf(text, sizeof(text), "a %s %s/mods/6.1\nb %s -\n", kernel, dir, kernel);
	snprintf(path, sizeof(path), "%s", test_write_file(dir, "good.txt", text));
	CHECK_INT(bb_bisect_cands_read(path, 64, &c, err, sizeof(err)), ==, 0);
	CHECK_INT(c.n, ==, 2);
	bb_bisect_cands_free(&c);

	snprintf(text, sizeof(text), "a %s\nb %s/missing\n", kernel, dir);
	snprintf(path, sizeof(path), "%s", test_write_file(dir, "missing.txt", text));
	CHECK_INT(bb_bisect_cands_read(path, 64, &c, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "missing.txt:2: VMLINUZ ");
	CHECK_CONTAINS(err, "No such file or directory");

	snprintf(text, sizeof(text), "a %s %s\nb %s\n", kernel, kernel, kernel);
	snprintf(path, sizeof(path), "%s", test_write_file(dir, "mods.txt", text));
	CHECK_INT(bb_bisect_cands_read(path, 64, &c, err, sizeof(err)), ==, -EINVAL);
	CHECK_CONTAINS(err, "mods.txt:1: MODULES_DIR ");
	CHECK_CONTAINS(err, "not a folder");

	snprintf(path, sizeof(path), "%s/none.txt", dir);
	CHECK_INT(bb_bisect_cands_read(path, 64, &c, err, sizeof(err)), ==, -ENOENT);
	CHECK_CONTAINS(err, "none.txt");
}

TEST(bootlog_round_trip_and_cut_line)
{
	const char *dir = test_tmpdir();
	char path[1024], err[512] = "", note[512];
	struct bb_bootlog_entry e = {.index = 2, .boot = 1, .n = 3, .vals = {1.5, 2.25, 1e6}};
	struct bb_bootlog_entry *got;
	size_t n;
	snprintf(path, sizeof(path), "%s/boots.jsonl", dir);
	snprintf(e.name, sizeof(e.name), "k2");
	snprintf(e.outcome, sizeof(e.outcome), "ok");
	snprintf(e.stat, sizeof(e.stat), "netperf.Throughput_Mbps");
	snprintf(e.folder, sizeof(e.folder), "0001-x");
	CHECK_INT(bb_bootlog_append(path, &e, err, sizeof(err)), ==, 0);
	e.boot = 2;
	e.n = 0;
	snprintf(e.outcome, sizeof(e.outcome), "hang");
	snprintf(e.detail, sizeof(e.detail), "no console output for \"300\" s");
	CHECK_INT(bb_bootlog_append(path, &e, err, sizeof(err)), ==, 0);
	CHECK_INT(bb_bootlog_read(path, &got, &n, note, sizeof(note), err, sizeof(err)), ==, 0);
	CHECK_INT(n, ==, 2);
	CHECK_STR(got[0].name, "k2");
	CHECK_INT(got[0].index, ==, 2);
	CHECK(got[0].ok);
	CHECK_INT(got[0].n, ==, 3);
	CHECK_CLOSE(got[0].vals[2], 1e6);
	CHECK_STR(got[0].folder, "0001-x");
	CHECK(!got[1].ok);
	CHECK_STR(got[1].outcome, "hang");
	CHECK_STR(got[1].detail, "no console output for \"300\" s");
	CHECK_STR(note, "");
	free(got);

	FILE *f = fopen(path, "a");
	fputs("{\"candidate\": \"k3\", \"ind", f); /* a write cut short */
	fclose(f);
	CHECK_INT(bb_bootlog_read(path, &got, &n, note, sizeof(note), err, sizeof(err)), ==, 0);
	CHECK_INT(n, ==, 2);
	CHECK_CONTAINS(note, "boots.jsonl:3: the last line is cut short");
	free(got);

	f = fopen(path, "a");
	fputs("\n{\"candidate\": \"k3\"}\n", f);
	fclose(f);
	CHECK_INT(bb_bootlog_read(path, &got, &n, note, sizeof(note), err, sizeof(err)), ==,
	          -EINVAL);
	CHECK_CONTAINS(err, "boots.jsonl:3: ");
}
