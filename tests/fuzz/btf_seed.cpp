// Makes seeds for tests/fuzz/btf_blob_fuzz.cpp from real BTF: small, valid slices of this
// kernel's vmlinux BTF (the types a root reaches, breadth first, up to a cap; a reference to a
// type left out is pointed at an INT of the slice), and a module's split BTF on top of the
// slice of vmlinux it refers to.
//   btf-seed VMLINUX OUTDIR [MODULE_BTF]
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/btf/blob.h"
#include "engine/btf/materialize.h"
#include "engine/btf/name_index.h"

using namespace rawprobe;
using rawprobe::btf::Blob;
using rawprobe::btf::Record;

namespace {

using Key = std::pair<const Blob*, uint32_t>;

// One output blob: records copied with their type ids and name offsets rewritten.
class Writer {
 public:
  Writer(uint32_t first_id, uint32_t string_base, bool own_empty_string)
      : next_id_(first_id), string_base_(string_base) {
    if (own_empty_string) strings_.push_back('\0');
  }
  uint32_t assign(Key k) { return ids_[k] = next_id_++; }
  void adopt(const std::map<Key, uint32_t>& ids) { ids_.insert(ids.begin(), ids.end()); }
  const std::map<Key, uint32_t>& ids() const { return ids_; }

  void copy(Key k, uint32_t fallback) {
    const Blob& owner = btf::owner_of(*k.first, k.second);
    Record r = owner.record(k.second);
    const uint8_t* head = r.data - btf::kRecordLen;
    size_t len = btf::kRecordLen + static_cast<size_t>(btf::data_length(r.kind, r.vlen));
    std::string rec(reinterpret_cast<const char*>(head), len);
    auto patch = [&](const uint8_t* where, uint32_t value) { std::memcpy(&rec[where - head], &value, 4); };
    btf::for_each_type_ref(r, [&](const btf::TypeRef& ref) {
      if (ref.id == 0) return;
      auto it = ids_.find({&btf::owner_of(owner, ref.id), ref.id});
      patch(ref.where, it == ids_.end() ? fallback : it->second);
    });
    btf::for_each_name(r, [&](uint32_t off, int64_t, const uint8_t* where) {
      patch(where, name(owner.string(off)));
    });
    types_ += rec;
  }
  uint32_t string_end() const { return string_base_ + static_cast<uint32_t>(strings_.size()); }

  std::string blob() const {
    btf::Header h{};
    h.magic = btf::kMagic;
    h.version = btf::kVersion;
    h.hdr_len = sizeof h;
    h.type_len = static_cast<uint32_t>(types_.size());
    h.str_off = h.type_len;
    h.str_len = static_cast<uint32_t>(strings_.size());
    return std::string(reinterpret_cast<const char*>(&h), sizeof h) + types_ + strings_;
  }

 private:
  uint32_t name(std::string_view s) {
    if (s.empty()) return 0;  // offset 0 is the empty string, in split BTF too (the base's)
    auto [it, fresh] = names_.try_emplace(std::string(s), 0);
    if (fresh) {
      it->second = string_end();
      strings_ += s;
      strings_.push_back('\0');
    }
    return it->second;
  }

  uint32_t next_id_;
  uint32_t string_base_;
  std::map<Key, uint32_t> ids_;
  std::map<std::string, uint32_t> names_;
  std::string types_, strings_;
};

// The first `cap` types reachable from `roots`, breadth first (an INT first: the fallback).
std::vector<Key> reach(const Blob& blob, std::vector<uint32_t> roots, size_t cap) {
  std::vector<Key> out;
  std::map<Key, bool> seen;
  std::deque<Key> todo;
  for (uint32_t id = 1; id < blob.end_id(); ++id)
    if (blob.record(id).kind == btf::Kind::Int) {
      roots.insert(roots.begin(), id);
      break;
    }
  for (uint32_t r : roots) todo.push_back({&btf::owner_of(blob, r), r});
  while (!todo.empty() && out.size() < cap) {
    Key k = todo.front();
    todo.pop_front();
    if (k.second == 0 || seen[k]) continue;
    seen[k] = true;
    out.push_back(k);
    btf::for_each_type_ref(k.first->record(k.second), [&](const btf::TypeRef& ref) {
      todo.push_back({&btf::owner_of(*k.first, ref.id), ref.id});
    });
  }
  return out;
}

std::string slice(const std::vector<Key>& types, Writer& w) {
  for (const Key& k : types) w.assign(k);
  for (const Key& k : types) w.copy(k, 1);
  return w.blob();
}

bool write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  return static_cast<bool>(out);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: btf-seed VMLINUX OUTDIR [MODULE_BTF]\n");
    return 2;
  }
  std::string out = argv[2];
  Result<std::unique_ptr<Blob>> vmlinux = Blob::parse(read_file(argv[1]), argv[1]);
  if (!vmlinux) {
    std::fprintf(stderr, "btf-seed: %s\n", vmlinux.error().message().c_str());
    return 1;
  }
  btf::NameIndex names(**vmlinux);
  int made = 0;
  struct Root {
    ctypes::CKind tag;
    const char* name;
    size_t cap;
  };
  for (Root root : {Root{ctypes::CKind::Struct, "list_head", 50}, Root{ctypes::CKind::Struct, "file", 150},
                    Root{ctypes::CKind::Struct, "task_struct", 250}, Root{ctypes::CKind::Function, "vfs_read", 100},
                    Root{ctypes::CKind::Enum, "bpf_cmd", 10}, Root{ctypes::CKind::Typedef, "u64", 10}}) {
    std::optional<uint32_t> id = names.find(root.tag, root.name);
    if (!id) continue;
    Writer w(1, 0, true);
    std::string seed = std::string(1, '\0') + slice(reach(**vmlinux, {*id}, root.cap), w);  // even: one blob
    made += write_file(out + "/vmlinux_" + root.name, seed);
  }
  if (argc > 3) {
    Result<std::unique_ptr<Blob>> module = Blob::parse(read_file(argv[3]), argv[3], vmlinux->get());
    if (!module) {
      std::fprintf(stderr, "btf-seed: %s\n", module.error().message().c_str());
      return 1;
    }
    const Blob& m = **module;
    std::vector<uint32_t> base_roots;
    std::vector<Key> own;
    for (uint32_t id = m.first_id(); id < m.end_id(); ++id) {
      own.push_back({&m, id});
      btf::for_each_type_ref(m.record(id), [&](const btf::TypeRef& ref) {
        if (ref.id && ref.id < m.first_id()) base_roots.push_back(ref.id);
      });
    }
    Writer base_writer(1, 0, true);
    std::vector<Key> base_types = reach(**vmlinux, base_roots, 200);
    std::string base = slice(base_types, base_writer);
    Writer module_writer(static_cast<uint32_t>(base_types.size()) + 1, base_writer.string_end(), false);
    module_writer.adopt(base_writer.ids());
    std::string split = slice(own, module_writer);
    auto len = static_cast<uint32_t>(base.size());
    std::string seed = std::string(1, '\1') + std::string(reinterpret_cast<const char*>(&len), 4) + base + split;
    made += write_file(out + "/module", seed);
  }
  std::printf("btf-seed: %d seeds in %s\n", made, out.c_str());
  return made ? 0 : 1;
}
