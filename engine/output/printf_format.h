// printf() formatting, as bpftrace 0.17 does it on the host.
//
// bpftrace finds its conversions with the regex  %-?[0-9]*(\.[0-9]+)?(TOKEN)  where TOKEN is
// s, c, or one of hh h l ll j z t (or nothing) followed by d u x X o p; rawprobe adds i
// (printed as d). It cuts the format after each match, runs each piece through the C
// library's snprintf with that piece's argument, and prints the text after the last match
// exactly as written. The consequences, reproduced here because output must be identical:
//   - "%%" becomes "%" before a conversion, but stays "%%" after the last one (and in a
//     format without conversions: printf("100%%\n") prints "100%%").
//   - "%%d" is the token "%d" preceded by "%": the argument is consumed, "%d" is printed.
//   - a piece's output ends at its first NUL byte (bpftrace streams the C buffer), so
//     printf("%c|", 0) prints "|".
//   - integers are handed to C as 64-bit values: %d prints the low 32 bits as int, %hhu the
//     low 8 bits, %ld all 64; an argument narrower than 64 bits is first sign-extended
//     (signed types) or zero-extended.
// Flags other than '-' and a leading '0' are not conversions in bpftrace; a stray one
// before a real conversion ("%+d %d") would make snprintf read garbage there, so it is
// rejected here with an error instead.
//
// Arguments arrive as one struct laid out by layout_of() (engine/base/layout.h).
//
// The semantic pass (engine/lang) checks every printf with PrintfFormat::parse and
// PrintfFormatter::make, so a script the front end accepts builds its formatters without
// error at run time.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/result.h"
#include "engine/base/types.h"

namespace rawprobe {

// What a conversion accepts: bpftrace's type names are used in error messages.
enum class ArgClass : uint8_t { Integer, String, Buffer };

struct ConvSpec {
  char conv = 0;          // d u x X o c p s r (i is stored as d, rx as r)
  bool wide = false;      // l ll j z t: 64-bit
  uint8_t narrow = 0;     // h: 2, hh: 1, else 0
  bool plain = true;      // no flags, width or precision: the fast path applies
  std::string c_spec;     // the conversion as given to snprintf ("%-05lld")
  std::string token;      // as written after '%' minus width ("ld"), for messages
};

// The widest field width or precision a format may ask for.
constexpr uint32_t kMaxPrintfField = 65535;

// One piece: literal text (already run through C's %% rules) and the conversion after it.
struct FormatPiece {
  std::string literal;
  bool prints_arg = true;  // false when "%%d" swallowed the conversion
  ConvSpec spec;
};

class PrintfFormat {
 public:
  // Splits and checks a format string. Errors name the bad conversion and its offset in
  // Error::what and list what is supported in Error::hint.
  static Result<PrintfFormat> parse(std::string_view fmt);

  size_t arg_count() const { return pieces_.size(); }
  ArgClass arg_class(size_t i) const;
  const std::vector<FormatPiece>& pieces() const { return pieces_; }
  const std::string& tail() const { return tail_; }

 private:
  std::vector<FormatPiece> pieces_;  // one per argument
  std::string tail_;                 // after the last conversion, printed as written
};

// A format bound to its argument types: built once when the program is loaded, then used
// for every event.
class PrintfFormatter {
 public:
  // Checks count and types with bpftrace's messages:
  //   printf: Not enough arguments for format string (1 supplied, 2 expected)
  //   printf: %d specifier expects a value of type integer (string supplied)
  // %s also takes `probe` and `func` values (bpftrace calls them strings): the runtime formats
  // their text, with a formatter made from runtime::PointText::text_types().
  static Result<PrintfFormatter> make(std::string_view fmt, std::vector<Type> arg_types);
  static Result<PrintfFormatter> make(PrintfFormat format, std::vector<Type> arg_types);

  // Size of the argument struct the code generator must write (after the event header).
  uint32_t args_size() const { return args_size_; }
  const std::vector<uint32_t>& arg_offsets() const { return offsets_; }

  // Appends the formatted text. `args` is the argument struct; when `len` is short (a
  // truncated record), missing bytes read as zero.
  void append(std::string& out, const uint8_t* args, size_t len) const;

 private:
  PrintfFormat format_;
  std::vector<Type> types_;
  std::vector<uint32_t> offsets_;
  uint32_t args_size_ = 0;
};

// Formats one integer or string argument by a conversion, as glibc's snprintf would.
void append_conversion(std::string& out, const ConvSpec& spec, uint64_t value);
void append_conversion(std::string& out, const ConvSpec& spec, std::string_view text);

}  // namespace rawprobe
