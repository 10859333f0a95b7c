// Blocks whose tracepoints lay out an `args` field differently get one program per layout,
// as bpftrace does: `tracepoint:syscalls:sys_enter_open,tracepoint:syscalls:sys_enter_openat
// { args->filename }` reads filename at offset 16 in one and 24 in the other, and a program
// has one offset per read.
#pragma once
#include <string>
#include <vector>

#include "engine/lang/ast.h"
#include "engine/probes/provider.h"

namespace rawprobe::codegen {

// The names of the `args->NAME` fields a block reads, each once.
std::vector<std::string> args_fields_used(const lang::ProbeBlock& block);

// `programs` (sets of indexes into `points`) split so that the points of each set agree on
// the offset of every field in `fields`; sets that agree already are kept whole, in order.
std::vector<std::vector<size_t>> split_by_layout(const std::vector<std::vector<size_t>>& programs,
                                                 const std::vector<probes::AttachPoint>& points,
                                                 const std::vector<std::string>& fields);

// Byte offset of `name` in the point's record; `fallback` (the checker's) when the point
// carries no format.
uint32_t field_offset_at(const probes::AttachPoint& point, const std::string& name, uint32_t fallback);

// Bytes to load for the field `name` of type `type`: the type's size, except for a pointer,
// which the language holds in 8 bytes but a 32-bit kernel's record stores in 4 (the
// format's `size:`); a point without the field (or without a format) loads 8.
uint32_t field_load_size(const probes::AttachPoint& point, const std::string& name, const Type& type);

}  // namespace rawprobe::codegen
