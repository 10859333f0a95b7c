// -p PID of a chrooted process whose binary is an absolute symlink: rawprobe must resolve it
// inside the process's root, as the process does, and not from the host's root. The fixture
// root holds /bin/app -> /tmp/NAME-app/fun (absolute) and the real static fun at
// ROOT/tmp/NAME-app/fun; the host holds another copy of fun at /tmp/NAME-app/fun, so a
// resolution that leaves the root finds a file with the same function and attaches to the
// wrong inode: the count then stays 0 instead of equalling the calls fun reports. Both ways
// of resolving are run: openat2(RESOLVE_IN_ROOT), and the walk of kernels before 5.6.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/printed_count.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

bool copy_file(const std::string& from, const std::string& to) {
  return run({"cp", from, to}).status == 0;
}

// A child chrooted into `root` at once, held there until release(), then exec'ing `program`
// (a path inside the root) with its stderr captured.
class ChrootedChild {
 public:
  ChrootedChild(const std::string& root, const std::string& program, const std::string& arg) {
    int go[2], err[2];
    if (pipe2(go, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      int devnull = open("/dev/null", O_WRONLY);
      char byte;
      if (chroot(root.c_str()) != 0 || chdir("/") != 0) _exit(126);
      close(go[1]);
      if (read(go[0], &byte, 1) < 0) _exit(126);  // EOF: released
      dup2(devnull, 1);
      dup2(err[1], 2);
      execl(program.c_str(), program.c_str(), arg.c_str(), nullptr);
      _exit(127);
    }
    close(go[0]);
    close(err[1]);
    go_ = go[1];
    err_ = err[0];
    // Until the child has chrooted, /proc/PID/root is ours: a rawprobe started earlier would
    // look for the binary on the host.
    std::string link = "/proc/" + std::to_string(pid_) + "/root";
    char target[4096];
    for (int i = 0; i < 5000; ++i) {
      ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
      if (n > 0 && std::string(target, size_t(n)) == root) break;
      usleep(1000);
    }
  }
  ~ChrootedChild() {
    if (go_ >= 0) close(go_);
    if (err_ >= 0) close(err_);
    if (pid_ > 0 && status_ < 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }
  int status() const { return status_; }
  std::string release_and_wait() {
    close(go_);
    go_ = -1;
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(err_, buf, sizeof buf)) > 0;) text.append(buf, size_t(n));
    int st = 0;
    waitpid(pid_, &st, 0);
    status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return text;
  }

 private:
  pid_t pid_ = -1;
  int go_ = -1, err_ = -1, status_ = -1;
};

}  // namespace

TEST_CASE("-p PID of a chrooted process: an absolute symlink in its root resolves inside it") {
  char tmpl[] = "/tmp/rawprobe-chroot-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string root = tmpl;
  const std::string app_dir = "/tmp/" + root.substr(root.rfind('/') + 1) + "-app";
  std::string fun = sample("static/fun");
  // The VM's samples are all static, under their own names.
  if (access(fun.c_str(), X_OK) != 0) fun = sample("fun");
  REQUIRE_MESSAGE(access(fun.c_str(), X_OK) == 0, fun << " missing: make samples");
  REQUIRE(run({"mkdir", "-p", root + "/bin", root + app_dir, app_dir}).status == 0);
  REQUIRE(copy_file(fun, root + app_dir + "/fun"));  // the process's file
  REQUIRE(copy_file(fun, app_dir + "/fun"));         // the host's file of the same name
  REQUIRE(symlink((app_dir + "/fun").c_str(), (root + "/bin/app").c_str()) == 0);
  // The trap is there: joined as a string, /proc/PID/root/bin/app reaches the host's copy.
  struct stat joined, host;
  REQUIRE(stat((root + "/bin/app").c_str(), &joined) == 0);
  REQUIRE(stat((app_dir + "/fun").c_str(), &host) == 0);
  CHECK((joined.st_dev == host.st_dev && joined.st_ino == host.st_ino));

  // Once through openat2(RESOLVE_IN_ROOT), once through the walk that kernels before 5.6 take
  // (openat2 pretended missing): both must stay inside the root.
  for (std::string missing : {"", "openat2"}) {
    CAPTURE(missing);
    ChrootedChild child(root, "/bin/app", "7");
    REQUIRE(child.pid() > 0);
    setenv("RAWPROBE_PRETEND_MISSING", missing.c_str(), 1);
    Process tracer({rawprobe_path(), "--trace-syscalls", "-p", std::to_string(child.pid()), "-e",
                    "BEGIN { printf(\"attached\\n\"); } uprobe:/bin/app:bar { @calls[probe] = count(); }"});
    unsetenv("RAWPROBE_PRETEND_MISSING");
    bool attached = tracer.wait_for_output("attached\n", 30);
    std::string report = child.release_and_wait();
    RunResult r = tracer.finish(30);
    INFO("tracer:\n", r.out, r.err, "\nchild:\n", report);
    REQUIRE(attached);
    CHECK(child.status() == 0);
    CHECK(r.status == 0);
    long expected = sys::ktest::reported_calls(report, "bar");
    REQUIRE(expected > 0);
    // The probe is named as the user wrote it, and counted every call of the root's copy.
    CHECK(printed_count(r.out, "@calls\\[uprobe:/bin/app:bar\\]") == expected);
    // The open that resolved it, as --trace-syscalls decodes it; the walk makes no openat2.
    std::regex by_openat2("openat2\\([0-9]+</proc/" + std::to_string(child.pid()) +
                          "/root>, \"/bin/app\", \\{flags=O_RDONLY\\|O_CLOEXEC, "
                          "resolve=RESOLVE_NO_MAGICLINKS\\|RESOLVE_IN_ROOT\\}, 24\\) = [0-9]+");
    CHECK(std::regex_search(r.err, by_openat2) == missing.empty());
  }
  run({"rm", "-rf", root, app_dir});
}

TEST_CASE("-p PID: a binary missing inside the process's root is named, with where it was looked for") {
  char tmpl[] = "/tmp/rawprobe-chroot-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string root = tmpl;
  REQUIRE(run({"mkdir", "-p", root + "/bin"}).status == 0);
  // Absolute, to a file the host has and the root does not.
  REQUIRE(symlink("/bin/sh", (root + "/bin/app").c_str()) == 0);
  // The same error from openat2 and from the walk (openat2 pretended missing).
  for (std::string missing : {"", "openat2"}) {
    CAPTURE(missing);
    ChrootedChild child(root, "/bin/app", "1");
    REQUIRE(child.pid() > 0);
    RunResult r = run({"env", "RAWPROBE_PRETEND_MISSING=" + missing, rawprobe_path(), "-p", std::to_string(child.pid()),
                       "-e", "uprobe:/bin/app:main { }"});
    child.release_and_wait();
    CHECK(r.status == 1);
    CHECK_MESSAGE(r.err.find("open a file inside /proc/" + std::to_string(child.pid()) + "/root (/bin/app): ENOENT") !=
                      std::string::npos,
                  r.err);
    CHECK_MESSAGE(r.err.find("no such file in that process's filesystem") != std::string::npos, r.err);
  }
  run({"rm", "-rf", root});
}
