// Functions with effects beyond the trace: system() runs a command, signal() signals the
// current task, override() changes a kernel function's return value. bpftrace allows the
// three only with --unsafe, and rawprobe too, with bpftrace 0.17's messages.
#include <csignal>
#include <cstring>

#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"
#include "engine/probes/probe_types.h"

namespace rawprobe::lang {
namespace {

// "SIGUSR1", "USR1" or "usr1" -> 10; 0 when no signal has that name.
int signal_number(std::string name) {
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (name.rfind("SIG", 0) == 0) name = name.substr(3);
  for (int n = 1; n < NSIG; ++n)
    if (const char* abbrev = sigabbrev_np(n); abbrev && name == abbrev) return n;
  return 0;
}

}  // namespace

bool Checker::unsafe_allowed(Expr& e) {
  if (!opts_.unsafe) error(e.span, e.name + "() is an unsafe function being used in safe mode");
  return opts_.unsafe;
}

void Checker::call_system(Expr& e) {
  unsafe_allowed(e);
  call_printf(e);
}

// signal("SIGKILL"), signal("KILL"), signal(9), signal($n): bpf_send_signal() to the current
// task, so never from BEGIN or END, which run in rawprobe itself; signal_thread() the same
// with bpf_send_signal_thread(), to the current thread. A literal's number is kept in
// e.int_value; 0 there means the argument is computed.
void Checker::call_signal(Expr& e) {
  unsafe_allowed(e);
  if (!arg_count(e)) return;
  for (const ProbeSpec& s : probe_->specs)
    if (probes::probe_type(s.kind).context.special)
      error(e.span, e.name + " can not be used with \"" + probe_kind_name(s.kind) + "\" probes");
  Expr& a = *e.operands[0];
  check(a, Use::Value);
  if (a.type.kind == TypeKind::None) return;
  if (a.is_literal_string()) {
    int n = signal_number(a.str);
    if (n == 0) error(e.span, a.str + " is not a valid signal");
    e.int_value = static_cast<uint64_t>(n);
  } else if (a.kind == ExprKind::Integer) {
    if (a.int_value < 1 || a.int_value > 64)
      error(e.span, std::to_string(static_cast<int64_t>(a.int_value)) + " is not a valid signal, allowed range: [1,64]");
    e.int_value = a.int_value;
  } else if (!a.type.is_integer()) {
    error(e.span, e.name + "() only supports integer or string literal arguments (" + argument_type_name(a.type) +
                      " provided)");
  }
}

// override(rc): bpf_override_return() in a kprobe on a function the kernel allows errors to
// be injected into (ALLOW_ERROR_INJECTION, CONFIG_BPF_KPROBE_OVERRIDE).
void Checker::call_override(Expr& e) {
  unsafe_allowed(e);
  if (!arg_count(e)) return;
  for (const ProbeSpec& s : probe_->specs)
    if (s.kind != ProbeKind::Kprobe) {
      error(e.span, "override can only be used with kprobes.");
      break;
    }
  Expr& a = *e.operands[0];
  check(a, Use::Value);
  if (a.type.kind != TypeKind::None && !a.type.is_integer())
    error(e.span, "override() only supports integer arguments (" + argument_type_name(a.type) + " provided)");
}

}  // namespace rawprobe::lang
