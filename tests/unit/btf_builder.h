// A tiny BTF writer for the BTF reader's unit tests. Records are laid out with uapi
// linux/btf.h's structs and constants (not the reader's own format.h), so the reader is
// checked against the kernel's definition of the format. Each add_* returns the new type's id;
// the tests derive what they expect from what they added.
#pragma once
#include <linux/btf.h>

#include <cstring>
#include <string>
#include <vector>

namespace rawprobe::btf::testing {

class BtfBuilder {
 public:
  // For split BTF, the base's type count (its last id) and string section length.
  explicit BtfBuilder(uint32_t base_last_id = 0, uint32_t base_str_len = 0)
      : next_id_(base_last_id + 1), base_str_len_(base_str_len) {
    if (base_str_len == 0) strings_.push_back('\0');
  }

  uint32_t str(const std::string& s) {
    if (s.empty()) return 0;
    uint32_t off = base_str_len_ + static_cast<uint32_t>(strings_.size());
    strings_ += s;
    strings_.push_back('\0');
    return off;
  }

  // The raw head of a record; data words follow with word().
  uint32_t head(uint32_t name_off, uint32_t kind, uint32_t vlen, bool kflag, uint32_t size_or_type) {
    btf_type t{};
    t.name_off = name_off;
    t.info = (kflag ? 1u << 31 : 0u) | (kind << 24) | (vlen & 0xffff);
    t.size = size_or_type;
    append(&t, sizeof t);
    return next_id_++;
  }
  void word(uint32_t w) { append(&w, 4); }

  uint32_t add_int(const std::string& name, uint32_t size, uint32_t encoding, uint32_t bits = 0,
                   uint32_t offset = 0) {
    uint32_t id = head(str(name), BTF_KIND_INT, 0, false, size);
    word((encoding << 24) | (offset << 16) | (bits ? bits : size * 8));
    return id;
  }
  uint32_t add_float(const std::string& name, uint32_t size) {
    return head(str(name), BTF_KIND_FLOAT, 0, false, size);
  }
  uint32_t add_ref(uint32_t kind, uint32_t type, const std::string& name = {}) {
    return head(str(name), kind, 0, false, type);
  }
  uint32_t add_array(uint32_t element, uint32_t index_type, uint32_t nelems) {
    uint32_t id = head(0, BTF_KIND_ARRAY, 0, false, 0);
    btf_array a{element, index_type, nelems};
    append(&a, sizeof a);
    return id;
  }
  struct Member {
    std::string name;
    uint32_t type;
    uint32_t bit_offset;
    uint32_t bitfield_size = 0;  // written into the offset word only with kind_flag
  };
  uint32_t add_record(uint32_t kind, const std::string& name, uint32_t size,
                      const std::vector<Member>& members, bool kflag = false) {
    uint32_t id = head(str(name), kind, static_cast<uint32_t>(members.size()), kflag, size);
    for (const Member& m : members) {
      btf_member bm{str(m.name), m.type, kflag ? (m.bitfield_size << 24) | m.bit_offset : m.bit_offset};
      append(&bm, sizeof bm);
    }
    return id;
  }
  struct Value {
    std::string name;
    int64_t value;
  };
  uint32_t add_enum(const std::string& name, uint32_t size, bool is_signed, const std::vector<Value>& values) {
    uint32_t id = head(str(name), BTF_KIND_ENUM, static_cast<uint32_t>(values.size()), is_signed, size);
    for (const Value& v : values) {
      btf_enum e{str(v.name), static_cast<__s32>(v.value)};
      append(&e, sizeof e);
    }
    return id;
  }
  uint32_t add_enum64(const std::string& name, uint32_t size, bool is_signed, const std::vector<Value>& values) {
    uint32_t id = head(str(name), BTF_KIND_ENUM64, static_cast<uint32_t>(values.size()), is_signed, size);
    for (const Value& v : values) {
      auto u = static_cast<uint64_t>(v.value);
      btf_enum64 e{str(v.name), static_cast<__u32>(u), static_cast<__u32>(u >> 32)};
      append(&e, sizeof e);
    }
    return id;
  }
  uint32_t add_fwd(const std::string& name, bool is_union) {
    return head(str(name), BTF_KIND_FWD, 0, is_union, 0);
  }
  struct Param {
    std::string name;
    uint32_t type;
  };
  uint32_t add_proto(uint32_t ret, const std::vector<Param>& params) {
    uint32_t id = head(0, BTF_KIND_FUNC_PROTO, static_cast<uint32_t>(params.size()), false, ret);
    for (const Param& p : params) {
      btf_param bp{str(p.name), p.type};
      append(&bp, sizeof bp);
    }
    return id;
  }
  uint32_t add_func(const std::string& name, uint32_t proto, uint32_t linkage = BTF_FUNC_GLOBAL) {
    return head(str(name), BTF_KIND_FUNC, linkage, false, proto);
  }
  uint32_t add_var(const std::string& name, uint32_t type) {
    uint32_t id = head(str(name), BTF_KIND_VAR, 0, false, type);
    btf_var v{BTF_VAR_GLOBAL_ALLOCATED};
    append(&v, sizeof v);
    return id;
  }
  uint32_t add_datasec(const std::string& name, const std::vector<btf_var_secinfo>& vars, uint32_t size) {
    uint32_t id = head(str(name), BTF_KIND_DATASEC, static_cast<uint32_t>(vars.size()), false, size);
    for (const btf_var_secinfo& v : vars) append(&v, sizeof v);
    return id;
  }
  uint32_t add_decl_tag(const std::string& value, uint32_t type, int32_t component) {
    uint32_t id = head(str(value), BTF_KIND_DECL_TAG, 0, false, type);
    btf_decl_tag d{component};
    append(&d, sizeof d);
    return id;
  }

  uint32_t last_id() const { return next_id_ - 1; }
  uint32_t string_end() const { return base_str_len_ + static_cast<uint32_t>(strings_.size()); }
  const std::string& types() const { return types_; }
  const std::string& strings() const { return strings_; }

  // Header, type section, string section, in that order.
  std::string blob() const {
    btf_header h{};
    h.magic = BTF_MAGIC;
    h.version = BTF_VERSION;
    h.hdr_len = sizeof h;
    h.type_off = 0;
    h.type_len = static_cast<uint32_t>(types_.size());
    h.str_off = h.type_len;
    h.str_len = static_cast<uint32_t>(strings_.size());
    return std::string(reinterpret_cast<const char*>(&h), sizeof h) + types_ + strings_;
  }

 private:
  void append(const void* p, size_t n) { types_.append(static_cast<const char*>(p), n); }

  uint32_t next_id_;
  uint32_t base_str_len_;
  std::string types_;
  std::string strings_;
};

}  // namespace rawprobe::btf::testing
