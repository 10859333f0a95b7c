// assert(cond, msg) (engine/lang/semantic_asserts.cpp made its printf and exit(1)):
//   if cond goto ok; <printf("Assertion failed. Msg: %s", msg)>; <exit(1)>; ok:
// static_assert was settled when the script was checked: it leaves no code.
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

void ProgramGen::assert_call(const lang::Expr& e) {
  bpf::Label ok = b_.new_label("assert_ok");
  branch(*e.operands[0], true, ok);
  expr_statement(*e.operands[2]);
  expr_statement(*e.operands[3]);
  b_.bind(ok);
}

void ProgramGen::no_code(const lang::Expr&) {}

}  // namespace rawprobe::codegen
