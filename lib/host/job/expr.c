/* LKP's {{ }} expressions (see expr.h): a tokenizer, a recursive-descent parser into a small
 * tree, its evaluation for one run, and the literal results of every branch. */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/job/expr.h"

enum tok { T_END, T_STR, T_NUM, T_NAME, T_REGEX, T_OP, T_NL };

enum node_kind { N_LIT, N_NIL, N_BOOL, N_VAR, N_EQ, N_NE, N_MATCH, N_AND, N_OR, N_TERN, N_CASE };

#define MAX_NODES 256
#define MAX_ARMS 32

struct node {
	enum node_kind kind;
	char *text; /* N_LIT, N_VAR, N_MATCH (the regex) */
	int b;      /* N_BOOL */
	struct node *a, *c, *d;
	/* N_CASE: subject a (NULL: an `if`, whose arms are conditions); arms: when values or
	 * conditions (nwhen per arm), results; otherwise d (NULL: nil) */
	size_t narms;
	struct node *when[MAX_ARMS][8];
	size_t nwhen[MAX_ARMS];
	struct node *then[MAX_ARMS];
};

struct parser {
	const char *src, *p;
	enum tok tok;
	char text[256];
	struct node *nodes;
	size_t nnodes;
	char *err;
	size_t errlen;
	int failed;
};

static int fail(struct parser *ps, const char *what)
{
	if (!ps->failed)
		snprintf(ps->err, ps->errlen,
		         "%s at '%.20s' (LKP's job files use 'text', names, ==, "
		         "!=, =~ /re/, &&, ||, ? :, case/when and if/elsif; docs/jobs.md)",
		         what,
		         ps->p > ps->src + strlen(ps->text) ? ps->p - strlen(ps->text) : ps->p);
	ps->failed = 1;
	return -EINVAL;
}

static int is_word(const char *w, const char *kw)
{
	size_t n = strlen(kw);
	return !strncmp(w, kw, n) && !(isalnum((unsigned char)w[n]) || w[n] == '_');
}

/* The next token into ps->tok / ps->text. `prev_value`: a / here starts a regex only after =~. */
static int next(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r')
		ps->p++;
	const char *s = ps->p;
	ps->text[0] = 0;
	if (!*s) {
		ps->tok = T_END;
		return 0;
	}
	if (*s == '\n' || *s == ';') {
		ps->tok = T_NL;
		ps->p++;
		snprintf(ps->text, sizeof ps->text, "%c", *s);
		return 0;
	}
	if (*s == '\'' || *s == '"' || *s == '/') {
		const char *e = strchr(s + 1, *s);
		if (!e || e - s - 1 >= (long)sizeof ps->text)
			return fail(ps, *s == '/' ? "an unended regex" : "an unended string");
		ps->tok = *s == '/' ? T_REGEX : T_STR;
		snprintf(ps->text, sizeof ps->text, "%.*s", (int)(e - s - 1), s + 1);
		ps->p = e + 1;
		return 0;
	}
	if (isdigit((unsigned char)*s)) {
		size_t n = strspn(s, "0123456789");
		if (isalpha((unsigned char)s[n]) || s[n] == '.')
			return fail(ps, "a number with a suffix (quote it: '16M')");
		ps->tok = T_NUM;
		snprintf(ps->text, sizeof ps->text, "%.*s", (int)n, s);
		ps->p += n;
		return 0;
	}
	if (isalpha((unsigned char)*s) || *s == '_') {
		size_t n = 0;
		while (isalnum((unsigned char)s[n]) || s[n] == '_' ||
		       (s[n] == '.' && (isalpha((unsigned char)s[n + 1]) || s[n + 1] == '_')))
			n++;
		if (n >= sizeof ps->text)
			return fail(ps, "a name too long");
		ps->tok = T_NAME;
		snprintf(ps->text, sizeof ps->text, "%.*s", (int)n, s);
		ps->p += n;
		if (*ps->p == '(' || (*ps->p == '.' && isalpha((unsigned char)ps->p[1])))
			return fail(ps, "a method call");
		return 0;
	}
	static const char *const ops[] = {"==", "!=", "=~", "&&", "||", "?",
	                                  ":",  "(",  ")",  ",",  NULL};
	for (size_t i = 0; ops[i]; i++)
		if (!strncmp(s, ops[i], strlen(ops[i]))) {
			ps->tok = T_OP;
			snprintf(ps->text, sizeof ps->text, "%s", ops[i]);
			ps->p += strlen(ops[i]);
			return 0;
		}
	ps->p++;
	snprintf(ps->text, sizeof ps->text, "%c", *s);
	return fail(ps, "an operator benchboot does not evaluate");
}

static int op_is(const struct parser *ps, const char *op)
{
	return ps->tok == T_OP && !strcmp(ps->text, op);
}

static int kw_is(const struct parser *ps, const char *kw)
{
	return ps->tok == T_NAME && !strcmp(ps->text, kw);
}

static int skip_nl(struct parser *ps)
{
	while (ps->tok == T_NL)
		if (next(ps))
			return -EINVAL;
	return 0;
}

static struct node *new_node(struct parser *ps, enum node_kind k)
{
	if (ps->nnodes >= MAX_NODES) {
		fail(ps, "an expression too large");
		return NULL;
	}
	struct node *n = &ps->nodes[ps->nnodes++];
	memset(n, 0, sizeof *n);
	n->kind = k;
	return n;
}

static struct node *expr(struct parser *ps);

static int is_keyword(const char *w)
{
	static const char *const kws[] = {"case",   "when",  "then", "else", "elsif",
	                                  "if",     "end",   "nil",  "true", "false",
	                                  "unless", "while", "do",   "def",  NULL};
	for (size_t i = 0; kws[i]; i++)
		if (is_word(w, kws[i]) && strlen(w) == strlen(kws[i]))
			return 1;
	return 0;
}

/* case X when V, V then R ... else R end; or if C then R elsif C then R else R end */
static struct node *branches(struct parser *ps, int is_case)
{
	struct node *n = new_node(ps, N_CASE);
	if (!n || next(ps))
		return NULL;
	if (is_case && !(n->a = expr(ps)))
		return NULL;
	if (is_case && skip_nl(ps))
		return NULL;
	for (int first = 1;; first = 0) {
		if (is_case ? !kw_is(ps, "when") : !first && !kw_is(ps, "elsif"))
			break;
		if (n->narms >= MAX_ARMS) {
			fail(ps, "too many branches");
			return NULL;
		}
		size_t a = n->narms++;
		if (is_case || !first)
			if (next(ps))
				return NULL;
		do {
			if (n->nwhen[a] && next(ps)) /* the ',' */
				return NULL;
			if (n->nwhen[a] >= 8) {
				fail(ps, "too many values in one 'when'");
				return NULL;
			}
			if (!(n->when[a][n->nwhen[a]++] = expr(ps)))
				return NULL;
		} while (is_case && op_is(ps, ","));
		if (kw_is(ps, "then")) {
			if (next(ps))
				return NULL;
		} else if (ps->tok != T_NL) {
			fail(ps, is_case ? "a 'when' without 'then' or a new line"
			                 : "an 'if' without 'then' or a new line");
			return NULL;
		}
		if (skip_nl(ps) || !(n->then[a] = expr(ps)) || skip_nl(ps))
			return NULL;
	}
	if (!n->narms) {
		fail(ps, "a 'case' without 'when'");
		return NULL;
	}
	if (kw_is(ps, "else")) {
		if (next(ps) || skip_nl(ps) || !(n->d = expr(ps)) || skip_nl(ps))
			return NULL;
	}
	if (!kw_is(ps, "end")) {
		fail(ps, is_case ? "a 'case' without 'end'" : "an 'if' without 'end'");
		return NULL;
	}
	return next(ps) ? NULL : n;
}

static struct node *primary(struct parser *ps)
{
	struct node *n = NULL;
	if (ps->tok == T_STR || ps->tok == T_NUM) {
		if ((n = new_node(ps, N_LIT)) && !(n->text = strdup(ps->text)))
			return NULL;
	} else if (kw_is(ps, "nil")) {
		n = new_node(ps, N_NIL);
	} else if (kw_is(ps, "true") || kw_is(ps, "false")) {
		if ((n = new_node(ps, N_BOOL)))
			n->b = kw_is(ps, "true");
	} else if (kw_is(ps, "case") || kw_is(ps, "if")) {
		return branches(ps, kw_is(ps, "case"));
	} else if (ps->tok == T_NAME && !is_keyword(ps->text)) {
		if ((n = new_node(ps, N_VAR)) && !(n->text = strdup(ps->text)))
			return NULL;
	} else if (op_is(ps, "(")) {
		if (next(ps) || skip_nl(ps) || !(n = expr(ps)) || skip_nl(ps))
			return NULL;
		if (!op_is(ps, ")")) {
			fail(ps, "a '(' without ')'");
			return NULL;
		}
	} else {
		fail(ps,
		     ps->tok == T_END ? "an expression that ends too soon" : "an unexpected word");
		return NULL;
	}
	return n && !next(ps) ? n : NULL;
}

static struct node *comparison(struct parser *ps)
{
	struct node *l = primary(ps), *n;
	if (!l)
		return NULL;
	if (op_is(ps, "==") || op_is(ps, "!=")) {
		if (!(n = new_node(ps, op_is(ps, "==") ? N_EQ : N_NE)) || next(ps))
			return NULL;
		n->a = l;
		return (n->c = primary(ps)) ? n : NULL;
	}
	if (op_is(ps, "=~")) {
		if (!(n = new_node(ps, N_MATCH)) || next(ps))
			return NULL;
		if (ps->tok != T_REGEX) {
			fail(ps, "=~ without a /regex/");
			return NULL;
		}
		n->a = l;
		if (!(n->text = strdup(ps->text)) || next(ps))
			return NULL;
		return n;
	}
	return l;
}

static struct node *logic(struct parser *ps, int level)
{
	struct node *l = level ? logic(ps, level - 1) : comparison(ps);
	const char *op = level ? "||" : "&&";
	while (l && op_is(ps, op)) {
		struct node *n = new_node(ps, level ? N_OR : N_AND);
		if (!n || next(ps) || skip_nl(ps))
			return NULL;
		n->a = l;
		if (!(n->c = level ? logic(ps, level - 1) : comparison(ps)))
			return NULL;
		l = n;
	}
	return l;
}

static struct node *expr(struct parser *ps)
{
	struct node *c = logic(ps, 1), *n;
	if (!c || !op_is(ps, "?"))
		return c;
	if (!(n = new_node(ps, N_TERN)) || next(ps) || skip_nl(ps))
		return NULL;
	n->a = c;
	if (!(n->c = expr(ps)) || skip_nl(ps))
		return NULL;
	if (!op_is(ps, ":")) {
		fail(ps, "a '?' without ':'");
		return NULL;
	}
	if (next(ps) || skip_nl(ps) || !(n->d = expr(ps)))
		return NULL;
	return n;
}

/* The parts of s: head, the expression (between the first {{ and the last }}), tail. */
static int split(const char *s, size_t *h, size_t *e0, size_t *e1, size_t *t)
{
	const char *a = strstr(s, "{{"), *b = NULL;
	for (const char *p = a ? a : s; a && (p = strstr(p, "}}")); p += 2)
		b = p;
	if (!a || !b || b < a + 2)
		return -1;
	*h = (size_t)(a - s);
	*e0 = *h + 2;
	*e1 = (size_t)(b - s);
	*t = *e1 + 2;
	return 0;
}

int bb_expr_in(const char *s)
{
	size_t h, e0, e1, t;
	return s && !split(s, &h, &e0, &e1, &t);
}

struct tree {
	struct node nodes[MAX_NODES];
	size_t n;
	struct node *root;
};

static void tree_free(struct tree *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->nodes[i].text);
	free(t);
}

static int parse(const char *s, struct tree **out, char *err, size_t errlen)
{
	size_t h, e0, e1, tl;
	if (split(s, &h, &e0, &e1, &tl)) {
		snprintf(err, errlen, "no {{ }} expression");
		return -EINVAL;
	}
	char *text = strndup(s + e0, e1 - e0);
	struct tree *t = calloc(1, sizeof *t);
	if (!text || !t) {
		free(text);
		free(t);
		return -ENOMEM;
	}
	struct parser ps = {
	    .src = text, .p = text, .nodes = t->nodes, .err = err, .errlen = errlen};
	if (!next(&ps) && !skip_nl(&ps))
		t->root = expr(&ps);
	t->n = ps.nnodes;
	if (t->root && !ps.failed && !skip_nl(&ps) && ps.tok != T_END)
		fail(&ps, "more after the expression");
	if (!ps.failed && !t->root)
		snprintf(err, errlen, "out of memory");
	int rc = ps.failed ? -EINVAL : t->root ? 0 : -ENOMEM;
	free(text);
	if (rc)
		tree_free(t);
	else
		*out = t;
	return rc;
}

/* A value: nil, a boolean, or text (a literal or a name's value). */
struct val {
	int nil, is_bool, b;
	const char *s;
};

static int truthy(struct val v)
{
	return !v.nil && (!v.is_bool || v.b);
}

static int equal(struct val a, struct val b)
{
	if (a.nil || b.nil)
		return a.nil && b.nil;
	if (a.is_bool || b.is_bool)
		return a.is_bool && b.is_bool && a.b == b.b;
	return !strcmp(a.s, b.s);
}

static int eval(const struct node *n, const char *(*lookup)(const char *, void *), void *ctx,
                struct val *v, char *err, size_t errlen)
{
	struct val a, c;
	int rc;
	memset(v, 0, sizeof *v);
	switch (n->kind) {
	case N_LIT:
		v->s = n->text;
		return 0;
	case N_NIL:
		v->nil = 1;
		return 0;
	case N_BOOL:
		v->is_bool = 1;
		v->b = n->b;
		return 0;
	case N_VAR:
		v->s = lookup(n->text, ctx);
		v->nil = !v->s;
		return 0;
	case N_EQ:
	case N_NE:
		if ((rc = eval(n->a, lookup, ctx, &a, err, errlen)) ||
		    (rc = eval(n->c, lookup, ctx, &c, err, errlen)))
			return rc;
		v->is_bool = 1;
		v->b = equal(a, c) == (n->kind == N_EQ);
		return 0;
	case N_MATCH: {
		if ((rc = eval(n->a, lookup, ctx, &a, err, errlen)))
			return rc;
		regex_t re;
		if (regcomp(&re, n->text, REG_EXTENDED | REG_NOSUB)) {
			snprintf(err, errlen, "/%s/ is not a regex benchboot reads", n->text);
			return -EINVAL;
		}
		v->is_bool = 1;
		v->b = !a.nil && !a.is_bool && !regexec(&re, a.s, 0, NULL, 0);
		regfree(&re);
		return 0;
	}
	case N_AND:
	case N_OR:
		if ((rc = eval(n->a, lookup, ctx, &a, err, errlen)))
			return rc;
		if (truthy(a) == (n->kind == N_OR)) {
			*v = a;
			return 0;
		}
		return eval(n->c, lookup, ctx, v, err, errlen);
	case N_TERN:
		if ((rc = eval(n->a, lookup, ctx, &a, err, errlen)))
			return rc;
		return eval(truthy(a) ? n->c : n->d, lookup, ctx, v, err, errlen);
	case N_CASE:
		if (n->a && (rc = eval(n->a, lookup, ctx, &a, err, errlen)))
			return rc;
		for (size_t i = 0; i < n->narms; i++)
			for (size_t k = 0; k < n->nwhen[i]; k++) {
				if ((rc = eval(n->when[i][k], lookup, ctx, &c, err, errlen)))
					return rc;
				if (n->a ? equal(a, c) : truthy(c))
					return eval(n->then[i], lookup, ctx, v, err, errlen);
			}
		if (n->d)
			return eval(n->d, lookup, ctx, v, err, errlen);
		v->nil = 1; /* Ruby: a case or if without a match is nil */
		return 0;
	}
	return -EINVAL;
}

/* The literal results of every branch of n. */
static int results(const struct node *n, struct bb_strv *out, int *may_vary)
{
	int rc = 0;
	switch (n->kind) {
	case N_LIT:
		return bb_strv_add(out, n->text);
	case N_NIL:
		return bb_strv_add(out, "nil");
	case N_VAR:
		*may_vary = 1;
		return 0;
	case N_TERN:
		return (rc = results(n->c, out, may_vary)) ? rc : results(n->d, out, may_vary);
	case N_CASE:
		for (size_t i = 0; i < n->narms && !rc; i++)
			rc = results(n->then[i], out, may_vary);
		return rc ? rc : n->d ? results(n->d, out, may_vary) : bb_strv_add(out, "nil");
	default:
		return bb_strv_add(out, "true"); /* a boolean: Ruby's true or false as text */
	}
}

int bb_expr_check(const char *s, struct bb_strv *out, int *may_vary, char *err, size_t errlen)
{
	struct tree *t;
	int rc = parse(s, &t, err, errlen);
	if (rc)
		return rc;
	*may_vary = 0;
	if (out && (rc = results(t->root, out, may_vary)))
		snprintf(err, errlen, "out of memory");
	tree_free(t);
	return rc;
}

int bb_expr_eval(const char *s, const char *(*lookup)(const char *name, void *ctx), void *ctx,
                 char **out, char *err, size_t errlen)
{
	struct tree *t;
	size_t h, e0, e1, tl;
	struct val v;
	int rc = parse(s, &t, err, errlen);
	if (rc)
		return rc;
	*out = NULL;
	rc = eval(t->root, lookup, ctx, &v, err, errlen);
	if (!rc && !v.nil) {
		/* LKP: head and tail around the expression's value, blanks trimmed */
		split(s, &h, &e0, &e1, &tl);
		const char *head = s, *tail = s + tl;
		while (h && isspace((unsigned char)*head))
			head++, h--;
		size_t tn = strlen(tail);
		while (tn && isspace((unsigned char)tail[tn - 1]))
			tn--;
		const char *mid = v.is_bool ? (v.b ? "true" : "false") : v.s;
		if (!(*out = malloc(h + strlen(mid) + tn + 1)))
			rc = -ENOMEM;
		else
			sprintf(*out, "%.*s%s%.*s", (int)h, head, mid, (int)tn, tail);
	}
	tree_free(t);
	return rc;
}

int bb_expr_quote(const char *text, size_t len, char **out, size_t *outlen)
{
	/* each {{ becomes at most 2 quotes and each byte inside at most 3 (\n\ + newline) */
	char *o = malloc(len * 3 + 3), *q = o;
	if (!o)
		return -ENOMEM;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *a = memmem(p, (size_t)(end - p), "{{", 2);
		if (!a) {
			memcpy(q, p, (size_t)(end - p));
			q += end - p;
			break;
		}
		/* LKP's rule: a value's position, `KEY: ` or `- ` before it on its line */
		const char *bol = a;
		while (bol > text && bol[-1] != '\n')
			bol--;
		const char *b = a;
		while (b > bol && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		const char *close = memmem(a + 2, (size_t)(end - a - 2), "}}", 2);
		if (b == a || b == bol || (b[-1] != ':' && b[-1] != '-') || !close) {
			memcpy(q, p, (size_t)(a + 2 - p));
			q += a + 2 - p;
			p = a + 2;
			continue;
		}
		/* the rest of the line after }} belongs to the value (LKP's tail) */
		const char *stop = close + 2;
		while (stop < end && *stop != '\n')
			stop++;
		while (stop > close + 2 &&
		       (stop[-1] == ' ' || stop[-1] == '\t' || stop[-1] == '\r'))
			stop--;
		memcpy(q, p, (size_t)(a - p));
		q += a - p;
		*q++ = '"';
		for (const char *c = a; c < stop; c++) {
			if (*c == '\\' || *c == '"')
				*q++ = '\\';
			if (*c == '\n') {
				*q++ = '\\';
				*q++ = 'n';
				*q++ = '\\';
			}
			*q++ = *c;
		}
		*q++ = '"';
		p = stop;
	}
	*out = o;
	*outlen = (size_t)(q - o);
	return 0;
}
