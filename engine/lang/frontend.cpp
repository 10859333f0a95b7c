#include "engine/lang/frontend.h"

#include "engine/lang/parser.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "engine/lang/suggest.h"

namespace rawprobe::lang {

namespace {

// A declared map's kind must fit what the script keeps in it: an aggregation (count(), sum(),
// hist(), ...) lives in a per-CPU map, any other value in a shared one; a map without keys is
// one slot, whatever its declaration.
void check_map_declarations(const CheckedProgram& program, Diagnostics& diags) {
  for (const MapDecl& d : program.ast.map_decls) {
    for (const MapInfo& m : program.info.maps) {
      if (m.name != d.name || m.layout.single_entry) continue;
      bool per_cpu = d.kind.rfind("percpu", 0) == 0;
      if (per_cpu != m.layout.per_cpu)
        diags.error(d.span, "map " + d.name + " holds " + (m.layout.per_cpu ? "an aggregation" : "plain values") +
                                ", which needs a " + (m.layout.per_cpu ? "per-CPU" : "shared") + " map: declare it with " +
                                (m.layout.per_cpu ? "percpuhash or percpulruhash" : "hash or lruhash"));
    }
  }
}

}  // namespace

FrontEndResult run_front_end(const SourceFile& src, const SemanticOptions& options) {
  FrontEndResult r;
  Diagnostics diags;
  r.program.ast = parse_program(src, diags, options.params);
  for (const ConfigEntry& c : r.program.ast.config) {
    const SettingRow* row = find_setting(c.name);
    if (!row) {
      std::vector<std::string> names;
      for (const SettingRow& known : setting_rows()) names.push_back(known.name);
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      diags.error(c.name_span, "unknown config variable '" + c.name + "'" + did_you_mean(c.name, names) +
                                           " (the variables are " + list + ")");
    } else if (Status s = apply_setting(r.settings, *row, c.value); !s) {
      diags.error(c.value_span, s.error().what);
    }
  }
  // A bad environment variable has no place in the script to point at: it is reported alone.
  std::optional<Diagnostic> env_error;
  if (Status s = apply_environment(r.settings, options.getenv ? options.getenv : [](const char* n) -> const char* {
        return std::getenv(n);
      });
      !s) {
    env_error.emplace();
    env_error->message = s.error().what;
  }
  SemanticOptions checked_options = options;
  if (r.settings.was_given("max_strlen")) checked_options.strlen = uint32_t(std::min<uint64_t>(r.settings.max_strlen, UINT32_MAX));
  checked_options.stack_mode = r.settings.stack_mode;
  // Checking a tree with holes would mostly report echoes of the syntax errors.
  if (!diags.has_errors() && !env_error) r.program.info = analyse(r.program.ast, checked_options, diags);
  if (!diags.has_errors()) check_map_declarations(r.program, diags);
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
  r.ok = !diags.has_errors() && !env_error;
  if (env_error) r.diagnostics.push_back(std::move(*env_error));
  for (Diagnostic& d : diags.resolve(src)) r.diagnostics.push_back(std::move(d));
  return r;
}

}  // namespace rawprobe::lang
