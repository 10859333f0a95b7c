// kprobe:FUNC, kprobe:FUNC+OFF, kprobe:MODULE:FUNC, wildcards; kretprobe:FUNC. Functions come
// from tracefs available_filter_functions ("name [module]"), else /proc/kallsyms text
// symbols; the kprobe blacklist's are left out of wildcards and listings and refused by name
// (kprobe_blacklist.h). kprobe:MODULE:FUNC with a module that is not loaded says so and names
// the modules that have FUNC. Attach order in auto mode: the kprobe PMU (4.17), then
// legacy kprobe_events, with kprobe_multi (5.18) for wildcard sets in auto mode;
// --attach-mode=pmu|legacy forces one path. A kretprobe with maxactive
// (--kretprobe-maxactive) always takes kprobe_events, the one interface that carries it.
//
// A kernel built without CONFIG_KPROBES has neither the PMU nor kprobe_events: the error
// says so and names the tracepoints that cover the function's subsystem.
#include <cerrno>

#include <algorithm>
#include <set>
#include <sstream>

#include "arch/arch.h"
#include "elf/symbol_match.h"
#include "engine/lang/suggest.h"
#include "engine/probes/kprobe_blacklist.h"
#include "engine/probes/providers.h"
#include "engine/probes/tracepoint.h"
#include "engine/sys/attach.h"
#include "engine/sys/bpf_link.h"
#include "engine/sys/features.h"
#include "engine/sys/host_root.h"
#include "engine/sys/perf.h"
#include "engine/sys/stop_requested.h"
#include "engine/sys/tracefs.h"

namespace rawprobe::probes {
namespace {

struct KernelFunction {
  std::string name, module;  // module empty for vmlinux
  bool blacklisted = false;  // the kernel refuses kprobes on it (kprobe_blacklist.h)
};

bool has_kprobe_events() {
  Result<std::string> dir = sys::tracefs_dir();
  std::string ignored;
  return dir && sys::read_text_file(*dir + "/kprobe_events", ignored);
}

bool kernel_has_kprobes() { return sys::has(sys::Feature::kprobe_pmu) || has_kprobe_events(); }

// "vfs_read" -> {"read"}; "do_sys_openat2" -> {"openat2"}: the words of a function name
// that say what it does, without the layer prefixes every subsystem shares.
std::vector<std::string> topic_words(const std::string& func) {
  static const std::set<std::string> generic = {"", "vfs", "do", "sys", "ksys", "x64", "ia32",
                                                "se", "kernel", "generic", "common", "__"};
  std::vector<std::string> words;
  std::istringstream in(func);
  std::string w;
  while (std::getline(in, w, '_'))
    if (!generic.count(w)) words.push_back(w);
  return words;
}

}  // namespace

// Tracepoints that cover what `func` does, best first: the syscall's enter/exit events, then
// any tracepoint whose name holds every topic word.
std::vector<std::string> tracepoints_for_function(const std::string& func) {
  std::vector<std::string> words = topic_words(func);
  Result<std::vector<std::pair<std::string, std::string>>> all = all_tracepoints();
  if (!all || words.empty()) return {};
  std::vector<std::string> exact, related;
  std::string joined;
  for (const std::string& w : words) joined += (joined.empty() ? "" : "_") + w;
  for (auto& [c, n] : *all) {
    std::string full = "tracepoint:" + c + ":" + n;
    if (c == "syscalls" && (n == "sys_enter_" + joined || n == "sys_exit_" + joined)) {
      exact.push_back(full);
      continue;
    }
    bool every = true;
    for (const std::string& w : words) every = every && n.find(w) != std::string::npos;
    if (every) related.push_back(full);
  }
  std::sort(related.begin(), related.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  for (const std::string& r : related) {
    if (exact.size() >= 8) break;
    exact.push_back(r);
  }
  return exact;
}

namespace {

Error no_kprobes(const lang::ProbeSpec& spec) {
  std::vector<std::string> tps = tracepoints_for_function(spec.func);
  std::string hint;
  if (!tps.empty()) {
    hint = "tracepoints that exist for this on this kernel: ";
    for (size_t i = 0; i < tps.size(); ++i) hint += (i ? ", " : "") + tps[i];
  } else {
    hint = "use tracepoints instead (rawprobe -l 'tracepoint:*')";
  }
  hint += "; kprobes need a kernel built with CONFIG_KPROBES=y";
  return make_error("this kernel has no kprobes: it was built without CONFIG_KPROBES (no kprobe "
                    "PMU in /sys/bus/event_source/devices, no kprobe_events in tracefs)",
                    spec.raw, hint);
}

// available_filter_functions, else kallsyms; each marked when the kprobe blacklist has it.
Result<std::vector<KernelFunction>> kernel_functions() {
  std::vector<KernelFunction> out;
  std::string text;
  Result<std::string> dir = sys::tracefs_dir();
  bool from_ftrace = dir && sys::read_text_file(*dir + "/available_filter_functions", text);
  if (!from_ftrace && !sys::read_text_file(sys::host_path("/proc/kallsyms"), text))
    return make_error("read the kernel's function list", "available_filter_functions, /proc/kallsyms",
                      "run as root with tracefs mounted");
  const KprobeBlacklist& blacklist = kprobe_blacklist();
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    KernelFunction k;
    if (from_ftrace) {
      f >> k.name;
    } else {
      std::string addr, type;
      f >> addr >> type >> k.name;
      if (type != "t" && type != "T") continue;
      // The padding the compiler puts before each function (CONFIG_FUNCTION_PADDING_ALIGNMENT,
      // 6.2+: __pfx_NAME; kCFI's type hash: __cfi_NAME) is named in kallsyms as text but is
      // no function: ftrace's list, which this stands in for, never has them.
      if (k.name.rfind("__pfx_", 0) == 0 || k.name.rfind("__cfi_", 0) == 0) continue;
    }
    std::string module;
    if (f >> module && module.size() > 2 && module.front() == '[') k.module = module.substr(1, module.size() - 2);
    k.blacklisted = blacklist.contains(k.module, k.name);
    if (!k.name.empty()) out.push_back(std::move(k));
  }
  return out;
}

// An attach error names the probe as the script wrote it (kprobe:vfs_read+1), whichever path
// failed (the PMU's "vfs_read+0x1", kprobe_events' "vfs_read+1"), and explains the kernel's
// answer to an offset inside an instruction.
Error about_point(Error e, const AttachPoint& p) {
  e.object = p.name;
  if (e.err == EILSEQ)
    e.hint = "offset " + std::to_string(p.offset) + " is inside an instruction of " + p.func +
             ": a kprobe must start at an instruction; take an offset from the function's "
             "disassembly (objdump -d of the kernel or module)";
  // arm64's kprobes refuse an address that is not 4-byte aligned with EINVAL, before any
  // decoding (arch_prepare_kprobe): the kernel's alignment rule, not an instruction check.
  else if (e.err == EINVAL && arch::host().name == "aarch64" && p.offset % 4 != 0)
    e.hint = "offset " + std::to_string(p.offset) + " is inside an instruction of " + p.func +
             ": the kernel's alignment rule refused it (every aarch64 instruction is 4 bytes, "
             "and a kprobe's offset must be a multiple of 4)";
  // 32-bit arm's the same way for a kernel of ARM code (Debian's armmp: CONFIG_THUMB2_KERNEL
  // is off); a Thumb-2 kernel refuses only an odd address.
  else if (e.err == EINVAL && arch::host().name == "arm" && p.offset % 4 != 0)
    e.hint = "offset " + std::to_string(p.offset) + " is inside an instruction of " + p.func +
             ": the kernel's alignment rule refused it (an arm kernel's instructions are 4 bytes, "
             "and a kprobe's offset must be a multiple of 4; a Thumb-2 kernel's, of 2)";
  // What the kernel answers for a blacklisted function, which expand() could not leave out.
  else if (e.err == EINVAL && !kprobe_blacklist().known())
    e.hint = "the kernel may have refused " + p.func + " because it is on the kprobe blacklist, "
             "which rawprobe could not read: " + kprobe_blacklist().why;
  return e;
}

// For kprobe:MODULE:FUNC with a module that is not loaded: the modules that do have FUNC.
std::string modules_with(const std::vector<KernelFunction>& functions, const std::string& func) {
  std::set<std::string> modules;
  for (const KernelFunction& f : functions)
    if (elf::glob_match(func, f.name)) modules.insert(f.module.empty() ? "vmlinux" : f.module);
  if (modules.empty()) return "load it first (modprobe); list what a module offers with rawprobe -l 'kprobe:MODULE:*'";
  std::string where;
  for (const std::string& m : modules) where += (where.empty() ? "" : ", ") + m;
  std::string hint = "'" + func + "' is in " + where;
  if (modules.size() == 1)
    hint += ": kprobe:" + (where == "vmlinux" ? func : where + ":" + func);
  return hint;
}

class KprobeProvider final : public Provider {
 public:
  // FUNCTION, FUNCTION+OFF or MODULE:FUNCTION
  Status parse(const std::vector<std::string>& p, lang::ProbeSpec& out) const override {
    const char* kind = lang::probe_kind_name(out.kind);
    if (p.size() < 2 || p.size() > 3 || p.back().empty()) {
      return make_error(std::string(kind) + " needs " + kind + ":FUNCTION or " + kind + ":MODULE:FUNCTION");
    }
    if (p.size() == 3) {
      // A module name never holds '/': a path means a user binary, i.e. a uprobe.
      if (p[1].find('/') != std::string::npos) {
        return make_error(std::string(kind) + " module '" + p[1] + "' looks like a file path; probe user binaries with " +
                (out.kind == ProbeKind::Kprobe ? "uprobe" : "uretprobe"));
      }
      out.target = p[1];
    }
    if (Status st = lang::parse_probe_function(p.back(), out); !st) return st;
    if (out.kind == ProbeKind::Kretprobe && out.has_offset) {
      return make_error("kretprobe cannot take an offset");
    }
    return {};
  }

  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec,
                                          const ExpandContext& ctx) const override {
    if (!kernel_has_kprobes()) return no_kprobes(spec);
    Result<std::vector<KernelFunction>> functions = kernel_functions();
    if (!functions) return functions.error();
    std::vector<AttachPoint> points;
    std::set<std::string> seen;
    std::vector<std::string> names;
    std::vector<const KernelFunction*> refused;  // matched, but on the kprobe blacklist
    bool module_seen = spec.target.empty();
    const char* kind = lang::probe_kind_name(spec.kind);
    for (const KernelFunction& f : *functions) {
      names.push_back(f.name);
      if (!spec.target.empty() && !elf::glob_match(spec.target, f.module)) continue;
      module_seen = true;
      if (!elf::glob_match(spec.func, f.name) || !seen.insert(f.module + ":" + f.name).second) continue;
      // A wildcard leaves blacklisted functions out; a name is refused below.
      if (f.blacklisted) {
        refused.push_back(&f);
        continue;
      }
      AttachPoint p = kernel_function_point(spec, f.name, f.module);
      p.offset = spec.offset;
      p.maxactive = ctx.maxactive;
      p.name = std::string(kind) + ":" + (spec.target.empty() ? "" : spec.target + ":") + f.name +
               (spec.has_offset ? "+" + std::to_string(spec.offset) : "");
      points.push_back(std::move(p));
    }
    if (!points.empty()) return points;
    if (!refused.empty())
      return make_error((refused.size() == 1 ? "kernel function '" + refused.front()->name + "' is"
                                             : "every kernel function matching '" + spec.func + "' (" +
                                                   std::to_string(refused.size()) + ") is") +
                            " on the kprobe blacklist: the kernel refuses kprobes on " +
                            (refused.size() == 1 ? "it" : "them"),
                        spec.raw,
                        "the blacklist (" + kprobe_blacklist().source + ") holds functions that kprobes "
                        "themselves, exception entry and noinstr code use; probe a caller or a "
                        "tracepoint instead");
    if (!module_seen)
      return make_error("kernel module '" + spec.target + "' is not loaded (no function of it in "
                        "available_filter_functions)",
                        spec.raw, modules_with(*functions, spec.func));
    return make_error("kernel function '" + spec.func + "' not found", spec.raw,
                      "it is not in available_filter_functions (inlined and notrace functions "
                      "cannot be probed)" +
                          lang::did_you_mean(spec.func, names));
  }

  Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points,
                                             std::span<const int> prog_fds,
                                             const AttachOptions& options) const override {
    Result<std::vector<int>> fds = fds_per_point(points, prog_fds);
    if (!fds) return fds.error();
    auto set = std::make_unique<AttachmentSet>();
    if (uses_kprobe_multi(points, options) && prog_fds.size() == 1) {
      for (bool ret : {false, true}) {
        if (sys::stop_requested()) break;  // as below: keep what is attached, end the run
        sys::KprobeMultiSpec spec;
        spec.retprobe = ret;
        for (size_t i = 0; i < points.size(); ++i) {
          if (points[i].is_return != ret) continue;
          spec.symbols.push_back(points[i].func);
          spec.cookies.push_back(i);
        }
        if (spec.symbols.empty()) continue;
        Result<sys::Fd> link = sys::link_kprobe_multi(prog_fds[0], spec);
        if (!link) return link.error();
        size_t n = spec.symbols.size();
        set->add_fd(std::move(*link), n,
                 "kprobe_multi link: " + std::to_string(n) + " functions");
      }
      return std::unique_ptr<Attachment>(std::move(set));
    }
    bool cookies = sys::has(sys::Feature::perf_link) && prog_fds.size() == 1 && points.size() > 1;
    for (size_t i = 0; i < points.size(); ++i) {
      // Ctrl-C or SIGTERM while a wildcard's functions are attached one by one (each a perf
      // event, in legacy mode also a kprobe_events entry): stop with what is attached; the
      // run then ends as on any stop signal and releases all of it.
      if (sys::stop_requested()) break;
      const AttachPoint& p = points[i];
      Result<KprobeRoute> route = kprobe_point_route(p, options);
      if (!route) return route.error();
      if (*route == KprobeRoute::Legacy) {
        Result<sys::DynamicEvent> event = sys::DynamicEvent::create(
            sys::DynamicKind::kprobe, p.is_return, kprobe_events_target(p), p.is_return ? p.maxactive : 0);
        if (!event) return about_point(event.error(), p);
        Result<uint32_t> id = event->id();
        if (!id) return about_point(id.error(), p);
        Result<sys::Fd> fd = sys::open_tracepoint(*id, -1, 0, p.name);
        if (!fd) return about_point(fd.error(), p);
        Result<sys::PerfAttachment> a = sys::attach_perf_event(std::move(*fd), (*fds)[i], cookies ? i : 0);
        if (!a) return about_point(a.error(), p);
        std::string how = "kprobe_events " + event->group() + "/" + event->name() + ": " + p.name;
        a->keep_event(std::move(*event));
        set->add_perf(std::move(*a), how);
        continue;
      }
      sys::KprobeTarget target;
      target.symbol = (p.module.empty() ? "" : p.module + ":") + p.func;
      target.offset = p.offset;
      target.retprobe = p.is_return;
      Result<sys::Fd> fd = sys::open_kprobe(target);
      if (!fd) return about_point(fd.error(), p);
      Result<sys::PerfAttachment> a = sys::attach_perf_event(std::move(*fd), (*fds)[i], cookies ? i : 0);
      if (!a) return about_point(a.error(), p);
      set->add_perf(std::move(*a), "kprobe PMU perf event: " + p.name);
    }
    return std::unique_ptr<Attachment>(std::move(set));
  }

  // kprobe:FUNC lines (kretprobe: the same set); on a kernel without kprobes, nothing, and
  // list_probes prints a note when kprobes were asked for by name.
  Status list(const ListRequest& request, ListSink& sink) const override {
    if (!kernel_has_kprobes()) return {};
    Result<std::vector<KernelFunction>> functions = kernel_functions();
    if (!functions) return functions.error();
    std::string module = "*", func = "*";
    if (request.parts.size() == 1) func = request.parts[0];
    if (request.parts.size() >= 2) {
      module = request.parts[0];
      func = request.parts[1];
    }
    for (const KernelFunction& f : *functions) {
      if (f.blacklisted || !elf::glob_match(func, f.name)) continue;
      if (request.parts.size() >= 2 && !elf::glob_match(module, f.module)) continue;
      sink.line(request.provider + ":" + (request.parts.size() >= 2 ? f.module + ":" : "") + f.name);
    }
    return {};
  }

  Status explain(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out) const override {
    return explain_kprobes(spec, options, out);
  }

  std::string unavailable(std::string_view name) const override {
    if (kernel_has_kprobes()) return "";
    return "this kernel has no kprobes (built without CONFIG_KPROBES): no " + std::string(name) +
           " probes to list; tracepoints cover many subsystems: -l 'tracepoint:*'";
  }
};

}  // namespace

bool kprobes_available() { return kernel_has_kprobes(); }

std::string kprobe_events_target(const AttachPoint& point) {
  return (point.module.empty() ? "" : point.module + ":") + point.func + "+" + std::to_string(point.offset);
}

Result<KprobeRoute> kprobe_point_route(const AttachPoint& point, const AttachOptions& options) {
  // perf_event_attr has no maxactive field: only a kprobe_events line ("r<N>:") sets it.
  bool needs_maxactive = point.is_return && point.maxactive > 0;
  if (needs_maxactive && options.mode == AttachMode::Pmu)
    return make_error("attach with maxactive " + std::to_string(point.maxactive) + " through the kprobe PMU",
                      point.name, "the kprobe PMU cannot carry maxactive; use --attach-mode=auto or legacy");
  if (needs_maxactive || options.mode == AttachMode::Legacy ||
      (options.mode == AttachMode::Auto && !sys::has(sys::Feature::kprobe_pmu)))
    return KprobeRoute::Legacy;
  return KprobeRoute::Pmu;
}

AttachPoint kernel_function_point(const lang::ProbeSpec& spec, const std::string& func, const std::string& module) {
  AttachPoint p;
  p.kind = spec.kind;
  p.is_return = lang::probe_kind_is_return(spec.kind);
  p.arch = &arch::host();
  p.func = func;
  p.module = module;
  return p;
}

bool uses_kprobe_multi(std::span<const AttachPoint> points, const AttachOptions& options) {
  if (options.mode != AttachMode::Auto || points.size() < 2) return false;
  for (const AttachPoint& p : points) {
    if (p.kind != ProbeKind::Kprobe && p.kind != ProbeKind::Kretprobe) return false;
    if (p.is_return && p.maxactive > 0) return false;  // a multi link has no maxactive either
  }
  return sys::has(sys::Feature::kprobe_multi);
}

const Provider& kprobe_provider() { return the_provider<KprobeProvider>(); }

}  // namespace rawprobe::probes
