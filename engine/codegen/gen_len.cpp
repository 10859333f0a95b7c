// len(@m): bpf_for_each_map_elem (Linux 5.13) with a callback that only asks for the next
// element returns how many elements it visited, which is the map's size:
//   r1 = map; r2 = &count_callback; r3 = 0; r4 = 0; call bpf_for_each_map_elem   (r0 = len)
//   count_callback: r0 = 0; exit          (after the program, once, when some len() uses it)
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

IntVal ProgramGen::len_int(const lang::Expr& e) {
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

void ProgramGen::count_callback() {
  if (!count_callback_used_) return;
  b_.bind(count_callback_, "len() count callback");
  b_.annotate("subprogram: len()'s callback of bpf_for_each_map_elem, which counts the calls");
  b_.mov(bpf::R0, 0);
  b_.exit();
}

}  // namespace rawprobe::codegen
