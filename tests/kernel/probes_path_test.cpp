// path() through the real CLI: bpf_d_path on a pointer read straight from an iterator's
// BTF-typed context. The oracle is the kernel's other account of the same files,
// readlink(/proc/self/fd/N).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// "FD PATH" lines of `out`, by fd.
std::map<long, std::string> fd_lines(const std::string& out) {
  std::map<long, std::string> got;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    size_t space = line.find(' ');
    if (space == std::string::npos || space == 0 || line.find_first_not_of("0123456789") != space) continue;
    got[std::stol(line.substr(0, space))] = line.substr(space + 1);
  }
  return got;
}

// This process's fds and what readlink says of each, but for the one reading the directory.
std::map<long, std::string> own_fd_links() {
  std::map<long, std::string> links;
  std::string listing = "/proc/" + std::to_string(getpid()) + "/fd";
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    std::filesystem::path target = std::filesystem::read_symlink(e.path(), ec);
    if (!ec && target != listing) links[std::stol(e.path().filename())] = target.string();
  }
  return links;
}

std::string script_for_this_process(const std::string& path_call) {
  return "iter:task_file /ctx->task->tgid == " + std::to_string(getpid()) + "/ { printf(\"%d %s\\n\", ctx->fd, " +
         path_call + "); }";
}

}  // namespace

TEST_CASE("path(ctx->file->f_path) in iter:task_file names each open file as /proc/self/fd does") {
  if (!kernel_btf_present())
    return check_refused_without_btf({"-e", "iter:task_file { printf(\"%s\\n\", path(ctx->file->f_path)); }"});
  // A file whose path is longer than the default 64-byte string, so both the whole path
  // (size 4096) and the cut one (bpftrace keeps the tail) are checked.
  std::string dir = "/tmp/rawprobe-path-test-" + std::to_string(getpid()) + "-a-directory-name-long-enough";
  std::filesystem::create_directories(dir);
  std::string file = dir + "/opened file";
  int fd = ::open(file.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  REQUIRE(fd >= 0);
  REQUIRE(file.size() > 64);
  std::map<long, std::string> before = own_fd_links();
  RunResult whole = run_rawprobe({"-q", "-e", script_for_this_process("path(ctx->file->f_path, 4096)")}, 60);
  RunResult cut = run_rawprobe({"-q", "-e", script_for_this_process("path(ctx->file->f_path)")}, 60);
  std::map<long, std::string> after = own_fd_links();
  ::close(fd);
  std::filesystem::remove_all(dir);
  INFO(whole.out, whole.err, cut.err);
  REQUIRE(whole.status == 0);
  REQUIRE(cut.status == 0);
  std::map<long, std::string> got_whole = fd_lines(whole.out), got_cut = fd_lines(cut.out);
  CHECK(got_whole[fd] == file);
  size_t compared = 0;
  for (const auto& [n, link] : before) {
    if (!after.count(n) || after[n] != link) continue;  // changed during the runs
    CHECK_MESSAGE(got_whole[n] == link, "fd " << n);
    // Cut to the string's 63 bytes and its NUL, the tail kept, as bpftrace documents.
    std::string tail = link.size() > 63 ? link.substr(link.size() - 63) : link;
    CHECK_MESSAGE(got_cut[n] == tail, "fd " << n);
    ++compared;
  }
  CHECK(compared >= 4);  // stdin, stdout, stderr and the file at least
}

TEST_CASE("path() on a pointer the verifier cannot type is refused before loading, at its place, saying where it works") {
  struct Case {
    std::string script, part, says;
  } cases[] = {
      {"kprobe:vfs_open { printf(\"%s\\n\", path((struct path *)arg0)); }", "path(", "works in fentry, fexit and iter"},
      {"iter:task_file { $f = ctx->file; printf(\"%s\\n\", path($f->f_path)); }", "$f->",
       "a variable keeps the pointer as a plain number"},
      {"iter:task_file { printf(\"%s\\n\", path(*(struct path *)ctx->file)); }", "(struct path *)",
       "a cast makes a plain number of it"},
      {"iter:task_file { printf(\"%s\\n\", path(ctx->file)); }", "ctx->file", "expects a 'struct path *' or a 'struct path'"},
      {"iter:task_file { printf(\"%s\\n\", path(ctx->file->f_path, 0)); }", "0)", "size must be an integer literal"},
  };
  for (const Case& c : cases) {
    RunResult r = run_rawprobe({"--trace-syscalls", "-e", c.script});
    INFO(c.script, r.err);
    CHECK(r.status != 0);
    // Without kernel BTF, the refusal is that one (struct path and ctx come from BTF).
    CHECK(r.err.find(kernel_btf_present() ? c.says : std::string("CONFIG_DEBUG_INFO_BTF")) != std::string::npos);
    std::string at = "-e:1:" + std::to_string(c.script.find(c.part) + 1) + ":";
    if (kernel_btf_present()) CHECK(r.err.find(at) != std::string::npos);
    CHECK(r.err.find("BPF_PROG_LOAD") == std::string::npos);
  }
}
