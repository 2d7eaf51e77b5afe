/* The host's JSON reader (jansson underneath, our tree on top) and writer: lib/host/json.c. */
#include <math.h>

#include "harness.h"
#include "host/json.h"

TEST(json_reader)
{
	char err[128];
	const char *text =
	    "{\"a\": [1, -2.5e3, true, null], \"s\": \"x\\\"\\u00e9\\ud83d\\ude00\\n\","
	    " \"o\": {\"k\": {}}, \"n\": 0.1, \"a\": 7}";
	struct jn *j = bb_jn_parse(text, strlen(text), err, sizeof(err));
	CHECK(j);
	CHECK_INT(j->type, ==, JN_OBJ);
	CHECK_INT(j->n, ==, 4);     /* "a" twice is one member */
	CHECK_STR(j->keys[0], "a"); /* members in the order of the file */
	CHECK_STR(j->keys[3], "n");
	CHECK(bb_jn_get(j, "a")->num == 7); /* the last duplicate wins */
	CHECK_STR(bb_jn_get(j, "s")->str, "x\"\xc3\xa9\xf0\x9f\x98\x80\n");
	CHECK_STR(bb_jn_get(j, "n")->raw, "0.1");
	CHECK_INT(bb_jn_get(bb_jn_get(j, "o"), "k")->type, ==, JN_OBJ);
	bb_jn_free(j);

	text = "[1, -2.5e3, true, null, 12345678901]";
	CHECK((j = bb_jn_parse(text, strlen(text), err, sizeof(err))));
	CHECK_INT(j->type, ==, JN_ARR);
	CHECK(j->items[1]->num == -2500);
	CHECK_STR(j->items[1]->raw, "-2500");
	CHECK_INT(j->items[2]->boolean, ==, 1);
	CHECK_INT(j->items[3]->type, ==, JN_NULL);
	CHECK_STR(j->items[4]->raw, "12345678901");
	char buf[16];
	CHECK_STR(bb_jn_scalar_text(j->items[2], buf, sizeof(buf)), "true");
	bb_jn_free(j);

	/* errors say where: line and column, and what */
	static const struct {
		const char *text, *where;
	} bad[] = {
	    {"{\"a\": 1,}", "line 1 col "},
	    {"[1, 2", "line 1 col "},
	    {"{\"a\":\n 01}", "line 2 col "},
	    {"\"abc", "line 1 col "},
	    {"[1] x", "line 1 col "},
	    {"\"\\u0000\"", "line 1 col "}, /* embedded NUL refused */
	    {"", "line 1 col "},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		j = bb_jn_parse(bad[i].text, strlen(bad[i].text), err, sizeof(err));
		CHECK(!j);
		CHECK_CONTAINS(err, bad[i].where);
		CHECK(strlen(err) > strlen(bad[i].where) + 2);
	}
	char deep[200];
	memset(deep, '[', sizeof(deep));
	CHECK(!bb_jn_parse(deep, sizeof(deep), err, sizeof(err)));
	memset(deep, 0, sizeof(deep));
	for (int i = 0; i < 70; i++)
		deep[i] = '[', deep[139 - i] = ']';
	CHECK(!bb_jn_parse(deep, 140, err, sizeof(err)));
	CHECK_CONTAINS(err, "nested deeper than 64");
}

TEST(json_parse_file)
{
	const char *d = test_tmpdir();
	char err[256], path[512];
	test_write_file(d, "ok.json", "{\"k\": \"v\"}\n");
	test_write_file(d, "bad.json", "{\"k\": }\n");
	snprintf(path, sizeof(path), "%s/ok.json", d);
	struct jn *j = bb_jn_parse_file(path, err, sizeof(err));
	CHECK(j);
	CHECK_STR(bb_jn_get(j, "k")->str, "v");
	bb_jn_free(j);
	snprintf(path, sizeof(path), "%s/bad.json", d);
	CHECK(!bb_jn_parse_file(path, err, sizeof(err)));
	CHECK_CONTAINS(err, "line 1 col ");
	snprintf(path, sizeof(path), "%s/missing.json", d);
	CHECK(!bb_jn_parse_file(path, err, sizeof(err)));
	CHECK_CONTAINS(err, "No such file");
}

/* An object written by members(), read back (NULL if it does not parse). */
static struct jn *written(void (*members)(struct jout *w))
{
	char *buf = NULL, err[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jout w;
	bb_jout_init(&w, f);
	bb_jout_obj_begin(&w);
	members(&w);
	bb_jout_obj_end(&w);
	fclose(f);
	struct jn *j = bb_jn_parse(buf, len, err, sizeof(err));
	free(buf);
	return j;
}

static void round_trip_members(struct jout *w)
{
	bb_jout_key(w, "v");
	bb_jout_arr_begin(w);
	bb_jout_num(w, 0.1);
	bb_jout_num(w, 1e300);
	bb_jout_num(w, NAN);
	bb_jout_int(w, -3);
	bb_jout_arr_end(w);
	bb_jout_key(w, "s");
	bb_jout_str(w, "a\"b\\\n\x01");
	bb_jout_key(w, "e");
	bb_jout_arr_begin(w);
	bb_jout_arr_end(w);
}

TEST(json_writer_round_trip)
{
	struct jn *j = written(round_trip_members);
	CHECK(j);
	const struct jn *v = bb_jn_get(j, "v");
	CHECK_INT(v->n, ==, 4);
	CHECK(v->items[0]->num == 0.1);
	CHECK_STR(v->items[0]->raw, "0.1");
	CHECK(v->items[1]->num == 1e300);
	CHECK_INT(v->items[2]->type, ==, JN_NULL);
	CHECK_STR(bb_jn_get(j, "s")->str, "a\"b\\\n\x01");
	CHECK_INT(bb_jn_get(j, "e")->n, ==, 0);
	bb_jn_free(j);
}

static void kv_members(struct jout *w)
{
	bb_jout_kv_str(w, "empty", "");
	bb_jout_kv_str(w, "none", NULL);
	bb_jout_kv_text(w, "unfilled", "");
	bb_jout_kv_text(w, "none_text", NULL);
	bb_jout_kv_text(w, "text", "x");
	bb_jout_kv_num(w, "num", 2.5);
	bb_jout_kv_int(w, "int", -7);
	bb_jout_kv_bool(w, "yes", 1);
}

TEST(json_writer_members)
{
	struct jn *j = written(kv_members);
	CHECK(j);
	CHECK_INT(bb_jn_get(j, "empty")->type, ==, JN_STR);
	CHECK_STR(bb_jn_get(j, "empty")->str, "");
	CHECK_INT(bb_jn_get(j, "none")->type, ==, JN_NULL);
	CHECK_INT(bb_jn_get(j, "unfilled")->type, ==, JN_NULL);
	CHECK_INT(bb_jn_get(j, "none_text")->type, ==, JN_NULL);
	CHECK_STR(bb_jn_get(j, "text")->str, "x");
	CHECK(bb_jn_get(j, "num")->num == 2.5);
	CHECK_STR(bb_jn_get(j, "int")->raw, "-7");
	CHECK(bb_jn_get(j, "yes")->type == JN_BOOL && bb_jn_get(j, "yes")->boolean);
	bb_jn_free(j);
}

/* Console lines go into run.json (a panic's line, the kernel's reports) and a serial line can
 * carry bytes that are no UTF-8: each maximal invalid subpart is written as U+FFFD (the
 * truncated E2 82 is one), so the file still parses; valid UTF-8 passes through. */
static void bytes_members(struct jout *w)
{
	bb_jout_kv_str(w, "s",
	               "a\xff b \xc3\xa9 \xe2\x82 c \xf0\x9f\x98\x80 \xc0\xaf \xed\xa0\x80.");
	bb_jout_kv_str(w, "k\xfe", "v");
}

TEST(json_writer_bytes_that_are_no_utf8)
{
	struct jn *j = written(bytes_members);
	CHECK(j);
	CHECK_STR(bb_jn_get(j, "s")->str, "a\xef\xbf\xbd b \xc3\xa9 \xef\xbf\xbd c "
	                                  "\xf0\x9f\x98\x80 \xef\xbf\xbd\xef\xbf\xbd "
	                                  "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd.");
	CHECK(bb_jn_get(j, "k\xef\xbf\xbd"));
	bb_jn_free(j);
}
