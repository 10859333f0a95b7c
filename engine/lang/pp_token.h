// The preprocessor's tokens (C's preprocessing tokens) and the cursor that reads them from a
// file's text. Whitespace and comments are not tokens; a token remembers whether some came
// before it, which is all that macro expansion and stringizing need to know of them.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rawprobe::lang {

enum class PpKind : uint8_t {
  Ident,   // letters, digits, '_' and '$' (gcc takes '$' in names, so `$sk` is one name)
  Number,  // a pp-number: 1, 0x1f, 1e6, 1_000, 10UL (C's rule, so '_' and suffixes stay inside)
  Char,    // 'a', L'a'
  String,  // "text", L"text"
  Punct,   // operators and punctuation, longest spelling first
  Other,   // any other character: '@', '`', a lone '\'
  Placemarker,  // an empty macro argument during '##' pasting; never printed
};

struct PpToken {
  PpKind kind = PpKind::Other;
  std::string text;
  bool space = false;    // whitespace or a comment came before it
  uint32_t offset = 0;   // where it starts in the file it came from
  // Macros whose expansion produced this token, which must not expand it again (C's rule
  // against recursion: the "hide set").
  std::vector<std::string> hide;

  bool is(PpKind k, std::string_view t) const { return kind == k && text == t; }
  bool hidden(std::string_view name) const;
  void add_hidden(const std::string& name);
};

// Reads tokens from text[pos, end).
class PpLexer {
 public:
  PpLexer(std::string_view text, uint32_t pos, uint32_t end) : text_(text), pos_(pos), end_(end) {}

  // Skips whitespace and comments (newlines too unless `stop_at_newline`), then reads one
  // token. False at the end (or at a newline when stopping there).
  bool next(PpToken& out, bool stop_at_newline);
  // Skips whitespace and comments; true if any was skipped. A newline stops it when asked.
  bool skip_space(bool stop_at_newline);
  uint32_t pos() const { return pos_; }
  void set_pos(uint32_t pos) { pos_ = pos; }
  bool at_end() const { return pos_ >= end_; }
  // An unterminated /* comment seen while skipping (its offset), or UINT32_MAX.
  uint32_t open_comment() const { return open_comment_; }

 private:
  std::string_view text_;
  uint32_t pos_;
  uint32_t end_;
  uint32_t open_comment_ = UINT32_MAX;
};

bool pp_ident_start(char c);
bool pp_ident_char(char c);
// True when `text` is exactly one preprocessing token (used to check '##' pastes).
bool is_one_pp_token(std::string_view text, PpKind* kind = nullptr);
// The spelling of every token of `text`, in order (comments and whitespace dropped).
std::vector<std::string> pp_token_texts(std::string_view text);
// Tokens written back as text, with one space where the source had whitespace, and one more
// where two tokens would otherwise run together into a different token.
std::string spell_tokens(const std::vector<PpToken>& tokens);
// Whether printing `b` right after `a` would make them lex differently.
bool tokens_would_merge(const PpToken& a, const PpToken& b);

}  // namespace rawprobe::lang
