// Formatting pieces shared by the bpf and perf_event_open decoders (internal to engine/sys).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "engine/sys/call.h"

namespace rawprobe::sys::decode_detail {

// Accumulates "name=value" pairs into "{a=1, b=2}".
class FieldList {
 public:
  FieldList& add(std::string_view name, const std::string& value);
  FieldList& num(std::string_view name, uint64_t value);
  FieldList& snum(std::string_view name, int64_t value);
  FieldList& hex(std::string_view name, uint64_t value);
  // A user pointer: NULL or 0x...
  FieldList& ptr(std::string_view name, uint64_t value);
  // A user pointer to a NUL-terminated string, shown quoted (NULL when 0).
  FieldList& str(std::string_view name, uint64_t value);
  std::string braces() const { return "{" + text_ + "}"; }

 private:
  std::string text_;
};

// C-style quoted string with \n, \t, \" and \\ escaped and non-printables as \xNN;
// longer than `limit` bytes ends in "...".
std::string quote(std::string_view s, size_t limit = 256);
// The string a user pointer points at (our own memory: the decoder runs in-process).
std::string quote_user_string(uint64_t ptr);
std::string hex_string(uint64_t value);
// The set bits of `value` by name, "A|B", with bits no name covers appended in hex; "0" when
// none is set.
struct NamedBit {
  uint64_t mask;
  const char* name;
};
std::string named_bits(uint64_t value, std::initializer_list<NamedBit> names);
// "= 3", "= -1 EPERM (Operation not permitted)"
std::string result_text(const Outcome& outcome);

// Per-call decoders.
std::string bpf_request(const BpfCall& c);
std::string bpf_writeback(const BpfCall& c, const Outcome& outcome);  // " => {...}" or ""
std::string perf_request(const PerfOpenCall& c);

}  // namespace rawprobe::sys::decode_detail
