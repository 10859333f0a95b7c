#include "engine/output/folded_print.h"

#include "engine/output/value_format.h"

namespace rawprobe {

void append_folded_key(std::string& out, const std::vector<Type>& parts, const std::vector<uint32_t>& offsets,
                       const std::vector<bool>& stack_parts, const uint8_t* key) {
  std::string stacks, roots;
  for (size_t i = 0; i < parts.size(); i++) {
    std::string text;
    append_key_text(text, {parts[i]}, {0}, key + offsets[i], OutputFormat::Text);
    if (text.empty()) continue;  // a stack that was not taken
    // flame graph tools read a line up to its last space as the frames: a newline is all
    // that cannot be inside one.
    for (char& c : text)
      if (c == '\n') c = ' ';
    std::string& into = i < stack_parts.size() && stack_parts[i] ? stacks : roots;
    if (!into.empty()) into += ';';
    into += text;
  }
  if (!roots.empty() && !stacks.empty()) roots += ';';
  out += roots + stacks;
  if (roots.empty() && stacks.empty()) out += "[no stack]";
}

}  // namespace rawprobe
