// Instructions as text in the kernel verifier's syntax (kernel/bpf/disasm.c), or LLVM's.
//   print(insn)       "r1 = *(u64 *)(r10 -8)"
//   print(program)    "0: (79) r1 = *(u64 *)(r10 -8)" per line, slot index and opcode first
//                     as in the verifier log, annotations as "; text" lines before their
//                     instruction. parse.h reads all of it back.
#pragma once
#include <string>

#include "bpfasm/program.h"
#include "bpfasm/syntax.h"

namespace rawprobe::bpf {

// One instruction. An instruction no table row accepts prints as "invalid(code=0x.. ...)".
std::string print(const Instruction& insn, Dialect dialect = Dialect::Verifier);

struct ListingOptions {
  bool index = true;        // "12: " (slot index, like the verifier log)
  bool opcode = true;       // "(79) " (the opcode byte, like the verifier log)
  bool annotations = true;  // "; text" lines
  Dialect dialect = Dialect::Verifier;
};

// A whole program, one instruction per line.
std::string print(const Program& program, const ListingOptions& options = {});

// The line prefix of a listing: "12: (79) " per the options.
std::string listing_prefix(size_t slot, uint8_t code, const ListingOptions& options);

}  // namespace rawprobe::bpf
