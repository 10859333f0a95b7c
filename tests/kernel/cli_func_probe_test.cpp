// `probe` and `func` through the real CLI on real uprobes and uretprobes, in every attach
// mode this kernel offers: uprobe_multi (one program, cookie = point index), perf links with
// cookies (--attach-mode=pmu / legacy), and one program per point (perf_link pretended
// missing, so no cookies at all). Whatever the path, each point must print its own name and
// function, and each (probe, func) pair must count exactly the calls fun reports.
// A uretprobe's func is the function it returns from (bpftrace >= 0.21; 0.17 printed the
// caller, whose code the return address is in: bpftrace issue #2285).
#include <doctest/doctest.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>

#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

struct Mode {
  const char* name;
  std::vector<std::string> prefix;  // before rawprobe's own arguments
};

std::vector<Mode> modes() {
  return {
      {"auto (uprobe_multi)", {}},
      {"pmu", {"--attach-mode=pmu"}},
      {"legacy", {"--attach-mode=legacy"}},
      {"pmu without perf links: one program per point", {"--attach-mode=pmu"}},
  };
}

RunResult run_mode(const Mode& mode, std::vector<std::string> args) {
  std::vector<std::string> argv;
  if (std::string(mode.name).find("without perf links") != std::string::npos)
    argv = {"env", "RAWPROBE_PRETEND_MISSING=perf_link"};
  argv.push_back(rawprobe_path());
  argv.insert(argv.end(), mode.prefix.begin(), mode.prefix.end());
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, 60);
}

// fun's own "I'm bar" text (no newline; flushed when it exits) lands among our lines.
std::string ours_only(std::string text) {
  for (size_t at; (at = text.find("I'm bar")) != std::string::npos;) text.erase(at, 7);
  return text;
}

// Lines "PROBE FUNC" printed by the script, counted.
std::map<std::string, long> printed_pairs(const std::string& out) {
  std::map<std::string, long> pairs;
  std::regex line("(^|\n)(u(?:ret)?probe:[^ \n]+ [a-z_]+)(?=\n)");
  for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it) pairs[(*it)[2]]++;
  return pairs;
}

// The probe name shows the path as written: give the sample's absolute path, as a user would.
std::string fun_path() {
  char buf[PATH_MAX];
  std::string path = sample("fun");
  return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("probe and func name each point, in printf, print and map keys, in every attach mode") {
  std::string fun = fun_path();
  // Three points of one program, told apart by cookie (or a program each without cookies);
  // foo comes from a wildcard, whose probe name is the function it matched.
  std::string script = "uprobe:" + fun + ":fun, uprobe:" + fun + ":fo*, uretprobe:" + fun + ":bar { printf(\"%s %s\\n\", probe, func); "
                       "@[probe, func] = count(); @w[func] = count(); }";
  for (const Mode& mode : modes()) {
    CAPTURE(mode.name);
    RunResult r = run_mode(mode, {"-c", fun + " 2", "-e", script});
    INFO(r.out, r.err);
    REQUIRE(r.status == 0);
    std::map<std::string, long> pairs = printed_pairs(ours_only(r.out));
    CHECK(pairs.size() == 3);
    for (auto [kind, f] : {std::pair{"uprobe", "fun"}, {"uprobe", "foo"}, {"uretprobe", "bar"}}) {
      long calls = sys::ktest::reported_calls(r.err, f);
      REQUIRE(calls > 0);
      std::string probe = std::string(kind) + ":" + fun + ":" + f;
      CHECK(pairs[probe + " " + f] == calls);
      CHECK(ours_only(r.out).find("@[" + probe + ", " + f + "]: " + std::to_string(calls) + "\n") != std::string::npos);
      CHECK(ours_only(r.out).find("@w[" + std::string(f) + "]: " + std::to_string(calls) + "\n") != std::string::npos);
    }
  }
}

TEST_CASE("probe and func as values: print(), assignment, tuples, widths, JSON") {
  std::string fun = fun_path();
  std::string probe = "uprobe:" + fun + ":foo";
  RunResult r = run_rawprobe({"-c", fun, "-e",
                              "uprobe:" + fun + ":foo { printf(\"[%6s|%-8s]\\n\", func, func); print(probe); "
                              "print((func, 1)); @p = probe; @t = (func, probe); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  long foo = sys::ktest::reported_calls(r.err, "foo");
  REQUIRE(foo > 0);
  std::string out = ours_only(r.out);
  CHECK(lines_starting(out, "[   foo|foo     ]").size() == size_t(foo));
  CHECK(lines_starting(out, probe).size() == size_t(foo));
  CHECK(lines_starting(out, "(foo, 1)").size() == size_t(foo));
  CHECK(out.find("@p: " + probe + "\n") != std::string::npos);
  CHECK(out.find("@t: (foo, " + probe + ")\n") != std::string::npos);

  RunResult j = run_rawprobe({"-f", "json", "-c", fun, "-e",
                              "uprobe:" + fun + ":foo { print(func); @[probe, func] = count(); }"});
  INFO(j.out, j.err);
  REQUIRE(j.status == 0);
  CHECK(j.out.find("{\"type\": \"value\", \"data\": \"foo\"}\n") != std::string::npos);
  CHECK(j.out.find("{\"type\": \"map\", \"data\": {\"@\": {\"" + probe + ",foo\": " + std::to_string(foo) + "}}}\n") !=
        std::string::npos);
}

TEST_CASE("a quoted C++ name: probe names the mangled symbol, func its demangled name (c++filt's)") {
  char buf[PATH_MAX];
  std::string cxx = sample("elf/cxx_names");
  if (realpath(cxx.c_str(), buf)) cxx = buf;
  RunResult r = run_rawprobe({"-c", cxx, "-e",
                              "uprobe:" + cxx + ":\"ns::f(int)\", uprobe:" + cxx + ":\"int ns::twice<int>(int)\""
                              " { printf(\"<%s> <%s>\\n\", probe, func); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::regex line("<uprobe:" + cxx + ":([A-Za-z0-9_]+)> <(.+)>(?=\\n)");
  std::set<std::string> demangled;
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), line), end; it != end; ++it) {
    std::string mangled = (*it)[1], func = (*it)[2];
    CHECK(mangled.rfind("_Z", 0) == 0);
    CHECK(func + "\n" == run({"c++filt", mangled}).out);
    demangled.insert(func);
  }
  CHECK(demangled == std::set<std::string>{"ns::f(int)", "int ns::twice<int>(int)"});
}

// Two points that print the same key (a uprobe and a uretprobe of one function have one func)
// are two keys in the kernel: printed, they are one line holding both, as bpftrace keys by text.
TEST_CASE("map keys that print the same are merged: counts, sums, averages and histograms") {
  std::string fun = fun_path();
  RunResult r = run_rawprobe({"-c", fun + " 3", "-e",
                              "uprobe:" + fun + ":bar, uretprobe:" + fun + ":bar { @c[func] = count(); "
                              "@s[func] = sum(2); @a[func] = avg(5); @h[func] = hist(8); @m[func] = max(tid); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  long bar = sys::ktest::reported_calls(r.err, "bar");
  REQUIRE(bar > 0);
  std::string out = ours_only(r.out);
  CHECK(lines_starting(out, "@c[bar]: ") == std::vector<std::string>{"@c[bar]: " + std::to_string(2 * bar)});
  CHECK(lines_starting(out, "@s[bar]: ") == std::vector<std::string>{"@s[bar]: " + std::to_string(4 * bar)});
  CHECK(lines_starting(out, "@a[bar]: ") == std::vector<std::string>{"@a[bar]: 5"});
  CHECK(lines_starting(out, "@h[bar]: ").size() == 1);
  CHECK(lines_starting(out, "[8, 16) ").size() == 1);
  CHECK(std::regex_search(out, std::regex("\\[8, 16\\) +" + std::to_string(2 * bar) + " \\|")));
  CHECK(lines_starting(out, "@m[bar]: ").size() == 1);
}

TEST_CASE("func is refused where bpftrace refuses it, with its message") {
  RunResult tp = run_rawprobe({"-e", "tracepoint:syscalls:sys_enter_read { printf(\"%s\\n\", func); }"});
  CHECK(tp.status == 1);
  CHECK(tp.err.find("The func builtin can not be used with 'tracepoint' probes") != std::string::npos);
  std::string usdt = sample("hello_usdt");
  RunResult u = run_rawprobe({"-e", "usdt:" + usdt + ":yeet-Im-a-USDT-probe:USDT-test-probe { @[func] = count(); }"});
  CHECK(u.status == 1);
  CHECK(u.err.find("The func builtin can not be used with 'usdt' probes") != std::string::npos);
}

TEST_SUITE_END();

// Runs on the VM's stock kernels too (kprobes there; none on the build host, which checks the
// refusal instead). open_read says how many opens and reads it made; the static build makes
// no others (no dynamic loader opening libraries).
TEST_CASE("func in kprobe and kretprobe names the kernel function, or kprobes are refused by name") {
  std::string bin = sample("static/open_read");
  if (::access(bin.c_str(), X_OK) != 0) bin = sample("open_read");  // the VM's samples are static
  RunResult r = run_rawprobe({"-c", bin + " 3", "-e",
                              "kprobe:do_sys_openat2, kretprobe:vfs_read /comm == \"open_read\"/ { "
                              "printf(\"%s %s\\n\", probe, func); @[probe, func] = count(); }"});
  INFO(r.out, r.err);
  bool kprobes = ::access("/sys/bus/event_source/devices/kprobe", F_OK) == 0 ||
                 ::access("/sys/kernel/tracing/kprobe_events", F_OK) == 0;
  if (!kprobes) {
    CHECK(r.status == 1);
    CHECK(r.err.find("this kernel has no kprobes") != std::string::npos);
    return;
  }
  REQUIRE(r.status == 0);
  std::smatch opens, reads;
  REQUIRE(std::regex_search(r.out, opens, std::regex("\nopens ([0-9]+)\n")));
  REQUIRE(std::regex_search(r.out, reads, std::regex("\nreads ([0-9]+)\n")));
  CHECK(lines_starting(r.out, "kprobe:do_sys_openat2 do_sys_openat2").size() == std::stoul(opens[1]));
  CHECK(lines_starting(r.out, "kretprobe:vfs_read vfs_read").size() == std::stoul(reads[1]));
  CHECK(r.out.find("@[kprobe:do_sys_openat2, do_sys_openat2]: " + opens[1].str() + "\n") != std::string::npos);
  CHECK(r.out.find("@[kretprobe:vfs_read, vfs_read]: " + reads[1].str() + "\n") != std::string::npos);
}
