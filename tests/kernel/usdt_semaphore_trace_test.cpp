// --trace-syscalls shows the USDT semaphore writes rawprobe makes into a traced process on
// kernels without ref_ctr_offset (taken here with RAWPROBE_PRETEND_MISSING): the increment to
// 1 at attach and the decrement to 0 at release, on /proc/<child>/mem at the semaphore's
// address. The address is worked out apart from rawprobe, from readelf (the stapsdt note's
// semaphore address and the first PT_LOAD) and the child's /proc/PID/maps while it runs; the
// child's memory at that address, read by the test, holds 1 while the probe is attached.
//
// The release only reaches the child's memory while the child lives (after a -c command has
// exited there is no memory left to decrement), so the command runs long (usdt_args with
// many rounds) and the run is ended with SIGINT, before rawprobe stops the command.
#include <doctest/doctest.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <thread>

#include "tests/kernel/cli_run.h"

namespace rawprobe::cli_test {
namespace {

// The number after `key` on the first line of `text` (from `from`) holding it, hex.
std::optional<uint64_t> hex_after(const std::string& text, const std::string& key, size_t from = 0) {
  size_t at = text.find(key, from);
  if (at == std::string::npos) return std::nullopt;
  return std::strtoull(text.c_str() + at + key.size(), nullptr, 16);
}

// readelf -n: "Name: with_sema" then "Location: 0x..., Base: 0x..., Semaphore: 0x...".
std::optional<uint64_t> note_semaphore(const std::string& binary, const std::string& probe) {
  RunResult notes = run({"readelf", "-n", binary});
  size_t at = notes.out.find("Name: " + probe + "\n");
  if (at == std::string::npos) return std::nullopt;
  return hex_after(notes.out, "Semaphore: ", at);
}

// readelf -lW: the first LOAD segment's file offset and virtual address.
struct Load {
  uint64_t offset = 0, vaddr = 0;
};
std::optional<Load> first_load(const std::string& binary) {
  RunResult headers = run({"readelf", "-lW", binary});
  std::istringstream in(headers.out);
  std::string line;
  while (std::getline(in, line)) {
    Load l;
    if (std::sscanf(line.c_str(), " LOAD 0x%" SCNx64 " 0x%" SCNx64, &l.offset, &l.vaddr) == 2) return l;
  }
  return std::nullopt;
}

// A child of `parent` (its /proc/PID/stat's ppid), -1 when there is none.
pid_t child_of(pid_t parent) {
  pid_t found = -1;
  DIR* d = opendir("/proc");
  while (d && found < 0) {
    dirent* e = readdir(d);
    if (!e) break;
    std::string stat;
    if (!sys::read_text_file(std::string("/proc/") + e->d_name + "/stat", stat)) continue;
    size_t paren = stat.rfind(')');
    int ppid = 0;
    if (paren != std::string::npos && std::sscanf(stat.c_str() + paren + 1, " %*c %d", &ppid) == 1 && ppid == parent)
      found = std::atoi(e->d_name);
  }
  if (d) closedir(d);
  return found;
}

// Start of the mapping of `path` at file offset `pgoff` in process `pid`'s maps.
std::optional<uint64_t> mapping_start(pid_t pid, const std::string& path, uint64_t pgoff) {
  std::string maps;
  if (!sys::read_text_file("/proc/" + std::to_string(pid) + "/maps", maps)) return std::nullopt;
  std::istringstream in(maps);
  std::string line;
  while (std::getline(in, line)) {
    uint64_t start = 0, end = 0, off = 0;
    int name_at = 0;
    if (std::sscanf(line.c_str(), "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %n", &start, &end, &off, &name_at) < 3 ||
        name_at <= 0)
      continue;
    if (line.substr(size_t(name_at)) == path && off == pgoff) return start;
  }
  return std::nullopt;
}

// The u16 at `address` in process `pid`, read by the test itself.
std::optional<uint16_t> read_u16(pid_t pid, uint64_t address) {
  int fd = ::open(("/proc/" + std::to_string(pid) + "/mem").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  uint16_t v = 0;
  ssize_t n = ::pread(fd, &v, sizeof v, static_cast<off_t>(address));
  ::close(fd);
  if (n != sizeof v) return std::nullopt;
  return v;
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

// Kills the command if the test leaves before rawprobe has ended it.
struct KillOnExit {
  pid_t pid = -1;
  ~KillOnExit() {
    if (pid > 0) ::kill(pid, SIGKILL);
  }
};

}  // namespace

TEST_SUITE_BEGIN("host-only");  // the oracle is readelf, on the build host only

TEST_CASE("usdt semaphore in /proc/PID/mem: --trace-syscalls shows the increment to 1 and the decrement to 0") {
  char real[PATH_MAX];
  REQUIRE(::realpath(sample("usdt_args").c_str(), real) != nullptr);
  const std::string bin = real;  // as /proc/PID/maps names it
  std::optional<uint64_t> semaphore_vaddr = note_semaphore(bin, "with_sema");
  std::optional<Load> load = first_load(bin);
  REQUIRE(semaphore_vaddr);
  REQUIRE(*semaphore_vaddr != 0);
  REQUIRE(load);

  // Rounds enough to outlive the test's reads by far (each with_sema hit is a uprobe trap);
  // SIGINT ends the run, and rawprobe then stops the command.
  const std::string script = "usdt:" + bin + ":usdt_args:with_sema { @ = count(); }";
  ::setenv("RAWPROBE_PRETEND_MISSING", "uprobe_ref_ctr,uprobe_multi", 1);
  Process tracer({rawprobe_path(), "--trace-syscalls", "-c", bin + " 100000000", "-e", script});
  ::unsetenv("RAWPROBE_PRETEND_MISSING");
  REQUIRE(tracer.wait_for_output("Attaching 1 probe...\n", 30));

  // The command, once it has exec'd the sample: its load address, and the semaphore there.
  KillOnExit command;
  std::optional<uint64_t> start;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!start && std::chrono::steady_clock::now() < deadline) {
    if (command.pid < 0) command.pid = child_of(tracer.pid());
    if (command.pid > 0) start = mapping_start(command.pid, bin, load->offset & ~uint64_t(0xfff));
    if (!start) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE_MESSAGE(start, "no child of rawprobe mapping " << bin);
  const uint64_t address = *start - (load->vaddr & ~uint64_t(0xfff)) + *semaphore_vaddr;
  CAPTURE(hex(address));

  // The increment, as the command's memory shows it.
  std::optional<uint16_t> value;
  while (value != uint16_t(1) && std::chrono::steady_clock::now() < deadline) {
    value = read_u16(command.pid, address);
    if (value != uint16_t(1)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(value == uint16_t(1));
  // The command must still be running for the release to reach its memory.
  REQUIRE(::kill(command.pid, 0) == 0);

  tracer.signal(SIGINT);
  RunResult r = tracer.finish(60);
  INFO(r.out, r.err);
  CHECK(r.status == 0);  // (no count to check: SIGINT may come before the first hit)

  // pread64 of what was there, pwrite64 of the new value: 0 -> 1 at attach, 1 -> 0 at release.
  const std::string mem = "</proc/" + std::to_string(command.pid) + "/mem>, ";
  const std::string tail = ", 2, " + hex(address) + ") = 2";
  std::vector<std::string> lines = lines_starting(r.err, "pread64(");
  std::vector<std::string> writes = lines_starting(r.err, "pwrite64(");
  lines.insert(lines.end(), writes.begin(), writes.end());
  // call(FD</proc/PID/mem>, [value], 2, address) = 2
  auto has = [&](const std::string& call, uint16_t v) {
    const std::string rest = mem + "[" + hex(v) + "]" + tail;
    for (const std::string& line : lines) {
      if (line.rfind(call + "(", 0) != 0 || line.size() <= call.size() + 1 + rest.size() ||
          line.substr(line.size() - rest.size()) != rest)
        continue;
      std::string fd = line.substr(call.size() + 1, line.size() - rest.size() - call.size() - 1);
      if (fd.find_first_not_of("0123456789") == std::string::npos) return true;
    }
    return false;
  };
  CHECK(lines.size() == 4);
  CHECK(has("pread64", 0));
  CHECK(has("pwrite64", 1));
  CHECK(has("pread64", 1));
  CHECK(has("pwrite64", 0));
  // In that order: the increment before the probe's perf_event_open (the command is held
  // before its first instruction meanwhile), the decrement after.
  size_t inc = r.err.find("pwrite64(");
  size_t attach = r.err.find("config1=\"/proc/self/fd/");  // the binary's held descriptor
  size_t dec = r.err.rfind("pwrite64(");
  CHECK(inc < attach);
  CHECK(attach < dec);
  CHECK(r.err.substr(dec).find("[" + hex(0) + "]") != std::string::npos);
}

TEST_SUITE_END();

}  // namespace rawprobe::cli_test
