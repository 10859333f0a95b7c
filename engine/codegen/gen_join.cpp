// join(argv[, sep]): in this CPU's slot of the scratch array, the record
//   { u64 id; char args[16][1024] }
// where args[i] is the string argv[i] points to: for each i, the pointer is read into a stack
// word, then the string from it. A failed read leaves zeros (the helpers zero their
// destination on error), so a null pointer ends the list with an empty string, and user space
// stops at the first empty one; nothing branches, as bpftrace's unrolled loop does not.
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Helper;
using bpf::Reg;
using bpf::Size;
using lang::Expr;

void ProgramGen::join_call(const Expr& e) {
  IntVal array = gen_int(*e.operands[0]);
  pin(array);
  uint32_t size = kEventHeaderSize + lang::kJoinArgs * lang::kJoinArgBytes;
  bpf::Label skip = b_.new_label("join_skip");
  Place pointer{frame_.alloc(8), {}};
  Place rec = scratch_record(size, skip);
  store_int(IntVal::constant(e.call_id), 8, rec);
  // Tracepoint arguments such as execve's argv are user pointers: outside user probes the
  // generic helpers read them, as str() does (gen_calls.cpp).
  bool user = is_user_probe() && script_.options().probe_read_user;
  for (uint32_t i = 0; i < lang::kJoinArgs; ++i) {
    // pointer = argv[i]
    Reg a = use(array, bpf::R3);
    if (a != bpf::R3) b_.mov(bpf::R3, a);
    if (i) b_.alu(bpf::Op::Add, bpf::R3, static_cast<int32_t>(8 * i));
    place_address(bpf::R1, pointer);
    b_.mov(bpf::R2, 8);
    b_.call(user ? Helper::probe_read_user : Helper::probe_read);
    check_helper(user ? Helper::probe_read_user : Helper::probe_read, e.span);
    // args[i] = the string at pointer
    b_.load(Size::DW, bpf::R3, bpf::R10, static_cast<int16_t>(pointer.off));
    place_address(bpf::R1, rec.at(static_cast<int32_t>(kEventHeaderSize + i * lang::kJoinArgBytes)));
    b_.mov(bpf::R2, static_cast<int32_t>(lang::kJoinArgBytes));
    b_.call(user ? Helper::probe_read_user_str : Helper::probe_read_str);
    // With -kk the NULL past argv's end is a failed read too, as in bpftrace 0.17.
    check_helper(user ? Helper::probe_read_user_str : Helper::probe_read_str, e.span);
  }
  output_event(rec, size);
  b_.bind(skip);
  regs_.release(rec.ptr);
  release(array);
}

}  // namespace rawprobe::codegen
