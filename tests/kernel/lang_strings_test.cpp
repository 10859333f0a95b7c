// Strings as byte sequences, run for real (bpftrace 0.26 on): `s[i]` reads byte i of a string
// held in a variable, a map or a builtin. The expected bytes are the script's own text and the
// name the kernel gives the process, read here with std::string.
#include <doctest/doctest.h>

#include <sstream>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// The integers the run printed, after "Attaching 1 probe...".
std::vector<int64_t> numbers(const std::string& out) {
  std::vector<int64_t> v;
  std::istringstream in(out.substr(out.find('\n') + 1));
  for (int64_t n; in >> n;) v.push_back(n);
  return v;
}

}  // namespace

TEST_CASE("s[i] reads a string's bytes as int8; an index past its capacity reads 0") {
  if (checked_interpreter_refusal()) return;
  // $s is string[7] (6 bytes and the NUL); $i runs past it, to 9.
  const std::string text = "h\xe9llo/";
  RunResult r = run_rawprobe(
      {"-e", "BEGIN { $s = \"h\\xe9llo/\"; @m[0] = $s; for $i : 0..10 { printf(\"%d %d\\n\", $s[$i], @m[0][$i]); } exit(); }"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<int64_t> want;
  for (size_t i = 0; i < 10; ++i) {
    int64_t byte = i < text.size() ? static_cast<int8_t>(text[i]) : 0;
    want.push_back(byte);
    want.push_back(byte);
  }
  CHECK(numbers(r.out) == want);
}

TEST_CASE("comm[i] is the kernel's name for the process, byte by byte, and compares with a literal's byte") {
  if (checked_interpreter_refusal()) return;
  // In BEGIN, comm is rawprobe's own: the kernel keeps the first 15 bytes of the program's name.
  std::string name = rawprobe_path().substr(rawprobe_path().rfind('/') + 1).substr(0, 15);
  RunResult r = run_rawprobe({"-e", "BEGIN { for $i : 0..16 { printf(\"%d\\n\", comm[$i]); }"
                                    " printf(\"%d\\n\", comm[0] == \"" + name.substr(0, 1) + "\"[0]); exit(); }"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  // Up to its NUL: bpf_get_current_comm pads the rest with zeros only since Linux 6.4
  // (strscpy_pad); before, those bytes are whatever the buffer held.
  std::vector<int64_t> got = numbers(r.out);
  REQUIRE(got.size() == 17);
  std::vector<int64_t> want;
  for (size_t i = 0; i <= name.size(); ++i) want.push_back(i < name.size() ? static_cast<int8_t>(name[i]) : 0);
  CHECK(std::vector<int64_t>(got.begin(), got.begin() + long(want.size())) == want);
  CHECK(got.back() == 1);
}
