// libFuzzer target: the BTF reader. The first byte picks the layout: even, the rest is one
// blob (vmlinux-like); odd, the next 4 bytes (little-endian) are the length of a base blob
// and what follows it is split BTF on top of it (a module). Every type id of the blobs
// (up to a cap) is turned into a C type and spelled (FUNC, VAR, DATASEC and DECL_TAG
// give errors), and each FUNC's prototype and each
// enumerator are looked up by name, as scripts and fentry will.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "engine/btf/blob.h"
#include "engine/btf/kernel_types.h"
#include "engine/btf/materialize.h"
#include "engine/btf/name_index.h"

using namespace rawprobe;

namespace {

constexpr uint32_t kMaxIds = 4000;

void exercise(const btf::Blob& blob, const btf::Blob* base) {
  ctypes::TypeArena arena;
  btf::NameIndex own(blob);
  std::unique_ptr<btf::NameIndex> base_names = base ? std::make_unique<btf::NameIndex>(*base) : nullptr;
  btf::Materializer m(
      arena,
      [&](ctypes::CKind tag, std::string_view name, const btf::Blob&) -> std::optional<btf::TypeId> {
        if (base_names)
          if (auto id = base_names->find(tag, name)) return btf::TypeId{base, *id};
        if (auto id = own.find(tag, name)) return btf::TypeId{&blob, *id};
        return std::nullopt;
      },
      8);
  uint32_t from = base ? 1 : blob.first_id();
  for (uint32_t id = from; id < blob.end_id() && id - from < kMaxIds; ++id) {
    Result<ctypes::CTypeRef> t = m.type(blob, id);
    if (!t) continue;
    (void)ctypes::spell(*t);
    (void)ctypes::size_of(*t);
    if (ctypes::is_record(*t) && !(*t)->members.empty())
      (void)ctypes::find_member(*t, (*t)->members.back().name);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  bool split = data[0] & 1;
  std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string base_bytes, module_bytes;
  if (split) {
    if (rest.size() < 4) return 0;
    uint32_t len;
    std::memcpy(&len, rest.data(), 4);
    rest.erase(0, 4);
    if (len > rest.size()) return 0;
    base_bytes = rest.substr(0, len);
    module_bytes = rest.substr(len);
  } else {
    base_bytes = rest;
  }

  Result<std::unique_ptr<btf::Blob>> base = btf::Blob::parse(base_bytes, "base");
  if (!base) return 0;
  std::unique_ptr<btf::Blob> module;
  if (split) {
    Result<std::unique_ptr<btf::Blob>> parsed = btf::Blob::parse(module_bytes, "module", base->get());
    if (!parsed) return 0;
    module = std::move(*parsed);
  }
  exercise(module ? *module : **base, module ? base->get() : nullptr);

  // The public API over the same bytes: prototypes and enumerators by the names the blob has.
  std::vector<btf::NamedBlob> modules;
  if (split) modules.push_back({"module", module_bytes});
  Result<btf::KernelTypes> kt = btf::KernelTypes::from_blobs({"base", base_bytes}, std::move(modules));
  if (!kt) return 0;
  const btf::Blob& names = module ? *module : **base;
  for (uint32_t id = names.first_id(), n = 0; id < names.end_id() && n < kMaxIds; ++id, ++n) {
    btf::Record r = names.record(id);
    std::string name(names.string(r.name_off));
    if (r.kind == btf::Kind::Func) (void)kt->function_prototype(name);
    if (r.kind == btf::Kind::Struct) (void)kt->find(ctypes::CKind::Struct, name);
    if (r.kind == btf::Kind::Typedef) (void)kt->find(ctypes::CKind::Typedef, name);
    if ((r.kind == btf::Kind::Enum || r.kind == btf::Kind::Enum64) && r.vlen)
      (void)kt->enumerator(names.string(r.element(0, r.kind == btf::Kind::Enum ? 8 : 12, 0)));
  }
  return 0;
}
