// bpfasm: the eBPF assembler and disassembler, for teaching and for checking rawprobe's output.
//   bpfasm FILE.s [-o FILE.bin]    assemble to raw little-endian struct bpf_insn bytes
//   bpfasm -d FILE.bin [--llvm]    disassemble, one instruction per line with its slot index
//   bpfasm --forms                 every instruction form of the opcode table, with an example
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bpfasm/decode.h"
#include "bpfasm/form.h"
#include "bpfasm/form_examples.h"
#include "bpfasm/parse.h"
#include "bpfasm/print.h"
#include "bpfasm/tool/load.h"

using namespace rawprobe;
using namespace rawprobe::bpf;

namespace {

const char kUsage[] =
    "usage: bpfasm FILE.s [-o FILE.bin]     assemble (default output: FILE.bin)\n"
    "       bpfasm -d FILE.bin [--llvm]     disassemble (kernel verifier syntax, or LLVM's)\n"
    "       bpfasm --forms                  list every instruction form with an example\n";

int usage_error(const std::string& what) {
  std::fprintf(stderr, "bpfasm: %s\n%s", what.c_str(), kUsage);
  return 2;
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return !f.bad();
}

int assemble_file(const std::string& in, std::string out) {
  std::string text;
  if (!read_file(in, text))
    return std::fprintf(stderr, "bpfasm: cannot read %s: %s\n", in.c_str(), std::strerror(errno)), 1;
  Result<Program> p = assemble(text, in);
  if (!p) return std::fprintf(stderr, "%s\n", p.error().message().c_str()), 1;
  if (out.empty()) out = (in.ends_with(".s") ? in.substr(0, in.size() - 2) : in) + ".bin";
  std::vector<uint8_t> bytes = to_bytes(p->slots());
  std::ofstream f(out, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f.flush())
    return std::fprintf(stderr, "bpfasm: cannot write %s: %s\n", out.c_str(), std::strerror(errno)), 1;
  std::printf("%s: %zu instructions, %zu bytes\n", out.c_str(), p->insns.size(), bytes.size());
  return 0;
}

int disassemble_file(const std::string& in, Dialect dialect) {
  std::string data;
  if (!read_file(in, data))
    return std::fprintf(stderr, "bpfasm: cannot read %s: %s\n", in.c_str(), std::strerror(errno)), 1;
  std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  Result<std::vector<Insn>> slots = slots_from_bytes(bytes);
  if (!slots) return std::fprintf(stderr, "bpfasm: %s: %s\n", in.c_str(), slots.error().message().c_str()), 1;
  ListingOptions options;
  options.dialect = dialect;
  int status = 0;
  for (size_t i = 0; i < slots->size();) {
    Result<Instruction> insn = decode_at(*slots, i);
    if (!insn) {
      // Keep going: the rest of the listing is still useful; name every bad slot.
      std::printf("%s<undecodable: %s>\n", listing_prefix(i, (*slots)[i].code, options).c_str(),
                  insn.error().detail.c_str());
      std::fprintf(stderr, "bpfasm: %s: %s\n", in.c_str(), insn.error().message().c_str());
      status = 1;
      ++i;
      continue;
    }
    std::printf("%s%s\n", listing_prefix(i, insn->code, options).c_str(), print(*insn, dialect).c_str());
    i += insn->width();
  }
  return status;
}

// One line per table row: opcode, the verifier's template, LLVM's, and an example.
int list_forms() {
  for (const Form& f : forms()) {
    std::printf("(%02x) %-48s %-40s e.g. %s\n", f.code, f.syntax.c_str(),
                f.llvm14 ? f.llvm_syntax.c_str() : "-", print(examples(f).front()).c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "-h" || args[0] == "--help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--forms" && args.size() == 1) return list_forms();
  if (args[0] == "--load") return load_command(args);
  if (args[0] == "-d") {
    if (args.size() == 2) return disassemble_file(args[1], Dialect::Verifier);
    if (args.size() == 3 && args[2] == "--llvm") return disassemble_file(args[1], Dialect::Llvm);
    return usage_error("-d takes one FILE.bin and optionally --llvm");
  }
  if (args[0].starts_with("-")) return usage_error("unknown option " + args[0]);
  if (args.size() == 1) return assemble_file(args[0], {});
  if (args.size() == 3 && args[1] == "-o") return assemble_file(args[0], args[2]);
  return usage_error("expected FILE.s [-o FILE.bin]");
}
