// Point ids (the values of `probe` and `func`, codegen/compiled_script.h) turned into the
// text they print as, wherever a value reaches output: map keys and values, printf arguments
// and print(). The kernel side keeps the 8-byte id; the output side gets a NUL-padded string
// as long as the longest name (plus its NUL) in the id's place, so output's decoders and
// printf's %s only ever see strings, and widths, JSON quoting and key sorting come for free.
//
//   kernel   { u64 id=3 ; u64 count }          types (Probe, Integer)
//   output   { char[27] "uprobe:/tmp/fun:foo"; u64 count }   types (String[27], Integer)
//
// Stacks and symbols (stack_text.h) become text the same way once set_symbols() is given a
// symbolizer; their strings are as long as the longest text fit() has seen since
// reset_width(), so a caller measures a batch of values, then writes them.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/base/types.h"
#include "engine/codegen/compiled_script.h"
#include "engine/runtime/stack_text.h"

namespace rawprobe::runtime {

class PointText {
 public:
  PointText() = default;  // no points: every id prints as ""
  explicit PointText(const std::vector<codegen::PointName>* names);

  // Whether a point id, stack or symbol is in `type` (or in a tuple field inside it).
  static bool has_ids(const Type& type);
  static bool has_ids(const std::vector<Type>& types);
  // Whether a point id is: two points can print alike, two stacks print apart in bpftrace.
  static bool has_points(const std::vector<Type>& types);

  void set_symbols(StackText* symbols) { symbols_ = symbols; }
  void set_style(StackStyle style) { style_ = style; }
  void reset_width();
  // Widens the symbol strings to hold the texts of the value laid out by `types` at `from`.
  void fit(const std::vector<Type>& types, const uint8_t* from);
  void fit(const Type& type, const uint8_t* from);
  // `type` with every point id replaced by the string it prints as.
  Type text_type(const Type& type) const;
  std::vector<Type> text_types(const std::vector<Type>& types) const;
  // Copies a value laid out by `types` (layout_of) at `from` into the layout of
  // text_types(types) at `to` (which holds layout_of(text_types(types)).size bytes).
  void write_text(const std::vector<Type>& types, const uint8_t* from, uint8_t* to) const;
  void write_text(const Type& type, const uint8_t* from, uint8_t* to) const;

 private:
  const std::vector<codegen::PointName>* names_ = nullptr;
  uint32_t probe_bytes_ = 1;  // longest probe name + NUL
  uint32_t func_bytes_ = 1;   // longest function name + NUL
  StackText* symbols_ = nullptr;
  StackStyle style_;
  uint32_t symbol_bytes_ = 1;  // longest stack or symbol text fitted + NUL
};

}  // namespace rawprobe::runtime
