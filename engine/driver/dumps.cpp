#include "engine/driver/dumps.h"

#include "bpfasm/decode.h"
#include "bpfasm/print.h"
#include "engine/sys/bpf_info.h"

namespace rawprobe::driver {
namespace {

std::string header(const LoadedProgram& p) {
  return "; " + p.compiled->description + " (" + probes::program_type_name(p.compiled->plan.type) +
         " program '" + p.compiled->name + "')\n";
}

}  // namespace

Status print_program_dump(DumpKind kind, const std::vector<LoadedProgram>& programs, FILE* out) {
  for (size_t i = 0; i < programs.size(); ++i) {
    const LoadedProgram& p = programs[i];
    if (kind == DumpKind::Bpf) {
      std::fprintf(out, "%s%s%s", i ? "\n" : "", header(p).c_str(), bpf::print(p.code).c_str());
      continue;
    }
    Result<sys::ProgInfo> info = sys::prog_info(p.fd.get());
    if (!info) return info.error();
    if (kind == DumpKind::JitedSize) {
      std::fprintf(out, "%s: %u bytes of native code (%zu xlated instructions)\n",
                   p.compiled->description.c_str(), info->jited_size, info->xlated.size());
      continue;
    }
    Result<std::vector<bpf::Instruction>> insns = bpf::decode(info->xlated);
    if (!insns) return insns.error();
    bpf::Program xlated{std::move(*insns), {}};
    std::fprintf(out, "%s%s%s", i ? "\n" : "", header(p).c_str(), bpf::print(xlated).c_str());
  }
  return {};
}

}  // namespace rawprobe::driver
