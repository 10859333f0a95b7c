// The BTF that programs with subprograms load with (engine/btf/func_btf.h), read back by
// bpftool, the oracle for the format: every function a static FUNC of a prototype with its
// number of `long` parameters. The kernel's acceptance of it is tested by running for loops
// (tests/kernel/lang_loops_test.cpp).
#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>

#include "engine/btf/func_btf.h"
#include "tests/unit/probes_capture.h"

using namespace rawprobe;

TEST_SUITE_BEGIN("host-only");

TEST_CASE("functions_btf: bpftool reads one static FUNC per function, in order") {
  std::vector<btf::FunctionDecl> decls = {{"main", 1}, {"for_body_1", 4}, {"for_body_2", 2}};
  btf::FunctionsBtf types = btf::functions_btf(decls);
  std::string path = "/tmp/rawprobe_func_btf_" + std::to_string(::getpid());
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(types.blob.data()),
                                              static_cast<std::streamsize>(types.blob.size()));
  std::string dumped = probes::test::command_output("bpftool btf dump file " + path + " 2>&1");
  ::unlink(path.c_str());

  std::string expected = "[1] INT 'long' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED\n";
  uint32_t id = 1;
  REQUIRE(types.func_ids.size() == decls.size());
  for (size_t i = 0; i < decls.size(); ++i) {
    uint32_t proto = ++id;
    expected += "[" + std::to_string(proto) + "] FUNC_PROTO '(anon)' ret_type_id=1 vlen=" +
                std::to_string(decls[i].params) + "\n";
    for (uint32_t p = 0; p < decls[i].params; ++p) expected += "\t'arg' type_id=1\n";
    expected += "[" + std::to_string(++id) + "] FUNC '" + decls[i].name + "' type_id=" + std::to_string(proto) +
                " linkage=static\n";
    CHECK(types.func_ids[i] == id);
  }
  CHECK(dumped == expected);
}

TEST_SUITE_END();
