// --explain PROBE: how a probe would be attached, step by step, without attaching it. Each
// provider's explain() tells its own; this file holds what several share and the words for the
// uprobe family and kprobes. The steps come from the same code that attaches (elf/resolve.h's
// Explain for uprobes and USDT, tracefs for tracepoints, the providers' expand() for the
// rest), never a parallel account.
#include <cstdlib>

#include "elf/hex.h"
#include "elf/resolve.h"
#include "engine/lang/probe_spec.h"
#include "engine/probes/listing.h"
#include "engine/probes/providers.h"
#include "engine/probes/targets.h"
#include "engine/probes/uprobe_attach.h"
#include "engine/sys/features.h"
#include "engine/sys/tracefs.h"

namespace rawprobe::probes {
namespace {

void print_steps(const elf::Explain& explain, FILE* out) { std::fputs(explain.text().c_str(), out); }

// How attach() would reach the kernel for a block of this kind of uprobe-family point, with
// these options (uprobe_attach.h decides; this only words it).
std::string uprobe_mechanism(ProbeKind kind, bool has_semaphore, const ExplainOptions& options) {
  AttachPoint point;
  point.kind = kind;
  UprobeRoute route = uprobe_route({&point, 1}, AttachOptions{options.mode, options.pid});
  std::string how =
      route == UprobeRoute::Multi
          ? "attach: one uprobe_multi link per binary (BPF_LINK_CREATE with the path, file offsets "
            "and bpf cookies), even for one point: its release waits out one grace period, not two"
      : route == UprobeRoute::Pmu
          ? "attach: perf_event_open on the uprobe PMU (config1 = path, config2 = file offset)"
          : "attach: a uprobe_events entry rawprobe_<pid>_<n>, opened as a tracepoint";
  if (has_semaphore)
    how += route == UprobeRoute::Multi || sys::has(sys::Feature::uprobe_ref_ctr)
               ? "; the kernel counts the semaphore (ref_ctr_offset)"
               : "; the semaphore is incremented in the process through /proc/PID/mem (needs -p or -c)";
  return how;
}

// A name that is not there: the provider's own error says what was searched and suggests the
// closest names (the same message a script gets), so --explain does not keep a second copy.
Error with_provider_hint(Error error, const lang::ProbeSpec& spec, pid_t pid) {
  ExpandContext ctx;
  ctx.pid = pid;
  Result<std::vector<AttachPoint>> points = expand(spec, ctx);
  return points ? error : points.error();
}

}  // namespace

Status explain_user_probe(const lang::ProbeSpec& spec, const ExplainOptions& explain_options, FILE* out) {
  pid_t pid = explain_options.pid;
  Result<std::vector<TargetFile>> targets = resolve_targets(spec.target, pid);
  if (!targets) return targets.error();
  for (const TargetFile& t : *targets) {
    // The file the held descriptor reaches, by its name now.
    char* real = ::realpath(t.path.c_str(), nullptr);
    std::fprintf(out, "binary %s -> %s\n", spec.target.c_str(), real ? real : t.display.c_str());
    std::free(real);
    Result<std::shared_ptr<elf::Binary>> bin = open_binary(t.path);
    if (!bin) return bin.error();
    elf::Explain explain;
    if (spec.kind == ProbeKind::Usdt) {
      Result<std::vector<elf::UsdtSite>> sites = elf::resolve_usdt(**bin, spec.provider, spec.name, &explain);
      print_steps(explain, out);
      if (!sites) return with_provider_hint(sites.error(), spec, pid);
      bool semaphore = false;
      for (const elf::UsdtSite& s : *sites) semaphore = semaphore || s.site.ref_ctr_offset;
      std::fprintf(out, "%s\n", uprobe_mechanism(spec.kind, semaphore, explain_options).c_str());
      continue;
    }
    elf::ResolveOptions options;
    Status st;
    if (spec.has_address) {
      Result<elf::UprobeSite> site = elf::resolve_address(**bin, spec.address, options, &explain);
      if (!site) st = site.error();
    } else {
      std::string func = spec.quoted ? "\"" + spec.func + "\"" : spec.func;
      Result<std::vector<elf::UprobeSite>> sites =
          elf::resolve_function(**bin, func, spec.offset, options, &explain);
      if (!sites) st = sites.error();
    }
    print_steps(explain, out);
    if (!st) return with_provider_hint(st.error(), spec, pid);
    if (spec.kind == ProbeKind::Uretprobe)
      std::fprintf(out, "return probe: the kernel plants the breakpoint at the entry and swaps "
                        "the return address, so the program runs when the function returns\n");
    std::fprintf(out, "%s\n", uprobe_mechanism(spec.kind, false, explain_options).c_str());
  }
  return {};
}

Status explain_points(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out,
                      const PointExplainer& describe) {
  ExpandContext ctx;
  ctx.maxactive = options.kretprobe_maxactive;
  ctx.pid = options.pid;
  Result<std::vector<AttachPoint>> points = expand(spec, ctx);
  if (!points) return points.error();
  for (const AttachPoint& p : *points) {
    std::fprintf(out, "%s: program type %s\n", p.name.c_str(),
                 program_type_name(program_type(p.kind)));
    if (Status st = describe(p, *points); !st) return st;
  }
  return {};
}

Status explain_kprobes(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out) {
  AttachOptions attach{options.mode, options.pid};
  return explain_points(spec, options, out, [&](const AttachPoint& p, std::span<const AttachPoint> points) -> Status {
    std::fprintf(out, "kernel function %s%s%s + %llu\n", p.module.c_str(), p.module.empty() ? "" : ":",
                 p.func.c_str(), (unsigned long long)p.offset);
    if (uses_kprobe_multi(points, attach)) {
      std::fprintf(out, "attach: one kprobe_multi link (BPF_LINK_CREATE) for the %zu functions of the "
                        "block, told apart by bpf cookies\n", points.size());
      return {};
    }
    Result<KprobeRoute> route = kprobe_point_route(p, attach);
    if (!route) return route.error();
    if (*route == KprobeRoute::Pmu) {
      std::fprintf(out, "attach: perf_event_open on the kprobe PMU (config1 = function name, config2 = "
                        "offset)%s\n",
                   p.is_return ? " as a kretprobe (maxactive: the kernel's default)" : "");
      return {};
    }
    std::string why = p.is_return && p.maxactive > 0
                          ? "maxactive " + std::to_string(p.maxactive) + " can only be set this way"
                      : options.mode == AttachMode::Legacy ? "--attach-mode=legacy"
                                                           : "this kernel has no kprobe PMU";
    std::fprintf(out, "attach: kprobe_events line '%s' (%s), then perf_event_open of its "
                      "tracepoint id; the line is removed when the run ends\n",
                 sys::dynamic_event_line(p.is_return, p.is_return ? p.maxactive : 0,
                                         "rawprobe_<pid>_<n>", kprobe_events_target(p))
                     .c_str(),
                 why.c_str());
    return {};
  });
}

Status explain_probe(std::string_view text, const ExplainOptions& options, FILE* out) {
  lang::ProbeSpec spec;
  if (Status parsed = lang::parse_probe_spec(text, lang::Span{}, spec); !parsed)
    return make_error(parsed.error().what, std::string(text));
  return provider_for(spec.kind).explain(spec, options, out);
}

}  // namespace rawprobe::probes
