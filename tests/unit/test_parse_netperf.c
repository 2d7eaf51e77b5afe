/* netperf outputs captured from real runs (tests/fixtures/netperf/README) -> parsed results. */
#include <errno.h>
#include <math.h>

#include "harness.h"
#include "parse_netperf.h"

static struct bb_netperf_result parse_ok(const char *fixture)
{
	struct bb_netperf_result r;
	char err[256];
	char *out = test_slurp(fixture);
	int rc = parse_netperf(out, &r, err, sizeof err);
	if (rc)
		bb_test_fail(__FILE__, __LINE__, "%s: %s", fixture, err);
	free(out);
	return r;
}

TEST(tcp_stream_with_cpu)
{
	struct bb_netperf_result r = parse_ok("netperf/tcp_stream-cC.txt");
	CHECK_INT(r.rr, ==, 0);
	CHECK_CLOSE(r.throughput, 7132.47);
	CHECK_CLOSE(r.elapsed_s, 2.00);
	CHECK_INT(r.has_cpu, ==, 1);
	CHECK_CLOSE(r.local_cpu, 98.24);
	CHECK_CLOSE(r.remote_cpu, 98.24);
	CHECK_CLOSE(r.local_sd, 2.257);
	CHECK_CLOSE(r.remote_sd, 2.257);
}

TEST(tcp_stream_without_cpu)
{
	struct bb_netperf_result r = parse_ok("netperf/tcp_stream.txt");
	CHECK_CLOSE(r.throughput, 9317.26);
	CHECK_INT(r.has_cpu, ==, 0);
}

TEST(tcp_stream_no_headers)
{
	struct bb_netperf_result r = parse_ok("netperf/tcp_stream-cC-P0.txt");
	CHECK_INT(r.rr, ==, 0);
	CHECK_CLOSE(r.throughput, 10781.46);
	CHECK_CLOSE(r.remote_sd, 1.516);
}

TEST(tcp_stream_confidence_warning)
{
	struct bb_netperf_result r = parse_ok("netperf/tcp_stream-cC-i-I.txt");
	CHECK_CLOSE(r.throughput, 4508.62);
	CHECK_INT(r.confidence_missed, ==, 1);
	CHECK_CLOSE(r.local_sd, 3.829);
}

TEST(tcp_stream_ipv6)
{
	struct bb_netperf_result r = parse_ok("netperf/tcp_stream-ipv6-cC.txt");
	CHECK_CLOSE(r.throughput, 8285.36);
}

TEST(tcp_stream_local_cpu_only)
{
	struct bb_netperf_result r = parse_ok("netperf/tcp_stream-c.txt");
	CHECK_CLOSE(r.local_cpu, 100.0);
	CHECK_CLOSE(r.remote_cpu, -1.0); /* not measured */
}

TEST(tcp_stream_kbits_converted)
{
	struct bb_netperf_result r = parse_ok("netperf/tcp_stream-fk.txt");
	CHECK_CLOSE(r.throughput, 8138.1432);
}

TEST(tcp_maerts_and_sendfile)
{
	struct bb_netperf_result r = parse_ok("netperf/tcp_maerts-cC.txt");
	CHECK_CLOSE(r.throughput, 8405.24);
	r = parse_ok("netperf/tcp_sendfile-cC.txt");
	CHECK_CLOSE(r.throughput, 5841.92);
	CHECK_CLOSE(r.remote_cpu, 98.48);
}

TEST(rr_tests)
{
	struct bb_netperf_result r = parse_ok("netperf/tcp_rr-cC.txt");
	CHECK_INT(r.rr, ==, 1);
	CHECK_CLOSE(r.throughput, 33420.75);
	CHECK_CLOSE(r.local_sd, 59.245);
	r = parse_ok("netperf/tcp_rr.txt");
	CHECK_INT(r.rr, ==, 1);
	CHECK_INT(r.has_cpu, ==, 0);
	CHECK_CLOSE(r.throughput, 39181.92);
	r = parse_ok("netperf/tcp_rr-cC-P0.txt");
	CHECK_INT(r.rr, ==, 1);
	CHECK_CLOSE(r.throughput, 37298.46);
	r = parse_ok("netperf/udp_rr-cC.txt");
	CHECK_CLOSE(r.throughput, 40720.89);
	r = parse_ok("netperf/udp_rr-cC-P0.txt");
	CHECK_INT(r.rr, ==, 1);
	CHECK_CLOSE(r.throughput, 42128.14);
	CHECK_CLOSE(r.remote_cpu, 100.0);
	r = parse_ok("netperf/udp_rr.txt");
	CHECK_CLOSE(r.throughput, 40073.21);
	r = parse_ok("netperf/tcp_crr-cC.txt");
	CHECK_CLOSE(r.throughput, 12433.91);
	CHECK_CLOSE(r.remote_cpu, 291.15);
	CHECK_CLOSE(r.remote_sd, 468.322);
}

TEST(udp_stream_sender_and_receiver_lines)
{
	/* LKP's programs/netperf/parse: Throughput is the sender's line, ThroughputRecv the
	 * receiver's */
	struct bb_netperf_result r = parse_ok("netperf/udp_stream-cC.txt");
	CHECK_INT(r.rr, ==, 0);
	CHECK_CLOSE(r.throughput, 4771.0);
	CHECK_INT(r.has_recv, ==, 1);
	CHECK_CLOSE(r.recv_throughput, 1797.4);
	CHECK_CLOSE(r.msg_size, 4096.0);
	CHECK_CLOSE(r.elapsed_s, 2.00);
	CHECK_CLOSE(r.local_sd, 3.374);
	r = parse_ok("netperf/udp_stream-P0.txt");
	CHECK_INT(r.rr, ==, 0);
	CHECK_CLOSE(r.throughput, 785.29);
	CHECK_CLOSE(r.recv_throughput, 364.18);
	CHECK_INT(r.has_cpu, ==, 0);
}

TEST(sctp_from_the_guest)
{
	struct bb_netperf_result r = parse_ok("netperf/sctp_stream_many-cC.txt");
	CHECK_INT(r.rr, ==, 0);
	CHECK_CLOSE(r.throughput, 770.57);
	CHECK_CLOSE(r.elapsed_s, 3.00);
	CHECK_CLOSE(r.local_cpu, 49.92);
	CHECK_CLOSE(r.remote_cpu, 47.77);
	CHECK_CLOSE(r.local_sd, 10.614);
	CHECK_CLOSE(r.remote_sd, 10.158);
	r = parse_ok("netperf/sctp_stream_many.txt");
	CHECK_CLOSE(r.throughput, 256.79);
	CHECK_INT(r.has_cpu, ==, 0);
	r = parse_ok("netperf/sctp_stream_many-cC-P0.txt");
	CHECK_INT(r.rr, ==, 0);
	CHECK_CLOSE(r.throughput, 213.10);
	CHECK_CLOSE(r.remote_sd, 66.277);
	r = parse_ok("netperf/sctp_stream-cC.txt");
	CHECK_CLOSE(r.throughput, 475.02);
	CHECK_CLOSE(r.elapsed_s, 3.04);
	r = parse_ok("netperf/sctp_stream.txt");
	CHECK_CLOSE(r.throughput, 643.59);
	r = parse_ok("netperf/sctp_rr-cC.txt");
	CHECK_INT(r.rr, ==, 1);
	CHECK_CLOSE(r.throughput, 203.40);
	CHECK_CLOSE(r.local_sd, 9321.647);
	r = parse_ok("netperf/sctp_rr.txt");
	CHECK_INT(r.rr, ==, 1);
	CHECK_CLOSE(r.throughput, 272.12);
	r = parse_ok("netperf/sctp_rr-cC-P0.txt");
	CHECK_INT(r.rr, ==, 1);
	CHECK_CLOSE(r.throughput, 340.23);
	CHECK_CLOSE(r.remote_sd, 5308.708);
}

static void parse_err(const char *text, const char *want)
{
	struct bb_netperf_result r;
	char err[256];
	CHECK_INT(parse_netperf(text, &r, err, sizeof err), ==, -EINVAL);
	CHECK_STR(err, want);
}

TEST(errors_quote_netperf)
{
	char *out = test_slurp("netperf/error-noserver.txt");
	parse_err(out, "netperf: establish control: are you sure there is a netserver listening on "
	               "127.0.0.1 at port 1?");
	free(out);
	out = test_slurp("netperf/error-unknown-test.txt");
	parse_err(out, "netperf: The test you requested (FOO_BAR) is unknown to this netperf.");
	free(out);
	parse_err("", "netperf printed no result (empty output)");
	parse_err(NULL, "netperf printed no result (empty output)");
	parse_err("1 2 3\n", "netperf: unexpected data line with 3 fields");
	parse_err("  7132.47\n", "netperf output with -v 0 (a bare number) is not supported");
}

TEST(truncated_output_is_an_error)
{
	/* killed before the result line: only the banner and titles */
	char *out = test_slurp("netperf/tcp_stream-cC.txt");
	char *cut = strstr(out, "\n\n");
	CHECK(cut);
	cut[1] = 0;
	struct bb_netperf_result r;
	char err[256];
	CHECK_INT(parse_netperf(out, &r, err, sizeof err), ==, -EINVAL);
	CHECK_CONTAINS(err, "netperf: Recv   Send    Send");
	free(out);
}
