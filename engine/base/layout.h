// Byte layouts shared by the semantic pass (engine/lang: ProgramInfo offsets), code
// generation (which writes the bytes) and output (which reads them). One function decides
// where every field goes, so the three cannot drift apart.
//
// Rule: C struct layout. Each field sits at the next offset that is a multiple of its
// alignment; the whole struct is padded to a multiple of its largest alignment.
//   Integer of N bytes : size N, align N
//   String of N bytes  : size N, align 1 (NUL-padded; may be unterminated when full)
//   Tuple              : its fields laid out by this same rule
//   aggregations       : see engine/base/map_layout.h (align 8)
//
// A printf event is the struct { u64 event_id; arg0; arg1; ... } laid out by this rule, with
// integer arguments widened to 8 bytes (as bpftrace 0.17's %printf_t in its LLVM IR); the
// formatter is handed the bytes from offset 8 on (the arguments struct; the first argument's
// alignment is at most 8, so it is the same as laying the args out alone).
// Map keys with several parts are the struct of their parts, integers widened to 8 bytes.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/base/types.h"

namespace rawprobe {

struct StructLayout {
  std::vector<uint32_t> offsets;  // one per field
  uint32_t size = 0;              // padded to align
  uint32_t align = 1;
};

uint32_t type_align(const Type& type);
// The size a value of this type occupies (Tuple: its padded struct size).
uint32_t type_size(const Type& type);
StructLayout layout_of(const std::vector<Type>& fields);
// A Tuple type with its size computed from its fields.
Type tuple_of(std::vector<Type> fields);

// An integer widened to 8 bytes, keeping its sign (how printf arguments, map keys and map
// values are stored); other types unchanged.
Type widen_integer(const Type& type);

// Printf and other async events start with this u64 id (which format, which helper).
inline constexpr uint32_t kEventHeaderSize = 8;

}  // namespace rawprobe
