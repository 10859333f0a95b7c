#include "engine/output/printf_format.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

#include "engine/base/layout.h"
#include "engine/base/text_kinds.h"
#include "engine/base/type_names.h"
#include "engine/output/number_text.h"

namespace rawprobe {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// `probe` and `func` are point ids, and stacks and symbols addresses, that the runtime turns
// into their text before formatting (runtime/point_text.h), so %s takes them; bpftrace 0.17 calls them strings in its messages
// too ("%d specifier expects a value of type integer (string supplied)").
// A bool prints as true or false under %s (bpftrace 0.22 on formats any value by %s; 0.17
// had no bools), and as 1 or 0 under the integer conversions.
bool prints_as_string(const Type& t) {
  if (t.is_bool) return true;
  switch (t.kind) {
    case TypeKind::String: case TypeKind::Probe: case TypeKind::Func:
    case TypeKind::UStack: case TypeKind::KStack: case TypeKind::USym: case TypeKind::KSym:
      return true;
    default:
      return is_user_text(t.kind);
  }
}

// Length of the token that bpftrace's regex matches at `p` (fmt[p] == '%'), or 0.
size_t match_token(std::string_view fmt, size_t p) {
  size_t q = p + 1, n = fmt.size();
  if (q < n && fmt[q] == '-') q++;
  while (q < n && is_digit(fmt[q])) q++;
  if (q + 1 < n && fmt[q] == '.' && is_digit(fmt[q + 1])) {
    q++;
    while (q < n && is_digit(fmt[q])) q++;
  }
  size_t length_start = q;
  if (fmt.substr(q, 2) == "hh" || fmt.substr(q, 2) == "ll") {
    q += 2;
  } else if (q < n && std::strchr("hljzt", fmt[q]) && fmt[q] != '\0') {
    q++;
  }
  if (q >= n) return 0;
  char conv = fmt[q];
  bool has_length = q != length_start;
  // %r and %rx print a buf() value (bpftrace 0.17; without flags, width or precision).
  if (conv == 'r' && q == p + 1) return (q + 1 < n && fmt[q + 1] == 'x' ? q + 2 : q + 1) - p;
  bool ok = std::strchr("duxXopi", conv) || (!has_length && (conv == 's' || conv == 'c'));
  return ok && conv != '\0' ? q + 1 - p : 0;
}

// How glibc's printf reads a conversion starting at fmt[i] == '%': returns its length and
// its conversion character (0 when the text ends first).
size_t c_conversion_length(std::string_view fmt, size_t i, char& conv) {
  size_t j = i + 1, n = fmt.size();
  while (j < n && std::strchr("-+ #0'I", fmt[j]) && fmt[j] != '\0') j++;
  while (j < n && (is_digit(fmt[j]) || fmt[j] == '*')) j++;
  if (j < n && fmt[j] == '.') {
    j++;
    while (j < n && (is_digit(fmt[j]) || fmt[j] == '*')) j++;
  }
  while (j < n && std::strchr("hlLqjzZt", fmt[j]) && fmt[j] != '\0') j++;
  conv = j < n ? fmt[j] : 0;
  return j < n ? j + 1 - i : n - i;
}

// Builds the spec of a token (text from '%' to the conversion character).
ConvSpec make_spec(std::string_view token) {
  ConvSpec spec;
  size_t k = 1;
  std::string prefix = "%";
  if (token[k] == '-') prefix += token[k++];
  while (is_digit(token[k]) || token[k] == '.') prefix += token[k++];
  spec.plain = prefix.size() == 1;
  std::string_view length = token.substr(k, token.size() - 1 - k);
  spec.conv = token.back() == 'i' ? 'd' : token.back();
  if (length == "r") spec.conv = 'r', length = {};  // %rx: its buffer type says hex
  spec.narrow = length == "hh" ? 1 : length == "h" ? 2 : 0;
  spec.wide = !length.empty() && !spec.narrow;
  spec.token = std::string(token.substr(k));
  // Narrow and default lengths are passed as int after truncation; %p takes a pointer.
  spec.c_spec = prefix + (spec.wide && spec.conv != 'p' ? "ll" : "") + (spec.conv == 'r' ? 's' : spec.conv);
  return spec;
}

// A width or precision above kMaxPrintfField in a token, as an error: snprintf would write
// that many characters for every event (hundreds of megabytes from "%612345678d"), which
// stalls the tracer rather than printing anything useful.
std::optional<Error> field_too_wide(std::string_view token, size_t offset) {
  for (size_t k = 1; k < token.size(); k++) {
    if (!is_digit(token[k])) continue;
    size_t start = k;
    uint32_t value = 0;  // stops growing once past the limit
    for (; k < token.size() && is_digit(token[k]); k++)
      value = std::min<uint32_t>(value * 10 + uint32_t(token[k] - '0'), kMaxPrintfField + 1);
    if (value <= kMaxPrintfField) continue;
    std::string field = token[start - 1] == '.' ? "precision" : "width";
    return make_error("printf: " + field + " " + std::string(token.substr(start, k - start)) + " in '" +
                          std::string(token) + "' at offset " + std::to_string(offset) + " of the format is too large",
                      {}, "a field prints at most " + std::to_string(kMaxPrintfField) + " characters; use a smaller " + field);
  }
  return std::nullopt;
}

}  // namespace

Result<PrintfFormat> PrintfFormat::parse(std::string_view fmt) {
  PrintfFormat format;
  size_t piece_start = 0;
  for (size_t p = 0; p < fmt.size(); p++) {
    if (fmt[p] != '%') continue;
    size_t len = match_token(fmt, p);
    if (!len) continue;
    if (auto too_wide = field_too_wide(fmt.substr(p, len), p)) return *too_wide;
    FormatPiece piece;
    piece.spec = make_spec(fmt.substr(p, len));
    piece.prints_arg = false;
    // Run the piece through C's rules to find which conversion takes the argument.
    for (size_t i = piece_start; i < p + len;) {
      if (fmt[i] != '%') {
        piece.literal += fmt[i++];
        continue;
      }
      char conv = 0;
      size_t clen = c_conversion_length(fmt, i, conv);
      if (conv == '%') {
        piece.literal += '%';
      } else if (i == p) {
        piece.prints_arg = true;
        i = p + len;  // the whole token: C reads "%rx" as "%r" and a literal 'x'
        continue;
      } else {
        return make_error("printf: unsupported conversion '" + std::string(fmt.substr(i, clen)) +
                              "' at offset " + std::to_string(i) + " of the format",
                          {},
                          "supported: %[-][0][width][.precision][hh|h|l|ll|j|z|t]"
                          "d/i/u/x/X/o/p, %c, %s; write %% for a literal percent sign");
      }
      i += clen;
    }
    format.pieces_.push_back(std::move(piece));
    piece_start = p + len;
    p = piece_start - 1;
  }
  format.tail_ = std::string(fmt.substr(piece_start));
  return format;
}

ArgClass PrintfFormat::arg_class(size_t i) const {
  char conv = pieces_[i].spec.conv;
  return conv == 's' ? ArgClass::String : conv == 'r' ? ArgClass::Buffer : ArgClass::Integer;
}

Result<PrintfFormatter> PrintfFormatter::make(std::string_view fmt, std::vector<Type> arg_types) {
  auto format = PrintfFormat::parse(fmt);
  if (!format) return format.error();
  return make(std::move(*format), std::move(arg_types));
}

Result<PrintfFormatter> PrintfFormatter::make(PrintfFormat format, std::vector<Type> arg_types) {
  size_t expected = format.arg_count(), supplied = arg_types.size();
  if (supplied != expected) {
    std::string what = supplied < expected ? "Not enough" : "Too many";
    return make_error("printf: " + what + " arguments for format string (" +
                      std::to_string(supplied) + " supplied, " + std::to_string(expected) +
                      " expected)");
  }
  for (size_t i = 0; i < supplied; i++) {
    ArgClass want = format.arg_class(i);
    // A buffer reaches the runtime's formatter as its text (runtime/value_text.h).
    bool fits = want == ArgClass::String   ? prints_as_string(arg_types[i])
                : want == ArgClass::Buffer ? is_buffer(arg_types[i].kind) || arg_types[i].is_string()
                                           : arg_types[i].is_integer();
    if (!fits) {
      const char* wanted = want == ArgClass::String ? "string" : want == ArgClass::Buffer ? "buffer" : "integer";
      return make_error("printf: %" + format.pieces()[i].spec.token +
                        " specifier expects a value of type " + wanted + " (" +
                        (prints_as_string(arg_types[i]) ? "string" : argument_type_name(arg_types[i])) +
                        " supplied)");
    }
  }
  PrintfFormatter formatter;
  StructLayout layout = layout_of(arg_types);
  formatter.format_ = std::move(format);
  formatter.types_ = std::move(arg_types);
  formatter.offsets_ = std::move(layout.offsets);
  formatter.args_size_ = layout.size;
  return formatter;
}

namespace {

// snprintf into `out`, growing once when the first attempt does not fit.
template <class Arg>
void append_c(std::string& out, const std::string& c_spec, Arg arg) {
  char buf[128];
  int n = std::snprintf(buf, sizeof buf, c_spec.c_str(), arg);
  if (n < 0) return;
  if (size_t(n) < sizeof buf) {
    out.append(buf, size_t(n));
    return;
  }
  size_t start = out.size();
  out.resize(start + size_t(n) + 1);
  std::snprintf(out.data() + start, size_t(n) + 1, c_spec.c_str(), arg);
  out.resize(start + size_t(n));
}

void append_upper_hex(std::string& out, uint64_t v) {
  size_t start = out.size();
  append_number(out, v, 16);
  for (size_t i = start; i < out.size(); i++)
    if (out[i] >= 'a') out[i] = char(out[i] - 'a' + 'A');
}

}  // namespace

void append_conversion(std::string& out, const ConvSpec& spec, uint64_t value) {
  switch (spec.conv) {
    case 'd': {
      int64_t v = spec.wide ? int64_t(value)
                  : spec.narrow == 1 ? int8_t(value)
                  : spec.narrow == 2 ? int16_t(value)
                                     : int32_t(value);
      if (spec.plain) return append_number(out, v);
      if (spec.wide) return append_c(out, spec.c_spec, static_cast<long long>(v));
      return append_c(out, spec.c_spec, static_cast<int>(v));
    }
    case 'u': case 'x': case 'X': case 'o': {
      uint64_t v = spec.wide ? value
                   : spec.narrow == 1 ? uint8_t(value)
                   : spec.narrow == 2 ? uint16_t(value)
                                      : uint32_t(value);
      if (spec.plain) {
        if (spec.conv == 'X') return append_upper_hex(out, v);
        return append_number(out, v, spec.conv == 'u' ? 10 : spec.conv == 'o' ? 8 : 16);
      }
      if (spec.wide) return append_c(out, spec.c_spec, static_cast<unsigned long long>(v));
      return append_c(out, spec.c_spec, static_cast<unsigned>(v));
    }
    case 'c':
      if (spec.plain) {
        out.push_back(char(uint8_t(value)));
        return;
      }
      return append_c(out, spec.c_spec, static_cast<int>(uint8_t(value)));
    case 'p':
      return append_c(out, spec.c_spec, reinterpret_cast<void*>(uintptr_t(value)));
    default:
      return;
  }
}

void append_conversion(std::string& out, const ConvSpec& spec, std::string_view text) {
  if (spec.plain) {
    out.append(text);
    return;
  }
  thread_local std::string terminated;
  terminated.assign(text);
  append_c(out, spec.c_spec, terminated.c_str());
}

void PrintfFormatter::append(std::string& out, const uint8_t* args, size_t len) const {
  if (len < args_size_) {
    thread_local std::vector<uint8_t> padded;
    padded.assign(args_size_, 0);
    if (len) std::memcpy(padded.data(), args, len);
    args = padded.data();
  }
  const auto& pieces = format_.pieces();
  for (size_t i = 0; i < pieces.size(); i++) {
    const FormatPiece& piece = pieces[i];
    size_t start = out.size();
    out += piece.literal;
    if (piece.prints_arg) {
      const Type& type = types_[i];
      const uint8_t* p = args + offsets_[i];
      if (type.is_string()) {
        const char* s = reinterpret_cast<const char*>(p);
        append_conversion(out, piece.spec, std::string_view(s, strnlen(s, type.size)));
      } else if (type.is_bool && piece.spec.conv == 's') {
        append_conversion(out, piece.spec, read_widened(p, type.size, false) ? "true" : "false");
      } else {
        append_conversion(out, piece.spec, read_widened(p, type.size, type.is_signed));
      }
    }
    // bpftrace streams each piece's C buffer, which ends at the first NUL.
    size_t nul = out.find('\0', start);
    if (nul != std::string::npos) out.resize(nul);
  }
  out += format_.tail();
}

}  // namespace rawprobe
