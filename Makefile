# benchboot: one entry point. See README.md.
#   make          init + host tools        make check   fast unit and host tests (no QEMU)
#   make test     everything, QEMU too     make demo    run the default job and compare
#   make fetch    pinned inputs (apt)      make lock    regenerate config/inputs.lock
#   make bench    measurements (bench/)    make clean   remove build outputs
.DEFAULT_GOAL := all
SHELL := /bin/bash

CACHE ?= $(or $(BENCHBOOT_CACHE),$(HOME)/.cache/benchboot)
export CACHE
LOCK := config/inputs.lock
LOCK_ID := $(shell sha256sum $(LOCK) 2>/dev/null | cut -c1-16)
SYSROOT := $(CACHE)/sysroot/$(LOCK_ID)
B := build
export SYSROOT B

CC ?= gcc
MUSL_CC ?= musl-gcc
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wno-unused-parameter
BB_CFLAGS := -std=gnu11 $(WARN) -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Ilib
# The init goes into images, whose bytes must not depend on where benchboot was built: no
# build folder in its DWARF (DW_AT_comp_dir) or __FILE__, and the image gets it stripped
# ($(B)/init; the unstripped one, for gdb, is $(B)/init.debug).
INIT_PREFIX_MAP := -ffile-prefix-map=$(CURDIR)=.
# init.debug always has its DWARF, whatever CFLAGS the environment gives.
INIT_DEBUG := -g
HOST_LIBS := -lext2fs -lcom_err -lyaml -ljansson -lzstd -lz -llzma -lelf -lkmod -lcurl -lm -lpthread

# The sources: init/ (the static musl init), lib/ (shared by the init and the host tools:
# plain C + libext2fs only), lib/host/ (host-only), tools/ (the verbs). What each folder
# holds: docs/architecture.md, "Folders".
LIB_SRCS := $(sort $(wildcard lib/*.c))
HOSTLIB_SRCS := $(sort $(wildcard lib/host/*.c lib/host/*/*.c))
TOOL_SRCS := $(sort $(wildcard tools/*.c))
INIT_SRCS := $(sort $(wildcard init/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))

HOST_LIB_OBJS := $(LIB_SRCS:%.c=$(B)/host/%.o) $(HOSTLIB_SRCS:%.c=$(B)/host/%.o)
TOOL_OBJS := $(TOOL_SRCS:%.c=$(B)/host/%.o)
INIT_OBJS := $(INIT_SRCS:%.c=$(B)/musl/%.o) $(LIB_SRCS:%.c=$(B)/musl/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)

EXT2FS_MUSL := $(B)/libext2fs-musl
NETPERF := $(B)/netperf

ALL := $(B)/benchboot
ifneq ($(INIT_SRCS),)
ALL += $(B)/init
endif

.PHONY: all check test demo bench fetch lock clean deps netperf units format
all: $(ALL)

deps:
	@tools/scripts/install-deps

$(SYSROOT)/.complete: $(LOCK)
	tools/scripts/fetch

fetch:
	tools/scripts/fetch

lock:
	tools/scripts/lock

$(B)/host/%.o: %.c $(wildcard lib/*.h lib/host/*.h lib/host/*/*.h tools/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(BB_CFLAGS) -c -o $@ $<

$(B)/benchboot: $(TOOL_OBJS) $(HOST_LIB_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(HOST_LIBS)

$(EXT2FS_MUSL)/lib/libext2fs.a: $(SYSROOT)/.complete tools/scripts/build-libext2fs-musl
	tools/scripts/build-libext2fs-musl $(EXT2FS_MUSL)

$(B)/musl/%.o: %.c $(wildcard lib/*.h init/*.h) $(EXT2FS_MUSL)/lib/libext2fs.a
	@mkdir -p $(@D)
	$(MUSL_CC) $(CFLAGS) $(INIT_DEBUG) $(BB_CFLAGS) $(INIT_PREFIX_MAP) -Iinit -I$(EXT2FS_MUSL)/include -c -o $@ $<

$(B)/init: $(INIT_OBJS) $(EXT2FS_MUSL)/lib/libext2fs.a
	$(MUSL_CC) -static $(CFLAGS) -o $@.debug $(INIT_OBJS) $(EXT2FS_MUSL)/lib/libext2fs.a $(EXT2FS_MUSL)/lib/libcom_err.a
	strip --strip-all -o $@.tmp $@.debug && mv $@.tmp $@

$(NETPERF)/netperf: $(SYSROOT)/.complete tools/scripts/build-netperf
	tools/scripts/build-netperf $(SYSROOT) $(NETPERF)
netperf: $(NETPERF)/netperf

# test_init_*: the init's steps (init/*.c but main.c) built for the host, run on fake trees;
# the other unit tests link them too (the init's stats and output parsers).
INIT_TEST_OBJS := $(filter-out $(B)/host/init/main.o,$(INIT_SRCS:%.c=$(B)/host/%.o))
$(INIT_TEST_OBJS): $(wildcard init/*.h)
$(B)/tests/%: tests/unit/%.c tests/unit/harness.c tests/unit/harness.h $(HOST_LIB_OBJS) $(INIT_TEST_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(BB_CFLAGS) -Iinit -Itests/unit -o $@ $< tests/unit/harness.c $(INIT_TEST_OBJS) $(HOST_LIB_OBJS) $(HOST_LIBS)
$(B)/tests/test_init_%: tests/unit/test_init_%.c tests/unit/harness.c tests/unit/harness.h tests/unit/init_fake_root.h $(HOST_LIB_OBJS) $(INIT_TEST_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(BB_CFLAGS) -Iinit -Itests/unit -o $@ $< tests/unit/harness.c $(INIT_TEST_OBJS) $(HOST_LIB_OBJS) $(HOST_LIBS)
units: $(UNIT_BINS)

# check: no QEMU, no network beyond what the build already has.
check: all units netperf $(EXT2FS_MUSL)/lib/libext2fs.a
	tests/run --quick

# test: everything, from a fresh machine: packages, pinned inputs, builds, QEMU boots.
test: deps
	$(MAKE) fetch
	$(MAKE) all units netperf $(EXT2FS_MUSL)/lib/libext2fs.a
	tests/run

demo: deps
	$(MAKE) fetch
	$(MAKE) all netperf
	tools/scripts/demo

bench: all
	bench/run

format:
	clang-format -i $(LIB_SRCS) $(HOSTLIB_SRCS) $(TOOL_SRCS) $(INIT_SRCS) $(wildcard lib/*.h lib/host/*.h lib/host/*/*.h init/*.h tools/*.h tests/unit/*.[ch])

clean:
	rm -rf $(B) images/*/
