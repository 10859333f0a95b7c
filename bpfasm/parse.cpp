#include "bpfasm/parse.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "bpfasm/builder.h"
#include "bpfasm/form.h"
#include "bpfasm/syntax.h"

namespace rawprobe::bpf {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.'; }
bool is_ident(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

// The pieces of one source line.
struct LineParts {
  std::string label;  // defined here ("name:" or llvm-objdump's "0000 <name>:")
  size_t label_col = 0;
  std::optional<std::string> annotation;  // a whole-line "; text" comment
  size_t begin = 0, end = 0;              // the instruction text, if any
};

size_t skip_space(std::string_view s, size_t at, size_t end) {
  while (at < end && is_space(s[at])) ++at;
  return at;
}

// End of the code part: comments start at ';', "//", or a '#' after a space (a '#' right after
// a name belongs to it: "call bpf_map_lookup_elem#1").
size_t code_end(std::string_view line) {
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == ';') return i;
    if (line[i] == '/' && i + 1 < line.size() && line[i + 1] == '/') return i;
    if (line[i] == '#' && (i == 0 || is_space(line[i - 1]))) return i;
  }
  return line.size();
}

LineParts split_line(std::string_view line) {
  LineParts parts;
  size_t end = code_end(line);
  size_t at = skip_space(line, 0, end);
  if (at == end && end < line.size() && line[end] == ';') {
    size_t text = skip_space(line, end + 1, line.size());
    size_t stop = line.size();
    while (stop > text && is_space(line[stop - 1])) --stop;
    parts.annotation = std::string(line.substr(text, stop - text));
  }
  // llvm-objdump's symbol line: "0000000000000000 <name>:".
  size_t hex = at;
  while (hex < end && is_hex(line[hex])) ++hex;
  size_t lt = skip_space(line, hex, end);
  if (hex > at && lt > hex && lt < end && line[lt] == '<') {
    size_t gt = line.find('>', lt);
    if (gt != std::string_view::npos && gt + 1 < end && line[gt + 1] == ':') {
      parts.label = std::string(line.substr(lt + 1, gt - lt - 1));
      parts.label_col = lt;
      at = skip_space(line, gt + 2, end);
    }
  }
  // A listing's "12:" slot index, then the verifier's "(79)" or llvm-objdump's byte dump.
  size_t digits = at;
  while (digits < end && line[digits] >= '0' && line[digits] <= '9') ++digits;
  if (digits > at && digits < end && line[digits] == ':') {
    at = skip_space(line, digits + 1, end);
    if (at + 3 < end && line[at] == '(' && is_hex(line[at + 1]) && is_hex(line[at + 2]) && line[at + 3] == ')') {
      at = skip_space(line, at + 4, end);
    } else {
      while (at + 2 <= end && is_hex(line[at]) && is_hex(line[at + 1]) && (at + 2 == end || is_space(line[at + 2])))
        at = skip_space(line, at + 2, end);
    }
  }
  // "name:" label definition.
  if (at < end && is_ident_start(line[at])) {
    size_t id = at;
    while (id < end && is_ident(line[id])) ++id;
    if (id < end && line[id] == ':') {
      parts.label = std::string(line.substr(at, id - at));
      parts.label_col = at;
      at = skip_space(line, id + 1, end);
    }
  }
  while (end > at && is_space(line[end - 1])) --end;
  parts.begin = at;
  parts.end = end;
  return parts;
}

std::string caret_detail(std::string_view line, size_t col) {
  std::string pad;
  for (size_t i = 0; i < col && i < line.size(); ++i) pad += line[i] == '\t' ? '\t' : ' ';
  return "  " + std::string(line) + "\n  " + pad + "^";
}

std::string position(std::string_view file, size_t line_no, size_t col) {
  return std::string(file) + ":" + std::to_string(line_no) + ":" + std::to_string(col + 1);
}

// Tries every row of the table in both dialects; the first match wins. On failure, the most
// telling reason: a definite (hard) error if any row found one, else what the rows that read
// furthest expected there.
struct LineResult {
  std::optional<Matched> matched;
  size_t col = 0;
  std::string message;
};

LineResult match_line(const MatchInput& in) {
  MatchFailure best;
  std::vector<std::string> expected;
  bool any = false;
  for (const Form& form : forms()) {
    for (const std::string* tmpl : {&form.syntax, &form.llvm_syntax, &form.alias}) {
      if (tmpl->empty()) continue;
      MatchFailure why;
      if (auto m = match(form, *tmpl, in, &why)) return LineResult{m, 0, {}};
      bool better = !any || (why.hard && !best.hard) ||
                    (why.hard == best.hard && why.col > best.col);
      if (better) {
        best = why;
        expected.assign(1, why.expected);
        any = true;
      } else if (!why.hard && !best.hard && why.col == best.col) {
        bool seen = false;
        for (const std::string& e : expected) seen = seen || e == why.expected;
        if (!seen) expected.push_back(why.expected);
      }
    }
  }
  if (best.hard) return LineResult{std::nullopt, best.col, best.expected};
  std::string msg = expected.size() == 1 ? "expected " + expected[0] : "expected one of ";
  if (expected.size() > 1)
    for (size_t i = 0; i < expected.size(); ++i) msg += (i ? ", " : "") + expected[i];
  size_t word_end = best.col;
  while (word_end < in.end && !is_space(in.line[word_end])) ++word_end;
  if (best.col < in.end)
    msg += ", found '" + std::string(in.line.substr(best.col, word_end - best.col)) + "'";
  return LineResult{std::nullopt, best.col, msg};
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t at = 0;
  while (at <= text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    lines.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  return lines;
}

}  // namespace

Result<Program> assemble(std::string_view text, std::string_view file_name) {
  std::vector<std::string_view> lines = lines_of(text);
  std::vector<LineParts> parts;
  std::set<std::string, std::less<>> label_names;
  for (std::string_view line : lines) {
    parts.push_back(split_line(line));
    if (!parts.back().label.empty()) label_names.insert(parts.back().label);
  }

  Builder b;
  std::map<std::string, Label, std::less<>> labels;
  auto label_of = [&](const std::string& name) {
    auto it = labels.find(name);
    if (it == labels.end()) it = labels.emplace(name, b.new_label(name)).first;
    return it->second;
  };
  // Where each builder origin points, to put a caret under builder errors.
  std::map<std::string, std::pair<size_t, size_t>> origins;
  MatchInput in;
  in.is_label = [&](std::string_view name) { return label_names.count(name) > 0; };

  for (size_t n = 0; n < lines.size(); ++n) {
    const LineParts& p = parts[n];
    if (p.annotation) b.annotate(*p.annotation);
    if (!p.label.empty()) {
      std::string where = position(file_name, n + 1, p.label_col);
      origins[where] = {n, p.label_col};
      b.bind(label_of(p.label), where);
    }
    if (p.begin == p.end) continue;
    in.line = lines[n];
    in.begin = p.begin;
    in.end = p.end;
    LineResult r = match_line(in);
    if (!r.matched) {
      Error e = make_error(position(file_name, n + 1, r.col) + ": " + r.message);
      e.detail = caret_detail(lines[n], r.col);
      return e;
    }
    const Matched& m = *r.matched;
    if (!m.label) {
      b.emit(m.insn);
      continue;
    }
    std::string where = position(file_name, n + 1, m.label->col);
    origins[where] = {n, m.label->col};
    b.emit(m.insn, label_of(m.label->name), m.label->in_imm ? TargetField::Imm : TargetField::Off, where);
  }

  Result<Program> program = b.finish();
  if (!program) {
    Error& e = program.error();
    auto it = origins.find(e.object);
    if (it != origins.end()) {
      e.what = e.object + ": " + e.what;
      e.detail = caret_detail(lines[it->second.first], it->second.second);
      e.object.clear();
    }
  }
  return program;
}

Result<Instruction> parse_instruction(std::string_view text) {
  Result<Program> p = assemble(text, "<instruction>");
  if (!p) return p.error();
  if (p->insns.size() != 1)
    return make_error("parse instruction", std::string(text), "give exactly one instruction");
  return p->insns[0];
}

}  // namespace rawprobe::bpf
