/*
 * The kernel's log on the results disk: kmsg.log in the boot folder, the records of /dev/kmsg
 * one a line as the console prints them ("[    2.939993] rcu: INFO: ..."), the new ones
 * appended before the sync after each iteration and at the end of the boot (so a record the
 * kernel's ring buffer drops later is kept). The host reads the kernel's reports from it when
 * it has no console log of the boot (a boot collected from its disk), as LKP reads its kmsg
 * file when there is no serial console. Not written when the results go to the console, which
 * carries the kernel's lines itself.
 */
#ifndef BENCHBOOT_INIT_KERNEL_LOG_H
#define BENCHBOOT_INIT_KERNEL_LOG_H

#define KERNEL_LOG_NAME "kmsg.log"

/* Append to path the records of /dev/kmsg (under init_root) from sequence number *next_seq on;
 * *next_seq becomes the one after the last appended. 0 or -errno. */
int kernel_log_append(const char *path, unsigned long long *next_seq);

/* kmsg.log in INIT_RESULTS_DIR brought up to date, when a results disk is open (said once when
 * it cannot be). */
void kernel_log_update(void);

#endif
