/* iperf3's parser in the init on output captured from benchboot's own images
 * (tests/fixtures/iperf/README) -> LKP's stats. */
#include <errno.h>
#include <math.h>

#include "harness.h"
#include "stat_check.h"
#include "parse_iperf.h"
#include "stats.h"

/* iperf3 -J over TCP: end.sum_sent and end.sum_received, bits/s */
TEST(iperf_tcp)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("iperf/tcp.json");
	const char *outs[1] = {out};
	CHECK_INT(parse_iperf_stats(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 2);
	CHECK(stat_of(&s, "iperf.tcp.sender.bps") == 872794341.058747);
	CHECK(stat_of(&s, "iperf.tcp.receiver.bps") == 872877410.127524);
	CHECK(bb_stats_find(&s, "iperf.udp.bps") == NULL);
	CHECK_STR(s.v[0].unit, "bps");
	bb_stats_free(&s);
	free(out);
}

/* over UDP end.sum is the stat; iperf3 3.22 writes sum_sent and sum_received for UDP too,
 * which LKP's parse leaves out of the TCP stats */
TEST(iperf_udp)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("iperf/udp.json");
	const char *outs[1] = {out};
	CHECK_INT(parse_iperf_stats(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 1);
	CHECK(stat_of(&s, "iperf.udp.bps") == 1096340.7471932904);
	bb_stats_free(&s);
	free(out);
}

/* LKP's sessions: two documents one after the other in one output (sessions: 2), and the
 * outputs of several clients; each stat the mean over the sessions that have it */
TEST(iperf_sessions_mean)
{
	struct bb_stats s = {0};
	char err[256], *two = test_slurp("iperf/tcp-sessions2.json");
	char *udp = test_slurp("iperf/udp.json");
	const char *outs[2] = {two, udp};
	CHECK_INT(parse_iperf_stats(outs, 1, &s, err, sizeof err), ==, 0);
	CHECK(
	    near(stat_of(&s, "iperf.tcp.sender.bps"), (650350105.4344963 + 767251567.1293197) / 2));
	CHECK(near(stat_of(&s, "iperf.tcp.receiver.bps"),
	           (647400445.7870386 + 762067280.1766037) / 2));
	bb_stats_free(&s);
	CHECK_INT(parse_iperf_stats(outs, 2, &s, err, sizeof err), ==, 0);
	CHECK_INT(s.n, ==, 3);
	CHECK(stat_of(&s, "iperf.udp.bps") == 1096340.7471932904);
	bb_stats_free(&s);
	free(two);
	free(udp);
}

/* iperf3 -J puts its error in the document: quoted */
TEST(iperf_error_quotes_iperf3)
{
	struct bb_stats s = {0};
	char err[512];
	const char *outs[1] = {
	    "{\n\t\"start\":\t{\n\t\t\"connected\":\t[],\n\t\t\"version\":\t\"iperf 3.22\"\n\t},\n"
	    "\t\"intervals\":\t[],\n\t\"end\":\t{\n\t},\n\t\"error\":\t\"unable to connect to "
	    "server - server may not be running or a firewall may be blocking the connection: "
	    "Connection refused\"\n}\n"};
	CHECK_INT(parse_iperf_stats(outs, 1, &s, err, sizeof err), ==, -EINVAL);
	CHECK_STR(err, "iperf: no session with bits_per_second in 1 JSON document (client 0: "
	               "iperf3 said: unable to connect to server - server may not be running or a "
	               "firewall may be blocking the connection: Connection refused)");
	CHECK_INT(s.n, ==, 0);
	bb_stats_free(&s);
}

/* what is not iperf3's JSON: where it stops; a cut document is not read */
TEST(iperf_not_json)
{
	struct bb_stats s = {0};
	char err[256], *tcp = test_slurp("iperf/tcp.json");
	const char *outs[1] = {"iperf3: error - unable to connect to server\n"};
	CHECK_INT(parse_iperf_stats(outs, 1, &s, err, sizeof err), ==, -EINVAL);
	CHECK_STR(err, "iperf: no session with bits_per_second in 0 JSON documents (client 0: not "
	               "iperf3's JSON at byte 0: iperf3: error - unable to connect to server)");
	tcp[strlen(tcp) - 10] = 0;
	outs[0] = tcp;
	CHECK_INT(parse_iperf_stats(outs, 1, &s, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, "in 0 JSON documents (client 0: not iperf3's JSON at byte 0: {");
	bb_stats_free(&s);
	free(tcp);
}

/* the suites' table in stats.c reaches each parser by the suite's name */
/* through the init's table: the suite's name selects the parser */
TEST(iperf_by_suite_name)
{
	struct bb_stats s = {0};
	char err[256], *out = test_slurp("iperf/udp.json");
	const char *outs[1] = {out};
	CHECK_INT(stats_for_run("iperf", outs, NULL, 1, 5, &s, err, sizeof err), ==, 0);
	CHECK(bb_stats_find(&s, "iperf.udp.bps") != NULL);
	bb_stats_free(&s);
	free(out);
}
