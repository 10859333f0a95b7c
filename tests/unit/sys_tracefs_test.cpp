// tracefs handling (engine/sys/tracefs.h) against fixture trees: ids, formats, event names,
// dynamic event definition and removal, and the cleanup of dead processes' leftovers.
#include <doctest/doctest.h>

#include <cerrno>
#include <string>
#include <unistd.h>

#include "engine/sys/tracefs.h"
#include "tests/unit/sys_fixture.h"

using namespace rawprobe;
using namespace rawprobe::sys;

namespace {

// A pid that is not running: the fixture's /proc simply lacks it (the fixture decides).
constexpr pid_t kDeadPid = 999999;

}  // namespace

TEST_CASE("tracepoint id and format come from events/<category>/<name>/") {
  testing::TempTree tree;
  tree.write("/sys/kernel/tracing/events/syscalls/sys_enter_write/id", "731\n");
  tree.write("/sys/kernel/tracing/events/syscalls/sys_enter_write/format", "name: sys_enter_write\nID: 731\n");
  tree.activate();
  Result<std::string> dir = tracefs_dir();
  REQUIRE(dir);
  CHECK(*dir == tree.path("/sys/kernel/tracing"));
  Result<uint32_t> id = tracepoint_id("syscalls", "sys_enter_write");
  REQUIRE(id);
  CHECK(*id == 731);
  Result<std::string> format = tracepoint_format("syscalls", "sys_enter_write");
  REQUIRE(format);
  CHECK(*format == tree.read("/sys/kernel/tracing/events/syscalls/sys_enter_write/format"));
}

TEST_CASE("a missing tracepoint is ENOENT naming it, with a hint") {
  testing::TempTree tree;
  tree.mkdir("/sys/kernel/tracing/events");
  tree.activate();
  Result<uint32_t> id = tracepoint_id("syscalls", "sys_enter_nothing");
  REQUIRE_FALSE(id);
  CHECK(id.error().err == ENOENT);
  CHECK(id.error().object == "syscalls:sys_enter_nothing");
  CHECK(!id.error().hint.empty());
}

TEST_CASE("tracefs under debugfs is found; no tracefs at all says how to mount it") {
  testing::TempTree old_style;
  old_style.mkdir("/sys/kernel/debug/tracing/events");
  old_style.activate();
  Result<std::string> dir = tracefs_dir();
  REQUIRE(dir);
  CHECK(*dir == old_style.path("/sys/kernel/debug/tracing"));

  testing::TempTree none;
  none.mkdir("/sys/kernel/tracing");  // the mount point exists but nothing is mounted
  none.activate();
  Result<std::string> missing = tracefs_dir();
  REQUIRE_FALSE(missing);
  CHECK(missing.error().hint.find("mount -t tracefs") != std::string::npos);
}

TEST_CASE("event names are rawprobe_<pid>_<n> and their owner can be read back") {
  std::string a = next_event_name();
  std::string b = next_event_name();
  CHECK(a != b);
  CHECK(a.rfind("rawprobe_" + std::to_string(getpid()) + "_", 0) == 0);
  CHECK(event_owner(a) == getpid());
  CHECK(event_owner("rawprobe_12_3") == 12);
  for (const char* other : {"rawprobe_", "rawprobe_12", "rawprobe_12_", "rawprobe__3", "rawprobe_x_3",
                            "bpftrace_12_3", "rawprobe_12_3x"}) {
    CAPTURE(other);
    CHECK(event_owner(other) == -1);
  }
}

TEST_CASE("a dynamic event is one appended line, and removed by its owner") {
  testing::TempTree tree;
  tree.mkdir("/sys/kernel/tracing/events");
  tree.write("/sys/kernel/tracing/uprobe_events", "");
  tree.activate();
  std::string name;
  {
    Result<DynamicEvent> ev = DynamicEvent::create(DynamicKind::uprobe, false, "/bin/true:0x1139");
    REQUIRE(ev);
    name = ev->name();
    CHECK(ev->group() == "uprobes");
    CHECK(tree.read("/sys/kernel/tracing/uprobe_events") == "p:" + name + " /bin/true:0x1139\n");
  }
  CHECK(tree.read("/sys/kernel/tracing/uprobe_events") ==
        "p:" + name + " /bin/true:0x1139\n-:uprobes/" + name + "\n");
}

TEST_CASE("leftovers of dead rawprobe processes are removed, live ones and others kept") {
  testing::TempTree tree;
  tree.mkdir("/sys/kernel/tracing/events");
  pid_t live = getppid();
  tree.mkdir("/proc/" + std::to_string(live));
  std::string dead_event = "rawprobe_" + std::to_string(kDeadPid) + "_0";
  std::string live_event = "rawprobe_" + std::to_string(live) + "_0";
  std::string listing = "p:uprobes/" + dead_event + " /bin/true:0x0000000000001139\n" +
                        "p:uprobes/" + live_event + " /bin/true:0x0000000000001139\n" +
                        "p:uprobes/someone_else /bin/true:0x0000000000001139\n";
  tree.write("/sys/kernel/tracing/uprobe_events", listing);
  // A kretprobe with maxactive is listed with it in the type: "r8:kprobes/NAME FUNC".
  std::string dead_kretprobe = "rawprobe_" + std::to_string(kDeadPid) + "_1";
  std::string klisting = "r8:kprobes/" + dead_kretprobe + " vfs_read\n" + "r:kprobes/" + live_event + " vfs_read\n";
  tree.write("/sys/kernel/tracing/kprobe_events", klisting);
  tree.activate();
  Result<std::vector<std::string>> removed = remove_stale_events();
  REQUIRE(removed);
  CHECK(*removed == std::vector<std::string>{"uprobes/" + dead_event, "kprobes/" + dead_kretprobe});
  CHECK(tree.read("/sys/kernel/tracing/uprobe_events") == listing + "-:uprobes/" + dead_event + "\n");
  CHECK(tree.read("/sys/kernel/tracing/kprobe_events") == klisting + "-:kprobes/" + dead_kretprobe + "\n");
}

TEST_CASE("a kretprobe with maxactive is written as r<N>:, one line, and removed by name") {
  testing::TempTree tree;
  tree.mkdir("/sys/kernel/tracing/events");
  tree.write("/sys/kernel/tracing/kprobe_events", "");
  tree.activate();
  std::string name, plain;
  {
    Result<DynamicEvent> ev = DynamicEvent::create(DynamicKind::kprobe, true, "vfs_read+0", 16);
    REQUIRE(ev);
    name = ev->name();
    CHECK(ev->group() == "kprobes");
    Result<DynamicEvent> no_max = DynamicEvent::create(DynamicKind::kprobe, true, "vfs_read+0");
    REQUIRE(no_max);
    plain = no_max->name();
    CHECK(tree.read("/sys/kernel/tracing/kprobe_events") ==
          "r16:" + name + " vfs_read+0\nr:" + plain + " vfs_read+0\n");
  }
  // Removal names group/event only; maxactive is not part of the name.
  CHECK(tree.read("/sys/kernel/tracing/kprobe_events") ==
        "r16:" + name + " vfs_read+0\nr:" + plain + " vfs_read+0\n-:kprobes/" + plain + "\n-:kprobes/" +
            name + "\n");
}

TEST_CASE("maxactive is refused, before any write, where the kernel would refuse it") {
  testing::TempTree tree;
  tree.mkdir("/sys/kernel/tracing/events");
  tree.write("/sys/kernel/tracing/kprobe_events", "");
  tree.write("/sys/kernel/tracing/uprobe_events", "");
  tree.activate();
  struct Case {
    DynamicKind kind;
    bool retprobe;
    uint32_t maxactive;
    const char* hint;
  };
  for (const Case& c : {Case{DynamicKind::kprobe, false, 8, "only to kretprobes"},
                        Case{DynamicKind::uprobe, true, 8, "only to kretprobes"},
                        Case{DynamicKind::kprobe, true, DynamicEvent::kMaxActiveLimit + 1, "from 1 to 4096"}}) {
    CAPTURE(c.maxactive);
    Result<DynamicEvent> ev = DynamicEvent::create(c.kind, c.retprobe, "vfs_read+0", c.maxactive);
    REQUIRE_FALSE(ev);
    CHECK(ev.error().hint.find(c.hint) != std::string::npos);
  }
  CHECK(tree.read("/sys/kernel/tracing/kprobe_events").empty());
  CHECK(tree.read("/sys/kernel/tracing/uprobe_events").empty());
  Result<DynamicEvent> at_limit =
      DynamicEvent::create(DynamicKind::kprobe, true, "vfs_read+0", DynamicEvent::kMaxActiveLimit);
  REQUIRE(at_limit);
  CHECK(tree.read("/sys/kernel/tracing/kprobe_events") ==
        "r4096:" + at_limit->name() + " vfs_read+0\n");
}
