// USDT arguments (elf/usdt_args.h) read from the probe's pt_regs and the traced process's
// memory:
//   Constant        -4@$5             r = 5
//   Register        -4@%edi           r = (s32)ctx->di
//                   1@%ah             r = (u8)(ctx->ax >> 8)
//   Memory          8@-24(%rbp)       probe_read_user(buf, 8, ctx->bp - 24)
//   Indexed         4@8(%rdx,%rax,4)  probe_read_user(buf, 4, ctx->dx + ctx->ax * 4 + 8)
//                   -4@c@GOTOFF(%ebx) probe_read_user(buf, 4, ctx->bx + (&c - GOT)), i386 PIC
//   SymbolRelative  8@counter(%rip)   probe_read_user(buf, 8, bias + &counter), where the
//                                     load bias is ctx->ip (the probed address at the hit)
//                                     minus the note's link-time address
//   VectorRegister  %xmm0             refused: pt_regs has no vector registers
// With cookies, points whose specs differ get one block each, chosen by the cookie.
#include <algorithm>

#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Reg;
using bpf::Size;
using elf::UsdtArgKind;
using lang::Expr;

namespace {

// What makes two points' code for one argument differ.
std::string spec_key(const probes::AttachPoint& p, uint32_t index) {
  if (index >= p.usdt_args.size()) return "missing";
  const probes::UsdtArgument& a = p.usdt_args[index];
  bool biased = a.spec.load_biased();
  return a.spec.text + "|" + std::to_string(a.symbol_address) + "|" + (biased ? std::to_string(p.address) : "") +
         "|" + (p.arch ? std::string(p.arch->name) : "");
}

}  // namespace

IntVal ProgramGen::usdt_arg(const Expr& e) {
  Temp t = regs_.take();
  uint32_t index = e.arg_index;
  // Groups of points (by cookie) that share the code for this argument.
  std::vector<std::string> keys;
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < target_.points.size(); ++i) {
    std::string k = spec_key(*target_.points[i], index);
    auto it = std::find(keys.begin(), keys.end(), k);
    if (it == keys.end()) {
      keys.push_back(k);
      groups.push_back({i});
    } else {
      groups[it - keys.begin()].push_back(i);
    }
  }
  if (groups.size() == 1) {
    usdt_arg_into(*target_.points[groups[0][0]], index, e.span, t);
    return IntVal::in_temp(t);
  }
  IntVal c = cookie();
  Reg rc = use(c, bpf::R1);
  std::vector<bpf::Label> labels;
  for (size_t g = 0; g < groups.size(); ++g) {
    labels.push_back(b_.new_label("usdt_spec"));
    if (g + 1 == groups.size()) break;  // the last group is the fall-through
    for (size_t point : groups[g]) b_.jump(bpf::Cond::Eq, rc, static_cast<int32_t>(point), labels[g]);
  }
  release(c);
  bpf::Label done = b_.new_label("usdt_arg");
  for (size_t g = groups.size(); g-- > 0;) {
    b_.bind(labels[g]);
    usdt_arg_into(*target_.points[groups[g][0]], index, e.span, t);
    if (g) b_.jump(done);
  }
  b_.bind(done);
  return IntVal::in_temp(t);
}

void ProgramGen::usdt_arg_into(const probes::AttachPoint& point, uint32_t index, lang::Span span, Temp dst) {
  if (index >= point.usdt_args.size()) {
    fail(span, "arg" + std::to_string(index) + ": " + point.name + " has " + std::to_string(point.usdt_args.size()) +
                   " argument" + (point.usdt_args.size() == 1 ? "" : "s") + " (arg0..arg" +
                   std::to_string(point.usdt_args.size() ? point.usdt_args.size() - 1 : 0) + ")");
    return;
  }
  const probes::UsdtArgument& arg = point.usdt_args[index];
  const elf::UsdtArg& spec = arg.spec;
  std::string why = spec.unsupported_reason();
  if (spec.kind == UsdtArgKind::VectorRegister || !why.empty()) {
    fail(span, "arg" + std::to_string(index) + " of " + point.name + " is '" + spec.text + "': " +
                   (why.empty() ? "a vector register, which BPF programs cannot read" : why));
    return;
  }
  const arch::Table& table = point.arch ? *point.arch : arch::host();
  // r = the register's bits, zero-extended (`%ah` is bits 8..15 of ax).
  auto load_reg = [&](Reg r, const elf::UsdtReg& reg) -> bool {
    arch::RegSlot slot = reg.slot;
    uint8_t width = reg.width_bits, shift = reg.bit_offset;
    if (point.arch) {
      auto resolved = arch::resolve_alias(*point.arch, reg.name);
      if (!resolved) {
        fail(span, "register " + reg.name + " of " + point.name + " is not known on " + std::string(point.arch->name));
        return false;
      }
      slot = resolved->slot;
      width = resolved->width_bits;
      shift = resolved->bit_offset;
    }
    b_.load(size_for(slot.size), r, ctx(), static_cast<int16_t>(slot.offset));
    if (shift) b_.alu(bpf::Op::Rsh, r, shift);
    if (width < slot.size * 8u) extend(r, width / 8u, false);
    return true;
  };
  auto add_const = [&](Reg r, int64_t v) {
    if (v == 0) return;
    if (v >= INT32_MIN && v <= INT32_MAX) {
      b_.alu(bpf::Op::Add, r, static_cast<int32_t>(v));
    } else {
      load_imm(bpf::R2, v);
      b_.alu(bpf::Op::Add, r, bpf::R2);
    }
  };
  Reg out = target_reg(dst, bpf::R1);
  switch (spec.kind) {
    case UsdtArgKind::Constant:
      load_imm(out, spec.constant);
      extend(out, spec.size, spec.is_signed);
      set(dst, out);
      return;
    case UsdtArgKind::Register:
      if (!load_reg(out, spec.base)) return;
      extend(out, spec.size, spec.is_signed);
      set(dst, out);
      return;
    default: break;
  }
  // Memory forms: the address in r3.
  if (spec.base.present()) {
    if (!load_reg(bpf::R3, spec.base)) return;
  } else {
    b_.mov(bpf::R3, 0);
  }
  if (spec.kind == UsdtArgKind::Indexed && spec.index.present()) {
    if (!load_reg(bpf::R4, spec.index)) return;
    int shift = spec.scale == 8 ? 3 : spec.scale == 4 ? 2 : spec.scale == 2 ? 1 : 0;
    if (shift) b_.alu(bpf::Op::Lsh, bpf::R4, shift);
    b_.alu(bpf::Op::Add, bpf::R3, bpf::R4);
  }
  add_const(bpf::R3, spec.offset);
  // i386 counter@GOTOFF(%ebx): the register holds the run-time GOT; add the distance only.
  if (spec.got_relative) add_const(bpf::R3, static_cast<int64_t>(arg.symbol_address));
  if (spec.load_biased()) {
    auto ip = arch::find_slot(table, table.ip_reg);
    if (!ip) {
      fail(span, "the " + std::string(table.name) + " table has no instruction pointer");
      return;
    }
    // + load bias (runtime ip - link-time address) + link-time symbol address
    b_.load(size_for(ip->size), bpf::R4, ctx(), static_cast<int16_t>(ip->offset));
    b_.alu(bpf::Op::Add, bpf::R3, bpf::R4);
    add_const(bpf::R3, static_cast<int64_t>(arg.symbol_address) - static_cast<int64_t>(point.address));
  }
  Place buf{frame_.alloc(8), {}};
  b_.store_imm(Size::DW, bpf::R10, static_cast<int16_t>(buf.off), 0);
  read_memory(buf, spec.size, bpf::R3, probes::probe_type(point.kind).context.user_space, span);
  out = target_reg(dst, bpf::R1);
  b_.load(size_for(spec.size), out, bpf::R10, static_cast<int16_t>(buf.off));
  extend(out, spec.size, spec.is_signed);
  set(dst, out);
}

}  // namespace rawprobe::codegen
