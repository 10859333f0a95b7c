#include "engine/codegen/tracepoint_layouts.h"

#include <algorithm>
#include <map>

namespace rawprobe::codegen {
namespace {

void walk_expr(const lang::Expr& e, std::vector<std::string>& out) {
  if (e.kind == lang::ExprKind::Field && e.operands[0]->kind == lang::ExprKind::Builtin &&
      e.operands[0]->name == "args" && std::find(out.begin(), out.end(), e.name) == out.end())
    out.push_back(e.name);
  for (const lang::ExprPtr& o : e.operands) walk_expr(*o, out);
}

void walk_stmts(const std::vector<lang::StmtPtr>& body, std::vector<std::string>& out) {
  for (const lang::StmtPtr& s : body) {
    if (s->target) walk_expr(*s->target, out);
    if (s->expr) walk_expr(*s->expr, out);
    walk_stmts(s->body, out);
    walk_stmts(s->else_body, out);
  }
}

}  // namespace

std::vector<std::string> args_fields_used(const lang::ProbeBlock& block) {
  std::vector<std::string> out;
  if (block.predicate) walk_expr(*block.predicate, out);
  walk_stmts(block.body, out);
  return out;
}

uint32_t field_offset_at(const probes::AttachPoint& point, const std::string& name, uint32_t fallback) {
  for (const lang::TracepointField& f : point.fields)
    if (f.name == name) return f.offset;
  return fallback;
}

uint32_t field_load_size(const probes::AttachPoint& point, const std::string& name, const Type& type) {
  uint32_t size = type.size ? type.size : 8;
  if (!type.is_pointer()) return size;
  for (const lang::TracepointField& f : point.fields)
    if (f.name == name && (f.size == 1 || f.size == 2 || f.size == 4)) return f.size;
  return size;
}

std::vector<std::vector<size_t>> split_by_layout(const std::vector<std::vector<size_t>>& programs,
                                                 const std::vector<probes::AttachPoint>& points,
                                                 const std::vector<std::string>& fields) {
  if (fields.empty()) return programs;
  std::vector<std::vector<size_t>> out;
  for (const std::vector<size_t>& serves : programs) {
    // Layout -> the points with it, in the order each layout first appears.
    std::map<std::vector<uint32_t>, size_t> index;
    size_t first_out = out.size();
    for (size_t i : serves) {
      std::vector<uint32_t> layout;
      for (const std::string& f : fields) layout.push_back(field_offset_at(points[i], f, UINT32_MAX));
      auto [it, fresh] = index.emplace(layout, out.size() - first_out);
      if (fresh) out.emplace_back();
      out[first_out + it->second].push_back(i);
    }
  }
  return out;
}

}  // namespace rawprobe::codegen
