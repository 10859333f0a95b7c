#include "engine/driver/point_selection.h"

#include <regex>

namespace rawprobe::driver {
namespace {

using probes::ProbeKind;

bool always_kept(ProbeKind kind) {
  return kind == ProbeKind::Begin || kind == ProbeKind::End || kind == ProbeKind::Self;
}

bool in_block_set(ProbeKind kind, BlockSet blocks) {
  switch (blocks) {
    case BlockSet::Ordinary: return kind != ProbeKind::Test && kind != ProbeKind::Bench;
    case BlockSet::Tests: return kind == ProbeKind::Test;
    case BlockSet::Benches: return kind == ProbeKind::Bench;
  }
  return false;
}

template <typename Keep>
size_t keep_points(std::vector<std::vector<probes::AttachPoint>>& points, Keep keep) {
  size_t kept = 0;
  for (std::vector<probes::AttachPoint>& block : points) {
    std::vector<probes::AttachPoint> left;
    for (probes::AttachPoint& p : block)
      if (keep(p)) left.push_back(std::move(p));
    kept += left.size();
    block = std::move(left);
  }
  return kept;
}

}  // namespace

Status select_points(std::vector<std::vector<probes::AttachPoint>>& points, const PointSelection& selection) {
  // Under --test and --bench only that kind runs: BEGIN and END too are left out, so a
  // report holds the tests' own output and nothing else.
  size_t selected = keep_points(points, [&](const probes::AttachPoint& p) {
    if (selection.blocks == BlockSet::Ordinary && always_kept(p.kind)) return true;
    return in_block_set(p.kind, selection.blocks);
  });
  const char* kind = selection.blocks == BlockSet::Tests ? "test" : "bench";
  if (selection.blocks != BlockSet::Ordinary && selected == 0)
    return make_error(std::string("--") + kind + ": the script has no " + kind + ": block", "",
                      std::string("add one, e.g. ") + kind + ":parse { ... }");
  if (!selection.filter) return {};

  std::regex filter;
  try {
    filter = std::regex(*selection.filter, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return make_error("--probe-filter '" + *selection.filter + "' is not a regular expression: " + e.what(), "",
                      "give an ECMAScript regex, e.g. --probe-filter 'sys_enter_(read|write)$'");
  }
  size_t candidates = 0, matched = 0;
  keep_points(points, [&](const probes::AttachPoint& p) {
    if (always_kept(p.kind)) return true;
    ++candidates;
    bool match = std::regex_search(p.name, filter);
    matched += match;
    return match;
  });
  if (matched == 0)
    return make_error("--probe-filter '" + *selection.filter + "' matches none of the script's " +
                          std::to_string(candidates) + " probe" + (candidates == 1 ? "" : "s"),
                      "", "the regex is matched against full probe names such as tracepoint:syscalls:sys_enter_read");
  return {};
}

}  // namespace rawprobe::driver
