// The C declarations a script may hold before its first probe, as bpftrace 0.17 accepts
// them: struct, union and enum definitions (nested ones included), typedefs, pointers,
// arrays, function pointers, bit-fields and __attribute__((packed, aligned(N))). Types go
// into a ScriptTypes with the layout of its data model.
//
// It is a parser of declarations only: no preprocessor (that runs first), no expressions
// beyond the integer constants of array sizes, bit widths and enumerators.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/ctypes/script_types.h"

namespace rawprobe::ctypes {

struct DeclError {
  uint32_t begin = 0;  // byte span in the text, for file:line:col
  uint32_t end = 0;
  std::string message;  // what is wrong and what to write instead
};

// True when the text at `pos` (after whitespace and comments) starts a declaration: the
// word struct, union, enum or typedef.
bool starts_declaration(std::string_view text, uint32_t pos);

// Parses one declaration starting at `pos` and ending with ';', defining its types in
// `types`; on success `pos` is just past the ';'.
std::optional<DeclError> parse_declaration(std::string_view text, uint32_t& pos, ScriptTypes& types);

// A type written without a name, as in a cast or sizeof: "struct foo *", "unsigned int",
// "char[16]". The whole text must be the type.
struct TypeNameResult {
  CTypeRef type = nullptr;
  std::optional<DeclError> error;
};
TypeNameResult parse_type_name(std::string_view text, ScriptTypes& types);

// One declaration with a name, as a tracepoint format spells a field: "const char * filename",
// "unsigned long args[6]". Returns the type; the name must be `name`.
TypeNameResult parse_field_declaration(std::string_view text, ScriptTypes& types);

}  // namespace rawprobe::ctypes
