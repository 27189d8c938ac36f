# SPDX-License-Identifier: GPL-2.0
# lockhog: finds expensive work done while a lock is held.
#
#   make scan    build, then scan mm/ of Debian's linux-source-6.1
#   make scan-612  the same on linux-source-6.12
#   make check   build, then run the tests (the quick tier: under an hour)
#   make check-full  every test: adds the series built and compared, the
#                QEMU boots, all of csmith's seeds and mm/'s units
#   make bench   plugin overhead on a kbuild of mm/, the runtime's probes
#   make bench-rt  the userspace runtime's probes under callgrind alone
#   make e2e     the mm series measured under QEMU with the kernel runtime
#   make bench-kernel  the plugin on a whole kernel build
#
# See README.md.

CC       ?= gcc
CXX      ?= g++
CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare
PLUGINDIR := $(shell $(CC) -print-file-name=plugin)
PYTHON   := /usr/bin/python3

BUILD    := build
CORE_SRC := $(wildcard core/*.c)
CORE_OBJ := $(patsubst core/%.c,$(BUILD)/core/%.o,$(CORE_SRC))
CORE_LIB := $(BUILD)/libhog.a
PLUGIN_SRC := $(wildcard plugin/*.c)
PLUGIN_OBJ := $(patsubst plugin/%.c,$(BUILD)/plugin/%.o,$(PLUGIN_SRC))
PLUGIN   := $(BUILD)/lockhog.so
CMD_SRC  := $(wildcard cmd/*.c)
CMD_OBJ  := $(patsubst cmd/%.c,$(BUILD)/cmd/%.o,$(CMD_SRC))
LOCKHOG  := $(BUILD)/lockhog
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
LIBS     := -ljansson -lelf -lm
# the userspace runtime (rt/README.md): built without the plugin, never
# instrumented; the .a for executables (local-exec TLS), the .so with
# initial-exec TLS so that a probe's thread-local access stays one move
RT_SRC   := $(wildcard rt/*.c)
RT_A     := $(BUILD)/liblockhog-rt.a
RT_SO    := $(BUILD)/liblockhog-rt.so
RT_CFLAGS := -O2 -g $(WARN) -std=gnu11 -fvisibility=hidden -fno-stack-protector
# the libclang frontend, run by kbuild as CHECK= (clang/, issue 12)
LLVM_CONFIG ?= $(firstword $(wildcard /usr/bin/llvm-config-19 /usr/lib/llvm-19/bin/llvm-config))
CLANG_INC := $(if $(LLVM_CONFIG),$(shell $(LLVM_CONFIG) --includedir),/usr/lib/llvm-19/include)
CLANG_LIB := $(if $(LLVM_CONFIG),$(shell $(LLVM_CONFIG) --libdir),/usr/lib/llvm-19/lib)
CHECK_SRC := $(wildcard clang/*.c)
CHECK_OBJ := $(patsubst clang/%.c,$(BUILD)/clang/%.o,$(CHECK_SRC))
LOCKHOG_CHECK := $(BUILD)/lockhog-check

# Kernel tree used by scan, check and bench (extracted from linux-source-6.1).
KDIR     ?= $(CURDIR)/$(BUILD)/linux-6.1
# the same source built by clang 19 (LLVM=-19), for lockhog-check's mm/ test
KDIR_LLVM ?= $(CURDIR)/$(BUILD)/linux-6.1-llvm
# the 6.12 LTS (Debian's linux-source-6.12), for tests/integration/scan_mm_612.sh
KDIR_612 ?= $(CURDIR)/$(BUILD)/linux-6.12

.PHONY: all clean deps scan scan-612 check check-full bench bench-kernel unit kernel-tree kernel-tree-llvm kernel-tree-612 kernel kernel-patches cocci e2e
all: $(PLUGIN) $(LOCKHOG) $(LOCKHOG_CHECK) $(RT_A) $(RT_SO)

deps:
	@scripts/deps.sh

$(BUILD)/core/%.o: core/%.c $(wildcard core/*.h) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden -std=gnu11 -c $< -o $@

$(CORE_LIB): $(CORE_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/plugin/%.o: plugin/%.c $(wildcard plugin/*.h) $(wildcard core/*.h) | deps
	@mkdir -p $(dir $@)
	$(CXX) $(CFLAGS) -fPIC -fno-rtti -fno-exceptions -std=gnu++17 -Wall \
		-Wno-unused-parameter -Wno-format-diag \
		-I$(PLUGINDIR)/include -x c++ -c $< -o $@

# Linked aside and renamed: a build running the plugin never loads half a file.
$(PLUGIN): $(PLUGIN_OBJ) $(CORE_LIB)
	$(CXX) -shared -o $@.tmp $(PLUGIN_OBJ) $(CORE_LIB) -ljansson
	mv -f $@.tmp $@

$(BUILD)/cmd/%.o: cmd/%.c $(wildcard cmd/*.h) $(wildcard core/*.h) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -std=gnu11 -c $< -o $@

$(LOCKHOG): $(CMD_OBJ) $(CORE_LIB)
	$(CC) -o $@.tmp $(CMD_OBJ) $(CORE_LIB) $(LIBS)
	mv -f $@.tmp $@

$(BUILD)/clang/%.o: clang/%.c $(wildcard clang/*.h) $(wildcard core/*.h) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -std=gnu11 -I$(CLANG_INC) -c $< -o $@

$(LOCKHOG_CHECK): $(CHECK_OBJ) $(CORE_LIB)
	$(CC) -o $@.tmp $(CHECK_OBJ) $(CORE_LIB) -L$(CLANG_LIB) -Wl,-rpath,$(CLANG_LIB) -lclang -ljansson -lpthread
	mv -f $@.tmp $@

$(BUILD)/tests/%: tests/unit/%.c tests/unit/hogtest.h $(CORE_LIB) $(wildcard core/*.h) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Wall -std=gnu11 -Icore -o $@ $< $(CORE_LIB) -lcmocka $(LIBS)

unit: $(UNIT_BIN)

$(BUILD)/rt/a/%.o: rt/%.c $(wildcard rt/*.h) | deps
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -fPIE '-DRT_TLS_MODEL="local-exec"' -c $< -o $@

$(BUILD)/rt/so/%.o: rt/%.c $(wildcard rt/*.h) | deps
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -fPIC -c $< -o $@

$(RT_A): $(patsubst rt/%.c,$(BUILD)/rt/a/%.o,$(RT_SRC))
	rm -f $@
	ar rcs $@ $^

$(RT_SO): $(patsubst rt/%.c,$(BUILD)/rt/so/%.o,$(RT_SRC))
	$(CC) -shared -Wl,-soname,liblockhog-rt.so -o $@ $^ -ljansson -lpthread

kernel-tree: deps
	@scripts/kernel-tree.sh $(KDIR)

kernel-tree-llvm: kernel-tree
	@scripts/kernel-tree-llvm.sh $(KDIR_LLVM) $(KDIR)

kernel-tree-612: deps
	@scripts/kernel-tree.sh $(KDIR_612) 6.12

scan: deps all kernel-tree
	$(LOCKHOG) scan --kernel $(KDIR) mm/

scan-612: deps all kernel-tree-612
	$(LOCKHOG) scan --kernel $(KDIR_612) mm/

check: deps all unit kernel-tree kernel-tree-llvm kernel-tree-612
	@KDIR=$(KDIR) KDIR_LLVM=$(KDIR_LLVM) KDIR_612=$(KDIR_612) tests/run.sh

check-full: export LOCKHOG_CHECK_FULL := 1
check-full: check

bench: deps all kernel-tree
	@KDIR=$(KDIR) scripts/bench.sh

# the userspace runtime's probes under callgrind alone (part of bench)
.PHONY: bench-rt
bench-rt: deps all
	@scripts/bench-rt.sh

# the plugin on a whole kernel build, with and without it (about 40 min)
bench-kernel: deps all
	@scripts/bench-kernel.sh

# the series measured under QEMU: kernels with the runtime, before and after
e2e: deps all
	@scripts/e2e.sh

# Coccinelle rules: regenerate their lists from rules/
cocci: all
	@cocci/gen.sh

# the linux-6.1 mm series: regenerate what is generated, check the rest
kernel-patches: deps all
	@scripts/kernel-patches.sh

# apply the series to a pristine tree, build it, compare with pristine
kernel: deps all
	@scripts/kernel-build.sh

clean:
	rm -rf $(BUILD)/core $(BUILD)/plugin $(BUILD)/cmd $(BUILD)/tests $(BUILD)/clang \
		$(BUILD)/rt $(CORE_LIB) $(PLUGIN) $(LOCKHOG) $(LOCKHOG_CHECK) $(RT_A) $(RT_SO)

# AFL++ on the rules parser and the section reader, then csmith programs
# built with and without the plugin (tests/fuzz/run.sh, tests/cli/csmith.sh)
FUZZ_SECONDS ?= 300
CSMITH_SEEDS ?= 10000
AFL_CC   ?= afl-clang-fast
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	    -fno-sanitize=nonnull-attribute
FUZZ_DEP := tests/fuzz/fuzz.h $(CORE_SRC) $(wildcard core/*.h)

$(BUILD)/fuzz/afl/%: tests/fuzz/%.c $(FUZZ_DEP) | deps
	@mkdir -p $(dir $@)
	AFL_QUIET=1 $(AFL_CC) -O2 -g -std=gnu11 -Icore -o $@ $< $(CORE_SRC) -ljansson -lm

$(BUILD)/fuzz/san/%: tests/fuzz/%.c $(FUZZ_DEP)
	@mkdir -p $(dir $@)
	$(CC) -O1 -g $(FUZZ_SAN) -std=gnu11 -Icore -o $@ $< $(CORE_SRC) -ljansson -lm

.PHONY: fuzz
fuzz: deps all $(addprefix $(BUILD)/fuzz/,afl/fuzz_rules afl/fuzz_ir san/fuzz_rules san/fuzz_ir)
	FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(BUILD)/fuzz/afl $(BUILD)/fuzz/san
	CSMITH_SEEDS=$(CSMITH_SEEDS) bash tests/cli/csmith.sh

# regenerate the fixtures' golden IR after a deliberate change of the
# lowering (tests/golden/, docs/ir.md)
.PHONY: golden
golden: all
	@tests/golden/update.sh
