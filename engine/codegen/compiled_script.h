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
//   kAsyncExit               exit([code]): stop the run (END, maps, detach), code the status
//   kAsyncPrintMap           print(@m[, top[, div]]): { u64 id; u64 map; u64 top; u64 div }
//   kAsyncClearMap           clear(@m): { u64 id; u64 map }   (user space deletes every key)
//   kAsyncZeroMap            zero(@m):  { u64 id; u64 map }   (user space zeroes every value)
//   kAsyncTime               time("fmt"): { u64 id; u64 format } (ProgramInfo::time_formats)
//   kAsyncPrintValue         print(expr): { u64 id; u64 value_id; bytes... } (print_values)
//   kAsyncNewPid             { u64 id; u64 pid }: the first user address of process `pid`
//   kAsyncWatchpointAttach   { u64 id; u64 watch_id; u64 address; u64 stopped }:
//                            watchpoint:FUNC+argN's FUNC was entered with argN = address;
//                            stopped: the tracee waits for SIGCONT (0: asyncwatchpoint)
//                            was taken (ustack, usym): user space reads its mappings now,
//                            while it lives. `.pids` (pids_map), an LRU hash of the pids
//                            announced, keeps this to once per process.
//   kAsyncHelperError        -k/-kk: { u64 id; u64 site; s64 ret }: the helper call
//                            CompiledScript::helper_errors[site] failed with ret
// `map` above is the index into ProgramInfo::maps (user maps), never a kernel fd.
// Every field is a u64 in native byte order; records are C structs (engine/base/layout.h).
//
// Values that are indices rather than data:
//   Probe (the `probe` builtin)   u64 point id: index into CompiledScript::point_names,
//   Func (the `func` builtin)     printed as the point's .probe or .func text. A program that
//                                 serves one point knows it statically; one that serves several
//                                 (a multi link, perf links with cookies) adds the cookie.
//                                 Without cookies every point gets its own program, so the id
//                                 is always exact (bpftrace 0.17 symbolizes the ip instead).
//   USym (usym())                 { u64 ip; u64 pid }, as bpftrace writes it
//   KSym (ksym())                 u64 ip
//   KStack (kstack)               s64 stack id in the StackMapDef of its (mode, limit);
//                                 negative: no stack (-EFAULT where there is none)
//   UStack (ustack)               { u64 tid << 32 | (u32) stack id; u64 pid }: the first u64 is
//                                 bpftrace 0.17's, so keys differ where its keys differ
//
// `.stacklost`, a one-entry array: its u64 counts the stacks bpf_get_stackid could not store
// (-EEXIST: another stack holds the bucket; -ENOMEM: the map is full); reported at exit.
//
// `.lost` (lost_events_map), a one-entry array: its u64 counts the records a full buffer
// refused (bpf_ringbuf_output or bpf_perf_event_output < 0); the runtime prints the growth as
// "Lost N events".
//
// `.mapfail` (failed_updates_map), a one-entry array whose value holds one u64 per user map
// (ProgramInfo::maps order): the bpf_map_update_elem calls on that map that failed, above all
// on a hash map that already holds max_entries keys (E2BIG). The runtime warns at exit, so a
// full map never loses keys silently.
//
// `elapsed` reads the u64 at offset 0 of the one-entry array map `start_time_map`: the
// runtime must write CLOCK_MONOTONIC in nanoseconds there (bpf_ktime_get_ns() is that clock)
// before attaching. Big printf records are built in `scratch_map`, a one-entry per-CPU array,
// instead of the 512-byte stack.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bpfasm/builder.h"
#include "engine/base/types.h"
#include "engine/lang/source.h"
#include "engine/probes/provider.h"

namespace rawprobe::codegen {

inline constexpr uint64_t kAsyncBase = 1u << 30;
// The async events, numbered from kAsyncBase in the order of async_events.def.
enum class AsyncEvent : uint32_t {
#define ASYNC_EVENT(name, handler) name,
#include "engine/codegen/async_events.def"
#undef ASYNC_EVENT
};
#define ASYNC_EVENT(name, handler) \
  inline constexpr uint64_t kAsync##name = kAsyncBase + static_cast<uint64_t>(AsyncEvent::name);
#include "engine/codegen/async_events.def"
#undef ASYNC_EVENT

// A kernel map to create before loading. Its index in CompiledScript::maps is the
// bpf::MapHandle id the programs use.
struct MapDef {
  std::string name;          // "@start", or internal maps: ".events", ".scratch", ...
                             // (the kernel accepts only [A-Za-z0-9_.] in object names:
                             // pass kernel_object_name(name) to BPF_MAP_CREATE)
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

// A BPF_MAP_TYPE_STACK_TRACE map: one per (mode, limit), as bpftrace has them.
struct StackMapDef {
  StackMode mode = StackMode::Bpftrace;
  uint16_t limit = 0;
  uint32_t map = 0;  // index into CompiledScript::maps
};

// A value printed by print(expr): its type, for output.
struct PrintValue {
  Type type;
};

// What a point id prints as.
struct PointName {
  std::string probe;  // "uprobe:/tmp/fun:foo" (AttachPoint::name)
  std::string func;   // "foo" (AttachPoint::func)
};

// A helper call that -k or -kk checks (gen_helper_errors.cpp): what the warning names.
struct HelperErrorSite {
  std::string helper;   // bpftrace's name for it: "map_delete_elem"
  std::string where;    // "script.bt:1:20-33": the call's first line, its columns [begin, end)
  std::string context;  // the source line, then '~' under the call, each ending in '\n'
};

struct CompiledScript {
  std::vector<MapDef> maps;
  std::vector<CompiledProgram> programs;
  int events_map = -1;              // index into maps: the ring buffer or perf event array
  bool events_use_ringbuf = true;   // false: BPF_MAP_TYPE_PERF_EVENT_ARRAY, one buffer per CPU
  std::vector<PrintValue> print_values;
  std::vector<PointName> point_names;  // a Probe or Func value indexes this
  int start_time_map = -1;          // index into maps, or -1 when no program reads `elapsed`
  int lost_events_map = -1;         // index into maps, or -1 when no program counts lost records
  int scratch_map = -1;             // index into maps, or -1 when no record needed it
  int failed_updates_map = -1;      // index into maps, or -1 when no program updates a map
  std::vector<StackMapDef> stack_maps;
  int stack_lost_map = -1;          // index into maps, or -1 when no program takes a stack
  int pids_map = -1;                // index into maps, or -1 when no program takes user addresses
  std::vector<HelperErrorSite> helper_errors;  // kAsyncHelperError's site indexes this
};

// A map or program name the kernel accepts (BPF_OBJ_NAME_LEN 16, [A-Za-z0-9_.]): "@start"
// becomes "start", "@" becomes "_", other characters become '_'.
inline std::string kernel_object_name(const std::string& name) {
  std::string out;
  for (char c : name.substr(name.size() > 1 && name[0] == '@' ? 1 : 0)) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.';
    out += ok ? c : '_';
    if (out.size() == 15) break;
  }
  return out;
}

struct CompileOptions {
  bool ringbuf = true;        // the kernel has BPF_MAP_TYPE_RINGBUF (5.8)
  bool probe_read_user = true;  // bpf_probe_read_user/_kernel exist (5.5)
  uint32_t ringbuf_bytes = 1u << 20;  // power of two, page multiple
  uint32_t map_max_entries = 4096;    // bpftrace's default for keyed maps
  uint32_t ncpus = 1;                 // possible CPUs (per-CPU value size, perf array size)
  // Whether the kernel allocates hash map elements on update in any program (6.1+,
  // bpf_mem_alloc; sys::Feature::hash_on_demand): per-CPU hash maps (aggregations) are then
  // created with BPF_F_NO_PREALLOC, except those a perf_event program writes. Asked only when
  // the script has such a map, so other scripts do not pay for the kernel probe; unset: no.
  std::function<bool()> hash_maps_on_demand;
  // Whether the kernel has a helper that not every supported kernel has (bpf_jiffies64 for
  // `jiffies`, bpf_send_signal for signal()), asked only when a program calls it; unset: yes.
  std::function<bool(bpf::Helper)> has_helper;
  int64_t child_pid = 0;              // -c CMD: the child's pid, the value of `cpid`
  // rawprobe's pid namespace (/proc/self/ns/pid's st_dev and st_ino) when it is not the
  // initial one: `pid` and `tid` then give the ids as seen from it, as bpftrace 0.22 on does
  // (bpf_get_ns_current_pid_tgid, 5.7), so they agree with cpid, -p and the ps of a
  // container. Both 0 in the initial namespace, where the plain ids are those already.
  uint64_t pid_ns_dev = 0, pid_ns_ino = 0;
  // -k: 1, -kk: 2; 0 checks no helper's result (gen_helper_errors.cpp says which each checks).
  uint32_t helper_checks = 0;
  std::string source_name;            // for annotations: "script.bt" or "-e"
  // The script's text: annotations quote its lines and errors point into it. May be null
  // (annotations then give only line numbers).
  const lang::SourceFile* source = nullptr;
  // How attach() will be called: decides the load plan (multi links, cookies).
  probes::AttachOptions attach;
};

}  // namespace rawprobe::codegen
