/*
 * Prints every key the plan parser knows, from its tables (bb_plan_each_key), one per line:
 * "key NAME", "prefix NAME" or "field PREFIX FIELD"; tests/host/docs-contracts.sh checks that
 * docs/plan.md gives each.
 */
#include <stdio.h>

#include "plan/plan.h"

static void print_key(const char *kind, const char *name, const char *field, void *arg)
{
	if (field)
		printf("%s %s %s\n", kind, name, field);
	else
		printf("%s %s\n", kind, name);
}

int main(void)
{
	bb_plan_each_key(print_key, NULL);
	return fflush(stdout) ? 1 : 0;
}
