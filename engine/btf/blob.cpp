#include "engine/btf/blob.h"

#include <cstring>
#include <optional>

namespace rawprobe::btf {

namespace {

static_assert(sizeof(Header) == kMinHeaderLen);

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

bool valid_int_size(uint32_t size) {
  return size == 1 || size == 2 || size == 4 || size == 8 || size == 16;
}

}  // namespace

Result<std::unique_ptr<Blob>> Blob::parse(Bytes bytes, std::string origin, const Blob* base) {
  std::unique_ptr<Blob> blob(new Blob);
  blob->bytes_ = std::move(bytes);
  blob->origin_ = std::move(origin);
  blob->base_ = base;
  std::string_view b = blob->bytes_.view();
  auto fail = [&](std::string what, std::string hint = {}) {
    return make_error("read BTF: " + what, blob->origin_, std::move(hint));
  };
  Header h;
  if (b.size() < sizeof h)
    return fail("the header is truncated: the blob has " + std::to_string(b.size()) +
                " bytes, a BTF header " + std::to_string(kMinHeaderLen));
  std::memcpy(&h, b.data(), sizeof h);
  if (h.magic == __builtin_bswap16(kMagic))
    return fail("the blob is BTF of the other byte order", "read BTF made for this machine");
  if (h.magic != kMagic)
    return fail("bad magic " + hex(h.magic) + " (BTF starts with " + hex(kMagic) + ")",
                "give a file from /sys/kernel/btf or a .BTF section");
  if (h.version != kVersion)
    return fail("unsupported BTF version " + std::to_string(h.version) + " (known: 1)");
  if (h.hdr_len < kMinHeaderLen || h.hdr_len > b.size())
    return fail("header length " + std::to_string(h.hdr_len) + " is outside 24.." +
                std::to_string(b.size()));
  auto section = [&](const char* name, uint32_t off, uint32_t len) -> Status {
    uint64_t end = uint64_t{h.hdr_len} + off + len;
    if (end > b.size())
      return fail(std::string(name) + " section [" + hex(uint64_t{h.hdr_len} + off) + ", " +
                  hex(end) + ") ends past the blob's " + std::to_string(b.size()) + " bytes");
    return {};
  };
  if (Status s = section("type", h.type_off, h.type_len); !s) return s.error();
  if (Status s = section("string", h.str_off, h.str_len); !s) return s.error();
  if (h.type_off % 4 != 0) return fail("type section offset " + hex(h.type_off) + " is not 4-byte aligned");

  blob->types_start_ = h.hdr_len + h.type_off;
  blob->types_len_ = h.type_len;
  blob->strings_ = std::string_view(b).substr(h.hdr_len + h.str_off, h.str_len);
  if (base) {
    blob->first_id_ = base->end_id();
    blob->strings_base_ = base->string_end();
  } else if (blob->strings_.empty() || blob->strings_[0] != '\0') {
    return fail("the string section must start with an empty string");
  }
  if (!blob->strings_.empty() && blob->strings_.back() != '\0')
    return fail("the string section does not end with a NUL byte");
  if (uint64_t{blob->strings_base_} + h.str_len > UINT32_MAX)
    return fail("string offsets exceed 32 bits");

  if (Status s = blob->index_types(); !s) return s.error();
  for (uint32_t id = blob->first_id_; id < blob->end_id(); ++id)
    if (Status s = blob->check_record(blob->own_record(id)); !s) return s.error();
  return blob;
}

Status Blob::index_types() {
  const auto* types = reinterpret_cast<const uint8_t*>(bytes_.view().data()) + types_start_;
  uint32_t pos = 0;
  while (pos < types_len_) {
    uint32_t id = end_id();
    if (types_len_ - pos < kRecordLen)
      return make_error("read BTF: type [" + std::to_string(id) + "] is truncated",
                        origin_ + " at byte " + hex(pos) + " of the type section: " +
                            std::to_string(types_len_ - pos) + " bytes left, a record needs 12");
    uint32_t info;
    std::memcpy(&info, types + pos + 4, 4);
    auto kind = static_cast<Kind>((info >> 24) & 0x1f);
    int64_t len = data_length(kind, static_cast<uint16_t>(info & 0xffff));
    if (len < 0)
      return make_error("read BTF: type [" + std::to_string(id) + "] has unknown kind " +
                            std::to_string((info >> 24) & 0x1f),
                        origin_ + " at byte " + hex(pos) + " of the type section",
                        "this reader knows BTF kinds 1..19 (Linux 6.0)");
    if (kRecordLen + len > types_len_ - pos)
      return make_error("read BTF: type [" + std::to_string(id) + "] " + kind_name(kind) +
                            " runs past the type section",
                        origin_ + " at byte " + hex(pos) + ": needs " + std::to_string(kRecordLen + len) +
                            " bytes, " + std::to_string(types_len_ - pos) + " left");
    if (end_id() == UINT32_MAX) return make_error("read BTF: too many types", origin_);
    offsets_.push_back(pos);
    pos += kRecordLen + static_cast<uint32_t>(len);
  }
  return {};
}

Record Blob::record(uint32_t id) const {
  const Blob* b = this;
  while (id < b->first_id_ && b->base_) b = b->base_;
  return b->own_record(id);
}

Record Blob::own_record(uint32_t id) const {
  uint32_t off = offsets_[id - first_id_];
  const auto* head = reinterpret_cast<const uint8_t*>(bytes_.view().data()) + types_start_ + off;
  uint32_t words[3];
  std::memcpy(words, head, sizeof words);
  Record r;
  r.id = id;
  r.name_off = words[0];
  r.kind = static_cast<Kind>((words[1] >> 24) & 0x1f);
  r.kind_flag = (words[1] >> 31) != 0;
  r.vlen = static_cast<uint16_t>(words[1] & 0xffff);
  r.size_or_type = words[2];
  r.data = head + kRecordLen;
  r.byte_offset = off;
  return r;
}

std::string_view Blob::string(uint32_t offset) const {
  const Blob* b = this;
  while (offset < b->strings_base_ && b->base_) b = b->base_;
  uint32_t rel = offset - b->strings_base_;
  if (rel >= b->strings_.size()) return {};
  return std::string_view(b->strings_.data() + rel);  // the section ends with NUL (checked)
}

std::string Blob::describe(uint32_t id) const {
  if (id == 0) return "[0] void";
  if (id >= end_id()) return "[" + std::to_string(id) + "]";
  Record r = record(id);
  std::string name = r.name_off < string_end() ? std::string(string(r.name_off)) : "?";
  return "[" + std::to_string(id) + "] " + kind_name(r.kind) + " '" +
         (name.empty() ? "(anon)" : name) + "'";
}

Error Blob::error_at(uint32_t id, std::string what) const {
  Record r = record(id);
  return make_error("read BTF: " + describe(id) + ": " + what,
                    origin_ + " at byte " + hex(r.byte_offset) + " of the type section");
}

Status Blob::check_record(const Record& r) const {
  // The visitors only note the first bad field, so they inline; the message is built after
  // (this loop runs over every record of vmlinux at each start).
  const uint32_t strings_end = string_end(), ids_end = end_id();
  int64_t bad_name = -2;
  uint32_t bad_offset = 0;
  for_each_name(r, [&](uint32_t off, int64_t index, const uint8_t*) {
    if (off >= strings_end && bad_name == -2) bad_name = index, bad_offset = off;
  });
  if (bad_name != -2)
    return error_at(r.id, (bad_name < 0 ? std::string("name") : "name of element " + std::to_string(bad_name)) +
                              " offset " + hex(bad_offset) + " is past the strings (" + hex(strings_end) + ")");
  std::optional<TypeRef> bad_ref;
  for_each_type_ref(r, [&](const TypeRef& ref) {
    if (ref.id >= ids_end && !bad_ref) bad_ref = ref;
  });
  if (bad_ref)
    return error_at(r.id, std::string(bad_ref->field) +
                              (bad_ref->index < 0 ? "" : " " + std::to_string(bad_ref->index)) +
                              " refers to type id " + std::to_string(bad_ref->id) + ", past the last id " +
                              std::to_string(ids_end - 1));
  switch (r.kind) {
    case Kind::Int: {
      uint32_t w = r.word(0);
      if (!valid_int_size(r.size_or_type))
        return error_at(r.id, "integer size " + std::to_string(r.size_or_type) + " is not 1, 2, 4, 8 or 16");
      if (int_bits(w) == 0 || int_offset(w) + int_bits(w) > r.size_or_type * 8)
        return error_at(r.id, "integer bits " + std::to_string(int_offset(w)) + "+" +
                                  std::to_string(int_bits(w)) + " do not fit its " +
                                  std::to_string(r.size_or_type) + " bytes");
      break;
    }
    case Kind::Enum:
    case Kind::Enum64:
      if (r.size_or_type != 1 && r.size_or_type != 2 && r.size_or_type != 4 && r.size_or_type != 8)
        return error_at(r.id, "enum size " + std::to_string(r.size_or_type) + " is not 1, 2, 4 or 8");
      break;
    case Kind::Array:
      if (r.word(0) == 0) return error_at(r.id, "array of void");
      break;
    default: break;
  }
  return {};
}

}  // namespace rawprobe::btf
