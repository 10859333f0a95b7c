// eBPF instructions as values (DESIGN.md practice 1).
//
// Two types:
//   Insn         the raw 8-byte slot, laid out exactly like the kernel's struct bpf_insn
//                (checked against <linux/bpf.h> in insn.cpp);
//   Instruction  the logical instruction: {code, dst, src, off, imm} with ==, where a 64-bit
//                immediate load (LD_IMM64) is ONE instruction of width 2 whose imm holds all
//                64 bits (low half from slot 0, high half from slot 1).
//
// Opcode byte (RFC 9669 section 3):
//      7   4   3   2    0            7   5 4  3 2    0
//     +-----+-----+------+          +-----+----+------+
//     | op  | src |class |  ALU/JMP | mode|size|class |  LD/LDX/ST/STX
//     +-----+-----+------+          +-----+----+------+
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rawprobe::bpf {

// Opcode parts. Named like the kernel's BPF_* macros without the prefix (the macros exist in
// <linux/bpf.h>, which this header does not include, and lack the cpu v4 additions in 6.1).
namespace op {
// classes
inline constexpr uint8_t LD = 0x00, LDX = 0x01, ST = 0x02, STX = 0x03, ALU = 0x04, JMP = 0x05,
                         JMP32 = 0x06, ALU64 = 0x07;
// source operand of ALU and JMP: immediate (K) or register (X); for END: byte order
inline constexpr uint8_t K = 0x00, X = 0x08, TO_LE = 0x00, TO_BE = 0x08;
// ALU operations
inline constexpr uint8_t ADD = 0x00, SUB = 0x10, MUL = 0x20, DIV = 0x30, OR = 0x40, AND = 0x50,
                         LSH = 0x60, RSH = 0x70, NEG = 0x80, MOD = 0x90, XOR = 0xa0, MOV = 0xb0,
                         ARSH = 0xc0, END = 0xd0;
// JMP operations
inline constexpr uint8_t JA = 0x00, JEQ = 0x10, JGT = 0x20, JGE = 0x30, JSET = 0x40, JNE = 0x50,
                         JSGT = 0x60, JSGE = 0x70, CALL = 0x80, EXIT = 0x90, JLT = 0xa0,
                         JLE = 0xb0, JSLT = 0xc0, JSLE = 0xd0;
// load/store sizes and modes
inline constexpr uint8_t W = 0x00, H = 0x08, B = 0x10, DW = 0x18;
inline constexpr uint8_t IMM = 0x00, ABS = 0x20, IND = 0x40, MEM = 0x60, MEMSX = 0x80,
                         ATOMIC = 0xc0;
// atomic operations live in imm: an ALU operation, optionally | FETCH, or XCHG / CMPXCHG
inline constexpr int32_t FETCH = 0x01, XCHG = 0xe0 | FETCH, CMPXCHG = 0xf0 | FETCH;
// src_reg of LD_IMM64
inline constexpr uint8_t PSEUDO_MAP_FD = 1, PSEUDO_MAP_VALUE = 2, PSEUDO_BTF_ID = 3,
                         PSEUDO_FUNC = 4, PSEUDO_MAP_IDX = 5, PSEUDO_MAP_IDX_VALUE = 6;
// src_reg of CALL
inline constexpr uint8_t PSEUDO_CALL = 1, PSEUDO_KFUNC_CALL = 2;
// the whole opcode of the 64-bit immediate load
inline constexpr uint8_t LD_IMM64 = LD | IMM | DW;

constexpr uint8_t cls(uint8_t code) { return code & 0x07; }
constexpr uint8_t alu_op(uint8_t code) { return code & 0xf0; }
constexpr uint8_t source(uint8_t code) { return code & 0x08; }
constexpr uint8_t size(uint8_t code) { return code & 0x18; }
constexpr uint8_t mode(uint8_t code) { return code & 0xe0; }
}  // namespace op

// Registers r0..r10 (r10 is the read-only frame pointer).
enum Reg : uint8_t { R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10 };
inline constexpr uint8_t kMaxReg = 10;

// The kernel's struct bpf_insn (little-endian bit-field order, as on every host we build).
struct Insn {
  uint8_t code;
  uint8_t dst_reg : 4;
  uint8_t src_reg : 4;
  int16_t off;
  int32_t imm;
  bool operator==(const Insn&) const = default;
};

struct Instruction {
  uint8_t code = 0;
  uint8_t dst = 0;
  uint8_t src = 0;
  int16_t off = 0;
  int64_t imm = 0;  // LD_IMM64: all 64 bits; otherwise a sign-extended int32

  bool is_wide() const { return code == op::LD_IMM64; }
  // Number of 8-byte slots: 2 for LD_IMM64, else 1.
  size_t width() const { return is_wide() ? 2 : 1; }
  // LD_IMM64 halves: low 32 bits go to slot 0's imm, high 32 bits to slot 1's imm.
  int32_t imm_lo() const { return static_cast<int32_t>(static_cast<uint64_t>(imm)); }
  int32_t imm_hi() const { return static_cast<int32_t>(static_cast<uint64_t>(imm) >> 32); }
  bool operator==(const Instruction&) const = default;
};

// Appends the slot(s) of one instruction.
void encode(const Instruction& insn, std::vector<Insn>& out);
std::vector<Insn> encode(std::span<const Instruction> insns);

// Raw slots <-> little-endian bytes, independent of the host's byte order.
std::vector<uint8_t> to_bytes(std::span<const Insn> insns);
// Bytes whose length is a multiple of 8; callers check the length (decode.h reports it).
std::vector<Insn> from_bytes(std::span<const uint8_t> bytes);

// Number of slots a sequence of instructions occupies.
size_t slot_count(std::span<const Instruction> insns);

}  // namespace rawprobe::bpf
