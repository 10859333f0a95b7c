// Compares rawprobe's C types with bpftool's reading of the same BTF (btf_bpftool_oracle.h).
// Several dumps can be given: a module's (ids after vmlinux's) and vmlinux's.
#pragma once
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/ctypes/ctype.h"
#include "tests/kernel/btf_bpftool_oracle.h"

namespace rawprobe::btf::testing {

using ctypes::CKind;
using ctypes::CTypeRef;

class OracleCompare {
 public:
  explicit OracleCompare(std::vector<const BpftoolRaw*> dumps) : dumps_(std::move(dumps)) {}

  const OracleType* get(long long id) const {
    for (const BpftoolRaw* d : dumps_)
      if (const OracleType* o = d->get(id)) return o;
    return nullptr;
  }

  static bool is_qualifier(const std::string& kind) {
    return kind == "CONST" || kind == "VOLATILE" || kind == "RESTRICT" || kind == "TYPE_TAG";
  }

  // How the type of oracle id `id` differs from `t` ("" when it does not), down to `depth` levels
  // of pointers, arrays, typedefs and prototypes.
  std::string diff(long long id, CTypeRef t, int depth = 2) const {
    const OracleType* o = id ? get(id) : nullptr;
    while (o && is_qualifier(o->kind)) {
      id = o->num("type_id");
      o = id ? get(id) : nullptr;
    }
    if (!t) return "no type";
    if (id == 0) return t->kind == CKind::Void ? "" : "expected void, got " + ctypes::spell(t);
    if (!o) return "oracle has no type " + std::to_string(id);
    std::string where = "[" + std::to_string(id) + "] " + o->kind + " '" + o->name + "': ";
    auto expect = [&](bool ok, const std::string& what) { return ok ? std::string() : where + what; };
    auto kind_is = [&](CKind k) { return t->kind == k; };
    if (o->kind == "INT")
      return expect(kind_is(CKind::Int) && t->name == o->name && t->size == o->num("size") &&
                        t->is_signed == (o->fields.at("encoding") == "SIGNED"),
                    "got " + ctypes::spell(t));
    if (o->kind == "FLOAT") return expect(kind_is(CKind::Float) && t->size == o->num("size"), "not a float");
    if (o->kind == "PTR") {
      if (!kind_is(CKind::Pointer) || t->size != 8) return where + "got " + ctypes::spell(t);
      return depth ? diff(o->num("type_id"), t->target, depth - 1) : "";
    }
    if (o->kind == "ARRAY") {
      if (!kind_is(CKind::Array) || t->count != o->num("nr_elems")) return where + "got " + ctypes::spell(t);
      return depth ? diff(o->num("type_id"), t->target, depth - 1) : "";
    }
    if (o->kind == "STRUCT" || o->kind == "UNION")
      return expect(kind_is(o->kind == "STRUCT" ? CKind::Struct : CKind::Union) && t->name == o->name &&
                        t->size == o->num("size") && t->members.size() == o->members.size(),
                    "got " + ctypes::spell(t));
    if (o->kind == "FWD") {
      CKind tag = o->fields.at("fwd_kind") == "union" ? CKind::Union : CKind::Struct;
      bool resolved = t->kind == tag && t->name == o->name;
      bool forward = t->kind == CKind::Forward && t->tag_kind == tag && t->name == o->name;
      return expect(resolved || forward, "got " + ctypes::spell(t));
    }
    if (o->kind == "ENUM" || o->kind == "ENUM64")
      return expect(kind_is(CKind::Enum) && t->name == o->name && t->size == o->num("size") &&
                        t->enumerators.size() == o->members.size(),
                    "got " + ctypes::spell(t));
    if (o->kind == "TYPEDEF") {
      if (!kind_is(CKind::Typedef) || t->name != o->name) return where + "got " + ctypes::spell(t);
      return diff(o->num("type_id"), t->target, depth);  // chains of typedefs are short
    }
    if (o->kind == "FUNC_PROTO") {
      if (!kind_is(CKind::Function)) return where + "got " + ctypes::spell(t);
      size_t params = o->members.size();
      bool variadic = params && o->members.back().type_id == 0;
      if (t->params.size() != params - variadic || t->is_variadic != variadic)
        return where + "got " + ctypes::spell(t);
      if (!depth) return "";
      if (std::string d = diff(o->num("ret_type_id"), t->target, depth - 1); !d.empty()) return d;
      for (size_t i = 0; i < t->params.size(); ++i) {
        if (t->params[i].name != o->members[i].name) return where + "parameter " + std::to_string(i) + " name";
        if (std::string d = diff(o->members[i].type_id, t->params[i].type, depth - 1); !d.empty()) return d;
      }
      return "";
    }
    return where + "unexpected kind";
  }

  // Members of a struct or union, one by one against the oracle's lines.
  void check_record(const OracleType& o, CTypeRef t, int depth = 2) const {
    CAPTURE(o.name);
    REQUIRE(t);
    CHECK(t->size == o.num("size"));
    REQUIRE(t->members.size() == o.members.size());
    for (size_t i = 0; i < o.members.size(); ++i) {
      const ctypes::CMember& m = t->members[i];
      CAPTURE(i);
      CAPTURE(o.members[i].name);
      CHECK(m.name == o.members[i].name);
      CHECK(m.bit_offset == o.members[i].bits_offset);
      CHECK(m.bit_size == o.members[i].bitfield_size);
      CHECK(diff(o.members[i].type_id, m.type, depth) == "");
    }
  }

 private:
  std::vector<const BpftoolRaw*> dumps_;
};

}  // namespace rawprobe::btf::testing
