#include "bpfasm/subprograms.h"

#include <algorithm>

namespace rawprobe::bpf {

std::vector<uint32_t> subprogram_starts(const Program& program) {
  std::vector<uint32_t> starts = {0};
  int64_t slot = 0;
  for (const Instruction& insn : program.insns) {
    bool call = insn.code == (op::JMP | op::CALL) && insn.src == op::PSEUDO_CALL;
    bool func = insn.is_wide() && insn.src == op::PSEUDO_FUNC;
    // Both count from the slot after the instruction's first; a wide load's distance is the
    // low 32 bits of its immediate.
    if (call || func) starts.push_back(static_cast<uint32_t>(slot + 1 + insn.imm_lo()));
    slot += insn.width();
  }
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  return starts;
}

}  // namespace rawprobe::bpf
