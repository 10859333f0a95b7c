#include "engine/sys/kfunc_probe.h"

#include <cerrno>

#include "bpfasm/insn.h"
#include "engine/sys/feature_probes.h"

namespace rawprobe::sys {

Result<bool> kfunc_allowed(uint32_t prog_type, uint32_t kfunc_btf_id) {
  using bpf::Instruction;
  namespace op = bpf::op;
  std::vector<Instruction> program = {
      {op::JMP | op::CALL, 0, op::PSEUDO_KFUNC_CALL, 0, static_cast<int32_t>(kfunc_btf_id)},
      {op::ALU64 | op::MOV | op::K, 0, 0, 0, 0},
      {op::JMP | op::EXIT, 0, 0, 0, 0},
  };
  Result<Fd> prog = load_probe_program(prog_type, program);
  if (prog) return true;
  const Error& e = prog.error();
  if (e.detail.find("is not allowed") != std::string::npos) return false;
  if (e.err == EPERM || e.detail.empty()) return e;  // the verifier never saw it
  return true;
}

}  // namespace rawprobe::sys
