#include "engine/output/json_escape.h"

#include <cstdint>

#include "engine/output/number_text.h"

namespace rawprobe {

void append_json_escaped(std::string& out, std::string_view text) {
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<signed char>(c) > 0x1f) {
          out += c;
        } else if (static_cast<signed char>(c) >= 0) {
          out += "\\u00";
          out += "0123456789abcdef"[(c >> 4) & 0xf];
          out += "0123456789abcdef"[c & 0xf];
        } else {
          out += "\\u";
          append_number(out, uint32_t(int32_t(static_cast<signed char>(c))), 16);
        }
    }
  }
}

}  // namespace rawprobe
