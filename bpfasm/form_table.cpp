// The rows of the opcode table. Verifier strings follow kernel/bpf/disasm.c (print_bpf_insn);
// LLVM strings follow LLVM 14's BPFInstrInfo.td as llvm-mc reads and llvm-objdump prints them.
// LD_IMM64 pseudo sources print like bpftool's print_imm (map[id:N] there is an id because
// bpftool reads loaded programs; before loading the number is an fd, so it reads map[fd:N]).
#include <string>
#include <utility>

#include "bpfasm/form.h"

namespace rawprobe::bpf {
namespace {

struct Row {
  Form f;
  Row(uint8_t code) { f.code = code; }
  Row& dst(uint8_t v) { f.dst = v; return *this; }
  Row& src(uint8_t v) { f.src = v; return *this; }
  Row& off(int16_t v) { f.off = v; return *this; }
  Row& imm(int32_t v) { f.imm = v; return *this; }
  Row& imm_hi(int32_t v) { f.imm_hi = v; return *this; }
  Row& text(std::string verifier) { f.syntax = std::move(verifier); return *this; }
  // LLVM 14 knows the instruction and spells it `s`.
  Row& llvm(std::string s) { f.llvm_syntax = std::move(s); f.llvm14 = true; return *this; }
  // An LLVM-style spelling we accept though LLVM 14 does not have the instruction.
  Row& llvm_style(std::string s) { f.llvm_syntax = std::move(s); return *this; }
  Row& alias(std::string s) { f.alias = std::move(s); return *this; }
};

struct Sym {
  uint8_t op;
  const char* text;
};

void add_alu(std::vector<Form>& t) {
  // disasm.c bpf_alu_string; NEG and END have their own shapes below.
  static const Sym ops[] = {{op::ADD, "+="}, {op::SUB, "-="}, {op::MUL, "*="},  {op::DIV, "/="},
                            {op::OR, "|="},  {op::AND, "&="}, {op::LSH, "<<="}, {op::RSH, ">>="},
                            {op::MOD, "%="}, {op::XOR, "^="}, {op::MOV, "="},   {op::ARSH, "s>>="}};
  for (uint8_t cls : {op::ALU64, op::ALU}) {
    std::string d = cls == op::ALU64 ? "{rd}" : "{wd}";
    std::string s = cls == op::ALU64 ? "{rs}" : "{ws}";
    for (const Sym& o : ops) {
      std::string reg = d + " " + o.text + " " + s;
      std::string imm = d + " " + o.text + " {imm}";
      Row by_reg = Row(cls | o.op | op::X).off(0).imm(0).text(reg);
      Row by_imm = Row(cls | o.op | op::K).src(0).off(0).text(imm);
      if (o.op == op::MOD) {  // LLVM 14 has no BPF_MOD (it expands urem with div and mul)
        by_reg.llvm_style(reg);
        by_imm.llvm_style(imm);
      } else {
        by_reg.llvm(reg);
        by_imm.llvm(imm);
      }
      t.push_back(by_reg.f);
      t.push_back(by_imm.f);
    }
    // cpu v4 signed division and modulo: off = 1 (disasm.c bpf_alu_sign_string).
    for (Sym o : {Sym{op::DIV, "s/="}, Sym{op::MOD, "s%="}}) {
      t.push_back(Row(cls | o.op | op::X).off(1).imm(0).text(d + " " + o.text + " " + s).f);
      t.push_back(Row(cls | o.op | op::K).src(0).off(1).text(d + " " + o.text + " {imm}").f);
    }
    // cpu v4 sign-extending move: off = 8, 16 (and 32 for ALU64) is the source width.
    for (int bits : {8, 16, 32}) {
      if (cls == op::ALU && bits == 32) continue;
      std::string cast = "(s" + std::to_string(bits) + ")";
      t.push_back(Row(cls | op::MOV | op::X).off(bits).imm(0).text(d + " = " + cast + s).f);
    }
    std::string neg = d + " = -" + d;
    t.push_back(Row(cls | op::NEG | op::K).src(0).off(0).imm(0).text(neg).llvm(neg).f);
  }
  // Byte order: ALU|END converts to little/big endian; ALU64|END is the cpu v4 unconditional
  // bswap. disasm.c prints both with r registers.
  for (int bits : {16, 32, 64}) {
    std::string n = std::to_string(bits);
    std::string le = "{rd} = le" + n + " {rd}", be = "{rd} = be" + n + " {rd}";
    t.push_back(Row(op::ALU | op::END | op::TO_LE).src(0).off(0).imm(bits).text(le).llvm(le).f);
    t.push_back(Row(op::ALU | op::END | op::TO_BE).src(0).off(0).imm(bits).text(be).llvm(be).f);
    t.push_back(Row(op::ALU64 | op::END | op::K).src(0).off(0).imm(bits)
                    .text("{rd} = bswap" + n + " {rd}").f);
  }
}

void add_jmp(std::vector<Form>& t) {
  // disasm.c bpf_jmp_string. LLVM 14 has no JSET.
  static const Sym conds[] = {{op::JEQ, "=="}, {op::JGT, ">"},    {op::JGE, ">="},
                              {op::JSET, "&"}, {op::JNE, "!="},   {op::JSGT, "s>"},
                              {op::JSGE, "s>="}, {op::JLT, "<"},  {op::JLE, "<="},
                              {op::JSLT, "s<"}, {op::JSLE, "s<="}};
  for (uint8_t cls : {op::JMP, op::JMP32}) {
    std::string d = cls == op::JMP ? "{rd}" : "{wd}";
    std::string s = cls == op::JMP ? "{rs}" : "{ws}";
    for (const Sym& c : conds) {
      std::string head = "if " + d + " " + c.text + " ";
      Row reg = Row(cls | c.op | op::X).imm(0).text(head + s + " goto pc{joff}");
      Row imm = Row(cls | c.op | op::K).src(0).text(head + "{immx} goto pc{joff}");
      if (c.op == op::JSET) {
        reg.llvm_style(head + s + " goto {joff}");
        imm.llvm_style(head + "{imm} goto {joff}");
      } else {
        reg.llvm(head + s + " goto {joff}");
        imm.llvm(head + "{imm} goto {joff}");
      }
      t.push_back(reg.f);
      t.push_back(imm.f);
    }
  }
  t.push_back(Row(op::JMP | op::JA).dst(0).src(0).imm(0).text("goto pc{joff}")
                  .llvm("goto {joff}").f);
  // cpu v4 long jump: the offset is in imm.
  t.push_back(Row(op::JMP32 | op::JA).dst(0).src(0).off(0).text("gotol pc{jimm}")
                  .llvm_style("gotol {jimm}").f);
  t.push_back(Row(op::JMP | op::CALL).dst(0).src(0).off(0).text("call {helper}")
                  .llvm("call {imm}").f);
  // bpf-to-bpf call: imm is the callee's offset. `call name` names a label (a number there
  // is a helper id, matched by the row above first).
  t.push_back(Row(op::JMP | op::CALL).dst(0).src(op::PSEUDO_CALL).off(0).text("call pc{jimm}")
                  .alias("call {jimm}").f);
  // kfunc: imm is the BTF id, off the index of the module BTF fd in fd_array (0: vmlinux).
  // disasm.c prints "kernel-function" when it has no BTF to name the function.
  t.push_back(Row(op::JMP | op::CALL).dst(0).src(op::PSEUDO_KFUNC_CALL).off(0)
                  .text("call kernel-function#{imm}").f);
  t.push_back(Row(op::JMP | op::CALL).dst(0).src(op::PSEUDO_KFUNC_CALL)
                  .text("call kernel-function#{imm} btf_fd_idx:{off}").f);
  t.push_back(Row(op::JMP | op::EXIT).dst(0).src(0).off(0).imm(0).text("exit").llvm("exit").f);
}

const char* u_size(uint8_t size) {
  switch (size) {
    case op::B: return "u8";
    case op::H: return "u16";
    case op::W: return "u32";
    default: return "u64";
  }
}

void add_load_store(std::vector<Form>& t) {
  for (uint8_t size : {op::DW, op::W, op::H, op::B}) {
    std::string u = u_size(size);
    // LLVM's 32-bit subregister spelling of sub-doubleword loads and stores (alu32).
    std::string lr = size == op::DW ? "{rd}" : "{wd}", ls = size == op::DW ? "{rs}" : "{ws}";
    t.push_back(Row(op::LDX | op::MEM | size).imm(0)
                    .text("{rd} = *(" + u + " *)({rs} {off})")
                    .llvm(lr + " = *(" + u + " *)({rs} {soff})").f);
    if (size != op::DW) {
      std::string sx = "s" + u.substr(1);
      t.push_back(Row(op::LDX | op::MEMSX | size).imm(0)
                      .text("{rd} = *(" + sx + " *)({rs} {off})").f);
    }
    t.push_back(Row(op::ST | op::MEM | size).src(0)
                    .text("*(" + u + " *)({rd} {off}) = {imm}").f);
    t.push_back(Row(op::STX | op::MEM | size).imm(0)
                    .text("*(" + u + " *)({rd} {off}) = {rs}")
                    .llvm("*(" + u + " *)({rd} {soff}) = " + ls).f);
  }
}

void add_atomic(std::vector<Form>& t) {
  static const Sym ops[] = {{op::ADD, "add"}, {op::OR, "or"}, {op::AND, "and"}, {op::XOR, "xor"}};
  static const char* assign[] = {"+=", "|=", "&=", "^="};
  for (uint8_t size : {op::DW, op::W}) {
    std::string u = u_size(size), bits = size == op::DW ? "64" : "";
    std::string ls = size == op::DW ? "{rs}" : "{ws}";
    std::string lz = size == op::DW ? "r0" : "w0";
    uint8_t code = op::STX | op::ATOMIC | size;
    std::string mem = "(" + u + " *)({rd} {off})", lmem = "(" + u + " *)({rd} {soff})";
    for (int i = 0; i < 4; ++i) {
      t.push_back(Row(code).imm(ops[i].op)
                      .text("lock *" + mem + " " + assign[i] + " {rs}")
                      .llvm("lock *" + lmem + " " + assign[i] + " " + ls).f);
      std::string fetch = std::string("_fetch_") + ops[i].text + "(";
      t.push_back(Row(code).imm(ops[i].op | op::FETCH)
                      .text("{rs} = atomic" + bits + fetch + mem + ", {rs})")
                      .llvm(ls + " = atomic" + fetch + lmem + ", " + ls + ")").f);
    }
    std::string lx = size == op::DW ? "_64(" : "32_32(";
    t.push_back(Row(code).imm(op::XCHG)
                    .text("{rs} = atomic" + bits + "_xchg(" + mem + ", {rs})")
                    .llvm(ls + " = xchg" + lx + "{rd} {soff}, " + ls + ")").f);
    t.push_back(Row(code).imm(op::CMPXCHG)
                    .text("r0 = atomic" + bits + "_cmpxchg(" + mem + ", r0, {rs})")
                    .llvm(lz + " = cmpxchg" + lx + "{rd} {soff}, " + lz + ", " + ls + ")").f);
  }
}

void add_ld(std::vector<Form>& t) {
  const uint8_t wide = op::LD_IMM64;
  t.push_back(Row(wide).src(0).off(0).text("{rd} = {imm64} ll").llvm("{rd} = {imm64} ll").f);
  t.push_back(Row(wide).src(op::PSEUDO_MAP_FD).off(0).imm_hi(0).text("{rd} = map[fd:{lo}]")
                  .llvm("ld_pseudo {rd}, 1, {lo}").f);
  t.push_back(Row(wide).src(op::PSEUDO_MAP_VALUE).off(0).text("{rd} = map[fd:{lo}][0]+{hi}").f);
  t.push_back(Row(wide).src(op::PSEUDO_BTF_ID).off(0).imm_hi(0).text("{rd} = btf_id[{lo}]")
                  .llvm("ld_pseudo {rd}, 3, {lo}").f);
  // A module's BTF: the high half holds its BTF fd.
  t.push_back(Row(wide).src(op::PSEUDO_BTF_ID).off(0).text("{rd} = btf_id[{lo}][fd:{hi}]").f);
  t.push_back(Row(wide).src(op::PSEUDO_FUNC).off(0).imm_hi(0).text("{rd} = subprog[{jimm}]").f);
  t.push_back(Row(wide).src(op::PSEUDO_MAP_IDX).off(0).imm_hi(0).text("{rd} = map[idx:{lo}]")
                  .llvm("ld_pseudo {rd}, 5, {lo}").f);
  t.push_back(Row(wide).src(op::PSEUDO_MAP_IDX_VALUE).off(0).text("{rd} = map[idx:{lo}]+{hi}").f);
  // Legacy packet access (decoded, printed and parsed; the Builder does not offer it).
  for (uint8_t size : {op::W, op::H, op::B}) {
    std::string u = u_size(size);
    t.push_back(Row(op::LD | op::ABS | size).dst(0).src(0).off(0)
                    .text("r0 = *(" + u + " *)skb[{imm}]").llvm("r0 = *(" + u + " *)skb[{imm}]").f);
    // LLVM's LD_IND has no displacement, so only imm = 0 has an LLVM spelling.
    t.push_back(Row(op::LD | op::IND | size).dst(0).off(0).imm(0)
                    .text("r0 = *(" + u + " *)skb[{rs} + {imm}]")
                    .llvm("r0 = *(" + u + " *)skb[{rs}]").f);
    t.push_back(Row(op::LD | op::IND | size).dst(0).off(0)
                    .text("r0 = *(" + u + " *)skb[{rs} + {imm}]").f);
  }
}

std::vector<Form> build() {
  std::vector<Form> t;
  add_alu(t);
  add_jmp(t);
  add_load_store(t);
  add_atomic(t);
  add_ld(t);
  return t;
}

}  // namespace

bool Form::matches(const Instruction& insn) const {
  if (insn.code != code || insn.dst > kMaxReg || insn.src > kMaxReg) return false;
  if (dst && insn.dst != *dst) return false;
  if (src && insn.src != *src) return false;
  if (off && insn.off != *off) return false;
  if (insn.is_wide()) {
    if (imm && insn.imm_lo() != *imm) return false;
    if (imm_hi && insn.imm_hi() != *imm_hi) return false;
    return true;
  }
  if (insn.imm < INT32_MIN || insn.imm > INT32_MAX) return false;
  return !imm || insn.imm == *imm;
}

const std::vector<Form>& forms() {
  static const std::vector<Form> table = build();
  return table;
}

const Form* find_form(const Instruction& insn) {
  for (const Form& f : forms())
    if (f.matches(insn)) return &f;
  return nullptr;
}

}  // namespace rawprobe::bpf
