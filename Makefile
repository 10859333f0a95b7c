# rawprobe build. Plain GNU make, C++20, g++ 12.
#
# Every directory of sources is its own static archive (build/lib/<dir>.a), found by wildcard,
# so adding a .cpp file needs no Makefile change. Programs:
#   engine/main.cpp       -> build/rawprobe (and build/rawprobe-static)
#   bpfasm/tool/main.cpp  -> build/bpfasm
# Tests: tests/unit/*.cpp -> build/unit-tests, tests/kernel/*.cpp -> build/kernel-tests.
# Fragments in mk/*.mk add samples, fuzzing, benchmarks and the VM harness.

include mk/target/arch.mk
BUILD    ?= build
CXXSTD   := -std=c++20
# DEBUG_INFO= (empty) builds without debug info: what the VM guests run is stripped of it, and
# a cross build spends about a third of its compile time writing it.
DEBUG_INFO ?= -g
OPT      ?= -O2 $(DEBUG_INFO)
WARN     := -Wall -Wextra -Werror
SAN      ?=
CPPFLAGS += -I. -MMD -MP
# One section per function and object, so the static link's --gc-sections can drop what
# nothing calls (without them it can only drop whole object files).
CXXFLAGS += $(CXXSTD) $(OPT) $(WARN) $(SAN) -ffunction-sections -fdata-sections
LDFLAGS  += $(SAN)
LDLIBS   := -ldw -lelf -lcapstone -lz
# What a fully static link needs besides those (libelf's own compression dependencies).
STATIC_LDLIBS := -ldw -lelf -lcapstone -lz -lzstd -llzma -lbz2 -lpthread
ifdef CROSS
LDLIBS   := $(STATIC_LDLIBS)
endif
PREFIX   ?= /usr/local

.DEFAULT_GOAL := all

# --- libraries: one archive per source directory -------------------------------------------
LIB_DIRS := engine/base arch bpfasm elf $(filter-out engine/base,$(patsubst %/,%,$(sort $(dir $(wildcard engine/*/*.cpp)))))
lib_name  = $(BUILD)/lib/$(subst /,_,$(1)).a
lib_srcs  = $(wildcard $(1)/*.cpp)
LIBS     := $(foreach d,$(LIB_DIRS),$(if $(call lib_srcs,$(d)),$(call lib_name,$(d))))

define LIB_RULE
$(call lib_name,$(1)): $(patsubst %.cpp,$(BUILD)/obj/%.o,$(call lib_srcs,$(1)))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach d,$(LIB_DIRS),$(if $(call lib_srcs,$(d)),$(eval $(call LIB_RULE,$(d)))))

# Archives in one group, so their order does not matter.
LINK_LIBS = -Wl,--start-group $(LIBS) -Wl,--end-group

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c $< -o $@

# --- programs ------------------------------------------------------------------------------
RAWPROBE_MAIN := $(wildcard engine/main.cpp)
BPFASM_MAIN   := $(wildcard bpfasm/tool/main.cpp)
PROGRAMS := $(if $(RAWPROBE_MAIN),$(BUILD)/rawprobe) $(if $(BPFASM_MAIN),$(BUILD)/bpfasm)

$(BUILD)/rawprobe: $(BUILD)/obj/engine/main.o $(LIBS)
	$(CXX) $(LDFLAGS) -o $@ $< $(LINK_LIBS) $(LDLIBS)

$(BUILD)/bpfasm: $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard bpfasm/tool/*.cpp)) $(LIBS)
	$(CXX) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LINK_LIBS) $(LDLIBS)

# STATIC_LDFLAGS (mk/capstone.mk) puts the Capstone built with only the architectures this
# binary inspects first on the search path; --gc-sections drops what nothing calls.
$(BUILD)/rawprobe-static: $(BUILD)/obj/engine/main.o $(LIBS)
	$(CXX) -static $(STATIC_LDFLAGS) $(LDFLAGS) -Wl,--gc-sections -Wl,-Map=$@.map -o $@ $< $(LINK_LIBS) $(STATIC_LDLIBS)

all: $(PROGRAMS)
static: $(BUILD)/rawprobe-static
	@file $<

# Footprint of the static binary as shipped (stripped) and as built (with debug info).
# Where the bytes go: every input's share of the stripped binary's loaded sections, from the
# link map (tests/size-report).
$(BUILD)/rawprobe-static.stripped: $(BUILD)/rawprobe-static
	$(STRIP) -o $@ $<
size: $(BUILD)/rawprobe-static $(BUILD)/rawprobe-static.stripped
	@printf '%-34s %10s bytes\n' "rawprobe-static $(ARCH) (unstripped)" $$(stat -c %s $(BUILD)/rawprobe-static)
	@printf '%-34s %10s bytes\n' "rawprobe-static $(ARCH) (stripped)" $$(stat -c %s $(BUILD)/rawprobe-static.stripped)
	@printf '%-34s %10s\n' "Capstone" "$(CAPSTONE) ($(if $(filter min,$(CAPSTONE)),$(CAPSTONE_ARCHS_$(ARCH)),every architecture))"
	@tests/size-report $(BUILD)/rawprobe-static.map

# --- tests ---------------------------------------------------------------------------------
UNIT_OBJS   := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard tests/unit/*.cpp))
KERNEL_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard tests/kernel/*.cpp))

$(BUILD)/unit-tests: $(UNIT_OBJS) $(LIBS)
	$(CXX) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(LINK_LIBS) $(LDLIBS)
$(BUILD)/kernel-tests: $(KERNEL_OBJS) $(LIBS)
	$(CXX) $(LDFLAGS) -o $@ $(KERNEL_OBJS) $(LINK_LIBS) $(LDLIBS)

# A narrower unit binary for working on one module while others are half-written:
#   make unit-bpfasm   -> tests/unit/main.cpp + tests/unit/bpfasm_*.cpp, linked against the
#                         archives named by UNIT_LIBS_bpfasm (default: every archive).
UNIT_LIBS_arch   := arch engine/base
UNIT_LIBS_bpfasm := bpfasm engine/base
UNIT_LIBS_elf    := elf arch engine/base
UNIT_LIBS_sys    := engine/sys bpfasm arch engine/base
# lang reads the probe-type registry (engine/probes), whose providers parse the specs, and
# symbols (kaddr, uaddr); its tests compare the text the driver renders diagnostics into.
UNIT_LIBS_lang   := engine/lang engine/driver engine/dwarf engine/probes engine/symbols engine/btf engine/ctypes engine/output engine/sys elf arch bpfasm engine/base
UNIT_LIBS_output := engine/output engine/ctypes arch engine/base
UNIT_LIBS_ctypes := engine/ctypes arch engine/base
UNIT_LIBS_probes := engine/probes engine/lang engine/dwarf engine/symbols engine/btf engine/ctypes engine/output engine/sys elf arch bpfasm engine/base
UNIT_LIBS_btf    := engine/btf engine/ctypes engine/sys bpfasm arch engine/base
unit-%: $(BUILD)/obj/tests/unit/main.o
	@$(MAKE) --no-print-directory $(BUILD)/unit-$*
	$(BUILD)/unit-$*
$(BUILD)/unit-%: $(BUILD)/obj/tests/unit/main.o FORCE
	@$(MAKE) --no-print-directory $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard tests/unit/$*_*.cpp)) \
	  $(foreach d,$(or $(UNIT_LIBS_$*),$(LIB_DIRS)),$(if $(call lib_srcs,$(d)),$(call lib_name,$(d))))
	$(CXX) $(LDFLAGS) -o $@ $< $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard tests/unit/$*_*.cpp)) \
	  -Wl,--start-group $(foreach d,$(or $(UNIT_LIBS_$*),$(LIB_DIRS)),$(if $(call lib_srcs,$(d)),$(call lib_name,$(d)))) -Wl,--end-group $(LDLIBS)
FORCE:

# Suites that `make test` runs; mk/vm.mk adds "vm" when qemu is present.
TEST_SUITES := unit kernel
# Suites that run in the background beside the others (tests/run-suites --beside).
TEST_SUITES_BESIDE :=
TEST_FETCH :=
TEST_BUILDS := all $(BUILD)/unit-tests $(BUILD)/kernel-tests

-include $(wildcard mk/*.mk)

# Packages first (alone, so -j never compiles before the headers exist), then what the suites
# download (TEST_FETCH: VM kernels; one at a time, as apt wants), then build, then run.
test: deps test-deps
	$(MAKE) --no-print-directory -j1 test-fetch
	$(MAKE) --no-print-directory test-builds
	$(MAKE) --no-print-directory test-run
test-fetch: $(TEST_FETCH)
test-builds: $(TEST_BUILDS)
asan-builds: $(filter-out %-static %-static.stripped,$(TEST_BUILDS))
# A separate make, so fragments that look for tools (mk/vm.mk: qemu) see what deps installed.
test-run:
	BUILD=$(BUILD) CAPSTONE=$(CAPSTONE) SIZE_LIMIT=$(SIZE_LIMIT) tests/run-suites $(TEST_SUITES) \
	  $(if $(strip $(TEST_SUITES_BESIDE)),--beside $(TEST_SUITES_BESIDE))

# `make asan`: the unit and kernel suites under AddressSanitizer and UndefinedBehaviorSanitizer,
# built in their own directory (never mixed with build/'s objects). What is built is what
# `make test` builds, less the -static links (ASan has no static runtime). Any finding fails
# the run: UBSan does not recover (-fno-sanitize-recover=all), ASan halts, and every report,
# also those of the rawprobe processes the kernel tests spawn (whose stderr a test may only
# compare), goes to $(ASAN_BUILD)/sanitizer-reports/, which tests/run-suites counts as failures.
# g++ 12 reports false "may be used uninitialized" inside <regex> and <functional> at -O1
# with sanitizers, so that one warning is not an error there.
ASAN_BUILD := build-asan
ASAN_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
              -Wno-maybe-uninitialized
asan: deps test-deps
	$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) SAN="$(ASAN_SAN)" OPT="-O1 -g" asan-builds
	rm -rf $(ASAN_BUILD)/sanitizer-reports && mkdir -p $(ASAN_BUILD)/sanitizer-reports
	BUILD=$(ASAN_BUILD) SANITIZER_REPORTS=$(ASAN_BUILD)/sanitizer-reports \
	ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:log_path=$(CURDIR)/$(ASAN_BUILD)/sanitizer-reports/asan \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$(CURDIR)/$(ASAN_BUILD)/sanitizer-reports/ubsan \
	  tests/run-suites unit kernel

# --- dependencies --------------------------------------------------------------------------
# Build and runtime libraries (libelf and libdw, Capstone, zlib) and doctest.
deps:
	@tests/install-packages build
ifdef CROSS
	@tests/install-packages cross $(ARCH) $(SYSROOT)
endif
# Oracles and tools used only by tests (never runtime dependencies).
test-deps:
	@tests/install-packages test

# The static binary is the one installed: the dynamic build's shared C and C++ runtimes
# double its resident memory (README, "Size, speed and memory").
install: $(BUILD)/rawprobe-static.stripped $(if $(BPFASM_MAIN),$(BUILD)/bpfasm)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/rawprobe-static.stripped $(DESTDIR)$(PREFIX)/bin/rawprobe
	$(if $(BPFASM_MAIN),install -m 755 $(BUILD)/bpfasm $(DESTDIR)$(PREFIX)/bin/)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz

.PHONY: all static size test test-fetch test-builds test-run asan asan-builds deps test-deps install clean FORCE

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
