// Recursive-descent parser for bpftrace's language (0.17 syntax). Errors go to Diagnostics;
// the parser resynchronises at the next statement or probe so one run reports several.
// Nesting is capped (kMaxNesting) so no input can exhaust the stack, here or in the passes
// that walk the tree afterwards.
#pragma once
#include "engine/lang/ast.h"
#include "engine/lang/diagnostics.h"
#include "engine/lang/positional.h"
#include "engine/lang/source.h"

namespace rawprobe::lang {

// Deepest nesting of parentheses, unary operators, blocks and operator chains accepted.
constexpr uint32_t kMaxNesting = 200;

// `params` are the positional parameters $1, $2, ... (positional.h), replaced here by literals.
Program parse_program(const SourceFile& src, Diagnostics& diags, const PositionalParams& params = {});

}  // namespace rawprobe::lang
