/* Cases for tests/host/unit-harness.sh: one passes, one skips for an absent tool, one fails,
 * one outlives its time limit. */
#include <unistd.h>

#include "harness.h"

TEST(passes)
{
	CHECK(1);
}

TEST(needs_an_absent_tool)
{
	test_need("benchboot-no-such-tool", "none");
	CHECK(0);
}

TEST(fails)
{
	FAIL("on purpose: %d", 42);
}

TEST(sleeps_past_the_limit)
{
	sleep(30);
}
