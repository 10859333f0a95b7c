#include "bpfasm/print.h"

#include <cstdio>

#include "bpfasm/form.h"

namespace rawprobe::bpf {

std::string print(const Instruction& insn, Dialect dialect) {
  const Form* form = find_form(insn);
  if (form) return render(syntax_of(*form, dialect), insn);
  char buf[112];
  std::snprintf(buf, sizeof buf, "invalid(code=0x%02x dst=%d src=%d off=%d imm=%lld)", insn.code,
                insn.dst, insn.src, insn.off, static_cast<long long>(insn.imm));
  return buf;
}

std::string listing_prefix(size_t slot, uint8_t code, const ListingOptions& options) {
  std::string out;
  if (options.index) out += std::to_string(slot) + ": ";
  if (options.opcode) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "(%02x) ", code);
    out += buf;
  }
  return out;
}

std::string print(const Program& program, const ListingOptions& options) {
  std::string out;
  size_t slot = 0, note = 0;
  for (size_t i = 0; i < program.insns.size(); ++i) {
    for (; note < program.annotations.size() && program.annotations[note].index <= i; ++note)
      if (options.annotations) out += "; " + program.annotations[note].text + "\n";
    const Instruction& insn = program.insns[i];
    out += listing_prefix(slot, insn.code, options) + print(insn, options.dialect) + "\n";
    slot += insn.width();
  }
  return out;
}

}  // namespace rawprobe::bpf
