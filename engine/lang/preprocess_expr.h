// #if and #elif: C's integer constant expressions (C11 6.10.1), after macro expansion and
// after `defined` has been replaced. Arithmetic is in intmax_t/uintmax_t (64 bits) with C's
// usual conversions (an unsigned operand makes the operation unsigned), names that are left
// are 0, and division by zero is an error only where the operand is evaluated (not in the
// untaken side of &&, || and ?:), as gcc does.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/base/result.h"
#include "engine/lang/pp_token.h"
#include "engine/lang/preprocess_macros.h"

namespace rawprobe::lang {

struct IfValue {
  uint64_t bits = 0;
  bool is_unsigned = false;
};

// `directive` is where the #if is, for an empty expression. False with `problem` on an error.
bool evaluate_if(const std::vector<PpToken>& tokens, uint32_t directive, IfValue& value, PpProblem& problem);

// An integer constant as C reads it in #if (decimal, 0x, 0b, octal, with u/l/ll suffixes);
// the error's `what` is the message for the directive.
Result<IfValue> parse_if_number(const std::string& text);

}  // namespace rawprobe::lang
