// rawtracepoint:NAME (alias rt:NAME): a BPF_PROG_TYPE_RAW_TRACEPOINT program on a kernel
// tracepoint, attached with bpf(BPF_RAW_TRACEPOINT_OPEN) (Linux 4.17). Unlike
// tracepoint:CATEGORY:NAME, the kernel runs the program before any record is built and
// hands it the tracepoint's own arguments (argN = u64 args[N]; sys_enter: arg0 the pt_regs
// pointer, arg1 the syscall number), found by name alone.
//
// The names are those the kernel's BTF declares (btf_trace_names.h: also the tracepoints
// that have no trace event), and those of tracefs's available_events less the events that
// are not kernel tracepoints: the `syscalls` category is built by ftrace on top of the
// raw_syscalls tracepoints (rawtracepoint:sys_enter/sys_exit serve every syscall), and
// kprobes/uprobes hold dynamic events made through kprobe_events and uprobe_events. A kernel
// without BTF still has the tracefs names.
#include <algorithm>
#include <map>

#include "elf/symbol_match.h"
#include "engine/lang/suggest.h"
#include "engine/probes/btf_functions.h"
#include "engine/probes/btf_trace_names.h"
#include "engine/probes/providers.h"
#include "engine/probes/tracepoint.h"
#include "engine/sys/features.h"
#include "engine/sys/host_root.h"
#include "engine/sys/raw_tracepoint.h"

namespace rawprobe::probes {
namespace {

bool is_kernel_tracepoint(const std::string& category) {
  return category != "syscalls" && category != "kprobes" && category != "uprobes";
}

struct RawTracepoint {
  std::string name;
  std::string category;  // its tracefs event's; empty when it has none (BTF only)
};

// Every raw tracepoint name once, sorted by name.
Result<std::vector<RawTracepoint>> raw_tracepoints() {
  // A few MB of vmlinux BTF, read once.
  const std::vector<std::string>& declared =
      sys::once_per_host_root<std::vector<std::string>>([] { return btf_trace_names(); });
  std::map<std::string, std::string> category_of;
  for (const std::string& name : declared) category_of[name];
  Result<std::vector<std::pair<std::string, std::string>>> events = all_tracepoints();
  if (!events && declared.empty()) return events.error();
  if (events)
    for (auto& [category, name] : *events)
      if (is_kernel_tracepoint(category)) category_of[name] = category;
  std::vector<RawTracepoint> out;
  for (auto& [name, category] : category_of) out.push_back({name, category});
  return out;
}

// The "not found" error: close names, or for a syscall event (tracepoint:syscalls:NAME,
// which has no raw tracepoint of its own) the raw tracepoint that covers it.
Error not_found(const lang::ProbeSpec& spec, const std::vector<RawTracepoint>& known) {
  std::string what = "rawtracepoint '" + spec.name + "' not found";
  const std::string kListHint = "list them with -l 'rawtracepoint:*'";
  bool enter = spec.name.rfind("sys_enter_", 0) == 0, exit = spec.name.rfind("sys_exit_", 0) == 0;
  if ((enter || exit) && !spec.wildcard) {
    std::string raw = enter ? "sys_enter" : "sys_exit";
    return make_error(what, spec.raw,
                      "'" + spec.name + "' is an ftrace syscall event (tracepoint:syscalls:" + spec.name +
                          "), not a kernel tracepoint; rawtracepoint:" + raw + " fires for every syscall, "
                          "with the syscall number in arg1 (" + kListHint + ")");
  }
  std::vector<std::string> names;
  for (const RawTracepoint& t : known) names.push_back(t.name);
  std::string hint = close_names_hint("rawtracepoint", lang::closest_names(spec.name, names));
  // Tracepoints without a trace event (DECLARE_TRACE) are known only from the kernel's BTF.
  if (!sys::has(sys::Feature::kernel_btf))
    hint += "; this kernel has no BTF (built without CONFIG_DEBUG_INFO_BTF), so only the tracepoints tracefs "
            "lists are known here, not those without a trace event";
  return make_error(what, spec.raw, hint);
}

class RawTracepointProvider final : public Provider {
 public:
  // rawtracepoint:NAME: the kernel finds a raw tracepoint by its name alone (bpf(2)
  // BPF_RAW_TRACEPOINT_OPEN), so there is no category part.
  Status parse(const std::vector<std::string>& p, lang::ProbeSpec& out) const override {
    if (p.size() != 2 || p[1].empty()) {
      return make_error("rawtracepoint needs rawtracepoint:NAME, with no category (e.g. rawtracepoint:sched_switch; "
              "list them with -l 'rawtracepoint:*')");
    }
    out.name = p[1];
    out.wildcard = lang::has_wildcard(out.name);
    return {};
  }

  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec,
                                          const ExpandContext&) const override {
    Result<std::vector<RawTracepoint>> known = raw_tracepoints();
    if (!known) return known.error();
    std::vector<AttachPoint> points;
    for (const RawTracepoint& t : *known) {
      if (!elf::glob_match(spec.name, t.name)) continue;
      AttachPoint p;
      p.kind = ProbeKind::RawTracepoint;
      p.name = "rawtracepoint:" + t.name;
      p.arch = &arch::host();
      p.category = t.category;
      p.event = t.name;
      // args.NAME's slots, where BTF declares the tracepoint (the semantic pass refuses
      // args.NAME where it does not).
      if (Result<TypedArguments> args = raw_tracepoint_arguments(t.name); args) (void)argument_slots(*args, p.fields);
      points.push_back(std::move(p));
    }
    if (points.empty()) return not_found(spec, *known);
    return points;
  }

  Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points,
                                             std::span<const int> prog_fds,
                                             const AttachOptions&) const override {
    // No cookies (load_plan): one program for all the points when the block does not use
    // `probe` (codegen), else one program per point.
    return attach_each(points, prog_fds, [](const AttachPoint& p, int prog_fd, uint64_t,
                                            AttachmentSet& set) -> Status {
      Result<sys::Fd> fd = sys::raw_tracepoint_open(p.event, prog_fd);
      if (!fd) return fd.error();
      set.add_fd(std::move(*fd), 1, "raw tracepoint (BPF_RAW_TRACEPOINT_OPEN): " + p.name);
      return {};
    });
  }

  Status list(const ListRequest& request, ListSink& sink) const override {
    Result<std::vector<RawTracepoint>> known = raw_tracepoints();
    if (!known) return known.error();
    std::string name = request.parts.empty() ? "*" : request.parts.back();
    for (const RawTracepoint& t : *known)
      if (elf::glob_match(name, t.name) && sink.line("rawtracepoint:" + t.name) && sink.verbose())
        if (Result<TypedArguments> args = raw_tracepoint_arguments(t.name); args)
          for (const ctypes::CParam& p : args->params) sink.detail("    " + ctypes::spell(p.type) + " " + p.name);
    return {};
  }

  Status explain(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out) const override {
    return explain_points(spec, options, out, [&](const AttachPoint& p, std::span<const AttachPoint>) -> Status {
      std::fprintf(out, "kernel tracepoint %s (%s)\nattach: bpf(BPF_RAW_TRACEPOINT_OPEN, name = \"%s\"); argN "
                        "reads u64 args[N], the tracepoint's own arguments\n",
                   p.event.c_str(),
                   (p.category.empty() ? "no tracefs event; declared in BTF as btf_trace_" + p.event
                                       : "listed in tracefs as " + p.category + ":" + p.event).c_str(),
                   p.event.c_str());
      return {};
    });
  }
};

}  // namespace

const Provider& rawtracepoint_provider() { return the_provider<RawTracepointProvider>(); }

}  // namespace rawprobe::probes
