#include "engine/lang/positional.h"

#include <cerrno>
#include <cstdlib>

namespace rawprobe::lang {

std::optional<int64_t> PositionalParams::number(uint64_t n) const {
  if (n == 0 || n > values.size()) return 0;
  const std::string& s = values[n - 1];
  if (s.empty()) return std::nullopt;
  // Base 0, as bpftrace reads them: decimal, 0x hex and 0 octal, leading blanks allowed; the
  // whole word must be the number, within int64.
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 0);
  if (errno != 0 || end == s.c_str() || *end != '\0') return std::nullopt;
  return static_cast<int64_t>(v);
}

std::string PositionalParams::text(uint64_t n) const {
  return n >= 1 && n <= values.size() ? values[n - 1] : std::string();
}

std::string PositionalParams::not_a_number_error(uint64_t n) const {
  std::string name = "$" + std::to_string(n);
  return name + " used numerically but given \"" + text(n) + "\". Try using str(" + name + ").";
}

std::string positional_zero_error() { return "param $0 is out of integer range [1, 9223372036854775807]"; }

}  // namespace rawprobe::lang
