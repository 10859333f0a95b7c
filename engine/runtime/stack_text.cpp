#include "engine/runtime/stack_text.h"

#include <cstdio>
#include <cstring>

#include "engine/base/bytes.h"
#include "engine/base/hex.h"
#include "engine/symbols/kernel_symbols.h"
#include "engine/sys/bpf_map.h"

namespace rawprobe::runtime {
namespace {

uint64_t u64_at(const uint8_t* p) { return load_unaligned<uint64_t>(p); }

// perf mode's address: hex without "0x".
std::string bare_hex(uint64_t v) { return hex(v).substr(2); }

// As C++ streams print a (void *): "0x7f3a..." and a null pointer as "0".
std::string pointer_text(uint64_t v) { return v ? hex(v) : "0"; }

struct Frame {
  std::string name;  // empty: unknown
  uint64_t offset = 0;
  std::string module;
};

}  // namespace

StackText::StackText(const codegen::CompiledScript& script, const std::vector<int>& fds, size_t budget_bytes)
    : script_(&script), fds_(fds), users_(budget_bytes) {}

bool StackText::handles(const Type& type) {
  return type.kind == TypeKind::UStack || type.kind == TypeKind::KStack || type.kind == TypeKind::USym ||
         type.kind == TypeKind::KSym;
}

std::vector<uint64_t> StackText::frames(const Type& type, uint64_t stack_id) {
  std::vector<uint64_t> out;
  for (const codegen::StackMapDef& s : script_->stack_maps) {
    if (s.mode != type.stack_mode || s.limit != type.stack_limit) continue;
    std::vector<uint64_t> ips(s.limit, 0);
    uint32_t key = static_cast<uint32_t>(stack_id);
    Result<bool> found = sys::map_lookup(fds_[s.map], &key, ips.data());
    if (!found || !*found) return out;
    for (uint64_t ip : ips) {
      if (ip == 0) break;
      out.push_back(ip);
    }
  }
  return out;
}

const std::string& StackText::text(const Type& type, const uint8_t* value, StackStyle style) {
  std::string key(reinterpret_cast<const char*>(value), type.size);
  key += char(type.kind);
  key += char(type.stack_mode);
  key += std::to_string(type.stack_limit) + "/" + std::to_string(style.indent) + (style.folded ? "f" : "");
  auto it = texts_.find(key);
  if (it == texts_.end()) it = texts_.emplace(std::move(key), render(type, value, style)).first;
  return it->second;
}

std::string StackText::render(const Type& type, const uint8_t* value, StackStyle style) {
  bool user = type.kind == TypeKind::UStack || type.kind == TypeKind::USym;
  uint64_t first = u64_at(value);
  uint32_t pid = user ? static_cast<uint32_t>(u64_at(value + 8)) : 0;
  auto resolve = [&](uint64_t ip) {
    Frame f;
    if (user) {
      symbols::UserResolved r = users_.resolve(pid, ip);
      if (r.frame) {
        f.name = r.frame->name;
        f.offset = r.frame->offset;
      }
      f.module = r.module;
    } else if (std::optional<symbols::KernelFrame> k = symbols::KernelSymbols::host().find(ip)) {
      f.name = std::string(k->name);
      f.offset = k->offset;
      f.module = std::string(k->module);
    }
    return f;
  };
  if (type.kind == TypeKind::USym || type.kind == TypeKind::KSym) {
    Frame f = resolve(first);
    return f.name.empty() ? pointer_text(first) : f.name;
  }
  // A negative id is a stack that was not taken; ustack keeps the id in the low 32 bits.
  if (type.kind == TypeKind::KStack && static_cast<int64_t>(first) < 0) return "";
  if (type.kind == TypeKind::UStack && static_cast<int32_t>(static_cast<uint32_t>(first)) < 0) return "";
  std::vector<uint64_t> ips = frames(type, first & 0xffffffffu);
  if (ips.empty()) return "";
  std::string out;
  if (style.folded) {
    for (size_t i = ips.size(); i-- > 0;) {
      Frame f = resolve(ips[i]);
      if (!out.empty()) out += ';';
      out += f.name.empty() ? "[unknown]" : f.name;
    }
    return out;
  }
  out = "\n";
  for (uint64_t ip : ips) {
    if (type.stack_mode == StackMode::Raw) {
      out += bare_hex(ip) + "\n";
      continue;
    }
    Frame f = resolve(ip);
    std::string sym = f.name.empty() ? pointer_text(ip) : f.name + "+" + std::to_string(f.offset);
    if (type.stack_mode == StackMode::Perf) {
      out += "\t" + bare_hex(ip) + " " + sym;
      if (user) out += " (" + (f.name.empty() ? std::string("[unknown]") : f.module) + ")";
      out += "\n";
    } else {
      out += std::string(style.indent, ' ') + sym + "\n";
    }
  }
  return out;
}

}  // namespace rawprobe::runtime
