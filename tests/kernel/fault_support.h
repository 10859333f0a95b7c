// What the fault tests read back after a run: the legacy uprobe events tracefs holds now, and
// whether the BPF objects a run held (their ids, from its fdinfo) are gone.
#pragma once
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/sys/tracefs.h"
#include "tests/kernel/cli_run.h"

namespace rawprobe::cli_test {

inline std::string uprobe_events() {
  Result<std::string> dir = sys::tracefs_dir();
  REQUIRE(dir);
  std::string text;
  sys::read_text_file(*dir + "/uprobe_events", text);
  return text;
}

// "prog_id:\t42" and the like, from each fdinfo text.
inline std::set<std::string> ids_in(const std::vector<std::string>& infos, const std::string& field) {
  std::set<std::string> ids;
  std::regex re("(^|\n)" + field + ":\\s*([0-9]+)");
  for (const std::string& info : infos) {
    std::smatch m;
    if (std::regex_search(info, m, re)) ids.insert(m[2]);
  }
  return ids;
}

// Whether bpftool still finds OBJECT (prog, map, link) with this id.
inline bool bpftool_finds(const std::string& object, const std::string& id) {
  return run({"bpftool", object, "show", "id", id}, 10).status == 0;
}

// Waits (the kernel frees programs and maps after an RCU grace period) until none of `ids`
// resolves; the ones still there after 30 s. A grace period takes milliseconds on an idle
// machine, but seconds when guests beside the suite keep every core busy.
inline std::set<std::string> still_there(const std::string& object, const std::set<std::string>& ids) {
  std::set<std::string> left = ids;
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!left.empty() && std::chrono::steady_clock::now() < end) {
    for (auto it = left.begin(); it != left.end();) it = bpftool_finds(object, *it) ? std::next(it) : left.erase(it);
    if (!left.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return left;
}

// RAWPROBE_TEST_PAUSE_BEFORE_ATTACH=FIFO holds rawprobe before its first uprobe attach: opens
// the FIFO for writing once rawprobe has opened it for reading, which it does when every target
// is inspected; -1 after `seconds`. Closing the returned descriptor lets rawprobe go on.
inline int wait_for_pause(const std::string& fifo, int seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < end) {
    int fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) return fd;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return -1;
}

}  // namespace rawprobe::cli_test
