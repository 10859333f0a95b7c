#include "engine/lang/source.h"

#include <algorithm>

namespace rawprobe::lang {

LineCol line_col(std::string_view text, uint32_t offset) {
  offset = std::min<uint32_t>(offset, text.size());
  LineCol lc;
  for (uint32_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++lc.line;
      lc.col = 1;
    } else {
      ++lc.col;
    }
  }
  return lc;
}

std::string_view line_of(std::string_view text, uint32_t offset) {
  offset = std::min<uint32_t>(offset, text.size());
  size_t begin = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  size_t end = text.find('\n', offset);
  if (end == std::string_view::npos) end = text.size();
  return text.substr(begin, end - begin);
}

const OriginRun* OriginMap::run_at(uint32_t offset) const {
  if (runs.empty()) return nullptr;
  auto after = std::upper_bound(runs.begin(), runs.end(), offset,
                                [](uint32_t o, const OriginRun& r) { return o < r.out_begin; });
  return after == runs.begin() ? &runs.front() : &*(after - 1);
}

std::string_view SourceFile::slice(Span s) const {
  uint32_t b = std::min<uint32_t>(s.begin, text_.size());
  uint32_t e = std::min<uint32_t>(std::max(s.end, b), text_.size());
  return std::string_view(text_).substr(b, e - b);
}

Location SourceFile::locate(Span s) const {
  std::string_view file = name_, text = text_;
  uint32_t begin = s.begin, end = s.end;
  if (origins_) {
    const OriginRun* run = origins_->run_at(s.begin);
    if (run) {
      const OriginFile& f = origins_->files[run->file];
      file = f.name;
      text = f.text;
      if (run->verbatim) {
        begin = run->origin_begin + (s.begin - std::min(s.begin, run->out_begin));
        // The end maps through its own run; a span that leaves the file keeps its start only.
        const OriginRun* last = origins_->run_at(s.end > s.begin ? s.end - 1 : s.begin);
        if (last->file == run->file && last->verbatim)
          end = last->origin_begin + (std::max(s.end, last->out_begin + 1) - last->out_begin);
        else if (last->file == run->file)
          end = last->origin_end;
        else
          end = begin + 1;
      } else {
        begin = run->origin_begin;
        end = run->origin_end;
      }
    }
  }
  begin = std::min<uint32_t>(begin, text.size());
  Location loc;
  loc.file = file;
  loc.at = line_col(text, begin);
  loc.line = line_of(text, begin);
  uint32_t col0 = loc.at.col - 1;
  uint32_t len = end > begin ? end - begin : 1;
  uint32_t room = loc.line.size() > col0 ? static_cast<uint32_t>(loc.line.size()) - col0 : 1;
  loc.width = std::max<uint32_t>(1, std::min(len, room));
  return loc;
}

}  // namespace rawprobe::lang
