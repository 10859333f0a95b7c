// usermode: whether the event interrupted user code (uint8), x86_64 only. As bpftrace 0.26.1's
// src/stdlib/arch.bt defines it: 1 in BEGIN and END (special probes), the privilege level in
// the interrupted registers' cs for the probes that interrupt whatever ran (profile, interval,
// software, hardware, watchpoint), and 0 for every other probe type.
#include "arch/arch.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

void Checker::call_usermode(Expr& e) {
  if (!arg_count(e)) return;
  if (arch::host().name != "x86_64")
    return error(e.span, "usermode is only available on x86_64, as in bpftrace (this machine is " +
                             std::string(arch::host().name) + ")");
  e.type = Type::integer(1, false);
}

}  // namespace rawprobe::lang
