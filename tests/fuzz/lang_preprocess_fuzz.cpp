// libFuzzer target: any bytes through the script preprocessor (directives, #if expressions,
// macro expansion, includes), then the parser on what it gives and the rendering of every
// error through the origin map, must neither crash nor hang. Seeded with bpftrace's tools
// (mk/lang_fuzz.mk). The script is named under a directory that does not exist and no system
// directory is searched, so "..." includes find nothing beside it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/driver/report.h"
#include "engine/lang/diagnostics.h"
#include "engine/lang/parser.h"
#include "engine/lang/preprocess.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const rawprobe::lang::PreprocessOptions options = [] {
    rawprobe::lang::PreprocessOptions o;
    o.system_dirs = {"/nonexistent/rawprobe-fuzz-include"};
    o.have_btf = true;
    return o;
  }();
  std::string text(reinterpret_cast<const char*>(data), size);
  rawprobe::lang::PreprocessResult r = rawprobe::lang::preprocess("/nonexistent/fuzz.bt", text, options);
  const rawprobe::lang::SourceFile& src = r.source;
  // Positions of the output map back into the files read, wherever they are asked for.
  uint32_t n = uint32_t(src.text().size());
  for (uint32_t i = 0; i < 16 && n > 0; ++i) {
    uint32_t at = uint32_t((uint64_t(i) * 2654435761u) % n);
    rawprobe::lang::Location loc = src.locate({at, std::min(n, at + 8)});
    (void)loc;
  }
  rawprobe::lang::Diagnostics diags;
  rawprobe::lang::Program program = rawprobe::lang::parse_program(src, diags);
  std::string rendered = rawprobe::driver::render(r.diagnostics) + rawprobe::driver::render(diags.resolve(src));
  (void)program;
  (void)rendered;
  return 0;  // libFuzzer reserves other values
}
