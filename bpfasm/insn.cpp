#include "bpfasm/insn.h"

#include <linux/bpf.h>

#include <cstddef>

namespace rawprobe::bpf {

// Our raw slot must be the kernel's, byte for byte. (Bit-field order cannot be checked by
// offsetof; tests/unit/bpfasm_insn_test.cpp compares the bytes of both structs.)
static_assert(sizeof(Insn) == sizeof(struct bpf_insn));
static_assert(offsetof(Insn, code) == offsetof(struct bpf_insn, code));
static_assert(offsetof(Insn, off) == offsetof(struct bpf_insn, off));
static_assert(offsetof(Insn, imm) == offsetof(struct bpf_insn, imm));

// Our opcode constants against the uapi macros that this machine's header has.
static_assert(op::LD == BPF_LD && op::LDX == BPF_LDX && op::ST == BPF_ST && op::STX == BPF_STX);
static_assert(op::ALU == BPF_ALU && op::JMP == BPF_JMP && op::JMP32 == BPF_JMP32 &&
              op::ALU64 == BPF_ALU64);
static_assert(op::K == BPF_K && op::X == BPF_X && op::TO_LE == BPF_TO_LE && op::TO_BE == BPF_TO_BE);
static_assert(op::ADD == BPF_ADD && op::SUB == BPF_SUB && op::MUL == BPF_MUL && op::DIV == BPF_DIV &&
              op::OR == BPF_OR && op::AND == BPF_AND && op::LSH == BPF_LSH && op::RSH == BPF_RSH &&
              op::NEG == BPF_NEG && op::MOD == BPF_MOD && op::XOR == BPF_XOR &&
              op::MOV == BPF_MOV && op::ARSH == BPF_ARSH && op::END == BPF_END);
static_assert(op::JA == BPF_JA && op::JEQ == BPF_JEQ && op::JGT == BPF_JGT && op::JGE == BPF_JGE &&
              op::JSET == BPF_JSET && op::JNE == BPF_JNE && op::JSGT == BPF_JSGT &&
              op::JSGE == BPF_JSGE && op::CALL == BPF_CALL && op::EXIT == BPF_EXIT &&
              op::JLT == BPF_JLT && op::JLE == BPF_JLE && op::JSLT == BPF_JSLT &&
              op::JSLE == BPF_JSLE);
static_assert(op::W == BPF_W && op::H == BPF_H && op::B == BPF_B && op::DW == BPF_DW);
static_assert(op::IMM == BPF_IMM && op::ABS == BPF_ABS && op::IND == BPF_IND &&
              op::MEM == BPF_MEM && op::ATOMIC == BPF_ATOMIC);
#ifdef BPF_MEMSX  // uapi since Linux 6.6
static_assert(op::MEMSX == BPF_MEMSX);
#endif
static_assert(op::FETCH == BPF_FETCH && op::XCHG == BPF_XCHG && op::CMPXCHG == BPF_CMPXCHG);
static_assert(op::PSEUDO_MAP_FD == BPF_PSEUDO_MAP_FD &&
              op::PSEUDO_MAP_VALUE == BPF_PSEUDO_MAP_VALUE &&
              op::PSEUDO_BTF_ID == BPF_PSEUDO_BTF_ID && op::PSEUDO_FUNC == BPF_PSEUDO_FUNC &&
              op::PSEUDO_MAP_IDX == BPF_PSEUDO_MAP_IDX &&
              op::PSEUDO_MAP_IDX_VALUE == BPF_PSEUDO_MAP_IDX_VALUE);
static_assert(op::PSEUDO_CALL == BPF_PSEUDO_CALL && op::PSEUDO_KFUNC_CALL == BPF_PSEUDO_KFUNC_CALL);
static_assert(kMaxReg + 1 == MAX_BPF_REG);

void encode(const Instruction& insn, std::vector<Insn>& out) {
  Insn first{};
  first.code = insn.code;
  first.dst_reg = insn.dst & 0xf;
  first.src_reg = insn.src & 0xf;
  first.off = insn.off;
  if (!insn.is_wide()) {
    first.imm = static_cast<int32_t>(insn.imm);
    out.push_back(first);
    return;
  }
  // LD_IMM64's second slot carries only the high half; everything else is zero.
  first.imm = insn.imm_lo();
  Insn second{};
  second.imm = insn.imm_hi();
  out.push_back(first);
  out.push_back(second);
}

std::vector<Insn> encode(std::span<const Instruction> insns) {
  std::vector<Insn> out;
  out.reserve(slot_count(insns));
  for (const Instruction& insn : insns) encode(insn, out);
  return out;
}

size_t slot_count(std::span<const Instruction> insns) {
  size_t n = 0;
  for (const Instruction& insn : insns) n += insn.width();
  return n;
}

std::vector<uint8_t> to_bytes(std::span<const Insn> insns) {
  std::vector<uint8_t> bytes;
  bytes.reserve(insns.size() * 8);
  for (const Insn& s : insns) {
    uint16_t off = static_cast<uint16_t>(s.off);
    uint32_t imm = static_cast<uint32_t>(s.imm);
    bytes.push_back(s.code);
    bytes.push_back(static_cast<uint8_t>(s.dst_reg | (s.src_reg << 4)));
    bytes.push_back(off & 0xff);
    bytes.push_back(off >> 8);
    for (int i = 0; i < 4; ++i) bytes.push_back((imm >> (8 * i)) & 0xff);
  }
  return bytes;
}

std::vector<Insn> from_bytes(std::span<const uint8_t> bytes) {
  std::vector<Insn> insns;
  insns.reserve(bytes.size() / 8);
  for (size_t at = 0; at + 8 <= bytes.size(); at += 8) {
    const uint8_t* b = bytes.data() + at;
    Insn s{};
    s.code = b[0];
    s.dst_reg = b[1] & 0xf;
    s.src_reg = b[1] >> 4;
    s.off = static_cast<int16_t>(b[2] | (b[3] << 8));
    s.imm = static_cast<int32_t>(static_cast<uint32_t>(b[4]) | (static_cast<uint32_t>(b[5]) << 8) |
                                 (static_cast<uint32_t>(b[6]) << 16) |
                                 (static_cast<uint32_t>(b[7]) << 24));
    insns.push_back(s);
  }
  return insns;
}

}  // namespace rawprobe::bpf
