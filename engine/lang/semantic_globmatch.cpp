// globmatch(str, pattern): a bool, whether the whole of str matches the glob pattern (bpftrace
// 0.26.1's docs/stdlib.md). The pattern is compiled here, when the script is checked, into
// tokens that codegen turns into straight-line code (gen_globmatch.cpp), so it must be a
// string literal: a pattern known only when the program runs would need a matcher in BPF that
// walks the pattern, with bpf_loop (Linux 5.17) for its data-dependent backtracking, which
// rawprobe does not generate.
#include "engine/base/type_names.h"
#include "engine/lang/glob_pattern.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

// Each token is a bit of the matcher's 64-bit state word, and so is the end of the pattern.
constexpr size_t kMaxGlobTokens = 63;

void Checker::call_globmatch(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  for (ExprPtr& a : e.operands)
    if (a->type.kind == TypeKind::None) return;
  Expr& str = *e.operands[0];
  Expr& pat = *e.operands[1];
  if (!str.type.is_string())
    return error(str.span, "globmatch() matches a string (" + argument_type_name(str.type) + " given)" +
                               (str.type.is_pointer() ? ": read it first, globmatch(str(p), \"...\")" : ""));
  if (!pat.is_literal_string())
    return error(pat.span, "globmatch()'s pattern must be a string literal (" + argument_type_name(pat.type) +
                               " given): rawprobe compiles the pattern into the program when the script is "
                               "checked, and has no matcher for a pattern known only when it runs");
  GlobPattern g = parse_glob(pat.str);
  if (!g.error.empty()) return error(pat.span, "globmatch(): " + g.error);
  if (g.tokens.size() > kMaxGlobTokens)
    return error(pat.span, "globmatch()'s pattern has " + std::to_string(g.tokens.size()) +
                               " parts (characters, sets and runs of *), more than the " +
                               std::to_string(kMaxGlobTokens) + " it can match at once: split it in two calls");
  e.type = Type::boolean();
}

}  // namespace rawprobe::lang
