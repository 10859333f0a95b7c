// Block scoping of scratch variables, and block expressions, between macro expansion and the
// checker. bpftrace 0.22 made variables block scoped (0.26.1's docs/language.md, "Variables
// and Maps"; its migration guide, "Added block scoping for scratch variables"):
//   - `let $x` declares $x in the enclosing block; a plain `$x = v` where no $x is visible
//     makes one there too. Either ends with its block.
//   - `let $x` where a $x is already visible (in the same or an enclosing block) is an error:
//     bpftrace allows no shadowing.
//   - Two variables of one name in sibling blocks are two variables; each may hold its own
//     type. The second and later get an internal name ("$x@2"), so the checker and code
//     generation, which key variables by name, see them apart.
// bpftrace 0.17 had one namespace per probe: `if (c) { $x = 1; } print($x);` read the $x of
// the block, where 0.22 on refuses the read. Such a script keeps its 0.17 meaning here: a
// name read after the block that assigned it (without `let`) ends is probe-wide for that
// probe, as 0.17 had it. No valid 0.26 script reads a variable there, so none changes.
//
// Then block expressions (`$a = { let $b = 1; $b }`, 0.26.1's "Block Expressions") become
// plain statements: the block's statements run just before the statement that holds it, and
// the block is replaced by its value. Scoping has already told its variables apart, so moving
// them out changes nothing. Where a value is computed only sometimes (a branch of ?:, the
// right of && or ||, a while condition, a predicate), a block with statements is refused.
#pragma once
#include "engine/lang/ast.h"
#include "engine/lang/diagnostics.h"

namespace rawprobe::lang {

void resolve_scopes(Program& prog, Diagnostics& diags);

}  // namespace rawprobe::lang
