/* bb_size_parse: the sizes of `collect --max-file-size` and `mkdisk --size`. */
#include <errno.h>
#include "harness.h"
#include "host/size.h"

static unsigned long long parsed(const char *s)
{
	unsigned long long v = 12345;
	if (bb_size_parse(s, &v))
		bb_test_fail(__FILE__, __LINE__, "'%s' refused", s);
	return v;
}

TEST(accepted)
{
	CHECK(parsed("0") == 0);
	CHECK(parsed("4096") == 4096);
	CHECK(parsed("1k") == 1024);
	CHECK(parsed("3K") == 3072);
	CHECK(parsed("64M") == 64ULL << 20);
	CHECK(parsed("64m") == 64ULL << 20);
	CHECK(parsed("2G") == 2ULL << 30);
	CHECK(parsed("2g") == 2ULL << 30);
	CHECK(parsed("1GB") == 1ULL << 30);
	CHECK(parsed("1mb") == 1ULL << 20);
	CHECK(parsed("512B") == 512);
	CHECK(parsed("007K") == 7 << 10);
	CHECK(parsed("18446744073709551615") == ~0ULL);
	CHECK(parsed("17179869183G") == 17179869183ULL << 30);
}

TEST(refused)
{
	static const char *bad[] = {
	    "",
	    "K",
	    "M",
	    "B",
	    "-1",
	    "+1",
	    " 1",
	    "1 ",
	    "1.5G",
	    "1T",
	    "1KK",
	    "1BB",
	    "1KiB",
	    "0x10",
	    "1G2",
	    "1Gx",
	    "abc",
	    "1e3",
	    "\t5",
	    "18446744073709551616",
	    "17179869184G",
	    "18014398509481984K",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned long long v = 12345;
		if (bb_size_parse(bad[i], &v) != -EINVAL)
			bb_test_fail(__FILE__, __LINE__, "'%s' accepted as %llu", bad[i], v);
		CHECK(v == 12345);
	}
	unsigned long long v = 1;
	CHECK_INT(bb_size_parse(NULL, &v), ==, -EINVAL);
}
