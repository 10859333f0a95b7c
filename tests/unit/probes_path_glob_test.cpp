// expand_path_glob (engine/probes/path_glob.h) against glob(3) itself, on a real directory
// tree: the same paths, in the same order, for every pattern form a uprobe target can use.
#include <doctest/doctest.h>

#include <glob.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "engine/probes/path_glob.h"
#include "tests/unit/sys_fixture.h"

using rawprobe::probes::expand_path_glob;

namespace {

std::vector<std::string> libc_glob(const std::string& pattern) {
  std::vector<std::string> out;
  glob_t g{};
  if (::glob(pattern.c_str(), 0, nullptr, &g) == 0)
    for (size_t i = 0; i < g.gl_pathc; ++i) out.push_back(g.gl_pathv[i]);
  ::globfree(&g);
  return out;
}

}  // namespace

TEST_CASE("path wildcards expand to what glob(3) gives, in its order") {
  rawprobe::sys::testing::TempTree tree;
  for (const char* f : {"/usr/lib/x86_64/libc.so.6", "/usr/lib/i386/libc.so.6", "/usr/lib-2/x86_64/libc.so.6",
                        "/usr/lib/.hidden/libc.so.6", "/usr/lib/x86_64/libm.so.6", "/usr/lib/x86_64/.libc.so.6",
                        "/usr/lib/aarch64/libc.so.6", "/bin/fun", "/bin/fun2", "/bin/fan"})
    tree.write(f, "x");
  std::string root = tree.root();
  std::vector<std::string> patterns = {
      "/usr/lib/*/libc.so.6", "/usr/lib*/*/libc.so.6", "/usr/lib/x86_64/*",     "/usr/lib/*/.lib*",
      "/usr/lib/.*/libc.so.6", "/bin/f?n",             "/bin/f[au]n*",          "/bin/[!f]*",
      "/usr/*/*/lib?.so.6",   "/nothing/*/here",       "/usr/lib/*/missing.so", "//usr//lib/*//libc.so.6",
      "/usr/lib/*/"};
  for (const std::string& p : patterns) {
    CAPTURE(p);
    std::vector<std::string> want = libc_glob(root + p);
    CHECK(expand_path_glob(root + p) == want);
  }
  // Relative to the current directory, as a target written "build/samples/f*" is.
  char old_cwd[4096];
  REQUIRE(::getcwd(old_cwd, sizeof old_cwd));
  REQUIRE(::chdir(root.c_str()) == 0);
  for (const char* p : {"bin/f*", "usr/lib/*/libc.so.6", "*/fun"}) {
    CAPTURE(p);
    CHECK(expand_path_glob(p) == libc_glob(p));
  }
  REQUIRE(::chdir(old_cwd) == 0);
  CHECK_FALSE(libc_glob(root + "/usr/lib/*/libc.so.6").empty());  // the oracle saw the tree
}
