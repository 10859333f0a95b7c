// A function's parameters as the DWARF of its own binary describes them (libdw): names, C
// types for the script language (uprobe `args->NAME`), and the spelling bpftrace 0.17 prints
// under `-lv`. Only the binary's own .debug_info is read, as bpftrace 0.17 reads it; a
// separate debug file is not looked for.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/result.h"
#include "engine/ctypes/script_types.h"

namespace rawprobe::dwarf {

struct FunctionParam {
  std::string name;       // empty for an unnamed parameter
  std::string spelling;   // "const char*", "long int", "struct point*": bpftrace 0.17's -lv text
  ctypes::CTypeRef type = nullptr;  // built into the arena given, when one is given
};

// The parameters of `function` (its DW_AT_name or DW_AT_linkage_name) in declaration order.
// With `types`, each parameter's C type is built in its arena (structs with their members),
// else only names and spellings are read. Errors: the file has no DWARF, or its DWARF does
// not describe the function.
Result<std::vector<FunctionParam>> function_params(const std::string& path, std::string_view function,
                                                   ctypes::ScriptTypes* types);

// Every function the file's DWARF describes, by DW_AT_name, with its parameters (spellings
// only), read in one walk: what -lv prints under each uprobe.
Result<std::map<std::string, std::vector<FunctionParam>, std::less<>>> all_function_params(const std::string& path);

// The first words of bpftrace 0.17's error for a binary without DWARF, kept for scripts that
// match on them.
std::string no_debuginfo_message(const std::string& path);

}  // namespace rawprobe::dwarf
