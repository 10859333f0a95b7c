// strftime(fmt, nsecs): { u64 format; u64 nsecs }, formatted in user space
// (runtime/value_text.h).
// debugf(fmt, a, b, c): bpf_trace_printk(fmt, sizeof fmt, a, b, c) with the format on the
// stack, integers by value and strings by their address on the stack; the kernel writes the
// line to the trace buffer (tracefs trace_pipe).
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Reg;
using lang::Expr;

void ProgramGen::strftime_into(const Expr& e, uint32_t, Place dst) {
  store_int(IntVal::constant(e.call_id), 8, dst);
  IntVal ns = gen_int(*e.operands[1]);
  store_int(ns, 8, dst.at(8));
  release(ns);
}

void ProgramGen::debugf_call(const Expr& e) {
  struct Arg {
    IntVal value;
    Place text;
    bool is_string = false;
  };
  std::vector<Arg> args;
  for (size_t i = 1; i < e.operands.size(); ++i) {
    const Expr& a = *e.operands[i];
    Arg arg;
    if (a.type.is_string()) {
      arg.is_string = true;
      arg.text = materialize(a);
    } else {
      arg.value = gen_int(a);
      pin(arg.value);
    }
    args.push_back(arg);
  }
  const std::string& fmt = e.operands[0]->str;
  uint32_t size = static_cast<uint32_t>(fmt.size() + 1);
  Place text{frame_.alloc(size), {}};
  string_literal(fmt, size, text);
  for (size_t k = 0; k < args.size(); ++k) {
    Reg r = static_cast<Reg>(static_cast<int>(bpf::R3) + static_cast<int>(k));
    if (args[k].is_string) {
      place_address(r, args[k].text);
      continue;
    }
    Reg have = use(args[k].value, r);
    if (have != r) b_.mov(r, have);
    release(args[k].value);
  }
  place_address(bpf::R1, text);
  b_.mov(bpf::R2, static_cast<int32_t>(size));
  b_.call(bpf::Helper::trace_printk);
  check_helper(bpf::Helper::trace_printk, e.span);
}

}  // namespace rawprobe::codegen
