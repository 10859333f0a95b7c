#include "engine/symbols/user_symbols.h"

#include <algorithm>

#include "engine/sys/host_root.h"
#include "engine/sys/rooted_open.h"

namespace rawprobe::symbols {

namespace {

// What `read` makes of `path` opened inside the process's root (its own view, symlinks kept
// within it), through the descriptor; false when it cannot be opened there.
template <class Read>
auto read_in_root(const std::string& root, const std::string& path, Read read) -> decltype(read(std::string())) {
  Result<Fd> fd = sys::open_in_root(root, path);
  if (!fd) return fd.error();
  return read("/proc/self/fd/" + std::to_string(fd->get()));
}

}  // namespace

std::string file_key(const Mapping& m) { return std::to_string(m.device) + ":" + std::to_string(m.inode); }

UserSymbols::UserSymbols(size_t budget_bytes, std::string proc, elf::FsRoots roots)
    : proc_(std::move(proc)), roots_(std::move(roots)), cache_(budget_bytes) {}

bool UserSymbols::read_maps(uint32_t pid, Process& p) {
  std::string text;
  if (!sys::read_text_file(proc_ + "/" + std::to_string(pid) + "/maps", text)) return false;
  p.maps = parse_maps(text);
  // A file only the live process can give us is read now: after it exits, nothing can.
  for (const Mapping& m : p.maps) {
    if (!m.executable || !m.file_backed() || !m.file_gone()) continue;
    std::string key = file_key(m);
    bool have = std::any_of(p.pinned.begin(), p.pinned.end(), [&](const auto& e) { return e.first == key; });
    if (have) continue;
    std::string path = proc_ + "/" + std::to_string(pid) + "/map_files/" + m.map_files_name();
    if (auto t = cache_.get(key, [&] { return FileSymbols::load(path, roots_); })) p.pinned.emplace_back(key, t);
  }
  return true;
}

UserSymbols::Process& UserSymbols::process(uint32_t pid) {
  auto [it, fresh] = processes_.try_emplace(pid);
  if (fresh) read_maps(pid, it->second);
  return it->second;
}

void UserSymbols::note_pid(uint32_t pid) { process(pid); }

std::shared_ptr<const FileSymbols> UserSymbols::table_for(uint32_t pid, const Process& p, const Mapping& m) {
  std::string key = file_key(m);
  for (const auto& [k, t] : p.pinned)
    if (k == key) return t;
  std::string base = proc_ + "/" + std::to_string(pid);
  return cache_.get(key, [&]() -> Result<FileSymbols> {
    // The live process's own view first (its mount namespace), then the path as it reads
    // here: the process may have exited.
    Result<FileSymbols> t = FileSymbols::load(base + "/map_files/" + m.map_files_name(), roots_);
    if (t) return t;
    t = read_in_root(base + "/root", m.path, [&](const std::string& path) { return FileSymbols::load(path, roots_); });
    if (t) return t;
    return FileSymbols::load(roots_.root + m.path, roots_);
  });
}

std::optional<UserFrame> UserSymbols::perf_map_frame(uint32_t pid, Process& p, uint64_t address,
                                                     std::string& module) {
  std::string name = "/tmp/perf-" + std::to_string(pid) + ".map";
  if (!p.perf_map) {
    p.perf_map.emplace();
    std::string text;
    Status inside = read_in_root(proc_ + "/" + std::to_string(pid) + "/root", name, [&](const std::string& path) -> Status {
      if (!sys::read_text_file(path, text)) return make_error("read " + name);
      return {};
    });
    if (!inside) sys::read_text_file(roots_.root + name, text);
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
      pos = nl == std::string::npos ? text.size() : nl + 1;
      char* end = nullptr;
      uint64_t start = std::strtoull(line.c_str(), &end, 16);
      char* end2 = nullptr;
      uint64_t size = std::strtoull(end, &end2, 16);
      if (end2 == end || *end2 != ' ') continue;
      p.perf_map->push_back({start, size, std::string(end2 + 1)});
    }
    std::stable_sort(p.perf_map->begin(), p.perf_map->end(),
                     [](const PerfSymbol& a, const PerfSymbol& b) { return a.start < b.start; });
  }
  const std::vector<PerfSymbol>& syms = *p.perf_map;
  auto it = std::upper_bound(syms.begin(), syms.end(), address,
                             [](uint64_t a, const PerfSymbol& s) { return a < s.start; });
  if (it == syms.begin()) return std::nullopt;
  --it;
  if (address >= it->start + it->size) return std::nullopt;
  module = name;
  return UserFrame{it->name, address - it->start};
}

UserResolved UserSymbols::resolve(uint32_t pid, uint64_t address) {
  Process& p = process(pid);
  auto find = [&]() -> const Mapping* {
    for (const Mapping& m : p.maps)
      if (address >= m.start && address < m.end) return &m;
    return nullptr;
  };
  const Mapping* m = find();
  if (!m && !p.reread) {  // mapped after the first event (dlopen): read the maps again
    p.reread = true;
    read_maps(pid, p);
    m = find();
  }
  UserResolved out;
  if (m && m->file_backed()) {
    out.module = m->path;
    if (std::shared_ptr<const FileSymbols> t = table_for(pid, p, *m))
      out.frame = t->find_file_offset(address - m->start + m->offset);
    if (out.frame) return out;
  }
  std::string module;
  if (std::optional<UserFrame> jit = perf_map_frame(pid, p, address, module)) {
    out.frame = std::move(jit);
    out.module = module;
  }
  return out;
}

Result<uint64_t> UserSymbols::symbol_address(const std::string& path, const std::string& symbol) {
  Result<FileSymbols> t = FileSymbols::load(path, {});
  if (!t) return t.error();
  if (std::optional<uint64_t> a = t->address_of(symbol)) return *a;
  return make_error("resolve user symbol", path + ":" + symbol,
                    "no function of that name in " + path + "'s .symtab, .dynsym or debug file");
}

}  // namespace rawprobe::symbols
