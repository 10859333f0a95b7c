// libFuzzer target: any bytes through the whole front end (lexer, parser, semantic pass,
// diagnostics rendering and the AST dump) must neither crash nor exhaust the stack.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/lang/ast_dump.h"
#include "engine/lang/frontend.h"

namespace {

// A catalog with one fixed layout, so args->field paths get exercised without tracefs.
class OneTracepoint : public rawprobe::lang::TracepointCatalog {
 public:
  std::vector<std::pair<std::string, std::string>> match(const std::string& c, const std::string& n) override {
    return {{c, n}};
  }
  rawprobe::Result<std::vector<rawprobe::lang::TracepointField>> fields(const std::string&, const std::string&) override {
    return rawprobe::lang::parse_tracepoint_format(
        "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
        "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
        "\tfield:char comm[16];\toffset:24;\tsize:16;\tsigned:0;\n");
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static OneTracepoint catalog;
  rawprobe::lang::SourceFile src("fuzz.bt", std::string(reinterpret_cast<const char*>(data), size));
  rawprobe::lang::SemanticOptions opts;
  opts.tracepoints = &catalog;
  rawprobe::lang::FrontEndResult r = rawprobe::lang::run_front_end(src, opts);
  std::string dump = rawprobe::lang::dump_ast(r.program.ast);
  (void)dump;
  return 0;  // libFuzzer reserves other values
}
