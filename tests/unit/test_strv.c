/* The key/value list of strv.h: owned copies, first match wins, defaults, equality. */
#include <string.h>

#include "harness.h"
#include "strv.h"

TEST(kvs_owns_copies_and_finds_the_first_pair)
{
	struct bb_kvs kv = {0};
	char key[] = "runtime", value[] = "10s";
	CHECK_INT(bb_kvs_add(&kv, key, value), ==, 0);
	CHECK_INT(bb_kvs_add(&kv, "runtime", "20s"), ==, 0);
	key[0] = value[0] = 'X'; /* the list holds its own copies */
	CHECK_STR(bb_kvs_get(&kv, "runtime"), "10s");
	CHECK(bb_kvs_get(&kv, "timeout") == NULL);
	CHECK_STR(bb_kvs_get_or(&kv, "timeout", "30s"), "30s");
	CHECK_STR(bb_kvs_get_or(&kv, "runtime", "30s"), "10s");
	CHECK_INT(bb_kvs_set(&kv, "runtime", "5s"), ==, 0);
	CHECK_STR(bb_kvs_get(&kv, "runtime"), "5s");
	CHECK_INT(kv.n, ==, 2);
	bb_kvs_free(&kv);
	CHECK_INT(kv.n, ==, 0);
	CHECK(kv.v == NULL);
}

TEST(kvs_equal_compares_pairs_in_order)
{
	struct bb_kvs a = {0}, b = {0};
	CHECK(bb_kvs_equal(&a, &b));
	CHECK_INT(bb_kvs_add(&a, "cgroup.mode", "v2"), ==, 0);
	CHECK(!bb_kvs_equal(&a, &b));
	CHECK_INT(bb_kvs_add(&b, "cgroup.mode", "v2"), ==, 0);
	CHECK(bb_kvs_equal(&a, &b));
	CHECK_INT(bb_kvs_add(&a, "kernel_cmdline", "quiet"), ==, 0);
	CHECK_INT(bb_kvs_add(&b, "kernel_cmdline", "quiet "), ==, 0);
	CHECK(!bb_kvs_equal(&a, &b));
	bb_kvs_free(&a);
	bb_kvs_free(&b);
	CHECK_INT(bb_kvs_add(&a, "x", "1"), ==, 0);
	CHECK_INT(bb_kvs_add(&a, "y", "1"), ==, 0);
	CHECK_INT(bb_kvs_add(&b, "y", "1"), ==, 0);
	CHECK_INT(bb_kvs_add(&b, "x", "1"), ==, 0);
	CHECK(!bb_kvs_equal(&a, &b)); /* order counts: boot groups keep the file's order */
	bb_kvs_free(&a);
	bb_kvs_free(&b);
}
