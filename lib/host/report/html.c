/* The pages' frame and the escaper; see html.h. */
#include <errno.h>
#include <stdio.h>

#include "host/markup.h"
#include "host/report/html.h"

void bb_html_escape(FILE *f, const char *s)
{
	bb_markup_escape(f, s, (size_t)-1, 0);
}

void bb_html_tag_text(FILE *f, const char *open, const char *prefix, const char *s,
                      const char *close)
{
	fputs(open, f);
	fputs(prefix, f);
	bb_html_escape(f, s);
	fputs(close, f);
}

/* Plain system fonts only: nothing is fetched. */
static const char style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1250px}\n"
    "h1{font-size:1.5em}h2{font-size:1.25em;border-top:1px solid #ccc;padding-top:.6em}\n"
    "h3{font-size:1.05em}h4{font-size:1em;margin-bottom:.3em}\n"
    "table{border-collapse:collapse;margin:.4em 0;font-size:.9em}\n"
    "td,th{border:1px solid #ddd;padding:.15em .5em;text-align:left;vertical-align:top}\n"
    "td.n{text-align:right;font-family:monospace;white-space:nowrap}\n"
    "th{background:#f3f3f3}\n"
    ".mark{font-weight:bold;color:#b00}.note{color:#555;font-size:.9em}\n"
    "section.change{border-left:4px solid #d62728;padding-left:1em;margin:1em 0}\n"
    "svg{max-width:100%;height:auto;display:block;margin:.5em 0}\n"
    "code{background:#f5f5f5;padding:0 .2em}\n";

void bb_html_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", f);
	bb_html_tag_text(f, "<title>", "", title, "</title>\n");
	fprintf(f, "<style>\n%s</style>\n</head>\n<body>\n", style);
}

int bb_html_end(FILE *f)
{
	fputs("<p class=\"note\">Written by benchboot: one file, nothing fetched; the plots are "
	      "drawn by benchboot.</p>\n</body>\n</html>\n",
	      f);
	return ferror(f) ? -EIO : 0;
}
