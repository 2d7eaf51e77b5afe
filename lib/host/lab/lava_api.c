/* A LAVA server's REST API over libcurl; see lava_api.h. */
#include <curl/curl.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/lab/lava_api.h"
#include "host/errbuf.h"
#include "host/json.h"
#include "host/strbuf.h"

struct lava_api {
	CURL *curl;
	char base[1024];
	struct curl_slist *headers;
};

int bb_lava_api_token(const char *file, char *out, size_t outlen, char *err, size_t errlen)
{
	const char *env = getenv(LAVA_TOKEN_ENV);
	char line[1024] = "";
	if (env && *env) {
		snprintf(line, sizeof(line), "%s", env);
	} else if (file) {
		FILE *f = fopen(file, "r");
		if (!f)
			return bb_errbuf_fail(err, errlen, -errno,
			                      "unable to read the token file %s: %s", file,
			                      strerror(errno));
		if (!fgets(line, sizeof(line), f))
			*line = 0;
		fclose(f);
	} else {
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "no LAVA token: set %s or give --token-file FILE",
		                      LAVA_TOKEN_ENV);
	}
	line[strcspn(line, "\r\n")] = 0;
	size_t n = strlen(line);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)line[i] <= ' ' || line[i] == 0x7f)
			return bb_errbuf_fail(err, errlen, -EINVAL,
			                      "the LAVA token%s%s has a space or a "
			                      "control character",
			                      file && !(env && *env) ? " in " : "",
			                      file && !(env && *env) ? file : "");
	if (!n)
		return bb_errbuf_fail(err, errlen, -EINVAL, "the LAVA token%s%s is empty",
		                      file && !(env && *env) ? " in " : "",
		                      file && !(env && *env) ? file : "");
	if (n >= outlen)
		return bb_errbuf_fail(err, errlen, -EINVAL, "the LAVA token is too long");
	memcpy(out, line, n + 1);
	return 0;
}

int bb_lava_api_open(const char *url, const char *token, struct lava_api **out, char *err,
                     size_t errlen)
{
	char auth[1200];
	*out = NULL;
	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))
		return bb_errbuf_fail(err, errlen, -EINVAL, "%s: not an http:// or https:// URL",
		                      url);
	if (strlen(url) >= sizeof(((struct lava_api *)0)->base) - 64)
		return bb_errbuf_fail(err, errlen, -EINVAL, "%s: URL too long", url);
	static int global_done;
	if (!global_done) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT))
			return bb_errbuf_fail(err, errlen, -ENOMEM, "libcurl did not initialise");
		global_done = 1;
	}
	struct lava_api *a = calloc(1, sizeof(*a));
	if (!a || !(a->curl = curl_easy_init())) {
		free(a);
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	snprintf(a->base, sizeof(a->base), "%s", url);
	for (size_t l = strlen(a->base); l && a->base[l - 1] == '/'; l--)
		a->base[l - 1] = 0;
	/* no token: anonymous, which reads public jobs */
	snprintf(auth, sizeof(auth), "Authorization: Token %s", token ? token : "");
	struct curl_slist *h = curl_slist_append(NULL, "Accept: application/json");
	struct curl_slist *h2 = h && token && *token ? curl_slist_append(h, auth) : h;
	if (!h2) {
		curl_slist_free_all(h);
		bb_lava_api_close(a);
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	a->headers = h2;
	*out = a;
	return 0;
}

void bb_lava_api_close(struct lava_api *a)
{
	if (!a)
		return;
	curl_slist_free_all(a->headers);
	curl_easy_cleanup(a->curl);
	free(a);
}

struct sink {
	struct strbuf *buf; /* or */
	FILE *f;
	int failed;
};

static size_t on_data(char *p, size_t size, size_t n, void *ctx)
{
	struct sink *s = ctx;
	size_t len = size * n;
	if (s->f) {
		if (fwrite(p, 1, len, s->f) != len) {
			s->failed = errno ? errno : EIO;
			return 0;
		}
	} else {
		if (memchr(p, 0, len)) { /* the API answers text; a NUL is not an answer */
			s->failed = EPROTO;
			return 0;
		}
		bb_strbuf_printf(s->buf, "%.*s", (int)len, p);
		if (s->buf->oom) {
			s->failed = ENOMEM;
			return 0;
		}
	}
	return len;
}

/* The server's own message from an error answer ({"message": ...} or {"detail": ...}). */
static void server_message(const char *body, char *out, size_t outlen)
{
	char e[128];
	*out = 0;
	if (!body)
		return;
	struct jn *j = bb_jn_parse(body, strlen(body), e, sizeof(e));
	const struct jn *m = j ? bb_jn_get(j, "message") : NULL;
	if (!m && j)
		m = bb_jn_get(j, "detail");
	if (m && m->type == JN_STR)
		snprintf(out, outlen, "%s", m->str);
	else
		snprintf(out, outlen, "%.200s", body);
	for (char *c = out; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	bb_jn_free(j);
}

/*
 * One request: GET (body NULL) or POST of a JSON body. The answer goes to buf or f. Returns 0
 * for a 2xx answer, else -errno with the message.
 */
static int request(struct lava_api *a, const char *path, const char *body, struct strbuf *buf,
                   FILE *f, char *err, size_t errlen)
{
	char url[1400], msg[600];
	struct sink s = {buf, f, 0};
	struct curl_slist *headers = a->headers, *extra = NULL;
	long code = 0;

	snprintf(url, sizeof(url), "%s%s", a->base, path);
	CURL *c = a->curl;
	curl_easy_reset(c);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
	/* a log can be large, but no answer takes ten minutes on a live server */
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 600L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "benchboot");
	if (body) {
		extra = curl_slist_append(NULL, "Content-Type: application/json");
		if (!extra)
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		for (struct curl_slist *h = a->headers; h; h = h->next)
			if (!curl_slist_append(extra, h->data)) {
				curl_slist_free_all(extra);
				return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
			}
		headers = extra;
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	}
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	CURLcode rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	curl_slist_free_all(extra);
	if (s.failed)
		return bb_errbuf_fail(err, errlen, -s.failed, "%s: %s", url,
		                      s.failed == EPROTO ? "the answer is not text"
		                                         : strerror(s.failed));
	if (rc != CURLE_OK)
		return bb_errbuf_fail(err, errlen, -ECONNREFUSED, "%s: %s", url,
		                      curl_easy_strerror(rc));
	if (code >= 200 && code < 300)
		return 0;
	server_message(buf ? buf->s : NULL, msg, sizeof(msg));
	int r = code == 401 || code == 403 ? -EACCES
	        : code == 404              ? -ENOENT
	        : code == 400              ? -EINVAL
	                                   : -EIO;
	return bb_errbuf_fail(err, errlen, r, "%s: HTTP %ld%s%s%s", url, code, *msg ? " (" : "",
	                      msg,
	                      *msg           ? ")"
	                      : r == -EACCES ? " (is the token right?)"
	                                     : "");
}

static int get_json(struct lava_api *a, const char *path, struct jn **out, char *err, size_t errlen)
{
	struct strbuf b = {0};
	char e[256];
	int r = request(a, path, NULL, &b, NULL, err, errlen);
	*out = NULL;
	if (!r && !(*out = bb_jn_parse(b.s ? b.s : "", b.len, e, sizeof(e))))
		r = bb_errbuf_fail(err, errlen, -EPROTO, "%s%s: the answer is not JSON (%s)",
		                   a->base, path, e);
	free(b.s);
	return r;
}

int bb_lava_api_version(struct lava_api *a, char *out, size_t outlen, char *err, size_t errlen)
{
	struct jn *j;
	int r = get_json(a, "/api/v0.2/system/version/", &j, err, errlen);
	if (r)
		return r;
	const struct jn *v = bb_jn_get(j, "version");
	if (!v || v->type != JN_STR)
		r = bb_errbuf_fail(err, errlen, -EPROTO, "%s: no version in the server's answer",
		                   a->base);
	else
		snprintf(out, outlen, "%s", v->str);
	bb_jn_free(j);
	return r;
}

/* A job id in a submission's answer: N, or "N.K" (a multinode job: N is its first job's id). */
static long answer_id(const struct jn *v)
{
	if (v->type == JN_NUM)
		return v->num >= 1 ? (long)v->num : -1;
	if (v->type != JN_STR)
		return -1;
	char *end;
	long id = strtol(v->str, &end, 10);
	return end != v->str && id >= 1 && (!*end || (*end == '.' && end[1])) ? id : -1;
}

int bb_lava_api_submit(struct lava_api *a, const char *definition, long *id, size_t *njobs,
                       char *err, size_t errlen)
{
	char *body = NULL, e[256];
	size_t len = 0;
	struct strbuf b = {0};
	FILE *m = open_memstream(&body, &len);
	if (!m)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	fputs("{\"definition\": ", m);
	bb_jout_quote(m, definition);
	fputs("}", m);
	if (fclose(m)) {
		free(body);
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	int r = request(a, "/api/v0.2/jobs/", body, &b, NULL, err, errlen);
	free(body);
	if (r) {
		free(b.s);
		return r;
	}
	struct jn *j = bb_jn_parse(b.s ? b.s : "", b.len, e, sizeof(e));
	const struct jn *ids = j ? bb_jn_get(j, "job_ids") : NULL;
	/* One id, or a multinode job's "N.0", "N.1", ... (one job per role and device). */
	*id = ids && ids->type == JN_ARR && ids->n ? answer_id(ids->items[0]) : -1;
	for (size_t i = 1; *id > 0 && i < ids->n; i++)
		if (answer_id(ids->items[i]) < 0 || ids->items[i]->type != JN_STR)
			*id = -1;
	if (*id < 0)
		r = bb_errbuf_fail(err, errlen, -EPROTO,
		                   "%s/api/v0.2/jobs/: the answer names no job id: %.200s", a->base,
		                   b.s ? b.s : "");
	else
		*njobs = ids->n;
	bb_jn_free(j);
	free(b.s);
	return r;
}

int bb_lava_api_group(struct lava_api *a, const char *target_group, long *ids, size_t max,
                      size_t *n, char *err, size_t errlen)
{
	char path[512];
	struct jn *j;
	*n = 0;
	char *g = curl_easy_escape(a->curl, target_group, 0);
	if (!g)
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	snprintf(path, sizeof(path), "/api/v0.2/jobs/?target_group=%.300s&limit=100", g);
	curl_free(g);
	int r = get_json(a, path, &j, err, errlen);
	if (r)
		return r;
	const struct jn *res = bb_jn_get(j, "results");
	for (size_t i = 0; res && res->type == JN_ARR && i < res->n; i++) {
		const struct jn *id = bb_jn_get(res->items[i], "id");
		if (!id || id->type != JN_NUM || *n == max)
			continue;
		/* in id order: LAVA numbers a group's jobs as it creates them, role by role */
		size_t k = (*n)++;
		for (; k && ids[k - 1] > (long)id->num; k--)
			ids[k] = ids[k - 1];
		ids[k] = (long)id->num;
	}
	if (!res || res->type != JN_ARR)
		r = bb_errbuf_fail(err, errlen, -EPROTO, "%s%s: the answer lists no jobs", a->base,
		                   path);
	bb_jn_free(j);
	return r;
}

static void text_field(const struct jn *j, const char *key, char *out, size_t outlen)
{
	const struct jn *v = bb_jn_get(j, key);
	char buf[64];
	const char *t = v && v->type != JN_NULL ? bb_jn_scalar_text(v, buf, sizeof(buf)) : NULL;
	snprintf(out, outlen, "%s", t ? t : "");
}

int bb_lava_api_job(struct lava_api *a, long id, struct lava_job *job, char *err, size_t errlen)
{
	char path[64];
	struct jn *j;
	memset(job, 0, sizeof(*job));
	snprintf(path, sizeof(path), "/api/v0.2/jobs/%ld/", id);
	int r = get_json(a, path, &j, err, errlen);
	if (r)
		return r;
	job->id = id;
	text_field(j, "state", job->state, sizeof(job->state));
	text_field(j, "health", job->health, sizeof(job->health));
	text_field(j, "actual_device", job->device, sizeof(job->device));
	text_field(j, "failure_comment", job->failure, sizeof(job->failure));
	const struct jn *d = bb_jn_get(j, "definition");
	if (d && d->type == JN_STR && !(job->definition = strdup(d->str)))
		r = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	if (!r && !*job->state)
		r = bb_errbuf_fail(err, errlen, -EPROTO, "%s%s: the answer has no job state",
		                   a->base, path);
	bb_jn_free(j);
	if (r)
		bb_lava_job_free(job);
	return r;
}

void bb_lava_job_free(struct lava_job *job)
{
	free(job->definition);
	job->definition = NULL;
}

int bb_lava_api_log(struct lava_api *a, long id, FILE *f, char *err, size_t errlen)
{
	char path[64];
	snprintf(path, sizeof(path), "/api/v0.2/jobs/%ld/logs/", id);
	int r = request(a, path, NULL, NULL, f, err, errlen);
	if (!r && fflush(f))
		r = bb_errbuf_fail(err, errlen, -errno, "writing job %ld's log: %s", id,
		                   strerror(errno));
	return r;
}
