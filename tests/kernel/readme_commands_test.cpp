// README.md's example commands still run and still print what README.md shows (the rules are
// in tests/kernel/readme_blocks.h). Blocks marked `vm` need kprobes or a hardware PMU, which
// this machine lacks: tests/vm/guest.d/readme-commands.sh runs them on the stock kernels from a
// copy of those blocks, and this test checks that the copy equals README.md.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/readme_blocks.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// The README's commands name the seed's paths (/tmp/fun, /tmp/usdt_hello...): the build's
// samples go there, replaced by rename so a program running from the old file is not hit.
void install_sample(const std::string& name, const std::string& as) {
  std::string from = sample(name), to = "/tmp/" + as;
  if (read_file(from) == read_file(to)) return;
  std::string tmp = to + ".readme-test";
  RunResult cp = run({"cp", from, tmp});
  REQUIRE_MESSAGE(cp.status == 0, cp.err);
  REQUIRE(std::rename(tmp.c_str(), to.c_str()) == 0);
}

// The blocks of the guest script's heredoc, between "<<'READMEBLOCKS'" and "READMEBLOCKS".
std::string guest_copy(const std::string& script) {
  size_t start = script.find("<<'READMEBLOCKS'\n");
  size_t end = script.find("\nREADMEBLOCKS\n");
  if (start == std::string::npos || end == std::string::npos) return "";
  start = script.find('\n', start) + 1;
  return script.substr(start, end - start + 1);
}

std::string show(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("README: every example command runs and prints what README.md shows") {
  std::string root = source_root();
  std::vector<readme::Block> blocks = readme::example_blocks(read_file(root + "/README.md"));
  REQUIRE(blocks.size() > 10);
  for (auto [name, as] : std::vector<std::pair<std::string, std::string>>{
           {"fun", "fun"}, {"hello", "hello"}, {"read_rand", "read_rand"}, {"open_read", "open_read"},
           {"hello_usdt", "usdt_hello"}, {"struct_arg", "struct_arg"},
           {"thread_signals", "thread_signals"}})
    install_sample(name, as);
  int ran = 0;
  for (const readme::Block& b : blocks) {
    if ((b.has("vm") && !b.has("host")) || b.has("skip") || b.other_arch()) continue;
    for (const readme::Command& c : b.commands) {
      std::string script = "cd '" + root + "' || exit 99; PATH='" + build_dir() + "':\"$PATH\"; export PATH; exec 2>&1 </dev/null; " + c.line;
      RunResult r = run({"/bin/sh", "-c", script}, 120);
      std::vector<std::string> actual = readme::split_lines(r.out);
      INFO("# " << c.line << "\n--- README shows:\n" << show(c.output) << "--- it printed (exit " << r.status
                << "):\n" << r.out << r.err);
      CHECK(r.status == b.status());
      CHECK(readme::output_matches(c.output, actual, b));
      ++ran;
    }
  }
  MESSAGE(ran << " README commands run on this host");
}

TEST_CASE("README: the VM guest's copy of the kprobe and PMU blocks equals README.md") {
  std::string root = source_root();
  std::vector<readme::Block> readme_vm;
  for (const readme::Block& b : readme::example_blocks(read_file(root + "/README.md")))
    if (b.has("vm")) readme_vm.push_back(b);
  std::string copy = guest_copy(read_file(root + "/tests/vm/guest.d/readme-commands.sh"));
  REQUIRE(!copy.empty());
  std::vector<readme::Block> guest = readme::example_blocks(copy);
  REQUIRE(!readme_vm.empty());
  REQUIRE(guest.size() == readme_vm.size());
  for (size_t i = 0; i < guest.size(); ++i) {
    INFO("block " << i + 1 << " of the vm blocks; README.md:\n" << show(readme_vm[i].lines) << "guest copy:\n"
                  << show(guest[i].lines));
    CHECK(guest[i].options == readme_vm[i].options);
    CHECK(guest[i].lines == readme_vm[i].lines);
  }
}

TEST_CASE("README: the output rule catches a changed line, a missing line and a reordered one") {
  readme::Block exact, numbered, sorted;
  numbered.options = "numbers:pid";
  sorted.options = "sorted";
  std::vector<std::string> shown = {"Attaching 1 probe...", "pid 12", "", "@calls: 3"};
  CHECK(readme::output_matches(shown, shown, exact));
  CHECK_FALSE(readme::output_matches(shown, {"Attaching 1 probe...", "pid 12", "", "@calls: 4"}, exact));
  CHECK_FALSE(readme::output_matches(shown, {"Attaching 1 probe...", "pid 12", ""}, exact));
  CHECK(readme::output_matches(shown, {"Attaching 1 probe...", "pid 99", "", "@calls: 3"}, numbered));
  CHECK_FALSE(readme::output_matches(shown, {"Attaching 1 probe...", "pid 99", "", "@calls: 4"}, numbered));
  CHECK_FALSE(readme::output_matches(shown, {"pid 12", "Attaching 1 probe...", "", "@calls: 3"}, exact));
  CHECK(readme::output_matches(shown, {"pid 12", "Attaching 1 probe...", "", "@calls: 3"}, sorted));
  CHECK(readme::output_matches({"a", "...", "z"}, {"a", "b", "c", "z"}, exact));
  CHECK(readme::output_matches({"a", "...", "z"}, {"a", "z"}, exact));
  CHECK_FALSE(readme::output_matches({"a", "...", "z"}, {"a", "b", "z", "y"}, exact));
  CHECK(readme::output_matches({"...", "b", "..."}, {"a", "b", "c"}, exact));
  // A padded column loses a blank when its number grows a digit: README's --bench row against
  // the row a loaded CI machine printed.
  readme::Block all_numbers;
  all_numbers.options = "numbers";
  std::vector<std::string> row = {"count                                    40             65535"};
  std::vector<std::string> slower = {"count                                    101            32767"};
  CHECK(readme::output_matches(row, slower, all_numbers));
  CHECK_FALSE(readme::output_matches(row, slower, exact));
  CHECK_FALSE(readme::output_matches(row, {"counts                                   101            32767"}, all_numbers));
  CHECK_FALSE(readme::output_matches(row, {"count                                    101            32767 ns"}, all_numbers));
}

TEST_SUITE_END();
