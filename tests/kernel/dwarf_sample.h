// A sample of samples/ built twice in a fresh directory for the uprobe args->NAME tests: with
// `gcc -g -O1` (DWARF describes its functions) and with `-O1` alone (no DWARF); removed again
// when the test ends.
#pragma once
#include <stdlib.h>

#include <string>

#include "tests/kernel/cli_run.h"

namespace rawprobe::cli_test {

struct DwarfSample {
  std::string dir, with_dwarf, without_dwarf;
  explicit DwarfSample(const std::string& name) {
    std::string tmpl_text = "/tmp/rawprobe-" + name + "-XXXXXX";
    std::vector<char> tmpl(tmpl_text.begin(), tmpl_text.end());
    tmpl.push_back('\0');
    dir = mkdtemp(tmpl.data());
    with_dwarf = dir + "/" + name;
    without_dwarf = dir + "/" + name + "_nodw";
    std::string src = source_root() + "/samples/" + name + ".c";
    RunResult g = run({"gcc", "-g", "-O1", "-o", with_dwarf, src});
    RunResult n = run({"gcc", "-O1", "-o", without_dwarf, src});
    REQUIRE_MESSAGE(g.status == 0, g.err);
    REQUIRE_MESSAGE(n.status == 0, n.err);
  }
  ~DwarfSample() { std::system(("rm -rf " + dir).c_str()); }
};

}  // namespace rawprobe::cli_test
