// Point ids (the values of `probe` and `func`, codegen/compiled_script.h) turned into the
// text they print as, wherever a value reaches output: map keys and values, printf arguments
// and print(). The kernel side keeps the 8-byte id; the output side gets a NUL-padded string
// as long as the longest name (plus its NUL) in the id's place, so output's decoders and
// printf's %s only ever see strings, and widths, JSON quoting and key sorting come for free.
//
//   kernel   { u64 id=3 ; u64 count }          types (Probe, Integer)
//   output   { char[27] "uprobe:/tmp/fun:foo"; u64 count }   types (String[27], Integer)
#pragma once
#include <cstdint>
#include <vector>

#include "engine/base/types.h"
#include "engine/codegen/compiled_script.h"

namespace rawprobe::runtime {

class PointText {
 public:
  PointText() = default;  // no points: every id prints as ""
  explicit PointText(const std::vector<codegen::PointName>* names);

  // Whether a point id is in `type` (or in a tuple field inside it).
  static bool has_ids(const Type& type);
  static bool has_ids(const std::vector<Type>& types);
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
};

}  // namespace rawprobe::runtime
