#include "engine/lang/lexer.h"

#include <algorithm>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <iterator>

#include "engine/lang/char_literal.h"

namespace rawprobe::lang {
namespace {

struct OpSpelling {
  const char* text;
  Tok kind;
};
// Longest spellings first so "<<=" wins over "<<" and "<".
constexpr OpSpelling kOps[] = {
    {"<<=", Tok::ShlAssign}, {">>=", Tok::ShrAssign}, {"->", Tok::Arrow},
    {"++", Tok::PlusPlus},   {"--", Tok::MinusMinus}, {"+=", Tok::PlusAssign},
    {"-=", Tok::MinusAssign}, {"*=", Tok::StarAssign}, {"/=", Tok::SlashAssign},
    {"%=", Tok::PercentAssign}, {"&=", Tok::AmpAssign}, {"|=", Tok::PipeAssign},
    {"^=", Tok::CaretAssign}, {"<<", Tok::Shl}, {">>", Tok::Shr}, {"<=", Tok::Le},
    {">=", Tok::Ge}, {"==", Tok::EqEq}, {"!=", Tok::Ne}, {"&&", Tok::AndAnd}, {"||", Tok::OrOr},
    {"{", Tok::LBrace}, {"}", Tok::RBrace}, {"(", Tok::LParen}, {")", Tok::RParen},
    {"[", Tok::LBracket}, {"]", Tok::RBracket}, {",", Tok::Comma}, {";", Tok::Semi},
    {".", Tok::Dot}, {"?", Tok::Question}, {":", Tok::Colon}, {"=", Tok::Assign},
    {"+", Tok::Plus}, {"-", Tok::Minus}, {"*", Tok::Star}, {"/", Tok::Slash},
    {"%", Tok::Percent}, {"&", Tok::Amp}, {"|", Tok::Pipe}, {"^", Tok::Caret},
    {"~", Tok::Tilde}, {"!", Tok::Bang}, {"<", Tok::Lt}, {">", Tok::Gt},
};

struct Keyword {
  const char* text;
  Tok kind;
};
constexpr Keyword kKeywords[] = {
    {"if", Tok::KwIf},         {"else", Tok::KwElse},   {"while", Tok::KwWhile},
    {"unroll", Tok::KwUnroll}, {"return", Tok::KwReturn}, {"break", Tok::KwBreak},
    {"continue", Tok::KwContinue},
};

bool ident_char(char c);

// bpftrace 0.26's duration literals (`10ms`, `1m`): an integer in nanoseconds. Returns the
// multiplier and the suffix's length when one starts at `at` and ends the word; {1, 0} if not.
std::pair<uint64_t, uint32_t> duration_suffix(const std::string& text, uint32_t at) {
  static const struct { const char* suffix; uint64_t ns; } kUnits[] = {
      {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000ull},
      {"m", 60000000000ull}, {"h", 3600000000000ull}, {"d", 86400000000000ull},
  };
  for (const auto& u : kUnits) {
    uint32_t n = uint32_t(std::strlen(u.suffix));
    if (text.compare(at, n, u.suffix) == 0 && !(at + n < text.size() && ident_char(text[at + n])))
      return {u.ns, n};
  }
  return {1, 0};
}

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

const char* tok_name(Tok t) {
  switch (t) {
    case Tok::End: return "end of input";
    case Tok::Invalid: return "invalid token";
    case Tok::Ident: return "identifier";
    case Tok::MapName: return "map";
    case Tok::VarName: return "variable";
    case Tok::Positional: return "positional parameter";
    case Tok::ParamCount: return "'$#'";
    case Tok::Integer: return "integer";
    case Tok::String: return "string";
    case Tok::AttachPoint: return "probe";
    case Tok::KwIf: return "'if'";
    case Tok::KwElse: return "'else'";
    case Tok::KwWhile: return "'while'";
    case Tok::KwUnroll: return "'unroll'";
    case Tok::KwReturn: return "'return'";
    case Tok::KwBreak: return "'break'";
    case Tok::KwContinue: return "'continue'";
    default: break;
  }
  for (const OpSpelling& op : kOps)
    if (op.kind == t) {
      static thread_local std::string quoted;
      quoted = std::string("'") + op.text + "'";
      return quoted.c_str();
    }
  return "token";
}

Token Lexer::make(Tok k, uint32_t begin) const {
  Token t;
  t.kind = k;
  t.span = {begin, pos_};
  return t;
}

Token Lexer::invalid(uint32_t begin, std::string message) const {
  Token t = make(Tok::Invalid, begin);
  t.text = std::move(message);
  return t;
}

void Lexer::skip_trivia() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
      size_t close = text_.find("*/", pos_ + 2);
      if (close == std::string::npos) {
        if (trivia_error_.empty()) {
          trivia_error_ = "unterminated comment: '/*' has no closing '*/'";
          trivia_error_span_ = {pos_, pos_ + 2};
        }
        pos_ = text_.size();
      } else {
        pos_ = static_cast<uint32_t>(close + 2);
      }
    } else {
      break;
    }
  }
}

char Lexer::peek_char() {
  skip_trivia();
  return pos_ < text_.size() ? text_[pos_] : 0;
}

bool Lexer::at_end() {
  skip_trivia();
  return pos_ >= text_.size();
}

Token Lexer::next() {
  skip_trivia();
  uint32_t begin = pos_;
  if (pos_ >= text_.size()) return make(Tok::End, begin);
  char c = text_[pos_];
  if (std::isdigit(static_cast<unsigned char>(c))) return number(begin);
  if (c == '"') return string_literal(begin);
  if (c == '\'') return char_literal(begin);
  if (ident_start(c)) return word(begin);
  if (c == '$' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '#') {
    pos_ += 2;
    return make(Tok::ParamCount, begin);
  }
  if (c == '$' && pos_ + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_ + 1]))) {
    ++pos_;
    uint64_t n = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (n > (UINT64_MAX - 9) / 10) return invalid(begin, "positional parameter number too large");
      n = n * 10 + uint64_t(text_[pos_++] - '0');
    }
    if (pos_ < text_.size() && ident_char(text_[pos_]))
      return invalid(begin, "a positional parameter is '$' and digits only ($1, $2, ...)");
    Token t = make(Tok::Positional, begin);
    t.text = text_.substr(begin, pos_ - begin);
    t.value = n;
    return t;
  }
  if (c == '@' || c == '$') {
    ++pos_;
    while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
    Token t = make(c == '@' ? Tok::MapName : Tok::VarName, begin);
    t.text = text_.substr(begin, pos_ - begin);
    if (c == '$' && t.text.size() == 1) return invalid(begin, "'$' must be followed by a variable name");
    return t;
  }
  for (const OpSpelling& op : kOps) {
    size_t n = std::strlen(op.text);
    if (text_.compare(pos_, n, op.text) == 0) {
      pos_ += n;
      return make(op.kind, begin);
    }
  }
  ++pos_;
  std::string shown = std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "\\x" + std::to_string(static_cast<unsigned char>(c));
  return invalid(begin, "unexpected character '" + shown + "'");
}

Token Lexer::word(uint32_t begin) {
  while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
  std::string w = text_.substr(begin, pos_ - begin);
  for (const Keyword& k : kKeywords)
    if (w == k.text) return make(k.kind, begin);
  Token t = make(Tok::Ident, begin);
  t.text = std::move(w);
  return t;
}

// Integer literals as bpftrace 0.17 reads them (tests/kernel/oracle_literal_test.cpp compares):
//   0x1f, 0X1F      hexadecimal: hex digits only, no '_' and no suffix
//   017             octal when it starts with 0, as in C (017 is 15)
//   1_000_000       '_' between digits
//   10u 10l 10ul 10ull 10ll (any case)   C's suffixes, read and ignored
//   1e6, 1E6        a one-digit coefficient times a power of ten, at most 10^16
Token Lexer::number(uint32_t begin) {
  auto bad = [&](std::string message) {
    while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
    return invalid(begin, std::move(message));
  };
  auto is_digit = [&](uint32_t at) { return at < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at])); };
  if (text_[pos_] == '0' && pos_ + 1 < text_.size() && (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X')) {
    pos_ += 2;
    uint64_t value = 0;
    bool overflow = false, digits = false;
    for (int d; pos_ < text_.size() && (d = hex_digit(text_[pos_])) >= 0; ++pos_, digits = true) {
      if (value >> 60) overflow = true;
      value = value * 16 + uint64_t(d);
    }
    if (!digits) return bad("hexadecimal literal needs digits after '0x'");
    if (pos_ < text_.size() && ident_char(text_[pos_]))
      return bad("invalid hexadecimal literal '" + text_.substr(begin, pos_ - begin) + "...': a hexadecimal literal has no '_' separators or suffixes in bpftrace");
    if (overflow) return bad("integer literal does not fit in 64 bits");
    Token t = make(Tok::Integer, begin);
    t.value = value;
    return t;
  }
  // Digits with '_' between them, then an optional suffix; the digits without the '_'s.
  auto digits_part = [&](std::string& digits) {
    while (is_digit(pos_) || (text_[pos_] == '_' && (is_digit(pos_ + 1) || (pos_ + 1 < text_.size() && text_[pos_ + 1] == '_')))) {
      if (text_[pos_] != '_') digits += text_[pos_];
      ++pos_;
    }
    uint32_t s = pos_;
    if (duration_suffix(text_, s).second) return;  // `5us` is five microseconds, not 5u + 's'
    if (s < text_.size() && (text_[s] == 'u' || text_[s] == 'U')) ++s;
    for (int l = 0; l < 2 && s < text_.size() && (text_[s] == 'l' || text_[s] == 'L'); ++l) ++s;
    pos_ = s;
  };
  std::string coefficient, exponent;
  digits_part(coefficient);
  bool scientific = pos_ + 1 < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E') && is_digit(pos_ + 1);
  if (scientific) {
    ++pos_;
    digits_part(exponent);
  }
  auto [scale, suffix_len] = scientific ? std::pair<uint64_t, uint32_t>{1, 0} : duration_suffix(text_, pos_);
  pos_ += suffix_len;
  if (pos_ < text_.size() && ident_char(text_[pos_]))
    return bad("invalid integer literal '" + text_.substr(begin, pos_ - begin + 1) + "...'");
  std::string written = text_.substr(begin, pos_ - begin);
  Token t = make(Tok::Integer, begin);
  if (scientific) {
    if (coefficient.size() != 1)
      return invalid(begin, "the coefficient of a scientific literal must be one digit (0 to 9), not '" + coefficient + "'");
    uint64_t power = 0;
    for (char c : exponent) power = std::min<uint64_t>(power * 10 + uint64_t(c - '0'), 1000);
    // bpftrace 0.17's bound: 10^16 is the largest power it accepts.
    if (power > 16) return invalid(begin, "the exponent of '" + written + "' is too large: at most 16 (1e16)");
    t.value = uint64_t(coefficient[0] - '0');
    for (uint64_t i = 0; i < power; ++i) t.value *= 10;
    return t;
  }
  int base = coefficient.size() > 1 && coefficient[0] == '0' ? 8 : 10;
  for (char c : coefficient) {
    uint64_t d = uint64_t(c - '0');
    if (d >= uint64_t(base)) return invalid(begin, "invalid digit '" + std::string(1, c) + "' in octal literal '" + written + "' (a leading 0 makes it octal)");
    if (t.value > (UINT64_MAX - d) / uint64_t(base)) return invalid(begin, "integer literal does not fit in 64 bits");
    t.value = t.value * uint64_t(base) + d;
  }
  if (t.value > UINT64_MAX / scale) return invalid(begin, "duration '" + written + "' does not fit in 64 bits of nanoseconds");
  t.value *= scale;
  return t;
}

// 'a', '\n', '\x41': the character's byte value (0 to 255). bpftrace 0.17 has no character
// literals (it stops at the quote); rawprobe reads them as C does, as the ASCII code to write.
Token Lexer::char_literal(uint32_t begin) {
  CharLiteral c = read_char_literal(text_, begin);
  pos_ = std::max(c.end, begin + 1);
  if (!c.error.empty()) return invalid(begin, c.error);
  if (c.chars > 1)
    return invalid(begin, "a character literal holds one character; use a string (\"...\") for more");
  Token t = make(Tok::Integer, begin);
  t.value = uint64_t(c.value) & 0xff;
  return t;
}

Token Lexer::string_literal(uint32_t begin) {
  ++pos_;  // opening quote
  std::string value;
  while (true) {
    if (pos_ >= text_.size() || text_[pos_] == '\n')
      return invalid(begin, "unterminated string literal: missing closing '\"'");
    char c = text_[pos_++];
    if (c == '"') break;
    if (c != '\\') {
      value += c;
      continue;
    }
    if (pos_ >= text_.size()) return invalid(begin, "unterminated string literal: missing closing '\"'");
    char e = text_[pos_++];
    switch (e) {
      case 'n': value += '\n'; break;
      case 't': value += '\t'; break;
      case 'r': value += '\r'; break;
      case 'a': value += '\a'; break;
      case 'b': value += '\b'; break;
      case 'f': value += '\f'; break;
      case 'v': value += '\v'; break;
      case 'e': value += '\x1b'; break;
      case '\\': value += '\\'; break;
      case '"': value += '"'; break;
      case '\'': value += '\''; break;
      case 'x': {
        int v = 0, n = 0;
        while (n < 2 && pos_ < text_.size() && hex_digit(text_[pos_]) >= 0) v = v * 16 + hex_digit(text_[pos_++]), ++n;
        if (n == 0) return invalid(pos_ - 2, "'\\x' escape needs hexadecimal digits");
        value += static_cast<char>(v);
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          int v = e - '0', n = 1;
          while (n < 3 && pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '7') v = v * 8 + (text_[pos_++] - '0'), ++n;
          if (v > 255) return invalid(pos_ - n - 1, "octal escape is larger than \\377");
          value += static_cast<char>(v);
        } else {
          uint32_t at = pos_ - 2;
          // Skip to the end of the string so the parser resumes after it.
          while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n') ++pos_;
          if (pos_ < text_.size() && text_[pos_] == '"') ++pos_;
          Token bad = invalid(at, std::string("unknown escape sequence '\\") + e + "' in string");
          bad.span = {at, at + 2};
          return bad;
        }
    }
  }
  Token t = make(Tok::String, begin);
  t.text = std::move(value);
  return t;
}

Token Lexer::attach_point() {
  skip_trivia();
  uint32_t begin = pos_;
  bool in_quotes = false;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (in_quotes) {
      if (c == '\\' && pos_ + 1 < text_.size()) ++pos_;
      else if (c == '"') in_quotes = false;
      else if (c == '\n') break;
    } else if (c == '"') {
      in_quotes = true;
    } else if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == '{') {
      break;
    } else if (c == '/' && pos_ + 1 < text_.size() && (text_[pos_ + 1] == '/' || text_[pos_ + 1] == '*') &&
               pos_ > begin && text_[pos_ - 1] != ':') {
      break;  // a comment right after the spec
    }
    ++pos_;
  }
  if (in_quotes) return invalid(begin, "unterminated quoted name in probe");
  Token t = make(Tok::AttachPoint, begin);
  t.text = text_.substr(begin, pos_ - begin);
  return t;
}

}  // namespace rawprobe::lang
