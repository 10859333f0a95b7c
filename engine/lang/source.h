// A script's text and name, and byte spans into it. Positions are computed from byte offsets
// only when a diagnostic is rendered, so the lexer carries nothing but offsets.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace rawprobe::lang {

// Half-open byte range [begin, end) in the source text.
struct Span {
  uint32_t begin = 0;
  uint32_t end = 0;
  static Span join(Span a, Span b) { return {a.begin < b.begin ? a.begin : b.begin, a.end > b.end ? a.end : b.end}; }
};

struct LineCol {
  uint32_t line = 1;  // 1-based
  uint32_t col = 1;   // 1-based, in bytes
};

class SourceFile {
 public:
  SourceFile(std::string name, std::string text) : name_(std::move(name)), text_(std::move(text)) {}
  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  std::string_view slice(Span s) const;
  LineCol position(uint32_t offset) const;
  // The whole line holding `offset`, without its newline.
  std::string_view line_at(uint32_t offset) const;

 private:
  std::string name_;
  std::string text_;
};

}  // namespace rawprobe::lang
