/* bb_strbuf_printf: the growing text buffer of the LAVA, PXE and plan writers. */
#include <string.h>

#include "harness.h"
#include "host/strbuf.h"

TEST(appends_and_grows)
{
	struct strbuf b = {0};
	bb_strbuf_printf(&b, "%s", "");
	CHECK(b.s != NULL);
	CHECK_STR(b.s, "");
	CHECK_INT(b.len, ==, 0);
	bb_strbuf_printf(&b, "a=%d\n", 1);
	CHECK_STR(b.s, "a=1\n");
	char big[10000];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	for (int i = 0; i < 5; i++)
		bb_strbuf_printf(&b, "%s|%d", big, i);
	CHECK(!b.oom);
	CHECK_INT(b.len, ==, 4 + 5 * (sizeof(big) - 1 + 2));
	CHECK_INT(strlen(b.s), ==, b.len);
	CHECK(b.cap > b.len);
	CHECK(!strncmp(b.s + 4 + 4 * (sizeof(big) + 1) + sizeof(big) - 1, "|4", 3));
	free(b.s);
}

TEST(after_oom_nothing_is_appended)
{
	struct strbuf b = {0};
	bb_strbuf_printf(&b, "kept");
	b.oom = 1;
	bb_strbuf_printf(&b, " dropped");
	CHECK_STR(b.s, "kept");
	CHECK_INT(b.len, ==, 4);
	free(b.s);
}
