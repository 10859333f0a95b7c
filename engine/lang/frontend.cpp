#include "engine/lang/frontend.h"

#include "engine/lang/parser.h"

namespace rawprobe::lang {

FrontEndResult run_front_end(const SourceFile& src, const SemanticOptions& options) {
  FrontEndResult r;
  r.program.ast = parse_program(src, r.diagnostics, options.params);
  // Checking a tree with holes would mostly report echoes of the syntax errors.
  if (!r.diagnostics.has_errors()) r.program.info = analyse(r.program.ast, options, r.diagnostics);
  r.ok = !r.diagnostics.has_errors();
  r.errors = r.diagnostics.render(src);
  return r;
}

}  // namespace rawprobe::lang
