#include "engine/driver/dumps.h"

#include "bpfasm/decode.h"
#include "bpfasm/print.h"
#include "engine/sys/bpf_info.h"

namespace rawprobe::driver {
namespace {

// The kernel's rewrites include instructions that exist only inside the kernel (6.7's
// per-CPU address move, `r0 = &(void __percpu *)(r0)`, is a MOV with off -1); those print
// raw instead of stopping the listing.
std::string xlated_listing(const std::vector<bpf::Insn>& slots) {
  bpf::ListingOptions listing;
  std::string out;
  for (size_t i = 0; i < slots.size();) {
    Result<bpf::Instruction> insn = bpf::decode_at(slots, i);
    if (insn) {
      out += bpf::listing_prefix(i, insn->code, listing) + bpf::print(*insn) + "\n";
      i += insn->width();
      continue;
    }
    const bpf::Insn& raw = slots[i];
    char text[128];
    std::snprintf(text, sizeof text, "kernel-internal instruction: dst=r%u src=r%u off=%d imm=%d\n",
                  unsigned(raw.dst_reg), unsigned(raw.src_reg), int(raw.off), int(raw.imm));
    out += bpf::listing_prefix(i, raw.code, listing) + text;
    ++i;
  }
  return out;
}

std::string with_newline(std::string text) {
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

std::string header(const LoadedProgram& p) {
  return "; " + p.compiled->description + " (" + probes::program_type_name(p.compiled->plan.type) +
         " program '" + p.compiled->name + "')\n";
}

}  // namespace

Status print_program_dump(DumpKind kind, const std::vector<LoadedProgram>& programs, FILE* out) {
  for (size_t i = 0; i < programs.size(); ++i) {
    const LoadedProgram& p = programs[i];
    if (kind == DumpKind::Bpf) {
      std::fprintf(out, "%s%s%s", i ? "\n" : "", header(p).c_str(), with_newline(bpf::print(p.code)).c_str());
      continue;
    }
    Result<sys::ProgInfo> info = sys::prog_info(p.fd.get());
    if (!info) return info.error();
    if (kind == DumpKind::JitedSize) {
      std::fprintf(out, "%s: %u bytes of native code (%zu xlated instructions)\n",
                   p.compiled->description.c_str(), info->jited_size, info->xlated.size());
      continue;
    }
    std::fprintf(out, "%s%s%s", i ? "\n" : "", header(p).c_str(), xlated_listing(info->xlated).c_str());
  }
  return {};
}

}  // namespace rawprobe::driver
