#include "engine/symbols/kernel_symbols.h"

#include <algorithm>

#include "engine/base/hex.h"
#include "engine/sys/host_root.h"

namespace rawprobe::symbols {
namespace {

struct Line {
  uint64_t address = 0;
  char type = 0;
  std::string_view name, module;
};

// One kallsyms line: "ADDR TYPE NAME[\t[MODULE]]"; false for a line of another shape.
bool parse_line(std::string_view line, Line& out) {
  size_t i = 0;
  uint64_t a = 0;
  for (; i < line.size() && line[i] != ' '; ++i) {
    int d = hex_digit(line[i]);
    if (d < 0) return false;
    a = a << 4 | uint64_t(d);
  }
  if (i == 0 || i + 3 > line.size()) return false;
  out.address = a;
  out.type = line[i + 1];
  std::string_view rest = line.substr(i + 3);
  size_t end = rest.find_first_of(" \t");
  out.name = rest.substr(0, end);
  out.module = {};
  if (end != std::string_view::npos) {
    std::string_view m = rest.substr(end);
    size_t open = m.find('['), close = m.find(']');
    if (open != std::string_view::npos && close != std::string_view::npos && close > open)
      out.module = m.substr(open + 1, close - open - 1);
  }
  // The table keeps names NUL-terminated, so a name holding a NUL (never the kernel's, but a
  // fixture's or a container root's file can) would come back cut short: not a symbol line.
  return !out.name.empty() && out.name.find('\0') == std::string_view::npos;
}

bool is_data(char type) {
  return type == 'b' || type == 'B' || type == 'd' || type == 'D' || type == 'r' || type == 'R';
}

template <class F>
void each_line(std::string_view text, F f) {
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    Line l;
    if (parse_line(line, l)) f(l);
  }
}

}  // namespace

KernelSymbols KernelSymbols::parse(std::string_view text) {
  KernelSymbols t;
  t.names_.push_back('\0');
  bool any = false, nonzero = false;
  std::string_view last_module;
  uint32_t last_module_at = 0;
  each_line(text, [&](const Line& l) {
    any = true;
    if (l.address) nonzero = true;
    // bcc skips address 0 and all ones, and data symbols.
    if (l.address == 0 || l.address == UINT64_MAX || is_data(l.type)) return;
    Entry e{l.address, uint32_t(t.names_.size()), 0};
    t.names_.append(l.name);
    t.names_.push_back('\0');
    if (!l.module.empty()) {
      // Module lines come grouped: one copy of each module name per run of lines.
      if (l.module != last_module) {
        last_module_at = uint32_t(t.names_.size());
        t.names_.append(l.module);
        t.names_.push_back('\0');
        last_module = l.module;  // a view into `text`, alive for the whole parse
      }
      e.module = last_module_at;
    }
    t.entries_.push_back(e);
  });
  t.hidden_ = any && !nonzero;
  // Of several symbols at one address find() takes the last listed (upper_bound - 1, as bcc).
  std::stable_sort(t.entries_.begin(), t.entries_.end(),
                   [](const Entry& a, const Entry& b) { return a.address < b.address; });
  t.names_.shrink_to_fit();
  t.entries_.shrink_to_fit();
  return t;
}

const KernelSymbols& KernelSymbols::host() {
  return sys::once_per_host_root<KernelSymbols>([] {
    std::string text;
    sys::read_text_file(sys::host_path("/proc/kallsyms"), text);
    return parse(text);
  });
}

std::optional<KernelFrame> KernelSymbols::find(uint64_t address) const {
  auto it = std::upper_bound(entries_.begin(), entries_.end(), address,
                             [](uint64_t a, const Entry& e) { return a < e.address; });
  if (it == entries_.begin()) return std::nullopt;
  --it;
  const char* base = names_.data();
  return KernelFrame{base + it->name, address - it->address, it->module ? base + it->module : ""};
}

Result<uint64_t> kernel_symbol_address(std::string_view name) {
  std::string path = sys::host_path("/proc/kallsyms"), text;
  if (!sys::read_text_file(path, text))
    return make_error("resolve kernel symbol", std::string(name), "cannot read " + path);
  std::optional<uint64_t> found;
  bool nonzero = false;
  each_line(text, [&](const Line& l) {
    if (l.address) nonzero = true;
    if (!found && l.name == name) found = l.address;
  });
  if (!found)
    return make_error("resolve kernel symbol", std::string(name),
                      "no symbol of that name in " + path + " (names are exact: no wildcards)");
  if (!nonzero)
    return make_error("resolve kernel symbol", std::string(name),
                      path + " shows every address as 0 to this user: run as root");
  return *found;
}

}  // namespace rawprobe::symbols
