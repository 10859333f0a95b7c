#include "engine/probes/probe_types.h"

#include <linux/bpf.h>

#include "engine/probes/providers.h"

namespace rawprobe::probes {
namespace {

constexpr ContextTraits kNoContext{};
constexpr ContextTraits kSpecial{.special = true};
constexpr ContextTraits kUserEntry{.args = ArgSource::Registers, .func = true, .user_space = true, .pt_regs = true};
constexpr ContextTraits kUserReturn{.retval = true, .func = true, .user_space = true, .pt_regs = true};
constexpr ContextTraits kUsdt{.args = ArgSource::UsdtOperands, .user_space = true, .pt_regs = true};
constexpr ContextTraits kKernelEntry{.args = ArgSource::Registers, .func = true, .pt_regs = true};
constexpr ContextTraits kKernelReturn{.retval = true, .func = true, .pt_regs = true};
// A perf event program's context, struct bpf_perf_event_data, begins with the registers the
// event interrupted.
constexpr ContextTraits kPerfEvent{.pt_regs = true};
constexpr ContextTraits kTracepoint{.record_fields = true,
                                    .retval_hint = " (try to use args->ret instead)"};
constexpr ContextTraits kRawTracepoint{
    .args = ArgSource::RawArgs,
    .max_args = 12,
    .btf_args = true,
    .retval_hint = " (a raw tracepoint has no return value; sys_exit's is arg1)",
    .func_hint = " (a raw tracepoint is not a function; probe names it)",
    .args_error = "The args builtin of 'rawtracepoint' probes must be followed by an argument's name: "
                  "args.NAME, as -lv 'rawtracepoint:NAME' lists them (or read arg0, arg1, ...)",
};

constexpr ContextTraits kFentry{.func = true,
                                .btf_args = true,
                                .retval_hint = " (fexit:FUNC has the function's return value)"};
constexpr ContextTraits kFexit{.retval = true, .func = true, .btf_args = true};
constexpr ContextTraits kIter{.iter_context = true};

// Names and aliases checked against bpftrace 0.17 (`bpftrace -d -e 'u:/bin/true:main {}'`...).
const ProbeType kTypes[] = {
    // bpftrace 0.23 on spells them `begin` and `end`; both spellings are kept.
    {ProbeKind::Begin, "BEGIN", "begin", ProgramType::Kprobe, begin_end_provider, false, false, true,
     kSpecial, PerfEvents::UnlessMulti},
    {ProbeKind::End, "END", "end", ProgramType::Kprobe, begin_end_provider, false, false, true,
     kSpecial, PerfEvents::UnlessMulti},
    // bpftrace 0.22 on: a block rawprobe runs when it receives SIGUSR1 (the only trigger).
    {ProbeKind::Self, "self", nullptr, ProgramType::Kprobe, begin_end_provider, false, false, true,
     kSpecial, PerfEvents::UnlessMulti},
    // bpftrace 0.24 on: test:NAME and bench:NAME blocks run only under --test / --bench, one
    // at a time, each when rawprobe calls its trigger; left out of a whole-line listing.
    {ProbeKind::Test, "test", nullptr, ProgramType::Kprobe, begin_end_provider, false, false, false,
     kSpecial, PerfEvents::UnlessMulti},
    {ProbeKind::Bench, "bench", nullptr, ProgramType::Kprobe, begin_end_provider, false, false, false,
     kSpecial, PerfEvents::UnlessMulti},
    {ProbeKind::Uprobe, "uprobe", "u", ProgramType::Kprobe, uprobe_provider, true, true, true,
     kUserEntry, PerfEvents::UnlessMulti},
    // Listed under uprobe, as bpftrace lists them: the same functions.
    {ProbeKind::Uretprobe, "uretprobe", "ur", ProgramType::Kprobe, uprobe_provider, true, false, false,
     kUserReturn, PerfEvents::UnlessMulti},
    {ProbeKind::Usdt, "usdt", "U", ProgramType::Kprobe, usdt_provider, true, true, true,
     kUsdt, PerfEvents::UnlessMulti},
    {ProbeKind::Tracepoint, "tracepoint", "t", ProgramType::Tracepoint, tracepoint_provider, false, false, true,
     kTracepoint, PerfEvents::Always},
    {ProbeKind::Interval, "interval", "i", ProgramType::PerfEvent, interval_provider, false, false, true,
     kPerfEvent, PerfEvents::Always},
    {ProbeKind::Profile, "profile", "p", ProgramType::PerfEvent, profile_provider, false, false, true,
     kPerfEvent, PerfEvents::Always},
    {ProbeKind::Software, "software", "s", ProgramType::PerfEvent, software_provider, false, false, true,
     kPerfEvent, PerfEvents::Always},
    {ProbeKind::Hardware, "hardware", "h", ProgramType::PerfEvent, hardware_provider, false, false, true,
     kPerfEvent, PerfEvents::Always},
    {ProbeKind::Kprobe, "kprobe", "k", ProgramType::Kprobe, kprobe_provider, false, false, true,
     kKernelEntry, PerfEvents::UnlessMulti},
    {ProbeKind::Kretprobe, "kretprobe", "kr", ProgramType::Kprobe, kprobe_provider, false, false, false,
     kKernelReturn, PerfEvents::UnlessMulti},
    {ProbeKind::RawTracepoint, "rawtracepoint", "rt", ProgramType::RawTracepoint, rawtracepoint_provider, false,
     false, true, kRawTracepoint},
    // bpftrace 0.20 renamed kfunc/kretfunc; both names stay (alias_of below).
    {ProbeKind::Fentry, "fentry", "f", ProgramType::Tracing, fentry_provider, false, false, true, kFentry},
    {ProbeKind::Fexit, "fexit", "fr", ProgramType::Tracing, fentry_provider, false, false, false, kFexit},
    {ProbeKind::Iter, "iter", "it", ProgramType::Tracing, iter_provider, false, false, true, kIter},
    // Nothing to list: any aligned address of the traced process.
    {ProbeKind::Watchpoint, "watchpoint", "w", ProgramType::PerfEvent, watchpoint_provider, false, false, false,
     kPerfEvent, PerfEvents::Always},
};

// bpftrace 0.17's names of the kinds renamed since.
struct OldName {
  const char* name;
  ProbeKind kind;
};
constexpr OldName kOldNames[] = {{"kfunc", ProbeKind::Fentry}, {"kretfunc", ProbeKind::Fexit}};

// Names that are another kind's row with a variant its provider reads from the name as
// written: asyncwatchpoint (aw) is a watchpoint:FUNC+argN that does not stop the process.
constexpr OldName kVariantNames[] = {{"asyncwatchpoint", ProbeKind::Watchpoint}, {"aw", ProbeKind::Watchpoint}};

}  // namespace

std::span<const ProbeType> probe_types() { return kTypes; }

const ProbeType& probe_type(ProbeKind kind) {
  for (const ProbeType& t : kTypes)
    if (t.kind == kind) return t;
  return kTypes[0];  // unreachable: every ProbeKind has a row
}

const ProbeType* find_probe_type(std::string_view name) {
  for (const ProbeType& t : kTypes)
    if (name == t.name || (t.alias && name == t.alias)) return &t;
  for (const OldName& old : kOldNames)
    if (name == old.name) return &probe_type(old.kind);
  for (const OldName& variant : kVariantNames)
    if (name == variant.name) return &probe_type(variant.kind);
  return nullptr;
}

std::span<const char* const> unsupported_probe_types() { return {}; }

ProgramType program_type(ProbeKind kind) { return probe_type(kind).program; }

const char* program_type_name(ProgramType type) {
  switch (type) {
    case ProgramType::Kprobe: return "kprobe";
    case ProgramType::Tracepoint: return "tracepoint";
    case ProgramType::PerfEvent: return "perf_event";
    case ProgramType::RawTracepoint: return "raw_tracepoint";
    case ProgramType::Tracing: return "tracing";
  }
  return "?";
}

uint32_t kernel_prog_type(ProgramType type) {
  switch (type) {
    case ProgramType::Kprobe: return BPF_PROG_TYPE_KPROBE;
    case ProgramType::Tracepoint: return BPF_PROG_TYPE_TRACEPOINT;
    case ProgramType::PerfEvent: return BPF_PROG_TYPE_PERF_EVENT;
    case ProgramType::RawTracepoint: return BPF_PROG_TYPE_RAW_TRACEPOINT;
    case ProgramType::Tracing: return BPF_PROG_TYPE_TRACING;
  }
  return BPF_PROG_TYPE_UNSPEC;
}

}  // namespace rawprobe::probes
