// Run-level output against bpftrace 0.17: the "Attaching N probes..." line, time("fmt"),
// END after exit(), and printf's argument errors (bpftrace's own wording).
#include <doctest/doctest.h>

#include <ctime>

#include "tests/kernel/output_oracle.h"

using namespace rawprobe;
using namespace rawprobe::oracle;

// Every case runs bpftrace 0.17, which only the build host has: the VM guest leaves
// the suite "host-only" out (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("Attaching N probes, printf from BEGIN and END, exit separator") {
  for (OutputFormat format : {OutputFormat::Text, OutputFormat::Json}) {
    auto begin = PrintfFormatter::make("begin %d\n", {Type::integer(8, true)});
    auto end = PrintfFormatter::make("end\n", {});
    REQUIRE(begin.ok());
    REQUIRE(end.ok());
    Capture ours(format);
    ours.out().attached_probes(2);
    int64_t one = 1;
    ours.out().printf_event(*begin, reinterpret_cast<const uint8_t*>(&one), 8);
    ours.out().printf_event(*end, nullptr, 0);
    ours.out().exit_separator();
    std::string expected =
        run_bpftrace("BEGIN { printf(\"begin %d\\n\", 1); exit(); } END { printf(\"end\\n\"); }",
                     format == OutputFormat::Json ? "json" : "text");
    CHECK(ours.text() == expected);
  }
  Capture one(OutputFormat::Text);
  one.out().attached_probes(1);
  one.out().exit_separator();
  CHECK(one.text() == run_bpftrace("BEGIN { exit(); }", "text"));
}

TEST_CASE("time(fmt) prints the local time through strftime, as bpftrace does") {
  // Formats that cannot change within the run (unless it straddles midnight).
  const char* formats[] = {"%Y-%m-%d\n", "%A %B|", "day %j\n"};
  for (OutputFormat format : {OutputFormat::Text, OutputFormat::Json}) {
    std::string script = "BEGIN {";
    Capture ours(format);
    ours.out().attached_probes(1);
    for (const char* f : formats) {
      script += " time(" + quote(f) + ");";
      REQUIRE(ours.out().time_event(f).ok());
    }
    script += " exit(); }";
    ours.out().exit_separator();
    CHECK(ours.text() == run_bpftrace(script, format == OutputFormat::Json ? "json" : "text"));
  }
  // bpftrace refuses results that do not fit its 64-byte buffer, and empty ones.
  CHECK(!format_local_time("").ok());
  CHECK(!format_local_time(std::string(64, 'x')).ok());
  CHECK(format_local_time(std::string(63, 'x')).ok());
}

namespace {
// The "ERROR: ..." text bpftrace prints for a script (stderr included).
std::string bpftrace_error(const std::string& script) {
  char path[] = "/tmp/rawprobe-oracle-XXXXXX";
  int fd = mkstemp(path);
  (void)!write(fd, script.data(), script.size());
  close(fd);
  std::string out;
  if (FILE* p = popen(("bpftrace " + std::string(path) + " 2>&1").c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
  }
  unlink(path);
  size_t at = out.find("ERROR: printf");
  if (at == std::string::npos) return out;
  at += 7;
  return out.substr(at, out.find('\n', at) - at);
}
}  // namespace

TEST_CASE("printf argument errors use bpftrace's wording") {
  struct Case {
    const char* fmt;
    std::vector<Type> types;
    std::string args;
  };
  std::vector<Case> cases = {
      {"%d %d\\n", {Type::integer(8, true)}, "1"},
      {"%d\\n", {Type::integer(8, true), Type::integer(8, true)}, "1, 2"},
      {"%s\\n", {Type::integer(8, true)}, "5"},
      {"%d\\n", {Type::string(2)}, "\"a\""},
      {"%c\\n", {Type::string(2)}, "\"a\""},
      {"%-5lx\\n", {Type::string(2)}, "\"a\""},
  };
  for (const Case& c : cases) {
    std::string fmt = c.fmt;
    fmt.replace(fmt.find("\\n"), 2, "\n");
    auto ours = PrintfFormatter::make(fmt, c.types);
    REQUIRE(!ours.ok());
    std::string script = "BEGIN { printf(\"" + std::string(c.fmt) + "\", " + c.args + "); }";
    CHECK(ours.error().message() == bpftrace_error(script));
  }
}

TEST_SUITE_END();
