// watchpoint:FUNC+argN's uprobe on FUNC (engine/probes/watchpoint.cpp): not the block's body,
// which runs on the watchpoint, but the request for it, as bpftrace 0.17 makes it:
//   bpf_send_signal(SIGSTOP)    the process stops when the uprobe returns, before FUNC's
//                               first instruction, so no access is missed while rawprobe
//                               opens the breakpoint (it sends SIGCONT after)
//   { kAsyncWatchpointAttach, watch_id, argN, stopped }  to user space
// asyncwatchpoint leaves the signal out (stopped = 0): user space then sends no SIGCONT.
#include <linux/bpf.h>

#include <csignal>

#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

bool ProgramGen::is_watchpoint_setup() const {
  const probes::AttachPoint& p = *target_.points.front();
  return p.kind == lang::ProbeKind::Uprobe && p.watch_id != 0;
}

void ProgramGen::watchpoint_setup() {
  const probes::AttachPoint& point = *target_.points.front();
  const arch::Table& t = arch_table(block_.span);
  auto slot = static_cast<size_t>(point.watch_arg) < t.arg_regs.size()
                  ? arch::find_slot(t, t.arg_regs[static_cast<size_t>(point.watch_arg)])
                  : std::nullopt;
  if (!slot) return fail(block_.span, "arg" + std::to_string(point.watch_arg) + " is not a register argument of " +
                                          std::string(t.name));
  if (!point.watch_async && !helper_available(bpf::Helper::send_signal, block_.span,
                        "watchpoint:FUNC+argN stops the process with the kernel's bpf_send_signal helper (Linux 5.3), "
                        "which this kernel does not have; watch an address instead (watchpoint:ADDR:LEN:MODE)"))
    return;
  if (ctx_in_r6_) b_.mov(bpf::R6, bpf::R1);
  body_start_ = b_.size();
  Place rec{frame_.alloc(32), {}};
  IntVal address = context_reg(*slot);
  store_int(address, 8, rec.at(16));
  release(address);
  store_int(IntVal::constant(static_cast<int64_t>(kAsyncWatchpointAttach)), 8, rec);
  store_int(IntVal::constant(point.watch_id), 8, rec.at(8));
  store_int(IntVal::constant(point.watch_async ? 0 : 1), 8, rec.at(24));
  if (!point.watch_async) {
    b_.mov(bpf::R1, SIGSTOP);
    b_.call(bpf::Helper::send_signal);
  }
  output_event(rec, 32, false);
  b_.bind(exit_label_, "end of probe");
  b_.mov(bpf::R0, 0);
  b_.exit();
}

}  // namespace rawprobe::codegen

namespace rawprobe::codegen {

// unwatch(addr): { kAsyncUnwatch, addr } to user space, which closes every breakpoint on addr
// (bpftrace 0.17's async unwatch); the accesses made until it reads the record still count.
void ProgramGen::unwatch_call(const lang::Expr& e) {
  IntVal address = gen_int(*e.operands[0]);
  pin(address);
  Place rec{frame_.alloc(16), {}};
  store_int(address, 8, rec.at(8));
  release(address);
  store_int(IntVal::constant(static_cast<int64_t>(kAsyncUnwatch)), 8, rec);
  output_event(rec, 16, true, BPF_RB_FORCE_WAKEUP);
}

}  // namespace rawprobe::codegen
