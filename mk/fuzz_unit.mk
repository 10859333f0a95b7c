# The unit suite built from the fuzz build's objects: `make $(FUZZ_DIR)/unit-tests`.
# The fuzz targets already compile every library with clang under ASan and UBSan (mk/fuzz.mk);
# their coverage instrumentation (fuzzer-no-link) only calls hooks that the sanitizer runtime
# defines as no-ops when libFuzzer is not linked. So the unit suite linked against those same
# archives runs under both sanitizers without compiling the engine a third time, which is what
# CI's asan-unit suite runs (mk/ci_suites.mk). `make asan` keeps its own g++ build.
FUZZ_UNIT_OBJS := $(patsubst %.cpp,$(FUZZ_DIR)/obj/%.o,$(wildcard tests/unit/*.cpp)) \
                  $(patsubst tests/fuzz/%.cpp,$(FUZZ_DIR)/obj/fuzz-replay/%.o,$(wildcard tests/fuzz/*_fuzz.cpp))
FUZZ_ALL_LIBS  := $(foreach d,$(LIB_DIRS),$(if $(call lib_srcs,$(d)),$(call fuzz_lib,$(d))))

# The replay entry points, as mk/fuzz_replay.mk makes them for the plain build.
$(FUZZ_DIR)/obj/fuzz-replay/%.o: tests/fuzz/%.cpp tests/fuzz/replay_entry.h tests/fuzz/replay.h
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -DLLVMFuzzerTestOneInput=rawprobe_replay_$* \
	  -DFUZZ_TARGET_NAME='"$*"' -include tests/fuzz/replay_entry.h -c $< -o $@

$(FUZZ_DIR)/unit-tests: $(FUZZ_UNIT_OBJS) $(FUZZ_ALL_LIBS)
	$(FUZZ_CXX) -fsanitize=$(FUZZ_SAN) -o $@ $(FUZZ_UNIT_OBJS) -Wl,--start-group $(FUZZ_ALL_LIBS) -Wl,--end-group $(LDLIBS)
fuzz-unit-tests: $(FUZZ_DIR)/unit-tests
.PHONY: fuzz-unit-tests

# `make asan-kernel-builds`: what CI's asan-kernel suite runs (mk/ci_suites.mk), in
# $(FUZZ_DIR)/kernel/: rawprobe and bpfasm linked from the fuzz build's archives (clang,
# ASan+UBSan: only their main files are compiled for them), beside a copy of the plain
# kernel-tests, which runs the programs beside it (tests/kernel/cli_run.h; a copy, since
# /proc/self/exe names a symlink's target; the README's commands find them on PATH). The
# cases' in-process checks stay unsanitized; what they test, every rawprobe and bpfasm process
# they spawn, is sanitized. The plain build's samples are what is traced.
$(FUZZ_DIR)/kernel/rawprobe: $(FUZZ_DIR)/obj/engine/main.o $(FUZZ_ALL_LIBS)
	@mkdir -p $(@D)
	$(FUZZ_CXX) -fsanitize=$(FUZZ_SAN) -o $@ $< -Wl,--start-group $(FUZZ_ALL_LIBS) -Wl,--end-group $(LDLIBS)
$(FUZZ_DIR)/kernel/bpfasm: $(patsubst %.cpp,$(FUZZ_DIR)/obj/%.o,$(wildcard bpfasm/tool/*.cpp)) $(FUZZ_ALL_LIBS)
	@mkdir -p $(@D)
	$(FUZZ_CXX) -fsanitize=$(FUZZ_SAN) -o $@ $(filter %.o,$^) -Wl,--start-group $(FUZZ_ALL_LIBS) -Wl,--end-group $(LDLIBS)
asan-kernel-builds: $(FUZZ_DIR)/kernel/rawprobe $(FUZZ_DIR)/kernel/bpfasm $(BUILD)/kernel-tests samples
	cp $(BUILD)/kernel-tests $(FUZZ_DIR)/kernel/kernel-tests
	ln -sfn $(CURDIR)/$(BUILD)/samples $(FUZZ_DIR)/kernel/samples

.PHONY: asan-kernel-builds
