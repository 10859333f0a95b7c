// C's layout of a struct or union from its members' types, by the rules gcc follows on
// System V and AAPCS targets (both use the "type of a bit-field matters" rule):
//   - a member starts at the next multiple of its alignment;
//   - a bit-field goes at the next free bit unless it would then cross a boundary of its
//     declared type's alignment unit, in which case it starts at the next such boundary:
//       struct { char a; int b : 4; int c : 30; }
//       bits  0..7 a | 8..11 b | 12..31 free | 32..61 c      (sizeof 8)
//   - `type : 0` moves to the next boundary of its type and names nothing;
//   - unnamed bit-fields do not raise the record's alignment;
//   - the size is rounded up to the record's alignment (the largest member's).
// `packed` drops every alignment to 1 (bit-fields then pack bit after bit).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/ctypes/ctype.h"
#include "engine/ctypes/data_model.h"

namespace rawprobe::ctypes {

// Records whose alignment their members do not tell (packed or over-aligned ones), kept by
// whoever owns the records.
using AlignTable = std::map<CTypeRef, uint32_t>;

// Alignment in bytes of a type on `model`: a record's is its widest member's unless
// `explicit_aligns` says otherwise.
uint32_t align_of(CTypeRef type, const DataModel& model, const AlignTable* explicit_aligns = nullptr);

struct MemberDecl {
  std::string name;
  CTypeRef type = nullptr;
  std::optional<uint32_t> bit_width;  // set for a bit-field, 0 included
  uint32_t align_attr = 0;            // __attribute__((aligned(N))) on the member; 0: none
};

struct RecordAttrs {
  bool packed = false;
  uint32_t align = 0;  // __attribute__((aligned(N))) on the record; 0: none
};

// Fills `record` (kind Struct or Union) with its members at their offsets and its size;
// notes its alignment in `aligns` when its members do not tell it.
void lay_out_record(CType& record, const std::vector<MemberDecl>& members, const RecordAttrs& attrs,
                    const DataModel& model, AlignTable& aligns);

}  // namespace rawprobe::ctypes
