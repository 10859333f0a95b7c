// A finished program: logical instructions plus the source annotations the Builder recorded
// (or the assembler read from "; ..." comment lines), for listings commented with source.
#pragma once
#include <string>
#include <vector>

#include "bpfasm/insn.h"

namespace rawprobe::bpf {

struct Annotation {
  size_t index = 0;  // the instruction (position in Program::insns) the text precedes
  std::string text;  // e.g. "script.bt:3: @n = count()"
  bool operator==(const Annotation&) const = default;
};

struct Program {
  std::vector<Instruction> insns;
  std::vector<Annotation> annotations;  // in index order

  // The kernel's view: struct bpf_insn slots, as BPF_PROG_LOAD takes them.
  std::vector<Insn> slots() const { return encode(insns); }
};

}  // namespace rawprobe::bpf
