// libFuzzer target: printf() formats, as scripts write them, and the argument bytes an event
// carries. The input is the format, a NUL, then one byte per conversion that picks its
// argument's type (an integer's width and sign, a string's length), then the argument struct.
// What PrintfFormat::parse accepts, PrintfFormatter::make must accept with arguments of the
// classes the format asks for; append() must format any bytes, and a record cut short must
// print as the same record with its missing bytes zero.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "engine/output/printf_format.h"
#include "tests/fuzz/fuzz_check.h"

using namespace rawprobe;

namespace {

// The argument type byte `pick` chooses for a conversion of class `c`.
Type argument_type(ArgClass c, uint8_t pick) {
  if (c == ArgClass::Integer) return Type::integer(1u << (pick & 3), (pick & 4) != 0);
  return Type::string(1 + pick % 64);  // %s and %r (a buffer) both take a string
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint8_t* nul = static_cast<const uint8_t*>(std::memchr(data, 0, size));
  std::string_view text(reinterpret_cast<const char*>(data), nul ? size_t(nul - data) : size);
  Result<PrintfFormat> format = PrintfFormat::parse(text);
  if (!format) {
    fuzz::require(!format.error().message().empty(), "a refused format says why", text);
    return 0;
  }
  const uint8_t* rest = nul ? nul + 1 : data + size;
  size_t left = size_t(data + size - rest);
  std::vector<Type> types;
  for (size_t i = 0; i < format->arg_count(); ++i) {
    uint8_t pick = 0;
    if (left) {
      pick = *rest++;
      --left;
    }
    types.push_back(argument_type(format->arg_class(i), pick));
  }
  Result<PrintfFormatter> formatter = PrintfFormatter::make(*format, types);
  fuzz::require(formatter.ok(), "arguments of the classes a format asks for are accepted",
                formatter ? std::string(text) : formatter.error().message());
  // The record exactly as long as the input left, so ASan sees any read past it.
  std::vector<uint8_t> record(rest, rest + left);
  std::string printed;
  formatter->append(printed, record.data(), record.size());
  if (record.size() < formatter->args_size()) {
    std::vector<uint8_t> padded(record);
    padded.resize(formatter->args_size(), 0);
    std::string whole;
    formatter->append(whole, padded.data(), padded.size());
    fuzz::require(printed == whole, "a short record prints as if its missing bytes were zero", text);
  }
  return 0;
}
