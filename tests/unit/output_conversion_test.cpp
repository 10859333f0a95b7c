// printf conversions against glibc's snprintf, the routine bpftrace 0.17 hands every piece
// of a format to: for each spec and value, rawprobe's fast paths and its own narrowing must
// give what snprintf gives with the C type the length modifier names. (The end-to-end
// comparison with bpftrace itself is tests/kernel/output_printf_test.cpp.)
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "engine/output/printf_format.h"

using namespace rawprobe;

namespace {

// snprintf with the argument converted the way C's printf reads it for this length.
std::string reference(const std::string& spec, char conv, const std::string& length,
                      uint64_t v) {
  char buf[512];
  std::string fmt = spec;
  bool is_signed = conv == 'd' || conv == 'i';
  if (conv == 'p') {
    std::snprintf(buf, sizeof buf, (spec.substr(0, spec.size() - length.size() - 1) + "p").c_str(),
                  reinterpret_cast<void*>(uintptr_t(v)));
  } else if (conv == 'c') {
    std::snprintf(buf, sizeof buf, fmt.c_str(), int(v));
  } else if (length == "hh") {
    if (is_signed) std::snprintf(buf, sizeof buf, fmt.c_str(), int(static_cast<signed char>(v)));
    else std::snprintf(buf, sizeof buf, fmt.c_str(), unsigned(static_cast<unsigned char>(v)));
  } else if (length == "h") {
    if (is_signed) std::snprintf(buf, sizeof buf, fmt.c_str(), int(short(v)));
    else std::snprintf(buf, sizeof buf, fmt.c_str(), unsigned(static_cast<unsigned short>(v)));
  } else if (length.empty()) {
    if (is_signed) std::snprintf(buf, sizeof buf, fmt.c_str(), int(v));
    else std::snprintf(buf, sizeof buf, fmt.c_str(), unsigned(v));
  } else {
    fmt = spec.substr(0, spec.size() - length.size() - 1) + "ll" + conv;
    if (is_signed) std::snprintf(buf, sizeof buf, fmt.c_str(), static_cast<long long>(v));
    else std::snprintf(buf, sizeof buf, fmt.c_str(), static_cast<unsigned long long>(v));
  }
  return buf;
}

}  // namespace

TEST_CASE("integer conversions equal glibc snprintf for every length, flag and width") {
  const uint64_t values[] = {0, 1, uint64_t(-1), 42, uint64_t(-42), 200, 65535, 4294967301ULL,
                             0x7fffffffffffffffULL, 0x8000000000000000ULL, 0x1234abcdULL};
  int checked = 0;
  for (const char* conv : {"d", "i", "u", "x", "X", "o", "p"}) {
    for (const char* length : {"", "hh", "h", "l", "ll", "j", "z", "t"}) {
      for (const char* width : {"", "7", "-7", "07", ".4", "9.4", "-9.4", "0", ".0", "-012"}) {
        std::string spec = std::string("%") + width + length + conv;
        auto format = PrintfFormat::parse(spec);
        REQUIRE_MESSAGE(format.ok(), spec);
        REQUIRE(format->arg_count() == 1);
        for (uint64_t v : values) {
          std::string got;
          append_conversion(got, format->pieces()[0].spec, v);
          CHECK_MESSAGE(got == reference(spec, conv[0], length, v), spec, " of ", v);
          checked++;
        }
      }
    }
  }
  CHECK(checked == 7 * 8 * 10 * 11);
}

TEST_CASE("%c and %s equal glibc snprintf") {
  for (const char* width : {"", "4", "-4", "04"}) {
    std::string spec = std::string("%") + width + "c";
    auto format = PrintfFormat::parse(spec);
    REQUIRE(format.ok());
    for (uint64_t v : {65ULL, 0x141ULL, 32ULL}) {
      std::string got;
      append_conversion(got, format->pieces()[0].spec, v);
      CHECK(got == reference(spec, 'c', "", v));
    }
  }
  for (const char* width : {"", "8", "-8", ".2", "6.3", "-6.3", "08", ".0"}) {
    std::string spec = std::string("%") + width + "s";
    auto format = PrintfFormat::parse(spec);
    REQUIRE(format.ok());
    for (const char* s : {"", "a", "abcdef", "hello world"}) {
      std::string got;
      append_conversion(got, format->pieces()[0].spec, std::string_view(s));
      char buf[64];
      std::snprintf(buf, sizeof buf, spec.c_str(), s);
      CHECK_MESSAGE(got == buf, spec, " of '", s, "'");
    }
  }
}

TEST_CASE("format parsing: stray C conversions are errors, not garbage") {
  for (const char* bad : {"%+d %d", "% d %s", "%#x %x", "%*d %d"}) {
    auto format = PrintfFormat::parse(bad);
    CHECK_MESSAGE(!format.ok(), bad);
    if (!format.ok()) CHECK(format.error().message().find("offset 0") != std::string::npos);
  }
  // Text that bpftrace does not take as a conversion stays text: no argument expected.
  for (const char* text : {"%+d", "100%", "%-%", "50% off", "%.d"}) {
    auto format = PrintfFormat::parse(text);
    REQUIRE_MESSAGE(format.ok(), text);
    CHECK(format->arg_count() == 0);
    CHECK(format->tail() == text);
  }
}

TEST_CASE("a short record reads its missing argument bytes as zero") {
  auto formatter = PrintfFormatter::make("%d|%s|%d\n", {Type::integer(4, true), Type::string(4),
                                                        Type::integer(8, true)});
  REQUIRE(formatter.ok());
  REQUIRE(formatter->args_size() == 16);
  const uint8_t bytes[] = {7, 0, 0, 0, 'a', 'b'};
  std::string out;
  formatter->append(out, bytes, sizeof bytes);
  std::string expected;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%d|%s|%d\n", 7, "ab", 0);
  CHECK(out == buf);
}

TEST_CASE("a width or precision past kMaxPrintfField is refused, the widest one prints as glibc") {
  std::string widest = std::to_string(kMaxPrintfField);
  for (std::string spec : {"%" + widest + "d", "%." + widest + "d", "%-" + widest + "s", "%0" + widest + "x"}) {
    auto format = PrintfFormat::parse(spec);
    REQUIRE_MESSAGE(format.ok(), spec);
    std::string got;
    if (spec.back() == 's') append_conversion(got, format->pieces()[0].spec, std::string_view("ab"));
    else append_conversion(got, format->pieces()[0].spec, uint64_t(42));
    std::vector<char> buf(kMaxPrintfField + 1);
    if (spec.back() == 's') std::snprintf(buf.data(), buf.size(), spec.c_str(), "ab");
    else std::snprintf(buf.data(), buf.size(), spec.c_str(), 42u);
    CHECK_MESSAGE(got == std::string(buf.data()), spec);
  }
  std::string one_more = std::to_string(kMaxPrintfField + 1);
  // The last is libFuzzer's: a 612-million-column field stalled formatting past its timeout.
  for (std::string spec : {"x %" + one_more + "d", "x %." + one_more + "s", "x %5." + one_more + "d",
                           "x %0000" + one_more + "u", std::string("x %99999999999999999999d"), std::string(" %8d %612345678d\n")}) {
    auto format = PrintfFormat::parse(spec);
    REQUIRE_FALSE_MESSAGE(format.ok(), spec);
    std::string message = format.error().message();
    CHECK_MESSAGE(message.find("is too large") != std::string::npos, message);
    CHECK_MESSAGE(message.find(spec.find('.') != std::string::npos ? "precision" : "width") != std::string::npos, message);
    CHECK_MESSAGE(message.find("at offset " + std::to_string(spec.rfind('%'))) != std::string::npos, message);
  }
  // Leading zeros are a flag and digits, not a larger number.
  CHECK(PrintfFormat::parse("%00000000008d").ok());
}
