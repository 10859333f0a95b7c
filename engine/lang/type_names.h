// Types spelt as bpftrace 0.17 spells them in its messages: "int64", "unsigned int8",
// "string[16]", "count", ... so our errors read like the ones bpftrace users know.
#pragma once
#include <string>

#include "engine/base/types.h"

namespace rawprobe::lang {

std::string type_name(const Type& t);
// A plain integer. Aggregations (count, sum, ...) are not: bpftrace 0.17 rejects
// `@c == 3` for a count map with "Type mismatch for '=='", and so do we.
bool is_integral(const Type& t);

}  // namespace rawprobe::lang
