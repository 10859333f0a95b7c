// Every provider attached for real on this kernel through engine/probes (expand -> load_plan
// -> attach), with a Builder-made program that counts hits per bpf cookie (= the point's
// index in the block). Counts are checked against what the samples report about themselves;
// every attachment and tracefs event must be gone once the handle dies.
#include <doctest/doctest.h>

#include <dirent.h>
#include <linux/bpf.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "bpfasm/builder.h"
#include "engine/lang/probe_spec.h"
#include "engine/probes/begin_end.h"
#include "engine/probes/provider.h"
#include "engine/sys/bpf_map.h"
#include "engine/sys/bpf_prog.h"
#include "engine/sys/host_root.h"
#include "engine/sys/tracefs.h"
#include "tests/kernel/sys_support.h"

using namespace rawprobe;
using namespace rawprobe::probes;

namespace {

struct CookieCounter {
  sys::Fd map, prog;
  uint64_t count(uint32_t cookie) const {
    uint64_t value = 0;
    Result<bool> found = sys::map_lookup(map.get(), &cookie, &value);
    return found && *found ? value : 0;
  }
};

// counts[bpf_get_attach_cookie(ctx)] += 1, loaded as the plan says.
CookieCounter cookie_counter(const LoadPlan& plan, uint32_t slots) {
  sys::MapSpec spec;
  spec.type = BPF_MAP_TYPE_ARRAY;
  spec.key_size = 4;
  spec.value_size = 8;
  spec.max_entries = slots;
  spec.name = "probes_count";
  Result<sys::Fd> map = sys::map_create(spec);
  REQUIRE_MESSAGE(map, (map ? "" : map.error().message()));
  using namespace rawprobe::bpf;
  Builder b;
  Label done = b.new_label("done");
  if (plan.cookies) {
    b.call(Helper::get_attach_cookie);  // r1 is still the context
    b.store(Size::W, R10, -4, R0);
  } else {
    b.store_imm(Size::W, R10, -4, 0);
  }
  b.load_map_fd(R1, MapHandle{0});
  b.mov(R2, R10);
  b.alu(Op::Add, R2, -4);
  b.call(Helper::map_lookup_elem);
  b.jump(Cond::Eq, R0, 0, done);
  b.mov(R1, 1);
  b.atomic(Atomic::Add, Size::DW, R0, 0, R1);
  b.bind(done);
  b.mov(R0, 0);
  b.exit();
  int fds[] = {map->get()};
  Result<Program> program = b.finish(fds);
  REQUIRE_MESSAGE(program, (program ? "" : program.error().message()));
  std::vector<Insn> slots_insns = program->slots();
  sys::ProgSpec prog;
  prog.type = kernel_prog_type(plan.type);
  prog.insns = slots_insns;
  prog.name = "probes_count";
  prog.expected_attach_type = plan.expected_attach_type;
  Result<sys::Fd> fd = sys::prog_load(prog);
  REQUIRE_MESSAGE(fd, (fd ? "" : fd.error().message() + "\n" + fd.error().detail));
  return {std::move(*map), std::move(*fd)};
}

lang::ProbeSpec spec_of(const std::string& text) {
  lang::ProbeSpec spec;
  Status parsed = lang::parse_probe_spec(text, {}, spec);
  REQUIRE_MESSAGE(parsed, (parsed ? "" : parsed.error().what));
  return spec;
}

std::vector<AttachPoint> expand_all(std::initializer_list<std::string> texts, ExpandContext ctx = {}) {
  std::vector<AttachPoint> points;
  for (const std::string& t : texts) {
    Result<std::vector<AttachPoint>> got = expand(spec_of(t), ctx);
    REQUIRE_MESSAGE(got, (got ? "" : got.error().message()));
    for (AttachPoint& p : *got) points.push_back(std::move(p));
  }
  return points;
}

std::unique_ptr<Attachment> attach_or_fail(const std::vector<AttachPoint>& points, int prog,
                                           AttachOptions options = {}) {
  int fds[] = {prog};
  Result<std::unique_ptr<Attachment>> a = attach(points, fds, options);
  REQUIRE_MESSAGE(a, (a ? "" : a.error().message()));
  return std::move(*a);
}

std::string dynamic_events(const char* file) {
  Result<std::string> dir = sys::tracefs_dir();
  std::string text;
  if (dir) sys::read_text_file(*dir + "/" + file, text);
  return text;
}

bool has_our_event(const char* file) {
  return dynamic_events(file).find("rawprobe_" + std::to_string(::getpid()) + "_") != std::string::npos;
}

size_t open_fds() {
  size_t n = 0;
  DIR* d = ::opendir("/proc/self/fd");
  while (d && ::readdir(d)) ++n;
  if (d) ::closedir(d);
  return n;
}

std::string fun() { return sys::ktest::sample_path("fun"); }

}  // namespace

TEST_CASE("uprobe block foo+bar: per-cookie counts equal fun's own, in every attach mode") {
  for (AttachMode mode : {AttachMode::Auto, AttachMode::Pmu, AttachMode::Legacy}) {
    CAPTURE(attach_mode_name(mode));
    std::vector<AttachPoint> points = expand_all({"uprobe:" + fun() + ":foo", "uprobe:" + fun() + ":bar"});
    REQUIRE(points.size() == 2);
    CHECK(points[0].name == "uprobe:" + fun() + ":foo");
    CHECK(points[1].func == "bar");
    AttachOptions options;
    options.mode = mode;
    LoadPlan plan = load_plan(points, options);
    CookieCounter counter = cookie_counter(plan, 2);
    size_t fds_before = open_fds();
    {
      std::unique_ptr<Attachment> a = attach_or_fail(points, counter.prog.get(), options);
      CHECK(a->count() == 2);
      INFO(a->describe());
      CHECK(has_our_event("uprobe_events") == (mode == AttachMode::Legacy));
      sys::ktest::HeldChild child({fun(), "7"});
      std::string report = child.release_and_wait();
      CHECK(counter.count(0) == static_cast<uint64_t>(sys::ktest::reported_calls(report, "foo")));
      CHECK(counter.count(1) == static_cast<uint64_t>(sys::ktest::reported_calls(report, "bar")));
    }
    CHECK_FALSE(has_our_event("uprobe_events"));
    CHECK(open_fds() == fds_before);
  }
}

TEST_CASE("uretprobe fires once per return of foo") {
  std::vector<AttachPoint> points = expand_all({"uretprobe:" + fun() + ":foo"});
  REQUIRE(points.size() == 1);
  CHECK(points[0].is_return);
  CookieCounter counter = cookie_counter(load_plan(points, {}), 1);
  std::unique_ptr<Attachment> a = attach_or_fail(points, counter.prog.get());
  sys::ktest::HeldChild child({fun(), "5"});
  std::string report = child.release_and_wait();
  CHECK(counter.count(0) == static_cast<uint64_t>(sys::ktest::reported_calls(report, "foo")));
}

TEST_CASE("usdt: hello_usdt's probe fires once per round") {
  std::string bin = sys::ktest::sample_path("hello_usdt");
  std::vector<AttachPoint> points = expand_all({"usdt:" + bin + ":yeet-Im-a-USDT-probe:USDT-test-probe"});
  REQUIRE(points.size() == 1);
  REQUIRE(points[0].usdt_args.size() == 1);
  CHECK(points[0].usdt_args[0].spec.size == sizeof(time_t));  // tv.tv_sec: 4 bytes on Debian 12's armhf
  CookieCounter counter = cookie_counter(load_plan(points, {}), 1);
  std::unique_ptr<Attachment> a = attach_or_fail(points, counter.prog.get());
  sys::ktest::HeldChild child({bin, "3"});
  child.release_and_wait();
  CHECK(counter.count(0) == 3);
}

// python3.11 is on the build host only, not in the VM guest.
TEST_CASE("usdt with a semaphore: python3.11 function__entry fires only while attached" *
          doctest::test_suite("host-only")) {
  const std::string python = "/usr/bin/python3.11";
  REQUIRE(::access(python.c_str(), X_OK) == 0);
  std::vector<AttachPoint> points = expand_all({"usdt:" + python + ":python:function__entry"});
  REQUIRE(!points.empty());
  for (const AttachPoint& p : points) CHECK(p.ref_ctr_offset != 0);
  CookieCounter counter = cookie_counter(load_plan(points, {}), points.size());
  auto total = [&] {
    uint64_t n = 0;
    for (size_t i = 0; i < points.size(); ++i) n += counter.count(static_cast<uint32_t>(i));
    return n;
  };
  {
    std::unique_ptr<Attachment> a = attach_or_fail(points, counter.prog.get());
    sys::ktest::HeldChild child({python, "-c", "def f(): pass\nfor i in range(50): f()"});
    child.release_and_wait();
    // Python only reaches the probe site while its semaphore is set (3.11 fires it when the
    // eval loop enters a frame from C, not for every inlined Python call): any count proves
    // that the kernel (ref_ctr_offset) or rawprobe set it.
    CHECK(total() > 0);
  }
  uint64_t after = total();
  sys::ktest::HeldChild child({python, "-c", "def f(): pass\nf()"});
  child.release_and_wait();
  CHECK(total() == after);
}

TEST_CASE("tracepoint wildcard block: the getpid point counts this thread's calls") {
  std::vector<AttachPoint> points = expand_all({"tracepoint:syscalls:sys_enter_getp*id"});
  REQUIRE(points.size() >= 2);
  size_t getpid_index = points.size();
  for (size_t i = 0; i < points.size(); ++i)
    if (points[i].event == "sys_enter_getpid") getpid_index = i;
  REQUIRE(getpid_index < points.size());
  CHECK_FALSE(points[getpid_index].fields.empty());
  CookieCounter counter = cookie_counter(load_plan(points, {}), points.size());
  {
    std::unique_ptr<Attachment> a = attach_or_fail(points, counter.prog.get());
    for (int i = 0; i < 20; ++i) ::syscall(SYS_getpid);
  }
  uint64_t seen = counter.count(static_cast<uint32_t>(getpid_index));
  CHECK(seen >= 20);
  ::syscall(SYS_getpid);
  CHECK(counter.count(static_cast<uint32_t>(getpid_index)) == seen);
}

TEST_CASE("interval, profile and software events fire; hardware names the missing PMU") {
  SUBCASE("interval:ms:10 runs about 100 times a second on one CPU") {
    std::vector<AttachPoint> points = expand_all({"interval:ms:10"});
    CHECK_FALSE(points[0].every_cpu);
    CookieCounter counter = cookie_counter(load_plan(points, {}), 1);
    // The count is judged against the time the timer really had, measured around the attach
    // and the read: a loaded machine (or a TCG guest) oversleeps the 300 ms by any amount.
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); };
    Clock::time_point before_attach = Clock::now();
    std::unique_ptr<Attachment> a = attach_or_fail(points, counter.prog.get());
    Clock::time_point attached = Clock::now();
    CHECK(a->count() == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    Clock::time_point before_read = Clock::now();
    uint64_t n = counter.count(0);
    Clock::time_point after_read = Clock::now();
    CAPTURE(n);
    // At most one run per whole 10 ms period it was attached (plus one at the edge), and at
    // least half the periods it surely was: a timer event in a guest may run late, not early.
    CHECK(n <= static_cast<uint64_t>(ms(after_read - before_attach) / 10 + 1));
    CHECK(n >= static_cast<uint64_t>(ms(before_read - attached) / 10 / 2));
  }
  SUBCASE("profile:hz:99 on every CPU") {
    std::vector<AttachPoint> points = expand_all({"profile:hz:99"});
    CookieCounter counter = cookie_counter(load_plan(points, {}), 1);
    std::unique_ptr<Attachment> a = attach_or_fail(points, counter.prog.get());
    CHECK(a->count() == static_cast<size_t>(::sysconf(_SC_NPROCESSORS_ONLN)));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(counter.count(0) > 0);
  }
  SUBCASE("software:page-faults:1 counts faults we cause") {
    std::vector<AttachPoint> points = expand_all({"software:page-faults:1"});
    CookieCounter counter = cookie_counter(load_plan(points, {}), 1);
    std::unique_ptr<Attachment> a = attach_or_fail(points, counter.prog.get());
    std::vector<char> memory(64 << 20);
    for (size_t i = 0; i < memory.size(); i += 4096) memory[i] = 1;
    CHECK(counter.count(0) > 0);
  }
  SUBCASE("hardware:cycles") {
    std::vector<AttachPoint> points = expand_all({"hardware:cycles:100000"});
    CookieCounter counter = cookie_counter(load_plan(points, {}), 1);
    int fds[] = {counter.prog.get()};
    Result<std::unique_ptr<Attachment>> a = attach(points, fds, {});
    // The CPU's PMU as sysfs names it: "cpu" on x86, "armv8_pmuv3" (or _N, or per core type
    // "armv8_cortex_a53") on arm64.
    bool has_pmu = false;
    if (DIR* d = opendir("/sys/bus/event_source/devices")) {
      while (dirent* e = readdir(d)) {
        std::string name = e->d_name;
        has_pmu |= name == "cpu" || name == "cpu_core" || name.rfind("armv8_", 0) == 0;
      }
      closedir(d);
    }
    if (has_pmu) {
      CHECK_MESSAGE(a, (a ? "" : a.error().message()));
    } else {
      REQUIRE_FALSE(a);
      CHECK(a.error().message().find("no hardware PMU") != std::string::npos);
    }
  }
}

TEST_CASE("BEGIN and END fire once each, when the runtime triggers them") {
  std::vector<AttachPoint> points = expand_all({"BEGIN", "END"});
  REQUIRE(points.size() == 2);
  CookieCounter counter = cookie_counter(load_plan(points, {}), 2);
  std::unique_ptr<Attachment> a = attach_or_fail(points, counter.prog.get());
  trigger_begin();
  CHECK(counter.count(0) == 1);
  CHECK(counter.count(1) == 0);
  trigger_end();
  CHECK(counter.count(1) == 1);
}

TEST_CASE("kprobe:vfs_read: attaches where the kernel has kprobes, else names CONFIG_KPROBES") {
  Result<std::vector<AttachPoint>> points = expand(spec_of("kprobe:vfs_read"), {});
  std::string text;
  bool kprobes = sys::read_text_file("/sys/bus/event_source/devices/kprobe/type", text) ||
                 has_our_event("kprobe_events") || !dynamic_events("kprobe_events").empty() ||
                 [] { Result<std::string> d = sys::tracefs_dir(); std::string t;
                      return d && sys::read_text_file(*d + "/kprobe_events", t); }();
  if (!kprobes) {
    REQUIRE_FALSE(points);
    std::string msg = points.error().message();
    CHECK(msg.find("CONFIG_KPROBES") != std::string::npos);
    CHECK(msg.find("tracepoint:syscalls:sys_enter_read") != std::string::npos);
    CHECK(msg.find("tracepoint:syscalls:sys_exit_read") != std::string::npos);
    return;
  }
  REQUIRE_MESSAGE(points, (points ? "" : points.error().message()));
  for (AttachMode mode : {AttachMode::Pmu, AttachMode::Legacy}) {
    AttachOptions options;
    options.mode = mode;
    CookieCounter counter = cookie_counter(load_plan(*points, options), 1);
    {
      std::unique_ptr<Attachment> a = attach_or_fail(*points, counter.prog.get(), options);
      CHECK(has_our_event("kprobe_events") == (mode == AttachMode::Legacy));
      char buf[16];
      std::ifstream("/proc/self/stat").read(buf, sizeof buf);
      CHECK(counter.count(0) > 0);
    }
    CHECK_FALSE(has_our_event("kprobe_events"));
  }
}

TEST_CASE("bad input gives specific errors") {
  auto error_of = [](const std::string& text) {
    Result<std::vector<AttachPoint>> r = expand(spec_of(text), {});
    REQUIRE_FALSE(r);
    return r.error().message();
  };
  CHECK(error_of("uprobe:/no/such/binary:main").find("not found") != std::string::npos);
  std::string misspelt = error_of("uprobe:" + fun() + ":fooo");
  CHECK(misspelt.find("did you mean 'foo'") != std::string::npos);
  // foo at -O0 starts "push rbp" (1 byte), "mov rbp, rsp" (3 bytes): +2 is inside the mov.
  CHECK(error_of("uprobe:" + fun() + ":foo+2").find("instruction") != std::string::npos);
  std::string tp = error_of("tracepoint:syscalls:sys_enter_reed");
  CHECK(tp.find("tracepoint:syscalls:sys_enter_read") != std::string::npos);
  std::string usdt = error_of("usdt:" + sys::ktest::sample_path("hello_usdt") + ":USDT-test-prob");
  CHECK(usdt.find("USDT-test-probe") != std::string::npos);
}
