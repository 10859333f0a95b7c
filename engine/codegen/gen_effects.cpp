// Functions with effects on the traced system (engine/lang/semantic_effects.cpp):
//   signal(sig)    bpf_send_signal(sig) (5.3): the current task gets sig
//   signal_thread(sig)  bpf_send_signal_thread(sig) (5.6): the current thread gets sig
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
  bool thread = e.function == lang::FunctionId::SignalThread;
  Helper send = thread ? Helper::send_signal_thread : Helper::send_signal;
  if (!helper_available(send, e.span,
                        thread ? "signal_thread() needs the kernel's bpf_send_signal_thread helper (Linux 5.6), which "
                                 "this kernel does not have"
                               : "signal() needs the kernel's bpf_send_signal helper (Linux 5.3), which this kernel "
                                 "does not have"))
    return;
  if (e.int_value) {
    b_.mov(bpf::R1, static_cast<int32_t>(e.int_value));
  } else {
    IntVal v = gen_int(*e.operands[0]);
    Reg r = use(v, bpf::R1);
    if (r != bpf::R1) b_.mov(bpf::R1, r);
    release(v);
  }
  b_.call(send);
  check_helper(send, e.span);
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
