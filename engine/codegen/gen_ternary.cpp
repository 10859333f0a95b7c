// A ternary whose branches are statements: `c ? printf("a") : exit();` is
//   if !(c) goto else; <a as a statement>; goto end; else: <b as a statement>; end:
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

void ProgramGen::ternary_statement(const lang::Expr& e) {
  bpf::Label other = b_.new_label("else"), done = b_.new_label("endternary");
  branch(*e.operands[0], false, other);
  expr_statement(*e.operands[1]);
  b_.jump(done);
  b_.bind(other);
  expr_statement(*e.operands[2]);
  b_.bind(done);
}

}  // namespace rawprobe::codegen
