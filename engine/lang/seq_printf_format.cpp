#include "engine/lang/seq_printf_format.h"

#include <cctype>
#include <algorithm>
#include <cstring>

namespace rawprobe::lang {
namespace {

const char* kWhatWorks = "in a pinned iterator printf takes %d %i %u %x %X %c %s %p, with flags 0 + - or space, "
                         "a width and l or ll";

}  // namespace

Result<std::string> seq_printf_format(const std::string& format, const std::vector<Type>& args) {
  if (args.size() > kSeqPrintfMaxArgs)
    return make_error("printf in a pinned iterator takes at most 12 arguments (" + std::to_string(args.size()) +
                      " given): the kernel's bpf_seq_printf passes no more");
  std::string out;
  size_t arg = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    out += format[i];
    if (format[i] != '%') continue;
    size_t start = i++;
    if (i < format.size() && format[i] == '%') {
      out += '%';
      continue;
    }
    while (i < format.size() && std::strchr("0+- ", format[i])) out += format[i++];
    while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) out += format[i++];
    size_t longs = 0;
    while (i < format.size() && format[i] == 'l') ++longs, ++i;
    if (i >= format.size())
      return make_error("printf format ends inside the conversion '" + format.substr(start) + "'", "", kWhatWorks);
    char conv = format[i];
    // The whole conversion, for the message: up to its letter.
    size_t end = i;
    while (end < format.size() && !std::isalpha(static_cast<unsigned char>(format[end])) && format[end] != '%') ++end;
    while (end + 1 < format.size() && std::strchr("hlLqjzt", format[end])) ++end;  // a length, then its letter
    std::string spec = format.substr(start, std::min(end, format.size() - 1) - start + 1);
    if (!std::strchr("diuxXcsp", conv) || longs > 2)
      return make_error("the kernel's bpf_seq_printf does not take '" + spec + "'", "", kWhatWorks);
    if (arg >= args.size()) return make_error("printf format '" + spec + "' has no argument left", "", kWhatWorks);
    const Type& t = args[arg++];
    if (conv == 's') {
      if (!t.is_string())
        return make_error("'" + spec + "' in a pinned iterator's printf takes a string (argument " +
                          std::to_string(arg) + " is not one)", "", "print integers with %d, %u or %x");
      out += 's';
      continue;
    }
    if (!t.is_integer())
      return make_error("'" + spec + "' in a pinned iterator's printf takes an integer (argument " +
                        std::to_string(arg) + " is not one)", "", kWhatWorks);
    if (conv == 'c' || conv == 'p') {
      if (longs) return make_error("the kernel's bpf_seq_printf does not take '" + spec + "'", "", kWhatWorks);
      out += conv;
      continue;
    }
    out += "ll";  // every argument is passed as a u64
    out += conv;
  }
  if (arg != args.size())
    return make_error("printf has " + std::to_string(args.size()) + " arguments but its format uses " +
                      std::to_string(arg));
  return out;
}

}  // namespace rawprobe::lang
