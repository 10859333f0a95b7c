// -o FILE, run as root: a symbolic link planted at FILE is refused, not followed (the file it
// points at keeps its bytes); a directory is refused with a file name to use instead; a new
// file gets 0644 less the caller's umask.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

constexpr const char* kScript = "BEGIN { printf(\"x\\n\"); exit(); }";

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/rawprobe-output-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf " + path).c_str()); }
};

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("-o refuses a symbolic link planted at the path and leaves its target as it was") {
  TempDir dir;
  std::string victim = dir.path + "/victim", link = dir.path + "/out";
  std::ofstream(victim) << "keep\n";
  REQUIRE(symlink(victim.c_str(), link.c_str()) == 0);
  RunResult r = run_rawprobe({"-o", link, "-e", kScript});
  CHECK(r.status == 1);
  CHECK(r.out == "");
  CHECK(r.err == "rawprobe: open the output file '" + link + "': open: ELOOP (Too many levels of symbolic links)\n"
                 "hint: it is a symbolic link, which -o does not follow: give the path of the file itself\n");
  CHECK(read_file(victim) == "keep\n");
}

TEST_CASE("-o refuses a directory and names a file to give instead") {
  TempDir dir;
  RunResult r = run_rawprobe({"-o", dir.path, "-e", kScript});
  CHECK(r.status == 1);
  CHECK(r.err == "rawprobe: open the output file '" + dir.path + "': open: EISDIR (Is a directory)\n"
                 "hint: it is a directory: give -o a file name, e.g. " + dir.path + "/rawprobe.out\n");
}

TEST_CASE("-o creates the file with 0644 less the caller's umask and writes the output there") {
  TempDir dir;
  std::string out = dir.path + "/trace.txt";
  RunResult r = run({"sh", "-c", "umask 027; exec \"$0\" -o \"$1\" -e \"$2\"", rawprobe_path(), out, kScript});
  REQUIRE_MESSAGE(r.status == 0, r.err);
  struct stat st;
  REQUIRE(stat(out.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == (0644 & ~027));
  // bpftrace 0.17 with the same -o: the same file, and the same two newlines left on stdout.
  std::string oracle = dir.path + "/bpftrace.txt";
  RunResult bt = run({"bpftrace", "-o", oracle, "-e", kScript});
  REQUIRE_MESSAGE(bt.status == 0, bt.err);
  CHECK(r.out == bt.out);
  CHECK(read_file(out) == read_file(oracle));
  CHECK(read_file(out).rfind("Attaching 1 probe...\nx\n", 0) == 0);
}

TEST_SUITE_END();
