// libFuzzer target: any bytes through the whole front end (lexer, parser, semantic pass,
// diagnostics rendering and the AST dump) and, for what the front end accepts, code
// generation: none of it may crash or exhaust the stack, and a refusal at any stage says why.
// The attach points are made up per probe kind (no files or tracefs are read), as the unit
// suite's codegen tests make them.
#include <cstddef>
#include <cstdint>
#include <string>

#include "arch/arch.h"
#include "engine/codegen/codegen.h"
#include "engine/driver/report.h"
#include "engine/lang/ast_dump.h"
#include "engine/lang/frontend.h"
#include "tests/fuzz/fuzz_check.h"

using namespace rawprobe;

namespace {

const char kFormat[] =
    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
    "\tfield:char comm[16];\toffset:24;\tsize:16;\tsigned:0;\n"
    "\tfield:__data_loc char[] name;\toffset:40;\tsize:4;\tsigned:0;\n";

// A catalog with one fixed layout, so args->field paths get exercised without tracefs.
class OneTracepoint : public lang::TracepointCatalog {
 public:
  Result<std::vector<std::pair<std::string, std::string>>> match(const std::string& c, const std::string& n) override {
    return std::vector<std::pair<std::string, std::string>>{{c, n}};
  }
  Result<std::vector<lang::TracepointField>> fields(const std::string&, const std::string&) override {
    return lang::parse_tracepoint_format(kFormat);
  }
};

probes::AttachPoint made_up_point(const lang::ProbeSpec& spec) {
  probes::AttachPoint p;
  p.kind = spec.kind;
  p.name = spec.raw;
  p.func = spec.func.empty() ? "f" : spec.func;
  p.arch = &arch::host();
  p.path = "/bin/true";
  p.category = spec.provider;
  p.event = spec.name;
  if (auto fields = lang::parse_tracepoint_format(kFormat)) p.fields = *fields;
  p.perf_type = 1;
  p.period = 1000;
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static OneTracepoint catalog;
  lang::SourceFile src("fuzz.bt", std::string(reinterpret_cast<const char*>(data), size));
  lang::SemanticOptions opts;
  opts.tracepoints = &catalog;
  lang::FrontEndResult r = lang::run_front_end(src, opts);
  std::string dump = lang::dump_ast(r.program.ast);
  if (!r.ok) {
    fuzz::require(!driver::render(r.diagnostics).empty(), "a refused script says why");
    return 0;
  }
  std::vector<std::vector<probes::AttachPoint>> points;
  for (const lang::ProbeBlock& block : r.program.ast.probes) {
    points.emplace_back();
    for (const lang::ProbeSpec& spec : block.specs) points.back().push_back(made_up_point(spec));
  }
  codegen::CompileOptions options;
  options.source = &src;
  auto script = codegen::compile(r.program, points, options);
  if (!script) fuzz::require(!script.error().message().empty(), "a refused compile says why");
  return 0;  // libFuzzer reserves other values
}
