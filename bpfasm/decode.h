// Raw slots -> logical instructions, validated against the opcode table. An undecodable slot
// is named by its index and bytes: "instruction 5 (8f 01 00 00 00 00 00 00): unknown opcode 0x8f".
#pragma once
#include <span>
#include <vector>

#include "bpfasm/insn.h"
#include "engine/base/result.h"

namespace rawprobe::bpf {

// The instruction starting at slot `index` (LD_IMM64 also consumes slot index + 1).
Result<Instruction> decode_at(std::span<const Insn> insns, size_t index);

// Every instruction; the first undecodable slot is the error.
Result<std::vector<Instruction>> decode(std::span<const Insn> insns);

// Raw bytes (a .bin file) to slots: the length must be a multiple of 8.
Result<std::vector<Insn>> slots_from_bytes(std::span<const uint8_t> bytes);

}  // namespace rawprobe::bpf
