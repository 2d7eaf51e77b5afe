/* How far apart two names are, for "did you mean" suggestions (job keys, modules). Host only. */
#ifndef BENCHBOOT_EDITDIST_H
#define BENCHBOOT_EDITDIST_H

/* Edits (insert, delete, replace, swap two neighbours) from a to b, ASCII case ignored; 1000
 * for names of 128 characters or more. */
unsigned bb_edit_distance(const char *a, const char *b);

#endif
