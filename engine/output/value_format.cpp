#include "engine/output/value_format.h"

#include <cstring>
#include <string_view>

#include "engine/output/c_value_format.h"
#include "engine/output/json_escape.h"
#include "engine/base/layout.h"
#include "engine/output/number_text.h"

namespace rawprobe {

namespace {

std::string_view string_at(const Type& type, const uint8_t* p) {
  const char* s = reinterpret_cast<const char*>(p);
  return {s, strnlen(s, type.size)};
}

}  // namespace

// A record (bpftrace 0.26's named tuple) as 0.26.1 prints one (tests/runtime/record):
// `{ .a = 0, .c = str, .d = (5, 6) }`; in JSON an object, {"a":0,"c":"str","d":[5,6]}.
static void append_record(std::string& out, OutputFormat format, const Type& type, const uint8_t* p) {
  StructLayout layout = layout_of(type.fields);
  bool json = format == OutputFormat::Json;
  out += json ? "{" : "{ ";
  for (size_t i = 0; i < type.fields.size(); i++) {
    if (i) out += json ? "," : ", ";
    if (json) {
      out += '"';
      append_json_escaped(out, type.field_names[i]);
      out += "\":";
    } else {
      out += "." + type.field_names[i] + " = ";
    }
    append_value(out, format, type.fields[i], p + layout.offsets[i]);
  }
  out += json ? "}" : " }";
}

void append_value(std::string& out, OutputFormat format, const Type& type, const uint8_t* p) {
  switch (type.kind) {
    case TypeKind::Integer: {
      uint64_t v = read_widened(p, type.size, type.is_signed);
      if (type.is_bool) {
        out += v ? "true" : "false";
        return;
      }
      if (type.is_signed)
        append_number(out, int64_t(v));
      else
        append_number(out, v);
      return;
    }
    case TypeKind::String:
      if (format == OutputFormat::Json) {
        out += '"';
        append_json_escaped(out, string_at(type, p));
        out += '"';
      } else {
        out += string_at(type, p);
      }
      return;
    case TypeKind::Tuple: {
      StructLayout layout = layout_of(type.fields);
      bool json = format == OutputFormat::Json;
      if (!type.field_names.empty()) return append_record(out, format, type, p);
      out += json ? '[' : '(';
      for (size_t i = 0; i < type.fields.size(); i++) {
        if (i) out += json ? "," : ", ";
        append_value(out, format, type.fields[i], p + layout.offsets[i]);
      }
      out += json ? ']' : ')';
      return;
    }
    case TypeKind::Pointer: append_number(out, read_widened(p, 8, false)); return;
    case TypeKind::Record:
    case TypeKind::Array: append_c_value(out, format, type.ctype, p, type.size); return;
    default:
      return;
  }
}

void append_key_text(std::string& out, const std::vector<Type>& parts,
                     const std::vector<uint32_t>& offsets, const uint8_t* key,
                     OutputFormat format) {
  for (size_t i = 0; i < parts.size(); i++) {
    if (i) out += format == OutputFormat::Json ? "," : ", ";
    const Type& part = parts[i];
    const uint8_t* p = key + offsets[i];
    if (part.is_integer() && !part.is_bool) {
      append_number(out, int64_t(read_widened(p, part.size, part.is_signed)));
    } else if (part.is_pointer()) {  // bpftrace prints pointer keys in hex: @m[0x7ffd4a2c]
      out += "0x";
      append_number(out, read_widened(p, 8, false), 16);
    } else {
      append_value(out, OutputFormat::Text, part, p);
    }
  }
}

}  // namespace rawprobe
