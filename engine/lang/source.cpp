#include "engine/lang/source.h"

#include <algorithm>

namespace rawprobe::lang {

std::string_view SourceFile::slice(Span s) const {
  uint32_t b = std::min<uint32_t>(s.begin, text_.size());
  uint32_t e = std::min<uint32_t>(std::max(s.end, b), text_.size());
  return std::string_view(text_).substr(b, e - b);
}

LineCol SourceFile::position(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, text_.size());
  LineCol lc;
  for (uint32_t i = 0; i < offset; ++i) {
    if (text_[i] == '\n') {
      ++lc.line;
      lc.col = 1;
    } else {
      ++lc.col;
    }
  }
  return lc;
}

std::string_view SourceFile::line_at(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, text_.size());
  size_t begin = text_.rfind('\n', offset == 0 ? std::string::npos : offset - 1);
  begin = (begin == std::string::npos || offset == 0) ? 0 : begin + 1;
  if (offset == 0) begin = 0;
  size_t end = text_.find('\n', offset);
  if (end == std::string::npos) end = text_.size();
  return std::string_view(text_).substr(begin, end - begin);
}

}  // namespace rawprobe::lang
