#include "engine/lang/named_params.h"

#include "engine/lang/suggest.h"

namespace rawprobe::lang {

NamedParams::NamedParams(const PositionalParams& params) {
  for (const std::string& w : params.values) {
    if (w.size() < 3 || w.compare(0, 2, "--") != 0) continue;
    size_t eq = w.find('=');
    if (eq == std::string::npos) given_.emplace_back(w.substr(2), "");
    else given_.emplace_back(w.substr(2, eq - 2), w.substr(eq + 1));
  }
}

std::optional<std::string> NamedParams::given(const std::string& name) const {
  for (const auto& [n, v] : given_)
    if (n == name) return v;
  return std::nullopt;
}

void NamedParams::declare(const std::string& name, std::string type, std::string default_text, std::string help) {
  for (const NamedOption& o : declared_)
    if (o.name == name) return;
  declared_.push_back({name, std::move(type), std::move(default_text), std::move(help)});
}

std::string NamedParams::unknown_error() const {
  std::vector<std::string> names;
  for (const NamedOption& o : declared_) names.push_back(o.name);
  for (const auto& [n, v] : given_) {
    if (n == "help") continue;  // asks for the list (options_listing)
    bool known = false;
    for (const std::string& d : names) known = known || d == n;
    if (known) continue;
    std::string list;
    for (const std::string& d : names) list += (list.empty() ? "" : ", ") + ("--" + d);
    // bpftrace's words ("unexpected program command line options"), then what to give instead.
    return "unexpected program command line option --" + n + did_you_mean(n, names) +
           (list.empty() ? ": the script reads no named options (getopt)" : ": expected program options: " + list);
  }
  return "";
}

}  // namespace rawprobe::lang

namespace rawprobe::lang {

std::string options_listing(const std::vector<NamedOption>& options) {
  if (options.empty()) return "The script has no named options (it calls no getopt()).\n";
  std::string out = "Named options, after '--' (e.g. -- --" + options[0].name + (options[0].type == "bool" ? "" : "=VALUE") + "):\n";
  for (const NamedOption& o : options) {
    std::string flag = "  --" + o.name + (o.type == "bool" ? "" : "=" + std::string(o.type == "int" ? "N" : "TEXT"));
    out += flag + std::string(flag.size() < 24 ? 24 - flag.size() : 1, ' ') + (o.help.empty() ? "" : o.help + " ") + "(" +
           (o.type == "bool" ? "boolean" : o.type == "int" ? "integer" : "string") + ", default " + o.default_text + ")\n";
  }
  return out;
}

}  // namespace rawprobe::lang
