// The BTF reader on blobs written by tests/unit/btf_builder.h: every kind, and what each
// becomes as a C type. Expected values come from the builder's inputs.
#include <doctest/doctest.h>

#include "engine/btf/blob.h"
#include "engine/btf/kernel_types.h"
#include "tests/unit/btf_builder.h"

using namespace rawprobe;
using rawprobe::btf::testing::BtfBuilder;
using rawprobe::ctypes::CKind;
using rawprobe::ctypes::CTypeRef;

namespace {

btf::KernelTypes open_blob(const BtfBuilder& b) {
  Result<btf::KernelTypes> kt = btf::KernelTypes::from_blobs({"test", b.blob()}, {});
  REQUIRE_MESSAGE(kt.ok(), (kt.ok() ? "" : kt.error().message()));
  return std::move(*kt);
}

void check_members(CTypeRef record, const std::vector<BtfBuilder::Member>& written,
                   const std::vector<CTypeRef>& types) {
  REQUIRE(record->members.size() == written.size());
  for (size_t i = 0; i < written.size(); ++i) {
    CAPTURE(i);
    CHECK(record->members[i].name == written[i].name);
    CHECK(record->members[i].bit_offset == written[i].bit_offset);
    CHECK(record->members[i].bit_size == written[i].bitfield_size);
    CHECK(record->members[i].type == types[i]);
  }
}

}  // namespace

TEST_CASE("btf: integers, floats, pointers, arrays and typedefs become C types") {
  BtfBuilder b;
  uint32_t i32 = b.add_int("int", 4, BTF_INT_SIGNED);
  uint32_t u8 = b.add_int("unsigned char", 1, 0);
  uint32_t boolean = b.add_int("_Bool", 1, BTF_INT_BOOL);
  uint32_t dbl = b.add_float("double", 8);
  uint32_t cst = b.add_ref(BTF_KIND_CONST, u8);
  uint32_t ptr = b.add_ref(BTF_KIND_PTR, cst);
  uint32_t tagged = b.add_ref(BTF_KIND_TYPE_TAG, ptr, "user");
  uint32_t arr = b.add_array(u8, i32, 16);
  uint32_t vol = b.add_ref(BTF_KIND_VOLATILE, arr);
  uint32_t u8_t = b.add_ref(BTF_KIND_TYPEDEF, u8, "u8");
  uint32_t alias = b.add_ref(BTF_KIND_TYPEDEF, u8_t, "my_u8");
  uint32_t restricted = b.add_ref(BTF_KIND_RESTRICT, ptr);
  std::vector<BtfBuilder::Member> members = {{"count", i32, 0},     {"flag", boolean, 32},
                                             {"ratio", dbl, 64},    {"name", tagged, 128},
                                             {"buf", vol, 192},     {"small", alias, 320},
                                             {"other", restricted, 384}};
  b.add_record(BTF_KIND_STRUCT, "all", 56, members);
  btf::KernelTypes kt = open_blob(b);

  CTypeRef all = kt.find(CKind::Struct, "all");
  REQUIRE(all);
  CHECK(all->kind == CKind::Struct);
  CHECK(all->size == 56);
  const auto& m = all->members;
  REQUIRE(m.size() == members.size());
  CHECK(m[0].type->kind == CKind::Int);
  CHECK(m[0].type->is_signed);
  CHECK(m[0].type->size == 4);
  CHECK(m[0].type->name == "int");
  CHECK(m[1].type->name == "_Bool");
  CHECK_FALSE(m[1].type->is_signed);
  CHECK(m[2].type->kind == CKind::Float);
  CHECK(m[2].type->size == 8);
  // const and the type tag are dropped: a plain pointer to the unsigned char
  CHECK(m[3].type->kind == CKind::Pointer);
  CHECK(m[3].type->size == sizeof(void*));
  CTypeRef uchar = m[3].type->target;
  CHECK(uchar->kind == CKind::Int);
  CHECK(uchar->name == "unsigned char");
  CHECK_FALSE(uchar->is_signed);
  // volatile dropped; 16 elements of the same unsigned char
  CHECK(m[4].type->kind == CKind::Array);
  CHECK(m[4].type->count == 16);
  CHECK(m[4].type->size == 16);
  CHECK(m[4].type->target == uchar);
  CHECK(ctypes::spell(m[4].type) == "unsigned char[16]");
  // typedef chain kept
  CHECK(m[5].type->kind == CKind::Typedef);
  CHECK(m[5].type->name == "my_u8");
  CHECK(m[5].type->target->name == "u8");
  CHECK(ctypes::strip_typedefs(m[5].type) == uchar);
  // restrict dropped: the same pointer as through const + type tag
  CHECK(m[6].type == m[3].type);
  for (size_t i = 0; i < members.size(); ++i) {
    CHECK(m[i].name == members[i].name);
    CHECK(m[i].bit_offset == members[i].bit_offset);
    CHECK(m[i].bit_size == 0);
  }
  CHECK(kt.find(CKind::Typedef, "my_u8") == m[5].type);
  CHECK(kt.find(CKind::Struct, "my_u8") == nullptr);
}

TEST_CASE("btf: bitfields in both encodings, unions and anonymous members") {
  BtfBuilder b;
  uint32_t u32 = b.add_int("unsigned int", 4, 0);
  // kind_flag: width in the member's offset word
  std::vector<BtfBuilder::Member> flagged = {{"a", u32, 0, 3}, {"b", u32, 3, 5}, {"c", u32, 32, 0}};
  b.add_record(BTF_KIND_STRUCT, "flagged", 8, flagged, true);
  // no kind_flag: width (and an extra bit offset) in an INT type of its own
  uint32_t bits7 = b.add_int("unsigned int", 4, 0, 7, 2);
  uint32_t cbits7 = b.add_ref(BTF_KIND_CONST, bits7);
  b.add_record(BTF_KIND_STRUCT, "old_style", 4, {{"x", cbits7, 8}, {"y", u32, 0}});
  uint32_t inner = b.add_record(BTF_KIND_UNION, "", 4, {{"i", u32, 0}, {"j", u32, 0}});
  b.add_record(BTF_KIND_STRUCT, "outer", 8, {{"first", u32, 0}, {"", inner, 32}});
  btf::KernelTypes kt = open_blob(b);

  CTypeRef f = kt.find(CKind::Struct, "flagged");
  REQUIRE(f);
  CTypeRef uint = f->members[0].type;
  check_members(f, flagged, {uint, uint, uint});

  CTypeRef o = kt.find(CKind::Struct, "old_style");
  REQUIRE(o);
  REQUIRE(o->members.size() == 2);
  CHECK(o->members[0].bit_offset == 8 + 2);
  CHECK(o->members[0].bit_size == 7);
  CHECK(o->members[1].bit_size == 0);

  CTypeRef outer = kt.find(CKind::Struct, "outer");
  REQUIRE(outer);
  CHECK(outer->members[1].type->kind == CKind::Union);
  CHECK(outer->members[1].type->name.empty());
  std::optional<ctypes::CMember> j = ctypes::find_member(outer, "j");
  REQUIRE(j);
  CHECK(j->bit_offset == 32);
}

TEST_CASE("btf: enums of every width and signedness, and enumerators by name") {
  BtfBuilder b;
  std::vector<BtfBuilder::Value> small = {{"S_A", -1}, {"S_B", 7}};
  std::vector<BtfBuilder::Value> unsign = {{"U_TOP", 0xfffffff0}};
  std::vector<BtfBuilder::Value> wide = {{"W_BIG", 0x123456789abcdefLL}, {"W_NEG", -5}};
  b.add_enum("small", 1, true, small);
  b.add_enum("unsign", 4, false, unsign);
  b.add_enum64("wide", 8, true, wide);
  btf::KernelTypes kt = open_blob(b);

  CTypeRef s = kt.find(CKind::Enum, "small");
  REQUIRE(s);
  CHECK(s->size == 1);
  CHECK(s->is_signed);
  REQUIRE(s->enumerators.size() == 2);
  CHECK(s->enumerators[0].value == small[0].value);
  CHECK(s->enumerators[1].name == small[1].name);
  CTypeRef u = kt.find(CKind::Enum, "unsign");
  REQUIRE(u);
  CHECK_FALSE(u->is_signed);
  CHECK(u->enumerators[0].value == unsign[0].value);  // zero-extended, not negative
  CTypeRef w = kt.find(CKind::Enum, "wide");
  REQUIRE(w);
  CHECK(w->enumerators[0].value == wide[0].value);
  CHECK(w->enumerators[1].value == wide[1].value);

  Result<btf::Enumerator> e = kt.enumerator("W_NEG");
  REQUIRE(e.ok());
  CHECK(e->value == wide[1].value);
  CHECK(e->type == w);
  Result<btf::Enumerator> none = kt.enumerator("NOPE");
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().message().find("NOPE") != std::string::npos);
}

TEST_CASE("btf: forward declarations, self-reference, prototypes and the kinds that are not types") {
  BtfBuilder b;
  uint32_t i32 = b.add_int("int", 4, BTF_INT_SIGNED);
  uint32_t fwd = b.add_fwd("node", false);
  uint32_t fwd_ptr = b.add_ref(BTF_KIND_PTR, fwd);
  uint32_t opaque = b.add_fwd("opaque", true);
  uint32_t opaque_ptr = b.add_ref(BTF_KIND_PTR, opaque);
  uint32_t node = b.add_record(BTF_KIND_STRUCT, "node", 24,
                               {{"next", fwd_ptr, 0}, {"value", i32, 64}, {"o", opaque_ptr, 128}});
  uint32_t node_ptr = b.add_ref(BTF_KIND_PTR, node);
  std::vector<BtfBuilder::Param> params = {{"head", node_ptr}, {"limit", i32}};
  uint32_t proto = b.add_proto(i32, params);
  uint32_t walk_id = b.add_func("walk", proto);
  uint32_t vproto = b.add_proto(0, {{"fmt", fwd_ptr}, {"", 0}});
  b.add_func("log", vproto, BTF_FUNC_STATIC);
  uint32_t var = b.add_var("counter", i32);
  b.add_datasec(".data", {{var, 0, 4}}, 4);
  b.add_decl_tag("tag", node, 1);
  btf::KernelTypes kt = open_blob(b);

  CTypeRef n = kt.find(CKind::Struct, "node");
  REQUIRE(n);
  // The forward declaration resolves to the definition itself: the list points at itself.
  CHECK(n->members[0].type->target == n);
  CHECK(n->members[2].type->target->kind == CKind::Forward);
  CHECK(n->members[2].type->target->tag_kind == CKind::Union);
  CHECK(ctypes::spell(n->members[2].type) == "union opaque *");

  Result<CTypeRef> walk = kt.function_prototype("walk");
  REQUIRE_MESSAGE(walk.ok(), (walk.ok() ? "" : walk.error().message()));
  CHECK((*walk)->kind == CKind::Function);
  CHECK((*walk)->target->name == "int");
  REQUIRE((*walk)->params.size() == params.size());
  CHECK((*walk)->params[0].name == params[0].name);
  CHECK((*walk)->params[0].type->target == n);
  CHECK((*walk)->params[1].name == params[1].name);
  CHECK_FALSE((*walk)->is_variadic);
  CHECK(ctypes::spell(*walk) == "int (struct node *, int)");

  Result<btf::KernelFunction> walk_fn = kt.function("walk");
  REQUIRE(walk_fn.ok());
  CHECK(walk_fn->btf_id == walk_id);
  CHECK(walk_fn->module == "vmlinux");
  CHECK(walk_fn->prototype == *walk);

  Result<CTypeRef> log = kt.function_prototype("log");
  REQUIRE(log.ok());
  CHECK((*log)->is_variadic);
  CHECK((*log)->target->kind == CKind::Void);
  REQUIRE((*log)->params.size() == 1);
  CHECK(ctypes::spell(*log) == "void (struct node *, ...)");

  CHECK_FALSE(kt.function_prototype("counter").ok());
  Result<CTypeRef> missing = kt.function_prototype("walk", "some_module");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message().find("some_module") != std::string::npos);
}
