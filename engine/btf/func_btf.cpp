#include "engine/btf/func_btf.h"

#include <cstring>

#include "engine/btf/format.h"

namespace rawprobe::btf {

namespace {

class Writer {
 public:
  uint32_t string(const std::string& s) {
    uint32_t off = static_cast<uint32_t>(strings_.size());
    strings_.insert(strings_.end(), s.begin(), s.end());
    strings_.push_back('\0');
    return off;
  }
  void word(uint32_t w) {
    uint8_t b[4];
    std::memcpy(b, &w, 4);
    types_.insert(types_.end(), b, b + 4);
  }
  // A type record; returns its id.
  uint32_t record(uint32_t name_off, Kind kind, uint32_t vlen, uint32_t size_or_type) {
    word(name_off);
    word(static_cast<uint32_t>(kind) << 24 | vlen);
    word(size_or_type);
    return ++count_;
  }
  std::vector<uint8_t> finish() const {
    Header h{kMagic, kVersion, 0, kMinHeaderLen, 0, static_cast<uint32_t>(types_.size()),
             static_cast<uint32_t>(types_.size()), static_cast<uint32_t>(strings_.size())};
    std::vector<uint8_t> out(kMinHeaderLen);
    std::memcpy(out.data(), &h, kMinHeaderLen);
    out.insert(out.end(), types_.begin(), types_.end());
    out.insert(out.end(), strings_.begin(), strings_.end());
    return out;
  }

 private:
  std::vector<uint8_t> types_;
  std::vector<uint8_t> strings_ = {0};  // offset 0: the empty name
  uint32_t count_ = 0;
};

constexpr uint32_t kStaticLinkage = 0;  // BTF_FUNC_STATIC

}  // namespace

FunctionsBtf functions_btf(const std::vector<FunctionDecl>& functions) {
  static_assert(sizeof(Header) == kMinHeaderLen);
  Writer w;
  FunctionsBtf out;
  uint32_t long_id = w.record(w.string("long"), Kind::Int, 0, 8);
  w.word(kIntSigned << 24 | 64);
  uint32_t param_name = w.string("arg");
  for (const FunctionDecl& f : functions) {
    uint32_t proto = w.record(0, Kind::FuncProto, f.params, long_id);
    for (uint32_t i = 0; i < f.params; ++i) {
      w.word(param_name);
      w.word(long_id);
    }
    out.func_ids.push_back(w.record(w.string(f.name), Kind::Func, kStaticLinkage, proto));
  }
  out.blob = w.finish();
  return out;
}

}  // namespace rawprobe::btf
