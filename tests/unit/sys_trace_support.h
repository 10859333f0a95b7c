// What the engine/sys tests read the syscall trace (--trace-syscalls) with, unit and kernel
// suites alike.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/sys/call.h"

namespace rawprobe::sys::testing {

// Collects the trace lines written while it lives.
struct TraceCapture {
  std::vector<std::string> lines;
  TraceCapture() {
    set_trace_sink([this](const std::string& line) { lines.push_back(line); });
  }
  ~TraceCapture() { set_trace_sink({}); }
  TraceCapture(const TraceCapture&) = delete;
  TraceCapture& operator=(const TraceCapture&) = delete;
  // How many lines contain `part`.
  size_t count(const std::string& part) const {
    size_t n = 0;
    for (const std::string& l : lines) n += l.find(part) != std::string::npos;
    return n;
  }
};

// "0x..." of a number, the way the trace is expected to show it: written here, not taken from
// the decoder's own helper, so a decoder bug cannot hide in both.
inline std::string hex_of(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace rawprobe::sys::testing
