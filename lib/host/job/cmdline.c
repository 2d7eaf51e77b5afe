/* Which kernel command line words of a job are 0-day's plumbing (cmdline.h). */
#include <stddef.h>
#include <string.h>

#include "host/job/cmdline.h"

static const char why_rootfs[] = "0-day's rootfs and initrds: benchboot boots its own initramfs";
static const char why_lkp[] = "read by LKP's boot scripts (the job, its results, its server), "
                              "not by the kernel";
static const char why_console[] = "0-day's consoles: benchboot's console is its own (ttyS0)";
static const char why_panic[] = "benchboot's image sets panic=-1 and watches the console";
static const char why_hw[] = "an address of the 0-day host's firmware: wrong on another machine";
static const char why_userspace[] = "read by systemd, udev or dracut, which the image has not";

/* name (before '=' or the whole word) -> why; "*_initrd" etc. by suffix below */
static const struct {
	const char *name, *why;
} words[] = {
    {"root", why_rootfs},
    {"rw", why_rootfs},
    {"ro", why_rootfs},
    {"initrd", why_rootfs},
    {"load_ramdisk", why_rootfs},
    {"prompt_ramdisk", why_rootfs},
    {"ramdisk_size", why_rootfs},
    {"RESULT_ROOT", why_lkp},
    {"BOOT_IMAGE", why_lkp},
    {"job", why_lkp},
    {"user", why_lkp},
    {"LKP_SERVER", why_lkp},
    {"LKP_CGI_PORT", why_lkp},
    {"LKP_CIFS_PORT", why_lkp},
    {"LKP_LOCAL_RUN", why_lkp},
    {"ARCH", why_lkp},
    {"kconfig", why_lkp},
    {"commit", why_lkp},
    {"branch", why_lkp},
    {"max_uptime", why_lkp},
    {"result_service", why_lkp},
    {"NO_NETWORK", why_lkp},
    {"ip", why_lkp},
    {"rootfs_partition", why_lkp},
    {"console", why_console},
    {"earlyprintk", why_console},
    {"earlycon", why_console},
    {"vga", why_console},
    {"netconsole", why_console},
    {"panic", why_panic},
    {"acpi_rsdp", why_hw},
    {"net.ifnames", why_userspace},
    {"biosdevname", why_userspace},
};

const char *bb_cmdline_plumbing(const char *word)
{
	size_t n = strcspn(word, "=");
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strlen(words[i].name) == n && !strncmp(word, words[i].name, n))
			return words[i].why;
	/* bm_initrd=, modules_initrd=, ... */
	if (n > 7 && !strncmp(word + n - 7, "_initrd", 7))
		return why_rootfs;
	/* systemd.log_level=, rd.udev.log-priority=, udev.log_priority=; the cgroup version
	 * (systemd.unified_cgroup_hierarchy) is the job's cgroup setup and stays */
	if ((!strncmp(word, "systemd.", 8) &&
	     strncmp(word, "systemd.unified_cgroup_hierarchy=", 33)) ||
	    !strncmp(word, "rd.", 3) || !strncmp(word, "udev.", 5))
		return why_userspace;
	return NULL;
}
