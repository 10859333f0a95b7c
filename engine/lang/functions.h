// The script functions' registry: what the language knows of each (its row in functions.def),
// resolved once by the semantic pass into Expr::function, so no later pass compares names.
//
// A module expands functions.def with its own FUNCTION macro to build its table of hooks:
// the semantic pass its check hooks (semantic_calls.cpp), code generation its generate hooks
// (gen_calls.cpp). See functions.def for the columns and how to add a function.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/types.h"

namespace rawprobe::lang {

enum class FunctionId : uint8_t {
  None,
#define FUNCTION(id, ...) id,
#include "engine/lang/functions.def"
#undef FUNCTION
};

enum class FunctionRole : uint8_t { Action, Value, Aggregation };

// What an argument must be, for the generic check.
enum class ArgKind : uint8_t {
  Any,
  Integer,
  String,
  IntegerLiteral,
  StringLiteral,
  Map,
};

inline constexpr uint32_t kAnyCount = UINT32_MAX;

struct FunctionInfo {
  FunctionId id = FunctionId::None;
  std::string name;
  FunctionRole role = FunctionRole::Value;
  uint32_t min_args = 0, max_args = 0;
  std::vector<ArgKind> args;
  TypeKind result = TypeKind::None;
};

// The row of `name`, or null when no function has that name.
const FunctionInfo* find_function(const std::string& name);
const FunctionInfo& function_info(FunctionId id);
// Every function's name, for "did you mean".
const std::vector<std::string>& function_names();
// Whether values of this kind come only from an aggregation (count(), sum(), ..., lhist()):
// they live per CPU and are read only by printing the map.
bool is_aggregation(TypeKind kind);

}  // namespace rawprobe::lang
