// `--dump=ast`: the tree as indented text, one node per line, with types once checked:
//   Program
//    probe uprobe:/tmp/read_rand:thread_fun
//     assign =
//      map @start :: int64
//       builtin tid :: unsigned int64
//      builtin nsecs :: unsigned int64
#pragma once
#include <string>

#include "engine/lang/ast.h"

namespace rawprobe::lang {

std::string dump_ast(const Program& prog);
std::string dump_expr(const Expr& e);

}  // namespace rawprobe::lang
