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
HOST_LIBS := -lext2fs -lcom_err -lyaml -ljansson -lzstd -lz -llzma -lelf -lkmod -lcurl -lsqlite3 -lpq -lm -lpthread
# libpq's header (the store's PostgreSQL engine) is in a folder of its own
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)

# The sources: init/ (the static musl init), lib/ and its rooms but host/ (shared by the init
# and the host tools: plain C + libext2fs only), lib/host/ (host-only), tools/ (the verbs).
# What each folder holds: docs/architecture.md, "Folders".
LIB_SRCS := $(sort $(filter-out lib/host/%,$(wildcard lib/*.c lib/*/*.c)))
HOSTLIB_SRCS := $(sort $(wildcard lib/host/*.c lib/host/*/*.c lib/host/job/generated/*.c lib/host/job/suites/*.c))
LIB_HDRS := $(filter-out lib/host/%,$(wildcard lib/*.h lib/*/*.h))
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

.PHONY: all check test demo bench print-host-libs fetch lock clean deps deps-demo netperf units test-progs stressng-opts lkp-keys lkp-kpis format format-check format-version
all: $(ALL)

# the Debian packages of a target (tools/scripts/install-deps --print lists them): make test
# needs them all, make demo the build's and QEMU's
deps:
	@tools/scripts/install-deps test
deps-demo:
	@tools/scripts/install-deps demo

$(SYSROOT)/.complete: $(LOCK)
	tools/scripts/fetch

fetch:
	tools/scripts/fetch

lock:
	tools/scripts/lock

$(B)/host/%.o: %.c $(wildcard lib/*.h lib/*/*.h lib/host/*/*.h lib/host/*/*/*.h tools/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(BB_CFLAGS) $(PQ_CFLAGS) -c -o $@ $<

$(B)/benchboot: $(TOOL_OBJS) $(HOST_LIB_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(HOST_LIBS)

$(EXT2FS_MUSL)/lib/libext2fs.a: $(SYSROOT)/.complete tools/scripts/build-libext2fs-musl
	tools/scripts/build-libext2fs-musl $(EXT2FS_MUSL)

$(B)/musl/%.o: %.c $(LIB_HDRS) $(wildcard init/*.h) $(EXT2FS_MUSL)/lib/libext2fs.a
	@mkdir -p $(@D)
	$(MUSL_CC) $(CFLAGS) $(INIT_DEBUG) $(BB_CFLAGS) $(INIT_PREFIX_MAP) -Iinit -I$(EXT2FS_MUSL)/include -c -o $@ $<

$(B)/init: $(INIT_OBJS) $(EXT2FS_MUSL)/lib/libext2fs.a
	$(MUSL_CC) -static $(CFLAGS) -o $@.debug $(INIT_OBJS) $(EXT2FS_MUSL)/lib/libext2fs.a $(EXT2FS_MUSL)/lib/libcom_err.a
	strip --strip-all -o $@.tmp $@.debug && mv $@.tmp $@

# lib/host/job/generated/stressng_opts.c (committed) is generated from the pinned stress-ng, the
# sysroot's binary: `make stressng-opts` after the lock's stress-ng changes;
# tests/host/stressng-opts-lock.sh checks that the committed file is what this makes.
STRESSNG_OPTS ?= lib/host/job/generated/stressng_opts.c
stressng-opts: tools/scripts/gen-stressng-opts | $(SYSROOT)/.complete
	tools/scripts/gen-stressng-opts >$(STRESSNG_OPTS).tmp && mv $(STRESSNG_OPTS).tmp $(STRESSNG_OPTS)

# lib/host/job/generated/lkpnames.c (committed) is generated from a git directory of
# intel/lkp-tests at the commit it names: `make lkp-keys LKP_GIT_DIR=DIR` (LKP_COMMIT=COMMIT
# for another one); tests/host/lkpnames-generated.sh checks that the committed file is what
# the generator makes.
LKPNAMES ?= lib/host/job/generated/lkpnames.c
LKP_COMMIT ?= $(shell sed -n 's/^const char bb_lkp_commit\[\] = "\(.*\)";$$/\1/p' lib/host/job/generated/lkpnames.c)
lkp-keys: tools/scripts/gen-lkp-keys
	@[ -n "$(LKP_GIT_DIR)" ] || { echo "make lkp-keys: set LKP_GIT_DIR to a git directory of intel/lkp-tests" >&2; exit 2; }
	tools/scripts/gen-lkp-keys $(LKP_GIT_DIR) $(LKP_COMMIT) >$(LKPNAMES).tmp && mv $(LKPNAMES).tmp $(LKPNAMES)

# lib/host/job/generated/lkpkpis.c (committed): LKP's KPIs and their directions, from the same
# git directory (`make lkp-kpis LKP_GIT_DIR=DIR`); tests/host/lkpkpis-generated.sh checks it.
LKPKPIS ?= lib/host/job/generated/lkpkpis.c
LKP_KPIS_COMMIT ?= $(shell sed -n 's/^const char bb_lkp_kpis_commit\[\] = "\(.*\)";$$/\1/p' lib/host/job/generated/lkpkpis.c)
lkp-kpis: tools/scripts/gen-lkp-kpis
	@[ -n "$(LKP_GIT_DIR)" ] || { echo "make lkp-kpis: set LKP_GIT_DIR to a git directory of intel/lkp-tests" >&2; exit 2; }
	tools/scripts/gen-lkp-kpis $(LKP_GIT_DIR) $(LKP_KPIS_COMMIT) >$(LKPKPIS).tmp && mv $(LKPKPIS).tmp $(LKPKPIS)

$(NETPERF)/netperf: $(SYSROOT)/.complete tools/scripts/build-netperf
	tools/scripts/build-netperf $(SYSROOT) $(NETPERF)
netperf: $(NETPERF)/netperf

# The libraries the tests link, made of the objects the verbs and the init are made of:
#   libbenchboot-host.a       lib/ and lib/host/, built for the host (the verbs' library)
#   libbenchboot-init-host.a  init/ but main.c, built for the host: the init's steps, run by
#                             the unit tests on fake trees
#   libbenchboot-musl.a       init/ but main.c, and lib/, built with musl as the init is
#                             (test inits that take the init's place in an image)
HOST_ARCHIVE := $(B)/libbenchboot-host.a
INIT_HOST_ARCHIVE := $(B)/libbenchboot-init-host.a
MUSL_ARCHIVE := $(B)/libbenchboot-musl.a
INIT_TEST_OBJS := $(filter-out $(B)/host/init/main.o,$(INIT_SRCS:%.c=$(B)/host/%.o))
$(INIT_TEST_OBJS): $(wildcard init/*.h)
$(HOST_ARCHIVE): $(HOST_LIB_OBJS)
$(INIT_HOST_ARCHIVE): $(INIT_TEST_OBJS)
$(MUSL_ARCHIVE): $(filter-out $(B)/musl/init/main.o,$(INIT_OBJS))
$(HOST_ARCHIVE) $(INIT_HOST_ARCHIVE) $(MUSL_ARCHIVE):
	@rm -f $@
	$(AR) rcs $@ $^
TEST_LINK := $(INIT_HOST_ARCHIVE) $(HOST_ARCHIVE) $(HOST_LIBS)

$(B)/tests/%: tests/unit/%.c tests/unit/harness.c tests/unit/harness.h tests/unit/init_fake_root.h tests/unit/test_rng.h $(INIT_HOST_ARCHIVE) $(HOST_ARCHIVE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(BB_CFLAGS) -Iinit -Itests/unit -o $@ $< tests/unit/harness.c $(TEST_LINK)

# The programs the shell tests run, built here rather than by the tests themselves:
#   results-writer       the init's results writer on the host (tests/host/results-*.sh)
#   results-writer-init  a static musl /init around it (tests/qemu/results-*.sh), and
#   results-writer-gen   the host generator of what it writes
#   plan-keys            the keys the plan parser knows (tests/host/docs-contracts.sh)
#   ext2fs-musl-probe    a static musl program writing with the musl libext2fs
#   fuzz-collect         a libFuzzer target of collect (clang; tests/host/results-fuzz.sh)
#   fuzz-job             a libFuzzer target of the job parser (clang; tests/host/job-fuzz.sh)
PROGS := $(B)/tests/progs
TEST_PROGS := $(PROGS)/results-writer $(PROGS)/results-writer-gen $(PROGS)/plan-keys
MUSL_TEST_PROGS := $(PROGS)/results-writer-init $(PROGS)/ext2fs-musl-probe
MUSL_LINK := $(EXT2FS_MUSL)/lib/libext2fs.a $(EXT2FS_MUSL)/lib/libcom_err.a
$(PROGS)/results-writer: tests/host/src/results_writer.c $(INIT_HOST_ARCHIVE) $(HOST_ARCHIVE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(BB_CFLAGS) -Iinit -o $@ $< $(TEST_LINK)
$(PROGS)/plan-keys: tests/host/src/plan_keys.c $(HOST_ARCHIVE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(BB_CFLAGS) -o $@ $< $(HOST_ARCHIVE) $(HOST_LIBS)
$(PROGS)/results-writer-gen: tests/qemu/results-writer-init.c $(LIB_HDRS) $(wildcard init/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(BB_CFLAGS) -Iinit -DGEN_ONLY -o $@ $<
$(PROGS)/results-writer-init: tests/qemu/results-writer-init.c $(MUSL_ARCHIVE) $(EXT2FS_MUSL)/lib/libext2fs.a
	@mkdir -p $(@D)
	$(MUSL_CC) -static $(CFLAGS) $(BB_CFLAGS) -Iinit -I$(EXT2FS_MUSL)/include -o $@.debug $< $(MUSL_ARCHIVE) $(MUSL_LINK)
	strip --strip-all -o $@ $@.debug
$(PROGS)/ext2fs-musl-probe: tests/host/src/ext2fs_musl_probe.c $(EXT2FS_MUSL)/lib/libext2fs.a
	@mkdir -p $(@D)
	$(MUSL_CC) -static $(CFLAGS) -I$(EXT2FS_MUSL)/include -o $@ $< $(MUSL_LINK)

# The fuzz target: lib/ and lib/host/ again, instrumented for libFuzzer and the sanitizers.
FUZZ_CC ?= clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined
FUZZ_OBJS := $(LIB_SRCS:%.c=$(B)/fuzz/%.o) $(HOSTLIB_SRCS:%.c=$(B)/fuzz/%.o)
$(B)/fuzz/%.o: %.c $(wildcard lib/*.h lib/*/*.h lib/host/*/*.h lib/host/*/*/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(BB_CFLAGS) $(PQ_CFLAGS) -c -o $@ $<
$(B)/fuzz/libbenchboot-host.a: $(FUZZ_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^
$(PROGS)/fuzz-%: tests/host/src/fuzz_%.c $(B)/fuzz/libbenchboot-host.a
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined $(BB_CFLAGS) -o $@ $< $(B)/fuzz/libbenchboot-host.a $(HOST_LIBS)

units: $(UNIT_BINS) $(TEST_PROGS)
test-progs: units $(MUSL_TEST_PROGS)

# check: no QEMU, no network beyond what the build already has.
check: all test-progs netperf
	tests/run --quick

# test: everything, from a fresh machine: packages, pinned inputs, builds, QEMU boots. The
# builds use every CPU (BUILD_JOBS= make test builds one file at a time).
BUILD_JOBS ?= -j$(shell nproc)
test: deps
	$(MAKE) fetch
	$(MAKE) $(BUILD_JOBS) all test-progs netperf
	tests/run

demo: deps-demo
	$(MAKE) fetch
	$(MAKE) $(BUILD_JOBS) all netperf
	tools/scripts/demo

# the host library's link line, for programs built outside this file (bench/bisect-cost.sh)
print-host-libs:
	@echo $(HOST_LIBS)

bench: all
	bench/run

# The house style (.clang-format), with the one clang-format it was written for: Debian's
# bookworm clang-format 14.0.6 (install-deps installs it); another version formats differently,
# so both targets refuse it. The generated sources keep their generators' bytes.
CLANG_FORMAT_VERSION := 14.0.6
FORMAT_FILES := $(filter-out lib/host/job/generated/%,$(LIB_SRCS) $(HOSTLIB_SRCS) $(TOOL_SRCS) $(INIT_SRCS)) \
	$(wildcard lib/*.h lib/*/*.h lib/host/*/*.h init/*.h tools/*.h tests/unit/*.[ch] tests/host/src/*.c tests/qemu/*.c bench/*.c)
format-version:
	@v=$$(clang-format --version 2>/dev/null | sed -n 's/.*clang-format version \([0-9.]*\).*/\1/p'); \
	[ "$$v" = "$(CLANG_FORMAT_VERSION)" ] || { echo "benchboot: clang-format $(CLANG_FORMAT_VERSION) is the house's formatter, this is '$${v:-none}' (tools/scripts/install-deps test installs it)" >&2; exit 1; }
format: format-version
	clang-format -i $(FORMAT_FILES)
# every file as clang-format writes it, or the files that differ and exit 1 (make check's
# tests/host/format.sh)
format-check: format-version
	@bad=$$(for f in $(FORMAT_FILES); do clang-format --dry-run -Werror $$f >/dev/null 2>&1 || echo $$f; done); \
	[ -z "$$bad" ] || { echo "benchboot: not formatted as .clang-format says (make format):" $$bad >&2; exit 1; }

clean:
	rm -rf $(B) images/*/
