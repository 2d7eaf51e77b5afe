/*
 * The init's results writer (init/results.c), built for the host: finds the disk under a fake
 * root, then for each STAGE copies that directory's files into LOCALDIR and syncs.
 * usage: results_writer ROOT BOOTID LOCALDIR [--dump] [STAGE...] [--no-finish]
 * Prints "open=R", "sync=R" per stage, "finish=R".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

int main(int argc, char **argv)
{
	int dump = 0, finish = 1;
	if (argc < 4) {
		fprintf(stderr, "usage: results_writer ROOT BOOTID LOCALDIR [--dump] [STAGE...]\n");
		return 100;
	}
	int r = results_open(argv[1], argv[2]);
	printf("open=%d bootdir=%s\n", r, results_bootdir());
	fflush(stdout);
	for (int i = 4; i < argc; i++) {
		char cmd[8192];
		if (!strcmp(argv[i], "--dump")) {
			dump = 1;
			continue;
		}
		if (!strcmp(argv[i], "--no-finish")) {
			finish = 0;
			continue;
		}
		snprintf(cmd, sizeof(cmd), "cp -R '%s'/. '%s'/", argv[i], argv[3]);
		if (system(cmd))
			return 111;
		r = results_sync(argv[3], dump);
		printf("sync=%d\n", r);
		fflush(stdout);
	}
	if (finish) {
		r = results_finish();
		printf("finish=%d\n", r);
	}
	return 0;
}
