/* Hexadecimal digits. Plain C: used by the host tools and the init alike. */
#ifndef BENCHBOOT_HEX_H
#define BENCHBOOT_HEX_H

/* The value of the hex digit c (0-9, a-f, A-F), or -1. */
int bb_hex_digit(int c);

#endif
