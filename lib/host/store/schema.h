/* The store's schema as migrations (schema.c): bb_store_migrations[N - 1] makes version N. */
#ifndef BENCHBOOT_HOST_STORE_SCHEMA_H
#define BENCHBOOT_HOST_STORE_SCHEMA_H

#include <stddef.h>

extern const char *const bb_store_migrations[];
extern const size_t bb_store_nmigrations;

#endif
