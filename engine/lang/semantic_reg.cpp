// reg("name"): a register of the task the probe interrupted, read from the pt_regs the context
// begins with. As bpftrace: only where the context has them (kprobes, uprobes, usdt and the
// perf-event probes), and the name must be one this kernel's pt_regs holds.
#include "arch/arch.h"
#include "engine/lang/probe_spec.h"
#include "engine/lang/semantic_internal.h"
#include "engine/probes/probe_types.h"

namespace rawprobe::lang {

void Checker::call_reg(Expr& e) {
  call_generic(e);
  if (e.type.kind == TypeKind::None) return;
  if (probe_) {
    for (const ProbeSpec& s : probe_->specs)
      if (!probes::probe_type(s.kind).context.pt_regs)
        return error(e.span, std::string("reg can not be used with \"") + probe_kind_name(s.kind) + "\" probes");
  }
  const arch::Table& kernel = arch::host();
  const std::string& name = e.operands[0]->str;
  if (!arch::find_register(kernel, name))
    error(e.span, "'" + name + "' is not a valid register on this architecture (" + std::string(kernel.name) +
                      "): its pt_regs holds " + arch::register_names(kernel));
}

}  // namespace rawprobe::lang
