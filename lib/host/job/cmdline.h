/*
 * The kernel command line of a 0-day job (`bootloader_append:` and `kernel_cmdline:`), word
 * by word: the parameters that change what the kernel under test does are applied to the
 * boot; 0-day's site plumbing (its rootfs and initrds, the job and result paths its
 * bootstrap scripts read, its consoles, the firmware address of its host) is not, with the
 * reason. docs/jobs.md "The boot command line" has the list.
 */
#ifndef BENCHBOOT_HOST_CMDLINE_H
#define BENCHBOOT_HOST_CMDLINE_H

/* NULL when the word is applied; else why it is not. */
const char *bb_cmdline_plumbing(const char *word);

#endif
