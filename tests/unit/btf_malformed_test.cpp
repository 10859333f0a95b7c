// Malformed BTF: each case is a valid blob from tests/unit/btf_builder.h with one thing
// broken. The reader must return an Error that says what is wrong and at which type id or
// offset, never read outside the blob (the fuzz target tests/fuzz/btf_blob_fuzz.cpp covers
// what these cases do not think of).
#include <doctest/doctest.h>

#include <cstring>

#include "engine/btf/blob.h"
#include "engine/btf/kernel_types.h"
#include "tests/unit/btf_builder.h"

using namespace rawprobe;
using rawprobe::btf::testing::BtfBuilder;
using rawprobe::ctypes::CKind;

namespace {

std::string parse_error(const std::string& bytes) {
  Result<std::unique_ptr<btf::Blob>> blob = btf::Blob::parse(bytes, "test.btf");
  return blob.ok() ? std::string("parsed") : blob.error().message();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Overwrites the u32 at `offset` of the blob.
void poke(std::string& blob, size_t offset, uint32_t value) { std::memcpy(&blob[offset], &value, 4); }

BtfBuilder small_valid() {
  BtfBuilder b;
  uint32_t i = b.add_int("int", 4, BTF_INT_SIGNED);
  b.add_record(BTF_KIND_STRUCT, "s", 4, {{"x", i, 0}});
  return b;
}

}  // namespace

TEST_CASE("btf malformed: header") {
  std::string good = small_valid().blob();
  REQUIRE(parse_error(good) == "parsed");

  std::string truncated = parse_error(good.substr(0, sizeof(btf_header) - 1));
  CHECK(has(truncated, "header is truncated"));
  CHECK(has(truncated, std::to_string(sizeof(btf_header) - 1) + " bytes"));
  CHECK(has(truncated, "test.btf"));
  CHECK(has(parse_error(""), "header is truncated"));

  std::string bad_magic = good;
  bad_magic[0] = 0;
  CHECK(has(parse_error(bad_magic), "bad magic"));

  std::string swapped = good;
  std::swap(swapped[0], swapped[1]);
  CHECK(has(parse_error(swapped), "other byte order"));

  std::string version = good;
  version[offsetof(btf_header, version)] = 2;
  CHECK(has(parse_error(version), "version 2"));

  std::string hdr_len = good;
  poke(hdr_len, offsetof(btf_header, hdr_len), static_cast<uint32_t>(good.size() + 1));
  CHECK(has(parse_error(hdr_len), "header length"));
}

TEST_CASE("btf malformed: sections outside the blob") {
  BtfBuilder b = small_valid();
  std::string good = b.blob();
  std::string strings_long = good;
  poke(strings_long, offsetof(btf_header, str_len), static_cast<uint32_t>(b.strings().size() + 1));
  std::string e = parse_error(strings_long);
  CHECK(has(e, "string section"));
  CHECK(has(e, "ends past the blob's " + std::to_string(good.size()) + " bytes"));

  std::string types_long = good;
  poke(types_long, offsetof(btf_header, type_len), 0xfffffff0u);
  CHECK(has(parse_error(types_long), "type section"));

  // A string section that is not NUL-terminated (the last name runs off its end).
  std::string unterminated = good;
  unterminated.back() = 'x';
  CHECK(has(parse_error(unterminated), "does not end with a NUL"));
}

TEST_CASE("btf malformed: records") {
  SUBCASE("string offset out of range") {
    BtfBuilder b;
    b.add_int("int", 4, BTF_INT_SIGNED);
    uint32_t id = b.head(b.string_end() + 5, BTF_KIND_TYPEDEF, 0, false, 1);
    std::string e = parse_error(b.blob());
    CHECK(has(e, "[" + std::to_string(id) + "] TYPEDEF"));
    CHECK(has(e, "name offset"));
  }
  SUBCASE("member name offset out of range") {
    BtfBuilder b;
    uint32_t i = b.add_int("int", 4, BTF_INT_SIGNED);
    uint32_t id = b.head(b.str("s"), BTF_KIND_STRUCT, 1, false, 4);
    b.word(b.string_end() + 100);
    b.word(i);
    b.word(0);
    std::string e = parse_error(b.blob());
    CHECK(has(e, "[" + std::to_string(id) + "] STRUCT 's'"));
    CHECK(has(e, "name of element 0"));
  }
  SUBCASE("type id out of range") {
    BtfBuilder b;
    uint32_t i = b.add_int("int", 4, BTF_INT_SIGNED);
    uint32_t bad = b.last_id() + 7;
    uint32_t id = b.add_record(BTF_KIND_STRUCT, "s", 8, {{"x", i, 0}, {"y", bad, 32}});
    std::string e = parse_error(b.blob());
    CHECK(has(e, "[" + std::to_string(id) + "] STRUCT 's'"));
    CHECK(has(e, "member 1 refers to type id " + std::to_string(bad)));
    CHECK(has(e, "past the last id " + std::to_string(id)));
  }
  SUBCASE("a record cut off by the end of the type section") {
    BtfBuilder b = small_valid();
    std::string blob = b.blob();
    // Shorten the type section by one word: the struct's member runs past it.
    poke(blob, offsetof(btf_header, type_len), static_cast<uint32_t>(b.types().size() - 4));
    std::string e = parse_error(blob);
    CHECK(has(e, "type [" + std::to_string(b.last_id()) + "] STRUCT runs past the type section"));
  }
  SUBCASE("a partial record head") {
    BtfBuilder b = small_valid();
    std::string blob = b.blob();
    std::string types = b.types() + std::string(8, '\0');
    std::string grown = blob.substr(0, sizeof(btf_header)) + types + b.strings();
    poke(grown, offsetof(btf_header, type_len), static_cast<uint32_t>(types.size()));
    poke(grown, offsetof(btf_header, str_off), static_cast<uint32_t>(types.size()));
    std::string e = parse_error(grown);
    CHECK(has(e, "type [" + std::to_string(b.last_id() + 1) + "] is truncated"));
    CHECK(has(e, "8 bytes left"));
  }
  SUBCASE("unknown kind") {
    BtfBuilder b;
    uint32_t id = b.head(0, 25, 0, false, 0);
    std::string e = parse_error(b.blob());
    CHECK(has(e, "type [" + std::to_string(id) + "] has unknown kind 25"));
  }
  SUBCASE("integer wider than its size") {
    BtfBuilder b;
    uint32_t id = b.add_int("int", 4, BTF_INT_SIGNED, 30, 8);
    std::string e = parse_error(b.blob());
    CHECK(has(e, "[" + std::to_string(id) + "] INT 'int'"));
    CHECK(has(e, "integer bits 8+30"));
  }
}

TEST_CASE("btf malformed: a type loop is an error, and the reader stays usable") {
  BtfBuilder b;
  uint32_t i = b.add_int("int", 4, BTF_INT_SIGNED);
  uint32_t a = b.last_id() + 1, c = b.last_id() + 2;
  b.add_ref(BTF_KIND_TYPEDEF, c, "loop_a");  // id a
  b.add_ref(BTF_KIND_CONST, a);              // id c: const loop_a
  uint32_t self_ptr = b.last_id() + 1;
  b.add_ref(BTF_KIND_PTR, self_ptr);
  b.add_record(BTF_KIND_STRUCT, "holds_loop", 8, {{"ok", i, 0}, {"bad", a, 32}});
  b.add_record(BTF_KIND_STRUCT, "good", 4, {{"x", i, 0}});
  b.add_ref(BTF_KIND_TYPEDEF, self_ptr, "self_ptr_t");
  Result<btf::KernelTypes> kt = btf::KernelTypes::from_blobs({"loops", b.blob()}, {});
  REQUIRE(kt.ok());

  Result<ctypes::CTypeRef> loop = kt->lookup(CKind::Typedef, "loop_a");
  REQUIRE_FALSE(loop.ok());
  CHECK(has(loop.error().message(), "type loop"));
  CHECK(has(loop.error().message(), "[" + std::to_string(a) + "] TYPEDEF 'loop_a'"));

  Result<ctypes::CTypeRef> holder = kt->lookup(CKind::Struct, "holds_loop");
  REQUIRE_FALSE(holder.ok());
  CHECK(has(holder.error().message(), "type loop"));
  CHECK(kt->find(CKind::Struct, "holds_loop") == nullptr);

  Result<ctypes::CTypeRef> ptr = kt->lookup(CKind::Typedef, "self_ptr_t");
  REQUIRE_FALSE(ptr.ok());
  CHECK(has(ptr.error().message(), "[" + std::to_string(self_ptr) + "] PTR"));

  ctypes::CTypeRef good = kt->find(CKind::Struct, "good");
  REQUIRE(good);
  CHECK(good->members.at(0).type->name == "int");
}

TEST_CASE("btf malformed: a struct that holds itself by value") {
  BtfBuilder b;
  uint32_t i = b.add_int("int", 4, BTF_INT_SIGNED);
  uint32_t a = b.last_id() + 1, inner = b.last_id() + 2;
  b.add_record(BTF_KIND_STRUCT, "outer_a", 8, {{"x", i, 0}, {"b", inner, 32}});  // id a
  uint32_t arr = b.last_id() + 2;
  b.add_record(BTF_KIND_STRUCT, "inner_b", 4, {{"", arr, 0}});                  // id inner
  b.add_array(a, i, 1);                                                         // id arr
  b.add_record(BTF_KIND_STRUCT, "self", 4, {{"", b.last_id() + 1, 0}});
  b.add_record(BTF_KIND_STRUCT, "fine", 4, {{"x", i, 0}});
  Result<btf::KernelTypes> kt = btf::KernelTypes::from_blobs({"cycles", b.blob()}, {});
  REQUIRE(kt.ok());
  for (const char* name : {"outer_a", "inner_b", "self"}) {
    CAPTURE(name);
    Result<ctypes::CTypeRef> t = kt->lookup(CKind::Struct, name);
    REQUIRE_FALSE(t.ok());
    CHECK(has(t.error().message(), "contains itself by value"));
  }
  CHECK(kt->find(CKind::Struct, "fine"));
}
