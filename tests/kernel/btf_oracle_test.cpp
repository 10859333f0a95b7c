// rawprobe's BTF reader against bpftool's reading of this machine's kernel BTF
// (`bpftool btf dump file /sys/kernel/btf/vmlinux format raw` and `format c`): sizes, member
// names, bit offsets and bitfield widths, member types, enum values, typedef chains and
// function prototypes, for a sample of well-known types and then for every named struct,
// union and enum. Host-only: the VM guests have no bpftool.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "engine/btf/kernel_types.h"
#include "tests/kernel/btf_oracle_compare.h"

using namespace rawprobe;
using rawprobe::btf::testing::BpftoolRaw;
using rawprobe::btf::testing::OracleCompare;
using rawprobe::btf::testing::OracleType;
using rawprobe::ctypes::CKind;
using rawprobe::ctypes::CTypeRef;

namespace {

constexpr const char* kVmlinux = "/sys/kernel/btf/vmlinux";

const BpftoolRaw& oracle() {
  static const BpftoolRaw raw(kVmlinux);
  return raw;
}

const OracleCompare& compare() {
  static const OracleCompare c({&oracle()});
  return c;
}

btf::KernelTypes& kernel() {
  static btf::KernelTypes kt = [] {
    Result<btf::KernelTypes> opened = btf::KernelTypes::open();
    REQUIRE_MESSAGE(opened.ok(), (opened.ok() ? "" : opened.error().message()));
    return std::move(*opened);
  }();
  return kt;
}

const OracleType& named(const std::string& kind, const std::string& name) {
  const OracleType* o = oracle().named(kind, name);
  REQUIRE_MESSAGE(o, "bpftool lists no " << kind << " '" << name << "'");
  return *o;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("btf oracle: well-known structs and unions match bpftool member by member") {
  REQUIRE_FALSE(oracle().empty());
  for (const char* name : {"task_struct", "file", "sock", "sk_buff", "tcp_sock", "inode", "mm_struct"})
    compare().check_record(named("STRUCT", name), kernel().find(CKind::Struct, name));
  compare().check_record(named("UNION", "bpf_attr"), kernel().find(CKind::Union, "bpf_attr"));

  // Bitfields: struct sock and struct tcp_sock have them; the oracle must show some.
  size_t bitfields = 0;
  for (const char* name : {"sock", "tcp_sock"})
    for (const auto& m : named("STRUCT", name).members) bitfields += m.bitfield_size != 0;
  CHECK(bitfields > 0);

  // A flexible array member: the first struct bpftool lists that ends in one.
  const OracleType* flexible = nullptr;
  for (const auto& [id, o] : oracle().types()) {
    if (o.kind != "STRUCT" || o.name.empty() || o.members.empty()) continue;
    const OracleType* last = oracle().get(o.members.back().type_id);
    if (last && last->kind == "ARRAY" && last->num("nr_elems") == 0 && oracle().named("STRUCT", o.name) == &o) {
      flexible = &o;
      break;
    }
  }
  REQUIRE(flexible);
  CTypeRef f = kernel().find(CKind::Struct, flexible->name);
  compare().check_record(*flexible, f);
  CHECK(f->members.back().type->kind == CKind::Array);
  CHECK(f->members.back().type->count == 0);
}

TEST_CASE("btf oracle: typedef chains keep every name bpftool shows") {
  for (const char* name : {"u64", "pid_t", "size_t", "atomic_t", "gfp_t"}) {
    CAPTURE(name);
    const OracleType* o = &named("TYPEDEF", name);
    CTypeRef t = kernel().find(CKind::Typedef, name);
    REQUIRE(t);
    CHECK(compare().diff(o->id, t, 4) == "");
    // Level by level: the same names down to the end of the chain.
    while (o && o->kind == "TYPEDEF") {
      CHECK(t->kind == CKind::Typedef);
      CHECK(t->name == o->name);
      o = oracle().get(o->num("type_id"));
      t = t->target;
    }
  }
}

TEST_CASE("btf oracle: every named struct and union has bpftool's size and members") {
  std::set<std::string> seen_struct, seen_union;
  size_t checked = 0;
  for (const auto& [id, o] : oracle().types()) {
    bool is_struct = o.kind == "STRUCT";
    if ((!is_struct && o.kind != "UNION") || o.name.empty()) continue;
    if (!(is_struct ? seen_struct : seen_union).insert(o.name).second) continue;  // the first only
    CTypeRef t = kernel().find(is_struct ? CKind::Struct : CKind::Union, o.name);
    compare().check_record(o, t, 0);
    ++checked;
  }
  MESSAGE("structs and unions checked: " << checked << ", C types made: " << kernel().materialized());
  CHECK(checked > 1000);
}

TEST_CASE("btf oracle: every named enum has bpftool's size, signedness and values") {
  std::set<std::string> seen;
  size_t checked = 0;
  for (const auto& [id, o] : oracle().types()) {
    if ((o.kind != "ENUM" && o.kind != "ENUM64") || o.name.empty() || !seen.insert(o.name).second) continue;
    CAPTURE(o.name);
    CTypeRef t = kernel().find(CKind::Enum, o.name);
    REQUIRE(t);
    CHECK(t->size == o.num("size"));
    CHECK(t->is_signed == (o.fields.at("encoding") == "SIGNED"));
    REQUIRE(t->enumerators.size() == o.members.size());
    for (size_t i = 0; i < o.members.size(); ++i) {
      CHECK(t->enumerators[i].name == o.members[i].name);
      CHECK(t->enumerators[i].value == btf::testing::enumerator_value(o.members[i].val));
    }
    ++checked;
  }
  CHECK(checked > 100);
}

TEST_CASE("btf oracle: enumerators by name, the first enum that declares them") {
  std::map<std::string, std::pair<int64_t, const OracleType*>> first;
  for (const auto& [id, o] : oracle().types())
    if (o.kind == "ENUM" || o.kind == "ENUM64")
      for (const auto& m : o.members) first.try_emplace(m.name, btf::testing::enumerator_value(m.val), &o);
  REQUIRE(first.count("TCP_ESTABLISHED"));
  size_t n = 0;
  for (const auto& [name, expected] : first) {
    if (name != "TCP_ESTABLISHED" && n++ % 50 != 0) continue;  // every 50th, and the one scripts use
    CAPTURE(name);
    Result<btf::Enumerator> e = kernel().enumerator(name);
    REQUIRE(e.ok());
    CHECK(e->value == expected.first);
    CHECK(e->type->name == expected.second->name);
    CHECK(e->type->enumerators.size() == expected.second->members.size());
  }
}

TEST_CASE("btf oracle: function prototypes with parameter names and types") {
  const OracleType& vfs_read = named("FUNC", "vfs_read");
  const OracleType* proto = oracle().get(vfs_read.num("type_id"));
  REQUIRE(proto);
  Result<CTypeRef> f = kernel().function_prototype("vfs_read");
  REQUIRE_MESSAGE(f.ok(), (f.ok() ? "" : f.error().message()));
  CHECK(compare().diff(proto->id, *f, 3) == "");
  REQUIRE((*f)->params.size() == proto->members.size());
  for (size_t i = 0; i < proto->members.size(); ++i) CHECK((*f)->params[i].name == proto->members[i].name);
  Result<btf::KernelFunction> k = kernel().function("vfs_read");
  REQUIRE(k.ok());
  CHECK(k->btf_id == vfs_read.id);  // what fentry's attach_btf_id will be
  CHECK(k->module == "vmlinux");

  // And a spread of every function bpftool lists: every 97th, each first of its name.
  std::set<std::string> seen;
  size_t n = 0, checked = 0;
  for (const auto& [id, o] : oracle().types()) {
    if (o.kind != "FUNC" || !seen.insert(o.name).second || n++ % 97 != 0) continue;
    CAPTURE(o.name);
    Result<CTypeRef> p = kernel().function_prototype(o.name);
    REQUIRE(p.ok());
    CHECK(compare().diff(o.num("type_id"), *p, 2) == "");
    ++checked;
  }
  CHECK(checked > 100);
  CHECK_FALSE(kernel().function_prototype("no_such_kernel_function_here").ok());
}

namespace {

// The member lines of `struct NAME { ... };` in bpftool's C dump that spell one plain member
// on one line ("\tstruct mm_struct *mm;"), as {member name, its type with the name removed}.
// Left out: nested anonymous records (several lines), and const/volatile members (the C type
// model drops qualifiers, bpftool prints them).
std::vector<std::pair<std::string, std::string>> c_members(const std::string& dump, const std::string& name) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t at = dump.find("\nstruct " + name + " {\n");
  if (at == std::string::npos) return out;
  at = dump.find('\n', at + 1) + 1;
  auto is_ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (at < dump.size()) {
    size_t end = dump.find('\n', at);
    std::string line = dump.substr(at, end - at);
    at = end + 1;
    if (line.rfind("};", 0) == 0) break;
    if (line.size() < 3 || line[0] != '\t' || line[1] == '\t' || line.find_first_of("{}") != std::string::npos ||
        line.find("const ") != std::string::npos || line.find("volatile ") != std::string::npos ||
        line.find("__attribute__") != std::string::npos || line.back() != ';')
      continue;
    std::string decl = line.substr(1, line.size() - 2);
    if (size_t colon = decl.find(": "); colon != std::string::npos) decl.erase(colon);  // bitfield width
    while (!decl.empty() && decl.back() == ' ') decl.pop_back();
    std::string member;
    if (size_t star = decl.find("(*"); star != std::string::npos) {  // function pointer
      size_t close = decl.find(')', star);
      member = decl.substr(star + 2, close - star - 2);
      decl.erase(star + 2, close - star - 2);
    } else {
      size_t stop = std::min(decl.find('['), decl.size());
      size_t begin = stop;
      while (begin > 0 && is_ident(decl[begin - 1])) --begin;
      member = decl.substr(begin, stop - begin);
      decl.erase(begin, stop - begin);
    }
    static const std::set<std::string> keywords = {"long", "int", "short", "char", "unsigned", "signed"};
    if (member.empty() || keywords.count(member)) continue;  // padding such as "long: 64"
    out.emplace_back(member, decl);
  }
  return out;
}

std::string without_spaces(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

}  // namespace

TEST_CASE("btf oracle: member types spelled as bpftool's C dump spells them") {
  static const std::string dump =
      btf::testing::run_command(std::string("bpftool btf dump file ") + kVmlinux + " format c 2>/dev/null");
  REQUIRE_FALSE(dump.empty());
  size_t compared = 0, function_pointers = 0;
  for (std::string name : {"task_struct", "file", "sock", "sk_buff", "tcp_sock", "inode", "file_operations"}) {
    CAPTURE(name);
    CTypeRef record = kernel().find(CKind::Struct, name);
    REQUIRE(record);
    for (const auto& [member, c_type] : c_members(dump, name)) {
      CAPTURE(member);
      std::optional<ctypes::CMember> m = ctypes::find_member(record, member);
      REQUIRE(m);
      CHECK(without_spaces(ctypes::spell(m->type)) == without_spaces(c_type));
      ++compared;
      function_pointers += c_type.find("(*)") != std::string::npos;
    }
  }
  MESSAGE("members compared: " << compared << " (function pointers: " << function_pointers << ")");
  CHECK(compared > 200);
  CHECK(function_pointers > 10);
}
