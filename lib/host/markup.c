/* One escaper for the text of benchboot's HTML and SVG (markup.h). */
#include "host/markup.h"

void bb_markup_escape(FILE *f, const char *s, size_t max, int flags)
{
	for (size_t i = 0; s && s[i] && i < max; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c == '\'')
			fputs("&#39;", f);
		else if ((flags & BB_MARKUP_ASCII) && (c < 0x20 || c >= 0x7f))
			fputc('?', f);
		else if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
			fputs("\xef\xbf\xbd", f);
		else
			fputc(c, f);
	}
}
