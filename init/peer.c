/*
 * The wire of the init-to-init protocol (peer.h, docs/cluster.md): encoding and parsing of the
 * message lines, and the socket calls, each bounded by a deadline. A connect that gets no
 * answer (the other host is not up yet, ARP unanswered) is cut at the deadline; a read waits in
 * poll() for at most the time left.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "init.h"
#include "peer.h"

#define SEND_TIMEOUT_S 10

static int hexval(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
	                              : -1;
}

/* Decode s[0..n) into out (cap bytes); 0 or -EINVAL. */
static int decode(const char *s, size_t n, char *out, size_t cap)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];
		if (c == '%') {
			if (i + 2 >= n)
				return -EINVAL;
			int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
			if (hi < 0 || lo < 0 || (hi | lo) == 0)
				return -EINVAL;
			c = hi * 16 + lo;
			i += 2;
		} else if (c < '!' || c > '~' || c == '=') {
			return -EINVAL;
		}
		if (o + 1 >= cap)
			return -EINVAL;
		out[o++] = (char)c;
	}
	out[o] = 0;
	return 0;
}

int peer_msg_parse(const char *line, struct peer_msg *m, char *err, size_t errlen)
{
	const char *s = line;
	size_t n = strcspn(s, " ");
	memset(m, 0, sizeof(*m));
	if (!n || n >= sizeof(m->word)) {
		snprintf(err, errlen, "bad message word in '%.60s'", line);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || s[i] == '-')) {
			snprintf(err, errlen, "bad message word in '%.60s'", line);
			return -EINVAL;
		}
	memcpy(m->word, s, n);
	for (s += n; *s; s += n) {
		if (*s++ != ' ' || !*s || *s == ' ') {
			snprintf(err, errlen, "%s: stray space", m->word);
			return -EINVAL;
		}
		n = strcspn(s, " ");
		const char *eq = memchr(s, '=', n);
		size_t klen = eq ? (size_t)(eq - s) : 0;
		if (!eq || !klen || klen >= sizeof(m->f[0].key)) {
			snprintf(err, errlen, "%s: expected key=value, not '%.*s'", m->word,
			         (int)(n > 60 ? 60 : n), s);
			return -EINVAL;
		}
		if (m->n == PEER_FIELDS_MAX) {
			snprintf(err, errlen, "%s: more than %d fields", m->word, PEER_FIELDS_MAX);
			return -EINVAL;
		}
		memcpy(m->f[m->n].key, s, klen);
		if (decode(eq + 1, n - klen - 1, m->f[m->n].value, sizeof(m->f[0].value))) {
			snprintf(err, errlen, "%s: bad value of %s", m->word, m->f[m->n].key);
			return -EINVAL;
		}
		m->n++;
	}
	return 0;
}

const char *peer_msg_get(const struct peer_msg *m, const char *key)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->f[i].key, key))
			return m->f[i].value;
	return NULL;
}

int peer_line_start(char *buf, size_t cap, const char *word)
{
	return (size_t)snprintf(buf, cap, "%s", word) < cap ? 0 : -ENOSPC;
}

int peer_line_add(char *buf, size_t cap, const char *key, const char *value)
{
	size_t o = strlen(buf);
	int n = snprintf(buf + o, cap - o, " %s=", key);
	if (n < 0 || (size_t)n >= cap - o)
		return -ENOSPC;
	o += (size_t)n;
	for (const unsigned char *v = (const unsigned char *)(value ? value : ""); *v; v++) {
		if (o + 4 > cap)
			return -ENOSPC;
		if (*v < '!' || *v > '~' || *v == '%' || *v == '=')
			o += (size_t)snprintf(buf + o, cap - o, "%%%02X", *v);
		else
			buf[o++] = (char)*v;
	}
	buf[o] = 0;
	return 0;
}

static int ms_left(double deadline_ms)
{
	double left = deadline_ms - init_now_ms();
	return left <= 0 ? 0 : left > 1e9 ? 1000000000 : (int)ceil(left);
}

static void sockaddr_of(struct sockaddr_in *sin, const char *addr, int port)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons((uint16_t)port);
	if (addr)
		inet_pton(AF_INET, addr, &sin->sin_addr);
	else
		sin->sin_addr.s_addr = htonl(INADDR_ANY);
}

/* Ready for the protocol: blocking, bounded sends, no Nagle delay for the short lines. */
static void conn_ready(struct peer_conn *c, int fd)
{
	struct timeval tv = {.tv_sec = SEND_TIMEOUT_S};
	int one = 1;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->fd = fd;
	c->len = 0;
}

int peer_connect(struct peer_conn *c, const char *addr, int port, double deadline_ms)
{
	struct sockaddr_in sin;
	int err = 0;
	socklen_t el = sizeof(err);
	sockaddr_of(&sin, addr, port);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) && errno != EINPROGRESS) {
		err = errno;
	} else {
		struct pollfd p = {.fd = fd, .events = POLLOUT};
		int r = poll(&p, 1, ms_left(deadline_ms));
		if (r == 0)
			err = ETIMEDOUT;
		else if (r < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el))
			err = errno;
	}
	if (err) {
		close(fd);
		return -err;
	}
	conn_ready(c, fd);
	return 0;
}

int peer_listen(int port)
{
	struct sockaddr_in sin;
	int one = 1;
	sockaddr_of(&sin, NULL, port);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) || listen(fd, 4)) {
		int e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

int peer_accept(struct peer_conn *c, int lfd, double deadline_ms, char *from, size_t fromlen)
{
	struct pollfd p = {.fd = lfd, .events = POLLIN};
	for (;;) {
		int r = poll(&p, 1, ms_left(deadline_ms));
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r == 0)
			return -ETIMEDOUT;
		struct sockaddr_in sin;
		socklen_t sl = sizeof(sin);
		int fd = accept4(lfd, (struct sockaddr *)&sin, &sl, SOCK_CLOEXEC);
		if (fd < 0)
			continue; /* gone before accept, or EAGAIN: poll again, bounded */
		if (!inet_ntop(AF_INET, &sin.sin_addr, from, (socklen_t)fromlen))
			snprintf(from, fromlen, "?");
		conn_ready(c, fd);
		return 0;
	}
}

int peer_send_bytes(struct peer_conn *c, const void *data, size_t len)
{
	const char *p = data;
	if (c->fd < 0)
		return -ENOTCONN;
	while (len) {
		ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? (errno == EAGAIN ? -ETIMEDOUT : -errno) : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int peer_send(struct peer_conn *c, const char *line)
{
	char buf[PEER_LINE_MAX + 1];
	size_t n = strlen(line);
	if (n >= PEER_LINE_MAX)
		return -EMSGSIZE;
	memcpy(buf, line, n);
	buf[n] = '\n';
	return peer_send_bytes(c, buf, n + 1);
}

/* Read more into c->buf before the deadline: 0, or -errno as peer_recv. */
static int fill(struct peer_conn *c, double deadline_ms)
{
	struct pollfd p = {.fd = c->fd, .events = POLLIN};
	if (c->len == sizeof(c->buf))
		return -EPROTO;
	int r = poll(&p, 1, ms_left(deadline_ms));
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	if (r == 0)
		return -ETIMEDOUT;
	ssize_t n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, MSG_DONTWAIT);
	if (n == 0)
		return -ECONNRESET;
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	c->len += (size_t)n;
	return 0;
}

int peer_recv(struct peer_conn *c, struct peer_msg *m, double deadline_ms, char *err, size_t errlen)
{
	char line[PEER_LINE_MAX];
	if (c->fd < 0)
		return -ENOTCONN;
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		if (nl) {
			size_t n = (size_t)(nl - c->buf);
			if (n >= sizeof(line)) {
				snprintf(err, errlen, "a line of %zu bytes", n);
				return -EPROTO;
			}
			memcpy(line, c->buf, n);
			line[n] = 0;
			memmove(c->buf, nl + 1, c->len - n - 1);
			c->len -= n + 1;
			return peer_msg_parse(line, m, err, errlen) ? -EPROTO : 0;
		}
		if (c->len >= PEER_LINE_MAX) {
			snprintf(err, errlen, "a line over %d bytes", PEER_LINE_MAX);
			return -EPROTO;
		}
		int r = fill(c, deadline_ms);
		if (r)
			return r;
	}
}

int peer_recv_bytes(struct peer_conn *c, size_t len, char **out, double deadline_ms)
{
	char *data = malloc(len + 1);
	size_t have = 0;
	if (!data)
		return -ENOMEM;
	while (have < len) {
		if (!c->len) {
			int r = fill(c, deadline_ms);
			if (r) {
				free(data);
				return r;
			}
			continue;
		}
		size_t n = c->len < len - have ? c->len : len - have;
		memcpy(data + have, c->buf, n);
		memmove(c->buf, c->buf + n, c->len - n);
		c->len -= n;
		have += n;
	}
	data[len] = 0;
	*out = data;
	return 0;
}

void peer_close(struct peer_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->len = 0;
}
