// The probe-type registry: one row per probe kind (DESIGN.md practice 14). Everything that
// asks "what is a kprobe" reads its row: the front end (names and aliases, then the
// provider's parse), the semantic checks (which context builtins a block may use), codegen
// (how argN is read, which address space pointers are in), listing (order, which types need a
// binary) and --explain (the provider's explain).
//
// To add a probe type:
//   1. engine/lang/probe_spec.h   a ProbeKind value
//   2. engine/probes/NAME.cpp     its Provider (parse, expand, attach, list, explain) and the
//                                 factory that returns it
//   3. engine/probes/providers.h  the factory's declaration
//   4. engine/probes/probe_types.cpp  its row: names, program type, provider, listing flags,
//                                 context traits and whether it opens perf events
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "engine/lang/probe_spec.h"

namespace rawprobe::probes {

using lang::ProbeKind;
class Provider;

// The BPF program type a probe kind runs as (the kernel's BPF_PROG_TYPE_*).
enum class ProgramType {
  Kprobe,      // BPF_PROG_TYPE_KPROBE: uprobe, uretprobe, usdt, kprobe, kretprobe, BEGIN, END;
               // the context is struct pt_regs
  Tracepoint,  // BPF_PROG_TYPE_TRACEPOINT: the context is the tracefs record (args->field)
  PerfEvent,   // BPF_PROG_TYPE_PERF_EVENT: interval, profile, software, hardware, watchpoint; the context
               // is struct bpf_perf_event_data, whose first member is pt_regs
  RawTracepoint,  // BPF_PROG_TYPE_RAW_TRACEPOINT: rawtracepoint; the context is the
                  // tracepoint's arguments, u64 args[] (engine/sys/raw_tracepoint.h)
  Tracing,        // BPF_PROG_TYPE_TRACING: fentry, fexit (the function's arguments, u64 each,
                  // then fexit's return value) and iter (struct bpf_iter__NAME *)
};

// Where argN comes from in a probe's context.
enum class ArgSource : uint8_t {
  None,          // argN is refused
  Registers,     // the target's calling convention over pt_regs (then the stack)
  UsdtOperands,  // the location's USDT argument specs (elf/usdt_args.h)
  RawArgs,       // u64 args[N] of a raw tracepoint's context
};

// What a probe's context offers the script's builtins, and how codegen reads it.
struct ContextTraits {
  ArgSource args = ArgSource::None;
  // Past this argN the verifier refuses the read; 0 when the source sets no such limit.
  // Raw tracepoints: u64 args[MAX_BPF_FUNC_ARGS] (kernel/trace/bpf_trace.c
  // raw_tp_prog_is_valid_access), 12.
  uint32_t max_args = 0;
  bool retval = false;         // a return probe: retval reads the return register
  bool func = false;           // `func` names the probed function
  bool record_fields = false;  // args->NAME reads the tracefs record
  bool btf_args = false;       // args.NAME is a parameter typed from the function's BTF
                               // prototype, read from its slot (btf_functions.h); retval too
  bool iter_context = false;   // `ctx` is the iterator's struct bpf_iter__NAME *
  bool user_space = false;     // the probed code's pointers are user addresses
  bool pt_regs = false;        // the context begins with the interrupted task's pt_regs: reg()
  bool special = false;        // runs in rawprobe itself, on its own call (BEGIN, END, self):
                               // no traced task; probetype says "special"
  // Said after the refusal of `retval` / `func` / `args` where the reason is particular to this
  // probe type; nullptr for the general message.
  const char* retval_hint = nullptr;
  const char* func_hint = nullptr;
  const char* args_error = nullptr;  // the whole message refusing `args` here
};

// Whether attaching opens perf events (perf_event_open), which kernel.perf_event_paranoid
// governs (engine/sys/perf_paranoid.h).
enum class PerfEvents : uint8_t {
  Never,        // a BPF link alone: rawtracepoint, fentry, fexit, iter
  Always,       // tracepoint, interval, profile, software, hardware, watchpoint
  UnlessMulti,  // uprobe, usdt, kprobe, BEGIN, END...: a PMU or tracefs event, unless the
                // route is a uprobe_multi or kprobe_multi link
};

struct ProbeType {
  ProbeKind kind;
  const char* name;   // canonical: "uprobe", "BEGIN"
  const char* alias;  // bpftrace 0.17's short form ("u"); nullptr when it has none
  ProgramType program;
  const Provider& (*provider)();
  // Listing: uprobe, uretprobe and usdt are listed only for a binary or -p PID (usdt only);
  // kretprobe lists the same functions as kprobe, so a whole-line listing skips it.
  bool list_needs_binary = false;
  bool list_with_pid = false;
  bool list_in_all = true;
  ContextTraits context;
  PerfEvents perf_events = PerfEvents::Never;
};

// Every row, in the order names are suggested to the script writer.
std::span<const ProbeType> probe_types();
const ProbeType& probe_type(ProbeKind kind);
// By name or alias; nullptr when none.
const ProbeType* find_probe_type(std::string_view name_or_alias);
// bpftrace's probe types rawprobe does not implement, names and aliases, for a precise error.
std::span<const char* const> unsupported_probe_types();

ProgramType program_type(ProbeKind kind);
const char* program_type_name(ProgramType type);  // "kprobe", "tracepoint", "perf_event", "raw_tracepoint"
uint32_t kernel_prog_type(ProgramType type);       // its BPF_PROG_TYPE_* number

}  // namespace rawprobe::probes
