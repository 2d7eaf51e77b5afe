/*
 * The one JSON string writer (lib/jsonstr.c): exact output for a table of cases, then noise
 * (pseudo-random bytes, fixed seed) quoted, parsed back with jansson and compared with a
 * reference written here from the definition of UTF-8 (code point arithmetic, not a table);
 * then the same noise through the host's writer (jout) and results.json (lib/results/resjson.c).
 * The init's writer (init/json.c) is checked in test_init_json.c.
 */
#include <errno.h>
#include <stdint.h>

#include <jansson.h>

#include "harness.h"
#include "host/json.h"
#include "jsonstr.h"
#include "test_rng.h"
#include "results/resjson.h"

#define FFFD "\xef\xbf\xbd"

struct out {
	char buf[4096];
	size_t n;
};

static void out_put(void *ctx, const char *p, size_t n)
{
	struct out *o = ctx;
	CHECK(o->n + n < sizeof(o->buf));
	memcpy(o->buf + o->n, p, n);
	o->n += n;
	o->buf[o->n] = 0;
}

static const char *quoted(const char *s, struct out *o)
{
	o->n = 0;
	o->buf[0] = 0;
	bb_jsonstr_write(s, out_put, o);
	return o->buf;
}

/* A failure message shows bytes as C escapes. */
static const char *visible(const char *s)
{
	static char b[2][1024];
	static int k;
	char *v = b[k ^= 1];
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p && n + 5 < sizeof(b[0]); p++)
		n += (size_t)snprintf(v + n, sizeof(b[0]) - n,
		                      *p >= 0x20 && *p < 0x7f ? "%c" : "\\x%02x", *p);
	v[n] = 0;
	return v;
}

static const struct {
	const char *name, *in, *want; /* want: the literal, quotes included */
} cases[] = {
    {"empty", "", "\"\""},
    {"ascii", "netperf.Throughput_Mbps 1/2", "\"netperf.Throughput_Mbps 1/2\""},
    {"quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\""},
    {"short escapes", "\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\""},
    {"other controls and DEL", "\x01\x1f\x1b[0m\x7f", "\"\\u0001\\u001f\\u001b[0m\\u007f\""},
    {"2-byte", "\xc2\x80 \xc3\xa9 \xdf\xbf", "\"\xc2\x80 \xc3\xa9 \xdf\xbf\""},
    {"3-byte", "\xe0\xa0\x80 \xe2\x82\xac \xed\x9f\xbf \xee\x80\x80 \xef\xbf\xbf",
     "\"\xe0\xa0\x80 \xe2\x82\xac \xed\x9f\xbf \xee\x80\x80 \xef\xbf\xbf\""},
    {"4-byte", "\xf0\x90\x80\x80 \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf",
     "\"\xf0\x90\x80\x80 \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf\""},
    {"U+FFFD itself", FFFD, "\"" FFFD "\""},
    {"lone continuation bytes", "\x80.\xbf\x80", "\"" FFFD "." FFFD FFFD "\""},
    {"never in UTF-8", "\xc0.\xc1.\xf5.\xf8.\xfe.\xff",
     "\"" FFFD "." FFFD "." FFFD "." FFFD "." FFFD "." FFFD "\""},
    {"overlong 2-byte", "\xc0\xaf", "\"" FFFD FFFD "\""},
    {"overlong 3-byte", "\xe0\x80\xaf", "\"" FFFD FFFD FFFD "\""},
    {"overlong 4-byte", "\xf0\x80\x80\xaf", "\"" FFFD FFFD FFFD FFFD "\""},
    {"surrogates", "\xed\xa0\x80\xed\xbf\xbf", "\"" FFFD FFFD FFFD FFFD FFFD FFFD "\""},
    {"above U+10FFFF", "\xf4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\""},
    {"truncated 2-byte", "\xc3", "\"" FFFD "\""},
    {"truncated 3-byte", "\xe2\x82.\xe2", "\"" FFFD "." FFFD "\""},
    {"truncated 4-byte", "\xf0\x9f\x98.\xf0\x9f.\xf4\x8f\xbf", "\"" FFFD "." FFFD "." FFFD "\""},
    {"truncated then valid", "\xe2\x82\xc3\xa9\xf0\x9f\x98\xf0\x9f\x98\x80",
     "\"" FFFD "\xc3\xa9" FFFD "\xf0\x9f\x98\x80\""},
    {"truncated then escape", "\xe2\"\xc3\n", "\"" FFFD "\\\"" FFFD "\\n\""},
    /* Unicode 15, Table 3-8: U+FFFD for maximal subparts */
    {"Unicode table 3-8", "\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64",
     "\"a" FFFD FFFD FFFD "b" FFFD "c" FFFD FFFD "d\""},
};

TEST(jsonstr_table)
{
	struct out o;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		if (strcmp(quoted(cases[i].in, &o), cases[i].want))
			bb_test_fail(__FILE__, __LINE__, "%s: \"%s\", expected \"%s\"",
			             cases[i].name, visible(o.buf), visible(cases[i].want));
}

TEST(jsonstr_append_cuts_where_it_does_not_fit)
{
	char buf[12] = "{\"g\": ";
	CHECK_INT(bb_jsonstr_append(buf, sizeof(buf), "ab\n"), ==, 11);
	CHECK_STR(buf, "{\"g\": \"ab\\n");
	strcpy(buf, "[");
	CHECK_INT(bb_jsonstr_append(buf, sizeof(buf), "\xff"), ==, 6);
	CHECK_STR(buf, "[\"" FFFD "\"");
	CHECK_INT(bb_jsonstr_append(buf, 1, "x"), ==, 0);
}

/*
 * The reference: s with each maximal subpart of an ill-formed sequence replaced by U+FFFD,
 * from the definition. A prefix of k bytes of an n-byte sequence can still become a
 * well-formed one when the code points it can start (the rest 80 or BF) meet the range of
 * n-byte code points outside the surrogates.
 */
static int can_continue(const unsigned char *p, int k, int n)
{
	static const uint32_t first[] = {0, 0, 0x80, 0x800, 0x10000},
	                      last[] = {0, 0, 0x7ff, 0xffff, 0x10ffff};
	uint32_t lo = p[0] & (0xff >> (n + 1)), hi;
	for (int i = 1; i < k; i++)
		lo = lo << 6 | (p[i] & 0x3f);
	hi = lo;
	for (int i = k; i < n; i++)
		lo = lo << 6, hi = hi << 6 | 0x3f;
	if (hi < first[n] || lo > last[n])
		return 0;
	return !(lo >= 0xd800 && hi <= 0xdfff);
}

static void reference(const char *s, char *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;
	while (*p) {
		int n = *p < 0x80       ? 1
		        : *p >> 5 == 6  ? 2
		        : *p >> 4 == 14 ? 3
		        : *p >> 3 == 30 ? 4
		                        : 0;
		int k = n ? 1 : 0;
		while (k && k < n && (p[k] & 0xc0) == 0x80 && can_continue(p, k + 1, n))
			k++;
		if (n && k == n && (n == 1 || can_continue(p, n, n))) {
			memcpy(out + o, p, (size_t)n);
			o += (size_t)n;
		} else {
			memcpy(out + o, FFFD, 3);
			o += 3;
		}
		p += k ? k : 1;
	}
	out[o] = 0;
}

/* Noise: runs of ASCII, control characters, random high bytes and pieces of valid UTF-8,
 * so both well-formed strings and every kind of ill-formed sequence come up. Returns 1 when
 * s is valid UTF-8 by construction (ASCII and whole pieces only). */
static uint64_t rng = 0x2545f4914f6cdd1dull;

static unsigned next(void)
{
	return (unsigned)(test_rng_next(&rng) >> 16);
}

static int noise(char *s, size_t max)
{
	static const char *const pieces[] = {"\xc3\xa9",     "\xe2\x82\xac",     "\xf0\x9f\x98\x80",
	                                     "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf", "\xe0\xa0\x80"};
	size_t n = 0, len = next() % max;
	int mode = next() % 4; /* 0: all valid */
	while (n < len) {
		unsigned r = next() % 8;
		const char *piece = pieces[next() % 6];
		if (r < 3 || (mode == 0 && r >= 6) || (r < 6 && n + 4 >= len)) {
			s[n++] = (char)(0x20 + next() % 0x5f);
		} else if (r < 6) {
			size_t l = strlen(piece);
			if (mode && r == 5)
				l = 1 + next() % l; /* maybe cut short */
			memcpy(s + n, piece, l);
			n += l;
		} else if (r == 6) {
			s[n++] = (char)(1 + next() % 0x1f);
		} else {
			s[n++] = (char)(0x80 + next() % 0x80);
		}
	}
	s[n] = 0;
	return mode == 0;
}

static int is_utf8(const char *s)
{
	char ref[4096];
	reference(s, ref);
	return !strcmp(ref, s);
}

/* Parse text with jansson (it refuses ill-formed UTF-8) and check that its one string, at
 * key or as the array's element, is the reference of s, and s itself when s is valid. */
static void check_parsed(const char *text, const char *key, const char *s, int valid, int round)
{
	json_error_t je;
	char want[4096];
	json_t *root = json_loads(text, 0, &je);
	if (!root)
		bb_test_fail(__FILE__, __LINE__, "noise %d: jansson: %s: \"%s\"", round, je.text,
		             visible(text));
	json_t *v = key ? json_object_get(root, key) : json_array_get(root, 0);
	reference(s, want);
	if (!json_is_string(v) || strcmp(json_string_value(v), want))
		bb_test_fail(__FILE__, __LINE__, "noise %d: \"%s\" read back as \"%s\"", round,
		             visible(s),
		             v && json_is_string(v) ? visible(json_string_value(v)) : "?");
	if (valid && strcmp(json_string_value(v), s))
		bb_test_fail(__FILE__, __LINE__, "noise %d: valid UTF-8 changed", round);
	json_decref(root);
}

TEST(jsonstr_reference_agrees_with_the_table)
{
	char ref[256];
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct out o;
		quoted(cases[i].in, &o);
		reference(cases[i].in, ref);
		/* the table's literal minus escapes: compare only cases without any */
		if (!strpbrk(cases[i].in, "\"\\\n\t\r\b\f\x01\x1b\x1f\x7f")) {
			o.buf[o.n - 1] = 0;
			if (strcmp(o.buf + 1, ref))
				bb_test_fail(__FILE__, __LINE__, "%s: reference \"%s\"",
				             cases[i].name, visible(ref));
		}
	}
}

TEST(jsonstr_noise_parses_with_jansson)
{
	int valid = 0, invalid = 0;
	for (int round = 0; round < 20000; round++) {
		char s[200], doc[1024];
		struct out o;
		int built_valid = noise(s, 120);
		snprintf(doc, sizeof(doc), "[%s]", quoted(s, &o));
		check_parsed(doc, NULL, s, built_valid, round);
		if (built_valid)
			CHECK(is_utf8(s));
		if (is_utf8(s))
			valid++;
		else
			invalid++;
	}
	/* the noise did reach both sides */
	CHECK_INT(valid, >, 4000);
	CHECK_INT(invalid, >, 4000);
}

TEST(jsonstr_noise_through_the_host_writer)
{
	for (int round = 0; round < 2000; round++) {
		char s[200], key[64], *text = NULL;
		size_t len = 0;
		int built_valid = noise(s, 120);
		noise(key, 40);
		FILE *m = open_memstream(&text, &len);
		CHECK(m);
		struct jout w;
		bb_jout_init(&w, m);
		bb_jout_obj_begin(&w);
		bb_jout_kv_str(&w, "line", s);
		bb_jout_kv_str(&w, key, "v");
		bb_jout_obj_end(&w);
		CHECK(!fclose(m));
		check_parsed(text, "line", s, built_valid, round);
		char k[256];
		reference(key, k);
		json_t *root = json_loads(text, 0, NULL);
		CHECK(root && json_is_string(json_object_get(root, k)));
		json_decref(root);
		free(text);
	}
}

TEST(jsonstr_noise_through_results_json)
{
	for (int round = 0; round < 2000; round++) {
		struct bb_stats it = {0};
		char name[64], err[256], *text = NULL;
		do
			noise(name, 42); /* at most 41 bytes: 123 once each is U+FFFD */
		while (!*name);
		CHECK_INT(bb_stats_add(&it, name, round + 0.5, ""), ==, 0);
		CHECK_INT(bb_resjson_append(NULL, &it, &text, err, sizeof(err)), ==, 0);
		json_error_t je;
		json_t *root = json_loads(text, 0, &je);
		if (!root)
			bb_test_fail(__FILE__, __LINE__, "noise %d: jansson: %s: \"%s\"", round,
			             je.text, visible(text));
		char want[256];
		reference(name, want);
		json_t *a = json_object_get(root, want);
		CHECK(json_is_array(a) && json_number_value(json_array_get(a, 0)) == round + 0.5);
		json_decref(root);
		/* and the init can append to it: our own reader reads the escapes back */
		struct bb_resjson r;
		if (bb_resjson_parse(text, &r, err, sizeof(err)))
			bb_test_fail(__FILE__, __LINE__, "noise %d: %s: \"%s\"", round, err,
			             visible(text));
		CHECK(bb_resjson_get(&r, want));
		bb_resjson_free(&r);
		bb_stats_free(&it);
		free(text);
	}
}
