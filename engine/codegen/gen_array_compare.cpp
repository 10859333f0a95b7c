// `a == b` and `a != b` on two arrays (engine/lang/semantic_arrays.cpp types them): both are
// written to the stack (a variable already is) and compared in the widest chunks both
// offsets allow, with no stop at a zero byte, since an array is not text:
//   pton("::1") == $x     16 bytes: two u64 loads and compares per side
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Reg;
using lang::Expr;

void ProgramGen::array_compare_branch(const Expr& a, const Expr& b, bool equal_when, bpf::Label target) {
  bpf::Label differ = b_.new_label("arrne");
  bpf::Label on_differ = equal_when ? differ : target;
  Place pa = materialize(a);
  Place pb = materialize(b);
  uint32_t n = std::min(a.type.size, b.type.size);
  for (uint32_t done = 0; done < n;) {
    auto off_a = static_cast<int16_t>(pa.off + static_cast<int32_t>(done));
    auto off_b = static_cast<int16_t>(pb.off + static_cast<int32_t>(done));
    uint32_t width = 8;
    while (width > 1 && (n - done < width || off_a % static_cast<int16_t>(width) || off_b % static_cast<int16_t>(width)))
      width /= 2;
    b_.load(size_for(width), bpf::R1, bpf::R10, off_a);
    b_.load(size_for(width), bpf::R2, bpf::R10, off_b);
    b_.jump(bpf::Cond::Ne, bpf::R1, bpf::R2, on_differ);
    done += width;
  }
  if (equal_when) {
    b_.jump(target);
    b_.bind(differ);
  }
}

}  // namespace rawprobe::codegen
