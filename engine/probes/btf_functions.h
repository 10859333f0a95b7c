// Kernel functions as fentry/fexit see them: named by the kernel's BTF (vmlinux and module
// BTF), each with its prototype and the BTF id BPF_PROG_LOAD attaches through, and where
// tracefs lets us read it, only those ftrace can patch (available_filter_functions): BTF
// also describes functions that are inlined everywhere or marked notrace, which have no
// trampoline site.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/btf/kernel_types.h"
#include "engine/lang/probe_spec.h"
#include "engine/lang/tracepoint_format.h"

namespace rawprobe::probes {

struct BtfFunction {
  std::string module;  // "vmlinux" or the module's name
  std::string name;
  uint32_t btf_id = 0;
  ctypes::CTypeRef prototype = nullptr;  // CKind::Function with parameter names
};

// The functions whose module matches `module_glob` (empty: any) and whose name matches
// `func_glob`, vmlinux first, then modules in name order. A wildcard leaves out what ftrace
// cannot patch when available_filter_functions is readable.
Result<std::vector<BtfFunction>> btf_functions(const std::string& module_glob, const std::string& func_glob);

// The BTF id of a vmlinux function, 0 when there is none (sys::set_btf_function_id_lookup).
uint32_t vmlinux_function_id(const char* name);

// Every function name BTF declares, for "did you mean" hints.
std::vector<std::string> btf_function_names();

// "module:name" of every function ftrace can patch, or nothing when available_filter_functions
// cannot be read (not mounted, or refused: some hardened kernels answer EPERM even to root).
const std::optional<std::set<std::string>>& traceable_functions();

// What a probe's context holds, typed from BTF: a kernel function's parameters and return
// type (fentry, fexit), or a raw tracepoint's TP_PROTO arguments: the prototype of the
// kernel's __bpf_trace_NAME, `void (void *__data, ARGS...)`, less the __data the kernel
// passes its probes (its btf_trace_NAME typedef has the types but not the names);
// bpftrace types rawtracepoint `args` from BTF too since 0.24.
struct TypedArguments {
  std::string owner;                  // "vfs_read", "sched_switch": for messages
  std::vector<ctypes::CParam> params;
  ctypes::CTypeRef ret = nullptr;     // the function's return type; nullptr for a tracepoint
};
// Every match of the spec (fentry/fexit: its functions; rawtracepoint: its tracepoints),
// in expand()'s order.
Result<std::vector<TypedArguments>> typed_arguments(const lang::ProbeSpec& spec);
TypedArguments arguments_of(const BtfFunction& f);
// The raw tracepoint's arguments, named where BTF names them; an error when BTF has none.
Result<TypedArguments> raw_tracepoint_arguments(const std::string& name);

// How the BPF context holds the arguments: each parameter in one u64 slot, or two for a
// struct of 9..16 bytes passed by value, then the return value (fexit). `fields` gets one
// entry per parameter (name, offset, size) and "$retval" after them; an error for a
// prototype the kernel cannot attach to (more than 12 slots, a struct over 16 bytes by value).
Status argument_slots(const TypedArguments& args, std::vector<lang::TracepointField>& fields);
inline constexpr const char* kRetvalSlot = "$retval";

// bpftrace's `-lv` lines of a prototype: "    struct file * file", ..., "    ssize_t retval".
std::vector<std::string> prototype_lines(ctypes::CTypeRef prototype);

}  // namespace rawprobe::probes
