/*
 * Sizes as the verbs take them on the command line: decimal digits, then an optional K, M or G
 * (binary: 2^10, 2^20, 2^30; either case), then an optional B: "4096", "64M", "2g", "1GB".
 */
#ifndef BENCHBOOT_SIZE_H
#define BENCHBOOT_SIZE_H

/* 0 with the size in *out, or -EINVAL (no digits, a sign, blanks, another suffix, anything after
 * it, or more than 2^64 - 1 bytes); *out is untouched then. Range checks are the caller's. */
int bb_size_parse(const char *s, unsigned long long *out);

#endif
