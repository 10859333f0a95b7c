// Force-included (-include) into a fuzz target compiled for the unit suite, with
// LLVMFuzzerTestOneInput renamed per target and FUZZ_TARGET_NAME its name (mk/fuzz_replay.mk):
// registers the target's entry point for fuzz_regressions_test.
#pragma once
#include "tests/fuzz/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
static const rawprobe::fuzz::ReplayEntry fuzz_replay_entry_(FUZZ_TARGET_NAME, &LLVMFuzzerTestOneInput);
