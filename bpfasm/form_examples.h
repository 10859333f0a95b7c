// Example instructions for every opcode-table row: each operand field at its extremes and a
// few ordinary values, the others at ordinary values. The exhaustive round-trip and LLVM
// oracle tests walk these, and `bpfasm --forms` prints them.
#pragma once
#include <vector>

#include "bpfasm/form.h"

namespace rawprobe::bpf {

std::vector<Instruction> examples(const Form& form);

}  // namespace rawprobe::bpf
