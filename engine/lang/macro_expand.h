// Expands bpftrace 0.26's macros (MacroDef in ast.h) in place, before the checker runs, with
// the rules of 0.26.1's docs/language.md "Macros":
//   - `name(args)` or, for a macro without parameters, bare `name` calls it;
//   - a "$a" parameter takes a variable and a "@m" parameter a map, which the body then uses
//     (and may change) under the parameter's name; an "x" parameter takes any expression,
//     inserted wherever the body says x (so it is evaluated once per use);
//   - the body reaches no map but those passed in ("hygienic"); its own variables are its
//     own, renamed per expansion so they never meet the caller's;
//   - a macro whose body ends in an expression with no ';' has that value. As a statement
//     of its own any macro expands to its statements; as part of an expression it becomes
//     its value, or, with statements before the value, the block expression
//     `{ statements; value }` (scopes.h moves those out).
#pragma once
#include "engine/lang/ast.h"
#include "engine/lang/diagnostics.h"

namespace rawprobe::lang {

void expand_macros(Program& prog, Diagnostics& diags);

}  // namespace rawprobe::lang
