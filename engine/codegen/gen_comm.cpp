// comm(pid) (engine/lang/semantic_comm.cpp says where it works and why):
//   r1 = pid
//   call bpf_task_from_pid          r0 = a counted reference to the task, or NULL
//   if r0 == 0 goto done            no such process: the string stays empty
//   slot = *(task + comm), 16 bytes plain loads: the verifier types r0 from BTF
//   r1 = r0
//   call bpf_task_release           every path that acquired the reference gives it back
// done:
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using lang::Expr;

void ProgramGen::comm_of_into(const Expr& e, uint32_t slot, Place dst) {
  int32_t from_pid = static_cast<int32_t>(e.int_value & 0xffffffff);
  int32_t task_release = static_cast<int32_t>(e.int_value >> 32);
  uint32_t size = std::min<uint32_t>(slot, e.type.size);
  zero(dst, slot);
  IntVal pid = gen_int(*e.operands[0]);
  bpf::Reg r = use(pid, bpf::R1);
  if (r != bpf::R1) b_.mov(bpf::R1, r);
  release(pid);
  b_.call_kfunc(from_pid);
  bpf::Label done = b_.new_label("comm_of_none");
  b_.jump(bpf::Cond::Eq, bpf::R0, 0, done);
  copy(dst, bpf::R0, static_cast<int32_t>(e.field_offset), size);
  b_.mov(bpf::R1, bpf::R0);
  b_.call_kfunc(task_release);
  b_.bind(done);
}

}  // namespace rawprobe::codegen
