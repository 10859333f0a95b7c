#include "engine/lang/preprocess_macros.h"

#include <algorithm>

namespace rawprobe::lang {
namespace {

bool is_punct(const PpToken& t, std::string_view text) { return t.is(PpKind::Punct, text); }

int param_index(const Macro& m, const PpToken& t) {
  if (!m.function_like || t.kind != PpKind::Ident) return -1;
  auto it = std::find(m.params.begin(), m.params.end(), t.text);
  return it == m.params.end() ? -1 : int(it - m.params.begin());
}

// `#param`: the argument's spelling as a string literal, with one space where the argument had
// whitespace, and quotes and backslashes inside its literals escaped.
PpToken stringize(const std::vector<PpToken>& arg, const PpToken& hash) {
  std::string s = "\"";
  for (size_t i = 0; i < arg.size(); ++i) {
    if (i > 0 && arg[i].space) s += ' ';
    bool literal = arg[i].kind == PpKind::String || arg[i].kind == PpKind::Char;
    for (char c : arg[i].text) {
      if (literal && (c == '"' || c == '\\')) s += '\\';
      s += c;
    }
  }
  s += '"';
  PpToken t;
  t.kind = PpKind::String;
  t.text = std::move(s);
  t.space = hash.space;
  t.offset = hash.offset;
  return t;
}

// The names both hide sets hold (C's rule for a function-like macro: what hid both its name and
// the ')' that closed its arguments stays hidden).
std::vector<std::string> intersect(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> both;
  for (const std::string& n : a)
    if (std::find(b.begin(), b.end(), n) != b.end()) both.push_back(n);
  return both;
}

// The __has_* operators of gcc and clang that #if may use; headers test them with #ifdef.
bool has_operator(const std::string& name) {
  static const std::string_view kNames[] = {"__has_include", "__has_include_next", "__has_attribute",
                                            "__has_cpp_attribute", "__has_c_attribute", "__has_builtin",
                                            "__has_feature", "__has_extension", "__has_warning"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

}  // namespace

bool parse_define(const std::vector<PpToken>& line, Macro& macro, PpProblem& problem) {
  auto fail = [&](uint32_t offset, std::string message) {
    problem = {offset, std::move(message)};
    return false;
  };
  if (line.empty()) return fail(0, "#define needs a macro name");
  if (line[0].kind != PpKind::Ident) return fail(line[0].offset, "a macro name must be an identifier, not '" + line[0].text + "'");
  if (line[0].text == "defined") return fail(line[0].offset, "'defined' cannot be used as a macro name");
  macro = Macro{};
  macro.name = line[0].text;
  size_t i = 1;
  if (i < line.size() && is_punct(line[i], "(") && !line[i].space) {
    macro.function_like = true;
    ++i;
    bool closed = false;
    while (i < line.size() && !closed) {
      const PpToken& t = line[i++];
      if (is_punct(t, ")") && macro.params.empty() && !macro.variadic) {
        closed = true;
        break;
      }
      std::string name;
      if (is_punct(t, "...")) {
        name = "__VA_ARGS__";
        macro.variadic = true;
      } else if (t.kind == PpKind::Ident && t.text != "__VA_ARGS__") {
        name = t.text;
        if (i < line.size() && is_punct(line[i], "...")) {
          macro.variadic = true;
          ++i;
        }
      } else {
        return fail(t.offset, "expected a parameter name in the parameter list of macro '" + macro.name + "', found '" + t.text + "'");
      }
      if (std::find(macro.params.begin(), macro.params.end(), name) != macro.params.end())
        return fail(t.offset, "duplicate macro parameter '" + name + "'");
      macro.params.push_back(name);
      if (i >= line.size()) break;
      const PpToken& sep = line[i++];
      if (is_punct(sep, ")")) closed = true;
      else if (!is_punct(sep, ",") || macro.variadic)
        return fail(sep.offset, "expected ',' or ')' in the parameter list of macro '" + macro.name + "', found '" + sep.text + "'");
    }
    if (!closed) return fail(line[0].offset, "missing ')' in the parameter list of macro '" + macro.name + "'");
  } else if (i < line.size() && !line[i].space) {
    return fail(line[i].offset, "a space is needed between the macro name '" + macro.name + "' and its value");
  }
  macro.body.assign(line.begin() + long(i), line.end());
  if (!macro.body.empty()) {
    macro.body.front().space = false;
    if (is_punct(macro.body.front(), "##")) return fail(macro.body.front().offset, "'##' cannot begin a macro's value");
    if (is_punct(macro.body.back(), "##")) return fail(macro.body.back().offset, "'##' cannot end a macro's value");
  }
  if (macro.function_like)
    for (size_t k = 0; k < macro.body.size(); ++k)
      if (is_punct(macro.body[k], "#") && (k + 1 >= macro.body.size() || param_index(macro, macro.body[k + 1]) < 0))
        return fail(macro.body[k].offset, "'#' in macro '" + macro.name + "' is not followed by a parameter name");
  return true;
}

const Macro* MacroTable::find(const std::string& name) const {
  auto it = macros_.find(name);
  return it == macros_.end() ? nullptr : &it->second;
}

bool Expander::fail(uint32_t offset, std::string message) {
  problem_ = {offset, std::move(message)};
  return false;
}

bool Expander::expand(std::vector<PpToken> input, TokenFeed* feed, std::vector<PpToken>& out, PpProblem& problem) {
  std::deque<PpToken> pending(std::make_move_iterator(input.begin()), std::make_move_iterator(input.end()));
  produced_ = 0;
  bool ok = run(pending, feed, out, 0);
  if (!ok) problem = problem_;
  std::erase_if(out, [](const PpToken& t) { return t.kind == PpKind::Placemarker; });
  return ok;
}

bool Expander::take(std::deque<PpToken>& pending, TokenFeed* feed, PpToken& t) {
  if (!pending.empty()) {
    t = std::move(pending.front());
    pending.pop_front();
    return true;
  }
  return feed && feed->next(t);
}

bool Expander::run(std::deque<PpToken>& pending, TokenFeed* feed, std::vector<PpToken>& out, uint32_t depth) {
  if (depth > kMaxDepth)
    return fail(pending.empty() ? 0 : pending.front().offset, "macro arguments nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)");
  while (!pending.empty()) {
    PpToken t = std::move(pending.front());
    pending.pop_front();
    if (if_ops_ && t.kind == PpKind::Ident && (t.text == "defined" || has_operator(t.text))) {
      if (!if_operator(t, pending, out)) return false;
      continue;
    }
    const Macro* m = t.kind == PpKind::Ident && !t.hidden(t.text) ? macros_.find(t.text) : nullptr;
    if (!m) {
      out.push_back(std::move(t));
      continue;
    }
    std::vector<std::string> hide = t.hide;
    std::vector<std::vector<PpToken>> args;
    if (m->function_like) {
      bool call = pending.empty() ? (feed && feed->next_is_lparen()) : is_punct(pending.front(), "(");
      if (!call) {
        out.push_back(std::move(t));
        continue;
      }
      PpToken rparen;
      if (!collect_args(*m, t, pending, feed, args, rparen)) return false;
      hide = intersect(t.hide, rparen.hide);
    }
    hide.push_back(m->name);
    std::vector<PpToken> replacement;
    if (!substitute(*m, args, t, replacement, depth)) return false;
    produced_ += replacement.size();
    if (produced_ > kMaxTokens)
      return fail(t.offset, "the expansion of macro '" + m->name + "' is too large (more than " + std::to_string(kMaxTokens) + " tokens)");
    for (PpToken& r : replacement) {
      for (const std::string& h : hide) r.add_hidden(h);
      r.offset = t.offset;
    }
    if (!replacement.empty()) replacement.front().space = t.space;
    pending.insert(pending.begin(), std::make_move_iterator(replacement.begin()), std::make_move_iterator(replacement.end()));
  }
  return true;
}

bool Expander::collect_args(const Macro& m, const PpToken& name, std::deque<PpToken>& pending, TokenFeed* feed,
                            std::vector<std::vector<PpToken>>& args, PpToken& rparen) {
  PpToken t;
  take(pending, feed, t);  // '('
  args.emplace_back();
  int depth = 0;
  while (true) {
    if (!take(pending, feed, t))
      return fail(name.offset, "unterminated argument list of macro '" + m.name + "': missing ')'");
    if (is_punct(t, "(")) {
      ++depth;
    } else if (is_punct(t, ")")) {
      if (depth == 0) break;
      --depth;
    } else if (is_punct(t, ",") && depth == 0 && !(m.variadic && args.size() == m.params.size())) {
      args.emplace_back();
      continue;
    }
    args.back().push_back(std::move(t));
  }
  rparen = std::move(t);
  if (m.params.empty() && args.size() == 1 && args[0].empty()) args.clear();
  if (m.variadic && args.size() + 1 == m.params.size()) args.emplace_back();  // no variadic part
  if (args.size() != m.params.size())
    return fail(name.offset, "macro '" + m.name + "' takes " + std::to_string(m.params.size()) + " argument" +
                                 (m.params.size() == 1 ? "" : "s") + ", given " + std::to_string(args.size()));
  for (std::vector<PpToken>& a : args)
    if (!a.empty()) a.front().space = false;
  return true;
}

bool Expander::substitute(const Macro& m, const std::vector<std::vector<PpToken>>& args, const PpToken& name,
                          std::vector<PpToken>& out, uint32_t depth) {
  std::vector<std::vector<PpToken>> expanded(args.size());
  std::vector<bool> done(args.size(), false);
  auto expanded_arg = [&](size_t p, const std::vector<PpToken>*& result) {
    if (!done[p]) {
      std::deque<PpToken> pending(args[p].begin(), args[p].end());
      if (!run(pending, nullptr, expanded[p], depth + 1)) return false;
      done[p] = true;
    }
    result = &expanded[p];
    return true;
  };
  const std::vector<PpToken>& body = m.body;
  for (size_t i = 0; i < body.size(); ++i) {
    const PpToken& b = body[i];
    bool pasted_next = i + 1 < body.size() && is_punct(body[i + 1], "##");
    int p = param_index(m, b);
    if (m.function_like && is_punct(b, "#") && i + 1 < body.size()) {
      out.push_back(stringize(args[size_t(param_index(m, body[i + 1]))], b));
      ++i;
    } else if (is_punct(b, "##") && i + 1 < body.size()) {
      const PpToken& r = body[++i];
      int rp = param_index(m, r);
      std::vector<PpToken> right = rp >= 0 ? args[size_t(rp)] : std::vector<PpToken>{r};
      // GNU's `, ## __VA_ARGS__`: the comma goes when there are no variadic arguments.
      if (rp >= 0 && m.variadic && size_t(rp) + 1 == m.params.size() && !out.empty() && is_punct(out.back(), ",")) {
        if (right.empty()) out.pop_back();
        out.insert(out.end(), right.begin(), right.end());
        continue;
      }
      if (right.empty()) continue;  // pasting an empty argument leaves the left side
      PpToken& left = out.back();
      if (left.kind == PpKind::Placemarker) {
        bool space = left.space;
        left = right.front();
        left.space = space;
      } else {
        std::string joined = left.text + right.front().text;
        PpKind kind;
        if (!is_one_pp_token(joined, &kind))
          return fail(name.offset, "pasting '" + left.text + "' and '" + right.front().text + "' in macro '" + m.name +
                                       "' does not give one token");
        left.text = std::move(joined);
        left.kind = kind;
      }
      out.insert(out.end(), right.begin() + 1, right.end());
    } else if (p >= 0) {
      const std::vector<PpToken>* arg = &args[size_t(p)];
      if (!pasted_next && !expanded_arg(size_t(p), arg)) return false;
      if (arg->empty()) {
        if (pasted_next) out.push_back(PpToken{PpKind::Placemarker, "", b.space, b.offset, {}});
        continue;
      }
      size_t first = out.size();
      out.insert(out.end(), arg->begin(), arg->end());
      out[first].space = b.space;
    } else {
      out.push_back(b);
    }
  }
  return true;
}

bool Expander::if_operator(const PpToken& t, std::deque<PpToken>& pending, std::vector<PpToken>& out) {
  auto next = [&](PpToken& n) { return take(pending, nullptr, n); };
  PpToken result{PpKind::Number, "0", t.space, t.offset, {}};
  PpToken n;
  if (t.text == "defined") {
    bool paren = !pending.empty() && is_punct(pending.front(), "(");
    if (paren) next(n);
    if (!next(n) || n.kind != PpKind::Ident) return fail(t.offset, "'defined' needs a macro name: defined(NAME) or defined NAME");
    bool known = macros_.find(n.text) || has_operator(n.text);
    if (paren && (!next(n) || !is_punct(n, ")"))) return fail(t.offset, "missing ')' after 'defined(NAME'");
    result.text = known ? "1" : "0";
  } else if (t.text == "__has_include" || t.text == "__has_include_next") {
    if (!next(n) || !is_punct(n, "(")) return fail(t.offset, "'" + t.text + "' needs a header in parentheses: " + t.text + "(<header.h>)");
    std::string header;
    bool angled = false;
    if (!next(n)) return fail(t.offset, "missing header after '" + t.text + "('");
    if (n.kind == PpKind::String && n.text.size() >= 2) {
      header = n.text.substr(1, n.text.size() - 2);
    } else if (is_punct(n, "<")) {
      angled = true;
      while (next(n) && !is_punct(n, ">")) header += n.text;
    } else {
      return fail(n.offset, "'" + t.text + "' needs a header: <header.h> or \"header.h\"");
    }
    if (!next(n) || !is_punct(n, ")")) return fail(t.offset, "missing ')' after the header of '" + t.text + "'");
    bool found = if_ops_->has_include && if_ops_->has_include(header, angled, t.text == "__has_include_next");
    result.text = found ? "1" : "0";
  } else {
    // __has_attribute(x), __has_builtin(x), ...: rawprobe is no compiler, so none is there.
    if (!next(n) || !is_punct(n, "(")) {
      out.push_back(t);  // a plain name after all: 0 in #if
      return true;
    }
    int depth = 1;
    while (depth > 0) {
      if (!next(n)) return fail(t.offset, "missing ')' after '" + t.text + "('");
      if (is_punct(n, "(")) ++depth;
      if (is_punct(n, ")")) --depth;
    }
  }
  out.push_back(std::move(result));
  return true;
}

}  // namespace rawprobe::lang
