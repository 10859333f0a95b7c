// Enum constants in expressions, as bpftrace 0.17 reads them: an enumerator the script declares,
// and one of the kernel's own enums from its BTF (no header needed). bpftrace is the oracle for
// what each prints; bpftool's dump of the kernel's BTF is the oracle for the kernel's values.
#include <doctest/doctest.h>

#include <regex>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// The value of enumerator `name` in `bpftool btf dump file /sys/kernel/btf/vmlinux format c`
// ("\tNAME = VALUE,"), or "" when bpftool does not list it.
std::string bpftool_enumerator(const std::string& name) {
  RunResult dump = run({"bpftool", "btf", "dump", "file", "/sys/kernel/btf/vmlinux", "format", "c"}, 120);
  std::smatch m;
  std::regex line("\\n\\t" + name + " = (-?[0-9]+),?\\n");
  return std::regex_search(dump.out, m, line) ? m[1].str() : "";
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("enum constants of the script and of the kernel's BTF print as bpftrace 0.17 prints them") {
  if (geteuid() != 0) {
    MESSAGE("needs root to run BEGIN");
    return;
  }
  // tcplife.bt and tcpdrop.bt compare socket states with TCP_* constants that no header of
  // theirs defines; BPF_MAP_TYPE_RINGBUF is an enumerator past the 0.17-era ones.
  const std::string program =
      "enum colour { RED = 3, GREEN, BLUE = -2 };\n"
      "BEGIN { printf(\"%d %d %d %d %d\\n\", GREEN, BLUE, TCP_FIN_WAIT1, TCP_CLOSE, BPF_MAP_TYPE_RINGBUF); "
      "@[TCP_LISTEN] = GREEN + 1; exit(); }";
  RunResult oracle = run({"bpftrace", "-e", program});
  RunResult ours = run_rawprobe({"-e", program});
  REQUIRE_MESSAGE(oracle.status == 0, oracle.err);
  REQUIRE_MESSAGE(ours.status == 0, ours.err);
  CHECK(ours.out == oracle.out);

  std::string kernel_values = bpftool_enumerator("TCP_FIN_WAIT1") + " " + bpftool_enumerator("TCP_CLOSE") + " " +
                              bpftool_enumerator("BPF_MAP_TYPE_RINGBUF");
  CHECK(ours.out.find(" " + kernel_values + "\n") != std::string::npos);
}

TEST_CASE("a name that is neither a builtin nor an enumerator is still an unknown identifier") {
  RunResult ours = run_rawprobe({"--dry-run", "-e", "BEGIN { print(NO_SUCH_ENUMERATOR_XYZ); }"});
  CHECK(ours.status == 1);
  CHECK(ours.err.find("-e:1:15: error: Unknown identifier: 'NO_SUCH_ENUMERATOR_XYZ'") == 0);
}

TEST_SUITE_END();
