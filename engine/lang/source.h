// A script's text and name, and byte spans into it. Positions are computed from byte offsets
// only when a diagnostic is rendered, so the lexer carries nothing but offsets.
//
// After preprocessing (preprocess.h) the text the lexer reads is not the text the user wrote:
// directives are gone, included files and macro expansions are spliced in. Such a SourceFile
// carries an OriginMap, and every position it reports is the original one (file, line, column
// and line text), so errors point at what the user can open in an editor.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

// Where preprocessed text came from: the files read (the script first) and, for each run of
// output bytes, the bytes of a file it copies. A macro expansion is one run that maps as a
// whole to the macro's use (its `origin_end` > `origin_begin` with `verbatim` false).
struct OriginFile {
  std::string name;  // as shown in errors: the script's name, or the path an include found
  std::string text;
};

struct OriginRun {
  uint32_t out_begin = 0;     // first byte of the run in the preprocessed text
  uint32_t file = 0;          // index into OriginMap::files
  uint32_t origin_begin = 0;  // byte in that file where the run starts
  uint32_t origin_end = 0;    // verbatim: unused; expansion: end of the macro's use
  bool verbatim = true;       // byte k of the run is byte origin_begin + k of the file
};

struct OriginMap {
  std::vector<OriginFile> files;
  std::vector<OriginRun> runs;  // sorted by out_begin

  // The run holding preprocessed byte `offset` (the last one when past the end).
  const OriginRun* run_at(uint32_t offset) const;
};

// A span resolved to the file a person reads.
struct Location {
  std::string_view file;
  LineCol at;
  std::string_view line;  // the whole line holding the span's start, without its newline
  uint32_t width = 1;     // bytes of that line the span covers (at least 1)
};

class SourceFile {
 public:
  SourceFile(std::string name, std::string text) : name_(std::move(name)), text_(std::move(text)) {}
  SourceFile(std::string name, std::string text, std::shared_ptr<const OriginMap> origins)
      : name_(std::move(name)), text_(std::move(text)), origins_(std::move(origins)) {}
  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  std::string_view slice(Span s) const;
  // Where `s` starts in the original text, and how much of that line it covers.
  Location locate(Span s) const;
  // The original line and column of `offset`.
  LineCol position(uint32_t offset) const { return locate({offset, offset}).at; }
  // The whole original line holding `offset`, without its newline.
  std::string_view line_at(uint32_t offset) const { return locate({offset, offset}).line; }
  // The file that holds `offset` (the script, or a file it includes).
  std::string_view name_at(uint32_t offset) const { return locate({offset, offset}).file; }

 private:
  std::string name_;
  std::string text_;
  std::shared_ptr<const OriginMap> origins_;
};

// Line and column of `offset` in `text`, and the line itself.
LineCol line_col(std::string_view text, uint32_t offset);
std::string_view line_of(std::string_view text, uint32_t offset);

}  // namespace rawprobe::lang
