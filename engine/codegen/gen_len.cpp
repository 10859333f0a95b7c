// len(@m): bpf_for_each_map_elem (Linux 5.13) with a callback that only asks for the next
// element returns how many elements it visited, which is the map's size:
//   r1 = map; r2 = &count_callback; r3 = 0; r4 = 0; call bpf_for_each_map_elem   (r0 = len)
//   count_callback: r0 = 0; exit          (after the program, once, when some len() uses it)
// len(ustack), len(kstack): bpf_get_stack (4.18) copies the frames into a scratch record and
// returns their bytes, 8 a frame:
//   r1 = ctx; r2 = record; r3 = 8 * limit; r4 = BPF_F_USER_STACK or 0; call bpf_get_stack
//   r0 < 0 (no stack): 0; else r0 >> 3
#include <linux/bpf.h>

#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

IntVal ProgramGen::len_int(const lang::Expr& e) {
  const lang::Expr& x = *e.operands[0];
  if (x.type.kind == TypeKind::UStack || x.type.kind == TypeKind::KStack) return stack_depth_int(x);
  if (!helper_available(bpf::Helper::for_each_map_elem, e.span,
                        "len(@map) counts a map's elements with the kernel's bpf_for_each_map_elem helper "
                        "(Linux 5.13), which this kernel does not have"))
    return IntVal::constant(0);
  if (!count_callback_used_) {
    count_callback_ = b_.new_label("len_count");
    count_callback_used_ = true;
  }
  b_.load_map_fd(bpf::R1, bpf::MapHandle{script_.user_map(e.operands[0]->map_id)});
  b_.load_func(bpf::R2, count_callback_);
  b_.mov(bpf::R3, 0);
  b_.mov(bpf::R4, 0);
  b_.call(bpf::Helper::for_each_map_elem);
  return IntVal::r0();
}

IntVal ProgramGen::stack_depth_int(const lang::Expr& stack) {
  uint32_t bytes = 8u * (stack.type.stack_limit ? stack.type.stack_limit : 127u);
  bpf::Label none = b_.new_label("stack_depth_none"), done = b_.new_label("stack_depth_end");
  Place record = scratch_record(bytes, none);
  if (bpf::Reg c = ctx(); c != bpf::R1) b_.mov(bpf::R1, c);
  place_address(bpf::R2, record);
  b_.mov(bpf::R3, static_cast<int32_t>(bytes));
  b_.mov(bpf::R4, stack.type.kind == TypeKind::UStack ? static_cast<int32_t>(BPF_F_USER_STACK) : 0);
  b_.call(bpf::Helper::get_stack);
  IntVal ptr = IntVal::in_temp(record.ptr);
  release(ptr);
  Temp t = regs_.take();
  bpf::Reg r = target_reg(t, bpf::R1);
  b_.mov(r, bpf::R0);
  b_.jump(bpf::Cond::SLt, r, 0, none);
  b_.alu(bpf::Op::Rsh, r, 3);
  b_.jump(done);
  b_.bind(none);
  b_.mov(r, 0);
  b_.bind(done);
  set(t, r);
  return IntVal::in_temp(t);
}

void ProgramGen::count_callback() {
  if (!count_callback_used_) return;
  b_.bind(count_callback_, "len() count callback");
  b_.annotate("subprogram: len()'s callback of bpf_for_each_map_elem, which counts the calls");
  b_.mov(bpf::R0, 0);
  b_.exit();
}

}  // namespace rawprobe::codegen
