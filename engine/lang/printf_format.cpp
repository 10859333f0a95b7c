#include "engine/lang/printf_format.h"

#include <cctype>
#include <cstring>

namespace rawprobe::lang {
namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

int read_number(std::string_view f, size_t& i) {
  int v = 0;
  while (i < f.size() && is_digit(f[i])) {
    if (v < 100000) v = v * 10 + (f[i] - '0');
    ++i;
  }
  return v;
}

}  // namespace

std::vector<FormatConversion> parse_printf_format(std::string_view f) {
  std::vector<FormatConversion> out;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') continue;
    if (i + 1 < f.size() && f[i + 1] == '%') {
      ++i;
      continue;
    }
    FormatConversion c;
    c.begin = i;
    size_t j = i + 1;
    while (j < f.size() && std::strchr("-+ #0", f[j]) && f[j] != 0) c.flags += f[j++];
    if (j < f.size() && is_digit(f[j])) c.width = read_number(f, j);
    if (j < f.size() && f[j] == '.') {
      ++j;
      c.precision = read_number(f, j);
    }
    for (const char* len : {"hh", "ll", "h", "l", "j", "z", "t"}) {
      if (f.substr(j, std::strlen(len)) == len) {
        c.length = len;
        j += c.length.size();
        break;
      }
    }
    if (j >= f.size()) continue;
    char conv = f[j];
    bool integer = std::strchr("diuxXo", conv) != nullptr;
    if (!integer && (!c.length.empty() || !std::strchr("csp", conv))) continue;  // plain text
    c.conversion = conv;
    c.cls = integer ? ConvClass::Integer : conv == 'c' ? ConvClass::Char : conv == 's' ? ConvClass::String : ConvClass::Pointer;
    c.end = j + 1;
    out.push_back(c);
    i = j;
  }
  return out;
}

}  // namespace rawprobe::lang
