// The layout rawprobe computes for a script's C declarations, against gcc's for the same
// text on each target: every record's size and alignment, every member's offset, and every
// bit-field's first bit and width. gcc runs a generated program that prints what it laid out
// (x86_64 and i386 natively, aarch64 and arm under qemu-user), so bit-field positions come
// from real stores, not from a formula shared with the code under test.
#include <doctest/doctest.h>

#include <sstream>

#include "engine/ctypes/decl_parser.h"
#include "tests/unit/arch_oracle.h"

namespace rawprobe::ctypes {
namespace {

TEST_SUITE_BEGIN("host-only");

struct Target {
  const char* arch;      // data model name
  const char* compiler;  // static build
  const char* runner;    // prefix to run the program; empty: natively
};
constexpr Target kTargets[] = {
    {"x86_64", "gcc", ""},
    {"i386", "i686-linux-gnu-gcc", ""},
    {"aarch64", "aarch64-linux-gnu-gcc", "qemu-aarch64-static "},
    {"arm", "arm-linux-gnueabihf-gcc", "qemu-arm-static "},
};

// Declarations as scripts write them: kernel-like records, nesting, every bit-field rule.
const char* const kSources[] = {
    R"(struct foo { int a; char b[10]; struct foo *next; unsigned int bf:3, bf2:5; long l; };)",
    R"(struct sock_like {
         union { struct { unsigned short family; unsigned short port; }; unsigned int both; };
         char c; long long ll; short s; void (*cb)(int, char *); char tail[];
       };)",
    R"(struct bits { char a; int b : 4; int c : 30; unsigned d : 1; unsigned : 0; unsigned char e : 3;
                     long long f : 40; int g : 7; char h; short i : 9; short j : 9; };)",
    R"(typedef unsigned int u32_t; typedef struct { u32_t x[3]; char tag; } triple_t;
       struct holder { triple_t t; triple_t *pt; triple_t arr[2]; double d; char c; };)",
    R"(enum color { RED, GREEN = 5, BLUE }; enum big { HUGE = 0x100000000 };
       enum neg { MINUS = -1 };
       struct with_enums { char c; enum color col; enum big b; enum neg n; char last; };)",
    R"(struct inner { char c; short s; }; struct outer { char a; struct inner in; struct inner two[3];
       union { int i; char bytes[5]; } u; struct { char x; long y; } named; };)",
    R"(struct packed_one { char c; int i; long long l; short s : 5; int j : 20; } __attribute__((packed));
       struct aligned_one { char c; int i __attribute__((aligned(16))); char d; };
       struct holds_packed { char c; struct packed_one p; };)",
    R"(struct task_like { volatile long state; void *stack; unsigned int flags;
         int prio, static_prio; unsigned long long utime; char comm[16]; int pid; int tgid;
         struct task_like *parent; struct list { struct list *next, *prev; } children;
         unsigned int in_execve : 1; unsigned int in_iowait : 1; unsigned long atomic_flags; };)",
    R"(union number { char c; short s; int i; long l; long long ll; double d; unsigned char b[3]; };
       struct with_union { char c; union number n; _Bool flag; unsigned short us; };)",
    R"(struct sizes { char a[2][3]; int m[2][2]; struct { int v; } many[4]; long double ld; float f; };)",
};

struct Record {
  std::string c_name;  // "struct foo", "triple_t"
  CTypeRef type;
};

std::vector<Record> records_of(ScriptTypes& types) {
  std::vector<Record> out;
  for (CKind k : {CKind::Struct, CKind::Union})
    for (const std::string& n : types.own_names(k))
      out.push_back({std::string(k == CKind::Struct ? "struct " : "union ") + n, types.find_own(k, n)});
  for (const std::string& n : types.own_names(CKind::Typedef)) {
    CTypeRef t = strip_typedefs(types.find_own(CKind::Typedef, n));
    if (is_record(t) && t->name.empty()) out.push_back({n, t});
  }
  return out;
}

// For each member, a line for rawprobe's layout and a C statement for gcc's. Members of
// anonymous records are reached through their path, as C reaches them.
void walk(const std::string& c_name, CTypeRef record, const std::string& path, uint32_t base_bits,
          const ScriptTypes& types, std::string& expected, std::string& program) {
  for (const CMember& m : record->members) {
    std::string p = m.name.empty() ? path : path + m.name;
    uint32_t bits = base_bits + m.bit_offset;
    CTypeRef t = strip_typedefs(m.type);
    if (t && is_record(t) && t->name.empty()) {
      walk(c_name, t, m.name.empty() ? path : p + ".", bits, types, expected, program);
      if (m.name.empty()) continue;
    }
    std::string key = c_name + "." + p;
    if (m.bit_size) {
      expected += key + " bits " + std::to_string(bits) + " " + std::to_string(m.bit_size) + "\n";
      program += "  { " + c_name + " v; memset(&v, 0, sizeof v); v." + p + " = -1; bits(\"" + key +
                 "\", &v, sizeof v); }\n";
    } else {
      expected += key + " at " + std::to_string(bits / 8) + " size " + std::to_string(size_of(m.type)) + "\n";
      // A flexible array member has no size in C: only its offset is compared.
      bool flexible = t && t->kind == CKind::Array && t->count == 0;
      std::string size = flexible ? "(size_t)0" : "sizeof(((" + c_name + " *)0)->" + p + ")";
      program += "  printf(\"" + key + " at %zu size %zu\\n\", offsetof(" + c_name + ", " + p + "), " + size + ");\n";
    }
  }
}

TEST_CASE("script declarations are laid out as gcc lays them out on each target") {
  for (const Target& target : kTargets) {
    const DataModel* model = data_model(target.arch);
    REQUIRE(model);
    std::string expected, program;
    std::string all_decls;
    for (const char* source : kSources) {
      ScriptTypes types(*model);
      std::string_view text = source;
      uint32_t pos = 0;
      while (starts_declaration(text, pos)) {
        auto err = parse_declaration(text, pos, types);
        INFO(std::string(target.arch) << ": " << source);
        REQUIRE_MESSAGE(!err, (err ? err->message : ""));
      }
      all_decls += std::string(source) + "\n";
      for (const Record& r : records_of(types)) {
        expected += r.c_name + " size " + std::to_string(size_of(r.type)) + " align " +
                    std::to_string(types.align_of(r.type)) + "\n";
        program += "  printf(\"" + r.c_name + " size %zu align %zu\\n\", sizeof(" + r.c_name + "), _Alignof(" +
                   r.c_name + "));\n";
        walk(r.c_name, r.type, "", 0, types, expected, program);
      }
      for (const std::string& n : types.own_names(CKind::Enum)) {
        expected += "enum " + n + " size " + std::to_string(size_of(types.find_own(CKind::Enum, n))) + "\n";
        program += "  printf(\"enum " + n + " size %zu\\n\", sizeof(enum " + n + "));\n";
      }
    }
    test::ScratchDir dir;
    std::ofstream(dir.path() / "layout.c")
        << "#include <stddef.h>\n#include <stdio.h>\n#include <string.h>\n" << all_decls
        << "static void bits(const char *key, const void *p, size_t n) {\n"
           "  const unsigned char *b = p; int first = -1, count = 0;\n"
           "  for (size_t i = 0; i < n * 8; ++i) if (b[i / 8] >> (i % 8) & 1) { if (first < 0) first = (int)i; ++count; }\n"
           "  printf(\"%s bits %d %d\\n\", key, first, count);\n}\n"
           "int main(void) {\n"
        << program << "  return 0;\n}\n";
    std::string exe = (dir.path() / "layout").string();
    auto built = test::run_command(std::string(target.compiler) + " -static -O0 -o " + exe + " " +
                                   (dir.path() / "layout.c").string());
    INFO(std::string(target.arch));
    REQUIRE_MESSAGE(built.status == 0, built.output);
    auto ran = test::run_command(std::string(target.runner) + exe, false);
    REQUIRE(ran.status == 0);
    // Line by line, so a failure names the record and member.
    std::istringstream want(expected), got(ran.output);
    std::string w, g;
    size_t lines = 0;
    while (std::getline(want, w)) {
      REQUIRE(std::getline(got, g));
      CHECK(g == w);
      ++lines;
    }
    CHECK(!std::getline(got, g));
    CHECK(lines > 100);
  }
}

TEST_SUITE_END();

}  // namespace
}  // namespace rawprobe::ctypes
