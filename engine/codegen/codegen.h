// Code generation: the checked AST of a script and the attach points of each probe block in,
// BPF programs (bpfasm Builders, map fds still symbolic) and the maps they use out.
//
//   auto script = codegen::compile(checked, points_per_block, {.ringbuf = true, ...});
//   // runtime: create script->maps, finish + load script->programs, attach, read events
//
// What is generated for each construct is described where it is generated (gen.h lists the
// files); the contract with the runtime is compiled_script.h.
#pragma once
#include <vector>

#include "engine/base/result.h"
#include "engine/codegen/compiled_script.h"
#include "engine/lang/program_info.h"
#include "engine/probes/provider.h"

namespace rawprobe::codegen {

// points_per_block[i] holds the attach points of block i (lang::Program::probes[i]), every
// spec of the block expanded in order. Errors name the script position when
// options.source is set.
Result<CompiledScript> compile(const lang::CheckedProgram& program,
                               const std::vector<std::vector<probes::AttachPoint>>& points_per_block,
                               const CompileOptions& options);

}  // namespace rawprobe::codegen
