// One attach point of a probe block, parsed into a structured form per provider:
//   uprobe:/tmp/read_rand:thread_fun      kind Uprobe, target "/tmp/read_rand", func "thread_fun"
//   u:libc:malloc+4                        kind Uprobe, target "libc", func "malloc", offset 4
//   uprobe:/bin/x:0x1130                   kind Uprobe, target "/bin/x", address 0x1130
//   uprobe:/bin/x:"ns::f(int)"            kind Uprobe, func "ns::f(int)", quoted
//   usdt:/tmp/hello_usdt:prov:name         kind Usdt, target, provider "prov", name "name"
//   tracepoint:syscalls:sys_enter_read     kind Tracepoint, provider "syscalls", name "sys_enter_read"
//   rawtracepoint:sched_switch / rt:sys_*  kind RawTracepoint, name "sched_switch"
//   interval:ms:100 / profile:hz:99        unit "ms"/"hz", value 100/99
//   software:cpu-clock:1000                event "cpu-clock", value 1000
//   kprobe:vfs_read+8 / kprobe:ext4:ext4_sync_fs   func, offset, target (the module)
//   fentry:vfs_read / fexit:dummy:dummy_open       func, target (the module)
//   iter:task                                      name "task"
//   watchpoint:0x4c6f30:8:w                        address, value (the length), event (the mode)
// Resolving targets (paths, library names, wildcards) is the probe providers' job.
#pragma once
#include <cstdint>
#include <string>

#include "engine/base/result.h"
#include <string_view>
#include <vector>

#include "engine/lang/source.h"

namespace rawprobe::lang {

enum class ProbeKind : uint8_t {
  Begin, End, Uprobe, Uretprobe, Usdt, Tracepoint, Interval, Profile, Software, Hardware,
  Kprobe, Kretprobe, RawTracepoint, Fentry, Fexit, Iter, Watchpoint, Self, Test, Bench,
};

// The canonical provider name: "uprobe", "BEGIN", ... (from the kind's row in
// engine/probes/probe_types.cpp).
const char* probe_kind_name(ProbeKind kind);
bool probe_kind_is_return(ProbeKind kind);  // uretprobe, kretprobe

struct ProbeSpec {
  ProbeKind kind = ProbeKind::Begin;
  Span span;
  std::string raw;        // as written, alias and all
  std::string target;     // uprobe/usdt: binary path or library name; kprobe: module
  std::string func;       // uprobe/kprobe: function name or wildcard pattern
  bool quoted = false;    // func was written in double quotes (C++ names)
  uint64_t offset = 0;    // func+OFF
  bool has_offset = false;
  uint64_t address = 0;   // uprobe BIN:0xADDR
  bool has_address = false;
  std::string provider;   // usdt provider (empty = any); tracepoint category
  std::string name;       // usdt probe name; tracepoint and raw tracepoint event name
  std::string unit;       // interval/profile: "s", "ms", "us", "hz"
  std::string event;      // software/hardware event name as written
  uint64_t value = 0;     // interval/profile period or rate; software/hardware count
  bool has_value = false; // software/hardware: count given
  bool wildcard = false;  // some part holds '*' or '?'

  // The spec with its canonical provider name: "uprobe:/tmp/x:f", used for `probe` and listing.
  std::string canonical() const;
};

// Parses one attach point's text: the type's row (engine/probes/probe_types.h) gives the kind,
// its provider parses the rest. An error's `what` says what to write instead.
Status parse_probe_spec(std::string_view raw, Span span, ProbeSpec& out);

// What the providers' parse() share.
// Splits at ':' outside double quotes (C++ names: uprobe:/bin/x:"ns::f(int)").
std::vector<std::string> split_probe_parts(std::string_view text);
// Decimal or 0x hex, '_' allowed between digits; false on anything else or overflow.
bool parse_probe_number(std::string_view text, uint64_t& out);
bool has_wildcard(std::string_view text);  // holds '*' or '?'
// parts[from..] joined with ':' again (a uprobe's function part may hold colons).
std::string join_probe_parts(const std::vector<std::string>& parts, size_t from);
// FUNC, FUNC+OFF or "QUOTED NAME" into out.func / out.offset / out.quoted.
Status parse_probe_function(const std::string& text, ProbeSpec& out);

}  // namespace rawprobe::lang
