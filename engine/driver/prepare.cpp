#include "engine/driver/prepare.h"

#include <cstdio>

#include "engine/driver/verifier_report.h"
#include "engine/lang/diagnostics.h"
#include "engine/sys/bpf_prog.h"

namespace rawprobe::driver {

// A rendered diagnostic ("file:1:2: error: ...") as a warning: config variable
// missing_probes=warn reports a probe that is not here and goes on without it.
std::string as_warning(std::string text) {
  size_t at = text.find(": error: ");
  if (at != std::string::npos) text.replace(at, 9, ": warning: ");
  return text;
}

Result<std::vector<std::vector<probes::AttachPoint>>> expand_blocks(
    const lang::SourceFile& src, const lang::Program& program, const probes::ExpandContext& ctx,
    lang::MissingProbes missing) {
  std::vector<std::vector<probes::AttachPoint>> blocks;
  lang::Diagnostics diags;
  for (const lang::ProbeBlock& block : program.probes) {
    std::vector<probes::AttachPoint>& points = blocks.emplace_back();
    for (const lang::ProbeSpec& spec : block.specs) {
      Result<std::vector<probes::AttachPoint>> found = probes::expand(spec, ctx);
      if (!found) {
        // The caret already shows the spec.
        std::string message = lang::diagnostic_message(found.error(), {spec.raw, spec.canonical()});
        if (missing == lang::MissingProbes::Error) diags.error(spec.span, message);
        if (missing == lang::MissingProbes::Warn)
          std::fputs(as_warning(lang::render_diagnostic(src, {spec.span, message})).c_str(), stderr);
        continue;
      }
      for (probes::AttachPoint& p : *found) points.push_back(std::move(p));
    }
  }
  if (diags.has_errors()) return make_error(diags.render(src));
  return blocks;
}

Result<std::vector<LoadedProgram>> load_programs(const codegen::CompiledScript& script,
                                                 const std::vector<int>& map_fds) {
  std::vector<LoadedProgram> loaded;
  for (const codegen::CompiledProgram& p : script.programs) {
    Result<bpf::Program> code = p.code.finish(map_fds);
    if (!code)
      return make_error("generating the program of " + p.description + " failed: " +
                        code.error().message());
    std::vector<bpf::Insn> slots = code->slots();
    sys::ProgSpec spec;
    spec.type = probes::kernel_prog_type(p.plan.type);
    spec.insns = slots;
    spec.name = codegen::kernel_object_name(p.name);
    spec.expected_attach_type = p.plan.expected_attach_type;
    Result<sys::Fd> fd = sys::prog_load(spec);
    if (!fd) {
      if (!fd.error().detail.empty()) return verifier_report(fd.error(), p.description, *code);
      return make_error("loading the program of " + p.description + " failed: " +
                        fd.error().message());
    }
    loaded.push_back(LoadedProgram{&p, std::move(*code), std::move(*fd)});
  }
  return loaded;
}

}  // namespace rawprobe::driver
