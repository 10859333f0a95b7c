// Struct, union and array values read from traced memory, printed as bpftrace 0.17 prints
// them (print(*p), struct map values):
//   text: { .id = 1, .name = first, .where = { .x = 10, .y = -20 }, .path = [{ .x = 1 },{ .x = 3 }] }
//   json: { "id": 1, "name": "first", "where": { "x": 10, "y": -20 }, "path": [{ "x": 1 },{ "x": 3 }] }
// char arrays print as text (signed and unsigned char arrays as numbers), pointers as decimal numbers, and a bit-field as bpftrace 0.17
// shows it: the whole integer of its declared type at the byte where the field starts,
// neither shifted nor masked (flag:1, level:3 in one unsigned int both print that int).
#pragma once
#include <cstdint>
#include <string>

#include "engine/ctypes/ctype.h"
#include "engine/output/value_format.h"

namespace rawprobe {

// `size` bytes at `p` hold the value; members past it print as 0.
void append_c_value(std::string& out, OutputFormat format, ctypes::CTypeRef type, const uint8_t* p, uint32_t size);

}  // namespace rawprobe
