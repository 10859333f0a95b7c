// fentry:FUNC and fexit:FUNC (bpftrace 0.17's kfunc/kretfunc, renamed in 0.20; `f`/`fr` are
// kept as aliases): a BPF_PROG_TYPE_TRACING program that the kernel calls from a BPF
// trampoline patched into the function's ftrace site (Linux 5.5). No int3 and no pt_regs:
// the context is the function's arguments, one u64 slot each, and for fexit the return value
// after them (btf_functions.h), typed from the function's BTF prototype, so `args.file` is a
// `struct file *` with no cast.
//
// Load: expected_attach_type BPF_TRACE_FENTRY/FEXIT, attach_btf_id the FUNC's id, and for a
// module's function attach_btf_obj_fd, the module's BTF object (5.11). The verifier checks the
// program against that one function, so every point gets its own program.
// Attach: BPF_LINK_CREATE (5.11), else BPF_RAW_TRACEPOINT_OPEN with no name (5.5).
#include <linux/bpf.h>

#include "elf/symbol_match.h"
#include "engine/lang/suggest.h"
#include "engine/probes/btf_functions.h"
#include "engine/probes/providers.h"
#include "engine/probes/tracing_refusal.h"
#include "engine/sys/features.h"
#include "engine/sys/tracing.h"

namespace rawprobe::probes {
namespace {

uint32_t attach_type_of(ProbeKind kind) { return kind == ProbeKind::Fexit ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY; }

Error not_found(const lang::ProbeSpec& spec) {
  const char* kind = lang::probe_kind_name(spec.kind);
  std::string what = std::string("kernel function '") + spec.func + "' not found in the kernel's BTF" +
                     (spec.target.empty() ? "" : " (module " + spec.target + ")");
  return make_error(what, spec.raw, close_names_hint(kind, lang::closest_names(spec.func, btf_function_names())));
}

class FentryProvider final : public Provider {
 public:
  // FUNCTION or MODULE:FUNCTION; no offsets (a trampoline sits at the function's entry).
  Status parse(const std::vector<std::string>& p, lang::ProbeSpec& out) const override {
    const char* kind = lang::probe_kind_name(out.kind);
    if (p.size() < 2 || p.size() > 3 || p.back().empty())
      return make_error(std::string(kind) + " needs " + kind + ":FUNCTION or " + kind + ":MODULE:FUNCTION");
    if (p.size() == 3) out.target = p[1] == "vmlinux" || p[1].empty() ? "vmlinux" : p[1];
    if (Status st = lang::parse_probe_function(p.back(), out); !st) return st;
    if (out.has_offset)
      return make_error(std::string(kind) + " cannot take an offset: a BPF trampoline runs at the function's entry "
                        "and return; kprobe:FUNC+OFF probes an offset where kprobes exist");
    return {};
  }

  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec, const ExpandContext&) const override {
    Result<std::vector<BtfFunction>> found = btf_functions(spec.target, spec.func);
    if (!found) return found.error();
    if (found->empty()) return not_found(spec);
    const char* kind = lang::probe_kind_name(spec.kind);
    std::vector<AttachPoint> points;
    for (const BtfFunction& f : *found) {
      AttachPoint p = kernel_function_point(spec, f.name, f.module);
      p.btf_id = f.btf_id;
      p.name = std::string(kind) + ":" + (spec.target.empty() ? "" : f.module + ":") + f.name;
      if (Status st = argument_slots(arguments_of(f), p.fields); !st) {
        if (spec.wildcard) continue;  // a wildcard keeps the functions the kernel can attach to
        return st.error();
      }
      points.push_back(std::move(p));
    }
    if (points.empty())
      return make_error("no function matching '" + spec.func + "' has a prototype BPF trampolines can pass", spec.raw);
    return points;
  }

  Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points, std::span<const int> prog_fds,
                                             const AttachOptions&) const override {
    return attach_each(points, prog_fds, [](const AttachPoint& p, int prog_fd, uint64_t, AttachmentSet& set) -> Status {
      Result<sys::TracingLink> link = sys::link_tracing(prog_fd, attach_type_of(p.kind), p.name);
      if (!link) return with_tracing_refusal_hint(link.error(), p.kind);
      set.add_fd(std::move(link->fd), 1,
                 std::string(link->route == sys::TracingRoute::Link ? "BPF trampoline (BPF_LINK_CREATE)"
                                                                    : "BPF trampoline (BPF_RAW_TRACEPOINT_OPEN)") +
                     ": " + p.name);
      return {};
    });
  }

  Status list(const ListRequest& request, ListSink& sink) const override {
    // The whole listing (-l, -l '*word*') leaves fentry out where the kernel refuses
    // trampolines, as bpftrace leaves out kfunc there; a fentry: pattern still lists BTF's.
    if (request.parts.empty() && !sys::has(sys::Feature::trampoline)) return {};
    std::string module, func = "*";
    if (request.parts.size() == 1) func = request.parts[0];
    if (request.parts.size() >= 2) {
      module = request.parts[0];
      func = request.parts[1];
    }
    if (!traceable_functions()) note_listing_from_btf_alone();
    Result<std::vector<BtfFunction>> found = btf_functions(module, func);
    if (!found) return found.error();
    for (const BtfFunction& f : *found) {
      if (!sink.line(request.provider + ":" + f.module + ":" + f.name) || !sink.verbose()) continue;
      for (const std::string& line : prototype_lines(f.prototype)) sink.detail(line);
    }
    return {};
  }

  Status explain(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out) const override {
    return explain_points(spec, options, out, [&](const AttachPoint& p, std::span<const AttachPoint> all) -> Status {
      bool exit = p.kind == ProbeKind::Fexit;
      std::fprintf(out, "kernel function %s:%s, BTF id %u%s\n", p.module.c_str(), p.func.c_str(), p.btf_id,
                   p.module == "vmlinux" ? "" : " in the module's split BTF");
      std::fprintf(out, "load: BPF_PROG_TYPE_TRACING, expected_attach_type %s, attach_btf_id %u%s\n",
                   exit ? "BPF_TRACE_FEXIT" : "BPF_TRACE_FENTRY", p.btf_id,
                   p.module == "vmlinux" ? "" : ", attach_btf_obj_fd: the module's BTF object (BPF_BTF_GET_FD_BY_ID)");
      std::string args;
      for (const lang::TracepointField& f : p.fields)
        if (f.name != kRetvalSlot) args += (args.empty() ? "" : ", ") + f.name + " at ctx+" + std::to_string(f.offset);
      std::fprintf(out, "context: u64 slots saved by the trampoline: %s%s\n", args.empty() ? "no arguments" : args.c_str(),
                   exit ? ", retval after them" : "");
      std::fprintf(out, "attach: bpf(BPF_LINK_CREATE, attach_type %s) (Linux 5.11; before it "
                        "BPF_RAW_TRACEPOINT_OPEN with no name), which patches the function's ftrace site "
                        "to call a BPF trampoline\n",
                   exit ? "BPF_TRACE_FEXIT" : "BPF_TRACE_FENTRY");
      if (&p == &all.back() && all.size() > 1)
        std::fprintf(out, "cost: %zu programs (one per function: each is verified against its own "
                          "prototype) and %zu trampolines\n",
                     all.size(), all.size());
      return {};
    });
  }
};

}  // namespace

const Provider& fentry_provider() { return the_provider<FentryProvider>(); }

}  // namespace rawprobe::probes
