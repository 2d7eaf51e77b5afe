/*
 * Network: lo up, and one non-loopback IPv4 address on a dummy interface, because glibc's
 * getaddrinfo (AI_ADDRCONFIG) refuses 127.0.0.1 when only loopback has addresses. Loading the
 * dummy module usually creates dummy0; otherwise it is created over rtnetlink.
 *
 * When the plan names a NIC (net.nic.*), it is found by name or by MAC address in
 * /sys/class/net, waiting (bounded by net.nic.wait) for its driver to create it, then given its
 * MTU, brought up, given its addresses and, once it has a carrier, its default routes. Flags and
 * MTU are set with ioctls, addresses and routes over rtnetlink. Every call that changes the
 * machine goes through init_ops. A NIC that is missing or refuses its settings is reported
 * (console, env.json) and the runs go on.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "console_proto.h"
#include "init.h"

#define DUMMY_IF "dummy0"
/* Longest sleep between two looks at /sys/class/net when no link event wakes us earlier: the
 * kernel reports a new interface at once, but a carrier change through its link watch, which
 * may hold events back up to a second, while /sys/class/net/IF/carrier changes at once. */
#define NIC_LOOK_MS 250
#define NIC_CARRIER_LOOK_MS 20

/*
 * The few rtnetlink definitions needed here, from the kernel's UAPI (linux/netlink.h,
 * linux/rtnetlink.h, linux/if_link.h, linux/if_addr.h): musl ships no kernel headers.
 */
#ifndef NETLINK_ROUTE
#define NETLINK_ROUTE 0
#endif
enum {
	NLM_F_REQUEST = 0x1,
	NLM_F_ACK = 0x4,
	NLM_F_REPLACE = 0x100,
	NLM_F_EXCL = 0x200,
	NLM_F_CREATE = 0x400,
	NLMSG_ERROR = 0x2,
	RTM_NEWLINK = 16,
	RTM_NEWADDR = 20,
	RTM_NEWROUTE = 24,
	RTMGRP_LINK = 0x1,
	IFLA_IFNAME = 3,
	IFLA_LINKINFO = 18,
	IFLA_INFO_KIND = 1,
	IFA_ADDRESS = 1,
	IFA_LOCAL = 2,
	IFA_BROADCAST = 4,
	IFA_F_NODAD = 0x02,
	RTA_OIF = 4,
	RTA_GATEWAY = 5,
	RT_TABLE_MAIN = 254,
	RTPROT_BOOT = 3,
	RT_SCOPE_UNIVERSE = 0,
	RTN_UNICAST = 1,
};
struct nlmsghdr {
	uint32_t nlmsg_len;
	uint16_t nlmsg_type, nlmsg_flags;
	uint32_t nlmsg_seq, nlmsg_pid;
};
struct nlmsgerr {
	int error;
	struct nlmsghdr msg;
};
struct ifinfomsg {
	unsigned char ifi_family, ifi_pad;
	unsigned short ifi_type;
	int ifi_index;
	unsigned ifi_flags, ifi_change;
};
struct ifaddrmsg {
	unsigned char ifa_family, ifa_prefixlen, ifa_flags, ifa_scope;
	uint32_t ifa_index;
};
struct rtmsg {
	unsigned char rtm_family, rtm_dst_len, rtm_src_len, rtm_tos;
	unsigned char rtm_table, rtm_protocol, rtm_scope, rtm_type;
	unsigned rtm_flags;
};
struct rtattr {
	unsigned short rta_len, rta_type;
};
struct sockaddr_nl {
	sa_family_t nl_family;
	unsigned short nl_pad;
	uint32_t nl_pid, nl_groups;
};
#define NL_ALIGN(len) (((len) + 3u) & ~3u)
#define NLMSG_HDRLEN_ NL_ALIGN(sizeof(struct nlmsghdr))
#define RTA_LEN_(len) (NL_ALIGN(sizeof(struct rtattr)) + (len))

/* One request: a header, its fixed part (ifinfomsg, ifaddrmsg or rtmsg) and attributes. */
struct nlreq {
	struct nlmsghdr h;
	union {
		struct ifinfomsg i;
		struct ifaddrmsg a;
		struct rtmsg r;
	} u;
	char attrs[256];
};

static void nl_init(struct nlreq *req, uint16_t type, uint16_t flags, size_t fixed)
{
	memset(req, 0, sizeof(*req));
	req->h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN_ + NL_ALIGN(fixed));
	req->h.nlmsg_type = type;
	req->h.nlmsg_flags = (uint16_t)(NLM_F_REQUEST | NLM_F_ACK | flags);
}

/* Send one request and read its acknowledgement: 0 or -errno (the kernel's). */
static int nl_talk(struct nlreq *req)
{
	char reply[1024];
	int fd, r = 0;
	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE)) < 0)
		return -errno;
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	if (sendto(fd, req, req->h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		goto out_close;
	}
	ssize_t n = recv(fd, reply, sizeof(reply), 0);
	if (n < 0) {
		r = -errno;
		goto out_close;
	}
	struct nlmsghdr *h = (struct nlmsghdr *)reply;
	if ((size_t)n >= NLMSG_HDRLEN_ + sizeof(struct nlmsgerr) && h->nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr *e = (struct nlmsgerr *)(reply + NLMSG_HDRLEN_);
		r = e->error;
	}
out_close:
	close(fd);
	return r;
}

int net_real_link_up(const char *ifname)
{
	struct ifreq ifr = {0};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r = 0;
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		r = -errno;
	else {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			r = -errno;
	}
	close(fd);
	return r;
}

static void add_attr(struct nlreq *req, unsigned short type, const void *data, size_t len)
{
	char *base = (char *)req;
	size_t off = NL_ALIGN(req->h.nlmsg_len);
	if (off + NL_ALIGN(RTA_LEN_(len)) > sizeof(*req))
		return;
	struct rtattr *a = (struct rtattr *)(base + off);
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LEN_(len);
	if (len)
		memcpy(base + off + RTA_LEN_(0), data, len);
	req->h.nlmsg_len = (uint32_t)(off + NL_ALIGN(RTA_LEN_(len)));
}

int net_real_link_add_dummy(const char *ifname)
{
	struct nlreq req;
	if (if_nametoindex(ifname))
		return 0;
	nl_init(&req, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, sizeof(req.u.i));
	req.u.i.ifi_family = AF_UNSPEC;
	add_attr(&req, IFLA_IFNAME, ifname, strlen(ifname) + 1);
	struct rtattr *linkinfo = (struct rtattr *)((char *)&req + NL_ALIGN(req.h.nlmsg_len));
	add_attr(&req, IFLA_LINKINFO, NULL, 0);
	add_attr(&req, IFLA_INFO_KIND, "dummy", 5);
	linkinfo->rta_len = (unsigned short)((char *)&req + req.h.nlmsg_len - (char *)linkinfo);
	int r = nl_talk(&req);
	return r == -EEXIST ? 0 : r;
}

/* An IPv4 or IPv6 address over rtnetlink (several addresses per interface, either family);
 * IPv6 ones without duplicate address detection, usable at once. */
int net_real_addr_add(const char *ifname, const char *addr, int prefix)
{
	struct nlreq req;
	unsigned char bin[16];
	int family = strchr(addr, ':') ? AF_INET6 : AF_INET;
	size_t alen = family == AF_INET ? 4 : 16;
	unsigned idx = if_nametoindex(ifname);
	if (!idx)
		return -ENODEV;
	if (inet_pton(family, addr, bin) != 1 || prefix < 0 || prefix > (int)alen * 8)
		return -EINVAL;
	nl_init(&req, RTM_NEWADDR, NLM_F_CREATE | NLM_F_REPLACE, sizeof(req.u.a));
	req.u.a.ifa_family = (unsigned char)family;
	req.u.a.ifa_prefixlen = (unsigned char)prefix;
	req.u.a.ifa_flags = family == AF_INET6 ? IFA_F_NODAD : 0;
	req.u.a.ifa_scope = RT_SCOPE_UNIVERSE;
	req.u.a.ifa_index = idx;
	add_attr(&req, IFA_LOCAL, bin, alen);
	add_attr(&req, IFA_ADDRESS, bin, alen);
	if (family == AF_INET && prefix < 31) {
		uint32_t a4, mask = prefix ? htonl(~0u << (32 - prefix)) : 0;
		memcpy(&a4, bin, 4);
		a4 |= ~mask;
		add_attr(&req, IFA_BROADCAST, &a4, 4);
	}
	return nl_talk(&req);
}

int net_real_link_mtu(const char *ifname, int mtu)
{
	struct ifreq ifr = {0};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r = 0;
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_mtu = mtu;
	if (ioctl(fd, SIOCSIFMTU, &ifr) < 0)
		r = -errno;
	close(fd);
	return r;
}

/* The default route of the gateway's family through ifname (replacing one already there). */
int net_real_route_add(const char *ifname, const char *gateway)
{
	struct nlreq req;
	unsigned char bin[16];
	int family = strchr(gateway, ':') ? AF_INET6 : AF_INET;
	int idx = (int)if_nametoindex(ifname);
	if (!idx)
		return -ENODEV;
	if (inet_pton(family, gateway, bin) != 1)
		return -EINVAL;
	nl_init(&req, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, sizeof(req.u.r));
	req.u.r.rtm_family = (unsigned char)family;
	req.u.r.rtm_table = RT_TABLE_MAIN;
	req.u.r.rtm_protocol = RTPROT_BOOT;
	req.u.r.rtm_scope = RT_SCOPE_UNIVERSE;
	req.u.r.rtm_type = RTN_UNICAST;
	add_attr(&req, RTA_GATEWAY, bin, family == AF_INET ? 4 : 16);
	add_attr(&req, RTA_OIF, &idx, sizeof(idx));
	return nl_talk(&req);
}

/*
 * Sleep until a link changes (an interface appears, its carrier comes) or ms pass: a netlink
 * socket in the link group, opened at the first call, polled, closed by ms < 0. Without
 * netlink, a plain sleep. Either way the init sleeps in the kernel.
 */
int net_real_link_wait(int ms)
{
	static int fd = -2;
	char buf[4096];
	if (ms < 0) {
		if (fd >= 0)
			close(fd);
		fd = -2;
		return 0;
	}
	if (fd == -2) {
		struct sockaddr_nl sa = {.nl_family = AF_NETLINK, .nl_groups = RTMGRP_LINK};
		fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
		if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			close(fd);
			fd = -1;
		}
	}
	if (ms == 0)
		return 0;
	if (fd < 0) {
		struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		return 0;
	}
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int n = poll(&p, 1, ms);
	while (n > 0 && recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
	return n > 0;
}

struct net_nic net_nic;

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The interface the plan means: by name, or the NIC whose address is the MAC (the first by name
 * with a device: a VLAN, bond or bridge that copies its MAC is not it). 1 found (ifname set), 0
 * not (yet). seen gets the interfaces present, for the message.
 */
static int nic_find(const char *want, char *ifname, size_t len, char *seen, size_t seenlen)
{
	int mac = bb_plan_is_mac(want), found = 0;
	char *names[256];
	size_t n = 0;
	struct dirent *de;
	DIR *d;

	if (seenlen)
		seen[0] = 0;
	if (!mac && is_dir(init_path("/sys/class/net/%s", want))) {
		snprintf(ifname, len, "%s", want);
		return 1;
	}
	if (!(d = opendir(init_path("/sys/class/net"))))
		return 0;
	while ((de = readdir(d)) && n < sizeof(names) / sizeof(names[0]))
		if (de->d_name[0] != '.' && strlen(de->d_name) < IFNAMSIZ &&
		    (names[n] = strdup(de->d_name)))
			n++;
	closedir(d);
	qsort(names, n, sizeof(names[0]), name_cmp);
	for (size_t i = 0; i < n; i++) {
		char addr[64], path[64];
		size_t l = strlen(seen);
		snprintf(seen + l, seenlen - l, "%s%s", l ? " " : "", names[i]);
		snprintf(path, sizeof(path), "/sys/class/net/%s/address", names[i]);
		if (!mac || init_read_line(path, addr, sizeof(addr)))
			continue;
		for (char *c = addr; *c; c++)
			if (*c >= 'A' && *c <= 'F')
				*c = (char)(*c + 32);
		if (strcmp(addr, want))
			continue;
		struct stat st;
		if (!found && lstat(init_path("/sys/class/net/%s/device", names[i]), &st) == 0) {
			snprintf(ifname, len, "%s", names[i]);
			found = 1;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	return found;
}

static int nic_carrier(const char *ifname)
{
	char buf[16], path[64];
	snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", ifname);
	return init_read_line(path, buf, sizeof(buf)) == 0 && !strcmp(buf, "1");
}

/* The kernel's link watch sets operstate up to a second after the carrier: the environment
 * records operstate, so it is waited for too (not an error when it does not come). */
static int nic_operstate_up(const char *ifname)
{
	char buf[16], path[64];
	snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", ifname);
	return init_read_line(path, buf, sizeof(buf)) == 0 && !strcmp(buf, "up");
}

static void nic_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void nic_error(const char *fmt, ...)
{
	va_list ap;
	size_t l = strlen(net_nic.error);
	if (l && l + 2 < sizeof(net_nic.error)) {
		memcpy(net_nic.error + l, "; ", 3);
		l += 2;
	}
	va_start(ap, fmt);
	vsnprintf(net_nic.error + l, sizeof(net_nic.error) - l, fmt, ap);
	va_end(ap);
}

/* The NIC of the plan; 0, or -errno of the first failure with net_nic.error set. */
static int nic_setup(const struct bb_plan *plan)
{
	char seen[512], addr[64], list[512] = "", gws[256] = "";
	int first = 0, prefix, r;
	double start = init_now_ms(), deadline = start + plan->nic_wait * 1000.0, left;

	memset(&net_nic, 0, sizeof(net_nic));
	net_nic.requested = 1;
	if (!plan->nic_name) {
		nic_error("net.nic.address, .gateway or .mtu given without net.nic.name");
		first = -EINVAL;
		goto report;
	}
	/* the driver may still be creating it: look, sleep until a link event, look again */
	init_ops->link_wait(0);
	while (
	    !nic_find(plan->nic_name, net_nic.ifname, sizeof(net_nic.ifname), seen, sizeof(seen))) {
		if ((left = deadline - init_now_ms()) <= 0) {
			nic_error("no interface %s %s after %d s (present: %s)",
			          bb_plan_is_mac(plan->nic_name) ? "with MAC" : "named",
			          plan->nic_name, plan->nic_wait, *seen ? seen : "none");
			first = -ENODEV;
			goto report;
		}
		init_ops->link_wait(left < NIC_LOOK_MS ? (int)left + 1 : NIC_LOOK_MS);
	}
	net_nic.found_ms = init_now_ms() - start;
	const char *ifn = net_nic.ifname;
	if (plan->nic_mtu && (r = init_ops->link_mtu(ifn, plan->nic_mtu))) {
		nic_error("%s mtu %d: %s", ifn, plan->nic_mtu, strerror(-r));
		first = first ? first : r;
	}
	int up = (r = init_ops->link_up(ifn)) == 0;
	if (!up) {
		nic_error("%s up: %s", ifn, strerror(-r));
		first = first ? first : r;
	}
	for (size_t i = 0; i < plan->nic_address.n; i++) {
		const char *a = plan->nic_address.v[i];
		if (!bb_plan_addr_prefix(a, addr, sizeof(addr), &prefix))
			r = -EINVAL;
		else
			r = init_ops->addr_add(ifn, addr, prefix);
		if (r) {
			nic_error("%s address %s: %s", ifn, a, strerror(-r));
			first = first ? first : r;
		} else {
			size_t l = strlen(list);
			snprintf(list + l, sizeof(list) - l, "%s%s", l ? "," : "", a);
		}
	}
	/* routes through a link without carrier are refused or dead: wait for it (bounded) */
	while (up && !(net_nic.carrier = nic_carrier(ifn))) {
		if ((left = deadline - init_now_ms()) <= 0) {
			nic_error("%s: no carrier after %d s", ifn, plan->nic_wait);
			first = first ? first : -ENOLINK;
			break;
		}
		init_ops->link_wait(left < NIC_CARRIER_LOOK_MS ? (int)left + 1
		                                               : NIC_CARRIER_LOOK_MS);
	}
	while (net_nic.carrier && !nic_operstate_up(ifn) && (left = deadline - init_now_ms()) > 0)
		init_ops->link_wait(left < NIC_CARRIER_LOOK_MS ? (int)left + 1
		                                               : NIC_CARRIER_LOOK_MS);
	net_nic.carrier_ms = init_now_ms() - start;
	for (size_t i = 0; i < plan->nic_gateway.n; i++) {
		const char *g = plan->nic_gateway.v[i];
		if ((r = init_ops->route_add(ifn, g))) {
			nic_error("%s default route via %s: %s", ifn, g, strerror(-r));
			first = first ? first : r;
		} else {
			size_t l = strlen(gws);
			snprintf(gws + l, sizeof(gws) - l, "%s%s", l ? "," : "", g);
		}
	}
report:
	init_ops->link_wait(-1);
	net_nic.ok = !first;
	if (first) {
		machine(BB_CON_NIC " want=%s name=%s status=failed reason=%s",
		        plan->nic_name ? plan->nic_name : "-",
		        *net_nic.ifname ? net_nic.ifname : "-", net_nic.error);
	} else {
		char mtu[16] = "-";
		if (plan->nic_mtu)
			snprintf(mtu, sizeof(mtu), "%d", plan->nic_mtu);
		machine(BB_CON_NIC
		        " want=%s name=%s address=%s gateway=%s mtu=%s carrier=%d found_ms=%.1f "
		        "carrier_ms=%.1f done_ms=%.1f "
		        "status=ok",
		        plan->nic_name, net_nic.ifname, *list ? list : "-", *gws ? gws : "-", mtu,
		        net_nic.carrier, net_nic.found_ms, net_nic.carrier_ms,
		        init_now_ms() - start);
	}
	return first;
}

static int dummy_setup(const struct bb_plan *plan, char *err, size_t errlen)
{
	char addr[INET6_ADDRSTRLEN];
	int prefix, r;
	/* the plan parser checked it: an IPv4 ADDR/PREFIX */
	if (!bb_plan_addr_prefix(plan->net_dummy ? plan->net_dummy : "192.0.2.1/24", addr,
	                         sizeof(addr), &prefix)) {
		snprintf(err, errlen, "net.dummy: not an ADDR/PREFIX");
		return -EINVAL;
	}
	if ((r = init_ops->link_up("lo"))) {
		snprintf(err, errlen, "lo up: %s", strerror(-r));
		return r;
	}
	if ((r = init_ops->link_add_dummy(DUMMY_IF))) {
		snprintf(err, errlen, "create %s: %s", DUMMY_IF, strerror(-r));
		return r;
	}
	if ((r = init_ops->addr_add(DUMMY_IF, addr, prefix))) {
		snprintf(err, errlen, "%s address %s/%d: %s", DUMMY_IF, addr, prefix, strerror(-r));
		return r;
	}
	if ((r = init_ops->link_up(DUMMY_IF))) {
		snprintf(err, errlen, "%s up: %s", DUMMY_IF, strerror(-r));
		return r;
	}
	machine(BB_CON_NET " lo=up %s=%s/%d", DUMMY_IF, addr, prefix);
	return 0;
}

int net_setup(const struct bb_plan *plan, char *err, size_t errlen)
{
	int r;
	if (errlen)
		err[0] = 0;
	r = dummy_setup(plan, err, errlen);
	memset(&net_nic, 0, sizeof(net_nic));
	if (plan->nic_name || plan->nic_address.n || plan->nic_gateway.n || plan->nic_mtu) {
		int rn = nic_setup(plan);
		if (rn) {
			size_t l = strlen(err);
			snprintf(err + l, errlen - l, "%snic: %s", l ? "; " : "", net_nic.error);
			r = r ? r : rn;
		}
	}
	return r;
}
