#include "engine/lang/pp_token.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace rawprobe::lang {
namespace {

// Longest first, so "<<=" wins over "<<" and "<".
constexpr const char* kPuncts[] = {
    "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=",  "%=",  "+=",  "-=", "&=", "^=", "|=", "##", "[",  "]",  "(",  ")",  "{",  "}",  ".",
    "&",   "*",   "+",   "-",  "~",  "!",  "/",  "%",  "<",  ">",  "^",  "|",  "?",  ":",  ";",
    "=",   ",",   "#",
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A string or character literal from its opening quote; stops at the line's end when it is
// not closed (the caller reports nothing: C leaves a lone quote to later stages).
uint32_t quoted_end(std::string_view text, uint32_t pos, uint32_t end) {
  char quote = text[pos++];
  while (pos < end && text[pos] != '\n') {
    if (text[pos] == '\\' && pos + 1 < end) {
      pos += 2;
      continue;
    }
    if (text[pos++] == quote) return pos;
  }
  return pos;
}

// Length of the literal prefix (L, u, U, u8) before a quote at text[pos], or 0.
uint32_t literal_prefix(std::string_view text, uint32_t pos, uint32_t end) {
  for (std::string_view p : {"u8", "L", "u", "U"})
    if (text.substr(pos, p.size()) == p && pos + p.size() < end &&
        (text[pos + p.size()] == '\'' || text[pos + p.size()] == '"'))
      return uint32_t(p.size());
  return 0;
}

}  // namespace

bool pp_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool pp_ident_char(char c) { return pp_ident_start(c) || is_digit(c); }

bool PpToken::hidden(std::string_view name) const {
  return std::find(hide.begin(), hide.end(), name) != hide.end();
}

void PpToken::add_hidden(const std::string& name) {
  if (!hidden(name)) hide.push_back(name);
}

bool PpLexer::skip_space(bool stop_at_newline) {
  uint32_t start = pos_;
  while (pos_ < end_) {
    char c = text_[pos_];
    if (c == '\n') {
      if (stop_at_newline) break;
      ++pos_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (c == '\\' && pos_ + 1 < end_ && text_[pos_ + 1] == '\n') {
      pos_ += 2;  // a line continued: one logical line
    } else if (c == '/' && pos_ + 1 < end_ && text_[pos_ + 1] == '/') {
      while (pos_ < end_ && text_[pos_] != '\n') ++pos_;
    } else if (c == '/' && pos_ + 1 < end_ && text_[pos_ + 1] == '*') {
      size_t close = text_.substr(0, end_).find("*/", pos_ + 2);
      if (close == std::string_view::npos) {
        open_comment_ = pos_;
        pos_ = end_;
      } else {
        pos_ = uint32_t(close + 2);
      }
    } else {
      break;
    }
  }
  return pos_ != start;
}

bool PpLexer::next(PpToken& out, bool stop_at_newline) {
  out = PpToken{};
  out.space = skip_space(stop_at_newline);
  if (pos_ >= end_ || text_[pos_] == '\n') return false;
  uint32_t begin = pos_;
  out.offset = begin;
  char c = text_[pos_];
  if (uint32_t p = pp_ident_start(c) ? literal_prefix(text_, pos_, end_) : 0; p || c == '\'' || c == '"') {
    char quote = text_[pos_ + p];
    pos_ = quoted_end(text_, pos_ + p, end_);
    out.kind = quote == '\'' ? PpKind::Char : PpKind::String;
  } else if (pp_ident_start(c)) {
    while (pos_ < end_ && pp_ident_char(text_[pos_])) ++pos_;
    out.kind = PpKind::Ident;
  } else if (is_digit(c) || (c == '.' && pos_ + 1 < end_ && is_digit(text_[pos_ + 1]))) {
    ++pos_;
    while (pos_ < end_) {
      char d = text_[pos_];
      if ((d == '+' || d == '-') && std::strchr("eEpP", text_[pos_ - 1])) ++pos_;
      else if (pp_ident_char(d) || d == '.') ++pos_;
      else break;
    }
    out.kind = PpKind::Number;
  } else {
    out.kind = PpKind::Other;
    pos_ += 1;
    for (const char* p : kPuncts) {
      size_t n = std::strlen(p);
      if (text_.substr(begin, n) == p && begin + n <= end_) {
        out.kind = PpKind::Punct;
        pos_ = uint32_t(begin + n);
        break;
      }
    }
  }
  out.text = std::string(text_.substr(begin, pos_ - begin));
  return true;
}

bool is_one_pp_token(std::string_view text, PpKind* kind) {
  PpLexer lex(text, 0, uint32_t(text.size()));
  PpToken t;
  if (!lex.next(t, false) || t.space || lex.pos() != text.size()) return false;
  // An unclosed quote "reads" as a literal but is not one.
  if ((t.kind == PpKind::Char || t.kind == PpKind::String) && (t.text.size() < 2 || t.text.back() != t.text[t.text.find_first_of("'\"")]))
    return false;
  if (kind) *kind = t.kind;
  return true;
}

std::vector<std::string> pp_token_texts(std::string_view text) {
  std::vector<std::string> out;
  PpLexer lex(text, 0, uint32_t(text.size()));
  PpToken t;
  while (lex.next(t, false)) out.push_back(t.text);
  return out;
}

bool tokens_would_merge(const PpToken& a, const PpToken& b) {
  if (a.text.empty() || b.text.empty()) return false;
  std::string joined = a.text + b.text;
  PpLexer lex(joined, 0, uint32_t(joined.size()));
  PpToken first;
  return !lex.next(first, false) || first.text != a.text;
}

std::string spell_tokens(const std::vector<PpToken>& tokens) {
  std::string out;
  const PpToken* prev = nullptr;
  for (const PpToken& t : tokens) {
    if (t.kind == PpKind::Placemarker) continue;
    if (prev && (t.space || tokens_would_merge(*prev, t))) out += ' ';
    out += t.text;
    prev = &t;
  }
  return out;
}

}  // namespace rawprobe::lang
