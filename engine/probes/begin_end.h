// BEGIN, END and self:signal:SIGUSR1, as bpftrace runs them: a uprobe on an exported,
// never-inlined function in rawprobe's own executable (/proc/self/exe), filtered to rawprobe's
// own pid. The runtime calls trigger_begin() once every probe is attached, trigger_end() when
// the run ends and trigger_sigusr1() each time rawprobe receives SIGUSR1; the kernel runs the
// block's program on that call, in rawprobe's context, before the call returns, so BEGIN's
// output precedes every other event and END's follows every other.
#pragma once

namespace rawprobe::probes {

// The functions the BEGIN and END uprobes sit on. They do nothing; only being called counts.
extern "C" void rawprobe_trigger_begin();
extern "C" void rawprobe_trigger_end();
extern "C" void rawprobe_trigger_sigusr1();
// test:NAME and bench:NAME blocks: --test and --bench attach one block at a time and call its
// kind's trigger (engine/driver/test_bench_run.h).
extern "C" void rawprobe_trigger_test();
extern "C" void rawprobe_trigger_bench();

inline void trigger_begin() { rawprobe_trigger_begin(); }
inline void trigger_end() { rawprobe_trigger_end(); }
inline void trigger_sigusr1() { rawprobe_trigger_sigusr1(); }
inline void trigger_test() { rawprobe_trigger_test(); }
inline void trigger_bench() { rawprobe_trigger_bench(); }

}  // namespace rawprobe::probes
