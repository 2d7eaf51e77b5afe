/*
 * The machine's network calls behind init_ops (init.h): interface flags and MTU with ioctls,
 * dummy links, addresses and routes over rtnetlink, and a wait for link events. The init's
 * network logic (net.c) calls them through init_ops only, so that the tests replace them.
 * Each returns 0 or -errno; link_wait: 1 when a link event came within ms, 0 otherwise
 * (ms 0: start listening; ms < 0: stop).
 */
#ifndef BENCHBOOT_INIT_NETLINK_H
#define BENCHBOOT_INIT_NETLINK_H

int net_real_link_up(const char *ifname);
int net_real_link_add_dummy(const char *ifname);
int net_real_addr_add(const char *ifname, const char *addr, int prefix);
int net_real_link_mtu(const char *ifname, int mtu);
int net_real_route_add(const char *ifname, const char *gateway);
int net_real_link_wait(int ms);

#endif
