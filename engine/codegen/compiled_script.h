// The contract between code generation and the runtime: what compile() produces and how the
// programs talk to user space while they run.
//
//   lang::CheckedProgram + the AttachPoints of every block
//        │  codegen::compile()
//        ▼
//   CompiledScript { maps to create, programs to load (each names the points it serves) }
//        │  runtime: create maps (MapHandle{i} = maps[i]), finish + load every program,
//        │           attach program p to the points p.points of block p.block
//        ▼
//   async events on the events map, read by the runtime's ring/perf buffer reader
//
// Async events (bpftrace's model): a program cannot print, so it writes a record whose first
// u64 is an event id into the events map, and the runtime acts on it:
//   id < kAsyncBase          printf number `id` (ProgramInfo::printfs[id]); the arguments
//                            follow at offset 8, laid out by PrintfInfo::args
//   kAsyncExit               exit(): stop the run (END, maps, detach)
//   kAsyncPrintMap           print(@m[, top[, div]]): { u64 id; u64 map; u64 top; u64 div }
//   kAsyncClearMap           clear(@m): { u64 id; u64 map }   (user space deletes every key)
//   kAsyncZeroMap            zero(@m):  { u64 id; u64 map }   (user space zeroes every value)
//   kAsyncTime               time("fmt"): { u64 id; u64 format } (ProgramInfo::time_formats)
//   kAsyncPrintValue         print(expr): { u64 id; u64 value_id; bytes... } (print_values)
// `map` above is the index into ProgramInfo::maps (user maps), never a kernel fd.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "bpfasm/builder.h"
#include "engine/base/types.h"
#include "engine/probes/provider.h"

namespace rawprobe::codegen {

inline constexpr uint64_t kAsyncBase = 1u << 30;
inline constexpr uint64_t kAsyncExit = kAsyncBase + 0;
inline constexpr uint64_t kAsyncPrintMap = kAsyncBase + 1;
inline constexpr uint64_t kAsyncClearMap = kAsyncBase + 2;
inline constexpr uint64_t kAsyncZeroMap = kAsyncBase + 3;
inline constexpr uint64_t kAsyncTime = kAsyncBase + 4;
inline constexpr uint64_t kAsyncPrintValue = kAsyncBase + 5;

// A kernel map to create before loading. Its index in CompiledScript::maps is the
// bpf::MapHandle id the programs use.
struct MapDef {
  std::string name;          // "@start", or internal maps: ".events", ".scratch", ...
  uint32_t type = 0;         // BPF_MAP_TYPE_*
  uint32_t key_size = 0;
  uint32_t value_size = 0;   // per-CPU maps: one CPU's value
  uint32_t max_entries = 0;
  uint32_t flags = 0;
  int user_map = -1;         // index into ProgramInfo::maps; -1 for internal maps
};

// One BPF program: a probe block, or the part of a block of one program type.
struct CompiledProgram {
  size_t block = 0;                 // index into lang::Program::probes
  // Which of the block's attach points (indices into the vector compile() was given for
  // this block) this program serves. With cookies, point points[i] gets cookie i.
  std::vector<size_t> points;
  probes::LoadPlan plan;            // program type, expected_attach_type, cookies
  bpf::Builder code;                // finish(map_fds) gives the instructions
  std::string name;                 // kernel program name (first 15 bytes kept)
  std::string description;          // for errors: "uprobe:/tmp/fun:foo (script.bt:1)"
};

// A value printed by print(expr): its type, for output.
struct PrintValue {
  Type type;
};

struct CompiledScript {
  std::vector<MapDef> maps;
  std::vector<CompiledProgram> programs;
  int events_map = -1;              // index into maps: the ring buffer or perf event array
  bool events_use_ringbuf = true;   // false: BPF_MAP_TYPE_PERF_EVENT_ARRAY, one buffer per CPU
  std::vector<PrintValue> print_values;
};

struct CompileOptions {
  bool ringbuf = true;        // the kernel has BPF_MAP_TYPE_RINGBUF (5.8)
  bool probe_read_user = true;  // bpf_probe_read_user/_kernel exist (5.5)
  uint32_t ringbuf_bytes = 1u << 20;  // power of two, page multiple
  uint32_t map_max_entries = 4096;    // bpftrace's default for keyed maps
  uint32_t ncpus = 1;                 // possible CPUs (per-CPU value size, perf array size)
  std::string source_name;            // for annotations: "script.bt" or "-e"
};

}  // namespace rawprobe::codegen
