#include "engine/base/type_names.h"

namespace rawprobe {

std::string type_name(const Type& t) {
  switch (t.kind) {
    case TypeKind::None: return "none";
    case TypeKind::Integer:
      if (t.is_bool) return "bool";
      return std::string(t.is_signed ? "" : "unsigned ") + "int" + std::to_string(t.size * 8);
    case TypeKind::String: return "string[" + std::to_string(t.size) + "]";
    case TypeKind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < t.fields.size(); ++i)
        s += (i ? "," : "") + (i < t.field_names.size() ? t.field_names[i] + "=" : "") + type_name(t.fields[i]);
      return s + ")";
    }
    case TypeKind::Count: return "count";
    case TypeKind::Sum: return "sum";
    case TypeKind::Min: return "min";
    case TypeKind::Max: return "max";
    case TypeKind::Avg: return "avg";
    case TypeKind::Stats: return "stats";
    case TypeKind::Hist: return "hist";
    case TypeKind::LHist: return "lhist";
    case TypeKind::UStack: return "ustack";
    case TypeKind::KStack: return "kstack";
    case TypeKind::USym: return "usym";
    case TypeKind::KSym: return "ksym";
    case TypeKind::Buffer: return "buffer[" + std::to_string(t.size) + "]";
    case TypeKind::Timestamp: return "timestamp";
    case TypeKind::Probe: return "probe";
    case TypeKind::Func: return "func";
    case TypeKind::Username: return "username";
    case TypeKind::Strerror: return "strerror";
    case TypeKind::Inet: return "inet";
    case TypeKind::MacAddr: return "mac_address";
    case TypeKind::CgroupPath: return "cgroup_path";
    case TypeKind::SyscallName: return "syscall_name";
    case TypeKind::SignalName: return "signal_name";
    case TypeKind::BufferHex: return "buffer[" + std::to_string(t.size) + "]";
    case TypeKind::Pointer:
    case TypeKind::Record:
    case TypeKind::Array: return t.c_name;
    case TypeKind::TSeries: return "tseries";
  }
  return "?";
}

std::string argument_type_name(const Type& t) {
  if (t.is_integer()) return "integer";
  if (t.is_string()) return "string";
  if (t.kind == TypeKind::Tuple) return "tuple";  // bpftrace: "(tuple supplied)"
  if (t.kind == TypeKind::Buffer || t.kind == TypeKind::BufferHex) return "buffer";
  if (t.kind == TypeKind::Array) return "array";    // bpftrace: "(array supplied)"
  if (t.kind == TypeKind::Record) return "record";  // bpftrace: "(record supplied)"
  return type_name(t);
}

}  // namespace rawprobe
