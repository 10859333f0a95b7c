// Where a program's bpf-to-bpf functions start, as the verifier finds them: instruction slot
// 0, and every target of a BPF_PSEUDO_CALL call or a BPF_PSEUDO_FUNC address load (a
// callback given to bpf_loop or bpf_for_each_map_elem). A program with more than one needs
// BTF func_info naming each, in this order, to load.
#pragma once
#include <cstdint>
#include <vector>

#include "bpfasm/program.h"

namespace rawprobe::bpf {

// Slot indices (a 64-bit immediate load takes two), sorted, without duplicates.
std::vector<uint32_t> subprogram_starts(const Program& program);

}  // namespace rawprobe::bpf
