// bpftrace's config variables (0.26.1 docs/language.md, "Config Variables"): one registry
// row per variable gives its name, value kind, default, environment variables and what
// rawprobe does with it. The `config = { name = value; ... }` block (config_block.h) and the
// environment both go through it, so a variable is known in one place.
//
// Precedence, as 0.26.1 documents it: an environment variable beats the script's config
// block, which beats the default. Each variable is read from RAWPROBE_<NAME>, then
// BPFTRACE_<NAME> (0.26's spelling), then the name bpftrace 0.17 read (BPFTRACE_STRLEN,
// BPFTRACE_MAP_KEYS_MAX, ...), the first one set winning.
#pragma once
#include <cstdint>
#include <functional>
#include <set>
#include <span>
#include <string>

#include "engine/base/result.h"
#include "engine/base/types.h"

namespace rawprobe::lang {

enum class MissingProbes : uint8_t { Error, Warn, Ignore };

struct Settings {
  // rawprobe's defaults are bpftrace 0.17's where 0.17 and 0.26 differ (max_strlen 64, not
  // 1024; no truncation trailer), so Debian's scripts print what they printed there.
  uint64_t max_strlen = 64;
  uint64_t max_map_keys = 4096;
  uint64_t max_probes = 1024;
  uint64_t max_bpf_progs = 1024;
  uint64_t max_cat_bytes = 10240;
  uint64_t log_size = 1000000;
  uint64_t perf_rb_pages = 64;
  uint64_t on_stack_limit = 32;
  MissingProbes missing_probes = MissingProbes::Error;
  bool print_maps_on_exit = true;
  StackMode stack_mode = StackMode::Bpftrace;
  std::string str_trunc_trailer;
  bool cpp_demangle = true;
  bool lazy_symbolication = false;
  bool show_debug_info = false;
  bool no_user_symbols = false;
  std::string license = "GPL";
  std::string cache_user_symbols = "PER_PID";
  // Registry names of the variables given a value (config block or environment).
  std::set<std::string> given;
  bool was_given(const char* name) const { return given.count(name) != 0; }
};

enum class SettingKind : uint8_t { Uint, Bool, Word, String };

struct SettingRow {
  const char* name;        // as a config block writes it: max_strlen
  SettingKind kind;
  const char* default_text;
  const char* legacy_env;  // bpftrace 0.17's variable, or nullptr
  bool legacy_inverted;    // the 0.17 variable says the opposite (BPFTRACE_NO_CPP_DEMANGLE)
  const char* effect;      // what rawprobe does with it, for --help-config and the README
  // Sets the value from text already checked to be of `kind`; an error says what is allowed.
  Status (*apply)(Settings&, const std::string&);
};

std::span<const SettingRow> setting_rows();

// The row for a config block's name: `stack_mode`, `STACK_MODE` or `BPFTRACE_STACK_MODE`.
const SettingRow* find_setting(std::string_view name);

// Sets one variable from its text ("perf", "100", "true"). Errors name the variable and the
// values it takes.
Status apply_setting(Settings& settings, const SettingRow& row, const std::string& text);

// Reads every variable's environment variables into `settings` (after the config block, so
// they win). `getenv` is std::getenv outside tests.
Status apply_environment(Settings& settings, const std::function<const char*(const char*)>& getenv);

}  // namespace rawprobe::lang
