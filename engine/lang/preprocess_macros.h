// Macros: what #define records, and their expansion by C's rules (C11 6.10.3): arguments are
// expanded before they are substituted, except next to '#' (stringized) and '##' (pasted);
// the result is scanned again, and a macro is never expanded inside its own expansion (each
// token carries the names it came through, its "hide set", as in Prosser's algorithm).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/lang/pp_token.h"

namespace rawprobe::lang {

struct Macro {
  std::string name;
  bool function_like = false;
  bool variadic = false;            // the last parameter takes the rest (`...` or `name...`)
  std::vector<std::string> params;  // `...` alone is named __VA_ARGS__
  std::vector<PpToken> body;
};

// A problem at a token: `offset` is where it is in the file being read.
struct PpProblem {
  uint32_t offset = 0;
  std::string message;
};

// `line` is what follows `#define` on its line. On error, `problem` says what and where.
bool parse_define(const std::vector<PpToken>& line, Macro& macro, PpProblem& problem);

class MacroTable {
 public:
  const Macro* find(const std::string& name) const;
  void define(Macro macro) { macros_[macro.name] = std::move(macro); }
  void undefine(const std::string& name) { macros_.erase(name); }
  size_t size() const { return macros_.size(); }

 private:
  std::unordered_map<std::string, Macro> macros_;
};

// More tokens after those being expanded: the rest of the file, when a function-like macro's
// name ends an expansion or the text and its arguments follow.
class TokenFeed {
 public:
  virtual ~TokenFeed() = default;
  virtual bool next(PpToken& out) = 0;
  // True if the next token is '(' (consumes nothing).
  virtual bool next_is_lparen() = 0;
};

// What #if adds to expansion: `defined X`, `defined(X)` and `__has_include(<h>)` become 0 or 1
// before the names they mention can expand.
struct IfOperators {
  std::function<bool(const std::string& header, bool angled, bool next)> has_include;
};

class Expander {
 public:
  // Past this many tokens produced, an expansion is refused: `#define a b b` / `#define b c c`
  // ... doubles at each level, and no script needs a million tokens from one use.
  static constexpr size_t kMaxTokens = 1u << 20;
  static constexpr uint32_t kMaxDepth = 200;  // nested argument expansions

  Expander(const MacroTable& macros, const IfOperators* if_ops = nullptr) : macros_(macros), if_ops_(if_ops) {}

  // Expands `input` completely, reading function-like macros' arguments from `feed` where the
  // input runs out before them. False with `problem` set on an error.
  bool expand(std::vector<PpToken> input, TokenFeed* feed, std::vector<PpToken>& out, PpProblem& problem);

 private:
  bool run(std::deque<PpToken>& pending, TokenFeed* feed, std::vector<PpToken>& out, uint32_t depth);
  bool take(std::deque<PpToken>& pending, TokenFeed* feed, PpToken& t);
  bool collect_args(const Macro& m, const PpToken& name, std::deque<PpToken>& pending, TokenFeed* feed,
                    std::vector<std::vector<PpToken>>& args, PpToken& rparen);
  bool substitute(const Macro& m, const std::vector<std::vector<PpToken>>& args, const PpToken& name,
                  std::vector<PpToken>& out, uint32_t depth);
  bool if_operator(const PpToken& t, std::deque<PpToken>& pending, std::vector<PpToken>& out);
  bool fail(uint32_t offset, std::string message);

  const MacroTable& macros_;
  const IfOperators* if_ops_;
  size_t produced_ = 0;
  PpProblem problem_;
};

}  // namespace rawprobe::lang
