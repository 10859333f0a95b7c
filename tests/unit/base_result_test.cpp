#include <doctest/doctest.h>

#include "engine/base/result.h"

using namespace rawprobe;

TEST_CASE("syscall errors name the errno and carry object and hint") {
  Error e = syscall_error("load program", "bpf(BPF_PROG_LOAD)", EPERM, "uprobe:/bin/true:main",
                          "needs root or CAP_BPF+CAP_PERFMON");
  std::string msg = e.message();
  CHECK(msg.find("load program 'uprobe:/bin/true:main'") == 0);
  CHECK(msg.find("bpf(BPF_PROG_LOAD): EPERM (") != std::string::npos);
  CHECK(msg.find("hint: needs root or CAP_BPF+CAP_PERFMON") != std::string::npos);
  CHECK(errno_name(ENOENT) == "ENOENT");
  CHECK(errno_name(100000) == "errno 100000");
}

TEST_CASE("Result holds a value or an error") {
  Result<int> good = 7;
  REQUIRE(good.ok());
  CHECK(*good == 7);
  Result<int> bad = make_error("parse", "x");
  CHECK_FALSE(bad.ok());
  CHECK(bad.error().what == "parse");
  Status fine;
  CHECK(fine.ok());
  Status failed = make_error("attach");
  CHECK_FALSE(failed.ok());
}
