#include "bpfasm/syntax.h"

#include <cinttypes>
#include <cstdio>
#include <vector>

#include "bpfasm/helpers.h"

namespace rawprobe::bpf {
namespace {

enum class Slot { Rd, Wd, Rs, Ws, Off, SOff, JOff, Imm, ImmX, JImm, Imm64, Lo, Hi, Helper };

struct Placeholder {
  std::string_view name;
  Slot slot;
};
constexpr Placeholder kPlaceholders[] = {
    {"rd", Slot::Rd},   {"wd", Slot::Wd},     {"rs", Slot::Rs},       {"ws", Slot::Ws},
    {"off", Slot::Off}, {"soff", Slot::SOff}, {"joff", Slot::JOff},   {"imm", Slot::Imm},
    {"immx", Slot::ImmX}, {"jimm", Slot::JImm}, {"imm64", Slot::Imm64}, {"lo", Slot::Lo},
    {"hi", Slot::Hi},   {"helper", Slot::Helper}};

// A template piece: literal text without spaces, one space, or a placeholder.
struct Part {
  enum Kind { Literal, Space, Operand } kind;
  std::string_view text;
  Slot slot = Slot::Rd;
};

std::vector<Part> split(std::string_view t) {
  std::vector<Part> parts;
  size_t i = 0;
  while (i < t.size()) {
    if (t[i] == ' ') {
      parts.push_back({Part::Space, t.substr(i, 1)});
      ++i;
    } else if (t[i] == '{') {
      size_t close = t.find('}', i);
      std::string_view name = t.substr(i + 1, close - i - 1);
      Part p{Part::Operand, name};
      for (const Placeholder& ph : kPlaceholders)
        if (ph.name == name) p.slot = ph.slot;
      parts.push_back(p);
      i = close + 1;
    } else {
      size_t j = i;
      while (j < t.size() && t[j] != ' ' && t[j] != '{') ++j;
      parts.push_back({Part::Literal, t.substr(i, j - i)});
      i = j;
    }
  }
  return parts;
}

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string signed_text(int64_t v) {  // %+d
  return (v < 0 ? "-" : "+") + std::to_string(v < 0 ? -v : v);
}

std::string helper_text(int32_t id) {
  std::string_view name = helper_name(id);
  return (name.empty() ? std::string("unknown") : std::string(name)) + "#" + std::to_string(id);
}

// Reads one template against the input, left to right.
class Matcher {
 public:
  Matcher(const Form& form, const MatchInput& in, MatchFailure* why)
      : form_(form), in_(in), pos_(in.begin), why_(why) {}

  std::optional<Matched> run(const std::string& tmpl) {
    for (const Part& p : split(tmpl)) {
      if (p.kind == Part::Space) continue;
      skip_space();
      bool ok = p.kind == Part::Literal ? literal(p.text) : operand(p.slot);
      if (!ok) return std::nullopt;
    }
    skip_space();
    if (pos_ != in_.end) return fail(pos_, "end of instruction");
    return compose();
  }

 private:
  char peek(size_t at) const { return at < in_.end ? in_.line[at] : '\0'; }
  void skip_space() {
    while (pos_ < in_.end && (in_.line[pos_] == ' ' || in_.line[pos_] == '\t')) ++pos_;
  }
  std::nullopt_t fail(size_t col, std::string expected, bool hard = false) {
    *why_ = MatchFailure{col, std::move(expected), hard};
    return std::nullopt;
  }

  bool literal(std::string_view text) {
    size_t start = pos_;
    for (char c : text) {
      if (peek(pos_) != c) return fail(start, "'" + std::string(text) + "'"), false;
      ++pos_;
    }
    // Whole words only: "goto" must not match the start of "gotol", nor ">" the start of ">=".
    char last = text.back(), next = peek(pos_);
    if (is_ident_char(last) && is_ident_char(next)) return fail(start, "'" + std::string(text) + "'"), false;
    bool op_last = std::string_view("<>=!&|").find(last) != std::string_view::npos;
    if (op_last && next != '\0' && std::string_view("<>=").find(next) != std::string_view::npos)
      return fail(start, "'" + std::string(text) + "'"), false;
    return true;
  }

  // Register r0..r10 (or w0..w10).
  std::optional<uint8_t> reg(char prefix) {
    size_t start = pos_;
    if (peek(pos_) != prefix || !is_digit(peek(pos_ + 1))) {
      return fail(start, std::string("register (") + prefix + "0.." + prefix + "10)");
    }
    size_t at = pos_ + 1;
    unsigned v = 0;
    while (is_digit(peek(at)) && v < 1000) v = v * 10 + (peek(at++) - '0');
    if (is_ident_char(peek(at))) return fail(start, std::string("register (") + prefix + "0.." + prefix + "10)");
    if (v > kMaxReg) {
      return fail(start, "register " + std::string(in_.line.substr(start, at - start)) +
                             " does not exist (registers are " + prefix + "0.." + prefix + "10)",
                  true);
    }
    pos_ = at;
    return static_cast<uint8_t>(v);
  }

  // An integer literal: [+-] then decimal or 0x hex. `need_sign` for memory offsets.
  struct Num {
    bool neg;
    uint64_t mag;
    size_t col;
  };
  std::optional<Num> number(bool need_sign, std::string_view what) {
    size_t start = pos_, at = pos_;
    bool neg = false, signed_ = false;
    if (peek(at) == '+' || peek(at) == '-') {
      neg = peek(at) == '-';
      signed_ = true;
      ++at;
      while (peek(at) == ' ' || peek(at) == '\t') ++at;
    }
    if (!is_digit(peek(at)) || (need_sign && !signed_)) return fail(start, std::string(what));
    uint64_t mag = 0;
    bool overflow = false;
    if (peek(at) == '0' && (peek(at + 1) == 'x' || peek(at + 1) == 'X')) {
      at += 2;
      size_t digits = at;
      for (;; ++at) {
        char c = peek(at);
        int d = is_digit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
        if (d < 0) break;
        if (mag >> 60) overflow = true;
        mag = mag * 16 + d;
      }
      if (at == digits) return fail(start, std::string(what));
    } else {
      for (; is_digit(peek(at)); ++at) {
        uint64_t d = peek(at) - '0';
        if (mag > (UINT64_MAX - d) / 10) overflow = true;
        mag = mag * 10 + d;
      }
    }
    if (is_ident_char(peek(at))) return fail(start, std::string(what));
    if (overflow) return fail(start, "number " + std::string(in_.line.substr(start, at - start)) + " does not fit in 64 bits", true);
    pos_ = at;
    return Num{neg, mag, start};
  }

  // Checks that n fits [lo, hi] (hi given as unsigned to allow u32/u64 spellings).
  std::optional<int64_t> ranged(const Num& n, int64_t lo, uint64_t hi, const char* what) {
    bool ok = n.neg ? n.mag <= static_cast<uint64_t>(-(lo + 1)) + 1 : n.mag <= hi;
    if (!ok) {
      return fail(n.col, std::string(what) + " " + std::string(in_.line.substr(n.col, pos_ - n.col)) +
                             " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
                  true);
    }
    uint64_t v = n.neg ? (~n.mag + 1) : n.mag;
    return static_cast<int64_t>(v);
  }

  std::optional<int64_t> imm32(const char* what) {
    auto n = number(false, "number");
    if (!n) return std::nullopt;
    auto v = ranged(*n, INT32_MIN, UINT32_MAX, what);
    if (!v) {
      why_->expected += " (a 64-bit constant needs 'rN = VALUE ll')";
      return std::nullopt;
    }
    return static_cast<int32_t>(static_cast<uint32_t>(*v));  // 0xffffffff reads as -1
  }

  // A jump distance (+3, -2, 3) or a label (name, <name>).
  bool target(bool in_imm) {
    char c = peek(pos_);
    if (c == '<' || (is_ident_char(c) && !is_digit(c))) {
      size_t start = pos_, at = pos_;
      std::string name;
      if (c == '<') {
        size_t close = in_.line.find('>', at);
        if (close == std::string_view::npos || close >= in_.end) return fail(start, "'>'"), false;
        name = std::string(in_.line.substr(at + 1, close - at - 1));
        at = close + 1;
      } else {
        while (is_ident_char(peek(at))) ++at;
        name = std::string(in_.line.substr(start, at - start));
      }
      if (in_.is_label && !in_.is_label(name)) {
        return fail(start, "undefined label '" + name + "' (define it as '" + name + ":')", true), false;
      }
      pos_ = at;
      label_ = LabelUse{name, in_imm, start};
      return true;
    }
    auto n = number(false, "jump target (+N, -N or a label)");
    if (!n) return false;
    auto v = in_imm ? ranged(*n, INT32_MIN, INT32_MAX, "distance")
                    : ranged(*n, INT16_MIN, INT16_MAX, "jump distance");
    if (!v) return false;
    // llvm-objdump appends the target's address: "goto +3 <LBB0_2>".
    skip_space();
    if (peek(pos_) == '<') {
      size_t close = in_.line.find('>', pos_);
      if (close != std::string_view::npos && close < in_.end) pos_ = close + 1;
    }
    if (in_imm) imm_ = *v; else off_ = static_cast<int16_t>(*v);
    return true;
  }

  bool helper() {
    size_t start = pos_;
    if (is_digit(peek(pos_))) {
      auto v = imm32("helper id");
      if (!v) return false;
      imm_ = *v;
      return true;
    }
    size_t at = pos_;
    while (is_ident_char(peek(at))) ++at;
    std::string_view name = in_.line.substr(start, at - start);
    if (name.empty()) return fail(start, "helper name or id"), false;
    if (in_.is_label && in_.is_label(name)) return fail(start, "helper (this is a label)"), false;
    pos_ = at;
    std::optional<int64_t> given;
    if (peek(pos_) == '#') {
      ++pos_;
      given = imm32("helper id");
      if (!given) return false;
    }
    std::optional<int32_t> id = helper_id(name);
    if (name == "unknown" && given) {
      imm_ = *given;
      return true;
    }
    if (!id) {
      return fail(start, "unknown helper '" + std::string(name) +
                             "' (write bpf_<name> as in linux/bpf.h, or the helper id)", true), false;
    }
    if (given && *given != *id) {
      return fail(start, "helper '" + std::string(helper_name(*id)) + "' has id " +
                             std::to_string(*id) + ", not " + std::to_string(*given), true), false;
    }
    imm_ = *id;
    return true;
  }

  // Stores a register; a register that appears twice ({rd} = -{rd}) must be the same.
  bool set_reg(std::optional<uint8_t>& field, std::optional<uint8_t> v, size_t col, char prefix) {
    if (!v) return false;
    if (field && *field != *v) {
      return fail(col, std::string("'") + prefix + std::to_string(*field) + "' (the same register)"), false;
    }
    field = v;
    return true;
  }

  bool operand(Slot slot) {
    size_t col = pos_;
    switch (slot) {
      case Slot::Rd: return set_reg(dst_, reg('r'), col, 'r');
      case Slot::Wd: return set_reg(dst_, reg('w'), col, 'w');
      case Slot::Rs: return set_reg(src_, reg('r'), col, 'r');
      case Slot::Ws: return set_reg(src_, reg('w'), col, 'w');
      case Slot::Off:
      case Slot::SOff: {
        auto n = number(true, "offset (+N or -N)");
        if (!n) return false;
        auto v = ranged(*n, INT16_MIN, INT16_MAX, "offset");
        if (!v) return false;
        off_ = static_cast<int16_t>(*v);
        return true;
      }
      case Slot::JOff: return target(false);
      case Slot::JImm: return target(true);
      case Slot::Imm:
      case Slot::ImmX:
      case Slot::Lo: {
        auto v = imm32("immediate");
        if (!v) return false;
        imm_ = *v;
        return true;
      }
      case Slot::Hi: {
        auto v = imm32("immediate");
        if (!v) return false;
        hi_ = static_cast<int32_t>(*v);
        return true;
      }
      case Slot::Imm64: {
        auto n = number(false, "number");
        if (!n) return false;
        auto v = ranged(*n, INT64_MIN, UINT64_MAX, "immediate");
        if (!v) return false;
        imm64_ = *v;
        return true;
      }
      case Slot::Helper: return helper();
    }
    return false;
  }

  std::optional<Matched> compose() {
    Instruction insn;
    insn.code = form_.code;
    insn.dst = dst_ ? *dst_ : form_.dst.value_or(0);
    insn.src = src_ ? *src_ : form_.src.value_or(0);
    insn.off = off_ ? *off_ : form_.off.value_or(0);
    if (insn.is_wide()) {
      if (imm64_) {
        insn.imm = *imm64_;
      } else {
        uint32_t lo = static_cast<uint32_t>(imm_ ? *imm_ : form_.imm.value_or(0));
        uint32_t hi = static_cast<uint32_t>(hi_ ? *hi_ : form_.imm_hi.value_or(0));
        insn.imm = static_cast<int64_t>((static_cast<uint64_t>(hi) << 32) | lo);
      }
    } else {
      insn.imm = imm_ ? *imm_ : form_.imm.value_or(0);
    }
    // A row that fixes a field the text also spells (skb[r1 + 0]) takes only that value.
    if (!form_.matches(insn)) return fail(in_.begin, "a different instruction form");
    return Matched{insn, label_};
  }

  const Form& form_;
  const MatchInput& in_;
  size_t pos_;
  MatchFailure* why_;
  std::optional<uint8_t> dst_, src_;
  std::optional<int16_t> off_;
  std::optional<int64_t> imm_, imm64_;
  std::optional<int32_t> hi_;
  std::optional<LabelUse> label_;
};

}  // namespace

const std::string& syntax_of(const Form& form, Dialect dialect) {
  return dialect == Dialect::Llvm && !form.llvm_syntax.empty() ? form.llvm_syntax : form.syntax;
}

std::string render(const std::string& tmpl, const Instruction& insn) {
  std::string out;
  char buf[32];
  int32_t imm32 = insn.is_wide() ? insn.imm_lo() : static_cast<int32_t>(insn.imm);
  for (const Part& p : split(tmpl)) {
    if (p.kind != Part::Operand) {
      out += p.text;
      continue;
    }
    switch (p.slot) {
      case Slot::Rd: out += "r" + std::to_string(insn.dst); break;
      case Slot::Wd: out += "w" + std::to_string(insn.dst); break;
      case Slot::Rs: out += "r" + std::to_string(insn.src); break;
      case Slot::Ws: out += "w" + std::to_string(insn.src); break;
      case Slot::Off:
      case Slot::JOff: out += signed_text(insn.off); break;
      case Slot::SOff: out += std::string(insn.off < 0 ? "- " : "+ ") + std::to_string(insn.off < 0 ? -insn.off : insn.off); break;
      case Slot::Imm:
      case Slot::Lo: out += std::to_string(imm32); break;
      case Slot::ImmX:
        std::snprintf(buf, sizeof buf, "0x%x", static_cast<uint32_t>(imm32));
        out += buf;
        break;
      case Slot::JImm: out += signed_text(imm32); break;
      case Slot::Imm64:
        std::snprintf(buf, sizeof buf, "0x%" PRIx64, static_cast<uint64_t>(insn.imm));
        out += buf;
        break;
      case Slot::Hi: out += std::to_string(insn.imm_hi()); break;
      case Slot::Helper: out += helper_text(imm32); break;
    }
  }
  return out;
}

std::optional<Matched> match(const Form& form, const std::string& tmpl, const MatchInput& in,
                             MatchFailure* why) {
  return Matcher(form, in, why).run(tmpl);
}

}  // namespace rawprobe::bpf
