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
#include "netlink.h"

#define DUMMY_IF "dummy0"
/* Longest sleep between two looks at /sys/class/net when no link event wakes us earlier: the
 * kernel reports a new interface at once, but a carrier change through its link watch, which
 * may hold events back up to a second, while /sys/class/net/IF/carrier changes at once. */
#define NIC_LOOK_MS 250
#define NIC_CARRIER_LOOK_MS 20

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
