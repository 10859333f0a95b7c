#include "engine/lang/frontend.h"

#include "engine/lang/parser.h"

namespace rawprobe::lang {

FrontEndResult run_front_end(const SourceFile& src, const SemanticOptions& options) {
  FrontEndResult r;
  r.program.ast = parse_program(src, r.diagnostics, options.params);
  // Checking a tree with holes would mostly report echoes of the syntax errors.
  if (!r.diagnostics.has_errors()) r.program.info = analyse(r.program.ast, options, r.diagnostics);
  // errorf() and warnf() print their text after where the call is, as bpftrace 0.26.1 does
  // ("FILE:LINE:COL-END: ERROR: text"): that place goes into the format, once, here where the
  // source is known.
  for (PrintfInfo& p : r.program.info.printfs) {
    if (p.function != FunctionId::Errorf && p.function != FunctionId::Warnf) continue;
    Location where = src.locate(p.span);
    std::string place = std::string(where.file) + ":" + std::to_string(where.at.line) + ":" +
                        std::to_string(where.at.col) + "-" + std::to_string(where.at.col + where.width) + ": " +
                        (p.function == FunctionId::Errorf ? "ERROR: " : "WARNING: ");
    std::string escaped;
    for (char c : place) escaped += c == '%' ? std::string("%%") : std::string(1, c);
    p.format = escaped + p.format;
  }
  r.ok = !r.diagnostics.has_errors();
  r.errors = r.diagnostics.render(src);
  return r;
}

}  // namespace rawprobe::lang
