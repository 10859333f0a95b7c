// --test and --bench (bpftrace 0.26.1): the test:NAME or bench:NAME blocks run one at a time,
// each attached alone to its kind's trigger in rawprobe (probes/begin_end.h) and detached
// after. A test runs once; it fails when it ends the run with a non-zero status (exit(1),
// a false assert()). Its output is kept aside and shown only when it failed. A bench block
// runs in batches that double until they have taken kBenchTime, its output dropped; the
// average is the program's own run time as the kernel counts it (BPF_ENABLE_STATS), or on
// a kernel without that (before 5.8) the wall time of one trigger, its uprobe trap included.
#pragma once
#include <chrono>
#include <vector>

#include "engine/base/result.h"
#include "engine/driver/prepare.h"
#include "engine/output/output.h"
#include "engine/probes/provider.h"
#include "engine/runtime/event_loop.h"

namespace rawprobe::driver {

inline constexpr std::chrono::milliseconds kBenchTime{200};

struct BlockRun {
  const std::vector<LoadedProgram>* programs = nullptr;
  const std::vector<std::vector<probes::AttachPoint>>* points = nullptr;
  probes::AttachOptions attach;
  runtime::LoopParts parts;  // events, dispatcher and out; signals end a bench early
  int out_fd = -1;           // where `out` writes: a test's output is caught by redirecting it
};

// True when every test passed.
Result<bool> run_test_blocks(const BlockRun& run);
Status run_bench_blocks(const BlockRun& run);

}  // namespace rawprobe::driver
