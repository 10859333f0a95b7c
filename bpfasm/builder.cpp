#include "bpfasm/builder.h"

#include <algorithm>

#include <cstdio>

#include "bpfasm/form.h"

namespace rawprobe::bpf {
namespace {

struct AluCode {
  uint8_t op;
  int16_t off;
};
AluCode alu_code(Op o) {
  static const AluCode codes[] = {{op::ADD, 0}, {op::SUB, 0}, {op::MUL, 0}, {op::DIV, 0},
                                  {op::OR, 0},  {op::AND, 0}, {op::LSH, 0}, {op::RSH, 0},
                                  {op::MOD, 0}, {op::XOR, 0}, {op::MOV, 0}, {op::ARSH, 0},
                                  {op::DIV, 1}, {op::MOD, 1}};
  return codes[static_cast<int>(o)];
}

uint8_t jmp_code(Cond c) {
  static const uint8_t codes[] = {op::JEQ, op::JGT,  op::JGE, op::JSET, op::JNE, op::JSGT,
                                  op::JSGE, op::JLT, op::JLE, op::JSLT, op::JSLE};
  return codes[static_cast<int>(c)];
}

int32_t atomic_imm(Atomic a) {
  static const int32_t imms[] = {op::ADD, op::OR, op::AND, op::XOR,
                                 op::ADD | op::FETCH, op::OR | op::FETCH, op::AND | op::FETCH,
                                 op::XOR | op::FETCH, op::XCHG, op::CMPXCHG};
  return imms[static_cast<int>(a)];
}

uint8_t size_code(Size s) { return static_cast<uint8_t>(s); }

Instruction make(uint8_t code, uint8_t dst = 0, uint8_t src = 0, int16_t off = 0, int64_t imm = 0) {
  return Instruction{code, dst, src, off, imm};
}

Instruction alu_imm(uint8_t cls, Op o, Reg dst, int32_t imm) {
  AluCode c = alu_code(o);
  return make(cls | c.op | op::K, dst, 0, c.off, imm);
}
Instruction alu_reg(uint8_t cls, Op o, Reg dst, Reg src) {
  AluCode c = alu_code(o);
  return make(cls | c.op | op::X, dst, src, c.off);
}

}  // namespace

Label Builder::new_label(std::string name) {
  Label l{static_cast<uint32_t>(labels_.size())};
  if (name.empty()) name = "L" + std::to_string(l.id);
  labels_.push_back(LabelInfo{std::move(name), std::nullopt, {}, {}});
  return l;
}

void Builder::bind(Label label, std::string origin) {
  if (label.id >= labels_.size()) {
    // A label of another Builder: remembered as a problem for finish().
    labels_.push_back(LabelInfo{"<foreign label " + std::to_string(label.id) + ">", std::nullopt,
                                origin_or_index(origin, insns_.size()), "foreign"});
    return;
  }
  LabelInfo& info = labels_[label.id];
  origin = origin_or_index(origin, insns_.size());
  if (info.index) {
    if (info.second_origin.empty()) info.second_origin = origin;
    return;
  }
  info.index = insns_.size();
  info.origin = origin;
  if (!drop_unreachable_ || !dead_) return;
  if (info.targeted)
    dead_ = false;  // a jump lands here
  else
    info.bound_unreachable = true;
}

std::string Builder::origin_or_index(const std::string& origin, size_t index) const {
  return origin.empty() ? "instruction " + std::to_string(index) : origin;
}

void Builder::mov(Reg dst, int32_t imm) { alu(Op::Mov, dst, imm); }
void Builder::mov(Reg dst, Reg src) { alu(Op::Mov, dst, src); }
void Builder::mov32(Reg dst, int32_t imm) { alu32(Op::Mov, dst, imm); }
void Builder::mov32(Reg dst, Reg src) { alu32(Op::Mov, dst, src); }

void Builder::alu(Op o, Reg dst, int32_t imm) { emit(alu_imm(op::ALU64, o, dst, imm)); }
void Builder::alu(Op o, Reg dst, Reg src) { emit(alu_reg(op::ALU64, o, dst, src)); }
void Builder::alu32(Op o, Reg dst, int32_t imm) { emit(alu_imm(op::ALU, o, dst, imm)); }
void Builder::alu32(Op o, Reg dst, Reg src) { emit(alu_reg(op::ALU, o, dst, src)); }
void Builder::neg(Reg dst) { emit(make(op::ALU64 | op::NEG, dst)); }
void Builder::neg32(Reg dst) { emit(make(op::ALU | op::NEG, dst)); }
void Builder::movsx(Reg dst, Reg src, int bits) {
  emit(make(op::ALU64 | op::MOV | op::X, dst, src, static_cast<int16_t>(bits)));
}
void Builder::movsx32(Reg dst, Reg src, int bits) {
  emit(make(op::ALU | op::MOV | op::X, dst, src, static_cast<int16_t>(bits)));
}
void Builder::to_le(Reg dst, int bits) { emit(make(op::ALU | op::END | op::TO_LE, dst, 0, 0, bits)); }
void Builder::to_be(Reg dst, int bits) { emit(make(op::ALU | op::END | op::TO_BE, dst, 0, 0, bits)); }
void Builder::bswap(Reg dst, int bits) { emit(make(op::ALU64 | op::END | op::K, dst, 0, 0, bits)); }

void Builder::ld_imm64(Reg dst, uint64_t value) {
  emit(make(op::LD_IMM64, dst, 0, 0, static_cast<int64_t>(value)));
}
void Builder::load_map_fd(Reg dst, MapHandle map) {
  if (!reachable()) return;
  map_fixups_.push_back({insns_.size(), map});
  emit(make(op::LD_IMM64, dst, op::PSEUDO_MAP_FD));
}
void Builder::load_map_value(Reg dst, MapHandle map, uint32_t offset) {
  if (!reachable()) return;
  map_fixups_.push_back({insns_.size(), map});
  emit(make(op::LD_IMM64, dst, op::PSEUDO_MAP_VALUE, 0, static_cast<int64_t>(uint64_t{offset} << 32)));
}
void Builder::load_func(Reg dst, Label function) {
  emit(make(op::LD_IMM64, dst, op::PSEUDO_FUNC), function, TargetField::Imm);
}

void Builder::load(Size s, Reg dst, Reg src, int16_t off) {
  emit(make(op::LDX | op::MEM | size_code(s), dst, src, off));
}
void Builder::load_sx(Size s, Reg dst, Reg src, int16_t off) {
  emit(make(op::LDX | op::MEMSX | size_code(s), dst, src, off));
}
void Builder::store(Size s, Reg dst, int16_t off, Reg src) {
  emit(make(op::STX | op::MEM | size_code(s), dst, src, off));
}
void Builder::store_imm(Size s, Reg dst, int16_t off, int32_t imm) {
  emit(make(op::ST | op::MEM | size_code(s), dst, 0, off, imm));
}
void Builder::atomic(Atomic a, Size s, Reg dst, int16_t off, Reg src) {
  emit(make(op::STX | op::ATOMIC | size_code(s), dst, src, off, atomic_imm(a)));
}

void Builder::jump(Label target) { emit(make(op::JMP | op::JA), target, TargetField::Off); }
void Builder::jump_long(Label target) { emit(make(op::JMP32 | op::JA), target, TargetField::Imm); }
void Builder::jump(Cond c, Reg a, int32_t imm, Label target) {
  emit(make(op::JMP | jmp_code(c) | op::K, a, 0, 0, imm), target, TargetField::Off);
}
void Builder::jump(Cond c, Reg a, Reg b, Label target) {
  emit(make(op::JMP | jmp_code(c) | op::X, a, b), target, TargetField::Off);
}
void Builder::jump32(Cond c, Reg a, int32_t imm, Label target) {
  emit(make(op::JMP32 | jmp_code(c) | op::K, a, 0, 0, imm), target, TargetField::Off);
}
void Builder::jump32(Cond c, Reg a, Reg b, Label target) {
  emit(make(op::JMP32 | jmp_code(c) | op::X, a, b), target, TargetField::Off);
}
void Builder::call(Helper helper) {
  emit(make(op::JMP | op::CALL, 0, 0, 0, static_cast<int32_t>(helper)));
}
void Builder::call(Label function) {
  emit(make(op::JMP | op::CALL, 0, op::PSEUDO_CALL), function, TargetField::Imm);
}
void Builder::call_kfunc(int32_t btf_id, int16_t btf_fd_index) {
  emit(make(op::JMP | op::CALL, 0, op::PSEUDO_KFUNC_CALL, btf_fd_index, btf_id));
}
void Builder::exit() { emit(make(op::JMP | op::EXIT)); }

namespace {
// goto, gotol and exit: the next instruction is reached only through a label.
bool ends_flow(const Instruction& insn) {
  return insn.code == (op::JMP | op::JA) || insn.code == (op::JMP32 | op::JA) || insn.code == (op::JMP | op::EXIT);
}
}  // namespace

void Builder::emit(const Instruction& insn) {
  if (!reachable()) return;
  insns_.push_back(insn);
  dead_ = ends_flow(insn);
}

void Builder::emit(const Instruction& insn, Label target, TargetField field, std::string origin) {
  if (!reachable()) return;
  origin = origin_or_index(origin, insns_.size());
  if (target.id < labels_.size()) {
    LabelInfo& l = labels_[target.id];
    l.targeted = true;
    if (l.bound_unreachable && jump_into_dropped_.empty()) jump_into_dropped_ = origin + " to '" + l.name + "'";
  }
  fixups_.push_back({insns_.size(), target, field, origin});
  insns_.push_back(insn);
  dead_ = ends_flow(insn);
}

void Builder::annotate(std::string text) {
  if (!reachable()) return;  // it would label the next code that is kept, which is not its own
  annotations_.push_back({insns_.size(), std::move(text)});
}

bool Builder::uses_map(MapHandle map) const {
  return std::any_of(map_fixups_.begin(), map_fixups_.end(), [&](const MapFixup& m) { return m.map.id == map.id; });
}

Result<Program> Builder::finish(std::span<const int> map_fds) const {
  for (const LabelInfo& l : labels_) {
    if (l.second_origin == "foreign")
      return make_error("label from another Builder bound", l.origin,
                        "bind labels only in the Builder that made them");
    if (!l.second_origin.empty())
      return make_error("label '" + l.name + "' defined twice", l.second_origin,
                        "first defined at " + l.origin + "; give each target its own label");
  }
  if (!jump_into_dropped_.empty())
    return make_error("jump into code dropped as unreachable", jump_into_dropped_,
                      "bind the label where code reaches it, or bind it only after the jump to it");
  Program p{insns_, annotations_};
  // Slot index of each instruction (LD_IMM64 takes two), plus the end.
  std::vector<size_t> slot(insns_.size() + 1, 0);
  for (size_t i = 0; i < insns_.size(); ++i) slot[i + 1] = slot[i] + insns_[i].width();

  for (const Fixup& f : fixups_) {
    if (f.target.id >= labels_.size())
      return make_error("jump to a label of another Builder", f.origin,
                        "use labels made by this Builder's new_label()");
    const LabelInfo& l = labels_[f.target.id];
    if (!l.index)
      return make_error("undefined label '" + l.name + "'", f.origin,
                        "bind the label (name: in assembly) before finishing");
    if (*l.index >= insns_.size())
      return make_error("label '" + l.name + "' is after the last instruction", l.origin,
                        "a jump target needs an instruction to land on");
    int64_t distance = static_cast<int64_t>(slot[*l.index]) - static_cast<int64_t>(slot[f.index] + 1);
    Instruction& insn = p.insns[f.index];
    if (f.field == TargetField::Off) {
      if (distance < INT16_MIN || distance > INT16_MAX)
        return make_error("jump to '" + l.name + "' is " + std::to_string(distance) +
                              " instructions away, beyond the 16-bit offset range [-32768, 32767]",
                          f.origin, "use gotol (jump_long) or reorder the code");
      insn.off = static_cast<int16_t>(distance);
    } else {
      if (distance < INT32_MIN || distance > INT32_MAX)
        return make_error("target '" + l.name + "' is beyond the 32-bit range", f.origin);
      uint64_t hi = insn.is_wide() ? static_cast<uint64_t>(insn.imm) & 0xffffffff00000000ull : 0;
      insn.imm = insn.is_wide() ? static_cast<int64_t>(hi | static_cast<uint32_t>(distance)) : distance;
    }
  }
  for (const MapFixup& m : map_fixups_) {
    if (m.map.id >= map_fds.size())
      return make_error("map handle " + std::to_string(m.map.id) + " has no fd",
                        "instruction " + std::to_string(m.index),
                        "pass finish() an fd for every map handle (" +
                            std::to_string(map_fds.size()) + " given)");
    Instruction& insn = p.insns[m.index];
    uint64_t hi = static_cast<uint64_t>(insn.imm) & 0xffffffff00000000ull;
    insn.imm = static_cast<int64_t>(hi | static_cast<uint32_t>(map_fds[m.map.id]));
  }
  for (size_t i = 0; i < p.insns.size(); ++i) {
    const Instruction& insn = p.insns[i];
    if (!find_form(insn)) {
      char buf[112];
      std::snprintf(buf, sizeof buf, "code=0x%02x dst=r%d src=r%d off=%d imm=%lld", insn.code,
                    insn.dst, insn.src, insn.off, static_cast<long long>(insn.imm));
      return make_error("invalid instruction " + std::string(buf), "instruction " + std::to_string(i),
                        "no eBPF instruction has these fields (see bpfasm/form_table.cpp)");
    }
  }
  return p;
}

}  // namespace rawprobe::bpf
