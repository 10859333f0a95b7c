#include "engine/driver/prepare.h"

#include <linux/bpf.h>


#include "bpfasm/subprograms.h"
#include "engine/btf/func_btf.h"
#include "engine/driver/verifier_report.h"
#include "engine/lang/diagnostics.h"
#include "engine/probes/tracing_refusal.h"
#include "engine/sys/bpf_btf.h"
#include "engine/sys/bpf_prog.h"
#include "engine/sys/tracing.h"

namespace rawprobe::driver {

ExpandedBlocks expand_blocks(const lang::SourceFile& src, const lang::Program& program,
                             const probes::ExpandContext& ctx, lang::MissingProbes missing) {
  ExpandedBlocks out;
  for (const lang::ProbeBlock& block : program.probes) {
    std::vector<probes::AttachPoint>& points = out.points.emplace_back();
    for (const lang::ProbeSpec& spec : block.specs) {
      Result<std::vector<probes::AttachPoint>> found = probes::expand(spec, ctx);
      if (!found) {
        // The caret already shows the spec.
        std::string message = lang::diagnostic_message(found.error(), {spec.raw, spec.canonical()});
        if (missing == lang::MissingProbes::Error) {
          out.diagnostics.push_back(lang::diagnostic_at(src, spec.span, message));
          out.ok = false;
        }
        if (missing == lang::MissingProbes::Warn)
          out.diagnostics.push_back(lang::diagnostic_at(src, spec.span, message, lang::Severity::Warning));
        continue;
      }
      for (probes::AttachPoint& p : *found) points.push_back(std::move(p));
    }
  }
  return out;
}

namespace {

// A program with subprograms (for loops' callbacks) loads with BTF func_info naming each:
// `main` first, then `for_body_1`, ... in address order.
struct FunctionInfo {
  sys::Fd btf;
  std::vector<sys::FuncInfo> records;
};

Result<FunctionInfo> function_info(const bpf::Program& code) {
  std::vector<uint32_t> starts = bpf::subprogram_starts(code);
  FunctionInfo info;
  if (starts.size() < 2) return info;
  std::vector<btf::FunctionDecl> decls = {{"main", 1}};
  // Callbacks take at most 4 arguments (bpf_for_each_map_elem's: map, key, value, context).
  for (size_t i = 1; i < starts.size(); ++i) decls.push_back({"for_body_" + std::to_string(i), 4});
  btf::FunctionsBtf types = btf::functions_btf(decls);
  Result<sys::Fd> fd = sys::btf_load(types.blob);
  if (!fd) return fd.error();
  info.btf = std::move(*fd);
  for (size_t i = 0; i < starts.size(); ++i) info.records.push_back({starts[i], types.func_ids[i]});
  return info;
}

}  // namespace

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
    Result<FunctionInfo> functions = function_info(*code);
    if (!functions)
      return make_error("loading the program of " + p.description + " failed: " + functions.error().message());
    spec.btf_fd = functions->btf.get();
    spec.func_info = functions->records;
    spec.attach_btf_id = p.plan.attach_btf_id;
    // A module's function is found by its id in the module's split BTF, named by an fd.
    sys::Fd module_btf;
    if (p.plan.attach_btf_id && !p.plan.attach_btf_module.empty() && p.plan.attach_btf_module != "vmlinux") {
      Result<sys::Fd> btf = sys::module_btf_fd(p.plan.attach_btf_module);
      if (!btf) return make_error("loading the program of " + p.description + " failed: " + btf.error().message());
      module_btf = std::move(*btf);
      spec.attach_btf_obj_fd = module_btf.get();
    }
    Result<sys::Fd> fd = sys::prog_load(spec);
    if (!fd && p.plan.type == probes::ProgramType::Tracing && fd.error().detail.empty())
      fd = probes::with_tracing_refusal_hint(
          fd.error(), p.plan.expected_attach_type == BPF_TRACE_FEXIT  ? lang::ProbeKind::Fexit
                      : p.plan.expected_attach_type == BPF_TRACE_ITER ? lang::ProbeKind::Iter
                                                                      : lang::ProbeKind::Fentry);
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
