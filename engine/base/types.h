// The value types of the script language, shared by the semantic pass (engine/lang), code
// generation (engine/codegen) and output (engine/output), which decodes map keys, map values
// and printf arguments from raw bytes by these descriptions. Modelled on bpftrace's SizedType
// so that output can match bpftrace's byte for byte.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rawprobe {

namespace ctypes {
struct CType;  // engine/ctypes/ctype.h: the C type a pointer, record or array value has
}
// How a kstack/ustack prints (bpftrace's modes; raw is ours: bare hex addresses).
enum class StackMode : uint8_t { Bpftrace, Perf, Raw };

enum class TypeKind : uint8_t {
  None,      // no value (statements, void calls)
  Integer,   // size 1, 2, 4 or 8 bytes; signed or not
  String,    // NUL-padded char array of `size` bytes (comm: 16)
  Tuple,     // fields laid out with C alignment; map keys with several parts are tuples
  // Map aggregations: what the map value holds and how it prints.
  Count, Sum, Min, Max, Avg, Stats, Hist, LHist,
  // Addresses that print symbolized.
  UStack, KStack, USym, KSym,
  Buffer,    // raw bytes printed escaped (buf())
  Timestamp, // strftime-formatted time
  Probe,     // a point id (8 bytes) that prints as the probe's name (the `probe` builtin)
  Func,      // the same point id, printed as the point's function name (the `func` builtin)
  // Values the kernel side keeps as numbers or bytes and output prints as text, made in user
  // space (engine/runtime/value_text.h says each one's bytes and text).
  Username, Strerror, Inet, MacAddr, CgroupPath, SyscallName, SignalName,
  BufferHex,  // a Buffer printed by printf's %rx: every byte as \xNN
  // C values read from the traced program's or the kernel's memory (engine/ctypes):
  Pointer,   // an address (size 8 in a register); ctype: the C pointer type
  Record,    // a struct or union in memory; ctype: the struct or union; size: its size
  Array,     // a C array (other than char[N], which is a String); ctype: the array
  TSeries,   // tseries(): `size` / 24 intervals of { u64 epoch; s64 value; u64 count; }
};

// How tseries() combines the values of one interval (bpftrace 0.26.1's `agg` argument).
enum class TSeriesAgg : uint8_t { Last, Avg, Max, Min, Sum };

struct Type {
  TypeKind kind = TypeKind::None;
  uint32_t size = 0;        // bytes the value occupies
  bool is_signed = false;   // Integer, Sum, Min, Max, Avg: signedness of the values
  std::vector<Type> fields; // Tuple: its fields in order
  // Pointer, Record, Array: the C type, its spelling for messages ("struct task_struct *"),
  // and whether the memory it refers to is the traced process's (read with
  // bpf_probe_read_user) or the kernel's.
  const ctypes::CType* ctype = nullptr;
  std::string c_name = {};
  bool user_memory = false;
  // UStack, KStack: the mode and the most frames kept (each pair is its own stack map).
  StackMode stack_mode = StackMode::Bpftrace;
  uint16_t stack_limit = 0;
  // Integer: a bool (bpftrace 0.22 on), held as an 8-byte 0 or 1 like any integer in the
  // program, printed as true or false.
  bool is_bool = false;
  // Tuple: a record's field names (bpftrace 0.26's `(a=1, b="x")`), one per field; empty
  // for a plain tuple. A record and a tuple of the same fields are different types.
  std::vector<std::string> field_names = {};
  // TSeries: the interval's length and how its values combine (is_signed: the values').
  int64_t interval_ns = 0;
  TSeriesAgg tseries_agg = TSeriesAgg::Last;

  static Type none() { return {}; }
  static Type integer(uint32_t bytes, bool is_signed) {
    return Type{TypeKind::Integer, bytes, is_signed, {}};
  }
  static Type string(uint32_t bytes) { return Type{TypeKind::String, bytes, false, {}}; }
  static Type boolean() {
    Type t = integer(8, false);
    t.is_bool = true;
    return t;
  }

  // A plain integer. Aggregations (count, sum, ...) are not: bpftrace 0.17 rejects
  // `@c == 3` for a count map with "Type mismatch for '=='", and so do we.
  bool is_integer() const { return kind == TypeKind::Integer; }
  bool is_string() const { return kind == TypeKind::String; }
  bool is_pointer() const { return kind == TypeKind::Pointer; }
  // Held in a register as 64 bits: integers and pointers.
  bool is_scalar() const { return kind == TypeKind::Integer || kind == TypeKind::Pointer; }
  // Lives in traced memory, read when stored or printed: structs, unions and arrays.
  bool in_memory() const { return kind == TypeKind::Record || kind == TypeKind::Array; }
  bool operator==(const Type&) const = default;
};

}  // namespace rawprobe
