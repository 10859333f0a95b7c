// Plain values (integers, strings, tuples) and map keys as bpftrace 0.17 prints them.
//   text: 42   abc   (1, abc, -2)
//   json: 42   "abc" [1,"abc",-2]
// Map keys: every integer part prints as a signed 64-bit number after widening by its own
// signedness (bpftrace widens integer keys to 64 bits and prints them signed, so a u32
// 0xffffffff key prints 4294967295 and a u64 one prints -1).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/types.h"

namespace rawprobe {

// OpenMetrics and Prometheus (-f openmetrics|prometheus) print text like Text, and the maps as
// a metrics exposition (engine/metrics/exposition_sink.h).
enum class OutputFormat : uint8_t { Text, Json, OpenMetrics, Prometheus };

// Integer, String and Tuple values; other kinds print nothing.
void append_value(std::string& out, OutputFormat format, const Type& type, const uint8_t* p);

// The key parts of one map entry, as they appear between the brackets in text
// ("1, abc") or inside the quotes in JSON ("1,abc", before escaping).
void append_key_text(std::string& out, const std::vector<Type>& parts,
                     const std::vector<uint32_t>& offsets, const uint8_t* key,
                     OutputFormat format);

}  // namespace rawprobe
