// Questions and removals by key, bpftrace 0.22 on (docs/stdlib.md of v0.26.1). The semantic pass
// (semantic_map_keys.cpp) has moved the key of `delete(@m, k)` and `has_key(@m, k)` into the
// map expression, so both read @m[k] like any element access:
//
//   delete(@m[k])     r0 = map_delete_elem(m, &key); value: r0 == 0 (1 when an element went)
//   delete(@c)        a keyless count(): zero(@c) in user space (gen_maps.cpp); value 1
//   has_key(@m, k)    r0 = map_lookup_elem(m, &key); value: r0 != 0
//   find(@m, k, $v)   r0 = map_lookup_elem(m, &key); when found, $v = *r0 and the value is 1;
//                     else $v is left as it was and the value is 0
#include "engine/codegen/gen.h"
#include "engine/base/map_layout.h"

namespace rawprobe::codegen {

using bpf::Reg;
using lang::Expr;

namespace {
// r0 = (r0 `cond` 0) ? 1 : 0, keeping r0 as the value (r1 is free: the helper call clobbered it).
void r0_test_zero(bpf::Builder& b, bpf::Cond cond) {
  bpf::Label done = b.new_label("test");
  b.mov(bpf::R1, bpf::R0);
  b.mov(bpf::R0, 1);
  b.jump(cond, bpf::R1, 0, done);
  b.mov(bpf::R0, 0);
  b.bind(done);
}
}  // namespace

IntVal ProgramGen::delete_int(const Expr& e) {
  const Expr& map = *e.operands[0];
  map_delete(map, e.span);
  if (script_.layout(map.map_id).single_entry) return IntVal::constant(1);
  r0_test_zero(b_, bpf::Cond::Eq);
  return IntVal::r0();
}

IntVal ProgramGen::has_key_int(const Expr& e) {
  const Expr& map = *e.operands[0];
  Place key = map_key(map);
  lookup(map, key);
  r0_test_zero(b_, bpf::Cond::Ne);
  return IntVal::r0();
}

IntVal ProgramGen::find_int(const Expr& e) {
  const Expr& map = *e.operands[0];
  const Expr& out = *e.operands[1];
  Place key = map_key(map);
  lookup(map, key);
  bpf::Label missing = b_.new_label("not_found");
  b_.jump(bpf::Cond::Eq, bpf::R0, 0, missing);  // r0 is 0 there: the value false
  copy(Place{variable_slot(out), {}}, bpf::R0, 0, std::min(type_size(out.type), type_size(map.type)));
  b_.mov(bpf::R0, 1);
  b_.bind(missing);
  return IntVal::r0();
}

}  // namespace rawprobe::codegen
