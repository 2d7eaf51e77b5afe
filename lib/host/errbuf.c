/* The message buffer of the lib/host functions; see errbuf.h. */
#include <stdarg.h>
#include <stdio.h>

#include "host/errbuf.h"

int bb_errbuf_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}
