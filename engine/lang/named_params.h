// bpftrace 0.24's named program options: `rawprobe tool.bt -- --depth=10 --errname` sets
// what the script reads with getopt("depth", 35, "help") and getopt("errname"). They are the
// words of the program's parameters that start with "--"; the parser asks for each by name
// and records what the script declares, so an option no getopt() reads is an error.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "engine/lang/positional.h"

namespace rawprobe::lang {

struct NamedOption {
  std::string name, type, default_text, help;  // type: "bool", "int" or "string"
};

class NamedParams {
 public:
  explicit NamedParams(const PositionalParams& params);
  // `--name=VALUE`: VALUE; `--name`: ""; nullopt when not given.
  std::optional<std::string> given(const std::string& name) const;
  void declare(const std::string& name, std::string type, std::string default_text, std::string help);
  const std::vector<NamedOption>& declared() const { return declared_; }
  // The error for options given that no getopt() reads, or "".
  std::string unknown_error() const;

 private:
  std::vector<std::pair<std::string, std::string>> given_;  // name, value
  std::vector<NamedOption> declared_;
};

// What `-- --help` prints: each option, its help text, kind and default.
std::string options_listing(const std::vector<NamedOption>& options);

}  // namespace rawprobe::lang
