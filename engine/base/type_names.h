// Types spelt as bpftrace 0.17 spells them in its messages: "int64", "unsigned int8",
// "string[16]", "count", ... so our errors read like the ones bpftrace users know. Shared by
// the semantic pass (engine/lang) and output's printf checks (engine/output).
#pragma once
#include <string>

#include "engine/base/types.h"

namespace rawprobe {

std::string type_name(const Type& type);
// The shorter name bpftrace's argument checks use ("printf: %d specifier expects a value of
// type integer (string supplied)", "time() expects a string literal (integer provided)"):
// the plain kinds by their enum, "integer", "string" and "tuple"; the rest as type_name().
std::string argument_type_name(const Type& type);

}  // namespace rawprobe
