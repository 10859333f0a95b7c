// libFuzzer target: any bytes as a script's C declarations, then every query the language
// makes of the types built (spelling, sizes, alignment, member lookup) and the same bytes as
// a type name; none may crash, loop or exhaust the stack.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/ctypes/decl_parser.h"

namespace {

void exercise(rawprobe::ctypes::ScriptTypes& types, rawprobe::ctypes::CTypeRef t) {
  std::string spelled = rawprobe::ctypes::spell(t);
  (void)rawprobe::ctypes::size_of(t);
  (void)types.align_of(t);
  if (rawprobe::ctypes::is_record(t))
    for (const auto& m : rawprobe::ctypes::strip_typedefs(t)->members)
      (void)rawprobe::ctypes::find_member(t, m.name.empty() ? spelled : m.name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  for (const char* arch : {"x86_64", "arm"}) {
    rawprobe::ctypes::ScriptTypes types(*rawprobe::ctypes::data_model(arch));
    uint32_t pos = 0;
    while (pos < text.size() && rawprobe::ctypes::starts_declaration(text, pos)) {
      uint32_t before = pos;
      if (rawprobe::ctypes::parse_declaration(text, pos, types) || pos <= before) break;
    }
    for (rawprobe::ctypes::CKind k : {rawprobe::ctypes::CKind::Struct, rawprobe::ctypes::CKind::Union,
                                      rawprobe::ctypes::CKind::Enum, rawprobe::ctypes::CKind::Typedef})
      for (const std::string& n : types.own_names(k)) exercise(types, types.find_own(k, n));
    if (auto r = rawprobe::ctypes::parse_type_name(text, types); r.type) exercise(types, r.type);
    if (auto r = rawprobe::ctypes::parse_field_declaration(text, types); r.type) exercise(types, r.type);
  }
  return 0;  // libFuzzer reserves other values
}
