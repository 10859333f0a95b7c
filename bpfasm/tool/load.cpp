// bpfasm --load: the teaching path from text to the verifier's verdict. The program
// is loaded through engine/sys (so the verifier log policy and errno hints are the ones
// rawprobe uses); on rejection the verifier's log is printed, on acceptance what the kernel
// made of it (translated instruction count, JIT size).
#include "bpfasm/tool/load.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <linux/bpf.h>

#include "bpfasm/parse.h"
#include "engine/sys/bpf_info.h"
#include "engine/sys/bpf_prog.h"
#include "engine/sys/call.h"

using namespace rawprobe;

namespace {

constexpr const char* kLoadUsage =
    "usage: bpfasm --load --type socket_filter|kprobe|tracepoint FILE.s [--log] [--trace-syscalls]\n";

struct TypeName {
  const char* name;
  uint32_t type;
};
constexpr TypeName kTypes[] = {
    {"socket_filter", BPF_PROG_TYPE_SOCKET_FILTER},
    {"kprobe", BPF_PROG_TYPE_KPROBE},
    {"tracepoint", BPF_PROG_TYPE_TRACEPOINT},
};

int usage(const std::string& what) {
  std::fprintf(stderr, "bpfasm: %s\n%s", what.c_str(), kLoadUsage);
  return 2;
}

}  // namespace

int load_command(const std::vector<std::string>& args) {
  std::string file, type_name;
  bool show_log = false;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--type" && i + 1 < args.size()) {
      type_name = args[++i];
    } else if (args[i] == "--log") {
      show_log = true;
    } else if (args[i] == "--trace-syscalls") {
      sys::trace_to_stderr();
    } else if (!args[i].starts_with("-") && file.empty()) {
      file = args[i];
    } else {
      return usage("--load: unexpected argument '" + args[i] + "'");
    }
  }
  if (file.empty()) return usage("--load needs a FILE.s");
  const TypeName* type = nullptr;
  for (const TypeName& t : kTypes)
    if (type_name == t.name) type = &t;
  if (!type) return usage("--load needs --type socket_filter, kprobe or tracepoint (got '" + type_name + "')");

  std::ifstream in(file, std::ios::binary);
  if (!in) return std::fprintf(stderr, "bpfasm: cannot read %s\n", file.c_str()), 1;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Result<bpf::Program> program = bpf::assemble(text, file);
  if (!program) return std::fprintf(stderr, "%s\n", program.error().message().c_str()), 1;
  std::vector<bpf::Insn> slots = program->slots();

  sys::ProgSpec spec;
  spec.type = type->type;
  spec.insns = slots;
  spec.name = "bpfasm";
  std::string log;
  Result<sys::Fd> prog = show_log ? sys::prog_load_logged(spec, 1, log) : sys::prog_load(spec);
  if (!prog) {
    std::printf("%s: REJECTED by the verifier as %s\n%s\n", file.c_str(), type->name,
                prog.error().message().c_str());
    return 1;
  }
  std::printf("%s: accepted by the verifier as %s (%zu instructions)\n", file.c_str(), type->name,
              slots.size());
  if (Result<sys::ProgInfo> info = sys::prog_info(prog->get()))
    std::printf("kernel: %zu translated instructions, %u bytes JITed, %u instructions verified\n",
                info->xlated.size(), info->jited_size, info->verified_insns);
  if (show_log) std::printf("verifier log:\n%s", log.c_str());
  return 0;
}
