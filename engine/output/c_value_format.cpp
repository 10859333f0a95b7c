#include "engine/output/c_value_format.h"

#include "engine/ctypes/script_types.h"

#include <cstring>

#include "engine/output/json_escape.h"
#include "engine/output/number_text.h"

namespace rawprobe {

using ctypes::CKind;

namespace {

void append_integer(std::string& out, const uint8_t* p, uint32_t avail, uint32_t size, bool is_signed) {
  uint8_t buf[8] = {};
  if (size > 8) size = 8;
  std::memcpy(buf, p, std::min(avail, size));
  uint64_t v = read_widened(buf, size, is_signed);
  if (is_signed) append_number(out, static_cast<int64_t>(v));
  else append_number(out, v);
}

void append_members(std::string& out, OutputFormat format, ctypes::CTypeRef record, const uint8_t* p, uint32_t size,
                    uint32_t base_bits, bool& first) {
  bool json = format == OutputFormat::Json;
  for (const ctypes::CMember& m : record->members) {
    uint32_t byte = (base_bits + m.bit_offset) / 8;
    if (m.name.empty()) {  // an anonymous struct or union: its members are the record's own
      append_members(out, format, ctypes::strip_typedefs(m.type), p, size, base_bits + m.bit_offset, first);
      continue;
    }
    if (!first) out += ", ";
    first = false;
    if (json) {
      out += '"';
      append_json_escaped(out, m.name);
      out += "\": ";
    } else {
      out += "." + m.name + " = ";
    }
    uint32_t avail = byte < size ? size - byte : 0;
    append_c_value(out, format, m.type, p + std::min(byte, size), avail);
  }
}

}  // namespace

void append_c_value(std::string& out, OutputFormat format, ctypes::CTypeRef type, const uint8_t* p, uint32_t size) {
  bool json = format == OutputFormat::Json;
  ctypes::CTypeRef t = ctypes::strip_typedefs(type);
  if (!t) return;
  switch (t->kind) {
    case CKind::Int:
    case CKind::Enum: append_integer(out, p, size, t->size, t->is_signed); return;
    case CKind::Pointer: append_integer(out, p, size, t->size, false); return;
    case CKind::Struct:
    case CKind::Union: {
      bool first = true;
      out += "{ ";
      append_members(out, format, t, p, size, 0, first);
      out += " }";
      return;
    }
    case CKind::Array: {
      ctypes::CTypeRef elem = ctypes::strip_typedefs(t->target);
      uint32_t esize = ctypes::size_of(elem);
      if (ctypes::is_plain_char(elem)) {
        const char* s = reinterpret_cast<const char*>(p);
        std::string_view text(s, strnlen(s, std::min(size, t->count)));
        if (json) {
          out += '"';
          append_json_escaped(out, text);
          out += '"';
        } else {
          out += text;
        }
        return;
      }
      out += '[';
      for (uint32_t i = 0; i < t->count; ++i) {
        if (i) out += ',';
        uint32_t at = i * esize;
        append_c_value(out, format, elem, p + std::min(at, size), at < size ? size - at : 0);
      }
      out += ']';
      return;
    }
    default: out += "0"; return;  // float and incomplete types: bpftrace has no reading of them
  }
}

}  // namespace rawprobe
