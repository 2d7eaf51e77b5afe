/*
 * The NIC of net.nic.*: its plan keys and command line overrides, finding it by name or MAC in a
 * fake /sys/class/net (also when it appears late), the failures (absent, refused address, no
 * carrier) and its record in env.json. The network syscalls are recording fakes.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "init_fake_root.h"
#include "init.h"

static int waits;           /* link_wait calls that slept */
static int appear_after;    /* the late NIC appears after this many waits (0: never) */
static int no_carrier;      /* link_up gives no carrier */
static int operstate_after; /* link_up leaves operstate down; the Nth wait sets it up */
static const char *refuse;  /* addr_add fails with EADDRNOTAVAIL for this address */

/* A fake NIC in /sys/class/net: address, mtu, operstate, speed, a device with its driver. */
static void fake_nic(const char *ifname, const char *mac, int device)
{
	char rel[256];
	const char *root = init_root;
	snprintf(rel, sizeof(rel), "sys/class/net/%s/address", ifname);
	test_write_file(root, rel, mac);
	snprintf(rel, sizeof(rel), "sys/class/net/%s/mtu", ifname);
	test_write_file(root, rel, "1500\n");
	snprintf(rel, sizeof(rel), "sys/class/net/%s/operstate", ifname);
	test_write_file(root, rel, "down\n");
	snprintf(rel, sizeof(rel), "sys/class/net/%s/speed", ifname);
	test_write_file(root, rel, "-1\n");
	if (device) {
		test_write_file(root, "sys/bus/pci/drivers/virtio_net/bind", "");
		test_write_file(root, "sys/devices/pci0000:00/0000:00:03.0/virtio0/uevent", "");
		symlink("../../../bus/pci/drivers/virtio_net",
		        init_path("/sys/devices/pci0000:00/0000:00:03.0/virtio0/driver"));
		symlink("../../../devices/pci0000:00/0000:00:03.0/virtio0",
		        init_path("/sys/class/net/%s/device", ifname));
	}
}

static int fake_link_up(const char *ifname)
{
	char rel[256];
	init_fake_record("up %s", ifname);
	if (!no_carrier && strcmp(ifname, "lo") && strcmp(ifname, "dummy0")) {
		snprintf(rel, sizeof(rel), "sys/class/net/%s/carrier", ifname);
		test_write_file(init_root, rel, "1\n");
		snprintf(rel, sizeof(rel), "sys/class/net/%s/operstate", ifname);
		test_write_file(init_root, rel, operstate_after ? "down\n" : "up\n");
	}
	return 0;
}
static int fake_addr_add(const char *ifname, const char *addr, int prefix)
{
	init_fake_record("addr %s %s/%d", ifname, addr, prefix);
	return refuse && !strcmp(addr, refuse) ? -EADDRNOTAVAIL : 0;
}
static int fake_link_mtu(const char *ifname, int mtu)
{
	char rel[256], val[16];
	init_fake_record("mtu %s %d", ifname, mtu);
	snprintf(rel, sizeof(rel), "sys/class/net/%s/mtu", ifname);
	snprintf(val, sizeof(val), "%d\n", mtu);
	test_write_file(init_root, rel, val);
	return 0;
}
static int fake_route_add(const char *ifname, const char *gateway)
{
	init_fake_record("route %s %s", ifname, gateway);
	return 0;
}
/* Sleeps for real (the deadline is real time); the late NIC appears on the Nth wait. */
static int fake_link_wait(int ms)
{
	if (ms <= 0)
		return 0;
	waits++;
	usleep((useconds_t)ms * 1000);
	if (appear_after && waits == appear_after)
		fake_nic("eth1", "52:54:00:12:34:56\n", 1);
	if (operstate_after && waits == operstate_after)
		test_write_file(init_root, "sys/class/net/eth0/operstate", "up\n");
	return 0;
}

static const struct init_ops fake_ops = {
    .link_up = fake_link_up,
    .link_add_dummy = init_fake_link_add_dummy,
    .addr_add = fake_addr_add,
    .link_mtu = fake_link_mtu,
    .route_add = fake_route_add,
    .link_wait = fake_link_wait,
};

static const char *fake_root(void)
{
	const char *root = init_fake_root(&fake_ops);
	test_write_file(root, "sys/class/net/lo/address", "00:00:00:00:00:00\n");
	test_write_file(root, "sys/class/net/dummy0/address", "aa:bb:cc:dd:ee:ff\n");
	return root;
}

TEST(plan_nic_keys)
{
	struct bb_plan p;
	init_fake_plan(&p, "net.nic.name=52:54:00:AB:cd:EF\nnet.nic.address=10.0.2.15/24 "
	                   "fd00::15/64\nnet.nic.gateway=10.0.2.2 fd00::2\nnet.nic.mtu=9000\n"
	                   "net.nic.wait=3\n");
	CHECK_STR(p.nic_name, "52:54:00:ab:cd:ef");
	CHECK_INT(p.nic_address.n, ==, 2);
	CHECK_STR(p.nic_address.v[1], "fd00::15/64");
	CHECK_INT(p.nic_gateway.n, ==, 2);
	CHECK_STR(p.nic_gateway.v[0], "10.0.2.2");
	CHECK_INT(p.nic_mtu, ==, 9000);
	CHECK_INT(p.nic_wait, ==, 3);
	bb_plan_free(&p);
	init_fake_plan(&p, "job=x\n");
	CHECK(!p.nic_name);
	CHECK_INT(p.nic_mtu, ==, 0);
	CHECK_INT(p.nic_wait, ==, 10);
	bb_plan_free(&p);
	init_fake_plan(&p, "net.nic.name=enp0s3\n");
	CHECK_STR(p.nic_name, "enp0s3");
	bb_plan_free(&p);
}

TEST(plan_nic_errors)
{
	static const struct {
		const char *plan, *err;
	} bad[] = {
	    {"net.nic.name=eth/0\n",
	     "plan:2: net.nic.name: expected an interface name (e.g. eth0) or a MAC address "
	     "(xx:xx:xx:xx:xx:xx), not 'eth/0'"},
	    {"net.nic.name=a-very-long-ifname0\n",
	     "plan:2: net.nic.name: expected an interface name (e.g. eth0) or a MAC address "
	     "(xx:xx:xx:xx:xx:xx), not 'a-very-long-ifname0'"},
	    {"net.nic.name=52:54:00:12:34\n",
	     "plan:2: net.nic.name: expected an interface name (e.g. eth0) or a MAC address "
	     "(xx:xx:xx:xx:xx:xx), not '52:54:00:12:34'"},
	    {"net.nic.name=eth0\nnet.nic.address=10.0.2.15\n",
	     "plan:3: net.nic.address: expected IPv4ADDR/PREFIX or IPv6ADDR/PREFIX (e.g. "
	     "10.0.2.15/24), not '10.0.2.15'"},
	    {"net.nic.name=eth0\nnet.nic.address=10.0.2.15/33\n",
	     "plan:3: net.nic.address: expected IPv4ADDR/PREFIX or IPv6ADDR/PREFIX (e.g. "
	     "10.0.2.15/24), not '10.0.2.15/33'"},
	    {"net.nic.name=eth0\nnet.nic.address=fd00::1/129\n",
	     "plan:3: net.nic.address: expected IPv4ADDR/PREFIX or IPv6ADDR/PREFIX (e.g. "
	     "10.0.2.15/24), not 'fd00::1/129'"},
	    {"net.nic.name=eth0\nnet.nic.address=10.0.0.1/8 10.0.0.1/8\n",
	     "plan:3: net.nic.address: '10.0.0.1/8' given twice"},
	    {"net.nic.name=eth0\nnet.nic.gateway=10.0.0.1 10.0.0.2\n",
	     "plan:3: net.nic.gateway: one gateway per address family, not two IPv4 ones"},
	    {"net.nic.name=eth0\nnet.nic.gateway=10.0.0.1/8\n",
	     "plan:3: net.nic.gateway: expected an IPv4 or IPv6 address, not '10.0.0.1/8'"},
	    {"net.nic.name=eth0\nnet.nic.mtu=67\n",
	     "plan:3: net.nic.mtu: expected 68..65535, not '67'"},
	    {"net.nic.name=eth0\nnet.nic.wait=601\n",
	     "plan:3: net.nic.wait: expected seconds 0..600, not '601'"},
	    {"net.nic.name=eth0\nnet.nic.name=eth1\n", "plan:3: net.nic.name: duplicate key"},
	    {"net.nic.speed=1000\n", "plan:2: unknown global key 'net.nic.speed'"},
	    {"job=j\nnet.nic.mtu=1500\nnet.nic.address=10.0.0.1/8\n",
	     "plan:3: net.nic.address, .gateway and .mtu need net.nic.name (which NIC)"},
	    {"net.nic.name=eth0\nnet.nic.address=\n", "plan:3: net.nic.address: empty value"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct bb_plan p;
		char text[1024], err[512] = "";
		snprintf(text, sizeof(text), "benchboot-plan 1\n%s", bad[i].plan);
		int r = bb_plan_parse(text, strlen(text), &p, err, sizeof(err));
		if (r != -EINVAL || strcmp(err, bad[i].err))
			bb_test_fail(__FILE__, __LINE__, "case %zu: rc %d, \"%s\", expected \"%s\"",
			             i, r, err, bad[i].err);
	}
}

TEST(cmdline_nic_overrides)
{
	struct bb_plan p;
	char report[1024];
	init_fake_plan(&p, "net.nic.name=eth0\nnet.nic.address=10.0.2.15/24\n");
	CHECK_INT(
	    bb_plan_cmdline(&p,
	                    "console=ttyS0 benchboot.net.nic.name=52:54:00:12:34:56 "
	                    "benchboot.net.nic.address=\"192.168.7.20/24 fd00::20/64\" "
	                    "benchboot.net.nic.gateway=192.168.7.1 benchboot.net.nic.mtu=70000 "
	                    "benchboot.net.nic.wait=2 benchboot.net.nic.colour=red",
	                    report, sizeof(report)),
	    ==, 2);
	CHECK_STR(p.nic_name, "52:54:00:12:34:56");
	CHECK_INT(p.nic_address.n, ==, 2);
	CHECK_STR(p.nic_address.v[0], "192.168.7.20/24");
	CHECK_STR(p.nic_gateway.v[0], "192.168.7.1");
	CHECK_INT(p.nic_mtu, ==, 0);
	CHECK_INT(p.nic_wait, ==, 2);
	CHECK_CONTAINS(report, "cmdline: benchboot.net.nic.mtu: expected 68..65535, not '70000'");
	CHECK_CONTAINS(report, "cmdline: benchboot.net.nic.colour: unknown key");
	bb_plan_free(&p);
}

TEST(nic_by_name)
{
	struct bb_plan p;
	char err[512] = "";
	fake_root();
	fake_nic("eth0", "52:54:00:12:34:56\n", 1);
	init_fake_plan(&p, "net.nic.name=eth0\nnet.nic.address=10.0.2.15/24 fd00::15/64\n"
	                   "net.nic.gateway=10.0.2.2 fd00::2\nnet.nic.mtu=9000\n");
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, 0);
	CHECK_STR(err, "");
	CHECK_STR(init_fake_calls,
	          "up lo\ndummy dummy0\naddr dummy0 192.0.2.1/24\nup dummy0\n"
	          "mtu eth0 9000\nup eth0\naddr eth0 10.0.2.15/24\naddr eth0 fd00::15/64\n"
	          "route eth0 10.0.2.2\nroute eth0 fd00::2\n");
	CHECK_INT(waits, ==, 0);
	CHECK(net_nic.ok);
	CHECK(net_nic.carrier);
	CHECK_STR(net_nic.ifname, "eth0");
	CHECK_CONTAINS(init_fake_console(),
	               "BENCHBOOT nic want=eth0 name=eth0 address=10.0.2.15/24,fd00::15/64 "
	               "gateway=10.0.2.2,fd00::2 mtu=9000 carrier=1 found_ms=");
	bb_plan_free(&p);
}

TEST(nic_by_mac_appears_late)
{
	struct bb_plan p;
	char err[512] = "";
	fake_root();
	fake_nic("eth0", "52:54:00:00:00:01\n", 1);
	/* a VLAN on the wanted NIC shares its MAC but has no device: not it */
	fake_nic("eth1.5", "52:54:00:12:34:56\n", 0);
	appear_after = 3;
	init_fake_plan(&p, "net.nic.name=52:54:00:12:34:56\nnet.nic.address=10.0.2.15/24\n");
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, 0);
	CHECK_STR(net_nic.ifname, "eth1");
	CHECK_INT(waits, ==, 3);
	CHECK(net_nic.found_ms >= 3 * 250 * 0.9);
	CHECK_CONTAINS(init_fake_calls, "up dummy0\nup eth1\naddr eth1 10.0.2.15/24\n");
	CHECK(!strstr(init_fake_calls, "route"));
	CHECK(!strstr(init_fake_calls, "mtu"));
	bb_plan_free(&p);
}

TEST(nic_by_mac_needs_a_device)
{
	struct bb_plan p;
	char err[512] = "";
	fake_root();
	fake_nic("eth0", "52:54:00:00:00:01\n", 1);
	fake_nic("tap3", "52:54:00:12:34:56\n", 0);
	init_fake_plan(&p, "net.nic.name=52:54:00:12:34:56\nnet.nic.wait=0\n");
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, -ENODEV);
	CHECK_STR(net_nic.ifname, "");
	CHECK_CONTAINS(err, "(present: dummy0 eth0 lo tap3)");
	bb_plan_free(&p);
	/* upper case in /sys is the same MAC */
	fake_nic("eth2", "52:54:00:AB:CD:EF\n", 1);
	init_fake_plan(&p, "net.nic.name=52:54:00:ab:cd:ef\nnet.nic.wait=0\n");
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, 0);
	CHECK_STR(net_nic.ifname, "eth2");
	bb_plan_free(&p);
}

TEST(nic_absent_is_reported)
{
	struct bb_plan p;
	char err[512] = "";
	fake_root();
	fake_nic("eth0", "52:54:00:00:00:01\n", 1);
	init_fake_plan(&p, "net.nic.name=eth9\nnet.nic.address=10.0.2.15/24\nnet.nic.wait=1\n");
	double t0 = init_now_ms();
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, -ENODEV);
	double took = init_now_ms() - t0;
	/* bounded, and it slept between looks rather than spinning */
	CHECK(took >= 950 && took < 3000);
	CHECK_INT(waits, >=, 4);
	CHECK_INT(waits, <=, 6);
	CHECK_STR(err, "nic: no interface named eth9 after 1 s (present: dummy0 eth0 lo)");
	/* the dummy interface is still set up; nothing is done to other interfaces */
	CHECK_STR(init_fake_calls, "up lo\ndummy dummy0\naddr dummy0 192.0.2.1/24\nup dummy0\n");
	CHECK(!net_nic.ok);
	CHECK(net_nic.requested);
	CHECK_CONTAINS(init_fake_console(),
	               "BENCHBOOT nic want=eth9 name=- status=failed reason=no interface "
	               "named eth9 after 1 s");
	bb_plan_free(&p);
	/* by MAC, with no wait at all */
	init_fake_calls[0] = 0;
	waits = 0;
	init_fake_plan(&p, "net.nic.name=02:00:00:00:00:09\nnet.nic.wait=0\n");
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, -ENODEV);
	CHECK_INT(waits, ==, 0);
	CHECK_STR(err, "nic: no interface with MAC 02:00:00:00:00:09 after 0 s (present: dummy0 "
	               "eth0 lo)");
	bb_plan_free(&p);
}

TEST(nic_address_refused_goes_on)
{
	struct bb_plan p;
	char err[512] = "";
	fake_root();
	fake_nic("eth0", "52:54:00:12:34:56\n", 1);
	refuse = "10.9.9.9";
	init_fake_plan(&p, "net.nic.name=eth0\nnet.nic.address=10.9.9.9/24 10.0.2.15/24\n"
	                   "net.nic.gateway=10.0.2.2\n");
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, -EADDRNOTAVAIL);
	char want[256];
	snprintf(want, sizeof(want), "nic: eth0 address 10.9.9.9/24: %s", strerror(EADDRNOTAVAIL));
	CHECK_STR(err, want);
	/* the other address and the route are still set */
	CHECK_CONTAINS(init_fake_calls,
	               "addr eth0 10.9.9.9/24\naddr eth0 10.0.2.15/24\nroute eth0 10.0.2.2\n");
	CHECK(!net_nic.ok);
	bb_plan_free(&p);
}

TEST(nic_no_carrier)
{
	struct bb_plan p;
	char err[512] = "";
	fake_root();
	fake_nic("eth0", "52:54:00:12:34:56\n", 1);
	no_carrier = 1;
	init_fake_plan(&p, "net.nic.name=eth0\nnet.nic.address=10.0.2.15/24\nnet.nic.wait=1\n");
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, -ENOLINK);
	CHECK_STR(err, "nic: eth0: no carrier after 1 s");
	CHECK_INT(waits, >=, 4);
	CHECK(!net_nic.carrier);
	bb_plan_free(&p);
}

/* The link watch sets operstate after the carrier: the environment must not record "down". */
TEST(nic_operstate_comes_after_the_carrier)
{
	struct bb_plan p;
	char err[512] = "", state[16];
	fake_root();
	fake_nic("eth0", "52:54:00:12:34:56\n", 1);
	operstate_after = 2;
	init_fake_plan(&p, "net.nic.name=eth0\nnet.nic.address=10.0.2.15/24\nnet.nic.wait=5\n");
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, 0);
	CHECK_STR(err, "");
	CHECK_INT(waits, ==, 2);
	CHECK_INT(init_read_line("/sys/class/net/eth0/operstate", state, sizeof(state)), ==, 0);
	CHECK_STR(state, "up");
	operstate_after = 0;
	bb_plan_free(&p);
}

TEST(nic_keys_without_name)
{
	struct bb_plan p;
	char err[512] = "", report[256];
	fake_root();
	init_fake_plan(&p, "");
	/* only the command line can do this: the plan parser refuses it */
	CHECK_INT(
	    bb_plan_cmdline(&p, "benchboot.net.nic.address=10.0.2.15/24", report, sizeof(report)),
	    ==, 0);
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, -EINVAL);
	CHECK_STR(err, "nic: net.nic.address, .gateway or .mtu given without net.nic.name");
	CHECK_STR(init_fake_calls, "up lo\ndummy dummy0\naddr dummy0 192.0.2.1/24\nup dummy0\n");
	bb_plan_free(&p);
}

TEST(no_nic_no_calls)
{
	struct bb_plan p;
	char err[512] = "";
	fake_root();
	init_fake_plan(&p, "");
	CHECK_INT(net_setup(&p, err, sizeof(err)), ==, 0);
	CHECK_STR(init_fake_calls, "up lo\ndummy dummy0\naddr dummy0 192.0.2.1/24\nup dummy0\n");
	CHECK(!net_nic.requested);
	bb_plan_free(&p);
}

TEST(env_json_nic)
{
	static struct boot b;
	fake_root();
	fake_nic("bbtest9", "52:54:00:12:34:56\n", 1);
	init_fake_plan(&b.plan, "net.nic.name=52:54:00:12:34:56\nnet.nic.address=10.0.2.15/24\n"
	                        "net.nic.gateway=10.0.2.2\nnet.nic.mtu=1400\n");
	CHECK_INT(net_setup(&b.plan, b.net_error, sizeof(b.net_error)), ==, 0);
	test_write_file(init_root, "sys/class/net/bbtest9/speed", "10000\n");
	test_write_file(init_root, "sys/class/net/bbtest9/duplex", "full\n");
	test_write_file(init_root, "proc/net/route",
	                "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\t"
	                "Window\tIRTT\n"
	                "eth5\t00000000\t0101A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
	                "bbtest9\t00000000\t0202000A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
	                "bbtest9\t0002000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n");
	test_write_file(init_root, "proc/net/ipv6_route",
	                "fec00000000000000000000000000000 40 00000000000000000000000000000000 00 "
	                "00000000000000000000000000000000 00000100 00000001 00000000 00000001 "
	                "bbtest9\n"
	                "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
	                "fe800000000000000000000000000002 00000400 00000001 00000000 00450003 "
	                "bbtest9\n");
	init_mkdirs(INIT_RESULTS_DIR, 0755);
	CHECK_INT(env_write(&b), ==, 0);
	char *e = init_read(INIT_RESULTS_DIR "/env.json", NULL);
	CHECK(e);
	CHECK_CONTAINS(e,
	               "\"nic\": {\n      \"requested\": \"52:54:00:12:34:56\",\n"
	               "      \"name\": \"bbtest9\",\n      \"ok\": true,\n      \"error\": null,");
	CHECK_CONTAINS(e, "\"mac\": \"52:54:00:12:34:56\",\n      \"driver\": \"virtio_net\",\n"
	                  "      \"mtu\": 1400,\n      \"operstate\": \"up\",\n"
	                  "      \"carrier\": 1,\n      \"speed_mbps\": 10000,\n"
	                  "      \"duplex\": \"full\",");
	/* no such interface on the machine running the test: no addresses read back; the
	 * default routes through it from the fake /proc/net (not those of other interfaces) */
	CHECK_CONTAINS(e, "\"addresses\": [],\n      \"addresses_requested\": [\n"
	                  "        \"10.0.2.15/24\"\n      ],\n      \"default_routes_via\": [\n"
	                  "        \"10.0.2.2\",\n        \"fe80::2\"\n      ],\n"
	                  "      \"gateways\": [\n        \"10.0.2.2\"\n      ],\n"
	                  "      \"mtu_requested\": 1400\n");
	free(e);
	/* speed -1 (unknown) is null; a NIC that was not found has no device fields */
	test_write_file(init_root, "sys/class/net/bbtest9/speed", "-1\n");
	CHECK_INT(env_write(&b), ==, 0);
	e = init_read(INIT_RESULTS_DIR "/env.json", NULL);
	CHECK_CONTAINS(e, "\"speed_mbps\": null");
	free(e);
	bb_plan_free(&b.plan);
	init_fake_plan(&b.plan, "net.nic.name=eth7\nnet.nic.wait=0\n");
	CHECK_INT(net_setup(&b.plan, b.net_error, sizeof(b.net_error)), ==, -ENODEV);
	CHECK_INT(env_write(&b), ==, 0);
	e = init_read(INIT_RESULTS_DIR "/env.json", NULL);
	CHECK_CONTAINS(e, "\"ok\": false,\n    \"error\": \"nic: no interface named eth7");
	CHECK_CONTAINS(e, "\"name\": null,\n      \"ok\": false,\n      \"error\": \"no interface");
	CHECK(!strstr(e, "\"driver\""));
	free(e);
	/* no NIC asked for */
	bb_plan_free(&b.plan);
	init_fake_plan(&b.plan, "");
	CHECK_INT(net_setup(&b.plan, b.net_error, sizeof(b.net_error)), ==, 0);
	CHECK_INT(env_write(&b), ==, 0);
	e = init_read(INIT_RESULTS_DIR "/env.json", NULL);
	CHECK_CONTAINS(e, "\"nic\": null");
	free(e);
}
