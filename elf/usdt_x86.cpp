// x86_64 and i386 operands, AT&T syntax as gcc prints them into sdt.h notes.
#include <cctype>

#include "elf/usdt_operand.h"

namespace rawprobe::elf::usdt {
namespace {

bool is_vector(std::string_view reg) {
  for (std::string_view prefix : {"xmm", "ymm", "zmm"})
    if (reg.size() > prefix.size() && reg.substr(0, prefix.size()) == prefix &&
        isdigit(static_cast<unsigned char>(reg[prefix.size()])))
      return true;
  return false;
}

// "%rbp" -> resolved register; empty text is "no register" (allowed where noted by caller).
Status x86_reg(std::string_view text, const arch::Table& table, UsdtReg& reg) {
  text = trim(text);
  if (text.size() < 2 || text[0] != '%') return make_error("expected a %register, got '" + std::string(text) + "'");
  return resolve_reg(text.substr(1), table, reg);
}

// A displacement: "", "-20", "0x10", "counter", "counter+8", "counter-8", and i386 PIC's
// "counter@GOTOFF" (the symbol's distance from the GOT, gcc -fPIE -m32's globals).
Status displacement(std::string_view text, UsdtArg& arg) {
  text = trim(text);
  if (text.empty()) return {};
  if (auto n = parse_int(text)) {
    arg.offset = *n;
    return {};
  }
  size_t split = text.find_first_of("+-", 1);
  std::string_view sym = text.substr(0, split);
  for (char c : sym)
    if (!isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '$' && c != '@')
      return make_error("bad displacement '" + std::string(text) + "'");
  if (isdigit(static_cast<unsigned char>(sym[0]))) return make_error("bad displacement '" + std::string(text) + "'");
  if (size_t at = sym.find('@'); at != std::string_view::npos) {
    // Other relocation operators (@GOT, @GOTPCREL, @NTPOFF, ...) name a GOT slot or a TLS
    // offset, not the variable's address: reading through them would give the wrong value.
    if (sym.substr(at) != "@GOTOFF")
      return make_error("relocation '" + std::string(sym.substr(at)) + "' in '" + std::string(text) +
             "' is not supported (only sym@GOTOFF)");
    arg.got_relative = true;
    sym = sym.substr(0, at);
  }
  arg.symbol = std::string(sym);
  if (split != std::string_view::npos) {
    auto n = parse_int(text.substr(split));
    if (!n) return make_error("bad offset in '" + std::string(text) + "'");
    arg.offset = *n;
  }
  return {};
}

}  // namespace

Status parse_x86(Operand op, const arch::Table& table, UsdtArg& arg) {
  // $imm: a constant, "-4@$-1", "8@$0x10".
  if (op[0] == '$') {
    auto n = parse_int(op.substr(1));
    if (!n) return make_error("bad constant '" + std::string(op) + "'");
    arg.kind = UsdtArgKind::Constant;
    arg.constant = *n;
    return {};
  }
  // %reg: "-4@%edi", "1@%r8b", "1@%ah"; "%xmm0" parses but cannot be read (see UsdtArg).
  if (op[0] == '%') {
    if (is_vector(op.substr(1))) {
      arg.kind = UsdtArgKind::VectorRegister;
      arg.vector_reg = std::string(op.substr(1));
      return {};
    }
    arg.kind = UsdtArgKind::Register;
    return x86_reg(op, table, arg.base);
  }
  size_t open = op.find('(');
  if (open == std::string_view::npos) {
    // No parentheses: an absolute address, "4@counter" or "4@counter+4" in non-PIC i386 code.
    arg.kind = UsdtArgKind::SymbolRelative;
    if (Status st = displacement(op, arg); !st) return st;
    if (arg.got_relative) return make_error("'" + std::string(op) + "' has no register holding the GOT");
    return {};
  }
  if (op.back() != ')') return make_error("expected ')' at the end of '" + std::string(op) + "'");
  if (Status st = displacement(op.substr(0, open), arg); !st) return st;
  // sym@GOTOFF(%ebx): memory at the GOT (which %ebx holds) + the symbol's distance from it.
  std::string_view inner = op.substr(open + 1, op.size() - open - 2);
  std::string_view parts[3];
  size_t count = 0;
  for (size_t start = 0;;) {
    if (count == 3) return make_error("too many ',' in '" + std::string(op) + "'");
    size_t comma = inner.find(',', start);
    parts[count++] = inner.substr(start, comma == std::string_view::npos ? comma : comma - start);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  std::string_view base = trim(parts[0]);
  // sym(%rip), sym+8(%rip): the symbol's link-time address plus the load bias.
  if (base == "%rip" || base == "%eip") {
    if (count > 1) return make_error("rip-relative operand cannot have an index: '" + std::string(op) + "'");
    if (arg.got_relative) return make_error("@GOTOFF is not rip-relative: '" + std::string(op) + "'");
    if (arg.symbol.empty())
      return make_error("rip-relative operand '" + std::string(op) +
             "' has no symbol; its value depends on the next instruction's address");
    arg.kind = UsdtArgKind::SymbolRelative;
    return {};
  }
  if (!base.empty())
    if (Status st = x86_reg(base, table, arg.base); !st) return st;
  if (count == 1) {
    // off(%reg), (%reg): "-4@-20(%rbp)", "8@(%rax)".
    if (base.empty()) return make_error("empty base register in '" + std::string(op) + "'");
    arg.kind = UsdtArgKind::Memory;
    return {};
  }
  // off(%base,%index,scale), (,%index,scale): "4@8(%rax,%rdx,4)", "8@tbl(,%rax,8)".
  if (Status st = x86_reg(parts[1], table, arg.index); !st) return st;
  if (count == 3) {
    auto scale = parse_int(parts[2]);
    if (!scale || (*scale != 1 && *scale != 2 && *scale != 4 && *scale != 8))
      return make_error("scale '" + std::string(trim(parts[2])) + "' must be 1, 2, 4 or 8");
    arg.scale = static_cast<uint8_t>(*scale);
  }
  arg.kind = UsdtArgKind::Indexed;
  return {};
}

}  // namespace rawprobe::elf::usdt
