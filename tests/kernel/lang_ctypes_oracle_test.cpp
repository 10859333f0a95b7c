// C types in scripts against bpftrace 0.17, the oracle: a script that declares the struct
// samples/struct_arg.c passes to visit(), reads it through a uprobe (fields, nested records,
// arrays, bit-fields, pointer chasing, integer-pointer casts and arithmetic, sizeof), prints
// whole structs and keeps them as map values. Both tools run it on the same sample, whose
// records are globals at fixed addresses, so their whole standard output must be equal.
#include <doctest/doctest.h>

#include <regex>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

const std::string kDecls = R"(
struct point { int x; short y; };
struct record {
  int id; char name[12]; struct point where; struct point path[2]; struct record *next;
  unsigned int flag : 1; unsigned int level : 3; int delta : 5; long total;
  unsigned char tiny; signed char neg;
  union { unsigned int word; unsigned char bytes[4]; };
};
)";

const std::string kBody = R"(
uprobe:BIN:visit {
  $r = (struct record *)arg0;
  printf("%d %s %d %d %d %d\n", $r->id, $r->name, $r->where.x, $r->where.y, $r->path[1].y, $r->path[0].x);
  printf("bits %d %d %d\n", $r->flag, $r->level, $r->delta);
  printf("ints %ld %d %d %x %d %d\n", $r->total, $r->tiny, $r->neg, $r->word, $r->bytes[0], $r->bytes[3]);
  printf("sizes %d %d %d %d\n", sizeof(struct record), sizeof(*$r), sizeof($r->where), sizeof(uint16));
  printf("deref %d %d %d\n", (*$r).id, *(int32 *)arg0, ((int8 *)arg0)[4]);
  printf("arith %d %d %d\n", (uint64)($r + 1) - (uint64)$r, *((int32 *)arg0 + 1), ((struct point *)((uint64)$r + 16))->x);
  if ($r->next != 0) { printf("next %d %s %d\n", $r->next->id, $r->next->name, $r->next->where.x); }
  print(*$r);
  print($r->where);
  @byid[$r->id] = *$r;
  @where = $r->where;
  @names[$r->name] = sum($r->id);
}
)";

std::string with_binary(std::string script, const std::string& bin) {
  for (size_t at; (at = script.find("BIN")) != std::string::npos;) script.replace(at, 3, bin);
  return script;
}

// `text` less one occurrence of `line`, which must be there.
std::string without_line(std::string text, const std::string& line) {
  size_t at = text.find(line);
  CHECK(at != std::string::npos);
  if (at != std::string::npos) text.erase(at, line.size());
  return text;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("script structs read through a uprobe print what bpftrace 0.17 prints") {
  std::string bin = sample("struct_arg");
  std::string script = with_binary(kDecls + kBody, bin);
  for (const char* format : {"text", "json"}) {
    RunResult bt = run({"bpftrace", "-f", format, "-c", bin, "-e", script});
    RunResult rp = run_rawprobe({"-f", format, "-c", bin, "-e", script});
    INFO(format, "\nbpftrace:\n", bt.out, bt.err, "\nrawprobe:\n", rp.out, rp.err);
    REQUIRE(bt.status == 0);
    CHECK(rp.status == 0);
    // The sample's own line comes whenever its buffered stdout is flushed: compare the rest.
    CHECK(without_line(rp.out, "visited 6\n") == without_line(bt.out, "visited 6\n"));
  }
}

// bpftrace's tcp tools pass a struct sock's address bytes (a C array) to ntop().
TEST_CASE("ntop() of a struct's 4-byte array prints what bpftrace 0.17 prints") {
  std::string bin = sample("struct_arg");
  std::string script = with_binary(kDecls + R"(
uprobe:BIN:visit { $r = (struct record *)arg0; printf("%s %s\n", ntop($r->bytes), ntop(2, $r->bytes)); }
)", bin);
  RunResult bt = run({"bpftrace", "-c", bin, "-e", script});
  RunResult rp = run_rawprobe({"-c", bin, "-e", script});
  INFO("bpftrace:\n", bt.out, bt.err, "\nrawprobe:\n", rp.out, rp.err);
  REQUIRE(bt.status == 0);
  CHECK(rp.status == 0);
  CHECK(without_line(rp.out, "visited 6\n") == without_line(bt.out, "visited 6\n"));
}

TEST_CASE("script struct errors name the type or field and where it is used") {
  std::string bin = sample("struct_arg");
  struct Case {
    std::string body;
    std::string message;  // what rawprobe must say (bpftrace 0.17's words where it has them)
  };
  const Case cases[] = {
      {"$r = (struct recrd *)arg0;", "Unknown struct/union: 'struct recrd'"},
      {"$r = (struct record *)arg0; $x = $r->nme;",
       "Struct/union of type 'struct record' does not contain a field named 'nme'; did you mean 'name'?"},
      {"$r = (struct record *)arg0; $x = *$r->where;",
       "Can not dereference struct/union of type 'struct point'. It is not a pointer."},
      {"$r = (struct record *)arg0; print($r);", "struct record * type passed to print() is not printable"},
      {"$x = (struct record)arg0;", "Cannot cast to 'struct record': cast to a pointer to it instead"},
  };
  for (const Case& c : cases) {
    std::string script = with_binary(kDecls + "uprobe:BIN:visit {\n" + c.body + "\n}\n", bin);
    RunResult rp = run_rawprobe({"--dry-run", "-e", script});
    INFO(c.body, "\n", rp.err);
    CHECK(rp.status != 0);
    CHECK(rp.err.find(c.message) != std::string::npos);
  }
}

TEST_SUITE_END();

TEST_SUITE_BEGIN("host-only");

TEST_CASE("a block over tracepoints that place args->filename differently gets one program per layout") {
  // open(2) and openat(2) both, from a program compiled here: glibc calls only openat.
  std::string dir = build_dir() + "/test-opener";
  std::string src = dir + ".c", bin = dir;
  {
    FILE* f = fopen(src.c_str(), "w");
    REQUIRE(f);
    fputs("#include <fcntl.h>\n#include <sys/syscall.h>\n#include <unistd.h>\n"
          // Paths in stack arrays: a literal's page may not be mapped in yet when the
          // tracepoint reads it (both tools then print an empty string).
          "int main(void) { char a[] = \"/etc/hostname\", b[] = \"/etc/passwd\";\n"
          "  close(syscall(SYS_open, a, O_RDONLY)); close(openat(AT_FDCWD, b, O_RDONLY)); return 0; }\n",
          f);
    fclose(f);
  }
  RunResult cc = run({"gcc", "-o", bin, src});
  REQUIRE_MESSAGE(cc.status == 0, cc.err);
  const std::string script =
      "tracepoint:syscalls:sys_enter_open,tracepoint:syscalls:sys_enter_openat /comm == \"test-opener\"/ "
      "{ printf(\"%s %s\\n\", probe, str(args->filename)); }";
  RunResult bt = run({"bpftrace", "-c", bin, "-e", script});
  RunResult rp = run_rawprobe({"-c", bin, "-e", script});
  INFO("bpftrace:\n", bt.out, bt.err, "\nrawprobe:\n", rp.out, rp.err);
  REQUIRE(bt.status == 0);
  CHECK(rp.status == 0);
  CHECK(rp.out == bt.out);
  CHECK(rp.out.find("tracepoint:syscalls:sys_enter_open /etc/hostname\n") != std::string::npos);
  CHECK(rp.out.find("tracepoint:syscalls:sys_enter_openat /etc/passwd\n") != std::string::npos);
  std::remove(src.c_str());
  std::remove(bin.c_str());
}

TEST_SUITE_END();

TEST_SUITE_BEGIN("host-only");

TEST_CASE("curtask is a struct task_struct * from kernel BTF, as in bpftrace 0.17") {
  // The build host's kernel (6.18) publishes BTF; bpftrace needs it for this script too.
  REQUIRE_MESSAGE(access("/sys/kernel/btf/vmlinux", R_OK) == 0, "no /sys/kernel/btf/vmlinux");
  std::string bin = sample("struct_arg");
  std::string script = with_binary(
      "uprobe:BIN:visit { printf(\"%d %d %s %d %d\\n\", pid, curtask->tgid, curtask->comm, "
      "curtask->real_parent->tgid, ((struct task_struct *)curtask)->pid); }",
      bin);
  Process rp({rawprobe_path(), "-c", bin, "-e", script});
  RunResult ours = rp.finish(60);
  RunResult theirs = run({"bpftrace", "-c", bin, "-e", script});
  INFO("rawprobe:\n", ours.out, ours.err, "\nbpftrace:\n", theirs.out, theirs.err);
  REQUIRE(ours.status == 0);
  REQUIRE(theirs.status == 0);
  // Each line: the sample's pid three times, its comm, and its parent: the tracer that ran it.
  auto check_lines = [](const std::string& out, pid_t tracer) {
    std::regex line(R"((\d+) (\d+) (\S+) (\d+) (\d+)\n)");
    int n = 0;
    for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it, ++n) {
      CHECK((*it)[1] == (*it)[2]);
      CHECK((*it)[1] == (*it)[5]);
      CHECK((*it)[3] == "struct_arg");
      if (tracer > 0) CHECK(std::stol((*it)[4]) == tracer);
    }
    return n;
  };
  CHECK(check_lines(ours.out, rp.pid()) == 4);
  CHECK(check_lines(theirs.out, -1) == 4);
}

TEST_SUITE_END();
