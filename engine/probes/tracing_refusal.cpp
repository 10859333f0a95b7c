#include "engine/probes/tracing_refusal.h"

#include <cerrno>
#include <cstdio>

#include "engine/probes/providers.h"
#include "engine/sys/host_root.h"

namespace rawprobe::probes {
namespace {

// "[none] integrity confidentiality" -> "integrity"; empty when unreadable or none.
std::string lockdown_mode() {
  std::string text;
  if (!sys::read_text_file(sys::host_path("/sys/kernel/security/lockdown"), text)) return "";
  size_t open = text.find('['), close = text.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  std::string mode = text.substr(open + 1, close - open - 1);
  return mode == "none" ? "" : mode;
}

std::string active_lsms() {
  std::string text;
  if (!sys::read_text_file(sys::host_path("/sys/kernel/security/lsm"), text)) return "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ',')) text.pop_back();
  return text;
}

std::string what_works_instead(lang::ProbeKind kind) {
  if (kind == lang::ProbeKind::Iter) return "/proc holds what the task iterators walk";
  bool exit = kind == lang::ProbeKind::Fexit;
  if (kprobes_available())
    return std::string("use ") + (exit ? "kretprobe:FUNC (retval)" : "kprobe:FUNC (arg0..; cast them to the types -lv shows)") +
           ", which needs no trampoline";
  return "this kernel has no kprobes either: trace the function's subsystem through tracepoints "
         "(-l 'tracepoint:*') or raw tracepoints (-l 'rawtracepoint:*'); iterators (iter:NAME) need no "
         "trampoline and may still load";
}

}  // namespace

Error with_tracing_refusal_hint(Error error, lang::ProbeKind kind) {
  std::string cause;
  switch (error.err) {
    case EPERM:
    case EACCES: {
      std::string lockdown = lockdown_mode(), lsms = active_lsms();
      if (!lockdown.empty())
        cause = "the kernel is locked down (" + lockdown + "), which refuses BPF that reads kernel memory";
      else
        cause = "refused although rawprobe has the capabilities BPF needs: a local policy forbids BPF trampolines "
                "(kernel lockdown, an LSM such as SELinux or a BPF LSM program" +
                (lsms.empty() ? std::string() : "; active LSMs: " + lsms) +
                ", or a seccomp/hypervisor filter)";
      break;
    }
    case EOPNOTSUPP:
    case kKernelEnotsupp:
      cause = "this kernel cannot make BPF trampolines here (built without "
              "CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS, or no trampoline support for this architecture)";
      break;
    case ESRCH:
    case ENOENT:
      cause = "the function or its BTF object is gone (a module unloaded?)";
      break;
    case EBUSY: cause = "another tracer holds the function's ftrace site exclusively"; break;
    default: return error;
  }
  error.hint = cause + "; " + what_works_instead(kind);
  return error;
}

void note_listing_from_btf_alone() {
  static bool said = false;
  if (said) return;
  said = true;
  std::fprintf(stderr, "rawprobe: available_filter_functions cannot be read, so this list comes from BTF "
                       "alone and may name functions ftrace cannot patch (inlined or notrace)\n");
}

}  // namespace rawprobe::probes
