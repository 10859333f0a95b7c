// The BTF wire format (uapi linux/btf.h, Documentation/bpf/btf.rst), as the kernel publishes it
// in /sys/kernel/btf/*: in the host's byte order, every field 4-byte aligned.
//
//   header (hdr_len bytes, at least 24)
//   +--------+---------+-------+---------+----------+----------+---------+---------+
//   | magic  | version | flags | hdr_len | type_off | type_len | str_off | str_len |
//   | u16    | u8      | u8    | u32     | u32      | u32      | u32     | u32     |
//   +--------+---------+-------+---------+----------+----------+---------+---------+
//   type section at hdr_len + type_off, string section at hdr_len + str_off.
//
//   one type record (12 bytes, then data that depends on the kind):
//   +----------+---------------------------------------------------+-----------------+
//   | name_off | info: kind_flag(31) kind(24..28) vlen(0..15)       | size or type id |
//   +----------+---------------------------------------------------+-----------------+
//
// Type ids count records from 1 in section order; id 0 is `void`. Split BTF (a module's)
// continues the ids and string offsets of its base (vmlinux): its first type is base's last
// id + 1, and a string offset at or past the base's str_len is in the module's own section.
#pragma once
#include <cstdint>

namespace rawprobe::btf {

// The header's fields, as laid out in the blob (read with memcpy: no alignment assumed).
struct Header {
  uint16_t magic;
  uint8_t version;
  uint8_t flags;
  uint32_t hdr_len;
  uint32_t type_off;
  uint32_t type_len;
  uint32_t str_off;
  uint32_t str_len;
};

inline constexpr uint16_t kMagic = 0xeB9F;  // in the producer's byte order
inline constexpr uint8_t kVersion = 1;
inline constexpr uint32_t kMinHeaderLen = 24;
inline constexpr uint32_t kRecordLen = 12;

enum class Kind : uint8_t {
  Unknown = 0,
  Int = 1,
  Ptr = 2,
  Array = 3,
  Struct = 4,
  Union = 5,
  Enum = 6,
  Fwd = 7,
  Typedef = 8,
  Volatile = 9,
  Const = 10,
  Restrict = 11,
  Func = 12,
  FuncProto = 13,
  Var = 14,
  Datasec = 15,
  Float = 16,
  DeclTag = 17,
  TypeTag = 18,
  Enum64 = 19,
};
inline constexpr uint8_t kMaxKind = 19;

// The name bpftool prints for a kind ("STRUCT", "FUNC_PROTO").
const char* kind_name(Kind kind);

// INT's one data word: encoding(24..27) | bit offset(16..23) | nr_bits(0..7).
inline constexpr uint32_t kIntSigned = 1, kIntChar = 2, kIntBool = 4;
inline uint32_t int_encoding(uint32_t word) { return (word >> 24) & 0x0f; }
inline uint32_t int_offset(uint32_t word) { return (word >> 16) & 0xff; }
inline uint32_t int_bits(uint32_t word) { return word & 0xff; }

// A STRUCT/UNION member's offset word with kind_flag set: bitfield size(24..31) | bit offset.
inline uint32_t member_bitfield_size(uint32_t offset) { return offset >> 24; }
inline uint32_t member_bit_offset(uint32_t offset) { return offset & 0xffffff; }

// Bytes of data after the 12-byte record, per element of vlen or fixed per kind.
inline constexpr uint32_t kArrayLen = 12;     // type, index_type, nelems
inline constexpr uint32_t kMemberLen = 12;    // name_off, type, offset
inline constexpr uint32_t kEnumLen = 8;       // name_off, s32 val
inline constexpr uint32_t kEnum64Len = 12;    // name_off, val_lo32, val_hi32
inline constexpr uint32_t kParamLen = 8;      // name_off, type
inline constexpr uint32_t kVarLen = 4;        // linkage
inline constexpr uint32_t kSecinfoLen = 12;   // type, offset, size
inline constexpr uint32_t kDeclTagLen = 4;    // s32 component_idx

}  // namespace rawprobe::btf
