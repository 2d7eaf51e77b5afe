/*
 * Network: lo up, and one non-loopback IPv4 address on a dummy interface, because glibc's
 * getaddrinfo (AI_ADDRCONFIG) refuses 127.0.0.1 when only loopback has addresses. Loading the
 * dummy module usually creates dummy0; otherwise it is created over rtnetlink. Addresses and
 * flags are set with ioctls.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "init.h"

#define DUMMY_IF "dummy0"

/*
 * The few rtnetlink definitions needed to create a link, from the kernel's UAPI
 * (linux/netlink.h, linux/rtnetlink.h, linux/if_link.h): musl ships no kernel headers.
 */
#ifndef NETLINK_ROUTE
#define NETLINK_ROUTE 0
#endif
enum {
	NLM_F_REQUEST = 0x1,
	NLM_F_ACK = 0x4,
	NLM_F_EXCL = 0x200,
	NLM_F_CREATE = 0x400,
	NLMSG_ERROR = 0x2,
	RTM_NEWLINK = 16,
	IFLA_IFNAME = 3,
	IFLA_LINKINFO = 18,
	IFLA_INFO_KIND = 1,
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

static void add_attr(struct nlmsghdr *h, size_t max, unsigned short type, const void *data,
                     size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)h + NL_ALIGN(h->nlmsg_len));
	if (NL_ALIGN(h->nlmsg_len) + NL_ALIGN(RTA_LEN_(len)) > max)
		return;
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LEN_(len);
	if (len)
		memcpy((char *)a + RTA_LEN_(0), data, len);
	h->nlmsg_len = NL_ALIGN(h->nlmsg_len) + (uint32_t)NL_ALIGN(RTA_LEN_(len));
}

int net_real_link_add_dummy(const char *ifname)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg i;
		char attrs[256];
	} req;
	char reply[1024];
	int fd, r = 0;

	if (if_nametoindex(ifname))
		return 0;
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN_ + sizeof(req.i));
	req.h.nlmsg_type = RTM_NEWLINK;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK;
	req.i.ifi_family = AF_UNSPEC;
	add_attr(&req.h, sizeof(req), IFLA_IFNAME, ifname, strlen(ifname) + 1);
	struct rtattr *linkinfo = (struct rtattr *)((char *)&req + NL_ALIGN(req.h.nlmsg_len));
	add_attr(&req.h, sizeof(req), IFLA_LINKINFO, NULL, 0);
	add_attr(&req.h, sizeof(req), IFLA_INFO_KIND, "dummy", 5);
	linkinfo->rta_len = (unsigned short)((char *)&req + req.h.nlmsg_len - (char *)linkinfo);

	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE)) < 0)
		return -errno;
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	if (sendto(fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
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
		if (e->error && e->error != -EEXIST)
			r = e->error;
	}
out_close:
	close(fd);
	return r;
}

int net_real_addr_add(const char *ifname, const char *addr, int prefix)
{
	struct ifreq ifr = {0};
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r = 0;
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	sin->sin_family = AF_INET;
	if (inet_pton(AF_INET, addr, &sin->sin_addr) != 1) {
		r = -EINVAL;
		goto out_close;
	}
	if (ioctl(fd, SIOCSIFADDR, &ifr) < 0) {
		r = -errno;
		goto out_close;
	}
	sin->sin_addr.s_addr = prefix ? htonl(~0u << (32 - prefix)) : 0;
	if (ioctl(fd, SIOCSIFNETMASK, &ifr) < 0)
		r = -errno;
out_close:
	close(fd);
	return r;
}

int net_setup(const struct bb_plan *plan, char *err, size_t errlen)
{
	char addr[32];
	int prefix = 24, r;
	const char *spec = plan->net_dummy ? plan->net_dummy : "192.0.2.1/24";
	const char *slash = strchr(spec, '/');

	snprintf(addr, sizeof(addr), "%.*s", slash ? (int)(slash - spec) : (int)strlen(spec), spec);
	if (slash)
		prefix = atoi(slash + 1);
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
	machine("net lo=up %s=%s/%d", DUMMY_IF, addr, prefix);
	return 0;
}
