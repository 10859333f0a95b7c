// Byte layouts of the records codegen writes and output reads, as bpftrace 0.17 lays them out
// (checked against its LLVM IR, `bpftrace -d`):
//   printf event: { u64 id; args... } as a C struct; integer arguments are widened to 8
//     bytes, strings are char[N] (alignment 1): printf("%s %d", "ab", 1) ->
//     { i64, [3 x i8], i64 } = id@0, "ab"@8, 1@16, size 24.
//   map key with several parts: the parts packed back to back (bpftrace's MapKey), integers
//     widened to 8 bytes.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/base/types.h"

namespace rawprobe::lang {

struct Layout {
  std::vector<uint32_t> offsets;  // one per field
  uint32_t size = 0;              // total, including tail padding
};

// C alignment of a value of this type (integers and aggregations by size, strings 1,
// tuples the largest of their fields).
uint32_t type_alignment(const Type& t);
// Fields placed with C alignment after `start` bytes already used (the struct itself is
// aligned to its largest member, at least that of `start_align`).
Layout c_struct_layout(const std::vector<Type>& fields, uint32_t start = 0, uint32_t start_align = 1);
// Fields back to back.
Layout packed_layout(const std::vector<Type>& fields);
// An integer widened to 8 bytes, keeping its sign; other types unchanged.
Type widen_integer(const Type& t);

}  // namespace rawprobe::lang
