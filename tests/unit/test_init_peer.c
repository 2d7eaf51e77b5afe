/*
 * The wire of the init-to-init protocol (init/peer.c, docs/cluster.md): message lines encoded
 * and parsed, malformed ones refused, and the reads over real sockets: lines split across
 * reads, raw bytes after a line, the deadline, a closed connection, an over-long line, a
 * connect to a port nobody listens on.
 */
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "init.h"
#include "peer.h"

TEST(peer_line_roundtrip)
{
	char line[PEER_LINE_MAX], err[256];
	struct peer_msg m;
	CHECK_INT(peer_line_start(line, sizeof(line), "started"), ==, 0);
	CHECK_INT(peer_line_add(line, sizeof(line), "status", "failed"), ==, 0);
	CHECK_INT(peer_line_add(line, sizeof(line), "reason",
	                        "server 0 not ready on tcp:127.0.0.1:12865: 100% refused=x\n"),
	          ==, 0);
	CHECK_INT(peer_line_add(line, sizeof(line), "empty", ""), ==, 0);
	CHECK_STR(line,
	          "started status=failed reason=server%200%20not%20ready%20on%20tcp:127.0.0.1:"
	          "12865:%20100%25%20refused%3Dx%0A empty=");
	CHECK_INT(peer_msg_parse(line, &m, err, sizeof(err)), ==, 0);
	CHECK_STR(m.word, "started");
	CHECK_INT(m.n, ==, 3);
	CHECK_STR(peer_msg_get(&m, "status"), "failed");
	CHECK_STR(peer_msg_get(&m, "reason"),
	          "server 0 not ready on tcp:127.0.0.1:12865: 100% refused=x\n");
	CHECK_STR(peer_msg_get(&m, "empty"), "");
	CHECK(peer_msg_get(&m, "nosuch") == NULL);
	CHECK_INT(peer_msg_parse("bye", &m, err, sizeof(err)), ==, 0);
	CHECK_STR(m.word, "bye");
	CHECK_INT(m.n, ==, 0);
	/* a sysctl value with tabs and spaces comes back exactly */
	peer_line_start(line, sizeof(line), "sysctl");
	peer_line_add(line, sizeof(line), "actual", "4096\t131072 6291456");
	CHECK_INT(peer_msg_parse(line, &m, err, sizeof(err)), ==, 0);
	CHECK_STR(peer_msg_get(&m, "actual"), "4096\t131072 6291456");
	/* too long for the line */
	char small[24];
	peer_line_start(small, sizeof(small), "end");
	CHECK_INT(peer_line_add(small, sizeof(small), "reason", "a b c d e f g h"), ==, -ENOSPC);
}

TEST(peer_parse_errors)
{
	static const struct {
		const char *line, *err;
	} bad[] = {
	    {"", "bad message word"},
	    {"Hello proto=1", "bad message word"},
	    {"hello  proto=1", "hello: stray space"},
	    {"hello proto=1 ", "hello: stray space"},
	    {"hello proto", "hello: expected key=value, not 'proto'"},
	    {"hello =1", "hello: expected key=value, not '=1'"},
	    {"hello reason=a%2", "hello: bad value of reason"},
	    {"hello reason=a%zz", "hello: bad value of reason"},
	    {"hello reason=nul%00", "hello: bad value of reason"},
	    {"hello reason=a=b", "hello: bad value of reason"},
	    {"hello a=1 b=1 c=1 d=1 e=1 f=1 g=1 h=1 i=1 j=1 k=1 l=1 m=1 n=1 o=1 p=1 q=1",
	     "hello: more than 16 fields"},
	};
	struct peer_msg m;
	char err[256];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(peer_msg_parse(bad[i].line, &m, err, sizeof(err)), ==, -EINVAL);
		CHECK_CONTAINS(err, bad[i].err);
	}
}

TEST(peer_recv_socket)
{
	int sv[2];
	struct peer_conn c = {.fd = -1};
	struct peer_msg m;
	char err[256], *bytes = NULL;
	CHECK_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
	c.fd = sv[0];
	/* two messages and raw bytes in one write, then a line split over two writes */
	const char first[] = "env bytes=5\n{\"a\"}start run=A iter=1 pos=1/2\nend sta";
	CHECK_INT(write(sv[1], first, sizeof(first) - 1), ==, (long)sizeof(first) - 1);
	CHECK_INT(peer_recv(&c, &m, init_now_ms() + 1000, err, sizeof(err)), ==, 0);
	CHECK_STR(m.word, "env");
	CHECK_INT(peer_recv_bytes(&c, 5, &bytes, init_now_ms() + 1000), ==, 0);
	CHECK_STR(bytes, "{\"a\"}");
	free(bytes);
	CHECK_INT(peer_recv(&c, &m, init_now_ms() + 1000, err, sizeof(err)), ==, 0);
	CHECK_STR(m.word, "start");
	CHECK_STR(peer_msg_get(&m, "pos"), "1/2");
	/* half a line: the deadline ends the wait */
	double t0 = init_now_ms();
	CHECK_INT(peer_recv(&c, &m, t0 + 200, err, sizeof(err)), ==, -ETIMEDOUT);
	CHECK(init_now_ms() - t0 >= 190 && init_now_ms() - t0 < 2000);
	CHECK_INT(write(sv[1], "tus=ok\n", 7), ==, 7);
	CHECK_INT(peer_recv(&c, &m, init_now_ms() + 1000, err, sizeof(err)), ==, 0);
	CHECK_STR(m.word, "end");
	CHECK_STR(peer_msg_get(&m, "status"), "ok");
	/* a malformed line, then a line longer than the limit */
	CHECK_INT(write(sv[1], "end status\n", 11), ==, 11);
	CHECK_INT(peer_recv(&c, &m, init_now_ms() + 1000, err, sizeof(err)), ==, -EPROTO);
	CHECK_CONTAINS(err, "expected key=value");
	static char big[PEER_LINE_MAX + 10];
	memset(big, 'a', sizeof(big));
	CHECK_INT(write(sv[1], big, sizeof(big)), ==, (long)sizeof(big));
	CHECK_INT(peer_recv(&c, &m, init_now_ms() + 1000, err, sizeof(err)), ==, -EPROTO);
	CHECK_CONTAINS(err, "a line over 4096 bytes");
	peer_close(&c);
	/* the other end closes */
	CHECK_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
	c.fd = sv[0];
	CHECK_INT(peer_send(&c, "hello proto=1"), ==, 0);
	char got[32] = "";
	CHECK_INT(read(sv[1], got, sizeof(got) - 1), ==, 14);
	CHECK_STR(got, "hello proto=1\n");
	close(sv[1]);
	CHECK_INT(peer_recv(&c, &m, init_now_ms() + 1000, err, sizeof(err)), ==, -ECONNRESET);
	CHECK(peer_send(&c, "bye") < 0);
	peer_close(&c);
	CHECK_INT(peer_recv(&c, &m, init_now_ms() + 1000, err, sizeof(err)), ==, -ENOTCONN);
}

TEST(peer_tcp_loopback)
{
	struct peer_conn srv = {.fd = -1}, cli = {.fd = -1};
	struct peer_msg m;
	char err[256], from[64];
	int lfd = -1, port = 0;
	/* a free port: try a few above a pid-derived base */
	for (int i = 0; i < 50 && lfd < 0; i++) {
		port = 20000 + (getpid() * 7 + i * 131) % 40000;
		lfd = peer_listen(port);
	}
	if (lfd < 0)
		bb_test_skip("no free TCP port to listen on");
	/* nobody accepts yet: the connect completes (backlog), the accept too */
	CHECK_INT(peer_connect(&cli, "127.0.0.1", port, init_now_ms() + 2000), ==, 0);
	CHECK_INT(peer_accept(&srv, lfd, init_now_ms() + 2000, from, sizeof(from)), ==, 0);
	CHECK_STR(from, "127.0.0.1");
	CHECK_INT(peer_send(&cli, "done ok=2 failed=0"), ==, 0);
	CHECK_INT(peer_recv(&srv, &m, init_now_ms() + 2000, err, sizeof(err)), ==, 0);
	CHECK_STR(peer_msg_get(&m, "ok"), "2");
	/* no second client: accept ends at its deadline */
	double t0 = init_now_ms();
	CHECK_INT(peer_accept(&srv, lfd, t0 + 200, from, sizeof(from)), ==, -ETIMEDOUT);
	CHECK(init_now_ms() - t0 < 2000);
	close(lfd);
	peer_close(&srv);
	peer_close(&cli);
	/* nobody listens there any more: refused at once */
	CHECK_INT(peer_connect(&cli, "127.0.0.1", port, init_now_ms() + 2000), ==, -ECONNREFUSED);
}
