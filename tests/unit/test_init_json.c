/*
 * The init's JSON writer (init/json.c) quotes through lib/jsonstr.c: an env.json-shaped
 * record with noise in its keys and values (a kernel command line, a governor name, a
 * console line with serial garbage) is saved under the fake root and read back with jansson,
 * which refuses ill-formed UTF-8. The quoter's own cases are in test_jsonstr.c.
 */
#include <jansson.h>

#include "harness.h"
#include "init_fake_root.h"
#include "json.h"

#define FFFD "\xef\xbf\xbd"

/* Unicode 15 Table 3-8's bytes, a terminal escape, a tab, a quote and an emoji. */
static const char noisy[] = "a\xf1\x80\x80\xe1\x80\xc2"
                            "b\x80"
                            "c\x80\xbf"
                            "d \x1b[0m\t\"\xf0\x9f\x98\x80\xed\xa0\x80\x7f";
static const char decoded[] =
    "a" FFFD FFFD FFFD "b" FFFD "c" FFFD FFFD "d \x1b[0m\t\"\xf0\x9f\x98\x80" FFFD FFFD FFFD "\x7f";

TEST(init_json_env_record_with_noise_parses_with_jansson)
{
	char path[4096], gov[256] = "{\"cpu0\": ";
	init_fake_root(NULL);
	ijson_quote(gov, sizeof(gov), noisy);
	strcat(gov, "}");

	struct ijw w = {0};
	ijw_open(&w, NULL, '{');
	ijw_str(&w, "cmdline", noisy);
	ijw_str(&w, noisy, "key");
	ijw_raw(&w, "cpufreq", gov);
	ijw_open(&w, "lines", '[');
	ijw_str(&w, NULL, noisy);
	ijw_str(&w, NULL, NULL);
	ijw_close(&w, ']');
	ijw_close(&w, '}');
	CHECK_INT(ijw_save(&w, "/env.json"), ==, 0);
	ijw_free(&w);

	json_error_t je;
	snprintf(path, sizeof(path), "%s/env.json", init_root);
	json_t *root = json_load_file(path, 0, &je);
	if (!root)
		bb_test_fail(__FILE__, __LINE__, "jansson: line %d: %s", je.line, je.text);
	CHECK_STR(json_string_value(json_object_get(root, "cmdline")), decoded);
	CHECK_STR(json_string_value(json_object_get(root, decoded)), "key");
	CHECK_STR(json_string_value(json_object_get(json_object_get(root, "cpufreq"), "cpu0")),
	          decoded);
	json_t *lines = json_object_get(root, "lines");
	CHECK_STR(json_string_value(json_array_get(lines, 0)), decoded);
	CHECK(json_is_null(json_array_get(lines, 1)));
	json_decref(root);
}
