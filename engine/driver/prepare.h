// The steps of a run before anything is attached, each reporting its own errors:
//   expand_blocks   every probe spec of every block -> AttachPoints (the block's points, in
//                   spec order; an error points at the spec in the script with a caret)
//   load_programs   finish each compiled program against the created maps and load it
//                   (a verifier rejection gets verifier_report.h's explanation)
#pragma once
#include <string>
#include <vector>

#include "bpfasm/program.h"
#include "engine/base/result.h"
#include "engine/codegen/compiled_script.h"
#include "engine/lang/diagnostics.h"
#include "engine/lang/program_info.h"
#include "engine/lang/settings.h"
#include "engine/lang/source.h"
#include "engine/probes/provider.h"
#include "engine/sys/fd.h"

namespace rawprobe::driver {

struct ExpandedBlocks {
  bool ok = true;
  std::vector<std::vector<probes::AttachPoint>> points;  // per block, in spec order
  // A spec that does not expand, at its place in the script: an error, or with `missing`
  // (config variable missing_probes) warn a warning, the spec being left out.
  std::vector<lang::Diagnostic> diagnostics;
};

ExpandedBlocks expand_blocks(const lang::SourceFile& src, const lang::Program& program,
                             const probes::ExpandContext& ctx,
                             lang::MissingProbes missing = lang::MissingProbes::Error);

struct LoadedProgram {
  const codegen::CompiledProgram* compiled = nullptr;
  bpf::Program code;  // finished: map fds filled in
  sys::Fd fd;
};

// A verifier rejection's Error is verifier_report()'s: the probe, then the log in detail.
Result<std::vector<LoadedProgram>> load_programs(const codegen::CompiledScript& script,
                                                 const std::vector<int>& map_fds);

}  // namespace rawprobe::driver
