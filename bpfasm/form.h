// The opcode table (DESIGN.md practice 3): one row per instruction form of RFC 9669 through
// cpu v4, plus legacy LD_ABS/LD_IND. Every row names its opcode byte, which fields are fixed
// and which are operands, and its text in two dialects. Decoding (find_form), printing
// (print.h), parsing (parse.h) and the exhaustive tests all walk this one table.
//
// Syntax templates are literal text with placeholders (operand.h lists them), e.g.
//   "{rd} = *(u64 *)({rs} {off})"   ->  r1 = *(u64 *)(r10 -8)
// A field that a row fixes (std::optional holding a value) must equal that value; a field left
// empty is an operand and appears as a placeholder in the row's templates.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bpfasm/insn.h"

namespace rawprobe::bpf {

struct Form {
  uint8_t code = 0;
  std::optional<uint8_t> dst, src;
  std::optional<int16_t> off;
  std::optional<int32_t> imm;     // whole imm, or LD_IMM64's low half
  std::optional<int32_t> imm_hi;  // LD_IMM64's high half
  std::string syntax;             // the kernel verifier's (kernel/bpf/disasm.c): printed, parsed
  std::string llvm_syntax;        // LLVM's (llvm-mc, llvm-objdump); parsed; may be empty
  std::string alias;              // another spelling that is parsed, never printed; may be empty
  bool llvm14 = false;            // LLVM 14's BPF target knows it (the oracle tests use it)

  // The instruction's fields satisfy this row (registers r0..r10, fixed values equal).
  bool matches(const Instruction& insn) const;
};

// Every row, in match order: where two rows share an opcode, the more specific comes first.
const std::vector<Form>& forms();

// The row an instruction belongs to, or nullptr if it is not a valid instruction.
const Form* find_form(const Instruction& insn);

}  // namespace rawprobe::bpf
