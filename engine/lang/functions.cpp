#include "engine/lang/functions.h"

#include <algorithm>

namespace rawprobe::lang {
namespace {

const std::vector<FunctionInfo>& rows() {
  static const std::vector<FunctionInfo> table = {
#define ARGS(...) \
  { __VA_ARGS__ }
#define FUNCTION(id, name, role, min, max, args, result, check, generate) \
  {FunctionId::id, name, FunctionRole::role, min, max, [] {                    \
     using enum ArgKind;                                                       \
     return std::vector<ArgKind> args;                                         \
   }(),                                                                        \
   TypeKind::result},
#include "engine/lang/functions.def"
#undef FUNCTION
#undef ARGS
  };
  return table;
}

}  // namespace

const FunctionInfo* find_function(const std::string& name) {
  for (const FunctionInfo& f : rows())
    if (f.name == name) return &f;
  return nullptr;
}

const FunctionInfo& function_info(FunctionId id) { return rows()[static_cast<size_t>(id) - 1]; }

const std::vector<std::string>& function_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const FunctionInfo& f : rows()) out.push_back(f.name);
    return out;
  }();
  return names;
}

bool is_aggregation(TypeKind kind) {
  return std::any_of(rows().begin(), rows().end(), [&](const FunctionInfo& f) {
    return f.role == FunctionRole::Aggregation && f.result == kind;
  });
}

}  // namespace rawprobe::lang
