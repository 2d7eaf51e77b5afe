/*
 * init/listening.c: a server's readiness from the kernel's lists of TCP sockets, saved
 * /proc/net/tcp and /proc/net/tcp6 under a fake root (lines as a 6.1 kernel prints them).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "init_fake_root.h"
#include "listening.h"

#define TCP_HEAD                                                                                   \
	"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "      \
	"timeout inode\n"
/* netserver -4 on 0.0.0.0:12865, listening; a connection from 127.0.0.1:40000 to :5001 */
#define TCP_LINES                                                                                  \
	"   0: 00000000:3241 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0       " \
	" "                                                                                        \
	"0 1234 1 0000000000000000 100 0 0 10 0\n"                                                 \
	"   1: 0100007F:9C40 0100007F:1389 01 00000000:00000000 00:00000000 00000000     0       " \
	" "                                                                                        \
	"0 1235 1 0000000000000000 20 4 30 10 -1\n"
/* a listening socket on 127.0.0.1:18765 only */
#define TCP_LOOPBACK                                                                               \
	"   0: 0100007F:494D 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0       " \
	" "                                                                                        \
	"0 1236 1 0000000000000000 100 0 0 10 0\n"
/* [::1]:12866 listening, and a wildcard [::]:12867 */
#define TCP6_LINES                                                                                 \
	"   0: 00000000000000000000000001000000:3242 00000000000000000000000000000000:0000 0A "    \
	"00000000:00000000 00:00000000 00000000     0        0 1237 1 0000000000000000 100 0 0 "   \
	"10 0\n"                                                                                   \
	"   1: 00000000000000000000000000000000:3243 00000000000000000000000000000000:0000 0A "    \
	"00000000:00000000 00:00000000 00000000     0        0 1238 1 0000000000000000 100 0 0 "   \
	"10 0\n"

static struct sockaddr_storage v4(const char *addr, int port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	memset(&ss, 0, sizeof(ss));
	sin->sin_family = AF_INET;
	sin->sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, addr, &sin->sin_addr);
	return ss;
}

static struct sockaddr_storage v6(const char *addr, int port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	memset(&ss, 0, sizeof(ss));
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons((uint16_t)port);
	inet_pton(AF_INET6, addr, &sin6->sin6_addr);
	return ss;
}

static int listening(struct sockaddr_storage ss)
{
	return tcp_listening(&ss);
}

TEST(ipv4_wildcard_and_bound_sockets)
{
	const char *root = init_fake_root(NULL);
	test_write_file(root, "proc/net/tcp", TCP_HEAD TCP_LINES TCP_LOOPBACK);
	test_write_file(root, "proc/net/tcp6", TCP_HEAD);
	/* netserver on the wildcard address takes 127.0.0.1 and any local address */
	CHECK_INT(listening(v4("127.0.0.1", 12865)), ==, 1);
	CHECK_INT(listening(v4("192.0.2.1", 12865)), ==, 1);
	/* a socket bound to 127.0.0.1 answers there, not on another address */
	CHECK_INT(listening(v4("127.0.0.1", 18765)), ==, 1);
	CHECK_INT(listening(v4("192.0.2.1", 18765)), ==, 0);
	/* a connected socket's port is not a listening one; nothing on 12866 */
	CHECK_INT(listening(v4("127.0.0.1", 40000)), ==, 0);
	CHECK_INT(listening(v4("127.0.0.1", 12866)), ==, 0);
}

TEST(ipv6_sockets)
{
	const char *root = init_fake_root(NULL);
	test_write_file(root, "proc/net/tcp", TCP_HEAD);
	test_write_file(root, "proc/net/tcp6", TCP_HEAD TCP6_LINES);
	CHECK_INT(listening(v6("::1", 12866)), ==, 1);
	CHECK_INT(listening(v6("fd00::15", 12866)), ==, 0);
	CHECK_INT(listening(v6("fd00::15", 12867)), ==, 1);
	CHECK_INT(listening(v6("::1", 12865)), ==, 0);
	/* an IPv4 address with only an IPv6 wildcard socket: IPV6_V6ONLY is not in the list, so
	 * the list cannot tell; nor without the lists at all */
	CHECK_INT(listening(v4("127.0.0.1", 12867)), ==, -EAGAIN);
	CHECK_INT(listening(v4("127.0.0.1", 12866)), ==, 0);
	unlink(init_path("/proc/net/tcp"));
	CHECK_INT(listening(v4("127.0.0.1", 12865)), ==, -ENOENT);
}
