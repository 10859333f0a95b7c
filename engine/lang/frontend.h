// The language front end in one call: parse, then (if the syntax is sound) check.
//   SourceFile src("script.bt", text);
//   FrontEndResult r = run_front_end(src, {.tracepoints = &catalog});
//   if (!r.ok) { fputs(r.errors.c_str(), stderr); return 1; }
//   codegen(r.program.ast, r.program.info);
#pragma once
#include <string>

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
  Diagnostics diagnostics;
  std::string errors;  // rendered diagnostics ("file:line:col: error: ..." + line + caret)
};

FrontEndResult run_front_end(const SourceFile& src, const SemanticOptions& options);

}  // namespace rawprobe::lang
