// Opening a file inside another root (engine/sys/rooted_open.h), as a container's process sees
// it: a fixture root holding an absolute symlink to a name the host also has, ".." escapes
// and a symlink loop. Both ways are checked, openat2(RESOLVE_IN_ROOT) and the walk older
// kernels get, against the file identities stat(2) reports for the fixture's own files.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>

#include "engine/sys/rooted_open.h"
#include "tests/unit/sys_trace_support.h"

using namespace rawprobe;
using namespace rawprobe::sys;

namespace {

// The host file the fixture's absolute symlinks name; every Linux host has it.
const std::string kHostFile = "/etc/os-release";

struct FixtureRoot {
  std::string dir;
  FixtureRoot() {
    char tmpl[] = "/tmp/rawprobe-root-test-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    dir = tmpl;
    for (const char* d : {"/etc", "/lib", "/usr", "/usr/lib"}) REQUIRE(mkdir((dir + d).c_str(), 0755) == 0);
    std::ofstream(dir + kHostFile) << "the root's own file\n";
    // Absolute: rooted in the fixture, not in the host's /.
    REQUIRE(symlink(kHostFile.c_str(), (dir + "/lib/x.so").c_str()) == 0);
    // ".." far past the top: clamped at the fixture's root.
    REQUIRE(symlink(("../../../../../../.." + kHostFile).c_str(), (dir + "/usr/lib/up.so").c_str()) == 0);
    // A chain: absolute to a directory link, then relative.
    REQUIRE(symlink("/usr/lib", (dir + "/lib64").c_str()) == 0);
    REQUIRE(symlink("loop2", (dir + "/loop1").c_str()) == 0);
    REQUIRE(symlink("/loop1", (dir + "/loop2").c_str()) == 0);
  }
  ~FixtureRoot() {
    std::string cmd = "rm -rf '" + dir + "'";
    CHECK(std::system(cmd.c_str()) == 0);
  }
};

bool same_inode(int fd, const std::string& path) {
  struct stat a, b;
  return fstat(fd, &a) == 0 && stat(path.c_str(), &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

using Opener = std::function<Result<Fd>(const std::string&, const std::string&)>;

void check_opener(const Opener& open) {
  FixtureRoot root;
  const std::string own = root.dir + kHostFile;
  // The trap is real: joined as a string, the absolute link leads out to the host's file.
  REQUIRE(same_inode(Fd(::open((root.dir + "/lib/x.so").c_str(), O_RDONLY)).get(), kHostFile));
  for (const char* path : {"/lib/x.so", "lib/x.so", "/usr/lib/up.so", "/../../../etc/os-release",
                           "/lib64/../../etc/os-release", "/lib64/up.so", "/etc/./os-release"}) {
    CAPTURE(path);
    Result<Fd> fd = open(root.dir, path);
    REQUIRE_MESSAGE(fd, (fd ? "" : fd.error().message()));
    CHECK(same_inode(fd->get(), own));
    CHECK(!same_inode(fd->get(), kHostFile));
  }
  Result<Fd> loop = open(root.dir, "/loop1");
  REQUIRE(!loop);
  CHECK(loop.error().err == ELOOP);
  CHECK(loop.error().message().find(root.dir) != std::string::npos);
  CHECK(loop.error().message().find("/loop1") != std::string::npos);
  CHECK(loop.error().hint.find("symlink loop") != std::string::npos);
  Result<Fd> missing = open(root.dir, "/lib/absent.so");
  REQUIRE(!missing);
  CHECK(missing.error().err == ENOENT);
  CHECK(missing.error().hint.find("no such file in that process's filesystem") != std::string::npos);
  Result<Fd> not_dir = open(root.dir, "/etc/os-release/x");
  REQUIRE(!not_dir);
  CHECK(not_dir.error().err == ENOTDIR);
  Result<Fd> no_root = open(root.dir + "/absent-root", "/lib/x.so");
  REQUIRE(!no_root);
  CHECK(no_root.error().err == ENOENT);
}

}  // namespace

TEST_CASE("open_in_root: openat2 with RESOLVE_IN_ROOT keeps symlinks and '..' inside the root") {
  check_opener(open_in_root);
}

TEST_CASE("open_in_root_by_walk: the walk of kernels before 5.6 resolves the same way") {
  check_opener(open_in_root_by_walk);
}

TEST_CASE("open_in_root_by_walk: a symlink chain longer than 40 links is ELOOP, 40 is not") {
  FixtureRoot root;
  // link0 -> link1 -> ... -> linkN -> /etc/os-release
  auto chain = [&](int n) {
    std::string prefix = root.dir + "/c" + std::to_string(n) + "_";
    for (int i = 0; i < n; ++i) {
      std::string target = i + 1 < n ? "c" + std::to_string(n) + "_" + std::to_string(i + 1) : kHostFile;
      REQUIRE(symlink(target.c_str(), (prefix + std::to_string(i)).c_str()) == 0);
    }
    return "/c" + std::to_string(n) + "_0";
  };
  std::string forty = chain(40), forty_one = chain(41);
  // The kernel is the oracle for where the limit lies.
  CHECK(bool(open_in_root(root.dir, forty)));
  CHECK(!open_in_root(root.dir, forty_one));
  CHECK(bool(open_in_root_by_walk(root.dir, forty)));
  Result<Fd> over = open_in_root_by_walk(root.dir, forty_one);
  REQUIRE(!over);
  CHECK(over.error().err == ELOOP);
}

TEST_CASE("open_in_root: --trace-syscalls shows the openat2 call decoded") {
  FixtureRoot root;
  testing::TraceCapture trace;
  Result<Fd> fd = open_in_root(root.dir, "/lib/x.so");
  REQUIRE(fd);
  REQUIRE(trace.lines.size() == 1);
  const std::string& line = trace.lines[0];
  CHECK_MESSAGE(line.rfind("openat2(", 0) == 0, line);
  CHECK_MESSAGE(line.find("<" + root.dir + ">, \"/lib/x.so\", {flags=O_RDONLY|O_CLOEXEC, resolve=") != std::string::npos, line);
  CHECK_MESSAGE(line.find("RESOLVE_IN_ROOT") != std::string::npos, line);
  CHECK_MESSAGE(line.find("RESOLVE_NO_MAGICLINKS") != std::string::npos, line);
  CHECK_MESSAGE(line.find("}, 24) = " + std::to_string(fd->get())) != std::string::npos, line);
  trace.lines.clear();
  Result<Fd> loop = open_in_root(root.dir, "/loop1");
  REQUIRE(trace.lines.size() == 1);
  CHECK_MESSAGE(trace.lines[0].find("= -1 ELOOP (") != std::string::npos, trace.lines[0]);
}
