// Hand-written lexer over a SourceFile. It is a cursor: the parser pulls one token at a time
// and may save/restore the position (mark/reset) to look ahead, e.g. to tell a cast
// `(uint8)x` from a parenthesised expression.
#pragma once
#include <cstdint>
#include <string>

#include "engine/lang/source.h"
#include "engine/lang/token.h"

namespace rawprobe::lang {

class Lexer {
 public:
  explicit Lexer(const SourceFile& src) : text_(src.text()) {}

  Token next();
  // At a probe header: the raw text of one attach point, up to whitespace, ',', '{' or a
  // predicate's '/' after whitespace. Double-quoted parts (C++ names) are kept whole.
  Token attach_point();
  // Skips whitespace and comments; reports an unterminated /* */ comment.
  void skip_trivia();
  // The next character after trivia, without consuming anything (0 at end).
  char peek_char();
  bool at_end();
  uint32_t offset() const { return pos_; }
  uint32_t mark() const { return pos_; }
  void reset(uint32_t mark) { pos_ = mark; }
  // An unterminated comment seen by skip_trivia, reported once by the parser.
  const std::string& trivia_error() const { return trivia_error_; }
  Span trivia_error_span() const { return trivia_error_span_; }

 private:
  Token make(Tok k, uint32_t begin) const;
  Token number(uint32_t begin);
  Token string_literal(uint32_t begin);
  Token char_literal(uint32_t begin);
  Token word(uint32_t begin);
  Token invalid(uint32_t begin, std::string message) const;

  const std::string& text_;
  uint32_t pos_ = 0;
  std::string trivia_error_;
  Span trivia_error_span_;
};

}  // namespace rawprobe::lang
