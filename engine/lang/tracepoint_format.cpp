#include "engine/lang/tracepoint_format.h"

#include <charconv>

namespace rawprobe::lang {
namespace {

// "key:value;" starting at `pos` in `line`; returns the value.
bool read_attr(std::string_view line, std::string_view key, std::string_view& value) {
  size_t at = line.find(key);
  if (at == std::string_view::npos) return false;
  size_t begin = at + key.size();
  size_t end = line.find(';', begin);
  if (end == std::string_view::npos) return false;
  value = line.substr(begin, end - begin);
  return true;
}

bool to_u32(std::string_view s, uint32_t& out) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// The declared name: the last identifier, before any array brackets.
std::string field_name(std::string_view decl) {
  size_t bracket = decl.find('[');
  std::string_view head = decl.substr(0, bracket);
  while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
  size_t start = head.find_last_of(" *");
  return std::string(start == std::string_view::npos ? head : head.substr(start + 1));
}

}  // namespace

Result<std::vector<TracepointField>> parse_tracepoint_format(std::string_view text) {
  std::vector<TracepointField> fields;
  size_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    std::string_view decl, offset, size, sign;
    if (!read_attr(line, "field:", decl)) continue;
    if (!read_attr(line, "offset:", offset) || !read_attr(line, "size:", size))
      return make_error("parse tracepoint format", "line " + std::to_string(line_no),
                        "a field line needs offset: and size:");
    TracepointField f;
    f.declaration = std::string(decl);
    f.name = field_name(decl);
    if (f.name.empty() || !to_u32(offset, f.offset) || !to_u32(size, f.size) || f.size == 0)
      return make_error("parse tracepoint format", "line " + std::to_string(line_no),
                        "expected 'field:TYPE NAME; offset:N; size:N;'");
    f.is_signed = read_attr(line, "signed:", sign) && sign == "1";
    f.data_loc = decl.find("__data_loc") != std::string_view::npos;
    bool char_array = decl.find("char") != std::string_view::npos && decl.find('[') != std::string_view::npos;
    if (f.data_loc || char_array) {
      f.type = Type::string(f.data_loc ? 64 : f.size);
    } else if (f.size == 1 || f.size == 2 || f.size == 4 || f.size == 8) {
      f.type = Type::integer(f.size, f.is_signed);
    } else {
      f.type = Type{TypeKind::Buffer, f.size, false, {}};
    }
    fields.push_back(std::move(f));
  }
  if (fields.empty()) return make_error("parse tracepoint format", "", "no 'field:' lines found");
  return fields;
}

}  // namespace rawprobe::lang
