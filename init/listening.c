/* Is a TCP server listening (listening.h): the kernel's socket lists in /proc/net/tcp{,6}. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "init.h"
#include "listening.h"

#define TCP_LISTEN 0x0A /* the state column of a listening socket (include/net/tcp_states.h) */

/* The words of an address as the kernel prints them: each 32-bit word of the address in the
 * machine's byte order, as 8 hex digits (1 word for IPv4, 4 for IPv6). */
static int parse_words(const char *hex, size_t nwords, uint32_t *w)
{
	char word[9];
	for (size_t i = 0; i < nwords; i++) {
		memcpy(word, hex + 8 * i, 8);
		word[8] = 0;
		char *end;
		w[i] = (uint32_t)strtoul(word, &end, 16);
		if (end != word + 8)
			return -1;
	}
	return 0;
}

/* One list: 1 when a line is a listening socket on port, bound to want (nwords words) or to
 * the wildcard address; 0 when none is; -errno when the list cannot be read. */
static int scan(const char *list, size_t nwords, const uint32_t *want, unsigned port)
{
	size_t len;
	char *text = init_read(list, &len);
	if (!text)
		return -errno;
	int found = 0;
	for (char *line = strtok(text, "\n"); line && !found; line = strtok(NULL, "\n")) {
		char local[40];
		unsigned lport, state;
		uint32_t w[4];
		/* "  0: 0100007F:3241 00000000:0000 0A ..." (the header line does not match) */
		if (sscanf(line, " %*u: %39[0-9A-Fa-f]:%x %*s %x", local, &lport, &state) != 3 ||
		    strlen(local) != 8 * nwords || lport != port || state != TCP_LISTEN ||
		    parse_words(local, nwords, w))
			continue;
		int any = 1, same = 1;
		for (size_t i = 0; i < nwords; i++) {
			any &= w[i] == 0;
			same &= w[i] == want[i];
		}
		found = any || same;
	}
	free(text);
	return found;
}

int tcp_listening(const struct sockaddr_storage *ss)
{
	static const uint32_t any6[4];
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;
		uint32_t want = sin->sin_addr.s_addr;
		unsigned port = ntohs(sin->sin_port);
		int r = scan("/proc/net/tcp", 1, &want, port);
		if (r != 0)
			return r;
		/* a wildcard IPv6 socket takes IPv4 connections too, unless it is IPV6_V6ONLY,
		 * which the list does not show: only a connect can tell */
		r = scan("/proc/net/tcp6", 4, any6, port);
		return r == 1 ? -EAGAIN : 0;
	}
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;
		uint32_t want[4];
		memcpy(want, &sin6->sin6_addr, sizeof(want));
		return scan("/proc/net/tcp6", 4, want, ntohs(sin6->sin6_port));
	}
	return -EAFNOSUPPORT;
}
