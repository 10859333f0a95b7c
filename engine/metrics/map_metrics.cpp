#include "engine/metrics/map_metrics.h"

#include <algorithm>

#include "engine/base/type_names.h"

namespace rawprobe::metrics {
namespace {

bool name_char(char c, bool first) {
  bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
  return alpha || (!first && c >= '0' && c <= '9');
}

bool is_label_name(std::string_view s) {
  if (s.empty() || s.substr(0, 2) == "__") return false;
  for (size_t i = 0; i < s.size(); i++)
    if (!name_char(s[i], i == 0) || s[i] == ':') return false;
  return true;
}

// The first place each map is written (an assignment or ++/--), else its first appearance:
// its key expressions name the labels and its line is the HELP text.
class DefinitionFinder {
 public:
  explicit DefinitionFinder(size_t maps) : written_(maps, nullptr), seen_(maps, nullptr) {}

  void block(const std::vector<lang::StmtPtr>& body) {
    for (const lang::StmtPtr& s : body) stmt(*s);
  }
  const lang::Expr* definition(size_t map) const { return written_[map] ? written_[map] : seen_[map]; }
  void note(const lang::Expr& e, bool written) {
    if (e.kind != lang::ExprKind::Map || e.map_id < 0 || size_t(e.map_id) >= seen_.size()) return;
    auto& slot = written ? written_[size_t(e.map_id)] : seen_[size_t(e.map_id)];
    if (!slot) slot = &e;
  }
  void expr(const lang::Expr* e) {
    if (!e) return;
    if (e->kind == lang::ExprKind::IncDec && !e->operands.empty()) note(*e->operands[0], true);
    note(*e, false);
    for (const lang::ExprPtr& o : e->operands) expr(o.get());
  }

 private:
  void stmt(const lang::Stmt& s) {
    if (s.kind == lang::StmtKind::Assign && s.target) note(*s.target, true);
    expr(s.target.get());
    expr(s.expr.get());
    block(s.body);
    block(s.else_body);
  }

  std::vector<const lang::Expr*> written_, seen_;
};

std::string family_name(std::string_view prefix, const std::string& map) {
  std::string name(prefix);
  if (map.size() > 1) {
    name += '_';
    for (char c : std::string_view(map).substr(1)) name += name_char(c, false) ? c : '_';
  }
  return name;
}

// Why a key part has no label text, or "" when it has one.
std::string unlabelled_part(const Type& t) {
  switch (t.kind) {
    case TypeKind::Integer:
    case TypeKind::String:
    case TypeKind::Probe:
    case TypeKind::Func: return {};
    case TypeKind::Tuple:
      for (const Type& f : t.fields)
        if (std::string why = unlabelled_part(f); !why.empty()) return why;
      return {};
    default: return type_name(t);
  }
}

bool served_value(TypeKind kind) {
  switch (kind) {
    case TypeKind::Count: case TypeKind::Sum: case TypeKind::Min: case TypeKind::Max:
    case TypeKind::Avg: case TypeKind::Stats: case TypeKind::Hist: case TypeKind::LHist:
    case TypeKind::Integer: case TypeKind::String: return true;
    default: return false;
  }
}

std::vector<std::string> label_names(const lang::Expr* def, const lang::MapInfo& m) {
  std::vector<std::string> labels;
  bool hist = m.value.kind == TypeKind::Hist || m.value.kind == TypeKind::LHist;
  for (size_t i = 0; i < m.key.size(); i++) {
    std::string name;
    // One key part per key expression; a key given as one tuple expression has one part.
    if (def && def->operands.size() == m.key.size()) {
      const lang::Expr& k = *def->operands[i];
      if (k.kind == lang::ExprKind::Builtin) name = k.name;
      else if (k.kind == lang::ExprKind::Variable) name = k.name.substr(1);
    }
    bool reserved = (hist && name == "le") || (m.value.kind == TypeKind::String && name == "value");
    if (!is_label_name(name) || reserved || std::count(labels.begin(), labels.end(), name))
      name = "key" + std::to_string(i);
    labels.push_back(name);
  }
  return labels;
}

}  // namespace

bool is_metric_name(std::string_view s) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size(); i++)
    if (!name_char(s[i], i == 0)) return false;
  return true;
}

MetricsPlan plan_metrics(const lang::Program& program, const lang::ProgramInfo& info,
                         const lang::SourceFile& source, std::string_view prefix) {
  DefinitionFinder finder(info.maps.size());
  for (const lang::ProbeBlock& b : program.probes) {
    finder.expr(b.predicate.get());
    finder.block(b.body);
  }
  MetricsPlan plan;
  std::vector<std::string> taken;
  for (size_t u = 0; u < info.maps.size(); u++) {
    const lang::MapInfo& m = info.maps[u];
    const lang::Expr* def = finder.definition(u);
    MapMetric metric;
    metric.name = family_name(prefix, m.name);
    metric.labels = label_names(def, m);
    if (m.value.kind == TypeKind::String) metric.value_label = "value";
    uint32_t at = def ? def->span.begin : m.first_use.begin;
    std::string_view line = source.line_at(at);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
    metric.help = source.name() + ":" + std::to_string(source.position(at).line) + ": " + std::string(line);

    std::string why;
    for (size_t i = 0; i < m.key.size() && why.empty(); i++)
      if (std::string part = unlabelled_part(m.key[i]); !part.empty())
        why = "its key part " + std::to_string(i + 1) + " is a " + part +
              ", which has no text for a label; key it by something printable (comm, pid, a $variable)";
    if (why.empty() && !served_value(m.value.kind))
      why = "its values are " + type_name(m.value) + ", which no metric type holds";
    // A counter's samples end in _total, a histogram's in _bucket/_count/_sum: two maps whose
    // families would share a sample name cannot both be served.
    if (why.empty() && std::count(taken.begin(), taken.end(), metric.name))
      why = "another map already has the metric name " + metric.name + "; rename one of them";
    if (!why.empty()) {
      plan.warnings.push_back(m.name + " is not served as metrics: " + why);
    } else {
      metric.served = true;
      taken.push_back(metric.name);
    }
    plan.maps.push_back(std::move(metric));
  }
  return plan;
}

}  // namespace rawprobe::metrics
