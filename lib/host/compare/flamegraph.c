/* A differential flame graph of perf-profile call stacks; see flamegraph.h. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "grow.h"
#include "host/compare/flamegraph.h"
#include "host/errbuf.h"
#include "host/markup.h"

#define FOLDED "monitor.perf-profile.folded"

/* ---- reading ---- */

/* The whole file (gzip or plain: zlib reads both) into *out, NUL-terminated. */
static int read_all(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
	gzFile g = gzopen(path, "rb");
	size_t n = 0, cap = 0;
	char *buf = NULL;
	if (!g)
		return bb_errbuf_fail(err, errlen, errno ? -errno : -ENOMEM, "%s: %s", path,
		                      errno ? strerror(errno) : "out of memory");
	for (;;) {
		if (bb_grow(&buf, &cap, n + 65537, 1)) {
			gzclose(g);
			free(buf);
			return bb_errbuf_fail(err, errlen, -ENOMEM, "%s: out of memory", path);
		}
		int r = gzread(g, buf + n, 65536);
		if (r < 0) {
			int e;
			const char *msg = gzerror(g, &e);
			bb_errbuf_fail(err, errlen, -EINVAL, "%s: not readable as gzip: %s", path,
			               msg);
			gzclose(g);
			free(buf);
			return -EINVAL;
		}
		if (!r)
			break;
		n += r;
	}
	gzclose(g);
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

static struct bb_flame_node *child_get(struct bb_flame_node *n, const char *name, size_t len)
{
	for (size_t i = 0; i < n->nchild; i++)
		if (strlen(n->child[i].name) == len && !memcmp(n->child[i].name, name, len))
			return &n->child[i];
	if (bb_grow(&n->child, &n->cap, n->nchild + 1, sizeof(*n->child)))
		return NULL;
	struct bb_flame_node *c = &n->child[n->nchild];
	memset(c, 0, sizeof(*c));
	if (!(c->name = strndup(name, len)))
		return NULL;
	n->nchild++;
	return c;
}

/* "STACK COUNT": the stack, frames separated by ';', root first; COUNT samples. */
static int add_stack(struct bb_flame *fg, int side, char *line, const char *path, size_t lineno,
                     char *err, size_t errlen)
{
	char *sp = strrchr(line, ' '), *end;
	if (!sp || sp == line)
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "%s:%zu: not a folded stack ('FRAME;FRAME;... COUNT'): %.80s",
		                      path, lineno, line);
	errno = 0;
	unsigned long long count = strtoull(sp + 1, &end, 10);
	if (*end || end == sp + 1 || errno || sp[1] == '-')
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "%s:%zu: the sample count '%s' is not a whole number", path,
		                      lineno, sp + 1);
	*sp = 0;
	struct bb_flame_node *n = &fg->root;
	n->count[side] += (double)count;
	for (char *f = line;;) {
		size_t len = strcspn(f, ";");
		if (!len)
			return bb_errbuf_fail(err, errlen, -EINVAL,
			                      "%s:%zu: an empty frame in '%.80s'", path, lineno,
			                      line);
		if (!(n = child_get(n, f, len)))
			return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
		n->count[side] += (double)count;
		if (!f[len])
			break;
		f += len + 1;
	}
	return 0;
}

/* "# event: EVENT": the side's event, the same in every file of the side. */
static int take_event(struct bb_flame *fg, int side, const char *ev, const char *path,
                      size_t lineno, char *err, size_t errlen)
{
	while (*ev == ' ' || *ev == '\t')
		ev++;
	size_t len = strlen(ev);
	while (len && (ev[len - 1] == ' ' || ev[len - 1] == '\r'))
		len--;
	if (!len)
		return bb_errbuf_fail(err, errlen, -EINVAL, "%s:%zu: '# event:' names no event",
		                      path, lineno);
	if (fg->event[side]) {
		if (strlen(fg->event[side]) == len && !strncmp(fg->event[side], ev, len))
			return 0;
		return bb_errbuf_fail(err, errlen, -EINVAL,
		                      "%s:%zu: samples of %.*s, but %s has samples of %s (one side "
		                      "must sample one event)",
		                      path, lineno, (int)len, ev, fg->event_file[side],
		                      fg->event[side]);
	}
	if (!(fg->event[side] = strndup(ev, len)) || !(fg->event_file[side] = strdup(path)))
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	return 0;
}

int bb_flame_add_file(struct bb_flame *fg, int side, const char *path, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0, lineno = 0;
	int r = read_all(path, &buf, &len, err, errlen);
	if (r)
		return r;
	if (memchr(buf, 0, len)) {
		free(buf);
		return bb_errbuf_fail(err, errlen, -EINVAL, "%s: not a text file (a NUL byte)",
		                      path);
	}
	if (!fg->root.name && !(fg->root.name = strdup("all"))) {
		free(buf);
		return bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
	}
	for (char *line = buf; line && *line && !r;) {
		char *nl = strchr(line, '\n'), *next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = 0;
		if (nl > line && nl[-1] == '\r')
			nl[-1] = 0;
		lineno++;
		if (!strncmp(line, "# event:", 8))
			r = take_event(fg, side, line + 8, path, lineno, err, errlen);
		else if (*line && *line != '#')
			r = add_stack(fg, side, line, path, lineno, err, errlen);
		line = next;
	}
	free(buf);
	if (!r)
		fg->files[side]++;
	return r;
}

int bb_flame_check(const struct bb_flame *fg, char *err, size_t errlen)
{
	for (int s = 0; s < 2; s++)
		if (!(fg->root.count[s] > 0))
			return bb_errbuf_fail(
			    err, errlen, -EINVAL,
			    "%s has no perf-profile samples (%zu call stack file%s read; no "
			    "ITER/%s[.gz], or only empty ones: run the job with the perf-profile "
			    "monitor)",
			    s ? "B" : "A", fg->files[s], fg->files[s] == 1 ? "" : "s", FOLDED);
	const char *ea = fg->event[0] ? fg->event[0] : "an event not recorded",
	           *eb = fg->event[1] ? fg->event[1] : "an event not recorded";
	if ((!fg->event[0]) != (!fg->event[1]) ||
	    (fg->event[0] && strcmp(fg->event[0], fg->event[1])))
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "A and B sampled different events: A %s (%s), B %s (%s); their "
		    "call stacks are not comparable (a cpu-clock profile is not a "
		    "cycles one)",
		    ea, fg->event_file[0] ? fg->event_file[0] : "no '# event:' line", eb,
		    fg->event_file[1] ? fg->event_file[1] : "no '# event:' line");
	return 0;
}

static void node_free(struct bb_flame_node *n)
{
	for (size_t i = 0; i < n->nchild; i++)
		node_free(&n->child[i]);
	free(n->child);
	free(n->name);
}

void bb_flame_free(struct bb_flame *fg)
{
	node_free(&fg->root);
	for (int s = 0; s < 2; s++) {
		free(fg->event[s]);
		free(fg->event_file[s]);
	}
	memset(fg, 0, sizeof(*fg));
}

/* ---- drawing ---- */

#define W 1200     /* the picture's width */
#define PAD 10     /* left and right */
#define FH 17      /* a frame's height */
#define TOP 84     /* title, legend, search above the frames */
#define BOTTOM 34  /* the details line below */
#define CHAR_W 6.6 /* of the 11px monospace labels */

struct draw {
	FILE *f;
	double total[2]; /* the root's samples */
	double scale;    /* samples of B per pixel */
	double maxdelta; /* the largest |change| in points, for the colours */
	int depth;       /* frames above the root */
	int height;
	double gone_a; /* A's samples in stacks B never reached */
};

static int node_cmp(const void *x, const void *y)
{
	return strcmp(((const struct bb_flame_node *)x)->name,
	              ((const struct bb_flame_node *)y)->name);
}

/* A frame's share of a side's samples, %. */
static double share(const struct draw *d, const struct bb_flame_node *n, int side)
{
	return d->total[side] > 0 ? 100 * n->count[side] / d->total[side] : 0;
}

/* Sort children by name (the layout does not depend on the order of the input), and find the
 * depth and the largest change of the frames that will be drawn. */
static void prepare(struct draw *d, struct bb_flame_node *n, int depth)
{
	qsort(n->child, n->nchild, sizeof(*n->child), node_cmp);
	if (depth > d->depth)
		d->depth = depth;
	double delta = fabs(share(d, n, 1) - share(d, n, 0));
	if (depth && delta > d->maxdelta)
		d->maxdelta = delta;
	for (size_t i = 0; i < n->nchild; i++) {
		struct bb_flame_node *c = &n->child[i];
		if (c->count[1] / d->scale >= 0.1)
			prepare(d, c, depth + 1);
		else if (!(c->count[1] > 0))
			d->gone_a += c->count[0];
	}
}

/* Text for XML: escaped, bytes outside printable ASCII as '?'. */
static void xml_text(FILE *f, const char *s, size_t max)
{
	bb_markup_escape(f, s, max, BB_MARKUP_ASCII);
}

/* White for no change, to red (more of B's samples) or blue (fewer), by the share of the
 * largest change. */
static void colour(const struct draw *d, double delta, int *r, int *g, int *b)
{
	double k = d->maxdelta > 0 ? fabs(delta) / d->maxdelta : 0;
	int fade = (int)lround(255 - 205 * (k > 1 ? 1 : k));
	*r = delta > 0 ? 255 : fade;
	*b = delta < 0 ? 255 : fade;
	*g = fade;
}

static void frame(struct draw *d, const struct bb_flame_node *n, int depth, double x0)
{
	double x = PAD + x0 / d->scale, w = n->count[1] / d->scale;
	int y = d->height - BOTTOM - (depth + 1) * FH, r, g, b;
	double sa = share(d, n, 0), sb = share(d, n, 1), delta = sb - sa;
	colour(d, delta, &r, &g, &b);
	fputs("<g class=\"f\" data-name=\"", d->f);
	xml_text(d->f, n->name, (size_t)-1);
	fprintf(d->f, "\" data-x=\"%.0f\" data-b=\"%.0f\"><title>", x0, n->count[1]);
	xml_text(d->f, n->name, (size_t)-1);
	fprintf(d->f,
	        "&#10;A: %.0f samples (%.2f%%)&#10;B: %.0f samples (%.2f%%)&#10;change: %+.2f "
	        "points of all samples</title>",
	        n->count[0], sa, n->count[1], sb, delta);
	fprintf(d->f,
	        "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" "
	        "stroke=\"#888\" stroke-width=\"0.3\"/>",
	        x, y, w, FH - 1, r, g, b);
	size_t fit = (size_t)((w - 6) / CHAR_W);
	if (fit >= 3) {
		size_t len = strlen(n->name);
		fprintf(d->f, "<text x=\"%.1f\" y=\"%d\">", x + 3, y + FH - 5);
		if (len <= fit) {
			xml_text(d->f, n->name, len);
		} else {
			xml_text(d->f, n->name, fit - 2);
			fputs("..", d->f);
		}
		fputs("</text>", d->f);
	}
	fputs("</g>\n", d->f);
	double cx = x0;
	for (size_t i = 0; i < n->nchild; i++) {
		const struct bb_flame_node *c = &n->child[i];
		if (c->count[1] / d->scale >= 0.1)
			frame(d, c, depth + 1, cx);
		cx += c->count[1];
	}
}

/* Searching in a browser: a regular expression over the frame names, matches in magenta with
 * the share of B's samples they cover; hovering shows a frame's numbers below. */
static const char script[] =
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "var total_b = 0;\n"
    "function frames() { return document.querySelectorAll('g.f'); }\n"
    "function details(g) {\n"
    "  var t = g ? g.querySelector('title').textContent.split('\\n').join('   ') : ' ';\n"
    "  document.getElementById('details').textContent = t;\n"
    "}\n"
    "function search() {\n"
    "  var t = prompt('Search frames (regular expression):', '');\n"
    "  if (t !== null) find(t);\n"
    "}\n"
    "function find(t) {\n"
    "  var re, spans = [], n = 0;\n"
    "  try { re = new RegExp(t); } catch (e) { alert(e); return; }\n"
    "  frames().forEach(function (g) {\n"
    "    var r = g.querySelector('rect');\n"
    "    if (!r.hasAttribute('data-fill')) r.setAttribute('data-fill', r.getAttribute('fill'));\n"
    "    if (t !== '' && re.test(g.getAttribute('data-name'))) {\n"
    "      r.setAttribute('fill', 'rgb(230,0,230)');\n"
    "      n++;\n"
    "      var x = +g.getAttribute('data-x');\n"
    "      spans.push([x, x + (+g.getAttribute('data-b'))]);\n"
    "    } else r.setAttribute('fill', r.getAttribute('data-fill'));\n"
    "  });\n"
    "  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
    "  var covered = 0, end = -1;\n"
    "  spans.forEach(function (s) {\n"
    "    if (s[1] <= end) return;\n"
    "    covered += s[1] - Math.max(s[0], end);\n"
    "    end = s[1];\n"
    "  });\n"
    "  document.getElementById('matched').textContent = t === '' ? '' :\n"
    "    'matched /' + t + '/: ' + n + ' frame' + (n == 1 ? '' : 's') + ', ' +\n"
    "    (100 * covered / total_b).toFixed(2) + '% of B\\'s samples';\n"
    "}\n"
    "function init() {\n"
    "  total_b = +document.getElementById('frames').getAttribute('data-total-b');\n"
    "  frames().forEach(function (g) {\n"
    "    g.addEventListener('mouseover', function () { details(g); });\n"
    "    g.addEventListener('mouseout', function () { details(null); });\n"
    "  });\n"
    "  var m = /[?&]s=([^&]*)/.exec(location.search);\n"
    "  if (m) find(decodeURIComponent(m[1]));\n"
    "}\n"
    "]]></script>\n";

/* The SVG; labels name the sides (the children of each frame are sorted by name first).
 * standalone: a file of its own (the XML declaration, the search script); else a picture put
 * in a page (no script, no ids: a page may hold several). 0, or -EIO on a write error. */
static int flame_svg(FILE *f, struct bb_flame *fg, const char *label_a, const char *label_b,
                     int standalone)
{
	struct draw d = {.f = f};
	d.total[0] = fg->root.count[0];
	d.total[1] = fg->root.count[1];
	d.scale = (d.total[1] > 0 ? d.total[1] : 1) / (W - 2 * PAD);
	prepare(&d, &fg->root, 0);
	d.height = TOP + (d.depth + 1) * FH + BOTTOM;
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
	        "height=\"%d\" viewBox=\"0 0 %d %d\"%s font-family=\"monospace\" "
	        "font-size=\"11\">\n",
	        W, d.height, W, d.height, standalone ? " onload=\"init()\"" : "");
	if (standalone)
		fputs(script, f);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n");
	fprintf(f,
	        "<text x=\"%d\" y=\"20\" font-size=\"15\" text-anchor=\"middle\">"
	        "differential flame graph, perf-profile ",
	        W / 2);
	xml_text(f, fg->event[1] ? fg->event[1] : "(event not recorded)", (size_t)-1);
	fputs("</text>\n<text x=\"10\" y=\"38\">A: ", f);
	xml_text(f, label_a, (size_t)-1);
	fprintf(f, " (%.0f samples, %zu file%s)</text>\n<text x=\"10\" y=\"52\">B: ", d.total[0],
	        fg->files[0], fg->files[0] == 1 ? "" : "s");
	xml_text(f, label_b, (size_t)-1);
	fprintf(f, " (%.0f samples, %zu file%s)</text>\n", d.total[1], fg->files[1],
	        fg->files[1] == 1 ? "" : "s");
	/* the legend: a red and a blue square for the largest changes */
	int r1, g1, b1, r2, g2, b2;
	char more[64], less[64];
	const char *lead = "width: share of B's samples; colour: change from A (";
	colour(&d, d.maxdelta, &r1, &g1, &b1);
	colour(&d, -d.maxdelta, &r2, &g2, &b2);
	snprintf(more, sizeof more, "%+.2f points, ", d.maxdelta);
	snprintf(less, sizeof less, "%+.2f, white the same)", -d.maxdelta);
	double x1 = 10 + strlen(lead) * CHAR_W + 2, x2 = x1 + 16 + strlen(more) * CHAR_W;
	fprintf(f,
	        "<text x=\"10\" y=\"68\">%s</text>\n"
	        "<rect x=\"%.0f\" y=\"58\" width=\"12\" height=\"12\" fill=\"rgb(%d,%d,%d)\"/>"
	        "<text x=\"%.0f\" y=\"68\">%s</text>\n"
	        "<rect x=\"%.0f\" y=\"58\" width=\"12\" height=\"12\" fill=\"rgb(%d,%d,%d)\"/>"
	        "<text x=\"%.0f\" y=\"68\">%s",
	        lead, x1, r1, g1, b1, x1 + 16, more, x2, r2, g2, b2, x2 + 16, less);
	if (d.gone_a > 0)
		fprintf(f, "; not drawn: %.0f of A's samples (%.2f%%) in stacks without B's",
		        d.gone_a, 100 * d.gone_a / (d.total[0] > 0 ? d.total[0] : 1));
	fputs("</text>\n", f);
	if (!standalone) {
		fprintf(f, "<g class=\"frames\">\n");
		frame(&d, &fg->root, 0, 0);
		fputs("</g>\n</svg>\n", f);
		return ferror(f) ? -EIO : 0;
	}
	fprintf(f,
	        "<text id=\"search\" x=\"%d\" y=\"38\" text-anchor=\"end\" cursor=\"pointer\" "
	        "onclick=\"search()\">[ Search ]</text>\n"
	        "<text id=\"matched\" x=\"%d\" y=\"52\" text-anchor=\"end\"> </text>\n",
	        W - PAD, W - PAD);
	fprintf(f, "<g id=\"frames\" data-total-b=\"%.0f\">\n", d.total[1]);
	frame(&d, &fg->root, 0, 0);
	fprintf(f, "</g>\n<text id=\"details\" x=\"10\" y=\"%d\"> </text>\n</svg>\n",
	        d.height - 12);
	return ferror(f) ? -EIO : 0;
}

/* ---- the folded files of two sides ---- */

/* A warm-up iteration (its status says "warmup": K > 0 or true): not compared, not drawn. */
static int is_warmup_dir(const char *iterdir)
{
	char p[4300], buf[8192];
	snprintf(p, sizeof p, "%s/status", iterdir);
	FILE *f = fopen(p, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *w = strstr(buf, "\"warmup\"");
	if (!w)
		return 0;
	w += strlen("\"warmup\"");
	while (*w == ' ' || *w == ':' || *w == '\t')
		w++;
	return !strncmp(w, "true", 4) || (*w >= '1' && *w <= '9');
}

/* An iteration folder's place, from 1: ITER (0, 1, ...), then monitored-K (docs/results.md); 0 for
 * a name that is neither. */
static unsigned long iter_dir_key(const char *name)
{
	char *end;
	unsigned long base = 0;
	if (!strncmp(name, "monitored-", 10))
		name += 10, base = 1000000;
	unsigned long n = strtoul(name, &end, 10);
	return *end || end == name || n >= 1000000 ? 0 : base + n + 1;
}

static int dir_cmp(const void *x, const void *y)
{
	return iter_dir_key(*(char *const *)x) < iter_dir_key(*(char *const *)y) ? -1 : 1;
}

/* Every iteration of run, measured or monitored (monitored-K): its
 * monitor.perf-profile.folded (or .gz) added to side. */
static int add_run(struct bb_flame *fg, int side, const struct bb_res_run *run, char *err,
                   size_t errlen)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/runs/%s", run->boot->path, run->id);
	DIR *dp = opendir(dir);
	char **names = NULL;
	size_t n = 0, cap = 0;
	int r = 0;
	if (!dp)
		return 0;
	for (struct dirent *e; (e = readdir(dp));) {
		if (!iter_dir_key(e->d_name))
			continue;
		if (bb_grow(&names, &cap, n + 1, sizeof(*names)) ||
		    !(names[n] = strdup(e->d_name))) {
			r = bb_errbuf_fail(err, errlen, -ENOMEM, "out of memory");
			break;
		}
		n++;
	}
	closedir(dp);
	if (n)
		qsort(names, n, sizeof(*names), dir_cmp);
	for (size_t i = 0; i < n && !r; i++) {
		char it[4200], p[4300];
		snprintf(it, sizeof it, "%s/%s", dir, names[i]);
		if (is_warmup_dir(it))
			continue;
		snprintf(p, sizeof p, "%s/" FOLDED, it);
		FILE *f = fopen(p, "r");
		if (!f) {
			snprintf(p, sizeof p, "%s/" FOLDED ".gz", it);
			f = fopen(p, "r");
		}
		if (!f)
			continue;
		fclose(f);
		r = bb_flame_add_file(fg, side, p, err, errlen);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return r;
}

/* Both sides' call stacks into fg. 0, or errors of bb_flame_add_file. */
static int load_sides(struct bb_flame *fg, const struct bb_side *a, const struct bb_side *b,
                      char *err, size_t errlen)
{
	const struct bb_side *sides[2] = {a, b};
	int r = 0;
	memset(fg, 0, sizeof *fg);
	for (int s = 0; s < 2 && !r; s++)
		for (size_t i = 0; i < sides[s]->nruns && !r; i++)
			r = add_run(fg, s, sides[s]->runs[i], err, errlen);
	return r;
}

int bb_flamegraph_sides(const struct bb_side *a, const struct bb_side *b, const char *path,
                        char *err, size_t errlen)
{
	struct bb_flame fg;
	int r = load_sides(&fg, a, b, err, errlen);
	if (!r)
		r = bb_flame_check(&fg, err, errlen);
	if (!r) {
		FILE *f = fopen(path, "w");
		int w = f ? flame_svg(f, &fg, a->label, b->label, 1) : -errno;
		if (f && fclose(f) && !w)
			w = -errno;
		if (w)
			r = bb_errbuf_fail(err, errlen, w, "unable to write %s: %s", path,
			                   strerror(-w));
	}
	bb_flame_free(&fg);
	return r;
}

int bb_flamegraph_embed(FILE *f, const struct bb_side *a, const struct bb_side *b, char *err,
                        size_t errlen)
{
	struct bb_flame fg;
	int r = load_sides(&fg, a, b, err, errlen);
	if (!r && !(fg.root.count[0] > 0 && fg.root.count[1] > 0))
		r = -ENODATA;
	if (!r)
		r = bb_flame_check(&fg, err, errlen);
	if (!r && (r = flame_svg(f, &fg, a->label, b->label, 0)))
		r = bb_errbuf_fail(err, errlen, r, "unable to write the flame graph: %s",
		                   strerror(-r));
	bb_flame_free(&fg);
	return r;
}
