#include "engine/lang/settings.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

#include "engine/lang/suggest.h"

namespace rawprobe::lang {
namespace {

Result<uint64_t> read_uint(const std::string& text, const char* name) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    return make_error(std::string("config variable ") + name + " takes a non-negative integer, not '" + text + "'");
  return v;
}

Result<bool> read_bool(const std::string& text, const char* name) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  return make_error(std::string("config variable ") + name + " takes true or false, not '" + text + "'");
}

// One of `choices` (case as written there); the error lists them.
Result<size_t> read_word(const std::string& text, const char* name, std::vector<std::string> choices) {
  for (size_t i = 0; i < choices.size(); ++i)
    if (text == choices[i]) return i;
  std::string list;
  for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
  return make_error(std::string("config variable ") + name + " takes one of " + list + ", not '" + text + "'" +
                    did_you_mean(text, choices));
}

template <uint64_t Settings::*Field, uint64_t Min = 0>
Status set_uint(Settings& s, const std::string& text, const char* name) {
  Result<uint64_t> v = read_uint(text, name);
  if (!v) return v.error();
  if (*v < Min)
    return make_error(std::string("config variable ") + name + " must be at least " + std::to_string(Min) +
                      ", not " + text);
  s.*Field = *v;
  return {};
}

template <bool Settings::*Field>
Status set_bool(Settings& s, const std::string& text, const char* name) {
  Result<bool> v = read_bool(text, name);
  if (!v) return v.error();
  s.*Field = *v;
  return {};
}

#define UINT_ROW(NAME, MIN, DEF, LEGACY, EFFECT)                                                  \
  {#NAME, SettingKind::Uint, DEF, LEGACY, false, EFFECT,                                         \
   [](Settings& s, const std::string& t) { return set_uint<&Settings::NAME, MIN>(s, t, #NAME); }}
#define BOOL_ROW(NAME, DEF, LEGACY, INVERTED, EFFECT)                                             \
  {#NAME, SettingKind::Bool, DEF, LEGACY, INVERTED, EFFECT,                                      \
   [](Settings& s, const std::string& t) { return set_bool<&Settings::NAME>(s, t, #NAME); }}

// bpftrace 0.26.1's list (docs/language.md "Config Variables"), plus the 0.17 variables it no
// longer documents. An effect that starts "accepted" has no counterpart in rawprobe yet.
const SettingRow kRows[] = {
    UINT_ROW(max_strlen, 1, "64", "BPFTRACE_STRLEN", "bytes kept of str(), buf() and path() results"),
    UINT_ROW(max_map_keys, 1, "4096", "BPFTRACE_MAP_KEYS_MAX", "entries a keyed map holds"),
    UINT_ROW(max_probes, 1, "1024", "BPFTRACE_MAX_PROBES", "attach points a script may resolve to"),
    UINT_ROW(max_bpf_progs, 1, "1024", "BPFTRACE_MAX_BPF_PROGS", "BPF programs a script may load"),
    UINT_ROW(max_cat_bytes, 1, "10240", "BPFTRACE_CAT_BYTES_MAX", "accepted; cat() reads at most 10240 bytes"),
    UINT_ROW(log_size, 1, "1000000", "BPFTRACE_LOG_SIZE", "accepted; the verifier log grows as needed"),
    UINT_ROW(perf_rb_pages, 1, "64", "BPFTRACE_PERF_RB_PAGES", "pages of each CPU's perf buffer"),
    UINT_ROW(on_stack_limit, 0, "32", nullptr, "accepted; values go where their size needs"),
    {"missing_probes", SettingKind::Word, "error", nullptr, false,
     "error, warn or ignore when a probe does not exist here",
     [](Settings& s, const std::string& t) -> Status {
       Result<size_t> i = read_word(t, "missing_probes", {"error", "warn", "ignore"});
       if (!i) return i.error();
       s.missing_probes = MissingProbes(*i);
       return {};
     }},
    BOOL_ROW(print_maps_on_exit, "true", nullptr, false, "whether maps print when the script ends"),
    {"stack_mode", SettingKind::Word, "bpftrace", "BPFTRACE_STACK_MODE", false,
     "how kstack and ustack print when the call gives no mode",
     [](Settings& s, const std::string& t) -> Status {
       Result<size_t> i = read_word(t, "stack_mode", {"bpftrace", "perf", "raw"});
       if (!i) return i.error();
       s.stack_mode = StackMode(*i);
       return {};
     }},
    {"str_trunc_trailer", SettingKind::String, "", nullptr, false,
     "accepted; truncated strings print without a trailer, as in bpftrace 0.17",
     [](Settings& s, const std::string& t) -> Status {
       s.str_trunc_trailer = t;
       return {};
     }},
    BOOL_ROW(cpp_demangle, "true", "BPFTRACE_NO_CPP_DEMANGLE", true, "accepted; C++ names print demangled"),
    BOOL_ROW(lazy_symbolication, "false", nullptr, false, "accepted; symbol tables load when first needed"),
    BOOL_ROW(show_debug_info, "false", nullptr, false, "accepted; stacks show no file and line"),
    BOOL_ROW(no_user_symbols, "false", "BPFTRACE_NO_USER_SYMBOLS", false, "accepted; user stacks are symbolized"),
    {"license", SettingKind::String, "GPL", nullptr, false, "checked against the licences the kernel accepts; "
     "programs load as GPL, which the helpers rawprobe calls need",
     [](Settings& s, const std::string& t) -> Status {
       Result<size_t> i = read_word(t, "license", {"GPL", "GPL v2", "GPL and additional rights", "Dual BSD/GPL",
                                                   "Dual MIT/GPL", "Dual MPL/GPL"});
       if (!i) return i.error();
       s.license = t;
       return {};
     }},
    {"cache_user_symbols", SettingKind::Word, "PER_PID", "BPFTRACE_CACHE_USER_SYMBOLS", false,
     "accepted; symbol tables are cached per binary",
     [](Settings& s, const std::string& t) -> Status {
       Result<size_t> i = read_word(t, "cache_user_symbols", {"PER_PROGRAM", "PER_PID", "NONE"});
       if (!i) return i.error();
       s.cache_user_symbols = t;
       return {};
     }},
    // Feature gates of 0.26's experimental syntax: rawprobe has no such gates.
    {"unstable_map_decl", SettingKind::Word, "warn", nullptr, false, "accepted; no effect",
     [](Settings&, const std::string& t) -> Status {
       Result<size_t> i = read_word(t, "unstable_map_decl", {"error", "warn", "enable"});
       return i ? Status{} : Status{i.error()};
     }},
    {"unstable_tseries", SettingKind::Word, "warn", nullptr, false, "accepted; no effect",
     [](Settings&, const std::string& t) -> Status {
       Result<size_t> i = read_word(t, "unstable_tseries", {"error", "warn", "enable"});
       return i ? Status{} : Status{i.error()};
     }},
    {"unstable_addr", SettingKind::Word, "warn", nullptr, false, "accepted; no effect",
     [](Settings&, const std::string& t) -> Status {
       Result<size_t> i = read_word(t, "unstable_addr", {"error", "warn", "enable"});
       return i ? Status{} : Status{i.error()};
     }},
};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::span<const SettingRow> setting_rows() { return kRows; }

const SettingRow* find_setting(std::string_view name) {
  std::string key(name);
  if (key.rfind("BPFTRACE_", 0) == 0) key = key.substr(9);
  for (char& c : key) c = char(std::tolower(static_cast<unsigned char>(c)));
  for (const SettingRow& r : kRows)
    if (key == r.name) return &r;
  return nullptr;
}

Status apply_setting(Settings& settings, const SettingRow& row, const std::string& text) {
  if (Status s = row.apply(settings, text); !s) return s;
  settings.given.insert(row.name);
  return {};
}

Status apply_environment(Settings& settings, const std::function<const char*(const char*)>& getenv) {
  for (const SettingRow& row : kRows) {
    std::string names[] = {"RAWPROBE_" + upper(row.name), "BPFTRACE_" + upper(row.name),
                           row.legacy_env ? row.legacy_env : ""};
    for (const std::string& env : names) {
      const char* value = env.empty() ? nullptr : getenv(env.c_str());
      if (!value) continue;
      std::string text = value;
      if (&env == &names[2] && row.legacy_inverted) {
        Result<bool> b = read_bool(text, row.name);
        if (b) text = *b ? "false" : "true";
      }
      if (Status s = apply_setting(settings, row, text); !s)
        return make_error(s.error().what + " (from the environment variable " + env + ")");
      break;
    }
  }
  return {};
}

}  // namespace rawprobe::lang
