// The language front end in one call: parse, then (if the syntax is sound) check.
//   SourceFile src("script.bt", text);
//   FrontEndResult r = run_front_end(src, {.tracepoints = &catalog});
//   if (!r.ok) { fputs(driver::render(r.diagnostics).c_str(), stderr); return 1; }
//   codegen(r.program.ast, r.program.info);
#pragma once
#include <string>

#include "engine/lang/diagnostics.h"
#include "engine/lang/program_info.h"
#include "engine/lang/semantic.h"
#include "engine/lang/settings.h"
#include "engine/lang/source.h"

namespace rawprobe::lang {

struct FrontEndResult {
  bool ok = false;
  CheckedProgram program;
  // The config variables: defaults, then the script's config block, then the environment.
  Settings settings;
  // What is wrong, at the file and line the user wrote; the driver renders them.
  std::vector<Diagnostic> diagnostics;
};

FrontEndResult run_front_end(const SourceFile& src, const SemanticOptions& options);

}  // namespace rawprobe::lang
