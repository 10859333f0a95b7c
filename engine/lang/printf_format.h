// printf format strings as bpftrace 0.17 reads them: a conversion is
//   %[flags -+ #0][width][.precision][length hh h l ll j z t]conversion
// with conversion one of d i u x X o c s p; a length modifier is valid only on the integer
// conversions (bpftrace treats "%ls" as plain text). "%%" is a literal percent; any other '%'
// sequence is plain text too (bpftrace prints "%y" as is).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rawprobe::lang {

enum class ConvClass : uint8_t { Integer, Char, String, Pointer };

struct FormatConversion {
  size_t begin = 0, end = 0;  // byte range of the "%...x" text in the format
  std::string flags;
  int width = -1;             // -1: not given
  int precision = -1;         // -1: not given
  std::string length;         // "", "hh", "h", "l", "ll", "j", "z", "t"
  char conversion = 0;        // 'd', 's', ...
  ConvClass cls = ConvClass::Integer;
};

std::vector<FormatConversion> parse_printf_format(std::string_view format);

}  // namespace rawprobe::lang
