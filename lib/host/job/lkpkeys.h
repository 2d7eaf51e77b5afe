/*
 * The keys of LKP jobs that benchboot knows and does not act on (lkpkeys.c): recorded with the
 * results as "lkp.KEY", listed by `benchboot check`.
 */
#ifndef BENCHBOOT_HOST_JOB_LKPKEYS_H
#define BENCHBOOT_HOST_JOB_LKPKEYS_H

/* Why benchboot records an LKP key without acting on it ("a monitor", "queue metadata", ...),
 * or NULL when the key is not one LKP knows. */
const char *bb_lkp_key_kind(const char *key);

#endif
