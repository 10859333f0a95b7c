// One BTF blob (vmlinux's, a module's, or a test's), checked once when parsed and then read in
// place. Parsing walks the type section once to build the id -> record table and checks every
// record: its kind, that its data fits the section, that each type id it names exists and
// each string offset lies inside a string section. After that, record() and string() cannot
// read outside the blob. Whether the types make sense together (a typedef that loops back to
// itself) is checked when they are turned into C types (materialize.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/result.h"
#include "engine/btf/bytes.h"
#include "engine/btf/record.h"

namespace rawprobe::btf {

class Blob {
 public:
  // `origin` names the blob in errors ("vmlinux", "/sys/kernel/btf/ext4"). With a `base`, the
  // blob is split BTF on top of it (which must outlive it).
  static Result<std::unique_ptr<Blob>> parse(Bytes bytes, std::string origin,
                                             const Blob* base = nullptr);

  const std::string& origin() const { return origin_; }
  const Blob* base() const { return base_; }
  // This blob's own ids are [first_id(), end_id()); ids below first_id() are its base's.
  uint32_t first_id() const { return first_id_; }
  uint32_t end_id() const { return first_id_ + static_cast<uint32_t>(offsets_.size()); }
  bool owns(uint32_t id) const { return id >= first_id_ && id < end_id(); }

  // The record of any id in [1, end_id()), this blob's or its base's.
  Record record(uint32_t id) const;
  // The string at a name offset of any record of this blob or its base ("" for offset 0).
  std::string_view string(uint32_t offset) const;
  // "[123] STRUCT 'task_struct'": how errors name a type.
  std::string describe(uint32_t id) const;

  // The raw bytes, and where the type section lies in them (the seed maker rewrites it).
  std::string_view bytes() const { return bytes_.view(); }
  uint32_t type_section_start() const { return types_start_; }
  // Total length of the string offsets this blob and its base use.
  uint32_t string_end() const { return strings_base_ + static_cast<uint32_t>(strings_.size()); }

 private:
  Blob() = default;
  Status index_types();
  Record own_record(uint32_t id) const;  // id in [first_id_, end_id())
  Status check_record(const Record& r) const;
  Error error_at(uint32_t id, std::string what) const;

  Bytes bytes_;
  std::string origin_;
  const Blob* base_ = nullptr;
  uint32_t first_id_ = 1;
  uint32_t types_start_ = 0;       // offset of the type section in bytes_
  uint32_t types_len_ = 0;
  std::string_view strings_;       // this blob's string section
  uint32_t strings_base_ = 0;      // string offset of strings_[0]: the base's str_len, or 0
  std::vector<uint32_t> offsets_;  // per own id: its record's offset in the type section
};

}  // namespace rawprobe::btf
