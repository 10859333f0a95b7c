// Builtin variables (pid, comm, retval, argN, ...) and tracepoint fields (args->NAME).
#include <algorithm>

#include "engine/base/type_names.h"
#include "engine/ctypes/decl_parser.h"
#include "engine/lang/semantic_internal.h"
#include "engine/lang/suggest.h"
#include "engine/probes/probe_types.h"

namespace rawprobe::lang {
namespace {

struct BuiltinDef {
  const char* name;
  BuiltinId id;
};
constexpr BuiltinDef kBuiltins[] = {
    {"pid", BuiltinId::Pid},         {"tid", BuiltinId::Tid},       {"uid", BuiltinId::Uid},
    {"gid", BuiltinId::Gid},         {"nsecs", BuiltinId::Nsecs},   {"elapsed", BuiltinId::Elapsed},
    {"cpu", BuiltinId::Cpu},         {"comm", BuiltinId::Comm},     {"retval", BuiltinId::Retval},
    {"args", BuiltinId::Args},       {"func", BuiltinId::Func},     {"probe", BuiltinId::Probe},
    {"curtask", BuiltinId::Curtask}, {"rand", BuiltinId::Rand},     {"cgroup", BuiltinId::Cgroup},
    {"cpid", BuiltinId::Cpid},       {"username", BuiltinId::Username}, {"numaid", BuiltinId::Numaid},
    {"jiffies", BuiltinId::Jiffies},
};

// What each probe kind's context offers: its row in the probe-type registry.
const probes::ContextTraits& context(ProbeKind k) { return probes::probe_type(k).context; }
bool is_ret(ProbeKind k) { return context(k).retval; }
bool has_args_regs(ProbeKind k) { return context(k).args != probes::ArgSource::None; }
bool is_tracepoint(ProbeKind k) { return context(k).record_fields; }
bool has_btf_args(ProbeKind k) { return context(k).btf_args; }
// bpftrace 0.17 refuses `func` in usdt probes too ("can not be used with 'usdt' probes").
bool has_func(ProbeKind k) { return context(k).func; }

// argN: N in decimal, no leading zeros.
bool parse_arg_index(const std::string& name, uint32_t& index) {
  if (name.size() < 4 || name.compare(0, 3, "arg") != 0 || name.size() > 6) return false;
  if (name[3] == '0' && name.size() > 4) return false;
  index = 0;
  for (size_t i = 3; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
    index = index * 10 + (name[i] - '0');
  }
  return true;
}

}  // namespace

// The hint (or message) every spec of the block gives alike, else nullptr: a hint particular
// to one probe type is said only when the whole block is of that type.
const char* Checker::shared_hint(const char* probes::ContextTraits::*hint) const {
  if (!probe_ || probe_->specs.empty()) return nullptr;
  const char* first = context(probe_->specs.front().kind).*hint;
  for (const ProbeSpec& s : probe_->specs)
    if (context(s.kind).*hint != first) return nullptr;
  return first;
}

bool Checker::all_specs(bool (*pred)(ProbeKind)) const {
  if (!probe_ || probe_->specs.empty()) return false;
  return std::all_of(probe_->specs.begin(), probe_->specs.end(), [&](const ProbeSpec& s) { return pred(s.kind); });
}

// "uprobe" or "uprobe, tracepoint": the kinds in this block, for messages.
std::string Checker::probe_kinds_text() const {
  std::vector<std::string> names;
  for (const ProbeSpec& s : probe_->specs) {
    std::string n = probe_kind_name(s.kind);
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  }
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "no" : out;
}

void Checker::note_builtin(BuiltinId id) {
  if (std::find(info_.builtins_used.begin(), info_.builtins_used.end(), id) == info_.builtins_used.end())
    info_.builtins_used.push_back(id);
}

void Checker::builtin(Expr& e) {
  // `kstack` and `ustack` without parentheses are the calls with no arguments.
  if (e.name == "kstack" || e.name == "ustack") {
    e.kind = ExprKind::Call;
    return call(e, Use::Value);
  }
  if (stack_argument(e)) return;
  if (e.name == "ctx" && probe_ && !probe_->specs.empty() && context(probe_->specs.front().kind).iter_context)
    return iter_ctx(e);
  uint32_t index;
  if (parse_arg_index(e.name, index)) {
    e.builtin = BuiltinId::Arg;
    e.arg_index = index;
    if (!all_specs(has_args_regs)) {
      // bpftrace 0.17's words (it has no raw tracepoints), kept for its error-message oracle.
      error(e.span, "The " + e.name + " builtin can only be used with 'kprobes', 'uprobes' and 'usdt' probes");
      return;
    }
    for (const ProbeSpec& s : probe_->specs) {
      uint32_t max = context(s.kind).max_args;
      if (max == 0 || index < max) continue;
      error(e.span, std::string(probe_kind_name(s.kind)) + " probes have at most " + std::to_string(max) +
                        " arguments (arg0..arg" + std::to_string(max - 1) + "): " + e.name + " is past them");
      return;
    }
    note_builtin(BuiltinId::Arg);
    info_.max_arg_index = std::max(info_.max_arg_index, index);
    e.type = Type::integer(8, false);
    return;
  }
  for (const BuiltinDef& b : kBuiltins)
    if (e.name == b.name) e.builtin = b.id;
  switch (e.builtin) {
    case BuiltinId::None: {
      // A function without arguments is used bare as well (bpftrace 0.24 on: `ppid`).
      if (const FunctionInfo* f = find_function(e.name); f && f->min_args == 0 && f->role == FunctionRole::Value) {
        e.kind = ExprKind::Call;
        return call(e, Use::Value);
      }
      // An enumerator of the script's enums or the kernel's (BTF) is its integer, as in C.
      if (std::optional<int64_t> value = c_types().enum_constant(e.name)) {
        e.kind = ExprKind::Integer;
        e.int_value = static_cast<uint64_t>(*value);
        e.type = Type::integer(8, true);
        return;
      }
      std::vector<std::string> names;
      for (const BuiltinDef& b : kBuiltins) names.push_back(b.name);
      names.push_back("arg0");
      error(e.span, "Unknown identifier: '" + e.name + "'" + did_you_mean(e.name, names));
      return;
    }
    case BuiltinId::Comm: e.type = Type::string(16); break;  // TASK_COMM_LEN
    case BuiltinId::Retval:
      if (!all_specs(is_ret)) {
        const char* hint = shared_hint(&probes::ContextTraits::retval_hint);
        error(e.span, std::string("The retval builtin can only be used with 'kretprobe' and 'uretprobe' probes") +
                          (hint ? hint : ""));
        return;
      }
      e.type = all_specs(has_btf_args) ? btf_retval(e.span) : Type::integer(8, false);
      break;
    case BuiltinId::Args:
      if (const char* why = shared_hint(&probes::ContextTraits::args_error)) {
        error(e.span, why);
        return;
      }
      error(e.span, "The args builtin must be followed by a field: args->NAME (or args.NAME)");
      return;
    case BuiltinId::Func:
      if (!all_specs(has_func)) {
        const char* hint = shared_hint(&probes::ContextTraits::func_hint);
        error(e.span, "The func builtin can not be used with '" + probe_kinds_text() + "' probes" + (hint ? hint : ""));
        return;
      }
      // The point's function name, looked up by point id like `probe` (codegen/compiled_script.h);
      // a uretprobe names the function it returns from, not the caller its ip is in.
      e.type = Type{TypeKind::Func, 8, false, {}};
      break;
    case BuiltinId::Probe: e.type = Type{TypeKind::Probe, 8, false, {}}; break;
    case BuiltinId::Cpid:
      if (!opts_.child_command) {
        error(e.span, "cpid cannot be used without child command");  // bpftrace 0.17's words
        return;
      }
      e.type = Type::integer(8, false);
      break;
    case BuiltinId::Username: e.type = Type{TypeKind::Username, 8, false, {}}; break;
    case BuiltinId::Curtask: {
      // With kernel BTF, as in bpftrace: a struct task_struct * (curtask->pid reads it); without,
      // the address as an integer.
      ctypes::CTypeRef task =
          opts_.kernel_types ? opts_.kernel_types->find(ctypes::CKind::Struct, "task_struct") : nullptr;
      e.type = task ? c_value(c_types().pointer_to(task), false, e.span) : Type::integer(8, false);
      break;
    }
    default: e.type = Type::integer(8, false); break;  // pid, tid, nsecs, ... are u64 in bpftrace
  }
  note_builtin(e.builtin);
}

void Checker::field(Expr& e) {
  Expr& base = *e.operands[0];
  if (base.kind != ExprKind::Builtin || base.name != "args") {
    check(base, Use::Value);
    record_field(e);
    return;
  }
  base.builtin = BuiltinId::Args;
  if (all_specs(has_btf_args)) return btf_arg(e);
  if (uprobe_field(e)) return;
  if (!all_specs(is_tracepoint)) {
    if (const char* why = shared_hint(&probes::ContextTraits::args_error))
      error(base.span, why);
    else
      error(base.span, "The args builtin can only be used with tracepoint and uprobe probes (" + probe_kinds_text() + " used here)");
    return;
  }
  if (!opts_.tracepoints) {
    error(base.span, "tracepoint formats are not available, so args->" + e.name + " cannot be typed");
    return;
  }
  note_builtin(BuiltinId::Args);
  info_.uses_args = true;
  // Every tracepoint the block attaches to must have the field, with one type.
  bool found_any = false;
  std::string declaration;
  bool syscall_args = true;  // a syscall's pointer arguments point into the caller's memory
  for (const ProbeSpec& spec : probe_->specs) {
    auto matches = opts_.tracepoints->match(spec.provider, spec.name);
    if (!matches) {
      error(spec.span, diagnostic_message(matches.error(), {spec.raw, spec.canonical()}));
      return;
    }
    if (matches->empty()) {
      error(spec.span, "tracepoint not found: " + spec.canonical());
      return;
    }
    for (const auto& [cat, name] : *matches) {
      auto fields = opts_.tracepoints->fields(cat, name);
      if (!fields) {
        error(spec.span, diagnostic_message(fields.error(), {spec.raw, spec.canonical()}));
        return;
      }
      auto it = std::find_if(fields->begin(), fields->end(), [&](const TracepointField& f) { return f.name == e.name; });
      if (it == fields->end()) {
        std::vector<std::string> names;
        for (const TracepointField& f : *fields) names.push_back(f.name);
        error(e.span, "Struct/union of type 'struct _tracepoint_" + cat + "_" + name +
                          "' does not contain a field named '" + e.name + "'" + did_you_mean(e.name, names));
        return;
      }
      // Where the field lies may differ: code generation makes one program per layout, as
      // bpftrace does. What it is may not: the block's code has one type per expression.
      if (found_any && !(it->type == e.type)) {
        error(e.span, "args->" + e.name + " has type " + type_name(it->type) + " in " + cat + ":" + name + " but " +
                          type_name(e.type) + " in another tracepoint of this block; split them into separate probe blocks");
        return;
      }
      found_any = true;
      e.field_offset = it->offset;
      e.type = it->type;
      declaration = it->declaration;
      syscall_args = syscall_args && cat == "syscalls";
    }
  }
  // A pointer field is a typed pointer, so `*args->p`, `args->p->f` and str(args->p) read
  // through it: into the calling process's memory for the syscalls tracepoints (their
  // arguments), else into the kernel's, as bpftrace 0.17 reads them.
  // An integer array (`__u8 saddr[4]`) is an array, as in bpftrace 0.17: indexed, compared
  // with pton(), read by ntop().
  bool pointer = declaration.find('*') != std::string::npos;
  bool array = declaration.find('[') != std::string::npos && !e.type.is_string();
  if (found_any && (pointer || array) && declaration.find("__data_loc") == std::string::npos) {
    ctypes::TypeNameResult c = ctypes::parse_field_declaration(declaration, c_types());
    ctypes::CTypeRef t = c.type ? ctypes::strip_typedefs(c.type) : nullptr;
    if (t && t->kind == ctypes::CKind::Pointer) e.type = c_value(c.type, syscall_args, e.span);
    if (t && t->kind == ctypes::CKind::Array && !pointer) e.type = c_value(c.type, false, e.span);
  }
}

}  // namespace rawprobe::lang
