// C character constants ('a', '\n', '\x41', '\101'), read by the preprocessor's #if and by the
// script lexer. The value is C's on x86_64 and i386, where plain char is signed: '\xff' is -1
// (gcc gives the same), and a multi-character constant 'ab' is ('a' << 8) | 'b'.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace rawprobe::lang {

struct CharLiteral {
  int64_t value = 0;
  int chars = 0;      // characters (an escape is one)
  uint32_t end = 0;   // one past the closing quote (or where reading stopped on an error)
  std::string error;  // empty when the literal is sound
};

// 0-15 for a hexadecimal digit, -1 for anything else.
int hex_digit_value(char c);

// `text[begin]` is the opening quote.
CharLiteral read_char_literal(std::string_view text, uint32_t begin);

}  // namespace rawprobe::lang
