// The raw syscall layer end to end, no front end: a Builder-assembled counting program, loaded as a kprobe-type
// program, attached to foo() of samples/fun through the uprobe PMU, then with a pid filter,
// then through the legacy tracefs uprobe_events path. The count must equal the number of
// calls fun itself reports on stderr.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <linux/bpf.h>
#include <string>
#include <unistd.h>

#include "engine/sys/attach.h"
#include "engine/sys/features.h"
#include "engine/sys/perf.h"
#include "engine/sys/tracefs.h"
#include "tests/kernel/sys_support.h"

using namespace rawprobe;
using namespace rawprobe::sys;
using namespace rawprobe::sys::ktest;

namespace {

constexpr const char* kFunction = "foo";
// fun's loop count: enough calls that an off-by-some attach would show.
constexpr const char* kRepeat = "25";

struct Target {
  std::string path;
  uint64_t offset;
};

Target fun_target() {
  Target t{sample_path("fun"), 0};
  INFO("sample: " << t.path << " (set RAWPROBE_SAMPLES or run make samples)");
  REQUIRE(::access(t.path.c_str(), X_OK) == 0);
  Result<uint64_t> offset = function_file_offset(t.path, kFunction);
  REQUIRE_MESSAGE(offset, (offset ? "" : offset.error().message()));
  t.offset = *offset;
  return t;
}

// Runs fun held until now and returns (counted by BPF, reported by fun).
std::pair<uint64_t, long> run_fun(HeldChild& child, const Counter& counter) {
  std::string report = child.release_and_wait();
  INFO("fun's stderr: " << report);
  CHECK(child.exit_status() == 0);
  return {counter.value(), reported_calls(report, kFunction)};
}

bool cloexec(int fd) { return (::fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0; }

}  // namespace

TEST_CASE("uprobe PMU: the BPF count of foo() equals the calls fun reports") {
  Target t = fun_target();
  Result<Counter> counter = make_counter(BPF_PROG_TYPE_KPROBE, "count_foo");
  REQUIRE_MESSAGE(counter, (counter ? "" : counter.error().message()));
  CHECK(cloexec(counter->map.get()));
  CHECK(cloexec(counter->prog.get()));

  Result<Fd> event = open_uprobe({t.path, t.offset});
  REQUIRE_MESSAGE(event, (event ? "" : event.error().message()));
  CHECK(cloexec(event->get()));
  Result<PerfAttachment> attached = attach_perf_event(std::move(*event), counter->prog.get());
  REQUIRE_MESSAGE(attached, (attached ? "" : attached.error().message()));
  CHECK(attached->mode() == (has(Feature::perf_link) ? AttachMode::link : AttachMode::ioctl));

  HeldChild child({t.path, kRepeat});
  auto [counted, reported] = run_fun(child, *counter);
  CHECK(reported > 0);
  CHECK(counted == static_cast<uint64_t>(reported));
}

TEST_CASE("uprobe PMU with a pid filter counts only that process") {
  Target t = fun_target();
  Result<Counter> counter = make_counter(BPF_PROG_TYPE_KPROBE, "count_foo_pid");
  REQUIRE_MESSAGE(counter, (counter ? "" : counter.error().message()));

  HeldChild child({t.path, kRepeat});
  HeldChild other({t.path, "3"});  // runs too, but is not the filtered pid
  Result<Fd> event = open_uprobe({t.path, t.offset}, child.pid(), -1);
  REQUIRE_MESSAGE(event, (event ? "" : event.error().message()));
  Result<PerfAttachment> attached = attach_perf_event(std::move(*event), counter->prog.get());
  REQUIRE_MESSAGE(attached, (attached ? "" : attached.error().message()));

  std::string other_report = other.release_and_wait();
  CHECK(reported_calls(other_report, kFunction) > 0);
  CHECK(counter->value() == 0);  // the other process's calls were not counted
  auto [counted, reported] = run_fun(child, *counter);
  CHECK(reported > 0);
  CHECK(counted == static_cast<uint64_t>(reported));
}

TEST_CASE("legacy tracefs uprobe_events: define, count through the tracepoint, remove") {
  Target t = fun_target();
  Result<Counter> counter = make_counter(BPF_PROG_TYPE_KPROBE, "count_foo_tfs");
  REQUIRE_MESSAGE(counter, (counter ? "" : counter.error().message()));
  Result<std::string> dir = tracefs_dir();
  REQUIRE_MESSAGE(dir, (dir ? "" : dir.error().message()));

  std::string name, id_path;
  {
    char probe[64];
    std::snprintf(probe, sizeof probe, ":0x%llx", static_cast<unsigned long long>(t.offset));
    Result<DynamicEvent> event = DynamicEvent::create(DynamicKind::uprobe, false, t.path + probe);
    REQUIRE_MESSAGE(event, (event ? "" : event.error().message()));
    name = event->name();
    CHECK(name.rfind("rawprobe_" + std::to_string(::getpid()) + "_", 0) == 0);
    id_path = *dir + "/events/" + event->group() + "/" + name + "/id";
    CHECK(::access(id_path.c_str(), F_OK) == 0);
    Result<uint32_t> id = event->id();
    REQUIRE_MESSAGE(id, (id ? "" : id.error().message()));
    Result<Fd> perf = open_tracepoint(*id, -1, 0, name);
    REQUIRE_MESSAGE(perf, (perf ? "" : perf.error().message()));
    Result<PerfAttachment> attached = attach_perf_event(std::move(*perf), counter->prog.get());
    REQUIRE_MESSAGE(attached, (attached ? "" : attached.error().message()));
    attached->keep_event(std::move(*event));

    HeldChild child({t.path, kRepeat});
    auto [counted, reported] = run_fun(child, *counter);
    CHECK(reported > 0);
    CHECK(counted == static_cast<uint64_t>(reported));
  }  // detach, close, remove the event, in that order
  CHECK(::access(id_path.c_str(), F_OK) != 0);
  std::string listing;
  FILE* f = std::fopen((*dir + "/uprobe_events").c_str(), "r");
  REQUIRE(f);
  char line[512];
  while (std::fgets(line, sizeof line, f)) listing += line;
  std::fclose(f);
  CHECK(listing.find(name) == std::string::npos);
}
