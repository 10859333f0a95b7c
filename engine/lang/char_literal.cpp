#include "engine/lang/char_literal.h"

namespace rawprobe::lang {

int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

namespace {

// One character or escape at text[pos], as the byte C stores; advances pos.
bool read_one(std::string_view text, uint32_t& pos, uint8_t& byte, std::string& error) {
  char c = text[pos++];
  if (c != '\\') {
    byte = static_cast<uint8_t>(c);
    return true;
  }
  if (pos >= text.size()) {
    error = "unterminated character literal: missing closing \"'\"";
    return false;
  }
  char e = text[pos++];
  switch (e) {
    case 'n': byte = '\n'; return true;
    case 't': byte = '\t'; return true;
    case 'r': byte = '\r'; return true;
    case 'a': byte = '\a'; return true;
    case 'b': byte = '\b'; return true;
    case 'f': byte = '\f'; return true;
    case 'v': byte = '\v'; return true;
    case 'e': byte = 0x1b; return true;  // a GNU extension, as in bpftrace strings
    case '\\': case '\'': case '"': case '?': byte = static_cast<uint8_t>(e); return true;
    case 'x': {
      uint32_t v = 0, n = 0;
      while (pos < text.size() && hex_digit_value(text[pos]) >= 0) {
        v = v * 16 + uint32_t(hex_digit_value(text[pos++]));
        if (++n > 2 && v > 0xff) {
          error = "hexadecimal escape sequence out of range (more than \\xff)";
          return false;
        }
      }
      if (n == 0) {
        error = "'\\x' escape needs hexadecimal digits";
        return false;
      }
      byte = static_cast<uint8_t>(v);
      return true;
    }
    default:
      if (e >= '0' && e <= '7') {
        uint32_t v = uint32_t(e - '0');
        for (int n = 1; n < 3 && pos < text.size() && text[pos] >= '0' && text[pos] <= '7'; ++n)
          v = v * 8 + uint32_t(text[pos++] - '0');
        if (v > 0xff) {
          error = "octal escape sequence out of range (more than \\377)";
          return false;
        }
        byte = static_cast<uint8_t>(v);
        return true;
      }
      error = std::string("unknown escape sequence '\\") + e + "' in character literal";
      return false;
  }
}

}  // namespace

CharLiteral read_char_literal(std::string_view text, uint32_t begin) {
  CharLiteral r;
  uint32_t pos = begin + 1;
  int count = 0;
  uint32_t value = 0;
  while (true) {
    if (pos >= text.size() || text[pos] == '\n') {
      r.error = "unterminated character literal: missing closing \"'\"";
      break;
    }
    if (text[pos] == '\'') {
      ++pos;
      if (count == 0) r.error = "empty character literal ''";
      break;
    }
    uint8_t byte = 0;
    if (!read_one(text, pos, byte, r.error)) break;
    if (++count > 4) {
      r.error = "character literal has more than 4 characters; use a string (\"...\")";
      break;
    }
    value = (value << 8) | byte;
  }
  r.end = pos;
  r.chars = count;
  // One character is a signed char widened to int; several make an int, as gcc does.
  r.value = count == 1 ? int64_t(int8_t(uint8_t(value))) : int64_t(int32_t(value));
  return r;
}

}  // namespace rawprobe::lang
