# Fuzzing (issue 3): every tests/fuzz/*_fuzz.cpp is a libFuzzer target. `make fuzz` builds each
# with clang++ -fsanitize=fuzzer,address and runs it for FUZZ_TIME seconds.
#
# Generic on purpose: a new tests/fuzz/<prefix>_<name>_fuzz.cpp needs no change here. It links
# the library archives UNIT_LIBS_<prefix> names (as `make unit-<prefix>` does), or every
# archive when that is unset; those archives are the project's sources compiled again by clang
# with coverage instrumentation into $(FUZZ_DIR). Optional per target:
#   FUZZ_SEEDS_<target>   directories of seed inputs (read, never written)
#   FUZZ_ARGS_<target>    extra libFuzzer flags (-max_len=...)
# A crash leaves its input in $(FUZZ_DIR)/crashes/<target>/ and fails the run.
FUZZ_DIR      ?= build-fuzz
FUZZ_CXX      ?= clang++
FUZZ_TIME     ?= 30
FUZZ_CXXFLAGS := -std=c++20 -O1 -g -fno-omit-frame-pointer -I. -MMD -MP
FUZZ_TARGETS  := $(patsubst tests/fuzz/%.cpp,%,$(wildcard tests/fuzz/*_fuzz.cpp))

fuzz_lib   = $(FUZZ_DIR)/lib/$(subst /,_,$(1)).a
fuzz_libs  = $(foreach d,$(or $(UNIT_LIBS_$(firstword $(subst _, ,$(1)))),$(LIB_DIRS)),$(if $(call lib_srcs,$(d)),$(call fuzz_lib,$(d))))

$(FUZZ_DIR)/obj/%.o: %.cpp
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer-no-link,address -c $< -o $@

define FUZZ_LIB_RULE
$(call fuzz_lib,$(1)): $(patsubst %.cpp,$(FUZZ_DIR)/obj/%.o,$(call lib_srcs,$(1)))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach d,$(LIB_DIRS),$(if $(call lib_srcs,$(d)),$(eval $(call FUZZ_LIB_RULE,$(d)))))

define FUZZ_TARGET_RULE
$(FUZZ_DIR)/$(1): tests/fuzz/$(1).cpp $(call fuzz_libs,$(1))
	@mkdir -p $$(@D)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer,address $$< -o $$@ \
	  -Wl,--start-group $(call fuzz_libs,$(1)) -Wl,--end-group $(LDLIBS)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call FUZZ_TARGET_RULE,$(t))))

# One run per target; a fragment adds seed-making prerequisites to fuzz-seeds.
define FUZZ_RUN_RULE
fuzz-run-$(1): $(FUZZ_DIR)/$(1) fuzz-seeds
	@mkdir -p $(FUZZ_DIR)/corpus/$(1) $(FUZZ_DIR)/crashes/$(1)
	@echo "=== fuzz $(1) for $(FUZZ_TIME)s (log: $(FUZZ_DIR)/$(1).log)"
	@$(FUZZ_DIR)/$(1) -max_total_time=$(FUZZ_TIME) -rss_limit_mb=2048 -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_DIR)/crashes/$(1)/ $$(FUZZ_ARGS_$(1)) \
	  $(FUZZ_DIR)/corpus/$(1) $$(FUZZ_SEEDS_$(1)) >$(FUZZ_DIR)/$(1).log 2>&1; \
	  rc=$$$$?; grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)' \
	  $(FUZZ_DIR)/$(1).log; exit $$$$rc
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call FUZZ_RUN_RULE,$(t))))

fuzz-build: $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS))
fuzz-seeds:
# Targets run one after another (each is CPU-bound for FUZZ_TIME seconds).
fuzz: fuzz-build fuzz-seeds
	@for t in $(FUZZ_TARGETS); do $(MAKE) --no-print-directory fuzz-run-$$t || exit 1; done

.PHONY: fuzz fuzz-build fuzz-seeds $(addprefix fuzz-run-,$(FUZZ_TARGETS))
-include $(shell find $(FUZZ_DIR)/obj -name '*.d' 2>/dev/null)
