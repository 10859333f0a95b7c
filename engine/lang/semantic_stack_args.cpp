// sarg0, sarg1, ...: the words a function finds on its stack at entry, past its return
// address where the architecture pushes one (arch::Table::stack_args_offset), in probes whose
// context has the registers (kprobes and uprobes), as bpftrace 0.17.
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {
namespace {

// sargN: N in decimal, no leading zeros.
bool parse_sarg_index(const std::string& name, uint32_t& index) {
  if (name.size() < 5 || name.size() > 7 || name.compare(0, 4, "sarg") != 0) return false;
  if (name[4] == '0' && name.size() > 5) return false;
  index = 0;
  for (size_t i = 4; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
    index = index * 10 + static_cast<uint32_t>(name[i] - '0');
  }
  return true;
}

bool reads_registers(ProbeKind k) {
  return probes::probe_type(k).context.args == probes::ArgSource::Registers;
}

}  // namespace

bool Checker::stack_argument(Expr& e) {
  uint32_t index;
  if (!parse_sarg_index(e.name, index)) return false;
  e.builtin = BuiltinId::Sarg;
  e.arg_index = index;
  if (!all_specs(reads_registers)) {
    error(e.span, "The " + e.name + " builtin can only be used with 'kprobes' and 'uprobes' probes");  // bpftrace's words
    return true;
  }
  note_builtin(BuiltinId::Sarg);
  e.type = Type::integer(8, false);
  return true;
}

}  // namespace rawprobe::lang
