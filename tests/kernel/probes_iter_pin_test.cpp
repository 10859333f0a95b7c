// iter:NAME:PIN through the real CLI on this machine's kernel: the link is pinned to bpffs and
// rawprobe ends; each read of the pinned file runs the program, whose printf output
// (bpf_seq_printf) is what the reader gets. /proc is the oracle of what a task iterator lists.
#include <doctest/doctest.h>

#include <unistd.h>

#include <regex>
#include <sstream>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/proc_pids.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// A pin path of this test process, removed however the test ends.
struct Pin {
  std::string name = "rawprobe_test_" + std::to_string(getpid());
  std::string path = "/sys/fs/bpf/" + name;
  Pin() { unlink(path.c_str()); }
  ~Pin() { unlink(path.c_str()); }
};

// "PID COMM" lines into pid -> comm.
std::map<long, std::string> tasks_of(const std::string& text) {
  std::map<long, std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t space = line.find(' ');
    if (space != std::string::npos) out[std::stol(line.substr(0, space))] = line.substr(space + 1);
  }
  return out;
}

const char* kLeaders = "/ctx->task->pid == ctx->task->tgid/ { printf(\"%d %s\\n\", ctx->task->pid, ctx->task->comm); }";

}  // namespace

TEST_CASE("iter:task:NAME pins the iterator and ends; each read of the file runs it over /proc's processes") {
  Pin pin;
  if (!kernel_btf_present()) return check_refused_without_btf({"-e", "iter:task:" + pin.name + " " + kLeaders});
  RunResult r = run_rawprobe({"--trace-syscalls", "-e", "iter:task:" + pin.name + " " + kLeaders}, 60);
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("Program pinned to " + pin.path + "\n") != std::string::npos);
  CHECK(std::regex_search(r.err, std::regex(R"(bpf\(BPF_OBJ_PIN, \{pathname=")" + pin.path + R"(", bpf_fd=[0-9]+.*\) = 0)")));
  CHECK(r.err.find("BPF_ITER_CREATE") == std::string::npos);  // pinned, not run
  CHECK(r.out.find(std::to_string(getpid()) + " ") == std::string::npos);

  for (int pass = 0; pass < 2; ++pass) {  // every read runs the program again
    std::set<long> before = proc_pids();
    std::map<long, std::string> listed = tasks_of(read_file(pin.path));
    std::set<long> after = proc_pids();
    INFO("pass ", pass);
    REQUIRE(!listed.empty());
    for (long pid : before)
      if (after.count(pid)) CHECK_MESSAGE(listed.count(pid), "pid " << pid << " is in /proc but not read");
    for (const auto& [pid, comm] : listed) CHECK_MESSAGE((before.count(pid) || after.count(pid)), "pid " << pid);
    std::string own = read_file("/proc/self/comm");
    CHECK(listed[getpid()] + "\n" == own);
  }
  CHECK(unlink(pin.path.c_str()) == 0);  // unpinning ends it: the link had no other holder
}

TEST_CASE("a pinned iterator refuses what needs rawprobe, and a taken or non-bpffs pin path, before attaching") {
  Pin pin;
  struct Case {
    std::string script, says;
  } cases[] = {
      {"iter:task:" + pin.name + " { print(1); }", "print() cannot be used in a pinned iterator"},
      {"iter:task:" + pin.name + " { printf(\"%5.2s\\n\", ctx->task->comm); }", "does not take '%5.2s'"},
      {"iter:task:" + pin.name + " { printf(\"%hu %o\\n\", ctx->task->pid, 1); }", "does not take '%hu'"},
      {"iter:task:/tmp/" + pin.name + " { printf(\"x\\n\"); }", "/tmp is not on bpffs"},
  };
  for (const Case& c : cases) {
    RunResult r = run_rawprobe({"--trace-syscalls", "-e", c.script});
    INFO(c.script, r.err);
    CHECK(r.status != 0);
    // Without kernel BTF, the refusal may be that one instead, whichever rawprobe meets first.
    CHECK((r.err.find(c.says) != std::string::npos ||
           (!kernel_btf_present() && r.err.find("CONFIG_DEBUG_INFO_BTF") != std::string::npos)));
    CHECK(r.err.find("BPF_LINK_CREATE") == std::string::npos);
  }
  // A second pin on a taken path, where the first could pin (iterators need the kernel's BTF).
  if (!kernel_btf_present()) return check_refused_without_btf({"-e", "iter:task:" + pin.name + " { printf(\"x\\n\"); }"});
  RunResult first = run_rawprobe({"-e", "iter:task:" + pin.name + " { printf(\"x\\n\"); }"});
  REQUIRE(first.status == 0);
  RunResult again = run_rawprobe({"--trace-syscalls", "-e", "iter:task:" + pin.name + " { printf(\"y\\n\"); }"});
  INFO(again.err);
  CHECK(again.status != 0);
  CHECK(again.err.find(pin.path + " exists") != std::string::npos);
  CHECK(again.err.find("rm " + pin.path) != std::string::npos);
  CHECK(again.err.find("BPF_LINK_CREATE") == std::string::npos);
}

TEST_CASE("with no bpffs at /sys/fs/bpf, pinning mounts one there, says so, and the pin runs from it" *
          doctest::test_suite("host-only")) {
  // In a mount namespace of its own, where /sys/fs/bpf is unmounted first: the host's mounts
  // are not touched, and the namespace's bpffs (and the pin in it) go when it ends. Host-only:
  // it needs util-linux's unshare, which the guests lack.
  Pin pin;
  std::string script = "umount /sys/fs/bpf 2>/dev/null; " + shell_quote(rawprobe_path()) +
                       " --trace-syscalls -e " +
                       shell_quote("iter:task:" + pin.name + " /ctx->task->pid == " + std::to_string(getpid()) +
                                   "/ { printf(\"%d\\n\", ctx->task->pid); }") +
                       " && echo read: && cat " + pin.path;
  RunResult r = run({"unshare", "-m", "--propagation", "private", "sh", "-c", script}, 60);
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("mount(\"bpf\", \"/sys/fs/bpf\", \"bpf\", MS_NOSUID|MS_NODEV|MS_NOEXEC, NULL) = 0") !=
        std::string::npos);
  CHECK(r.err.find("rawprobe: bpffs was not mounted; mounted it at /sys/fs/bpf") != std::string::npos);
  CHECK(r.out.find("Program pinned to " + pin.path + "\n") != std::string::npos);
  CHECK(r.out.substr(r.out.find("read:\n") + 6) == std::to_string(getpid()) + "\n");
}
