// Functions with effects on the traced system (engine/lang/semantic_effects.cpp):
//   signal(sig)    bpf_send_signal(sig) (5.3): the current task gets sig
//   override(rc)   bpf_override_return(ctx, rc): the probed kernel function returns rc
// cat() and system() are printf records (gen_calls.cpp) that the runtime acts on.
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Helper;
using bpf::Reg;
using lang::Expr;

bool ProgramGen::helper_available(Helper h, lang::Span span, const std::string& what) {
  const auto& has = script_.options().has_helper;
  if (!has || has(h)) return true;
  fail(span, what);
  return false;
}

void ProgramGen::signal_call(const Expr& e) {
  if (!helper_available(Helper::send_signal, e.span,
                        "signal() needs the kernel's bpf_send_signal helper (Linux 5.3), which this kernel does not have"))
    return;
  if (e.int_value) {
    b_.mov(bpf::R1, static_cast<int32_t>(e.int_value));
  } else {
    IntVal v = gen_int(*e.operands[0]);
    Reg r = use(v, bpf::R1);
    if (r != bpf::R1) b_.mov(bpf::R1, r);
    release(v);
  }
  b_.call(Helper::send_signal);
  check_helper(Helper::send_signal, e.span);
}

void ProgramGen::override_call(const Expr& e) {
  IntVal v = gen_int(*e.operands[0]);
  Reg r = use(v, bpf::R2);
  if (r != bpf::R2) b_.mov(bpf::R2, r);
  release(v);
  if (Reg c = ctx(); c != bpf::R1) b_.mov(bpf::R1, c);
  b_.call(Helper::override_return);
  check_helper(Helper::override_return, e.span);
}

}  // namespace rawprobe::codegen
