# Fuzzing: every tests/fuzz/*_fuzz.cpp is a libFuzzer target. `make fuzz FUZZ_SECONDS=N` builds
# each with clang++ -fsanitize=fuzzer,address,undefined and runs each for N seconds
# (tests/fuzz/run-all), ending with "suite fuzz: P passed, F failed" as tests/run-suites reads.
#
# Generic on purpose: a new tests/fuzz/<prefix>_<name>_fuzz.cpp needs no change here. It links
# the library archives FUZZ_LIBS_<target> names, else those UNIT_LIBS_<prefix> names (as
# `make unit-<prefix>` does), else every archive; those archives are the project's sources compiled again by clang
# with coverage instrumentation into $(FUZZ_DIR). Optional per target:
#   FUZZ_SEEDS_<target>   directories of seed inputs (read, never written)
#   FUZZ_ARGS_<target>    extra libFuzzer flags (-max_len=...)
# A crash leaves its input in $(FUZZ_DIR)/crashes/<target>/ and fails the run; committed
# under tests/fuzz/regressions/<target>/, the unit suite replays it (fuzz_regressions_test).
FUZZ_DIR      ?= build-fuzz
export FUZZ_DIR  # tests/run-suites finds the targets there
FUZZ_CXX      ?= clang++
FUZZ_TIME     ?= 30
FUZZ_SECONDS  ?= $(FUZZ_TIME)
FUZZ_CXXFLAGS := -std=c++20 -O1 -g -fno-omit-frame-pointer -I. -MMD -MP
# UBSan beside ASan, not recovering, so an overflow or a bad shift is a crash with its input.
FUZZ_SAN      := address,undefined -fno-sanitize-recover=undefined
FUZZ_TARGETS  := $(patsubst tests/fuzz/%.cpp,%,$(wildcard tests/fuzz/*_fuzz.cpp))

fuzz_lib   = $(FUZZ_DIR)/lib/$(subst /,_,$(1)).a
fuzz_libs  = $(foreach d,$(or $(FUZZ_LIBS_$(1)),$(UNIT_LIBS_$(firstword $(subst _, ,$(1)))),$(LIB_DIRS)),$(if $(call lib_srcs,$(d)),$(call fuzz_lib,$(d))))

$(FUZZ_DIR)/obj/%.o: %.cpp
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -c $< -o $@

define FUZZ_LIB_RULE
$(call fuzz_lib,$(1)): $(patsubst %.cpp,$(FUZZ_DIR)/obj/%.o,$(call lib_srcs,$(1)))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach d,$(LIB_DIRS),$(if $(call lib_srcs,$(d)),$(eval $(call FUZZ_LIB_RULE,$(d)))))

define FUZZ_TARGET_RULE
$(FUZZ_DIR)/$(1): tests/fuzz/$(1).cpp $(call fuzz_libs,$(1))
	@mkdir -p $$(@D)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) $$< -o $$@ \
	  -Wl,--start-group $(call fuzz_libs,$(1)) -Wl,--end-group $(LDLIBS)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call FUZZ_TARGET_RULE,$(t))))

# What to run: one line per target, "NAME|LIBFUZZER FLAGS|SEED DIRECTORIES", for
# tests/fuzz/run-all (so tests/run-suites can run the fuzz suite without make).
$(FUZZ_DIR)/targets: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(foreach t,$(FUZZ_TARGETS),'$(t)|$(FUZZ_ARGS_$(t))|$(FUZZ_SEEDS_$(t))') >$@

fuzz-build: $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS)) $(FUZZ_DIR)/targets
# A fragment adds its seed-making prerequisites to fuzz-seeds.
fuzz-seeds:
# Targets run one after another (each is CPU-bound for FUZZ_SECONDS seconds).
fuzz: fuzz-build fuzz-seeds
	@tests/fuzz/run-all $(FUZZ_DIR) $(FUZZ_SECONDS)
# One target: make fuzz-run-lang_parser_fuzz FUZZ_SECONDS=600
fuzz-run-%: $(FUZZ_DIR)/% $(FUZZ_DIR)/targets fuzz-seeds
	@tests/fuzz/run-all $(FUZZ_DIR) $(FUZZ_SECONDS) $*

.PHONY: fuzz fuzz-build fuzz-seeds
-include $(shell find $(FUZZ_DIR)/obj -name '*.d' 2>/dev/null)
