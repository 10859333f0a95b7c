// cgroupid("path"), ncpus and nsecs(CLOCK) through the real CLI. Oracles: the kernel's own
// cgroup id of a process the test moves into a group it makes (what the `cgroup` builtin,
// bpf_get_current_cgroup_id, reads), the kernel's list of possible CPUs, and clock_gettime(2)
// of each clock read just before and just after the run.
#include <doctest/doctest.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

uint64_t clock_ns(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000'000 + uint64_t(ts.tv_nsec);
}

// The first line the run printed after "Attaching N probe(s)...".
std::string printed(const RunResult& r) {
  std::istringstream out(r.out);
  std::string line;
  std::getline(out, line);
  std::getline(out, line);
  return line;
}

// /sys/devices/system/cpu/possible ("0-1", "0", "0-3,8-11"): how many CPUs it lists.
uint64_t possible_cpus_listed() {
  std::string text = read_file("/sys/devices/system/cpu/possible");
  uint64_t count = 0;
  std::istringstream ranges(text);
  std::string range;
  while (std::getline(ranges, range, ',')) {
    size_t dash = range.find('-');
    uint64_t first = std::stoull(range.substr(0, dash));
    uint64_t last = dash == std::string::npos ? first : std::stoull(range.substr(dash + 1));
    count += last - first + 1;
  }
  return count;
}

// A cgroup2 hierarchy mounted for the test, with one group of its own: whatever this machine
// mounts at /sys/fs/cgroup (v1 controllers here, cgroup2 in the guests), the default hierarchy
// can be mounted once more, and its ids are the ones bpf_get_current_cgroup_id reads.
struct TestCgroup {
  std::string mount_point = "/tmp/rawprobe-cgroupid-test";
  std::string group = mount_point + "/rawprobe-test";
  bool mounted = false;
  TestCgroup() {
    std::filesystem::create_directories(mount_point);
    mounted = mount("none", mount_point.c_str(), "cgroup2", 0, nullptr) == 0;
    if (mounted) std::filesystem::create_directories(group);
  }
  ~TestCgroup() {
    if (!mounted) return;
    rmdir(group.c_str());
    umount2(mount_point.c_str(), MNT_DETACH);
  }
};

}  // namespace

TEST_CASE("cgroupid(dir) is the id bpf_get_current_cgroup_id reads for a process moved into that group") {
  TestCgroup cg;
  REQUIRE_MESSAGE(cg.mounted, "mount -t cgroup2 at " << cg.mount_point << ": " << strerror(errno));
  // The child writes its own pid into the group, then execs a program whose exit the probe sees.
  std::string child = "echo $$ > " + cg.group + "/cgroup.procs && exec /bin/true";
  std::string script = "tracepoint:syscalls:sys_enter_exit_group /pid == cpid/ { printf(\"%lu %lu %lu\\n\", cgroup, "
                       "cgroupid(\"" + cg.group + "\"), cgroupid(\"" + cg.mount_point + "\")); }";
  RunResult r = run_rawprobe({"-c", "/bin/sh -c '" + child + "'", "-e", script}, 60);
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::istringstream values(printed(r));
  uint64_t current = 0, group = 0, root = 0;
  values >> current >> group >> root;
  CHECK(current == group);
  // The root of every cgroup2 hierarchy, the kernel's cgrp_dfl_root: kernfs id 1 (inode 1). A
  // 32-bit kernel's kernfs id is its generation << 32 | inode, and the root's generation is 1.
  CHECK(root == (sizeof(long) == 8 ? 1 : (uint64_t{1} << 32 | 1)));
  CHECK(group != root);
}

TEST_CASE("cgroupid refuses a path that is not a cgroup2 directory, saying which and what to give") {
  struct Case {
    std::string path, says;
  } cases[] = {
      {"/no/such/group", "cgroupid(\"/no/such/group\"): No such file or directory"},
      {"/proc", "not a directory of a cgroup v2 file system (cgroup2)"},
  };
  for (const Case& c : cases) {
    RunResult r = run_rawprobe({"--trace-syscalls", "-e", "BEGIN { @ = cgroupid(\"" + c.path + "\"); exit(); }"});
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find(c.says) != std::string::npos);
    CHECK(r.err.find("BPF_PROG_LOAD") == std::string::npos);
  }
}

TEST_CASE("ncpus is the number of CPUs the kernel lists as possible") {
  RunResult r = run_rawprobe({"-e", "BEGIN { printf(\"%lu %lu\\n\", ncpus, ncpus()); exit(); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::string n = std::to_string(possible_cpus_listed());
  CHECK(printed(r) == n + " " + n);
}

TEST_CASE("nsecs(CLOCK) reads that clock: each value lies between clock_gettime's reads before and after the run") {
  struct Clock {
    const char* name;
    clockid_t id;
    uint64_t slack;  // sw_tai is BOOTTIME plus TAI's offset measured once: allow 1 ms of error
  } clocks[] = {{"monotonic", CLOCK_MONOTONIC, 0}, {"boot", CLOCK_BOOTTIME, 0}, {"tai", CLOCK_TAI, 0},
                {"sw_tai", CLOCK_TAI, 1'000'000}};
  for (const Clock& c : clocks) {
    uint64_t before = clock_ns(c.id);
    RunResult r = run_rawprobe({"-e", std::string("BEGIN { printf(\"%lu\\n\", nsecs(") + c.name + ")); exit(); }"});
    uint64_t after = clock_ns(c.id);
    INFO(c.name, r.out, r.err);
    REQUIRE(r.status == 0);
    uint64_t seen = std::stoull(printed(r));
    CHECK(seen + c.slack >= before);
    CHECK(seen <= after + c.slack);
  }
}

TEST_CASE("nsecs(CLOCK) names the clocks it knows, and the helper a kernel lacks") {
  RunResult bad = run_rawprobe({"-e", "BEGIN { @ = nsecs(wall); exit(); }"});
  CHECK(bad.status == 1);
  CHECK(bad.err.find("-e:1:19: error: nsecs() takes a clock: monotonic, boot, tai or sw_tai ('wall' is none of them)") !=
        std::string::npos);
  RunResult old = run({"env", "RAWPROBE_PRETEND_MISSING=ktime_get_tai_ns", rawprobe_path(), "-e",
                       "BEGIN { @ = nsecs(tai); exit(); }"});
  CHECK(old.status == 1);
  CHECK(old.err.find("nsecs(tai) needs the kernel's bpf_ktime_get_tai_ns helper (Linux 6.1)") != std::string::npos);
  CHECK(old.err.find("nsecs(sw_tai) approximates it") != std::string::npos);
  RunResult older = run({"env", "RAWPROBE_PRETEND_MISSING=ktime_get_boot_ns", rawprobe_path(), "-e",
                         "BEGIN { @ = nsecs(boot); exit(); }"});
  CHECK(older.status == 1);
  CHECK(older.err.find("bpf_ktime_get_boot_ns helper (Linux 5.8)") != std::string::npos);
}

TEST_SUITE("host-only") {
TEST_CASE("cgroupid(dir) equals bpftrace 0.17's for the same cgroup2 group") {
  TestCgroup cg;
  REQUIRE(cg.mounted);
  std::string script = "BEGIN { printf(\"%lu\\n\", cgroupid(\"" + cg.group + "\")); exit(); }";
  RunResult theirs = run({"bpftrace", "-e", script});
  RunResult ours = run_rawprobe({"-e", script});
  INFO(theirs.out, theirs.err, ours.err);
  REQUIRE(theirs.status == 0);
  REQUIRE(ours.status == 0);
  CHECK(printed(ours) == printed(theirs));
}
}

TEST_SUITE("host-only") {
// util-linux's unshare makes the pid namespace; the guests' busybox has no such applet.
TEST_CASE("pid and tid are as rawprobe's pid namespace sees them, pid(init) as the initial one does") {
  // In a new pid namespace rawprobe is pid 1 and its -c child pid 2, which the child prints
  // itself ($$); the same child seen from the initial namespace has another pid.
  std::string script = "tracepoint:syscalls:sys_enter_exit_group /pid == cpid/ { printf(\"ids %d %d %d %d %d\\n\", pid, "
                       "pid(curr_ns), tid, pid(init), tid(init)); }";
  RunResult r = run({"unshare", "--pid", "--fork", "--mount-proc", rawprobe_path(), "-c",
                     "/bin/sh -c 'echo child $$; exec /bin/true'", "-e", script}, 60);
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::string child;
  for (const std::string& line : lines_starting(r.out, "child ")) child = line.substr(6);
  REQUIRE(!child.empty());
  std::vector<std::string> ids = lines_starting(r.out, "ids ");
  REQUIRE(ids.size() == 1);
  std::istringstream in(ids[0].substr(4));
  uint64_t pid = 0, pid_curr = 0, tid = 0, pid_init = 0, tid_init = 0;
  in >> pid >> pid_curr >> tid >> pid_init >> tid_init;
  CHECK(std::to_string(pid) == child);
  CHECK(pid_curr == pid);
  CHECK(tid == pid);  // one thread
  CHECK(pid_init != pid);
  CHECK(tid_init == pid_init);
  // Outside any new namespace the two views are one.
  RunResult plain = run_rawprobe({"-c", "/bin/sh -c 'echo child $$; exec /bin/true'", "-e", script}, 60);
  REQUIRE(plain.status == 0);
  std::vector<std::string> same = lines_starting(plain.out, "ids ");
  REQUIRE(same.size() == 1);
  std::istringstream again(same[0].substr(4));
  again >> pid >> pid_curr >> tid >> pid_init >> tid_init;
  CHECK(pid == pid_init);
  CHECK(pid_curr == pid_init);
  CHECK(std::to_string(pid) == lines_starting(plain.out, "child ").at(0).substr(6));
}
}

TEST_CASE("pid() and tid() take curr_ns or init, and say so") {
  RunResult r = run_rawprobe({"-e", "BEGIN { @ = pid(host); exit(); }"});
  CHECK(r.status == 1);
  CHECK(r.err.find("-e:1:17: error: pid() takes a pid namespace: curr_ns (rawprobe's, the default) or init") !=
        std::string::npos);
}
