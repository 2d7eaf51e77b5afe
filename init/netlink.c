/* The machine's network calls (netlink.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "netlink.h"

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
