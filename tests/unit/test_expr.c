/* LKP's {{ }} expressions (lib/host/job/expr.h) as LKP's real job files write them: case/when
 * with then or new lines, if/elsif/else, the ternary, ==, !=, =~, && and ||, nil dropping a
 * run; anything else refused with the construct. */
#include <errno.h>

#include "harness.h"
#include "host/job/expr.h"

static const char *lookup(const char *name, void *ctx)
{
	const struct bb_kvs *kv = ctx;
	return bb_kvs_get(kv, name);
}

/* the value of s with the given name=value words; "(nil)" for nil */
static const char *value(const char *s, const char *words)
{
	static char buf[256];
	struct bb_kvs kv = {0};
	char err[200], *out;
	bb_kvs_parse_words(&kv, words);
	int rc = bb_expr_eval(s, lookup, &kv, &out, err, sizeof err);
	bb_kvs_free(&kv);
	if (rc) {
		snprintf(buf, sizeof buf, "error: %s", err);
		return buf;
	}
	snprintf(buf, sizeof buf, "%s", out ? out : "(nil)");
	free(out);
	return buf;
}

/* LKP's jobs/fsmark/fsmark.yaml: '16MB' matches no file size LKP's job gives ('16M'), so those
 * runs are nil and dropped, as LKP drops them */
TEST(expr_case_when_then)
{
	const char *e = "{{\n   case fsmark.filesize\n   when '9B' then '256M'\n   when '8K' then "
	                "'1G'\n   when '16MB' then '16G'\n   end\n }}";
	CHECK_STR(value(e, "fsmark.filesize=9B"), "256M");
	CHECK_STR(value(e, "fsmark.filesize=8K"), "1G");
	CHECK_STR(value(e, "fsmark.filesize=16M"), "(nil)");
}

/* LKP's jobs/fsmark/fsmark-nfs-like files: a ternary inside a case, an else, an absent key */
TEST(expr_case_with_ternaries_and_else)
{
	const char *e = "{{ case fs\n when 'ext4' then fs2 == 'nfsv4' ? '50M' : '100M'\n when "
	                "'xfs' then fs2 == 'nfsv4' ? '50M' : '100M'\n else fs2 == 'nfsv4' ? '200M' "
	                ": '400M'\n end }}";
	CHECK_STR(value(e, "fs=ext4 fs2=nfsv4"), "50M");
	CHECK_STR(value(e, "fs=xfs"), "100M"); /* fs2 absent: nil, not nfsv4 */
	CHECK_STR(value(e, "fs=btrfs"), "400M");
	CHECK_STR(value(e, "fs=btrfs fs2=nfsv4"), "200M");
}

/* aim7's style: if/elsif/else across lines, with || and nested ifs */
TEST(expr_if_elsif_else)
{
	const char *e = "{{\n if fs == 'btrfs'\n   if aim7.test == 'disk_src' || aim7.test == "
	                "'disk_rw'\n     500\n   else\n     300\n   end\n elsif fs == 'xfs' && "
	                "aim7.test != 'disk_cp'\n   2000\n else\n   1500\n end\n}}";
	CHECK_STR(value(e, "fs=btrfs aim7.test=disk_rw"), "500");
	CHECK_STR(value(e, "fs=btrfs aim7.test=disk_cp"), "300");
	CHECK_STR(value(e, "fs=xfs aim7.test=disk_src"), "2000");
	CHECK_STR(value(e, "fs=xfs aim7.test=disk_cp"), "1500");
	CHECK_STR(value(e, "fs=ext4"), "1500");
}

/* =~ with a regex, nil in a branch, a bare name, the text around the expression */
TEST(expr_match_nil_and_text_around)
{
	CHECK_STR(value("{{ fs =~ /ext4|xfs/ ? '1000n' : '4000n' }}", "fs=xfs"), "1000n");
	CHECK_STR(value("{{ fs =~ /ext4|xfs/ ? '1000n' : '4000n' }}", "fs=btrfs"), "4000n");
	CHECK_STR(value("{{ fs == 'f2fs' ? nil : 'disk_src' }}", "fs=f2fs"), "(nil)");
	CHECK_STR(value("{{ fs == 'f2fs' ? nil : 'disk_src' }}", "fs=ext4"), "disk_src");
	CHECK_STR(value("{{ md == 'BRAID6' ? '24G': '130G' }}", ""), "130G");
	CHECK_STR(value("pre-{{ fs }}-post", "fs=xfs"), "pre-xfs-post");
	CHECK_STR(value("{{ (fs == 'a' || fs == 'b') && true ? 1 : 2 }}", "fs=b"), "1");
}

/* the literals every branch may give, for checking them as the key's values */
TEST(expr_results)
{
	struct bb_strv r = {0};
	char err[256];
	int vary;
	CHECK_INT(bb_expr_check("{{ case x when 'a', 'b' then '1G' when 'c' then y end }}", &r,
	                        &vary, err, sizeof err),
	          ==, 0);
	CHECK_INT(r.n, ==, 2);
	CHECK_STR(r.v[0], "1G");
	CHECK_STR(r.v[1], "nil"); /* no else: nil */
	CHECK_INT(vary, ==, 1);   /* y's value */
	bb_strv_free(&r);
}

/* what benchboot does not evaluate: said with the construct */
TEST(expr_refused)
{
	char err[256];
	int vary;
	CHECK_INT(bb_expr_check("{{ nr_cpu * 2 }}", NULL, &vary, err, sizeof err), ==, -EINVAL);
	CHECK(strstr(err, "an operator benchboot does not evaluate") != NULL);
	CHECK_INT(bb_expr_check("{{ fs.upcase() }}", NULL, &vary, err, sizeof err), ==, -EINVAL);
	CHECK(strstr(err, "a method call") != NULL);
	CHECK_INT(bb_expr_check("{{ case fs when 'a' then 1 }}", NULL, &vary, err, sizeof err), ==,
	          -EINVAL);
	CHECK(strstr(err, "a 'case' without 'end'") != NULL);
	CHECK_INT(bb_expr_check("{{ fs ? 1 }}", NULL, &vary, err, sizeof err), ==, -EINVAL);
	CHECK(strstr(err, "a '?' without ':'") != NULL);
	CHECK_INT(bb_expr_check("{{ 'a' }} {{ 'b' }} x", NULL, &vary, err, sizeof err), ==,
	          -EINVAL);
}

/* the YAML text: each {{ }} value quoted, line for line */
TEST(expr_quote_keeps_lines)
{
	const char in[] = "a: 1\nts: {{\n  case x\n  when \"y\" then 'z'\n  end\n}}\nlist:\n  - {{ "
	                  "b }}\nc: '{{ not a value }}'\n";
	char *out;
	size_t n;
	CHECK_INT(bb_expr_quote(in, strlen(in), &out, &n), ==, 0);
	size_t lines_in = 0, lines_out = 0;
	for (const char *p = in; *p; p++)
		lines_in += *p == '\n';
	for (size_t i = 0; i < n; i++)
		lines_out += out[i] == '\n';
	CHECK_INT(lines_out, ==, lines_in);
	out[n] = 0;
	CHECK(strstr(out, "ts: \"{{\\n\\\n  case x\\n\\\n  when \\\"y\\\" then 'z'") != NULL);
	CHECK(strstr(out, "  - \"{{ b }}\"\n") != NULL);
	CHECK(strstr(out, "c: '{{ not a value }}'\n") != NULL);
	free(out);
}
