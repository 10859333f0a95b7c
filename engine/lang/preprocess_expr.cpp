#include "engine/lang/preprocess_expr.h"

#include <cctype>
#include <climits>

#include "engine/lang/char_literal.h"

namespace rawprobe::lang {
namespace {

bool is_signed_negative(const IfValue& v) { return !v.is_unsigned && int64_t(v.bits) < 0; }

class IfParser {
 public:
  IfParser(const std::vector<PpToken>& tokens, uint32_t directive) : tokens_(tokens), directive_(directive) {}

  bool parse(IfValue& v, PpProblem& problem) {
    bool ok = comma(v) && (pos_ >= tokens_.size() || fail(tokens_[pos_], "unexpected '" + tokens_[pos_].text + "' in #if expression"));
    if (!ok) problem = problem_;
    return ok;
  }

 private:
  const PpToken* peek() const { return pos_ < tokens_.size() ? &tokens_[pos_] : nullptr; }
  bool at(std::string_view punct) const { return peek() && peek()->is(PpKind::Punct, punct); }
  bool fail(const PpToken& t, std::string message) { return fail_at(t.offset, std::move(message)); }
  bool fail_at(uint32_t offset, std::string message) {
    if (problem_.message.empty()) problem_ = {offset, std::move(message)};
    return false;
  }
  bool fail_end(std::string what) {
    return fail_at(pos_ < tokens_.size() ? tokens_[pos_].offset : (tokens_.empty() ? directive_ : tokens_.back().offset),
                   std::move(what));
  }

  bool comma(IfValue& v) {
    if (!conditional(v)) return false;
    while (at(",")) {
      ++pos_;
      if (!conditional(v)) return false;
    }
    return true;
  }

  bool conditional(IfValue& v) {
    // `a ? b : c ? d : ...` nests here without passing through unary().
    if (++depth_ > 200) return fail_end("#if expression nested too deeply");
    bool ok = conditional_inner(v);
    --depth_;
    return ok;
  }

  bool conditional_inner(IfValue& v) {
    if (!binary(v, 0)) return false;
    if (!at("?")) return true;
    const PpToken& q = tokens_[pos_++];
    bool take_first = v.bits != 0;
    IfValue a, b;
    ++skip_ += take_first ? 0 : 1;
    bool ok = comma(a);
    skip_ -= take_first ? 0 : 1;
    if (!ok) return false;
    if (!at(":")) return fail(q, "'?' without ':' in #if expression");
    ++pos_;
    skip_ += take_first ? 1 : 0;
    ok = conditional(b);
    skip_ -= take_first ? 1 : 0;
    if (!ok) return false;
    v = take_first ? a : b;
    v.is_unsigned = a.is_unsigned || b.is_unsigned;
    return true;
  }

  // Binary operators by precedence level, lowest first.
  static int level(const PpToken& t) {
    if (t.kind != PpKind::Punct) return -1;
    static const std::vector<std::vector<std::string_view>> kLevels = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    for (size_t i = 0; i < kLevels.size(); ++i)
      for (std::string_view op : kLevels[i])
        if (t.text == op) return int(i);
    return -1;
  }

  bool binary(IfValue& v, int min_level) {
    if (!unary(v)) return false;
    while (const PpToken* op = peek()) {
      int lv = level(*op);
      if (lv < min_level) break;
      const PpToken& o = tokens_[pos_++];
      IfValue r;
      // The right side of && and || is not evaluated when the left decides.
      bool short_circuit = (o.text == "&&" && v.bits == 0) || (o.text == "||" && v.bits != 0);
      skip_ += short_circuit;
      bool ok = binary(r, lv + 1);
      skip_ -= short_circuit;
      if (!ok || !apply(o, v, r)) return false;
    }
    return true;
  }

  bool apply(const PpToken& o, IfValue& l, const IfValue& r) {
    const std::string& op = o.text;
    bool u = l.is_unsigned || r.is_unsigned;
    auto boolean = [&](bool b) { l = {b ? 1u : 0u, false}; return true; };
    if (op == "||") return boolean(l.bits || r.bits);
    if (op == "&&") return boolean(l.bits && r.bits);
    if (op == "==") return boolean(l.bits == r.bits);
    if (op == "!=") return boolean(l.bits != r.bits);
    if (op == "<" || op == ">" || op == "<=" || op == ">=") {
      bool less = u ? l.bits < r.bits : int64_t(l.bits) < int64_t(r.bits);
      bool greater = u ? l.bits > r.bits : int64_t(l.bits) > int64_t(r.bits);
      if (op == "<") return boolean(less);
      if (op == ">") return boolean(greater);
      if (op == "<=") return boolean(!greater);
      return boolean(!less);
    }
    if (op == "<<" || op == ">>") {
      // The count's sign decides the direction (gcc shifts the other way for a negative one).
      bool left = op == "<<";
      uint64_t count = r.bits;
      if (is_signed_negative(r)) {
        left = !left;
        count = uint64_t(0) - count;
      }
      if (left) l.bits = count >= 64 ? 0 : l.bits << count;
      else if (l.is_unsigned) l.bits = count >= 64 ? 0 : l.bits >> count;
      else l.bits = uint64_t(int64_t(l.bits) >> (count >= 64 ? 63 : count));
      return true;
    }
    l.is_unsigned = u;
    if (op == "|") l.bits |= r.bits;
    else if (op == "^") l.bits ^= r.bits;
    else if (op == "&") l.bits &= r.bits;
    else if (op == "+") l.bits += r.bits;
    else if (op == "-") l.bits -= r.bits;
    else if (op == "*") l.bits *= r.bits;
    else {  // '/' or '%'
      if (r.bits == 0) {
        if (skip_) return true;  // not evaluated: gcc does not complain either
        return fail(o, "division by zero in #if expression");
      }
      bool div = op == "/";
      if (u) l.bits = div ? l.bits / r.bits : l.bits % r.bits;
      else if (int64_t(l.bits) == INT64_MIN && int64_t(r.bits) == -1) l.bits = div ? l.bits : 0;  // wraps, as gcc's result
      else l.bits = uint64_t(div ? int64_t(l.bits) / int64_t(r.bits) : int64_t(l.bits) % int64_t(r.bits));
    }
    return true;
  }

  bool unary(IfValue& v) {
    if (++depth_ > 200) return fail_end("#if expression nested too deeply");
    bool ok = unary_inner(v);
    --depth_;
    return ok;
  }

  bool unary_inner(IfValue& v) {
    const PpToken* t = peek();
    if (!t) return fail_end("#if expression ends where a value was expected");
    ++pos_;
    if (t->kind == PpKind::Punct) {
      if (t->text == "(") {
        if (!comma(v)) return false;
        if (!at(")")) return fail(*t, "missing ')' in #if expression");
        ++pos_;
        return true;
      }
      if (t->text == "+" || t->text == "-" || t->text == "~" || t->text == "!") {
        if (!unary(v)) return false;
        if (t->text == "-") v.bits = uint64_t(0) - v.bits;
        else if (t->text == "~") v.bits = ~v.bits;
        else if (t->text == "!") v = {v.bits == 0 ? 1u : 0u, false};
        return true;
      }
      return fail(*t, "'" + t->text + "' where a value was expected in #if expression");
    }
    if (t->kind == PpKind::Number) {
      Result<IfValue> number = parse_if_number(t->text);
      if (!number) return fail(*t, number.error().what);
      v = *number;
      return true;
    }
    if (t->kind == PpKind::Char) {
      size_t quote = t->text.find('\'');
      CharLiteral c = read_char_literal(t->text, uint32_t(quote));
      if (!c.error.empty()) return fail(*t, c.error);
      v = {uint64_t(c.value), false};
      return true;
    }
    if (t->kind == PpKind::Ident) {
      if (at("(")) return fail(*t, "'" + t->text + "' is not a function-like macro, so #if cannot call it");
      v = {0, false};  // C: a name that is not a macro is 0 here
      return true;
    }
    return fail(*t, "'" + t->text + "' cannot appear in an #if expression");
  }

  const std::vector<PpToken>& tokens_;
  uint32_t directive_;
  size_t pos_ = 0;
  int skip_ = 0;
  int depth_ = 0;
  PpProblem problem_;
};

}  // namespace

Result<IfValue> parse_if_number(const std::string& text) {
  size_t end = text.size();
  // Suffixes: u, l, ll in either order, any case (but not lL).
  bool is_unsigned = false;
  int longs = 0;
  while (end > 0) {
    char c = text[end - 1];
    if ((c == 'u' || c == 'U') && !is_unsigned) {
      is_unsigned = true;
      --end;
    } else if ((c == 'l' || c == 'L') && longs == 0) {
      longs = end >= 2 && text[end - 2] == c ? 2 : 1;
      end -= size_t(longs);
    } else {
      break;
    }
  }
  std::string digits = text.substr(0, end);
  int base = 10;
  size_t i = 0;
  if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) base = 16, i = 2;
  else if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) base = 2, i = 2;
  else if (digits.size() > 1 && digits[0] == '0') base = 8, i = 1;
  if (digits.find_first_of(".") != std::string::npos ||
      (base == 10 && digits.find_first_of("eE") != std::string::npos) ||
      (base == 16 && digits.find_first_of("pP") != std::string::npos)) {
    return make_error("floating constant '" + text + "' in #if expression");
  }
  if (i >= digits.size()) {
    return make_error("invalid integer constant '" + text + "' in #if expression");
  }
  uint64_t v = 0;
  for (; i < digits.size(); ++i) {
    int d = hex_digit_value(digits[i]);
    if (d < 0 || d >= base) {
      return make_error("invalid integer constant '" + text + "' in #if expression");
    }
    if (v > (UINT64_MAX - uint64_t(d)) / uint64_t(base)) {
      return make_error("integer constant '" + text + "' is too large for 64 bits");
    }
    v = v * uint64_t(base) + uint64_t(d);
  }
  // A constant that does not fit intmax_t is unsigned (gcc says so in a warning).
  return IfValue{v, is_unsigned || v > uint64_t(INT64_MAX)};
}

bool evaluate_if(const std::vector<PpToken>& tokens, uint32_t directive, IfValue& value, PpProblem& problem) {
  if (tokens.empty()) {
    problem = {directive, "#if with no expression"};
    return false;
  }
  return IfParser(tokens, directive).parse(value, problem);
}

}  // namespace rawprobe::lang
