// Tracepoint fields of a 32-bit kernel: a syscall record stores each argument in an
// `unsigned long`, 4 bytes on arm, so a pointer argument (sys_enter_open's filename) lies at
// offset 12 with size 4, and the verifier refuses an 8-byte context read there ("invalid
// bpf_context access off=12 size=8"). The arm record is made from this machine's format
// text, its argument fields laid out with the arm data model (itself checked against gcc in
// ctypes_layout_oracle_test.cpp), as `struct syscall_trace_enter` places them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "bpfasm/print.h"
#include "engine/codegen/codegen.h"
#include "engine/ctypes/data_model.h"
#include "tests/skip.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;

namespace {

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// The host's syscall format with every field after __syscall_nr moved to where a kernel of
// `model` puts its `unsigned long args[]`.
std::string syscall_format_for(const std::string& host_format, const ctypes::DataModel& model) {
  std::string out;
  uint32_t next = 0;
  bool in_args = false;
  size_t pos = 0;
  while (pos < host_format.size()) {
    size_t nl = host_format.find('\n', pos);
    std::string line = host_format.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? host_format.size() : nl + 1;
    if (in_args && line.find("field:") != std::string::npos) {
      size_t off = line.find("offset:"), semi = line.find(';', line.find("size:"));
      line = line.substr(0, off) + "offset:" + std::to_string(next) + ";\tsize:" + std::to_string(model.long_type.size) +
             line.substr(semi);
      next += model.long_type.size;
    }
    if (line.find("__syscall_nr;") != std::string::npos) {
      in_args = true;
      next = align_up(8 + model.int_type.size, model.long_type.align);
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("codegen: a tracepoint's pointer field is read with the format's size on a 32-bit kernel") {
  if (!test::tracefs_readable()) {
    RAWPROBE_SKIP("tracefs is not readable here");
    return;
  }
  const std::string host = test::tracefs_format("syscalls", "sys_enter_open");
  if (host.empty()) {
    RAWPROBE_SKIP("this kernel has no syscalls:sys_enter_open");
    return;
  }
  const ctypes::DataModel* arm = ctypes::data_model("arm");
  REQUIRE(arm != nullptr);
  auto fields = lang::parse_tracepoint_format(syscall_format_for(host, *arm));
  REQUIRE(fields);
  const lang::TracepointField* filename = nullptr;
  for (const lang::TracepointField& f : *fields)
    if (f.name == "filename") filename = &f;
  REQUIRE(filename != nullptr);
  REQUIRE(filename->size == arm->pointer.size);

  lang::SourceFile source("test.bt", "tracepoint:syscalls:sys_enter_open { printf(\"%s %p\\n\", str(args.filename), args.filename); }");
  static test::CapturedTracepoints catalog;
  lang::SemanticOptions sem;
  sem.tracepoints = &catalog;
  auto fe = lang::run_front_end(source, sem);
  REQUIRE_MESSAGE(fe.ok, test::error_text(fe));
  probes::AttachPoint point;
  point.kind = lang::ProbeKind::Tracepoint;
  point.name = "tracepoint:syscalls:sys_enter_open";
  point.category = "syscalls";
  point.event = "sys_enter_open";
  point.fields = *fields;
  codegen::CompileOptions options;
  options.source = &source;
  auto script = codegen::compile(fe.program, {{point}}, options);
  REQUIRE_MESSAGE(script, (script ? "" : script.error().message()));
  std::vector<int> fds(script->maps.size(), 3);
  auto prog = script->programs.at(0).code.finish(fds);
  REQUIRE(prog);
  // The context is in r1 until something is emitted, then in r6.
  const std::string at = " +" + std::to_string(filename->offset) + ")";
  const std::string wide = "*(u" + std::to_string(8 * 8) + " *)";
  const std::string exact = "*(u" + std::to_string(8 * filename->size) + " *)";
  int exact_reads = 0;
  for (const bpf::Instruction& insn : prog->insns) {
    std::string text = bpf::print(insn);
    if (text.find("(r1" + at) == std::string::npos && text.find("(r6" + at) == std::string::npos) continue;
    CAPTURE(text);
    CHECK(text.find(wide) == std::string::npos);
    if (text.find(exact) != std::string::npos) ++exact_reads;
  }
  CAPTURE(bpf::print(*prog));
  CHECK(exact_reads == 2);  // str(args.filename) and args.filename
}
