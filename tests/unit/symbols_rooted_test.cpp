// The user symbolizer reads a process's files inside its root: a perf map
// (/tmp/perf-PID.map) that the process's root holds as an absolute symlink is read from the
// file that link names inside the root, not from the host file of the same absolute name.
// A fixture /proc, and a host file planted at the link's target with other symbols.
#include <doctest/doctest.h>

#include <unistd.h>

#include <string>

#include "engine/symbols/user_symbols.h"
#include "tests/unit/elf_test_support.h"

using namespace rawprobe;
using namespace rawprobe::symbols;
using rawprobe::elf::test::scratch_dir;
using rawprobe::elf::test::write_file;

TEST_CASE("user symbols: a perf map linked absolutely inside the process's root is read there") {
  const std::string proc = scratch_dir("rooted-proc");
  const std::string root = proc + "/4242/root";
  // The link's target: a name the host has too, holding another symbol.
  const std::string target = "/tmp/rawprobe-rooted-perf-map-" + std::to_string(getpid()) + ".map";
  write_file(target, "1000 40 host_function\n");
  elf::test::run("mkdir -p '" + root + "/tmp'");
  write_file(root + target, "1000 40 container_function\n");
  REQUIRE(symlink(target.c_str(), (root + "/tmp/perf-4242.map").c_str()) == 0);
  write_file(proc + "/4242/maps", "7f0000000000-7f0000001000 r-xp 00000000 08:01 200 /lib/x.so\n");

  UserSymbols symbols(1 << 20, proc);
  UserResolved r = symbols.resolve(4242, 0x1005);
  REQUIRE(r.frame);
  CHECK(r.frame->name == "container_function");
  CHECK(r.frame->offset == 5);
  CHECK(r.module == "/tmp/perf-4242.map");
  unlink(target.c_str());
}
