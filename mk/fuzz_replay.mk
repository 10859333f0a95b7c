# The fuzz targets inside the unit suite: each tests/fuzz/<name>_fuzz.cpp compiled by the
# build's compiler, its LLVMFuzzerTestOneInput renamed and registered (tests/fuzz/replay.h),
# so tests/unit/fuzz_regressions_test.cpp replays tests/fuzz/regressions/<name>/* on every
# `make test`, without clang or libFuzzer.
FUZZ_REPLAY_OBJS := $(patsubst tests/fuzz/%.cpp,$(BUILD)/obj/fuzz-replay/%.o,$(wildcard tests/fuzz/*_fuzz.cpp))
UNIT_OBJS += $(FUZZ_REPLAY_OBJS)
$(BUILD)/unit-tests: $(FUZZ_REPLAY_OBJS)

$(BUILD)/obj/fuzz-replay/%.o: tests/fuzz/%.cpp tests/fuzz/replay_entry.h tests/fuzz/replay.h
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -DLLVMFuzzerTestOneInput=rawprobe_replay_$* -DFUZZ_TARGET_NAME='"$*"' \
	  -include tests/fuzz/replay_entry.h -c $< -o $@
