/* The environment differences compare shows (lib/host/compare/envdiff.c): what changes from
 * boot to boot by nature stays out, the boot's turn of the run order included. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "host/compare/envdiff.h"

static void rec(struct bb_kvs *kv, const char *cmdline, const char *turn)
{
	memset(kv, 0, sizeof(*kv));
	CHECK_INT(bb_kvs_set(kv, "kernel.cmdline", cmdline), ==, 0);
	CHECK_INT(bb_kvs_set(kv, "order_rotate", turn), ==, 0);
	CHECK_INT(bb_kvs_set(kv, "boot_id", turn), ==, 0);
}

TEST(turn_of_the_run_order_is_no_difference)
{
	/* two kernels, 3 boots: A in rounds 0 and 1, B in round 0 only */
	struct bb_kvs a[2], b[1];
	rec(&a[0], "console=ttyS0 quiet benchboot.order.rotate=0", "0");
	rec(&a[1], "console=ttyS0 quiet benchboot.order.rotate=1", "1");
	rec(&b[0], "console=ttyS0 quiet benchboot.order.rotate=0", "0");
	const struct bb_kvs *pa[] = {&a[0], &a[1]}, *pb[] = {&b[0]};
	struct bb_env_diff *d;
	size_t n;
	CHECK_INT(bb_env_diff_compute(pa, 2, pb, 1, &d, &n), ==, 0);
	CHECK_INT(n, ==, 0);
	bb_env_diffs_free(d, n);
	/* a real difference of the command lines is still one, shown without the turn */
	bb_kvs_free(&b[0]);
	rec(&b[0], "console=ttyS0 quiet bbside=b benchboot.order.rotate=0", "0");
	CHECK_INT(bb_env_diff_compute(pa, 2, pb, 1, &d, &n), ==, 0);
	CHECK_INT(n, ==, 1);
	CHECK_STR(d[0].key, "kernel.cmdline");
	CHECK_STR(d[0].a, "console=ttyS0 quiet");
	CHECK_STR(d[0].b, "console=ttyS0 quiet bbside=b");
	bb_env_diffs_free(d, n);
	for (int i = 0; i < 2; i++)
		bb_kvs_free(&a[i]);
	bb_kvs_free(&b[0]);
}
