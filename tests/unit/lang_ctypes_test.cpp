// C declarations and C-typed expressions through the front end: what each declaration
// error says and where (file:line:col, with what to do instead), and the types the checker
// gives pointers, records, bit-fields and tracepoint pointer fields.
#include <doctest/doctest.h>

#include "engine/base/type_names.h"
#include "engine/ctypes/decl_parser.h"
#include "engine/lang/ast_dump.h"
#include "tests/unit/lang_fixture.h"

namespace rawprobe::lang {
namespace {

using test::front_end;

std::string errors_of(const std::string& text) {
  FrontEndResult r = front_end(text, "s.bt");
  CHECK(!r.ok);
  return test::error_text(r);
}

const char* const kProbe = "uprobe:/bin/sh:main { $r = (struct foo *)arg0; print($r->a); }\n";

TEST_CASE("declaration errors point at the line and column and say what to write") {
  struct Case {
    std::string decls;
    std::string expected;  // a substring of the rendered errors
  };
  const Case cases[] = {
      {"struct foo { int a; }", "s.bt:2:1: error: expected ';' after the definition of 'struct foo', found 'uprobe'"},
      {"struct foo { int a; };\nstruct foo { int b; };", "s.bt:2:8: error: redefinition of 'struct foo'"},
      {"struct foo { u33 a; };", "s.bt:1:14: error: unknown type name 'u33': neither the script nor kernel BTF defines it; did you mean 'u32'?"},
      {"struct foo { int a; struct bar b; };",
       "s.bt:1:32: error: member 'b' has incomplete type 'struct bar': define struct bar before this struct, or make the member a pointer"},
      {"struct foo { int a : 40; };", "s.bt:1:22: error: bit-field width 40 is outside 0..32 for its type"},
      {"struct foo { int a; int a; };", "duplicate member 'a' in foo"},
      {"struct foo { int a[N]; };", "s.bt:1:20: error: 'N' is not a constant"},
      {"struct foo { int a; } x;", "s.bt:1:23: error: 'x' declares a variable; a script may declare only types"},
      {"struct foo { int a; /* };", "s.bt:1:21: error: unterminated comment: add */"},
      {"typedef int;", "s.bt:1:12: error: expected the typedef's name"},
  };
  for (const Case& c : cases) {
    std::string errors = errors_of(c.decls + "\n" + kProbe);
    INFO(c.decls, "\n", errors);
    CHECK(errors.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("C expressions get C types: pointers, records, bit-fields, strings, arrays") {
  FrontEndResult r = front_end(R"(
struct inner { short s; };
typedef struct { int v; } wrap_t;
struct foo { int a; char name[8]; struct inner in; struct inner many[3]; struct foo *next;
             unsigned flag : 1; int level : 4; wrap_t w; long arr[2]; enum { A, B = 300 } e; };
uprobe:/bin/sh:main {
  $r = (struct foo *)arg0;
  @a = $r->a; @n = $r->name; @s = $r->in.s; @m = $r->many[2].s; @nx = $r->next->next;
  @f = $r->flag; @l = $r->level; @w = $r->w.v; @arr = $r->arr[1]; @e = $r->e;
  @p = (int8 *)arg0 + 3; @sz = sizeof(struct foo); @off = offsetof(struct foo, in.s);
  @rec = *$r; @in = $r->in;
}
)");
  INFO(test::error_text(r));
  REQUIRE(r.ok);
  auto map_type = [&](const std::string& name) { return type_name(r.program.info.maps[r.program.info.find_map(name)].value); };
  CHECK(map_type("@a") == "int64");          // ints widen to 8 bytes in maps, as bpftrace does
  CHECK(map_type("@n") == "string[8]");
  CHECK(map_type("@nx") == "struct foo *");
  CHECK(map_type("@f") == "unsigned int64");  // bit-fields read unsigned, as bpftrace 0.17
  CHECK(map_type("@l") == "unsigned int64");
  CHECK(map_type("@p") == "int8 *");
  CHECK(map_type("@rec") == "struct foo");
  CHECK(map_type("@in") == "struct inner");
  // Oracle: the same declarations compiled by this test's own compiler.
  struct inner { short s; };
  typedef struct { int v; } wrap_t;
  struct foo { int a; char name[8]; struct inner in; struct inner many[3]; struct foo *next;
               unsigned flag : 1; int level : 4; wrap_t w; long arr[2]; enum { A, B = 300 } e; };
  std::string dump = dump_ast(r.program.ast);
  CHECK(dump.find("sizeof :: unsigned int64") != std::string::npos);
  const Program& prog = r.program.ast;
  const auto& body = prog.probes[0].body;
  auto value_of = [&](size_t i) -> const Expr& { return *body[i]->expr; };
  CHECK(value_of(11).scale == 1);                       // int8 *: moves by bytes
  CHECK(value_of(12).int_value == sizeof(struct foo));
  CHECK(value_of(13).int_value == offsetof(struct foo, in.s));
  CHECK(value_of(2).field_offset == offsetof(struct foo, name));
  CHECK(value_of(9).operands[0]->field_offset == offsetof(struct foo, arr));
  CHECK(value_of(9).scale == sizeof(long));
}

TEST_CASE("tracepoint pointer fields are typed pointers") {
  if (!test::tracefs_readable()) {
    MESSAGE("tracefs not readable: run as root");
    return;
  }
  FrontEndResult r = front_end(
      "tracepoint:syscalls:sys_enter_openat { @f = args->filename; @s[str(args->filename)] = count(); }\n");
  INFO(test::error_text(r));
  REQUIRE(r.ok);
  CHECK(type_name(r.program.info.maps[r.program.info.find_map("@f")].value) == "char *");
}

TEST_CASE("script types come before the next source, and name what is missing") {
  ctypes::ScriptTypes kernel;
  uint32_t pos = 0;
  std::string k = "struct task { int pid; long state; };";
  REQUIRE(!ctypes::parse_declaration(k, pos, kernel));
  ctypes::ScriptTypes script;
  script.set_fallback(&kernel);
  pos = 0;
  std::string s = "struct task { char only; };";
  REQUIRE(!ctypes::parse_declaration(s, pos, script));
  CHECK(ctypes::size_of(script.find(ctypes::CKind::Struct, "task")) == 1);
  CHECK(script.find(ctypes::CKind::Struct, "absent") == nullptr);
  CHECK(ctypes::size_of(script.find(ctypes::CKind::Typedef, "u64")) == 8);
}

}  // namespace
}  // namespace rawprobe::lang

namespace rawprobe::lang {
namespace {

TEST_CASE("curtask is a struct task_struct * when the kernel's types have one") {
  // A stand-in for kernel BTF: a TypeSource holding the kernel's struct by another route.
  ctypes::ScriptTypes kernel;
  uint32_t pos = 0;
  std::string k = "struct task_struct { long state; int pid; int tgid; char comm[16]; };";
  REQUIRE(!ctypes::parse_declaration(k, pos, kernel));
  SourceFile src("s.bt", "kprobe:vfs_read { @p[curtask->comm] = curtask->tgid; @t = curtask; }\n");
  SemanticOptions opts;
  opts.kernel_types = &kernel;
  FrontEndResult r = run_front_end(src, opts);
  INFO(test::error_text(r));
  REQUIRE(r.ok);
  CHECK(type_name(r.program.info.maps[r.program.info.find_map("@t")].value) == "struct task_struct *");
  CHECK(type_name(r.program.info.maps[r.program.info.find_map("@p")].key[0]) == "string[16]");
  // Without kernel types it stays an integer, and a field of it is an error naming the type,
  // the missing BTF, and the cast that works without it.
  FrontEndResult plain = run_front_end(src, {});
  CHECK(!plain.ok);
  const std::string text = test::error_text(plain);
  INFO(text);
  CHECK(text.find("s.bt:1:22: error: Can not access field 'comm' on type 'unsigned int64': curtask is a "
                  "'struct task_struct *' only where the kernel's BTF declares that struct") != std::string::npos);
  CHECK(text.find("CONFIG_DEBUG_INFO_BTF=y") != std::string::npos);
  CHECK(text.find("((struct task_struct *)curtask)->comm") != std::string::npos);
  // That cast, with the struct declared in the script, needs no kernel types.
  SourceFile cast("s.bt", "struct task_struct { long state; int pid; int tgid; char comm[16]; };\n"
                          "kprobe:vfs_read { @p[((struct task_struct *)curtask)->comm] = 1; }\n");
  FrontEndResult declared = run_front_end(cast, {});
  INFO(test::error_text(declared));
  CHECK(declared.ok);
}

}  // namespace
}  // namespace rawprobe::lang

namespace rawprobe::lang {
namespace {

TEST_CASE("C expression errors name the type and the line that needs it") {
  const char* decls = "struct in { int v; }; struct foo { int a; struct in in; int arr[2]; };\n";
  struct Case {
    std::string body;
    std::string expected;
  };
  const Case cases[] = {
      {"@m = *(struct foo *)arg0; print(@m.a);", "s.bt:2:55: error: Can not read field 'a' of this struct foo value"},
      {"$x = (struct foo *)arg0; $y = $x->in.w;",
       "s.bt:2:53: error: Struct/union of type 'struct in' does not contain a field named 'w'; did you mean 'v'?"},
      {"$x = (struct bar *)arg0;", "s.bt:2:29: error: Unknown struct/union: 'struct bar'"},
      {"$x = (pid_t *)arg0;", "s.bt:2:29: error: Unknown type: 'pid_t': neither the script nor kernel BTF defines it"},
      {"$x = *arg0 + sizeof(struct foo) + offsetof(struct foo, in.x);",
       "error: Struct/union of type 'struct in' does not contain a field named 'x'"},
      {"$x = (void *)arg0; $y = *$x;", "Unknown type: 'void'"},
      {"$x = (struct foo *)arg0; $y = $x - $x;", "The - operator can not be used on expressions of types struct foo *, struct foo *"},
  };
  for (const Case& c : cases) {
    std::string text = std::string(decls) + "uprobe:/bin/sh:main { " + c.body + " }\n";
    FrontEndResult r = test::front_end(text, "s.bt");
    INFO(c.body, "\n", test::error_text(r));
    CHECK(!r.ok);
    CHECK(test::error_text(r).find(c.expected) != std::string::npos);
  }
}

}  // namespace
}  // namespace rawprobe::lang
